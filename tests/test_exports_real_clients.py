"""The exports as the tools people use read them (issue 23): bgg-api's plays loader reads back
every field of the BoardGameGeek export, ids included; LibreOffice converts the `--excel` CSV
and openpyxl reads the sheet; `-` is standard output for `-o` and standard input for `import`;
the play's facts (length, place, start player, colour or role, comment) are in every export."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
import sys
from xml.etree import ElementTree as ET

import pytest


def evening(run):
    """Plays of every kind, with their facts."""
    run(["played", "Carcassonne", "--players", "Björn=52,Zoë=47.5", "--bgg-id", "822", "--length", "1h05m",
         "--location", "Cy's kitchen", "--start", "Zoë", "--roles", "Björn=red,Zoë=blue",
         "--comment", "close one & <fun>", "--played-on", "2026-03-01"], expect=0)
    run(["played", "atlantic-star", "--players", "Ann=30,Bob=25", "--played-on", "2026-03-02"], expect=0)
    run(["played", "Pandemic", "--coop", "--players", "Ann,Bob", "--won", "--played-on", "2026-03-03"], expect=0)
    run(["new", "scoresheet", "--title", "Codenames", "--teams", "Ann+Bob,Cy+Dee", "--roles", "Cy=spymaster"],
        expect=0)
    run(["add", "Ann=1", "Bob=0", "Cy=0", "Dee=0"], expect=0)
    run(["finish"], expect=0)
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)  # in play
    run(["add", "Ann=2"], expect=0)


def test_bgg_api_reads_back_every_field_with_unique_stable_ids(run):
    pytest.importorskip("boardgamegeek")
    from boardgamegeek.loaders.plays import add_plays_from_xml, create_plays_from_xml

    evening(run)
    text = run(["export", "--format", "bgg"], expect=0).stdout
    root = ET.fromstring(text.encode("utf-8"))
    plays = create_plays_from_xml(root)
    assert add_plays_from_xml(plays, root)
    got = {p.game_name: p for p in plays.plays}
    sessions = {r["title"]: r for r in json.loads(run(["sessions", "--json"], expect=0).stdout)}
    ids = [p.id for p in plays.plays]
    assert len(ids) == len(set(ids)) == 5 and 0 not in ids, "every play its own id"
    assert text == run(["export", "--format", "bgg"], expect=0).stdout, "the same ids at every export"
    carc = got["Carcassonne"]
    assert carc.id == int(sessions["Carcassonne"]["id"], 36)
    assert carc.game_id == 822 and got["Atlantic Star"].game_id == 2570
    assert got["Pandemic"].game_id == 0, "a game without a known id is 0"
    assert carc.date.date().isoformat() == "2026-03-01" and carc.duration == 65 and carc.quantity == 1
    assert carc.incomplete == 0 and carc.nowinstats == 0
    assert "close one & <fun>" in carc.comment and sessions["Carcassonne"]["id"] in carc.comment
    players = {p.name: p for p in carc.players}
    assert players["Zoë"].startposition == "1" and players["Björn"].startposition == "2", "Zoë started"
    assert (players["Björn"].score, players["Björn"].win, players["Björn"].color) == ("52", "1", "red")
    assert (players["Zoë"].score, players["Zoë"].win, players["Zoë"].color) == ("47.5", "0", "blue")
    assert root.find("play/item").get("name") == "Carcassonne" and root.find("play").get("location") == "Cy's kitchen"
    assert [p.win for p in got["Pandemic"].players] == ["1", "1"] and "won together" in got["Pandemic"].comment
    code = got["Codenames"]
    assert "teams: Ann+Bob, Cy+Dee" in code.comment
    assert {p.name: (p.win, p.color) for p in code.players}["Cy"] == ("0", "spymaster")
    assert got["Score sheet"].incomplete == 1


def test_csv_carries_the_facts_and_excel_writes_bom_and_crlf(run, tmp_path):
    evening(run)
    plain = run(["export", "--format", "csv"], expect=0).stdout
    rows = list(csv.DictReader(io.StringIO(plain)))
    bjorn = next(r for r in rows if r["player"] == "Björn")
    assert (bjorn["title"], bjorn["bgg_id"], bjorn["role"], bjorn["start_player"], bjorn["minutes"]) == \
        ("Carcassonne", "822", "red", "0", "65")
    assert bjorn["location"] == "Cy's kitchen" and bjorn["notes"] == "close one & <fun>"
    assert next(r for r in rows if r["player"] == "Zoë")["start_player"] == "1"
    assert {r["team"] for r in rows if r["title"] == "Codenames"} == {"Ann+Bob", "Cy+Dee"}
    assert {r["coop"] for r in rows if r["title"] == "Pandemic"} == {"1"}
    out = tmp_path / "plays.csv"
    run(["export", "--format", "csv", "--excel", "-o", str(out)], expect=0)
    raw = out.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbfsession,game,") and raw.count(b"\r\n") == len(rows) + 1
    assert b"\n" not in raw.replace(b"\r\n", b"")
    assert raw[3:].decode("utf-8").replace("\r\n", "\n") == plain
    # standard output gives the same bytes
    piped = subprocess.run([sys.executable, "-m", "companion", "export", "--format", "csv", "--excel", "-o", "-"],
                           capture_output=True, check=True).stdout
    assert piped == raw
    run(["export", "--format", "json", "--excel"], expect=1)


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_converts_the_excel_csv_and_openpyxl_reads_it(run, tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    run(["played", "Azul", "--players", "Björn=52,Zoë=47.5,李雷=-3"], expect=0)
    run(["played", "Azul", "--players", "Ann=1,Bob=2", "--location", "=HYPERLINK(\"http://127.0.0.1/x\",\"x\")",
         "--comment", "+1 for Bob"], expect=0)
    src = tmp_path / "plays.csv"
    run(["export", "--format", "csv", "--excel", "-o", str(src)], expect=0)
    # LibreOffice's CSV filter as its import dialog uses it (comma, double quotes, the character
    # set left to it: the byte order mark says UTF-8)
    subprocess.run(["soffice", f"-env:UserInstallation=file://{tmp_path / 'lo-profile'}", "--headless",
                    "--infilter=CSV:44,34", "--convert-to", "xlsx", "--outdir", str(tmp_path), str(src)],
                   check=True, capture_output=True, timeout=180)
    sheet = openpyxl.load_workbook(tmp_path / "plays.xlsx").active
    values = [[c.value for c in row] for row in sheet.iter_rows()]
    header = values[0]
    assert header[0] == "session", "the byte order mark is not in the first cell"
    col = {name: header.index(name) for name in header}
    by_player = {row[col["player"]]: row for row in values[1:]}
    assert set(by_player) == {"Björn", "Zoë", "李雷", "Ann", "Bob"}, "every name intact"
    assert by_player["Zoë"][col["score"]] == 47.5 and by_player["李雷"][col["score"]] == -3
    assert by_player["Björn"][col["rank"]] == 1 and by_player["Björn"][col["winner"]] == 1
    guarded = by_player["Ann"][col["location"]]
    assert isinstance(guarded, str) and guarded.startswith("'="), "a formula stays text, its guard visible"
    assert by_player["Ann"][col["notes"]] == "'+1 for Bob"


def test_dash_is_standard_output_for_o_and_standard_input_for_import(run, home, tmp_path):
    evening(run)
    result = run(["export", "-o", "-"], expect=0)
    assert result.stdout.startswith("{") and not (tmp_path / "-").exists()
    doc = json.loads(result.stdout)
    assert doc["format"] == "tabletop-companion" and len(doc["sessions"]) == 5
    other = tmp_path / "other"
    piped = subprocess.run([sys.executable, "-m", "companion", "--data-dir", str(other), "import", "-"],
                           input=result.stdout.encode("utf-8"), capture_output=True, check=True)
    assert b"Imported 5 sessions from standard input" in piped.stdout
    again = subprocess.run([sys.executable, "-m", "companion", "--data-dir", str(other), "export", "-o", "-"],
                           capture_output=True, check=True).stdout
    mine, theirs = json.loads(again), doc
    assert [s["meta"] for s in mine["sessions"]] == [s["meta"] for s in theirs["sessions"]]
    bad = subprocess.run([sys.executable, "-m", "companion", "--data-dir", str(other), "import", "-"],
                         input=b"not json", capture_output=True)
    assert bad.returncode == 1 and b"standard input: it is not valid JSON" in bad.stderr


def test_the_json_export_streams_one_session_a_line_and_imports_whole(run, tmp_path):
    evening(run)
    out = tmp_path / "all.json"
    run(["export", "-o", str(out)], expect=0)
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "{" and lines[-1] == "}" and sum(1 for l in lines if l.startswith('  {"meta":')) == 5
    target = tmp_path / "copy"
    done = subprocess.run([sys.executable, "-m", "companion", "--data-dir", str(target), "import", str(out)],
                          capture_output=True, check=True, text=True)
    assert "Imported 5 sessions" in done.stdout
