"""Transatlantic rules: revealing cards, buying from the market, prices and the docks.

Ship years and basic prices and the 6 surcharges below are TEST values (nobody here has the
printed cards or board), except what the rulebook's purchase example prints: NUBIAN costs £40
in all, HAMMONIA £70 + £30.
"""

from __future__ import annotations

import pytest

from companion.contract.errors import MissingValue, RuleError
from transatlantic_support import GAME, data, play

FULL_MARKET = {"type": "reveal", "ships": ["DEVONIA", "NUBIAN", "GERMANIC", "HAMMONIA", "ABYSSINIA", "UMBRIA"]}


def test_the_rulebook_purchase_example():
    s = play([FULL_MARKET, {"type": "buy", "player": "Ann", "ships": ["NUBIAN", "HAMMONIA"]}])
    buy = s["last_buy"]
    assert [(p["name"], p["total"]) for p in buy["ships"]] == [("NUBIAN", 40), ("HAMMONIA", 100)]
    assert (buy["ships"][1]["basic"], buy["ships"][1]["surcharge"]) == (70, 30)
    assert buy["total"] == 140
    assert buy["docked"] == "DEVONIA"
    assert s["docks"] == ["DEVONIA"]
    assert s["owned"]["Ann"] == ["NUBIAN", "HAMMONIA"]
    # the remaining 3 ships moved left; 3 empty positions wait for the stack
    assert s["market"] == ["GERMANIC", "ABYSSINIA", "UMBRIA", None, None, None]
    s = GAME.apply(s, {"type": "reveal", "ships": ["COLUMBIA", "CITY OF NEW YORK", "HQ RED"]}, data())
    assert s["market"] == ["GERMANIC", "ABYSSINIA", "UMBRIA", "COLUMBIA", "CITY OF NEW YORK", "HQ RED"]


def test_reveal_fills_the_empty_positions_from_the_left():
    s = play([FULL_MARKET, {"type": "buy", "player": "Bob", "ships": ["GERMANIC"]}])
    # DEVONIA (now leftmost) went to the docks
    assert s["market"] == ["NUBIAN", "HAMMONIA", "ABYSSINIA", "UMBRIA", None, None]
    s = GAME.apply(s, {"type": "reveal", "ships": ["COLUMBIA"]}, data())
    assert s["market"][4:] == ["COLUMBIA", None]


def test_buying_the_leftmost_ship_docks_the_next_one():
    s = play([FULL_MARKET, {"type": "buy", "player": "Bob", "ships": ["DEVONIA"]}])
    assert s["owned"]["Bob"] == ["DEVONIA"]
    assert s["docks"] == ["NUBIAN"]
    assert s["market"] == ["GERMANIC", "HAMMONIA", "ABYSSINIA", "UMBRIA", None, None]


def test_a_headquarters_only_purchase_sends_nothing_to_the_docks():
    s = play([{"type": "reveal", "ships": ["DEVONIA", "NUBIAN", "HQ RED", "HQ BLUE"]},
              {"type": "buy", "player": "Cy", "ships": ["HQ RED"]}])
    assert s["docks"] == []
    assert s["owned"]["Cy"] == ["HQ RED"]
    assert s["market"] == ["DEVONIA", "NUBIAN", "HQ BLUE", None, None, None]
    assert s["last_buy"]["total"] == 60 + 20


def test_a_ship_and_a_headquarters_send_the_leftmost_ship_to_the_docks():
    s = play([{"type": "reveal", "ships": ["DEVONIA", "NUBIAN", "HQ RED", "HQ BLUE"]},
              {"type": "buy", "player": "Cy", "ships": ["NUBIAN", "HQ BLUE"]}])
    assert s["docks"] == ["DEVONIA"]
    assert s["market"] == ["HQ RED", None, None, None, None, None]


def test_headquarters_never_enter_the_docks():
    s = play([{"type": "reveal", "ships": ["DEVONIA", "HQ RED", "HQ BLUE"]},
              {"type": "buy", "player": "Cy", "ships": ["DEVONIA"]}])
    assert s["docks"] == []
    assert s["market"][:2] == ["HQ RED", "HQ BLUE"]


def test_revealing_a_headquarters_means_no_steamship_is_left_in_the_stack():
    s = play([{"type": "reveal", "ships": ["DEVONIA", "HQ RED"]}])
    assert s["no_steam_in_stack"]
    with pytest.raises(RuleError, match="no steamship is left in the stack"):
        GAME.apply(s, {"type": "reveal", "ships": ["NUBIAN"]}, data())


def test_stack_empty_stops_reveals():
    s = play([{"type": "reveal", "ships": ["DEVONIA"]}, {"type": "stack-empty"}])
    assert s["stack_empty"] and s["no_steam_in_stack"]
    with pytest.raises(RuleError, match="stack is empty"):
        GAME.apply(s, {"type": "reveal", "ships": ["NUBIAN"]}, data())
    with pytest.raises(RuleError, match="already"):
        GAME.apply(s, {"type": "stack-empty"}, data())


def test_the_event_carries_a_ship_the_frozen_catalogue_lacks():
    values = data(ships={})
    new = {"name": "Etruria", "year": 1885, "flag": "Red", "price": 90, "kind": "steam", "speed": 19.5}
    s = play([{"type": "reveal", "ships": [new]}], values=values)
    assert s["market"][0] == "ETRURIA"
    assert s["ships"]["ETRURIA"]["flag"] == "red"
    assert s["ships"]["ETRURIA"]["speed"] == 19.5


