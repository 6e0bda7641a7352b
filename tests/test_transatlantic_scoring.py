"""Transatlantic rules: scrapping, points during play, the final scoring and the tie-break.

Ship values, surcharges and sheet VPs are TEST values (the printed ones are unknown here).
"""

from __future__ import annotations

import pytest

from companion.contract.errors import RuleError
from transatlantic_support import GAME, data
from transatlantic_support import SHIPS as BASE_SHIPS
from transatlantic_support import play as support_play


# GERMANIC is younger here than in the market tests, for the youngest-ship tie-break
SHIPS = {**BASE_SHIPS, "GERMANIC": {**BASE_SHIPS["GERMANIC"], "year": 1889}}  # TEST values


def play(events, players=("Ann", "Bob")):
    return support_play(events, players, data(ships=SHIPS))


def final(player, cash=0, sheet=None, rows=0, next_row=0):
    return {"type": "final", "player": player, "cash": cash, "sheet": sheet or {}, "rows": rows,
            "next_row": next_row}


# Docks: DEVONIA and ABYSSINIA (red), HAMMONIA (blue). Ann: UMBRIA, COLUMBIA, HQ RED. Bob: NUBIAN.
DOCKED = [
    {"type": "reveal", "ships": ["DEVONIA", "ABYSSINIA", "HAMMONIA", "UMBRIA", "COLUMBIA", "NUBIAN"]},
    {"type": "buy", "player": "Ann", "ships": ["UMBRIA"]},
    {"type": "buy", "player": "Ann", "ships": ["COLUMBIA"]},
    {"type": "buy", "player": "Bob", "ships": ["NUBIAN"]},
    {"type": "reveal", "ships": ["HQ RED"]},
    {"type": "buy", "player": "Ann", "ships": ["HQ RED"]},
]


def test_a_player_sheet_scoring_21_by_two_complete_rows_and_two_markers_in_the_third():
    s = play([final("Ann", rows=2, next_row=2)])
    parts = GAME.scores(s, "Ann")
    assert parts["final"]["rows"] == 5 + 10
    assert parts["final"]["next_row"] == 2 * 3
    assert parts["total"] == 21


def test_the_docks_value_is_the_same_for_every_player():
    s = play(DOCKED)
    assert s["docks"] == ["DEVONIA", "ABYSSINIA", "HAMMONIA"]
    assert GAME.docks_count(s) == {"red": 2, "blue": 1}
    s = GAME.apply(s, final("Ann", sheet={"red": 3, "blue": 7}), data())
    ships = {x["ship"]: (x["sheet"], x["docks"], x["points"]) for x in GAME.scores(s, "Ann")["final"]["ships"]}
    assert ships == {"UMBRIA": (3, 2, 5), "COLUMBIA": (7, 1, 8), "HQ RED": (3, 2, 5)}
    assert GAME.scores(s, "Ann")["total"] == 18
    s = GAME.apply(s, final("Bob", sheet={"white": 4, "red": 1}), data())
    assert GAME.scores(s, "Bob")["total"] == 4  # no white ship in the docks


def test_cash_counts_one_vp_per_full_100_and_play_points_add_up():
    s = play([{"type": "vp", "player": "Ann", "points": 3, "note": "trade houses"},
              {"type": "vp", "player": "Ann", "points": 6, "note": "FLEET"},
              final("Ann", cash=299)])
    parts = GAME.scores(s, "Ann")
    assert (parts["final"]["cash"], parts["play"], parts["total"]) == (2, 9, 11)
    assert GAME.summary(s)["players"][0]["vp_during_play"][1] == {"points": 6, "note": "FLEET"}


def test_four_complete_rows_score_50():
    s = play([final("Ann", rows=4)])
    assert GAME.scores(s, "Ann")["final"]["rows"] == 50


def test_scrapping_scores_the_sheet_and_the_docks_and_leaves_the_game():
    s = play(DOCKED + [{"type": "scrap", "ship": "umbria", "sheet_vp": 3}])
    assert s["scrapped"]["UMBRIA"] == {"owner": "Ann", "sheet_vp": 3, "docks": 2, "points": 5}
    assert "UMBRIA" not in s["docks"]
    assert GAME.fleet(s, "Ann") == ["COLUMBIA", "HQ RED"]
    assert GAME.summary(s)["players"][0]["score"] == 5
    with pytest.raises(RuleError, match="scrapped already"):
        GAME.apply(s, {"type": "scrap", "ship": "UMBRIA", "sheet_vp": 3}, data())
    # a scrapped ship is not scored again and needs no sheet value
    s = GAME.apply(s, final("Ann", sheet={"blue": 7, "red": 3}), data())
    assert [x["ship"] for x in GAME.scores(s, "Ann")["final"]["ships"]] == ["COLUMBIA", "HQ RED"]


def test_a_ship_without_a_flag_scores_nothing_and_needs_no_sheet_value():
    s = play([{"type": "own", "player": "Bob", "ship": "ARIEL"}, final("Bob")])
    assert GAME.scores(s, "Bob")["final"]["ships"] == [
        {"ship": "ARIEL", "flag": None, "sheet": 0, "docks": 0, "points": 0}]


def test_the_best_score_wins():
    s = play([final("Ann", rows=1), final("Bob")])
    assert s["finished"] and s["winners"] == ["Ann"]


def test_a_tie_goes_to_the_owner_of_the_youngest_ship():
    events = [{"type": "own", "player": "Ann", "ship": "HAMMONIA"},  # 1882
              {"type": "own", "player": "Bob", "ship": "UMBRIA"},  # 1884
              {"type": "own", "player": "Ann", "ship": "ABYSSINIA"}]
    s = play(events + [final("Ann", sheet={"blue": 2, "red": 1}), final("Bob", sheet={"red": 3})])
    assert [GAME.scores(s, p)["total"] for p in ("Ann", "Bob")] == [3, 3]
    assert s["winners"] == ["Bob"]


