"""csv and BoardGameGeek play XML exports, parsed back and checked row by row."""

from __future__ import annotations

import csv
import io
import json
from xml.etree import ElementTree as ET

from companion.record.stats import local_date


def played(run, players, *rounds, finish=True, extra=()):
    sid = run(["new", "scoresheet", "--players", players, *extra], expect=0).stdout.split()[2].rstrip(":")
    for r in rounds:
        run(["add", *r.split()], expect=0)
    if finish:
        run(["finish"], expect=0)
    return sid


def history(run):
    tie = played(run, "Ann,Bob,Cy", "Ann=5 Bob=5 Cy=2")
    low = played(run, "Dee,Ann", "Dee=2 Ann=7", extra=["--lowest-wins"])
    live = played(run, "Ann,Bbo", "Ann=1 Bbo=4", finish=False)
    run(["player", "merge", "Bbo", "Bob"], expect=0)
    created = {r["id"]: r["created"] for r in json.loads(run(["sessions", "--json"], expect=0).stdout)}
    return tie, low, live, created


def test_csv_has_one_row_per_player_per_session(run, tmp_path):
    tie, low, live, created = history(run)
    out = tmp_path / "plays.csv"
    assert "Exported 3 sessions as csv" in run(["export", "--format", "csv", "-o", str(out)], expect=0).stdout
    with out.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        assert reader.fieldnames[:8] == ["session", "game", "date", "player", "seat", "score", "rank", "winner"]
        rows = list(reader)
    assert len(rows) == 3 + 2 + 2
    got = [(r["session"], r["player"], r["seat"], r["score"], r["rank"], r["winner"], r["finished"]) for r in rows]
    assert got == [
        (tie, "Ann", "1", "5", "1", "1", "1"), (tie, "Bob", "2", "5", "1", "1", "1"), (tie, "Cy", "3", "2", "3", "0", "1"),
        (low, "Dee", "1", "2", "1", "1", "1"), (low, "Ann", "2", "7", "2", "0", "1"),
        (live, "Ann", "1", "1", "", "", "0"), (live, "Bob", "2", "4", "", "", "0"),  # merged, still in play
    ]
    assert all(r["game"] == "scoresheet" for r in rows)
    assert {r["session"]: r["date"] for r in rows} == {sid: local_date(created[sid]) for sid in (tie, low, live)}


def test_csv_filters_and_stdout(run):
    tie, low, live, _ = history(run)
    text = run(["export", "--format", "csv", "--player", "dee"], expect=0).stdout
    rows = list(csv.DictReader(io.StringIO(text)))
    assert {r["session"] for r in rows} == {low}


def test_csv_quotes_names_safely(run):
    played(run, 'A"nn",Bob;B', 'A"nn"=3')
    rows = list(csv.DictReader(io.StringIO(run(["export", "--format", "csv"], expect=0).stdout)))
    assert [r["player"] for r in rows] == ['A"nn"', "Bob;B"]


def test_bgg_play_xml(run, tmp_path):
    tie, low, live, created = history(run)
    out = tmp_path / "plays.xml"
    run(["export", "--format", "bgg", "-o", str(out)], expect=0)
    root = ET.parse(out).getroot()
    assert root.tag == "plays" and root.get("total") == "3"
    plays = root.findall("play")
    assert len(plays) == 3
    by_session = {p.find("comments").text.split()[3]: p for p in plays}
    assert set(by_session) == {tie, low, live}
    for sid, play in by_session.items():
        assert set(play.attrib) == {"id", "date", "quantity", "length", "incomplete", "nowinstats", "location"}
        assert play.get("date") == local_date(created[sid])
        assert play.get("quantity") == "1" and play.get("length").isdigit()
        item = play.find("item")
        assert item.get("name") == "Score sheet" and item.get("objecttype") == "thing"
    assert by_session[live].get("incomplete") == "1" and by_session[tie].get("incomplete") == "0"
    players = {sid: [(p.get("name"), p.get("startposition"), p.get("score"), p.get("win"))
                     for p in play.find("players").findall("player")] for sid, play in by_session.items()}
    assert players[tie] == [("Ann", "1", "5", "1"), ("Bob", "2", "5", "1"), ("Cy", "3", "2", "0")]
    assert players[low] == [("Dee", "1", "2", "1"), ("Ann", "2", "7", "0")]
    assert players[live] == [("Ann", "1", "1", "0"), ("Bob", "2", "4", "0")]
    for p in root.iter("player"):
        assert {"username", "userid", "name", "startposition", "color", "score", "new", "rating", "win"} <= set(p.attrib)


def test_bgg_escapes_names(run):
    played(run, "<Ann>&Co,Bob", "<Ann>&Co=1")
    root = ET.fromstring(run(["export", "--format", "bgg"], expect=0).stdout.encode("utf-8"))
    assert [p.get("name") for p in root.iter("player")] == ["<Ann>&Co", "Bob"]


def test_an_empty_history_exports_empty_files(run):
    assert run(["export", "--format", "csv"], expect=0).stdout.splitlines() == [
        "session,game,date,player,seat,score,rank,winner,finished,abandoned,location,notes,title,bgg_id,team,role,"
        "start_player,minutes,coop"]
    root = ET.fromstring(run(["export", "--format", "bgg"], expect=0).stdout.encode("utf-8"))
    assert root.get("total") == "0" and not root.findall("play")
    assert json.loads(run(["export"], expect=0).stdout)["sessions"] == []
