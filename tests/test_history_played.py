"""`played` logs a finished play from its final scores; `new --played-on/--location`."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET


def stats(run, *args):
    return json.loads(run(["stats", "--json", *args], expect=0).stdout)


def test_played_logs_a_finished_game_by_the_games_own_rule(run):
    out = run(["played", "trans-europa", "--players", "Ann=5,Bob=0,Cy=3", "--played-on", "2026-03-01",
               "--location", "Cy's kitchen", "--note", "first game"], expect=0).stdout
    assert "Trans Europa on 2026-03-01 at Cy's kitchen" in out and "Ann wins" in out
    st = stats(run)
    assert st["sessions"] == 1
    assert {p["name"]: p["wins"] for p in st["players"]} == {"Ann": 1, "Bob": 0, "Cy": 0}
    sid = json.loads(run(["sessions", "--json"], expect=0).stdout)[0]["id"]
    assert "Note: first game" in run(["report", sid], expect=0).stdout


def test_played_does_not_change_the_current_session(run, status):
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    before = status()["session"]
    run(["played", "scoresheet", "--players", "Ann=1,Bob=2"], expect=0)
    assert status()["session"] == before


def test_ties_the_rule_cannot_settle_ask_for_winner(run):
    refused = run(["played", "transatlantic", "--players", "Ann=50,Bob=50"], expect=1).stderr
    assert "youngest ship" in refused and "--winner" in refused
    refused = run(["played", "atlantic-star", "--players", "Ann=50,Bob=50,Cy=2"], expect=1).stderr
    assert "money" in refused and "--winner" in refused
    assert json.loads(run(["sessions", "--json"], expect=0).stdout) == [], "nothing was recorded"
    assert "Bob wins" in run(["played", "transatlantic", "--players", "Ann=50,Bob=50", "--winner", "bob"],
                             expect=0).stdout
    # a score sheet's tie is a shared win
    assert "shared win for Ann, Bob" in run(["played", "scoresheet", "--players", "Ann=5,Bob=5"], expect=0).stdout
    # --winner overrides the rule (a score sheet played low)
    run(["played", "scoresheet", "--players", "Ann=3,Bob=9", "--winner", "Ann"], expect=0)
    assert {p["name"]: p["wins"] for p in stats(run)["players"]} == {"Ann": 2, "Bob": 2}


def test_played_refusals(run):
    assert "future" in run(["played", "scoresheet", "--players", "Ann=1,Bob=2", "--played-on", "2999-01-01"],
                           expect=1).stderr
    assert "YYYY-MM-DD" in run(["played", "scoresheet", "--players", "Ann=1,Bob=2", "--played-on", "March"],
                               expect=1).stderr
    assert "no player called 'Cy'" in run(["played", "scoresheet", "--players", "Ann=1,Bob=2", "--winner", "Cy"],
                                          expect=1).stderr
    assert "2 to 6 players" in run(["played", "trans-europa", "--players", "Ann=1"], expect=1).stderr
    # any title is a game of its own now (issue 23); a near miss of a game id is refused
    assert "did you mean transatlantic" in run(["played", "transatlantik", "--players", "Ann=1,Bob=2"],
                                               expect=1).stderr
    assert "is not a number" in run(["played", "scoresheet", "--players", "Ann=x,Bob=2"], expect=2).stderr  # halves too (issue 23)
    assert "may not start" in run(["played", "scoresheet", "--players", "@Ann=1,Bob=2"], expect=1).stderr
    assert json.loads(run(["sessions", "--json"], expect=0).stdout) == []


def test_past_dated_plays_order_the_stats_and_since(run):
    # typed newest first: the streak follows the dates played, not the typing
    run(["played", "scoresheet", "--players", "Ann=9,Bob=1", "--played-on", "2026-03-03"], expect=0)
    run(["played", "scoresheet", "--players", "Ann=1,Bob=9", "--played-on", "2026-03-02"], expect=0)
    run(["played", "scoresheet", "--players", "Ann=1,Bob=9", "--played-on", "2026-03-01"], expect=0)
    p = {x["name"]: x for x in stats(run)["players"]}
    assert p["Ann"]["current_streak"] == 1 and p["Bob"]["current_streak"] == 0
    assert p["Bob"]["longest_streak"] == 2
    assert p["Ann"]["recent"] == [1, 1, 9]
    since = stats(run, "--since", "2026-03-02")
    assert since["sessions"] == 2
    rows = run(["players", "--json"], expect=0).stdout
    assert json.loads(rows)[0]["first"] == "2026-03-01"


def test_new_with_played_on_and_location(run, status):
    out = run(["new", "scoresheet", "--players", "Ann,Bob", "--played-on", "2026-02-01T19:30",
               "--location", "The Pub"], expect=0).stdout
    assert "played on 2026-02-01T19:30 at The Pub" in " ".join(out.split())  # wrapped at 80 columns
    st = status()
    assert st["played_on"] == "2026-02-01T19:30" and st["location"] == "The Pub"
    run(["add", "Ann=4", "Bob=1"], expect=0)
    run(["finish"], expect=0)
    assert stats(run, "--since", "2026-02-01")["sessions"] == 1
    assert stats(run, "--since", "2026-02-02")["sessions"] == 0
    assert "YYYY-MM-DD" in run(["new", "scoresheet", "--players", "Ann,Bob", "--played-on", "1/2/26"], expect=1).stderr


def test_exports_and_import_carry_played(run, tmp_path):
    run(["played", "scoresheet", "--players", "Ann=7,Bob=2", "--played-on", "2026-01-10", "--location", "Home"],
        expect=0)
    csv_rows = run(["export", "--format", "csv"], expect=0).stdout.splitlines()
    assert csv_rows[1].split(",")[2:9] == ["2026-01-10", "Ann", "1", "7", "1", "1", "1"]
    assert csv_rows[1].split(",")[10:12] == ["Home", ""], "location, then no notes"  # columns 11 and 12
    play = ET.fromstring(run(["export", "--format", "bgg"], expect=0).stdout.encode()).find("play")
    assert play.get("date") == "2026-01-10" and play.get("location") == "Home" and play.get("incomplete") == "0"
    assert [p.get("win") for p in play.iter("player")] == ["1", "0"]
    path = tmp_path / "plays.json"
    run(["export", "-o", str(path)], expect=0)
    other = tmp_path / "other"
    run(["--data-dir", str(other), "import", str(path)], expect=0)
    st = json.loads(run(["--data-dir", str(other), "stats", "--json"], expect=0).stdout)
    assert st["sessions"] == 1 and st["players"][0]["name"] == "Ann" and st["players"][0]["wins"] == 1
    assert st["games"][0]["record"]["date"] == "2026-01-10"


def test_report_shows_when_where_and_abandoned(run, tmp_path):
    run(["played", "scoresheet", "--players", "Ann=7,Bob=2", "--played-on", "2026-01-10", "--location", "Home"],
        expect=0)
    sid = json.loads(run(["sessions", "--json"], expect=0).stdout)[0]["id"]
    text = run(["report", sid], expect=0).stdout
    assert "played on 2026-01-10 at Home" in text and "Won by Ann." in text
    page = tmp_path / "r.html"
    run(["report", sid, "--html", str(page)], expect=0)
    assert "played on 2026-01-10 at Home" in page.read_text(encoding="utf-8")
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    run(["abandon", "--reason", "rain"], expect=0)
    assert "Abandoned (rain): no result." in run(["report"], expect=0).stdout


def test_a_name_with_a_space_is_one_player(run):
    """`new --players "Ann,Bartholomew Jones"` takes the name whole; `played` split it at the space
    and refused "'Bartholomew' is not NAME=SCORE"."""
    run(["played", "scoresheet", "--players", "Ann=3,Bartholomew Jones=5"], expect=0)
    rows = json.loads(run(["players", "--json"], expect=0).stdout)
    assert sorted(r["name"] for r in rows) == ["Ann", "Bartholomew Jones"]
    run(["played", "scoresheet", "--players", "Ann=3 Bob=5"], expect=0)  # spaces between pairs still work
