"""`rails MAP ...` as players type it: one hand, built rails, the cards, every hand, refusals.

Through Click (the `run` fixture) and through script mode (`script`), as in a real session at
the table; the map drawing through `board trans-amerika` too.
"""

from __future__ import annotations

import json
import re

KNOWN = "San Diego,Dallas,St. Louis,Cincinnati,Washington"


def rails_json(run, *args):
    result = run(["rails", *args, "--json"], expect=0)
    return json.loads(result.stdout)


# -- one hand ---------------------------------------------------------------------------------
def test_the_known_hand_needs_19_rails(run, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    result = run(["rails", "amerika", "--hand", KNOWN], expect=0)
    assert max(len(line) for line in result.stdout.splitlines()) <= 80, "wrapped to the screen"
    assert " ".join(result.stdout.split()).startswith(
        "19 rails connect San Diego, Dallas, St. Louis, Cincinnati and Washington on the empty Amerika board.")
    assert "(double)" in result.stdout
    assert "To build, as paths: " in result.stdout


def test_the_json_lists_an_optimal_set_of_rails_as_junction_pairs(run):
    out = rails_json(run, "amerika", "--hand", KNOWN)
    assert out["rails"] == 19
    assert sum(cost for a, b, cost in out["pairs"]) == 19
    assert {a for a, b, c in out["pairs"]} | {b for a, b, c in out["pairs"]} >= set(KNOWN.split(","))
    # the paths are the same rails, written so that `--built` (and later `build`) accepts them
    again = rails_json(run, "amerika", "--hand", KNOWN, *sum((["--built", p] for p in out["paths"]), []))
    assert again["rails"] == 0


def test_rails_already_built_cost_nothing(run):
    empty = rails_json(run, "amerika", "--hand", "Seattle,Helena")
    first = "-".join(empty["pairs"][0][:2])
    built = rails_json(run, "amerika", "--hand", "Seattle,Helena", "--built", first)
    assert built["rails"] == empty["rails"] - empty["pairs"][0][2]
    done = run(["rails", "amerika", "--hand", "Seattle,Helena", "--built", ",".join(empty["paths"])], expect=0)
    assert done.stdout.startswith("0 rails: Seattle and Helena are already connected")


def test_the_cities_join_the_network_at_the_start_marker(run):
    alone = rails_json(run, "amerika", "--hand", "Dallas")
    assert alone["rails"] == 0
    to_network = rails_json(run, "amerika", "--hand", "Dallas", "--start", "Memphis")
    assert to_network["rails"] > 0 and to_network["start"] == "Memphis"
    path = "-".join(to_network["paths"][0].split("-")[:2])
    closer = rails_json(run, "amerika", "--hand", "Dallas", "--start", "Memphis", "--built", path)
    assert closer["rails"] < to_network["rails"]


def test_europa_paths_and_names_with_accents(run):
    out = rails_json(run, "europa", "--hand", "Paris,Zurich", "--built", "Paris-E7-E6", "--start", "paris")
    assert out["hand"] == ["Paris", "Zürich"]
    assert out["built"] == [["E7", "Paris"], ["E6", "E7"]]
    assert set(out["network"]) == {"Paris", "E7", "E6"}


def test_a_disputed_double_line_is_counted_double_and_the_other_count_given(run):
    result = run(["rails", "europa", "--hand", "Brest,Madrid"], expect=0)
    assert result.stdout.startswith("7 rails connect Brest and Madrid")
    assert ("Note: the public boards differ on whether Brest-B7 is a double line; counted double here. "
            "If single on your board: 6 rails.") in " ".join(result.stdout.split())
    assert rails_json(run, "europa", "--hand", "Brest,Madrid")["rails_if_disputed_single"] == 6
    assert rails_json(run, "europa", "--hand", "Brest,Paris")["rails_if_disputed_single"] is None


def test_the_board_can_be_drawn_with_the_rails_found(run):
    result = run(["rails", "amerika", "--hand", KNOWN, "--draw"], expect=0)
    assert "━━━" in result.stdout and "SDi" in result.stdout
    assert "in magenta: the missing rails found" in result.stdout


# -- double lines under the special cards ---------------------------------------------------------
def test_the_single_cards_need_the_double_kinds_then_use_them(run):
    refused = run(["rails", "amerika", "--hand", "Seattle,Portland,Helena", "--single", "water"], expect=1)
    assert "companion data set trans-amerika double_kinds" in refused.stderr
    assert refused.stdout == ""
    usual = rails_json(run, "amerika", "--hand", "Seattle,Helena")
    # a test value, not the printed one: Seattle's double lines east and south-east as water
    kinds = '{"water": [[[0, 0], [1, 0]], [[0, 0], [1, 1]]], "mountain": []}'
    run(["data", "set", "trans-amerika", "double_kinds", kinds], expect=0)
    water = rails_json(run, "amerika", "--hand", "Seattle,Helena", "--single", "water")
    mountain = rails_json(run, "amerika", "--hand", "Seattle,Helena", "--single", "mountain")
    assert water["rails"] == usual["rails"] - 1
    assert mountain["rails"] == usual["rails"]


# -- every hand -----------------------------------------------------------------------------------
def test_all_hands_stats(run):
    result = run(["rails", "amerika", "--all-hands", "--stats"], expect=0)
    assert "16,807 hands (4 to 6 players, every card)" in result.stdout
    assert "minimum 19, maximum 36" in result.stdout
    assert "Easiest (19 rails, 1 hand): San Diego, Cincinnati, St. Louis, Dallas, Washington" in result.stdout
    # English writes its thousands and decimals as English does (the German ones: tests/test_german_trans.py)
    assert re.search(r"mean \d+\.\d\d, standard deviation \d+\.\d\d", " ".join(result.stdout.split()))
    out = rails_json(run, "amerika", "--all-hands", "--stats")
    assert out["hands"] == 16807 and out["min"] == 19 and out["max"] == 36
    assert sum(out["histogram"].values()) == 16807
    assert 19 < out["mean"] < 36 and out["stdev"] > 0


def test_two_or_three_players_leave_the_dashed_cards_out(run):
    out = rails_json(run, "amerika", "--all-hands", "--stats", "--players", "3")
    assert out["hands"] == 3125
    assert "San Diego" not in out["easiest"][0]


def test_all_hands_without_stats_lists_every_hand(run):
    result = run(["rails", "amerika", "--all-hands", "--players", "2"], expect=0)
    lines = result.stdout.splitlines()
    assert len(lines) == 3125
    assert lines[0].split()[0] == str(min(int(line.split()[0]) for line in lines))


def test_unknown_dashed_cards_are_asked_for_then_used(run):
    refused = run(["rails", "europa", "--all-hands", "--stats", "--players", "2"], expect=1)
    assert "companion data set trans-europa dashed" in refused.stderr
    # a test list (2 per colour), not the printed one
    dashed = ["Glasgow", "Oslo", "Dublin", "Brest", "Paris", "Wien", "Kyiv", "Riga", "Roma", "Sofia"]
    run(["data", "set", "trans-europa", "dashed", json.dumps(dashed)], expect=0)
    out = rails_json(run, "europa", "--all-hands", "--stats", "--players", "2")
    assert out["hands"] == 3125
    assert not set(dashed) & {c for hand in out["easiest"] + out["hardest"] for c in hand}


# -- refusals ---------------------------------------------------------------------------------------
def refused(run, args, code=1):
    result = run(["rails", *args], expect=code)
    assert result.stdout == ""
    message = result.stderr.strip()
    assert message.startswith("Error: ") and "\n" not in message
    return message


def test_a_line_that_is_not_on_the_board_is_refused_naming_it(run):
    message = refused(run, ["amerika", "--hand", "Dallas,Omaha", "--built", "Dallas-I10-Omaha"])
    assert "I10-Omaha is not a line on the board" in message


def test_an_unknown_junction_or_city_is_refused(run):
    assert "no junction called 'Q99'" in refused(run, ["amerika", "--hand", "Dallas", "--built", "Dallas-Q99"])
    assert "Did you mean Dallas?" in refused(run, ["amerika", "--hand", "Dalas,Omaha"])
    assert "is a junction, not a city" in refused(run, ["amerika", "--hand", "Dallas,E5"])
    assert "given twice" in refused(run, ["amerika", "--hand", "Dallas,dallas"])
    assert "no junction called 'Nowhere'" in refused(run, ["amerika", "--hand", "Dallas", "--start", "Nowhere"])
    assert "type amerika or europa" in refused(run, ["asia", "--hand", "Dallas"])


def test_options_that_do_not_belong_together_are_usage_errors(run):
    assert "--hand" in refused(run, ["amerika"], code=2)
    assert "not both" in refused(run, ["amerika", "--hand", "Dallas", "--all-hands"], code=2)
    assert "--players goes with --all-hands" in refused(run, ["amerika", "--hand", "Dallas", "--players", "3"], code=2)
    assert "--built goes with --hand" in refused(run, ["amerika", "--all-hands", "--built", "Dallas-I10"], code=2)
    refused(run, ["amerika", "--all-hands", "--players", "7"], code=2)
    refused(run, ["amerika", "--hand", "Dallas", "--single", "lava"], code=2)


# -- the map --------------------------------------------------------------------------------------
def test_board_draws_the_map_without_a_session(run):
    result = run(["board", "trans-amerika"], expect=0)
    assert "SDi" in result.stdout and "═══" in result.stdout
    assert result.stdout.splitlines()[0].split()[:3] == ["A", "B", "C"]


# -- script mode ----------------------------------------------------------------------------------
def test_script_mode_runs_rails_lines_and_stops_at_a_refusal(script):
    code, out, err = script(
        f"rails amerika --hand '{KNOWN}'\n"
        "rails amerika --hand 'Seattle,Helena' --built Seattle-Q99\n"
        "rails amerika --hand Dallas\n"
    )
    assert code == 1
    assert out.startswith("19 rails connect")
    assert "line 2: There is no junction called 'Q99'" in err
    assert "0 rails" not in out  # line 3 never ran


def test_a_scripted_round_scored_with_the_computed_missing_rails(script, status, run):
    """Cities dealt at the table, recorded; the losers' missing rails worked out by `rails`."""
    hands = {
        "Ann": KNOWN,
        "Bob": "Seattle,Helena,Salt Lake City,Phoenix,New York",
        "Cy": "Portland,Bismarck,Santa Fe,New Orleans,Boston",
        "Dee": "Los Angeles,Chicago,Omaha,Memphis,Richmond",
    }
    code, out, err = script(
        "new trans-amerika --players Ann,Bob,Cy,Dee\n"
        "round start --physical\n" + "".join(f"hand {p} --set '{h}'\n" for p, h in hands.items())
    )
    assert code == 0, err
    # Bob connected. Ann's network runs from San Diego to Dallas along the south; Cy and Dee
    # placed their markers on Portland and Chicago and built nothing yet
    built = "San Diego-D11-E11-F11-G11-H11-I11-Dallas"
    ann = rails_json(run, "amerika", "--hand", hands["Ann"], "--start", "San Diego", "--built", built)
    cy = rails_json(run, "amerika", "--hand", hands["Cy"], "--start", "Portland", "--built", built)
    dee = rails_json(run, "amerika", "--hand", hands["Dee"], "--start", "Chicago", "--built", built)
    assert ann["rails"] == 19 - 8  # the built part of the 19-rail route: 7 lines, one double
    assert cy["rails"] < 36  # the hardest hand of the empty board, helped by Ann's rails
    code, out, err = script(f"round end --winner Bob --missing Ann={ann['rails']} "
                            f"--missing Cy={cy['rails']} --missing Dee={dee['rails']}\n")
    assert code == 0, err
    chart = [3, 2, 1, 1, 0]  # the normal chart: 1 missing 3, 2 missing 2, 3-4 missing 1, 5+ 0
    expected = {"Ann": 0, "Bob": 4, "Cy": chart[min(cy["rails"], 5) - 1], "Dee": chart[min(dee["rails"], 5) - 1]}
    assert {p["name"]: p["score"] for p in status()["players"]} == expected
