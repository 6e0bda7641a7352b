"""The Trans board drawn for the pages: its SVG (the table's board, a player's with their cities
ringed), where each label goes, and what a phone's board to tap is made of (the lines a player
may build, the zoom round their cities).

Only a page that shows a board imports it: `status` in a terminal draws none, and paid for these
pieces at every start (issue 27). The taps themselves and the page blocks stay in ``screens``,
which reaches these when a board is drawn.
"""

from __future__ import annotations

from typing import Any, Iterable

from companion.contract.errors import CompanionError
from companion.contract.language import _
from companion.contract.view import player_colour

STEP_X, STEP_Y, PAD = 14, 24, 18


_KEPT: dict[tuple, tuple[Any, Any]] = {}  # (what, id(board), ...) -> (board, answer): drawn once per board


def _kept(key: tuple, board, make):
    """``make()``, kept for ``board`` (issue 31: every page is drawn again after every move, and
    a board's shape and its labels for a hand do not change)."""
    found = _KEPT.get(key)
    if found is not None and found[0] is board:
        return found[1]
    answer = make()
    if len(_KEPT) > 512:
        _KEPT.clear()
    _KEPT[key] = (board, answer)
    return answer


def geometry(board) -> tuple[list[tuple[float, float]], float, float]:
    """Where each junction is drawn (in the drawing's units) and the drawing's width and
    height: rows offset by half a junction, as on the printed board, with room around."""
    return _kept(("geometry", id(board)), board, lambda: _geometry(board))


def _geometry(board) -> tuple[list[tuple[float, float]], float, float]:
    xs = [(2 * x - y) * STEP_X for x, y in board.xy]
    ys = [y * STEP_Y for _x, y in board.xy]
    left, top = min(xs) - PAD, min(ys) - PAD
    width, height = max(xs) - left + PAD, max(ys) - top + PAD
    return [(x - left, y - top) for x, y in zip(xs, ys)], width, height


LABEL_EM = 0.62  # a label's width per character, in font sizes (to keep every label inside the drawing)


def board_elements(game, state: dict, data: dict, players: list[str], mine: str | None = None,
                   offered: Iterable[tuple[tuple[int, int], int]] = (),
                   faint: Iterable[tuple[tuple[int, int], int]] = ()) -> str:
    """The board's SVG elements: lines (a double line drawn doubled), cities (a dot and a
    mark), rails and markers in the players' colours, and ``offered`` lines (what ``mine`` may
    build now) highlighted in their colour with their cost.

    With ``mine`` (a player's page, ``state`` that player's view) that player's cities are
    ringed and named and their network is drawn wider. Without, no city is named: cities are
    drawn as the printed board shows them (a dot and a three-letter mark). A label near the
    east edge is written leftwards of its city, so none is ever cut off."""
    from html import escape

    from companion.contract.view import COLOURS

    board = game.board_of(data)
    track = state["track"]
    pts, width, _height = geometry(board)

    def seat(p: str) -> str:
        return player_colour(players.index(p))

    out = [_kept(("lines", id(board)), board, lambda: _lines(board, pts))]
    offered = list(offered)
    if faint and mine:  # build-anywhere's other free lines: a thin line of the player's colour, no cost
        for (a, b), _cost in faint:
            (x1, y1), (x2, y2) = pts[a], pts[b]
            out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{seat(mine)}" stroke-opacity=".3" '
                       f'stroke-width="1.2" data-v="{escape(board.edge_name((a, b)), quote=True)}"/>')
    if offered and mine:
        colour = seat(mine)
        for (a, b), cost in offered:
            (x1, y1), (x2, y2) = pts[a], pts[b]
            out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" stroke-opacity=".45" '
                       f'stroke-width="7" stroke-linecap="round" stroke-dasharray="3 2" '
                       f'data-v="{escape(board.edge_name((a, b)), quote=True)}"/>')
        for (a, b), cost in offered:
            (x1, y1), (x2, y2) = pts[a], pts[b]
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            out.append(f'<circle cx="{mx}" cy="{my}" r="4.2" fill="#fff" stroke="{colour}" stroke-width="1.2"/>'
                       f'<text x="{mx}" y="{my + 2.6}" font-size="7" text-anchor="middle" fill="#111">{cost}</text>')
    network = set(game.network(state, board, mine)) if mine else set()
    for r in track["rails"]:
        a, b = r["line"]
        (x1, y1), (x2, y2) = pts[a], pts[b]
        w = 6 if a in network and b in network else 4
        out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{seat(r["by"])}" '
                   f'stroke-width="{w}" stroke-linecap="round"/>')
    hand = set(game.hand_of(state, mine)) if mine and has_hand(game, state, mine) else set()
    placed = _kept(("labels", id(board), frozenset(hand)), board, lambda: labels(board, pts, width, _height, hand))
    for city in board.cities:
        x, y = pts[city.node]
        fill = COLOURS.get(city.colour, "#888")
        out.append(f'<circle cx="{x}" cy="{y}" r="5" fill="{fill}" stroke="#333" stroke-width="1"/>')
    for city in board.cities:
        own = city.name in hand
        text, lx, ly, anchor, size = placed[city.name]
        weight = ' font-weight="700"' if own else ""
        where = f'x="{lx:g}" text-anchor="end"' if anchor == "end" else f'x="{lx:g}"'
        out.append(f'<text {where} y="{ly:g}" font-size="{size}"{weight} fill="currentColor">{escape(text)}</text>')
    for city in board.cities:
        if city.name in hand:
            x, y = pts[city.node]
            out.append(f'<circle cx="{x}" cy="{y}" r="10" fill="none" stroke="{seat(mine)}" stroke-width="3" '
                       f'data-v="{escape(city.name, quote=True)}"/>')
    for p, (node, _name) in track["markers"].items():
        x, y = pts[node]
        out.append(f'<rect x="{x - 6}" y="{y - 6}" width="12" height="12" transform="rotate(45 {x} {y})" '
                   f'fill="{seat(p)}" stroke="#000" stroke-width="1.5"/>')
    return "".join(out)


