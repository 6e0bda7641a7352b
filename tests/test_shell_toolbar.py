"""The bottom bar (issue 13.3): session, game, round, whose turn, the leader by the game's own
rule and what comes next."""

from __future__ import annotations

from companion.core.app import App
from companion.terminal.shell import SessionView, fit


def bar(home) -> str:
    return SessionView(App(home)).toolbar()


def test_a_lowest_wins_sheet_names_the_lowest_total(home, run):
    run(["new", "scoresheet", "--players", "Ann,Bob,Cy", "--lowest-wins"], expect=0)
    run(["add", "Ann=3", "Bob=5", "Cy=9"], expect=0)
    text = bar(home)
    assert "leader Ann (3, lowest wins)" in text
    assert "next: add NAME=POINTS ... or finish" in text


def test_a_tie_names_every_leader(home, run):
    run(["new", "scoresheet", "--players", "Ann,Bob,Cy"], expect=0)
    run(["add", "Ann=5", "Bob=5", "Cy=1"], expect=0)
    assert "leader Ann & Bob (5)" in bar(home)


def test_transatlantic_says_whose_turn_it_is(home, run):
    run(["new", "transatlantic", "--players", "Ann,Bob"], expect=0)
    assert "Ann's turn" in bar(home)
    run(["next"], expect=0)
    text = bar(home)
    assert "Bob's turn" in text and "Transatlantic" in text and "round 1" in text


def test_atlantic_star_says_whose_turn_it_is_and_what_they_may_do(home, run):
    run(["new", "atlantic-star", "--players", "Ann,Bob"], expect=0)
    text = bar(home)
    assert "Ann's turn" in text and "next: loan, refresh, charter or voyage" in text


def test_trans_says_what_comes_next(home, run):
    run(["new", "trans-amerika", "--players", "Ann,Bob", "--entropy", "x"], expect=0)
    assert "next: round start" in bar(home)
    run(["round", "start", "--special", "pass-three"], expect=0)
    text = bar(home)
    assert "pass NAME" in text and "CITY" not in text


def test_trans_says_whose_turn_it_is_while_the_rails_go_down(home, script):
    try:
        from test_trans_rails_script import setup
    except ImportError:
        from tests.test_trans_rails_script import setup
    code, _, err = script(setup())
    assert code == 0, err
    # Dee built last, a double line (2 of 2 rails' worth) in turn 4: the turn has passed to Ann
    # (issue 21: the toolbar named Dee until Ann built)
    assert "Ann's turn" in bar(home)


def test_a_finished_game_names_its_winners(home, run):
    run(["new", "scoresheet", "--players", "Ann,Bob", "--lowest-wins"], expect=0)
    run(["add", "Ann=3", "Bob=5"], expect=0)
    run(["finish"], expect=0)
    assert "over: Ann won" in bar(home)


def test_the_bar_is_cut_to_the_width():
    assert fit("x" * 100, 40) == "x" * 39 + "…"
    assert fit("short", 40) == "short"