def test_a_tie_with_equally_young_ships_is_shared():
    s = play([{"type": "own", "player": "Ann", "ship": "COLUMBIA"},  # 1889
              {"type": "own", "player": "Bob", "ship": "GERMANIC"},  # 1889
              final("Ann", sheet={"blue": 2}), final("Bob", sheet={"white": 2})])
    assert s["winners"] == ["Ann", "Bob"]


def test_the_game_is_over_only_when_every_player_has_a_final_entry():
    s = play([final("Ann", cash=100)], players=("Ann", "Bob", "Cy"))
    assert not s["finished"]
    s = GAME.apply(s, final("Ann", cash=300), data())  # a correction replaces the entry
    assert GAME.scores(s, "Ann")["total"] == 3
    s = play([final("Ann"), final("Bob"), final("Cy")], players=("Ann", "Bob", "Cy"))
    assert s["finished"] and GAME.result(s) == {"winners": s["winners"]}
    # issue 20: the framework refuses any event after the game's result (core.session.apply_event)
    from companion.core.session import apply_event, new_context

    ctx = {**new_context(), "result": GAME.result(s)}
    with pytest.raises(RuleError, match="game is over"):
        apply_event(GAME, ("Ann", "Bob", "Cy"), s, ctx, {"type": "vp", "player": "Ann", "points": 1}, data())


@pytest.mark.parametrize(
    "event, message",
    [
        (final("Ann", sheet={"blue": 7}), "owns ships of the red flag: add red=VP to --sheet"),
        (final("Ann", sheet={"red": 1, "blue": 1, "purple": 2}), "no 'purple' flag"),
        (final("Ann", cash=-5, sheet={"red": 1, "blue": 1}), "Cash \\(--cash\\) cannot be negative"),
        (final("Ann", rows=-1, sheet={"red": 1, "blue": 1}), "cannot be negative"),
        (final("Ann", rows=5, sheet={"red": 1, "blue": 1}), "--rows is 0 to 4"),
        (final("Ann", rows=4, next_row=1, sheet={"red": 1, "blue": 1}), "--next-row 0"),
        (final("Ann", sheet={"red": -1, "blue": 1}), "cannot be negative"),
        (final("Dan"), "no player called 'Dan'"),
        ({"type": "vp", "player": "Ann", "points": -2}, "cannot be negative"),
        ({"type": "vp", "player": "Ann", "points": "x"}, "whole number"),
        ({"type": "scrap", "ship": "HQ RED", "sheet_vp": 1}, "headquarters"),
        ({"type": "scrap", "ship": "DEVONIA", "sheet_vp": 1}, "in the docks"),
        ({"type": "scrap", "ship": "TITANIC", "sheet_vp": 1}, "not in this game"),
        ({"type": "scrap", "ship": "UMBRIA", "sheet_vp": -1}, "cannot be negative"),
    ],
)
def test_refusals(event, message):
    s = play(DOCKED)
    with pytest.raises(RuleError, match=message):
        GAME.apply(s, event, data())


def test_a_headquarters_does_not_count_as_the_youngest_ship():
    hq = {"name": "HQ NEW", "year": 1899, "flag": "red", "price": 60, "kind": "hq"}  # TEST values
    s = play([{"type": "own", "player": "Ann", "ship": hq},
              {"type": "own", "player": "Ann", "ship": "ABYSSINIA"},  # 1870
              {"type": "own", "player": "Bob", "ship": "DEVONIA"},  # 1877
              final("Ann", sheet={"red": 1}), final("Bob", sheet={"red": 2})])
    assert [GAME.scores(s, p)["total"] for p in ("Ann", "Bob")] == [2, 2]
    assert s["winners"] == ["Bob"]


def test_the_tie_is_said_by_the_rules():
    """`final`'s result line read the tie-break off the commands; the rules say it (issue 20)."""
    events = [{"type": "own", "player": "Ann", "ship": "HAMMONIA"},  # 1882
              {"type": "own", "player": "Bob", "ship": "UMBRIA"}]  # 1884
    s = play(events + [final("Ann", sheet={"blue": 3}), final("Bob", sheet={"red": 3})])
    assert GAME.result(s) == {"winners": ["Bob"]}
    assert GAME.tie(s) == {"tied": ["Ann", "Bob"], "score": 3, "youngest": {"Ann": 1882, "Bob": 1884}}
    s = play([final("Ann", rows=1), final("Bob")])
    assert GAME.tie(s) is None and GAME.result(s) == {"winners": ["Ann"]}
    assert GAME.result(play([])) is None


def test_the_sheet_a_player_needs_is_said_by_the_rules():
    """What the shell's `final` question checks, without the shell (issue 20)."""
    s = play(DOCKED)  # Ann: UMBRIA (red), COLUMBIA (blue), HQ RED (red)
    assert GAME.owned_flags(s, "Ann") == ["blue", "red"] and GAME.owned_flags(s, "Bob") == ["white"]
    assert GAME.sheet_lacks(s, data(), "Ann", {" Red": 2}) == ["blue"]
    assert GAME.sheet_lacks(s, data(), "Ann", {"red": 2, "BLUE": 1}) == []
    with pytest.raises(RuleError, match="no 'purple' flag"):
        GAME.sheet_lacks(s, data(), "Ann", {"purple": 1})
    assert GAME.marker_rows(data()) == 4 and GAME.marker_rows({}) is None
