"""Trans Europa / Trans Amerika to the letter (issue 15): impossible round results are refused,
start markers go down in seat order from the start player.
"""

from __future__ import annotations

import pytest
from refusal_support import refused

from companion.core import datapack
from companion.games.trans.track import _board_cache


@pytest.fixture
def amerika(run):
    run(["new", "trans-amerika", "--players", "Ann,Bob,Cy", "--entropy", "x"], expect=0)
    run(["round", "start"], expect=0)
    return run


def test_the_largest_possible_count_is_computed_from_the_board():
    """Seed 000: "All other players count how many rails they ... would still have needed to place
    in order to also connect their 5 cities" (a double line counting two). The bound is at least
    the exact hardest hand (36 rails on the TransAmerica board, 35 on the Europa board, counted
    by steiner.hand_costs) and leaves room for a start marker far from the cities."""
    for game, hardest in (("trans-amerika", 36), ("trans-europa", 35)):
        cache = _board_cache(datapack.pack(game)["values"], game)
        assert cache.surely_possible() <= cache.most_missing()
        assert hardest <= cache.most_missing() <= 2 * hardest
    assert _board_cache(datapack.pack("trans-amerika")["values"], "trans-amerika").most_missing() == 49


def test_more_missing_rails_than_the_board_allows_are_refused(amerika, status):
    """Seed 000: the missing rails are the rails "they would still have needed to place": never
    more than the board's worst hand can need. Today `--missing Dee=99` was accepted."""
    err = refused(amerika, status, ["round", "end", "--winner", "Ann", "--missing", "Bob=99", "--missing", "Cy=3"],
                  "Bob cannot be missing 99 rails: on this board no player can need more than 49")
    assert "--missing Bob=N" in err
    amerika(["round", "end", "--winner", "Ann", "--missing", "Bob=40", "--missing", "Cy=3"], expect=0)


def test_a_winner_the_recorded_board_shows_unconnected_is_refused(amerika, status):
    """Seed 000: the round ends when "one of you has connected the 5 cities on your cards ... to
    your starting marker with an unbroken rail network". With every marker recorded and no rail,
    nobody is connected."""
    for line in (["start", "Ann", "Seattle"], ["start", "Bob", "Omaha"], ["start", "Cy", "Dallas"]):
        amerika(line, expect=0)
    refused(amerika, status, ["round", "end", "--winner", "Ann", "--missing", "Bob=3", "--missing", "Cy=3"],
            "The recorded board shows Ann not connected")


def test_a_winner_is_taken_when_not_every_marker_was_recorded(amerika, status):
    """Only a board with every start marker recorded can say who is not connected."""
    amerika(["start", "Ann", "Seattle"], expect=0)
    amerika(["round", "end", "--winner", "Ann", "--missing", "Bob=3", "--missing", "Cy=3"], expect=0)
    assert status()["history"][-1]["winners"] == ["Ann"]


def test_start_markers_go_down_from_the_start_player_clockwise(amerika, status):
    """Seed 000: "The starting player begins, then all the others place their marker in turn,
    clockwise." And "The starting player card passes to the left-hand neighbor"."""
    err = refused(amerika, status, ["start", "Bob", "Omaha"], "It is Ann's turn to place a start marker")
    assert "The starting player begins, then all the others place their marker in turn, clockwise." in err
    amerika(["start", "Ann", "Seattle"], expect=0)
    refused(amerika, status, ["start", "Cy", "Dallas"], "It is Bob's turn to place a start marker")
    amerika(["start", "Bob", "Omaha"], expect=0)
    amerika(["start", "Cy", "Dallas"], expect=0)
    amerika(["round", "end", "--missing", "Ann=3", "--missing", "Bob=3", "--missing", "Cy=3", "--rails-out"],
            expect=0)
    amerika(["round", "start"], expect=0)  # round 2: Bob starts
    refused(amerika, status, ["start", "Ann", "Seattle"], "It is Bob's turn to place a start marker")
    amerika(["start", "Bob", "Seattle"], expect=0)
    amerika(["start", "Cy", "Omaha"], expect=0)
    amerika(["start", "Ann", "Dallas"], expect=0)


def test_the_cards_orange_is_asked_for_never_assumed(amerika, status, run):
    """Seed 000 names the colours "1 brown, 1 white, 1 pink, 1 orange, and 1 turquoise"; the
    classic TransAmerica board has an orange too, but nobody knows it is the card's orange."""
    amerika(["round", "end", "--winner", "Ann", "--missing", "Bob=3", "--missing", "Cy=3"], expect=0)
    err = refused(amerika, status, ["round", "start", "--special", "pass-orange"], "colour_aliases.orange")
    assert "companion data set trans-amerika colour_aliases.orange" in err
    amerika(["data", "set", "trans-amerika", "colour_aliases.orange", '"red"'], expect=0)
    out = amerika(["round", "start", "--special", "pass-orange"], expect=0).stdout
    assert "two red cities" in out


def test_the_shell_asks_which_board_colour_a_card_means(home, run, status):
    from companion.core.app import App
    from companion.games.trans.moves import MOVES  # noqa: F401 (issue 20: `round start` is declared there)
    from companion.terminal.cli import run_line

    run(["new", "trans-amerika", "--players", "Ann,Bob,Cy", "--entropy", "x"], expect=0)
    answers = iter(["purple", "yellow"])
    app = App(home, ask=lambda question, default="": next(answers), interactive=True)
    run_line(app, "round start --special pass-orange")
    assert status()["special"]["id"] == "pass-orange" and status()["round"] == 1
    assert '"yellow"' in run(["data", "show", "trans-amerika", "colour_aliases.orange"], expect=0).stdout


def test_the_suggested_water_and_mountain_lines_are_confirmed_with_one_command(run, status):
    """RULES.md: "for the classic TransAmerica board a public open-source encoding labels all 109
    double lines (46 mountain, 63 water) ... to offer as a suggestion the players confirm". Seed
    000's cards: "every double stretch over water counts as a single stretch"."""
    hint = datapack.pack("trans-amerika")["suggestions"]["double_kinds"]
    assert len(hint["value"]["water"]) == 63 and len(hint["value"]["mountain"]) == 46
    assert "oscardssmith/Trans-America" in hint["source"] and "medium" in hint["source"]
    assert datapack.pack("trans-amerika")["values"]["double_kinds"] is None  # never a printed fact
    out = run(["data", "check", "trans-amerika"], expect=0).stdout
    assert "companion data accept trans-amerika double_kinds" in out
    # until confirmed, the water card asks as today
    run(["new", "trans-amerika", "--players", "Ann,Bob,Cy", "--entropy", "x"], expect=0)
    run(["round", "start", "--special", "water-single"], expect=0)
    for line in (["start", "Ann", "Seattle"], ["start", "Bob", "Omaha"], ["start", "Cy", "Dallas"]):
        run(line, expect=0)
    before = status()
    err = run(["round", "end", "--auto", "--winner", "Ann"], expect=1).stderr
    assert "The printed value double_kinds" in err and "`companion data accept trans-amerika double_kinds`" in err
    assert status() == before
    out = run(["data", "accept", "trans-amerika", "double_kinds"], expect=0).stdout
    assert "Confirmed the suggested trans-amerika double_kinds." in out and "oscardssmith" in out
    assert "supplied by you on" in run(["data", "show", "trans-amerika", "double_kinds.water"], expect=0).stdout
    assert "double_kinds" not in run(["data", "check", "trans-amerika"], expect=0).stdout
    assert "offers no whole suggestion" in run(["data", "accept", "atlantic-star", "vp.5"], expect=1).stderr
