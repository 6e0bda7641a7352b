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


def test_xlsx_cells_carry_their_types_as_openpyxl_reads_them(run, tmp_path):
    """`export --format xlsx` (issue 28): the csv's rows, numbers as numbers, the date as a date,
    text as text even when it starts like a formula (no guard needed)."""
    import datetime

    openpyxl = pytest.importorskip("openpyxl")
    evening(run)
    run(["played", "Azul", "--players", "Ann=1,Bob=-2.5", "--location", "=HYPERLINK(\"http://127.0.0.1/x\",\"x\")",
         "--comment", "+1 for Bob", "--played-on", "2026-12-04"], expect=0)
    out = tmp_path / "plays.xlsx"
    said = run(["export", "--format", "xlsx", "-o", str(out)], expect=0).stdout
    assert said.strip() == f"Exported 6 sessions as xlsx to {out}."
    sheet = openpyxl.load_workbook(out).active
    rows = [[c for c in row] for row in sheet.iter_rows()]
    header = [c.value for c in rows[0]]
    plain = list(csv.DictReader(io.StringIO(run(["export", "--format", "csv"], expect=0).stdout)))
    assert header == list(plain[0]) and len(rows) - 1 == len(plain), "the csv's columns and rows"
    col = {name: header.index(name) for name in header}
    by = {(r[col["title"]].value, r[col["player"]].value): r for r in rows[1:]}
    zoe = by[("Carcassonne", "Zoë")]
    assert zoe[col["score"]].value == 47.5 and zoe[col["score"]].data_type == "n"
    assert zoe[col["date"]].is_date and zoe[col["date"]].value.date() == datetime.date(2026, 3, 1)
    assert isinstance(zoe[col["seat"]].value, int) and zoe[col["minutes"]].value == 65 and zoe[col["bgg_id"]].value == 822
    assert by[("Carcassonne", "Björn")][col["notes"]].value == "close one & <fun>"
    bob = by[("Azul", "Bob")]
    assert bob[col["score"]].value == -2.5, "a negative half point is a number"
    assert bob[col["location"]].value == "=HYPERLINK(\"http://127.0.0.1/x\",\"x\")"
    assert bob[col["location"]].data_type == "s", "a formula's text is text, never a formula"
    assert bob[col["notes"]].value == "+1 for Bob" and bob[col["notes"]].data_type == "s"
    assert by[("Score sheet", "Ann")][col["rank"]].value is None, "an empty cell for a game in play"
    run(["export", "--format", "xlsx"], expect=1)  # a file, never bytes on the terminal
    piped = subprocess.run([sys.executable, "-m", "companion", "export", "--format", "xlsx", "-o", "-"],
                           capture_output=True, check=True).stdout
    assert piped.startswith(b"PK"), "`-o -`: the workbook on standard output"


def _soffice(tmp_path, *args, env=None):
    import os

    subprocess.run(["soffice", f"-env:UserInstallation=file://{tmp_path / 'lo-profile'}", "--headless", *args],
                   check=True, capture_output=True, timeout=180, env={**os.environ, **(env or {})})


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_in_german_opens_the_xlsx_and_the_german_excel_csv_as_numbers(run, tmp_path):
    """A German LibreOffice (issue 28): the xlsx opens with its numbers as numbers, shown 47,5,
    and a formula's text as text; the `--excel` csv written in German (`;`, 47,5) is read with the
    German import settings as numbers, where the English one's 47.5 would be text."""
    openpyxl = pytest.importorskip("openpyxl")
    run(["played", "Azul", "--players", "Björn=52,Zoë=47.5,Li=-3.5", "--played-on", "2026-03-01",
         "--location", "=HYPERLINK(\"http://127.0.0.1/x\",\"x\")"], expect=0)
    german = {"LC_ALL": "de_DE.UTF-8", "LANG": "de_DE.UTF-8", "LANGUAGE": "de"}
    book = tmp_path / "plays.xlsx"
    run(["export", "--format", "xlsx", "-o", str(book)], expect=0)
    (tmp_path / "shown").mkdir()
    _soffice(tmp_path, "--convert-to", "csv", "--outdir", str(tmp_path / "shown"), str(book), env=german)
    shown = list(csv.reader(io.StringIO((tmp_path / "shown" / "plays.csv").read_text(encoding="latin-1"))))
    header = shown[0]
    scores = {row[header.index("seat")]: row[header.index("score")] for row in shown[1:]}
    assert scores == {"1": "52", "2": "47,5", "3": "-3,5"}, "numbers, shown as a German spreadsheet shows them"
    assert {row[header.index("date")] for row in shown[1:]} == {"2026-03-01"}
    assert {row[header.index("location")] for row in shown[1:]} == {"=HYPERLINK(\"http://127.0.0.1/x\",\"x\")"}
    src = tmp_path / "deutsch.csv"
    from companion.contract import language

    before = language._process, language.resolver
    try:
        run(["--lang", "de", "export", "--format", "csv", "--excel", "-o", str(src)], expect=0)
    finally:  # `--lang de` chose this process's language: the next test speaks English again
        language._process, language.resolver = before

    # LibreOffice's text import as a German user has it: `;`, double quotes, UTF-8, German (1031)
    _soffice(tmp_path, "--infilter=CSV:59,34,76,1,,1031", "--convert-to", "xlsx", "--outdir", str(tmp_path),
             str(src), env=german)
    sheet = openpyxl.load_workbook(tmp_path / "deutsch.xlsx").active
    values = [[c.value for c in row] for row in sheet.iter_rows()]
    col = {name: values[0].index(name) for name in values[0]}
    assert sorted(row[col["score"]] for row in values[1:]) == [-3.5, 47.5, 52], "every score a number"
    assert {row[col["player"]] for row in values[1:]} == {"Björn", "Zoë", "Li"}
