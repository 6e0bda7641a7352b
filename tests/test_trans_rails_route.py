"""`rails NAME` in a Trans session: a player's missing rails on the recorded board, at any time.

Rails already on the board cost nothing, whoever built them; the route shown is one optimal
set of rails; the count is the one `round end --auto` scores and the one `rails MAP` gives for
the same board. The cities of a hand are secret, so in the shell the answer is private.
"""

from __future__ import annotations

import json

from companion.core.app import App
from companion.terminal.cli import run_line

KNOWN = "San Diego,Dallas,St. Louis,Cincinnati,Washington"
SETUP = (
    'new trans-amerika --players Ann,Bob,Cy,Dee --entropy "x"\n'
    "round start --physical\n"
    f'hand Ann --set "{KNOWN}"\n'
    'hand Bob --set "Los Angeles,Chicago,Oklahoma City,Memphis,New York"\n'
)


def rails_of(run, name: str) -> dict:
    return json.loads(run(["rails", name, "--json"], expect=0).stdout)


def test_the_count_falls_by_exactly_the_rails_built_on_the_route(script, run):
    code, out, err = script(SETUP + "start Ann San Diego\n")
    assert code == 0, err
    first = rails_of(run, "Ann")
    assert first["rails"] == 19 and first["start"] == "San Diego" and first["cities"] == KNOWN.split(",")
    assert sum(cost for a, b, cost in first["pairs"]) == 19
    text = run(["rails", "ann"], expect=0).stdout
    text = unwrap(text)  # long lines wrap at 80 columns, continued indented
    assert text.startswith(f"Ann's cities: {KNOWN.replace(',', ', ')}.")
    assert "Ann needs 19 more rails to join them to the network at San Diego (round 1, 0 rails on the board)." in text
    assert "(double)" in text and "To build, as paths: " in text
    # build the first steps of the optimal route: they are free now, the rest is unchanged
    code, out, err = script("start Bob Los Angeles\nstart Cy Portland\nstart Dee Omaha\n"
                            "build Ann San Diego-D11-E11-F11\n")
    assert code == 0, err
    assert rails_of(run, "Ann")["rails"] == 19 - 4  # San Diego-D11 is a double line
    # then the whole route: 0 missing, the cities are connected
    code, out, err = script("build Ann F11-G11-H11-I11-Dallas-J10-K9-K8-St. Louis-L6-M6-Cincinnati-O6-Washington\n")
    assert code == 0, err
    done = rails_of(run, "Ann")
    assert done["rails"] == 0 and done["pairs"] == []
    assert "0 rails missing" in run(["rails", "Ann"], expect=0).stdout


def test_another_player_s_rails_are_free_too(script, run):
    code, out, err = script(SETUP + "start Ann San Diego\nstart Bob Los Angeles\nstart Cy Portland\nstart Dee Omaha\n")
    assert code == 0, err
    alone = rails_of(run, "Bob")
    code, out, err = script("build Ann San Diego-D11-E11-F11-G11-H11-I11-Dallas-J10-K9\n"
                            "build Bob Los Angeles-San Diego\n")
    assert code == 0, err
    helped = rails_of(run, "Bob")
    assert helped["rails"] < alone["rails"] - 1  # Ann's rails towards Oklahoma City cost Bob nothing
    assert "Dallas" in helped["network"]
    # the same count as `rails MAP` on the same board
    built = "San Diego-D11-E11-F11-G11-H11-I11-Dallas-J10-K9,Los Angeles-San Diego"
    same = json.loads(run(["rails", "amerika", "--hand", "Los Angeles,Chicago,Oklahoma City,Memphis,New York",
                           "--start", "Los Angeles", "--built", built, "--json"], expect=0).stdout)
    assert same["rails"] == helped["rails"]


def test_before_the_marker_the_cities_only_join_each_other(script, run):
    code, out, err = script(SETUP)
    assert code == 0, err
    out = rails_of(run, "Ann")
    assert out["rails"] == 19 and out["start"] is None
    assert "to each other (no start marker yet)" in run(["rails", "Ann"], expect=0).stdout


def test_the_drawing_shows_the_route_and_the_rails_built(script, run):
    code, out, err = script(SETUP + "start Ann San Diego\nstart Bob Los Angeles\nstart Cy E5\nstart Dee Omaha\n"
                                    "build Ann San Diego-D11\n")
    assert code == 0, err
    text = run(["rails", "Ann", "--draw"], expect=0).stdout
    assert "in magenta: the missing rails found" in text
    assert "━━━" in text and "◆" in text  # the rails, and Cy's marker on a junction that is no city


def test_a_hand_not_recorded_is_asked_for(script, run):
    code, out, err = script(SETUP)
    assert code == 0, err
    assert "hand Cy --set" in run(["rails", "Cy"], expect=1).stderr


def test_in_the_shell_the_route_is_private(script, home):
    code, out, err = script(SETUP + "start Ann San Diego\n")
    assert code == 0, err
    shown = []
    app = App(home, show_private=lambda owner, text: shown.append((owner, text)))
    assert run_line(app, "rails Ann") == (0, None)
    assert shown[0][0] == "Ann" and "San Diego" in shown[0][1] and "19 more rails" in shown[0][1]


def test_rails_name_needs_a_trans_session_and_keeps_map_mode_working(run):
    message = " ".join(run(["rails", "Ann"], expect=1).stderr.split())
    assert message.startswith("Error: No current session: `rails Ann` counts a player's missing rails in a "
                              "Trans session")
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    sid = json.loads(run(["status", "--json"], expect=0).stdout)["session"]
    message = " ".join(run(["rails", "Ann"], expect=1).stderr.split())
    assert message == (f"Error: Session {sid} (Score sheet) is not a Trans game: `rails Ann` counts a player's "
                       "missing rails in a Trans session (`use ID` picks one, `sessions` lists them); a map instead "
                       "of a name counts any hand: `rails amerika --hand CITY,...`.")
    assert "not a map" not in message  # issue 29: the session is what is wrong, not the name
    assert run(["rails", "amerika", "--hand", KNOWN], expect=0).stdout.startswith("19 rails")
    assert "--built goes with `rails MAP --hand ...`" in run(["rails", "Ann", "--built", "Dallas-J10"], expect=2).stderr


def unwrap(text: str) -> str:
    """The text with every wrapped line joined again (a continuation starts with spaces)."""
    import re

    return re.sub(r"\n +(?=\S)", " ", text)
