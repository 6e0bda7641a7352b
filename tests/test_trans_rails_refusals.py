"""What the board refuses, each in one line that says what to type instead, recording nothing:
a line that is not on the board, a rail on an occupied line, a start marker on a taken
junction, a rail that does not join the builder's network (unless the build-anywhere card is in
force), building before every marker is down or while the deal is not finished.
"""

from __future__ import annotations

import json

import pytest

SETUP = (
    'new trans-amerika --players Ann,Bob,Cy,Dee --entropy "x"\n'
    "round start --physical{card}\n"
    "start Ann San Diego\nstart Bob Los Angeles\nstart Cy Portland\nstart Dee Omaha\n"
    "build Ann San Diego-D11-E11\n"
)


@pytest.fixture
def board(script):
    def _board(card: str = ""):
        code, out, err = script(SETUP.format(card=f" --special {card}" if card else ""))
        assert code == 0, err
    return _board


def log_length(run) -> int:
    return len(json.loads(run(["log", "--json"], expect=0).stdout))


def refused(run, *args) -> str:
    before = log_length(run)
    result = run(list(args), expect=1)
    message = result.stderr.strip()
    assert message.startswith("Error: ") and "\n" not in message and "Traceback" not in message
    assert log_length(run) == before  # nothing recorded
    return message


def test_a_line_that_is_not_on_the_board(board, run):
    board()
    message = refused(run, "build", "Ann", "E11-Dallas")
    assert message == ("Error: E11-Dallas is not a line on the board: from E11 a rail can go to "
                       "Phoenix, E10, D11, F11, D12, E12.")
    assert "no junction called 'Q99'" in refused(run, "build", "Ann", "E11-Q99")
    assert "is a single junction" in refused(run, "build", "Ann", "E11")


def test_a_rail_on_an_occupied_line(board, run):
    board()
    assert refused(run, "build", "Bob", "Los Angeles-San Diego-D11") == (
        "Error: San Diego-D11 already has a rail (Ann's): rails go on free lines only.")
    assert "already has a rail (Ann's)" in refused(run, "build", "Ann", "E11-D11")


def test_a_start_marker_on_a_taken_junction_or_placed_twice(script, run):
    code, out, err = script('new trans-amerika --players Ann,Bob --entropy "x"\nround start\nstart Ann E5\n')
    assert code == 0, err
    assert refused(run, "start", "Bob", "e5") == "Error: E5 already holds Ann's start marker: choose a free junction."
    assert refused(run, "start", "Ann", "Dallas") == (
        "Error: Ann's start marker is already on E5: `undo` takes it back if it is in the wrong place.")
    assert "no junction called 'Atlantis'" in refused(run, "start", "Bob", "Atlantis")
    assert "no player called 'Zed'" in refused(run, "start", "Zed", "Dallas")


def test_a_rail_that_does_not_join_the_network(board, run):
    board()
    assert refused(run, "build", "Cy", "Boston-Q4") == (
        "Error: Boston-Q4 does not join Cy's network (the rails connected to their start marker at Portland): "
        "a rail must touch it. Only the build-anywhere card lets rails go anywhere.")
    # a path may be written from its far end: it is laid from the network outwards
    run(["build", "Cy", "A4-A3-Portland"], expect=0)
    # one unconnected part refuses the whole build
    assert "Boston-Q4 does not join" in refused(run, "build", "Cy", "A4-A5,Boston-Q4")


def test_build_anywhere_lifts_the_network_rule(board, run, status):
    board("build-anywhere")
    run(["build", "Cy", "Boston-Q4"], expect=0)
    assert status()["rails"][-1] == {"line": "Boston-Q4", "player": "Cy"}


def test_building_waits_for_every_start_marker(script, run):
    code, out, err = script('new trans-amerika --players Ann,Bob,Cy --entropy "x"\nround start\nstart Ann Dallas\n')
    assert code == 0, err
    assert refused(run, "build", "Ann", "Dallas-J10") == (
        "Error: Every start marker goes down before the first rail: waiting for Bob, Cy (`start Bob JUNCTION`).")


def test_the_board_waits_for_the_deal_and_an_open_round(script, run):
    run(["new", "trans-amerika", "--players", "Ann,Bob", "--entropy", "x"], expect=0)
    assert "No round is open: start one with `round start` before placing start markers." in refused(
        run, "start", "Ann", "Dallas")
    run(["round", "start", "--special", "return-any"], expect=0)
    assert "The deal is not finished: Ann, Bob must still put a city back" in refused(run, "start", "Ann", "Dallas")


def test_other_games_sessions_refuse_the_board_commands(run):
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    assert "`build` is a Trans Europa command" in refused(run, "build", "Ann", "Dallas-J10")


def test_paths_are_separated_by_commas_or_spaces_and_city_names_need_no_quotes(board, run, status):
    board()
    run(["build", "Ann", "San", "Diego-C10,", "E11-F11"], expect=0)
    run(["build", "Ann", "C10-B10", "F11-G11"], expect=0)
    assert [r["line"] for r in status()["rails"]][-4:] == ["C10-San Diego", "E11-F11", "Los Angeles-C10", "F11-G11"]
    assert "no junction called 'E6 E5'" in refused(run, "build", "Ann", "E6", "E5")
