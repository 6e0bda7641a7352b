"""The Trans data packs hold the boards and cards the reference describes, and nothing invented.

The figures below are copied from the reference (trans-boards.json, cross-checked public
encodings of the classic boards), so a damaged or re-encoded pack fails here.
"""

from __future__ import annotations

import json
import re

import jsonschema
import pytest

from companion.core import datapack
from companion.games.trans.rules import SPECIAL_IDS

FIGURES = {
    "trans-amerika": {"junctions": 188, "edges": 509, "double_edges": 109},
    "trans-europa": {"junctions": 210, "edges": 577, "double_edges": 153},
}
AMERIKA_DASHED = {
    "Buffalo", "Duluth", "San Diego", "Seattle", "Boston", "Richmond", "Atlanta", "Houston",
    "Denver", "Kansas City",
}
COMBINED_COLOURS = {"brown", "white", "pink", "orange", "turquoise"}
GAMES = sorted(FIGURES)


def values(game: str) -> dict:
    return datapack.pack(game)["values"]


def junctions(board: dict) -> set[tuple[int, int]]:
    return {(x, y) for y, row in enumerate(board["rows"]) for x, c in enumerate(row) if c == "o"}


def edges(board: dict) -> set[frozenset]:
    """Axial neighbours: (x+1,y), (x,y+1), (x+1,y+1) and their opposites, both ends junctions."""
    nodes = junctions(board)
    out = set()
    for x, y in nodes:
        for dx, dy in ((1, 0), (0, 1), (1, 1)):
            if (x + dx, y + dy) in nodes:
                out.add(frozenset({(x, y), (x + dx, y + dy)}))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_board_figures(game):
    board = values(game)["board"]
    assert len(junctions(board)) == FIGURES[game]["junctions"]
    all_edges = edges(board)
    assert len(all_edges) == FIGURES[game]["edges"]
    doubles = {frozenset(map(tuple, e)) for e in board["double_edges"]}
    assert len(doubles) == len(board["double_edges"]) == FIGURES[game]["double_edges"]
    assert doubles <= all_edges
    for e in board["disputed_double_edges"]:
        assert frozenset(map(tuple, e)) in all_edges


def test_only_europa_has_disputed_double_edges():
    assert values("trans-amerika")["board"]["disputed_double_edges"] == []
    assert len(values("trans-europa")["board"]["disputed_double_edges"]) == 2


@pytest.mark.parametrize("game", GAMES)
def test_cities_seven_per_colour_on_junctions(game):
    v = values(game)
    cities = v["cities"]
    assert len(cities) == 35
    assert len({c["name"] for c in cities}) == 35
    assert len(v["colours"]) == 5 and set(v["colours"]) == set(v["regions_by_colour"])
    for colour in v["colours"]:
        assert sum(c["colour"] == colour for c in cities) == 7
    nodes = junctions(v["board"])
    assert all(tuple(c["xy"]) in nodes for c in cities)
    assert len({tuple(c["xy"]) for c in cities}) == 35


def test_amerika_dashed_cards_two_per_colour():
    v = values("trans-amerika")
    assert set(v["dashed"]) == AMERIKA_DASHED
    colour = {c["name"]: c["colour"] for c in v["cities"]}
    for c in v["colours"]:
        assert sum(colour[n] == c for n in v["dashed"]) == 2
    assert {c["name"] for c in v["cities"] if c["dashed"]} == AMERIKA_DASHED


def test_europa_dashed_cards_unknown():
    v = values("trans-europa")
    assert v["dashed"] is None
    assert all(c["dashed"] is None for c in v["cities"])


@pytest.mark.parametrize("game", GAMES)
def test_unknown_printed_values_stay_null(game):
    v = values(game)
    assert v["charts"]["normal"] == {"winner": 4, "missing": [3, 2, 1, 1, 0]}
    assert v["charts"]["generous"] is None and v["charts"]["demanding"] is None
    assert v["colour_aliases"] == {c: None for c in COMBINED_COLOURS}
    assert v["double_kinds"] is None
    assert sorted(v["special_cards"]) == sorted(SPECIAL_IDS)
    assert all(card["copies"] is None and card["title"] and card["effect"] for card in v["special_cards"].values())
    unknown = set(datapack.unknowns(v))
    assert {"charts.generous", "charts.demanding", "double_kinds", "colour_aliases.white",
            "special_cards.pass-three.copies"} <= unknown
    assert ("dashed" in unknown) == (game == "trans-europa")


@pytest.mark.parametrize("game", GAMES)
def test_pack_matches_its_schema_and_notes(game):
    p = datapack.pack(game)
    assert p["game"] == game
    jsonschema.Draft202012Validator.check_schema(p["schema"])
    jsonschema.Draft202012Validator(p["schema"]).validate(p["values"])
    assert "axial" in p["sources"]["board"]
    for key in datapack.unknowns(p["values"]):
        assert datapack.need_text(game, key), key
    for key, text in p["examples"].items():  # JSON once the bare number placeholders are typed over
        json.loads(re.sub(r"\b(W|N|P\d)\b", "1", text))


@pytest.mark.parametrize("game", GAMES)
def test_players_can_supply_unknown_values(game):
    datapack.validate(game, "charts.generous", {"winner": 5, "missing": [4, 3, 2, 1, 0]}, {})
    datapack.validate(game, "charts.generous.winner", 5, {})
    colour = values(game)["colours"][0]
    datapack.validate(game, "colour_aliases.white", colour, {})
    datapack.validate(game, "special_cards.generous.copies", 2, {})
    with pytest.raises(Exception, match="colour_aliases.white"):
        datapack.validate(game, "colour_aliases.white", "purple", {})
    with pytest.raises(Exception, match="charts.generous"):
        datapack.validate(game, "charts.generous", {"winner": "four", "missing": []}, {})
