"""The generic score sheet, through the same commands a user types."""

from __future__ import annotations

import json


def test_new_prints_the_session_id(run):
    result = run(["new", "scoresheet", "--players", "Ann,Bob,Cy"], expect=0)
    assert result.stdout.startswith("New session ")
    sid = result.stdout.split()[2].rstrip(":")
    assert len(sid) == 8


def test_rounds_add_up_and_unnamed_players_score_zero(run, status):
    run(["new", "scoresheet", "--players", "Ann,Bob,Cy"], expect=0)
    run(["add", "Ann=12", "Bob=7", "Cy=9"], expect=0)
    run(["add", "bob=-3"], expect=0)
    s = status()
    assert [(p["name"], p["score"]) for p in s["players"]] == [("Ann", 12), ("Bob", 4), ("Cy", 9)]
    assert s["round"] == 2 and s["finished"] is False and s["winners"] == []


def test_finish_gives_every_best_total_a_win(run, status):
    run(["new", "scoresheet", "--players", "Ann,Bob,Cy"], expect=0)
    run(["add", "Ann=5", "Bob=5", "Cy=1"], expect=0)
    result = run(["finish"], expect=0)
    assert "shared win for Ann, Bob" in result.stdout
    assert status()["winners"] == ["Ann", "Bob"]


def test_target_ends_the_game_after_the_round(run, status):
    run(["new", "scoresheet", "--players", "Ann,Bob", "--target", "20"], expect=0)
    run(["add", "Ann=15", "Bob=10"], expect=0)
    assert not status()["finished"]
    result = run(["add", "Ann=4", "Bob=12"], expect=0)
    assert "Bob wins" in result.stdout
    assert status()["winners"] == ["Bob"]


def test_lowest_wins_ends_when_someone_reaches_the_target(run, status):
    """The help's word, "reaches", whichever total wins (issue 29; tests/test_scoresheet_target.py)."""
    run(["new", "scoresheet", "--players", "Ann,Bob", "--lowest-wins", "--target", "100"], expect=0)
    run(["add", "Ann=60", "Bob=99"], expect=0)
    assert not status()["finished"]
    run(["add", "Ann=30", "Bob=1"], expect=0)  # Bob reaches 100
    s = status()
    assert s["finished"] and s["winners"] == ["Ann"]


def test_refusals_change_nothing(run, status):
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    run(["add", "Ann=1"], expect=0)
    before = status()
    cases = [
        (["add", "Zed=3"], 1, "no player called 'Zed'"),
        (["add", "Ann=3", "ann=4"], 1, "given twice"),
        (["add", "Ann=three"], 2, "is not a number; write it like Ann=2.5"),
        (["add", "Ann"], 2, "not NAME=POINTS"),
        (["add"], 2, "Give the round's points"),
    ]
    for args, code, text in cases:
        result = run(args, expect=code)
        assert text in result.stderr
        assert result.stderr.startswith("Error:")
        assert len(result.stderr.strip().splitlines()) == 1
    assert status() == before


def test_finish_needs_a_round_and_nothing_follows_the_end(run, status):
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    assert "No round is recorded" in run(["finish"], expect=1).stderr
    run(["add", "Ann=1"], expect=0)
    run(["finish"], expect=0)
    assert "The game is over" in run(["add", "Ann=1"], expect=1).stderr
    run(["undo"], expect=0)  # undo reopens a finished game
    assert status()["finished"] is False
    run(["add", "Ann=1"], expect=0)


def test_status_shows_a_table_of_rounds(run):
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    run(["add", "Ann=3", "Bob=4"], expect=0)
    run(["add", "Ann=10"], expect=0)
    out = run(["status"], expect=0).stdout
    assert "R1" in out and "R2" in out and "total" in out
    assert any(line.split()[:4] == ["Ann", "3", "10", "13"] for line in out.splitlines())


def test_player_names_are_checked(run):
    assert "given twice" in run(["new", "scoresheet", "--players", "Ann,ann"], expect=1).stderr
    assert "longer than 20" in run(["new", "scoresheet", "--players", "A" * 21 + ",Bob"], expect=1).stderr
    assert "empty" in run(["new", "scoresheet", "--players", "Ann,,Bob"], expect=1).stderr
    assert "1 to 6 players, not 7" in run(["new", "scoresheet", "--players", "a,b,c,d,e,f,g"], expect=1).stderr
    assert "--players" in run(["new", "scoresheet"], expect=2).stderr


def test_start_player_goes_first(run, status):
    run(["new", "scoresheet", "--players", "Ann,Bob,Cy", "--start", "bob"], expect=0)
    assert [p["name"] for p in status()["players"]] == ["Bob", "Cy", "Ann"]
    assert "no player called 'Dan'" in run(["new", "scoresheet", "--players", "Ann,Bob", "--start", "Dan"], expect=1).stderr


def test_log_lists_events_in_words(run):
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    run(["add", "Ann=3", "Bob=4"], expect=0)
    run(["finish"], expect=0)
    out = run(["log"], expect=0).stdout
    assert "1." in out and "Ann +3, Bob +4" in out and "2." in out and "game finished" in out
    rows = json.loads(run(["log", "--json"], expect=0).stdout)
    assert [r["n"] for r in rows] == [1, 2]
    assert rows[0]["event"] == {"type": "add", "scores": {"Ann": 3, "Bob": 4}}


def test_a_long_score_sheet_shows_its_last_rounds(run, monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")  # wide enough for every round shown
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    run([], input="".join(f"add Ann={i} Bob=1\n" for i in range(1, 51)))
    out = run(["status"], expect=0).stdout
    assert "R50" in out and "R11 " in out and "R10 " not in out and "R1 " not in out
    assert "Rounds 1 to 10 are not shown" in out and "1275" in out


def test_the_log_names_players_as_seated(run):
    """`add ann=4 "bartholomew jones=1"` was logged as "ann +4, bartholomew jones +1": the names
    are now recorded as seated, so the log and the report read as the table does."""
    run(["new", "scoresheet", "--players", "Ann,Bartholomew Jones"], expect=0)
    out = run(["add", "ann=4", "bartholomew jones=1"], expect=0).stdout
    assert out == "Round 1 recorded. Totals: Ann 4, Bartholomew Jones 1.\n"
    log = run(["log"], expect=0).stdout
    assert "round scored: Ann +4, Bartholomew Jones +1" in log
    rows = json.loads(run(["log", "--json"], expect=0).stdout)
    assert rows[0]["event"] == {"type": "add", "scores": {"Ann": 4, "Bartholomew Jones": 1}}
