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
* rails on the board: ``━━━`` ``╱`` ``╲`` in the player's colour (``PLAYER_STYLES``, by seat); a
  start marker: ``◆``, or the city's abbreviation in reverse when it stands on a city.

The drawing is a ``rich.text.Text``: printed to a terminal it is in colour, and
``companion.terminal.render.to_text(..., color=False)`` turns it into plain text for tests and pipes.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from rich.text import Text

from companion.core.text import safe_text
from companion.games.trans.board import Board, Edge, column_letters

# colour names of the editions -> terminal colours (the combined edition's too)
COLOUR_STYLES = {
    "green": "green",
    "blue": "bright_blue",
    "yellow": "yellow",
    "red": "red",
    "orange": "dark_orange",
    "brown": "orange4",
    "white": "bright_white",
    "pink": "hot_pink",
    "turquoise": "turquoise2",
}
# players' rails and markers: bright, bold and unlike the cities' colours and the magenta that
# `rails --draw` gives the missing rails found
PLAYER_STYLES = ("bold bright_red", "bold bright_blue", "bold bright_green", "bold bright_yellow",
                 "bold bright_cyan", "bold bright_white")
LINE_STYLE = "grey50"
DOUBLE_STYLE = "bold"
KIND_STYLES = {"water": "bold bright_cyan", "mountain": "bold grey70"}
LEGEND_WIDTH = 92  # the legend's lines stay narrower than the usual 100-column rendering
MARGIN = 5  # characters left of the map: the row number and room for a westmost city


def colour_style(colour: str) -> str:
    return COLOUR_STYLES.get(colour, "")


def player_style(seat: int) -> str:
    """The style of the player in seat ``seat`` (0-based): their rails, marker and legend line."""
    return PLAYER_STYLES[seat % len(PLAYER_STYLES)]


class _Canvas:
    """A grid of (character, style) cells, turned into one Text at the end."""

    def __init__(self, width: int, height: int):
        self.cells = [[(" ", "") for _ in range(width)] for _ in range(height)]

    def put(self, row: int, col: int, text: str, style: str = "") -> None:
        text = safe_text(text)  # a name from a pack: no control character reaches the terminal
        line = self.cells[row]
        for i, ch in enumerate(text):
            if 0 <= col + i < len(line):
                line[col + i] = (ch, style)

    def text(self) -> Text:
        out = Text()
        for r, line in enumerate(self.cells):
            end = len(line)
            while end and line[end - 1][0] == " ":
                end -= 1
            for ch, style in line[:end]:
                out.append(ch, style=style or None)
            if r < len(self.cells) - 1:
                out.append("\n")
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
    notes: Sequence[tuple[str, str]] = (),
    legend: bool = True,
    width: int | None = None,
) -> Text:
    """The map as a rich Text.

    ``rails`` maps built lines to the style of the player who built them (e.g. ``"bold red"``),
    ``markers`` maps start-marker junctions to a style, ``notes`` are extra legend lines
    ``(text, style)`` such as each player's name in their colour and the network they are on.
    """
    rails = dict(rails or {})
    markers = dict(markers or {})
    ncols = max(board.column) + 1
    px = [4 * c + 2 * (y % 2) + MARGIN for c, (x, y) in zip(board.column, board.xy)]
    height = 2 * len(board.rows) + 1  # margins top and bottom, rows and the lines between
    kinds = _kinds(board)
    room = width_room(width)
    if room < width_needed(board):  # the grid would wrap into a mess: say so, keep the words
        out = Text(f"The map needs {width_needed(board)} columns and this screen has {room}: "
                   "widen the window to see it.")
        if legend:
            out.append("\n")
            out.append_text(_legend(board, kinds, notes, room))
        return out
    width = MARGIN + 4 * ncols + 6
    cv = _Canvas(width, height)

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
            style = DOUBLE_STYLE
            glyph = "=?=" if horizontal else "?"
        elif cost == 2:
            style = KIND_STYLES.get(kinds.get((a, b), ""), DOUBLE_STYLE)
            glyph = "═══" if horizontal else "‖"
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
        style = "bold " + colour_style(city.colour)
        if city.node in markers:
            style = markers[city.node] + " reverse"
        cv.put(row, px[city.node] - 1, city.abbr, style.strip())

    out = cv.text()
    if legend:
        out.append("\n")
        out.append_text(_legend(board, kinds, notes, room))
    return out


def width_needed(board: Board) -> int:
    """Columns the grid takes: the margin, four per column, and the row number on the right."""
    return MARGIN + 4 * (max(board.column) + 1) + 3


def width_room(width: int | None) -> int:
    if width is not None:
        return width
    from companion.terminal.render import screen_width

    return screen_width()


def _legend(board: Board, kinds: dict[Edge, str], notes: Sequence[tuple[str, str]], room: int = 100) -> Text:
    limit = min(LEGEND_WIDTH, room)
    out = Text()
    out.append("\n─── / \\", LINE_STYLE)
    out.append(" single line, 1 rail   ")
    out.append("═══ ‖", DOUBLE_STYLE)
    out.append(" double line, 2 rails")
    if board.disputed:
        out.append("   ")
        out.append("=?= ?", DOUBLE_STYLE)
        out.append(" disputed double (counted 2)")
    if board.counted_single:  # Europa's ferry and tunnel, as the players said (single.py)
        from companion.games.trans.single import OTHERS, title

        said = [board.edge_name(e) + ("" if key == OTHERS else f" ({title(board.game, key)})")
                for e, key in sorted(board.counted_single.items())]
        out.append(safe_text("\nDrawn single, as your board counts them: " + ", ".join(said) + "."))
    if kinds:
        out.append("\n")
        out.append("═══ ‖", KIND_STYLES["water"])
        out.append(" water   ")
        out.append("═══ ‖", KIND_STYLES["mountain"])
        out.append(" mountain")
    out.append("\nJunctions: column letter and row number (")
    out.append(board.coord[len(board.coord) // 2], "bold")
    out.append("); city names and abbreviations name their junctions too.")
    for colour in board.colours:
        cities = sorted((c for c in board.cities if c.colour == colour), key=lambda c: c.name)
        out.append("\n")
        out.append(f"{colour:<10}", "bold " + colour_style(colour))
        used = 10
        for i, c in enumerate(cities):
            item = f"{c.abbr} {c.name}"
            if i and used + 2 + len(item) > limit:
                out.append("\n" + " " * 10)
                used = 10
            elif i:
                out.append("  ")
                used += 2
            out.append(c.abbr, "bold " + colour_style(colour))
            out.append(" " + safe_text(c.name))
            used += len(item)
    from companion.terminal.render import wrap

    for text, style in notes:  # wrapped at spaces, never inside a name the caller kept whole
        out.append("\n")
        out.append(safe_text(wrap(text, room), keep_newlines=True), style or None)
    return out


def route_styles(edges: Iterable[Edge], style: str = "bold magenta") -> dict[Edge, str]:
    """Lines to draw as rails in one style (e.g. the missing rails `rails --draw` shows)."""
    return {e: style for e in edges}
