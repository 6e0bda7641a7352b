"""Transatlantic rules: the end trigger, the last round and the turns left.

Ship values and surcharges are TEST values (the printed ones are unknown here).
"""

from __future__ import annotations

import pytest

from companion.contract.errors import RuleError
from transatlantic_support import GAME, data
from transatlantic_support import play as support_play

SEATS = ("Ann", "Bob", "Cy", "Dan")

def play(events, players=SEATS):
    return support_play(events, players)


NEXT = {"type": "next"}


@pytest.mark.parametrize("seat", range(4))
def test_the_end_trigger_and_the_last_turn_for_each_seat(seat):
    buyer = SEATS[seat]
    # a round and a bit of play first: the start player never changes
    s = play([{"type": "reveal", "ships": ["DEVONIA", "HQ RED"]}] + [NEXT] * (4 + seat))
    assert GAME.summary(s)["current"] == buyer and GAME.summary(s)["round"] == 2
    s = GAME.apply(s, {"type": "buy", "player": buyer, "ships": ["DEVONIA"]}, data())
    end = GAME.summary(s)["end"]
    # this turn, the rest of round 2, and all of round 3
    assert end == {"by": buyer, "round": 2, "last": "Dan", "turns_left": (4 - seat) + 4, "docked": False}
    seen = []
    while GAME.summary(s)["end"]["turns_left"]:
        seen.append(GAME.summary(s)["current"])
        s = GAME.apply(s, NEXT, data())
    assert seen == list(SEATS[seat:]) + list(SEATS)
    assert seen[-1] == "Dan"
    assert GAME.summary(s)["current"] is None
    with pytest.raises(RuleError, match="last turn has been played"):
        GAME.apply(s, NEXT, data())
    with pytest.raises(RuleError, match="last turn has been played"):
        GAME.apply(s, {"type": "buy", "player": "Ann", "ships": ["HQ RED"]}, data())


def test_the_trigger_without_next_still_counts_from_the_buyers_turn():
    s = play([{"type": "reveal", "ships": ["DEVONIA", "HQ RED"]},
              {"type": "buy", "player": "Cy", "ships": ["DEVONIA"]}])
    assert GAME.summary(s)["end"]["turns_left"] == 2 + 4
    assert GAME.summary(s)["current"] == "Cy"
    s = GAME.apply(s, NEXT, data())
    assert GAME.summary(s)["current"] == "Dan"


def test_no_trigger_while_a_steamship_is_on_the_market():
    s = play([{"type": "reveal", "ships": ["DEVONIA", "NUBIAN", "HQ RED"]},
              {"type": "buy", "player": "Ann", "ships": ["HQ RED"]}])
    assert s["end"] is None


def test_no_trigger_while_the_stack_may_hold_steamships():
    s = play([{"type": "reveal", "ships": ["DEVONIA"]}, {"type": "buy", "player": "Ann", "ships": ["DEVONIA"]}])
    assert s["end"] is None


def test_the_last_steamship_going_to_the_docks_triggers_the_end():
    s = play([{"type": "reveal", "ships": ["DEVONIA", "NUBIAN", "HQ RED"]},
              {"type": "buy", "player": "Bob", "ships": ["NUBIAN"]}])
    assert s["docks"] == ["DEVONIA"]
    assert GAME.summary(s)["end"]["by"] == "Bob"


def test_an_empty_stack_found_after_the_purchase_gives_the_end_to_that_purchase():
    s = play([{"type": "reveal", "ships": ["DEVONIA"]}, NEXT,
              {"type": "buy", "player": "Bob", "ships": ["DEVONIA"]}, NEXT])
    assert s["end"] is None
    s = GAME.apply(s, {"type": "stack-empty"}, data())
    end = GAME.summary(s)["end"]
    assert end["by"] == "Bob"
    assert end["turns_left"] == 3 + 4 - 1  # Bob's turn has ended already
    assert GAME.summary(s)["current"] == "Cy"


def test_the_start_player_never_changes():
    s = play([NEXT] * 8, players=("Ann", "Bob"))
    assert GAME.summary(s)["round"] == 5
    assert GAME.summary(s)["current"] == "Ann"
    assert GAME.summary(s)["start"] == "Ann"


def test_turn_names_the_opening_buyer_then_whose_turn_the_record_says():
    """Game.turn, for the shell's toolbar and the phones: the opening purchases anti-clockwise,
    then the turns counted with `next`; nobody once the game is over (issue 20)."""
    from companion.contract.api import Setup

    values = data()
    s = GAME.initial(Setup("transatlantic", ("Ann", "Bob", "Cy"), {"turn_order": "rulebook", "start": "Ann"}),
                     values)
    s = GAME.apply(s, {"type": "reveal", "ships": ["DEVONIA", "NUBIAN", "GERMANIC", "HAMMONIA", "ABYSSINIA",
                                                   "UMBRIA"]}, values)
    assert GAME.turn(s) == ["Cy"]  # the start player's right-hand neighbour buys first
    for buyer, ship in (("Cy", "NUBIAN"), ("Bob", "HAMMONIA"), ("Ann", "UMBRIA")):
        assert GAME.turn(s) == [buyer]
        s = GAME.apply(s, {"type": "buy", "player": buyer, "ships": [ship]}, values)
    assert GAME.turn(s) == ["Ann"] and GAME.recorded_turn(s) is None  # no `next` typed yet
    s = GAME.apply(s, {"type": "next"}, values)
    assert GAME.turn(s) == ["Bob"] and GAME.recorded_turn(s) == "Bob" and GAME.out_of_turn(s, "Ann") == "Bob"
