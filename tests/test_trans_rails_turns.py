"""How many rails a turn allows, as a warning, never a refusal; and the special cards that
change the board: three rails, the 3-2-1 rhythm by lap, and doubles that count single.

The app infers turns: consecutive builds by one player are one turn, and a player's lap is the
turns they have played this round (in turn order: the builders wrapping past the start player;
out of turn: tests/test_trans_rules_corners.py).
"""

from __future__ import annotations

import json

from companion.core.session import load
from companion.core.store import Store

TWO = 'new trans-amerika --players Ann,Bob --entropy "x"\nround start --physical{card}\nstart Ann Dallas\nstart Bob Chicago\n'


def build(run, *args) -> str:
    return run(["build", *args], expect=0).stdout


def test_two_single_lines_or_one_double_a_turn(script, run, status):
    code, out, err = script(TWO.format(card=""))
    assert code == 0, err
    assert "Warning" not in build(run, "Ann", "Dallas-J10-K9")
    assert "Warning" not in build(run, "Bob", "Chicago-M5")
    out = build(run, "Bob", "M5-M6-N7").replace("\n  ", " ")  # the same turn goes on; M6-N7 is a double line
    assert status()["turn"] == {"player": "Bob", "lap": 1, "rails": 3, "used": 4, "allowed": 2, "number": 2}
    assert "Warning: that makes 4 rails' worth in Bob's turn (a double line counts 2); a turn allows 2." in out
    assert "Recorded anyway: `undo` takes it back." in out and status()["rails_built"] == 5
    assert "Warning" not in build(run, "Ann", "K9-K8")  # a new turn, lap 2
    assert status()["turn"]["lap"] == 2


def test_three_rails_card(script, run):
    code, out, err = script(TWO.format(card=" --special three-rails"))
    assert code == 0, err
    assert "Warning" not in build(run, "Ann", "Dallas-J10-K9-K8")
    assert "Warning" not in build(run, "Bob", "Chicago-M5-M6")
    out = build(run, "Bob", "M6-N7")
    assert "Warning: that makes 4 rails' worth in Bob's turn" in out and "allows 3 under the three-rails card" in out
    assert "Warning" not in build(run, "Ann", "K8-L8-M8")  # one single and one double line: 3


def test_the_3_2_1_rhythm_counts_laps_from_the_start_player(script, run, status):
    code, out, err = script(TWO.format(card=" --special rhythm-321"))
    assert code == 0, err
    assert "Warning" not in build(run, "Ann", "Dallas-J10-K9-K8")  # lap 1: 3
    assert "Warning" not in build(run, "Bob", "Chicago-M5-M6-M7")  # lap 1: 3
    out = build(run, "Ann", "K8-L8-M8").replace("\n  ", " ")  # lap 2: 2
    assert "that makes 3 rails' worth in Ann's turn" in out and "a turn allows 2 on lap 2 of the 3-2-1 card" in out
    assert "Warning" not in build(run, "Bob", "Chicago-M3")  # lap 2, one rail
    assert "Warning" not in build(run, "Ann", "K8-St. Louis")  # lap 3: 1
    assert status()["turn"]["lap"] == 3 and status()["turn"]["allowed"] == 1
    assert "Warning" not in build(run, "Bob", "M3-L3")
    out = build(run, "Bob", "M3-L2")  # still Bob's turn on lap 3: 2 rails now
    assert "that makes 2 rails' worth in Bob's turn" in out and "allows 1 on lap 3" in out
    assert "Warning" not in build(run, "Ann", "Dallas-I10")  # lap 4: 3 again
    assert status()["turn"] == {"player": "Ann", "lap": 4, "rails": 1, "used": 1, "allowed": 3, "number": 7}


HANDS = {
    "Ann": "Seattle,Helena,Salt Lake City,Phoenix,New York",
    "Bob": "Los Angeles,Chicago,Oklahoma City,Memphis,Washington",
    "Cy": "Portland,Bismarck,Santa Fe,New Orleans,Boston",
    "Dee": "Sacramento,Minneapolis,Omaha,El Paso,Charleston",
}
MARKERS = {"Ann": "Seattle", "Bob": "Los Angeles", "Cy": "Portland", "Dee": "Omaha"}
WATER_SETUP = ('new trans-amerika --players Ann,Bob,Cy,Dee --entropy "x"\n'
               "round start --physical --special water-single\n"
               + "".join(f'hand {p} --set "{h}"\n' for p, h in HANDS.items())
               + "".join(f"start {p} {j}\n" for p, j in MARKERS.items()))
# test values, not the printed ones: Seattle's two double lines, written as paths of junctions
WATER = '{"water": ["Seattle-C1", "Seattle-B2"], "mountain": []}'


def test_doubles_count_single_once_the_players_say_which_are_water(script, run, status, home):
    code, out, err = script(WATER_SETUP)
    assert code == 0, err
    # the lines' kinds are unknown: the turn gives the double the benefit of the doubt
    assert "Warning" not in build(run, "Ann", "Seattle-C1-D1")
    refused = run(["rails", "Ann"], expect=1).stderr
    assert "companion data set trans-amerika double_kinds" in refused
    assert "double_kinds" in run(["round", "end", "--auto", "--winner", "Bob"], expect=1).stderr
    run(["data", "set", "trans-amerika", "double_kinds", WATER], expect=0)
    water = json.loads(run(["rails", "Ann", "--json"], expect=0).stdout)
    usual = json.loads(run(["rails", "amerika", "--hand", HANDS["Ann"], "--start", "Seattle",
                            "--built", "Seattle-C1-D1", "--json"], expect=0).stdout)
    single = json.loads(run(["rails", "amerika", "--hand", HANDS["Ann"], "--start", "Seattle",
                             "--built", "Seattle-C1-D1", "--single", "water", "--json"], expect=0).stdout)
    assert water["rails"] == single["rails"] and water["special"] == "water-single"
    assert "the water-single card counted" in run(["rails", "Ann"], expect=0).stdout
    assert usual["rails"] >= single["rails"]
    # scoring freezes the value the players supplied into the session, as any printed value
    run(["round", "end", "--auto", "--winner", "Bob"], expect=0)
    last = status()["history"][-1]
    assert last["missing"]["Ann"] == water["rails"]
    store = Store(home)
    event = load(store, store.current()).journal[-1]["event"]
    assert event["_data"] == {"double_kinds": json.loads(WATER)}
    run(["data", "unset", "trans-amerika", "double_kinds"], expect=0)
    assert status()["history"][-1]["missing"] == last["missing"]  # the finished round keeps its values