OWN_SIZE, MARK_SIZE = 11, 8  # font sizes: a player's own city named whole, any other by its printed mark


def _box(lx: float, ly: float, anchor: str, size: int, text: str) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) a label of ``text`` takes, written at (lx, ly) (its baseline)."""
    w = LABEL_EM * size * len(text)
    left = lx - w if anchor == "end" else lx
    return left, ly - 0.8 * size, left + w, ly + 0.25 * size


def _apart(a: tuple, b: tuple) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def labels(board, pts, width: float, height: float, own: set[str]) -> dict[str, tuple[str, float, float, str, int]]:
    """Where each city's label goes: {city: (text, x, y, anchor, font size)}, no two labels on
    top of each other (issue 31: a player's Boston and Buffalo read "Bosfalo").

    A player's own cities are placed first, each at the first free place of four round its dot
    (right or left, above or below), named whole; one that finds no free place is written as
    its printed mark instead (the page's legend says which), and only if even that finds none
    is it written at its first place. Then every other city's mark, the same way."""
    taken: list[tuple] = []
    out = {}

    def spots(x: float, y: float, size: int):
        for dy in (-5.0, 5.0 + 0.8 * size):
            for side in ("start", "end"):
                yield (x + 7, y + dy, "start") if side == "start" else (x - 7, y + dy, "end")

    def place(city, texts: list[str], size: int) -> None:
        x, y = pts[city.node]
        first = None
        for text in texts:
            for lx, ly, anchor in spots(x, y, size):
                box = _box(lx, ly, anchor, size, text)
                if box[0] < 1 or box[2] > width - 1 or box[1] < 0 or box[3] > height:
                    continue
                first = first or (text, lx, ly, anchor, size, box)
                if all(_apart(box, t) for t in taken):
                    out[city.name] = (text, lx, ly, anchor, size)
                    taken.append(box)
                    return
        text, lx, ly, anchor, size, box = first or (texts[-1], x + 7, y - 5, "start", size, _box(x + 7, y - 5, "start", size, texts[-1]))
        out[city.name] = (text, lx, ly, anchor, size)
        taken.append(box)

    cities = sorted(board.cities, key=lambda c: (c.name not in own, c.node))
    for city in cities:
        place(city, [city.name, city.abbr] if city.name in own else [city.abbr], OWN_SIZE if city.name in own else MARK_SIZE)
    return out


def shortened(game, state: dict, data: dict, player: str) -> list[tuple[str, str]]:
    """[(mark, city)] of ``player``'s own cities their board writes by the printed mark (no
    room for the whole name): the legend under their board."""
    board = game.board_of(data)
    hand = set(game.hand_of(state, player)) if has_hand(game, state, player) else set()
    if not hand:
        return []
    pts, width, height = geometry(board)
    placed = _kept(("labels", id(board), frozenset(hand)), board, lambda: labels(board, pts, width, height, hand))
    return [(placed[c.name][0], c.name) for c in board.cities if c.name in hand and placed[c.name][0] != c.name]


def _lines(board, pts) -> str:
    """Every line of the board as printed (a double line drawn doubled)."""
    out = []
    for (a, b), cost in board.cost.items():
        (x1, y1), (x2, y2) = pts[a], pts[b]
        if cost == 2:  # a double line: two strokes, as printed, easy to tell from a single one
            out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#777" stroke-width="4"/>'
                       f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#f4f4f4" stroke-width="1.4"/>')
        else:
            out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#9999" stroke-width="1.2"/>')
    return "".join(out)


def board_svg(game, state: dict, data: dict, players: list[str], mine: str | None = None) -> str:
    """The board as one SVG (see :func:`board_elements`), fitted to the width of its page."""
    _pts, width, height = geometry(game.board_of(data))
    label = _("the board, {name}'s cities ringed").format(name=escape_text(mine)) if mine else _("the board")
    return (f'<svg class="board" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
            f'aria-label="{label}">{board_elements(game, state, data, players, mine)}</svg>')


def escape_text(text: str) -> str:
    from html import escape

    return escape(text, quote=True)


CLOSE = 4  # how close a page zooms in to build: lines then 50 px apart on a phone, easy to hit


def buildable(game, board, state: dict, player: str) -> list[tuple[tuple[int, int], int]]:
    """The lines ``player`` may build now with what each takes of the turn ([(line, cost)]):
    free lines touching their network (anywhere under the build-anywhere card), costing no
    more than the rails' worth left in their turn. From ``state``, the player's own view."""
    from companion.games.trans.specials import in_force

    track = state["track"]
    if player not in track["markers"]:
        return []
    built = {tuple(r["line"]) for r in track["rails"]}
    costs = game._turn_costs(state, board)
    left = game.rails_worth_left(state, player)
    anywhere = "build-anywhere" in in_force(state)
    network = set(game.network(state, board, player))
    out = []
    for e, cost in sorted(costs.items(), key=lambda item: (board.name(item[0][0]), board.name(item[0][1]))):
        if e in built or cost > left:
            continue
        if anywhere or e[0] in network or e[1] in network:
            out.append((e, cost))
    return out



def around(points: list[tuple[float, float]], width: float, height: float) -> tuple[tuple[float, float] | None, int]:
    """(the centre, the zoom) that shows ``points`` (a player's own cities) as close as they
    all fit on a phone's board (the whole board when they are spread over it)."""
    from companion.contract.view import TAP_ZOOMS, tap_fits

    if not points:
        return None, 1
    xs, ys = [x for x, _y in points], [y for _x, y in points]
    centre = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
    best = 1
    for z in TAP_ZOOMS:
        if tap_fits(z, width, height, max(xs) - min(xs) + 2 * PAD, max(ys) - min(ys) + 2 * PAD):
            best = z
    return (centre if best > 1 else None), best


def legend(game, state: dict, data: dict, player: str) -> str:
    """' (BOS: Boston)': the player's own cities their board writes by the printed mark."""
    short = shortened(game, state, data, player)
    if not short:
        return ""
    return " (" + ", ".join(_("{mark}: {city}").format(mark=m, city=c) for m, c in short) + ")"


def has_hand(game, state: dict, player: str) -> bool:
    try:
        game.hand_of(state, player)
        return True
    except CompanionError:
        return False
