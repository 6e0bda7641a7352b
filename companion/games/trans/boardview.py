"""The Trans board drawn in the terminal, shaped like the printed board.

Rows are offset by half a junction, as on the board, so the lattice of lines looks right and
the cities sit where players expect them. Each junction takes four characters: itself and the
line to its eastern neighbour; the line below a row carries the two diagonals. A column's
junctions zigzag around its letter on the margins (one character left of it in rows 1, 3,
5 ..., one right in rows 2, 4 ...), which is how ``board.py`` names them (``E6``).

Marks (a legend under the map repeats them):

* ``───`` ``/`` ``\\``  a single line (1 rail); ``═══`` ``‖`` a double line (2 rails);
  ``=?=`` ``?`` a double line the public sources disagree on (counted 2);
* a city: its three-letter abbreviation in its colour (``SDi`` = San Diego);
* rails on the board: ``━━━`` ``╱`` ``╲`` in the player's colour (``player:N``, by seat, the
  colours of every screen and page); a start marker: ``◆``, or the city's abbreviation in
  reverse when it stands on a city.

The drawing is a view (:mod:`companion.contract.view`): the map is an :class:`Art` block of
(text, style) runs in the view's style names, the legend is lines (wrapped between words by
the renderer) and the list of cities laid out here. The terminal's renderer colours it, or
not (a pipe, ``NO_COLOR``); nothing here writes a terminal code.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from companion.contract.language import N_, _, ngettext
from companion.contract.text import safe_text
from companion.games.trans.board import Board, Edge, column_letters
from companion.contract.view import message, COLOURS, Art, Em, Line, Name

LINE_STYLE = "line"
DOUBLE_STYLE = "double"
DISPUTED_STYLE = "disputed"
KIND_STYLES = {"water": "water", "mountain": "mountain"}
# the glyphs of a double line whose kind is known (horizontal, diagonal): water is drawn wavy, so
# the two kinds differ without colour too (NO_COLOR, a pipe); a mountain keeps the double's
KIND_GLYPHS = {"water": ("≈≈≈", "≀"), "mountain": ("═══", "‖")}
ROUTE_STYLE = "route"  # the missing rails `rails --draw` found
BUILT_STYLE = "built"  # rails typed with `rails MAP --built`
LEGEND_WIDTH = 92  # the legend's lines stay narrower than the usual 100-column rendering
MARGIN = 5  # characters left of the map: the row number and room for a westmost city


def colour_style(colour: str) -> str:
    """The style of a city of ``colour`` (the view's colour names are the editions')."""
    return f"colour:{colour}" if colour in COLOURS else "strong"


def player_style(seat: int) -> str:
    """The style of the player in seat ``seat`` (0-based): their rails, marker and legend line."""
    return f"player:{seat}"


def _with(style: str, more: str) -> str:
    return "+".join(s for s in (style, more) if s)


class _Canvas:
    """A grid of (character, style) cells, turned into the rows of an Art block at the end."""

    def __init__(self, width: int, height: int):
        self.cells = [[(" ", "") for _ in range(width)] for _ in range(height)]

    def put(self, row: int, col: int, text: str, style: str = "") -> None:
        text = safe_text(text)  # a name from a pack: no control character reaches the terminal
        line = self.cells[row]
        for i, ch in enumerate(text):
            if 0 <= col + i < len(line):
                line[col + i] = (ch, style)

    def rows(self) -> list[list[tuple[str, str]]]:
        out = []
        for line in self.cells:
            end = len(line)
            while end and line[end - 1][0] == " ":
                end -= 1
            runs: list[list[str]] = []
            for ch, style in line[:end]:
                if runs and runs[-1][1] == style:
                    runs[-1][0] += ch
                else:
                    runs.append([ch, style])
            out.append([(t, s) for t, s in runs])
        return out


def _kinds(board: Board) -> dict[Edge, str]:
    """The known kind of each double line (empty until the players supply double_kinds)."""
    out: dict[Edge, str] = {}
    kinds = board.double_kinds if isinstance(board.double_kinds, dict) else {}
    for kind in ("water", "mountain"):
        if kinds.get(kind) is not None:
            try:
                for e in board.kind_edges(kind):
                    out[e] = kind
            except Exception:  # a malformed value is reported by `rails`, not by the drawing
                continue
    return out


def draw(
    board: Board,
    rails: Mapping[Edge, str] | None = None,
    markers: Mapping[int, str] | None = None,
    notes: Sequence[tuple[Any, str]] = (),
    legend: bool = True,
    width: int | None = None,
) -> list:
    """The map as a view: the drawing, then its legend.

    ``rails`` maps built lines to the style of the player who built them (``player:0``),
    ``markers`` maps start-marker junctions to a style, ``notes`` are extra legend lines
    ``(text, style)``, the text a string or a list of parts (names kept whole: ``Name``),
    such as each player's name in their colour and the network they are on. ``width`` is the
    screen's (default: the terminal's): a map that does not fit says so instead.
    """
    rails = dict(rails or {})
    markers = dict(markers or {})
    ncols = max(board.column) + 1
    px = [4 * c + 2 * (y % 2) + MARGIN for c, (x, y) in zip(board.column, board.xy)]
    height = 2 * len(board.rows) + 1  # margins top and bottom, rows and the lines between
    kinds = _kinds(board)
    room = width_room(width)
    players = sorted({px[v] for v in markers} | {px[n] for e in rails for n in e})
    part = room < width_needed(board) and bool(players) and room >= CROP_AT_LEAST
    if room < width_needed(board) and not part:  # the grid would wrap into a mess: say so, keep the words
        out: list = [Line(_("The map needs {need} columns and this screen has {room}: widen the window to see "
                            "it.").format(need=width_needed(board), room=room))]
        if legend:
            out += _legend(board, kinds, notes, room)
        return out
    cv = _Canvas(MARGIN + 4 * ncols + 6, height)

    letters = "".join(column_letters(c).ljust(4) for c in range(ncols))
    cv.put(0, MARGIN + 1, letters.rstrip(), "dim")
    cv.put(height - 1, MARGIN + 1, letters.rstrip(), "dim")
    right = MARGIN + 4 * ncols + 1
    for y in range(len(board.rows)):
        cv.put(1 + 2 * y, 0, str(y + 1).rjust(3), "dim")
        cv.put(1 + 2 * y, right, str(y + 1), "dim")

    for (a, b), cost in board.cost.items():
        (xa, ya), (xb, yb) = board.xy[a], board.xy[b]
        row = 1 + 2 * ya
        horizontal = ya == yb
        if (a, b) in rails:
            style = rails[(a, b)]
            glyph = "━━━" if horizontal else ("╲" if xb == xa + 1 else "╱")
        elif (a, b) in board.disputed:
            style = DISPUTED_STYLE
            glyph = "=?=" if horizontal else "?"
        elif cost == 2:
            kind = kinds.get((a, b), "")
            style = KIND_STYLES.get(kind, DOUBLE_STYLE)
            glyph = KIND_GLYPHS.get(kind, ("═══", "‖"))[0 if horizontal else 1]
        else:
            style = LINE_STYLE
            glyph = "───" if horizontal else ("\\" if xb == xa + 1 else "/")
        if horizontal:
            cv.put(row, px[a] + 1, glyph, style)
        elif xb == xa + 1:  # south-east neighbour
            cv.put(row + 1, px[a] + 1, glyph, style)
        else:  # south-west neighbour
            cv.put(row + 1, px[a] - 1, glyph, style)

    for v in range(len(board.xy)):
        row = 1 + 2 * board.xy[v][1]
        if v in markers:
            cv.put(row, px[v], "◆", markers[v])
        else:
            cv.put(row, px[v], "•", LINE_STYLE)
    for city in board.cities:
        row = 1 + 2 * board.xy[city.node][1]
        style = colour_style(city.colour)
        if city.node in markers:
            style = _with(markers[city.node], "reverse")
        cv.put(row, px[city.node] - 1, city.abbr, style)

    out = [Art(cv.rows())]
    if part:  # issue 31: the part of the map around the players' markers and rails, as wide as the screen
        out = [Line(_("The part of the map around the players: the whole map needs {need} columns and this screen "
                      "has {room}.").format(need=width_needed(board), room=room)), _around(cv, players, room)]
    if legend:
        out += _legend(board, kinds, notes, room)
    return out


CROP_AT_LEAST = 30  # columns under which no part of the map is worth drawing (it only says how wide it needs)


def _around(cv: _Canvas, players: list[int], room: int) -> Art:
    """The columns of ``cv`` round the players' junctions (their middle at the middle), ``room``
    wide with the row numbers kept on the left."""
    keep = room - 4  # the row number and a space
    full = len(cv.cells[0])
    middle = (players[0] + players[-1]) // 2
    lo = min(max(middle - keep // 2, 3), max(full - keep, 3))
    part = _Canvas(room, len(cv.cells))
    for r, line in enumerate(cv.cells):
        part.cells[r][:3] = line[:3]
        part.cells[r][4:4 + keep] = line[lo:lo + keep]
        del part.cells[r][room:]
    return Art(part.rows())


def width_needed(board: Board) -> int:
    """Columns the grid takes: the margin, four per column, and the row number on the right."""
    return MARGIN + 4 * (max(board.column) + 1) + 3


def width_room(width: int | None) -> int:
    if width is not None:
        return width
    from companion.games.kit import screen_width

    return screen_width()


def _legend(board: Board, kinds: dict[Edge, str], notes: Sequence[tuple[Any, str]], room: int = 100) -> list:
    limit = min(LEGEND_WIDTH, room)
    marks: list[Any] = [Em("─── / \\", LINE_STYLE, whole=True), " " + _("single line, 1 rail") + "   ",
                        Em("═══ ‖", DOUBLE_STYLE, whole=True), " " + _("double line, 2 rails")]
    if board.disputed:
        marks += ["   ", Em("=?= ?", DISPUTED_STYLE, whole=True), " " + _("disputed double (counted 2)")]
    out: list = [Line(""), Line(*marks)]
    if board.counted_single:  # Europa's ferry and tunnel, as the players said (single.py)
        from companion.games.trans.single import OTHERS, title
        from companion.contract.view import joined

        said = [Name(board.edge_name(e) + ("" if key == OTHERS else f" ({title(board.game, key)})"))
                for e, key in sorted(board.counted_single.items())]
        out.append(Line(*message(_("Drawn single, as your board counts them: {lines}."), lines=joined(said))))
    if kinds:
        out.append(Line(Em(" ".join(KIND_GLYPHS["water"]), KIND_STYLES["water"], whole=True), " " + _("water") + "   ",
                        Em(" ".join(KIND_GLYPHS["mountain"]), KIND_STYLES["mountain"], whole=True),
                        " " + _("mountain")))
    out.append(Line(*message(_("Junctions: column letter and row number ({example}); city names and abbreviations "
                               "name their junctions too."), example=Em(board.coord[len(board.coord) // 2], "strong")),
                    indent=""))
    rows: list[list[tuple[str, str]]] = []
    from companion.games.trans.rules import colour_word

    width = max([10, *(len(colour_word(c)) + 1 for c in board.colours)])
    for colour in board.colours:
        cities = sorted((c for c in board.cities if c.colour == colour), key=lambda c: c.name)
        row: list[tuple[str, str]] = [(f"{colour_word(colour):<{width}}", colour_style(colour))]
        used = width
        for i, c in enumerate(cities):
            item = f"{c.abbr} {c.name}"
            if i and used + 2 + len(item) > limit:
                rows.append(row)
                row = [(" " * width, "")]
                used = width
            elif i:
                row.append(("  ", ""))
                used += 2
            row += [(safe_text(c.abbr), colour_style(colour)), (" " + safe_text(c.name), "")]
            used += len(item)
        rows.append(row)
    out.append(Art(rows))
    for text, style in notes:  # wrapped at spaces, never inside a name the caller kept whole
        parts = text if isinstance(text, (list, tuple)) else [text]
        out.append(Line(*parts, style=style or ""))
    return out


def route_styles(edges: Iterable[Edge], style: str = ROUTE_STYLE) -> dict[Edge, str]:
    """Lines to draw as rails in one style (e.g. the missing rails `rails --draw` shows)."""
    return {e: style for e in edges}
