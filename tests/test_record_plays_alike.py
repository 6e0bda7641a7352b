"""Every surface tells a play the same way (issue 29): BoardGameGeek's `new` flag from the
history, a co-operative score sheet sent as a co-operative `played` game is, no empty chart
for a logged play, and a back-dated play's own date and time in the log, the report and the
exports."""

from __future__ import annotations

import csv
import io
import json
import re
import xml.etree.ElementTree as ET


def bgg_players(run) -> dict[tuple[str, str], dict]:
    """(session id, player) -> the <player> attributes of `export --format bgg`."""
    root = ET.fromstring(run(["export", "--format", "bgg"], expect=0).stdout)
    out = {}
    for play in root.iter("play"):
        sid = play.find("comments").text.split()[3]
        for p in play.iter("player"):
            out[(sid, p.get("name"))] = p.attrib
    return out


def logged(run, *args) -> str:
    return json.loads(run(["played", *args, "--json"], expect=0).stdout)["session"]


def test_bgg_new_is_each_players_first_play_of_the_game(run):
    first = logged(run, "Carcassonne", "--players", "Ann=52,Björn=47", "--played-on", "2026-10-01")
    again = logged(run, "Carcassonne", "--players", "Ann=40,Björn=45,Cy=30", "--played-on", "2026-10-08")
    run(["player", "rename", "Björn", "Bjørn"], expect=0)
    third = logged(run, "carcassonne", "--players", "Bjørn=50,Cy=41,Dee=20", "--played-on", "2026-10-15")
    # typed in last, played first: Dee's first Carcassonne is this one, not the one above
    earlier = logged(run, "Carcassonne", "--players", "Dee=10,Ann=12", "--played-on", "2026-09-01")
    azul = logged(run, "Azul", "--players", "Ann=60,Bjørn=55", "--played-on", "2026-10-15")
    new = {key: p["new"] for key, p in bgg_players(run).items()}
    assert new == {
        (earlier, "Dee"): "1", (earlier, "Ann"): "1",
        (first, "Ann"): "0", (first, "Bjørn"): "1",
        (again, "Ann"): "0", (again, "Bjørn"): "0", (again, "Cy"): "1",
        (third, "Bjørn"): "0", (third, "Cy"): "0", (third, "Dee"): "0",
        (azul, "Ann"): "1", (azul, "Bjørn"): "1",
    }
    # an export of one player's plays still says new from the whole history
    root = ET.fromstring(run(["export", "--format", "bgg", "--player", "Cy"], expect=0).stdout)
    assert sorted(p.get("new") for p in root.iter("player") if p.get("name") == "Cy") == ["0", "1"]


def test_a_coop_score_sheet_goes_out_as_a_logged_coop_play(run):
    run(["new", "scoresheet", "--players", "Ann,Bob", "--coop", "--title", "Hanabi"], expect=0)
    sheet = json.loads(run(["status", "--json"], expect=0).stdout)["session"]
    run(["finish", "--won"], expect=0)
    played = logged(run, "Hanabi", "--players", "Ann,Bob", "--coop", "--won")
    players = bgg_players(run)
    for sid in (sheet, played):
        assert [players[(sid, n)]["score"] for n in ("Ann", "Bob")] == ["", ""]
        assert [players[(sid, n)]["win"] for n in ("Ann", "Bob")] == ["1", "1"]
    rows = list(csv.DictReader(io.StringIO(run(["export", "--format", "csv"], expect=0).stdout)))
    assert {r["session"]: r["score"] for r in rows} == {sheet: "", played: ""}
    for sid in (sheet, played):
        bgstats = json.loads(run(["export", sid, "--format", "bgstats"], expect=0).stdout)
        assert bgstats["game"]["noPoints"] is True and all("score" not in p for p in bgstats["players"])
    # a co-operative sheet that did enter points keeps them
    run(["new", "scoresheet", "--players", "Ann,Bob", "--coop", "--title", "Hanabi"], expect=0)
    scored = json.loads(run(["status", "--json"], expect=0).stdout)["session"]
    run(["add", "Ann=12", "Bob=13"], expect=0)
    run(["finish", "--won"], expect=0)
    players = bgg_players(run)
    assert [players[(scored, n)]["score"] for n in ("Ann", "Bob")] == ["12", "13"]


def test_report_of_a_logged_play_draws_no_empty_chart(run, tmp_path):
    sid = logged(run, "Carcassonne", "--players", "Ann=52,Bob=47")
    text = run(["report", sid], expect=0).stdout
    assert "▁ = " not in text and "by event" not in text and "▄" not in text
    assert re.search(r"Ann\s+52\s+1\s+winner", text)
    page = tmp_path / "r.html"
    run(["report", sid, "--html", str(page)], expect=0)
    html = page.read_text(encoding="utf-8")
    assert "Score by" not in html and "Ann" in html
    # a game played live keeps its chart
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    run(["add", "Ann=3", "Bob=1"], expect=0)
    assert "by round" in run(["report"], expect=0).stdout or "by event" in run(["report"], expect=0).stdout


def test_a_back_dated_play_keeps_its_own_date_and_time_everywhere(run):
    sid = logged(run, "Carcassonne", "--players", "Ann=52,Bob=47", "--played-on", "2026-11-20T19:30")
    log = run(["log", "--session", sid], expect=0).stdout
    assert re.match(r"\s+1\. 19:30  Played: Ann 52, Bob 47", log), log
    report = run(["report", sid], expect=0).stdout
    assert "played on 2026-11-20 19:30" in report and "started" not in report
    assert re.search(r"1\. 19:30  Played", report)
    bgstats = json.loads(run(["export", sid, "--format", "bgstats"], expect=0).stdout)
    assert bgstats["playDate"] == "2026-11-20 19:30:00"
    rows = list(csv.DictReader(io.StringIO(run(["export", "--format", "csv"], expect=0).stdout)))
    assert {r["date"] for r in rows} == {"2026-11-20"}
    play = ET.fromstring(run(["export", "--format", "bgg"], expect=0).stdout).find("play")
    assert play.get("date") == "2026-11-20"
    players = json.loads(run(["players", "--json"], expect=0).stdout)
    assert {(p["first"], p["last"]) for p in players} == {("2026-11-20", "2026-11-20")}
    # a day alone: no time of day is made up (the one it was typed in least of all)
    day = logged(run, "Azul", "--players", "Ann=60,Bob=55", "--played-on", "2026-11-21")
    log = run(["log", "--session", day], expect=0).stdout
    assert re.match(r"\s+1\.\s+Played: Ann 60, Bob 55", log), log
    report = run(["report", day], expect=0).stdout
    assert "played on 2026-11-21" in report and re.search(r"1\.\s+Played", report)