def test_own_gives_a_player_a_ship_without_buying_it():
    s = play([{"type": "own", "player": "bob", "ship": "ariel"}])
    assert s["owned"]["Bob"] == ["ARIEL"]
    assert s["market"] == [None] * 6


def test_prices_with_unknown_surcharges_name_the_data_set_command():
    s = play([FULL_MARKET], values=data(surcharges=None))
    with pytest.raises(MissingValue) as err:
        GAME.apply(s, {"type": "buy", "player": "Ann", "ships": ["NUBIAN"]}, data(surcharges=None))
    assert "companion data set transatlantic market.surcharges '[S1, S2, S3, S4, S5, S6]'" in str(err.value)


def test_market_rows_show_every_part_of_the_price():
    rows = GAME.market_rows(play([FULL_MARKET]), data())
    assert rows[3] == {"position": 4, "ship": "HAMMONIA", "surcharge": 30, "kind": "steam",
                       "flag": "blue", "year": 1882, "price": 70, "total": 100}
    unknown = GAME.market_rows(play([FULL_MARKET], values=data(surcharges=None)), data(surcharges=None))
    assert unknown[3]["surcharge"] is None and unknown[3]["total"] is None


@pytest.mark.parametrize(
    "event, message",
    [
        ({"type": "buy", "player": "Ann", "ships": ["COLUMBIA"]}, "not on the market"),
        ({"type": "buy", "player": "Ann", "ships": ["NUBIAN", "DEVONIA", "GERMANIC"]}, "1 or 2 cards"),
        ({"type": "buy", "player": "Ann", "ships": ["NUBIAN", "nubian"]}, "named twice"),
        ({"type": "buy", "player": "Dan", "ships": ["NUBIAN"]}, "no player called 'Dan'"),
        ({"type": "buy", "player": "Ann", "ships": []}, "Name the ship"),
        ({"type": "reveal", "ships": ["COLUMBIA"]}, "0 empty positions"),
        ({"type": "own", "player": "Ann", "ship": "NUBIAN"}, "already in play \\(on the market\\)"),
        ({"type": "own", "player": "Ann", "ship": "BRITANNIC"}, "companion ship add BRITANNIC --year"),
    ],
)
def test_refusals_on_a_full_market(event, message):
    s = play([FULL_MARKET])
    with pytest.raises(RuleError, match=message):
        GAME.apply(s, event, data())


def test_two_headquarters_in_one_purchase_are_refused():
    s = play([{"type": "reveal", "ships": ["HQ RED", "HQ BLUE"]}])
    with pytest.raises(RuleError, match="at most one headquarters"):
        GAME.apply(s, {"type": "buy", "player": "Ann", "ships": ["HQ RED", "HQ BLUE"]}, data())


def test_revealing_a_ship_already_in_play_is_refused():
    s = play([FULL_MARKET, {"type": "buy", "player": "Ann", "ships": ["NUBIAN"]}])
    for name, where in (("NUBIAN", "owned by Ann"), ("DEVONIA", "in the docks"), ("UMBRIA", "on the market")):
        with pytest.raises(RuleError, match=f"already in play \\({where}\\)"):
            GAME.apply(s, {"type": "reveal", "ships": [name]}, data())
    with pytest.raises(RuleError, match="already in play"):
        GAME.apply(s, {"type": "reveal", "ships": ["COLUMBIA", "columbia"]}, data())


def test_an_unknown_ship_is_refused_with_the_ship_add_command():
    with pytest.raises(RuleError) as err:
        play([{"type": "reveal", "ships": ["City of Paris"]}])
    assert 'companion ship add "CITY OF PARIS" --year YEAR --flag COLOUR --price PRICE' in str(err.value)


def test_an_unknown_flag_in_the_catalogue_is_refused():
    values = data(ships={"X": {"name": "X", "year": 1880, "flag": "purple", "price": 10, "kind": "steam"}})
    with pytest.raises(RuleError, match="no 'purple' flag: the flags are white, blue, red, black, green"):
        play([{"type": "reveal", "ships": ["X"]}], values=values)


def test_a_flag_added_after_new_travels_with_the_ship_and_may_be_scored():
    # `ship add` checked the flag against the players' list of the day; the event carries it
    new = {"name": "X", "year": 1880, "flag": "yellow", "price": 10, "kind": "steam"}
    s = play([{"type": "reveal", "ships": [new]}, {"type": "buy", "player": "Ann", "ships": ["X"]},
              {"type": "final", "player": "Ann", "cash": 0, "sheet": {"yellow": 4}, "rows": 0, "next_row": 0}])
    assert GAME.scores(s, "Ann")["total"] == 4


def test_a_refused_event_changes_nothing():
    s = play([FULL_MARKET])
    before = repr(s)
    with pytest.raises(RuleError):
        GAME.apply(s, {"type": "buy", "player": "Ann", "ships": ["NUBIAN", "COLUMBIA"]}, data())
    assert repr(s) == before


def test_status_json_keys():
    s = play([FULL_MARKET, {"type": "buy", "player": "Ann", "ships": ["NUBIAN", "HAMMONIA"]}])
    out = GAME.summary(s)
    assert out["market"] == ["GERMANIC", "ABYSSINIA", "UMBRIA", None, None, None]
    assert out["docks"] == ["DEVONIA"]
    assert out["players"][0]["ships"] == ["NUBIAN", "HAMMONIA"]
    assert out["end"] is None
    assert out["start"] == "Ann" and out["round"] == 1 and out["current"] == "Ann"
