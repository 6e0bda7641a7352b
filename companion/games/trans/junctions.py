"""How a Trans board names its junctions (``E6``) and how the pages name a start marker's,
from a pack's rows and cities alone: what a `status` needs of the board, without the board
module (its graph, costs and the names people type), which a `status` never uses (issue 27)."""

from __future__ import annotations

from typing import Callable


def column_letters(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA (boards wider than 26 columns stay nameable)."""
    out = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        out = chr(ord("A") + rest) + out
    return out


def grid(rows: tuple[str, ...]) -> tuple[list[tuple[int, int]], list[int], list[str]]:
    """A board's junctions from its printed rows, in row order: their (x, y), their printed
    column (0 = A) and their coordinate name (``E6``)."""
    xy = [(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "o"]
    half = [2 * x - y for x, y in xy]
    cmin = min(h // 2 for h in half) if half else 0
    column = [h // 2 - cmin for h in half]
    return xy, column, [column_letters(c) + str(y + 1) for c, (x, y) in zip(column, xy)]


def junction_labels(values: dict) -> Callable[[int], str]:
    """How the pages name a junction (a start marker's): its city's name (issue 31: "Kansas
    City", not a bare grid square nor the board's three-letter mark, "KaC", which the TV's
    viewers cannot read from across the room), a junction without a city by its coordinate;
    exactly as the board made of ``values`` names them, but from the rows and the cities alone:
    a `status` shows the markers and needs none of the board's lines (building them was 7 M
    instructions of a Trans `status`, issue 27). A marker is public, on the board for all to
    see: its city is no hand's secret."""
    _xy, _column, coord = grid(tuple((values.get("board") or {}).get("rows") or ()))
    node_at = {p: i for i, p in enumerate(_xy)}
    city_at = {node_at.get(tuple(c["xy"])): c["name"] for c in values.get("cities") or ()}  # the last one, as the board

    def label(node: int) -> str:
        city = city_at.get(node)
        return city if city is not None else coord[node]

    return label
