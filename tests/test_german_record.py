"""The record in German (issue 28): `stats`, `players`, `stats --ratings`, `report` and their
pages (`report --html`, `stats --html`) speak the viewer's language, with German numbers (68,5),
dates (4. Dezember 2026) and plurals (1 Partie, 2 Partien); the core's and the contract's
refusals too; and the pseudo-language run of all of them shows no English that bypassed the
catalogue. In-process (Click's runner), so the whole file runs in seconds."""

from __future__ import annotations

import re

import pytest

from companion.contract import language
from pseudo_support import leaks

NAMES = ["Ann", "Bob", "Zoë", "Azul", "Carcassonne", "Cy's", "kitchen"]



def evening(run):
    """Two plays of Azul (Ann 68 and 69: her average is 68,5) and one of Carcassonne."""
    run(["played", "Azul", "--players", "Ann=68,Bob=47.5", "--played-on", "2026-12-04"], expect=0)
    run(["played", "Azul", "--players", "Ann=69,Bob=70", "--played-on", "2026-12-05"], expect=0)
    run(["played", "Carcassonne", "--players", "Ann=52,Zoë=47.5", "--played-on", "2026-03-01",
         "--location", "Cy's kitchen"], expect=0)


def ids(run) -> list[str]:
    """The sessions' ids, the first Azul play (Ann 68, Bob 47.5, on 4 December 2026) first."""
    import json

    found = json.loads(run(["sessions", "--json"], expect=0).stdout)
    return sorted((s["id"] for s in found), key=lambda sid: sid != first_azul(found))


def first_azul(found: list[dict]) -> str:
    return next(s["id"] for s in found if (s.get("played_on") or "").startswith("2026-12-04"))


def de(run, *args, expect=0):
    return run(["--lang", "de", *args], expect=expect)


def test_stats_in_german_with_plurals_decimal_commas_and_german_dates(run):
    evening(run)
    text = de(run, "stats").stdout
    assert "Statistik: 3 beendete Partien." in text
    assert "Siegquote" in text and "Serie jetzt" in text and "Pro Spiel:" in text
    assert re.search(r"Ann\s+Azul\s+2\s+1\s+68,5\s+69", text), "Ann's average at Azul is 68,5"
    assert "Direkter Vergleich" in text and "Siege-Niederlagen-Unentschieden" in text
    assert "52 von Ann (1. März 2026," in text, "a record with its German date"
    one = de(run, "stats", "--game", "Carcassonne").stdout
    assert "Statistik: 1 beendete Partie (Spiel Carcassonne)." in one
    since = de(run, "stats", "--since", "2026-12-05").stdout
    assert "(seit 5. Dezember 2026)" in since
    english = run(["stats"], expect=0).stdout
    assert "Statistics: 3 finished sessions." in english and "68.5" in english


def test_players_and_their_renames_in_german(run):
    evening(run)
    text = de(run, "players").stdout
    assert "zuerst gespielt" in text and "zuletzt gespielt" in text
    assert "1. März 2026" in text and "5. Dezember 2026" in text
    said = de(run, "player", "rename", "Zoë", "Zoe").stdout
    assert said.strip() == "Zoë wird jetzt in 1 Partie als Zoe gezeigt; die gespeicherten Ereignisse bleiben unverändert."
    said = de(run, "player", "rename", "Bob", "Robert").stdout
    assert "in 2 Partien als Robert" in said
    refused = de(run, "player", "merge", "Ann", "Robert", expect=1)
    assert "Ann und Robert haben beide in Partie" in refused.stderr
    assert re.search(r"\(scoresheet, \d{1,2}\. [A-ZÄÖÜ][a-zä]+ \d{4}\)", refused.stderr), "the day it was typed in"

    assert "also wurde nichts zusammengelegt" in refused.stderr
    refused = de(run, "player", "rename", "Nobody", "X", expect=1)
    assert "Es gibt keinen Spieler namens 'Nobody': die Spieler sind Ann, Robert, Zoe." in refused.stderr


def test_ratings_in_german_with_one_decimal_comma(run):
    pytest.importorskip("openskill")
    evening(run)
    text = de(run, "stats", "--ratings").stdout
    assert text.startswith("Wertungszahlen (openskill): Wertung = Können − 3 × Unsicherheit")
    assert "25 ± 8,3 (Wertung 0)" in text and "Alle Spiele:" in text
    assert re.search(r"\d+,\d ± \d+,\d", text), "skill ± uncertainty with decimal commas"
    assert not re.search(r"\d+\.\d ± ", text)


def test_report_and_its_page_in_german(run):
    evening(run)
    first = ids(run)[0]
    text = de(run, "report", first).stdout
    assert f"Partie {first} · Azul · gespielt am 4. Dezember 2026" in text
    assert "Sieg für Ann." in text and "Rang" in text and "47,5" in text
    assert "Gespielt: Ann 68, Bob 47,5; gewonnen von Ann" in text, "the log's words in German"
    page = de(run, "report", first, "--html", "-").stdout
    assert '<html lang="de">' in page
    assert "<h2>Endstand</h2>" in page and "Sieg für Ann." in page and "<td class=\"n\">47,5</td>" in page
    assert "Erstellt mit Tabletop Companion." in page
    english = run(["report", first, "--html", "-"], expect=0).stdout
    assert '<html lang="en">' in english and "<h2>Final scores</h2>" in english and ">47.5<" in english


def test_stats_page_in_german(run):
    evening(run)
    page = de(run, "stats", "--html", "-").stdout
    assert '<html lang="de">' in page and "<title>Statistik · Tabletop Companion</title>" in page
    assert "3 beendete Partien (alle Partien); 0 laufen noch, nicht gezählt." in page
    assert "<h2>Siegquoten</h2>" in page and ">68,5<" in page
    assert "52 von Ann (1. März 2026," in page


def test_exports_and_imports_say_so_in_german(run, tmp_path):
    evening(run)
    said = de(run, "export", "-o", str(tmp_path / "all.json")).stdout
    assert said.strip() == f"3 Partien als json nach {tmp_path / 'all.json'} exportiert."
    one = ids(run)[0]
    said = de(run, "export", one, "--format", "csv", "-o", str(tmp_path / "one.csv")).stdout
    assert said.strip() == f"1 Partie als csv nach {tmp_path / 'one.csv'} exportiert."
    refused = de(run, "export", "--format", "xlsx", expect=1)
    assert "--format xlsx schreibt eine Datei: füge -o FILE an" in refused.stderr
    said = de(run, "import", str(tmp_path / "all.json"), "--dry-run").stdout
    assert said.splitlines()[0] == "Würde 0 Partien aus all.json importieren (3 waren schon hier)."
    assert said.splitlines()[-1] == "Probelauf: nichts wurde geändert."
    (tmp_path / "bad.json").write_text("[1, 2]", encoding="utf-8")
    refused = de(run, "import", str(tmp_path / "bad.json"), expect=1)
    assert "bad.json: das ist kein Export des Companion" in refused.stderr
    assert "nichts wurde importiert." in refused.stderr


def test_the_excel_csv_in_german_has_semicolons_and_decimal_commas(run, tmp_path):
    evening(run)
    out = tmp_path / "plays.csv"
    result = de(run, "export", "--format", "csv", "--excel", "-o", str(out))
    assert "Dezimalkomma (47,5)" in result.stderr and "`--lang en`" in result.stderr
    lines = out.read_bytes().decode("utf-8-sig").split("\r\n")
    assert lines[0].startswith("session;game;date;player;seat;score;")
    assert any(";Bob;2;47,5;" in line for line in lines)
    english = run(["export", "--format", "csv", "--excel", "-o", str(tmp_path / "en.csv")], expect=0)
    assert not english.stderr
    assert ",Bob,2,47.5," in (tmp_path / "en.csv").read_text(encoding="utf-8-sig")


def test_the_cores_and_the_contracts_refusals_in_german(run):
    refused = de(run, "use", "zzzz", expect=1)
    assert "Keine Partie beginnt mit 'zzzz': `sessions` listet sie auf." in refused.stderr
    refused = de(run, "status", expect=1)
    assert "Keine aktuelle Partie: starte eine mit `new GAME --players Ann,Bob`" in refused.stderr
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    refused = de(run, "undo", expect=1)
    assert "Nichts rückgängig zu machen: die Partie steht am Anfang." in refused.stderr
    refused = de(run, "add", "Ann=drei", expect=2)
    assert "'Ann=drei': 'drei' ist keine Zahl; schreib es so: Ann=2,5" in refused.stderr
    run(["add", "Ann=3", "Bob=2"], expect=0)
    run(["finish"], expect=0)
    refused = de(run, "add", "Ann=1", expect=1)
    assert "Die Partie ist vorbei: nur noch `undo` kann etwas ändern." in refused.stderr
    refused = de(run, "new", "scoresheet", "--players", "Ann,Ann", expect=1)
    assert "Der Name 'Ann' steht zweimal da: jeder Spieler braucht einen eigenen Namen." in refused.stderr \
        or "Der Name Ann steht zweimal da" in refused.stderr


# -- the pseudo-language: no English bypasses the catalogue ----------------------------------------


def visible(html: str) -> str:
    """What a page shows: its text without the style, the tags and their attributes."""
    html = re.sub(r"<style>.*?</style>", " ", html, flags=re.S)
    html = re.sub(r"<[^>]+>", " ", html)
    return html.replace("&#x27;", "'").replace("&amp;", "&")


def test_the_pseudo_language_shows_no_english_in_the_record(run, tmp_path):
    evening(run)
    sessions = ids(run)
    allowed = NAMES + sessions + [str(tmp_path), "Nobody", "all.json"]
    shown = {}
    with language.using("xx"):
        shown["stats"] = run(["stats"], expect=0).stdout
        shown["one game"] = run(["stats", "--game", "Azul", "--since", "2026-01-01"], expect=0).stdout
        shown["players"] = run(["players"], expect=0).stdout
        shown["rename"] = run(["player", "rename", "Zoë", "Zoë"], expect=1).stderr
        shown["unknown player"] = run(["stats", "--player", "Nobody"], expect=1).stderr
        shown["ratings"] = run(["stats", "--ratings"], expect=0).stdout
        shown["report"] = run(["report", sessions[0]], expect=0).stdout  # its log: the framework's words
        shown["stats page"] = visible(run(["stats", "--html", "-"], expect=0).stdout)
        shown["report page"] = visible(run(["report", sessions[0], "--html", "-"], expect=0).stdout)
        shown["export"] = run(["export", "-o", str(tmp_path / "all.json")], expect=0).stdout
        shown["excel"] = run(["export", "--format", "csv", "--excel", "-o", str(tmp_path / "x.csv")], expect=0).output
        shown["xlsx"] = run(["export", "--format", "xlsx"], expect=1).stderr
        shown["import"] = run(["import", str(tmp_path / "all.json"), "--dry-run"], expect=0).stdout
        shown["no session"] = run(["use", "zzzz"], expect=1).stderr
        shown["bin"] = run(["restore", "zzzz"], expect=1).stderr
    for what, text in shown.items():
        assert text.strip(), what
        assert leaks(text, allowed=allowed) == [], (what, text)


def test_the_pseudo_language_shows_no_english_in_the_cores_and_the_contracts_refusals(run):
    shown = {}
    with language.using("xx"):
        shown["no session"] = run(["status"], expect=1).stderr
        shown["no such session"] = run(["use", "zzzz"], expect=1).stderr
        shown["twice"] = run(["new", "scoresheet", "--players", "Ann,Ann"], expect=1).stderr
        run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
        shown["nothing to undo"] = run(["undo"], expect=1).stderr
        # (the terminal's hint after it, "(`... --help` shows how ...)", is the terminal's message)
        shown["not a number"] = run(["add", "Ann=drei"], expect=2).stderr.splitlines()[-1].split(" (`")[0]

        run(["add", "Ann=3", "Bob=2"], expect=0)
        run(["finish"], expect=0)
        shown["over"] = run(["add", "Ann=1"], expect=1).stderr
    for what, text in shown.items():
        assert text.strip(), what
        assert leaks(text, allowed=["Ann", "Bob", "drei", "zzzz"]) == [], (what, text)



def test_the_contracts_shared_refusals_in_german(run):
    from companion.contract.errors import MissingValue

    with language.using("de"):
        said = MissingValue("trans-europa", "scoring.rounds", "the rounds' points", example="[1, 2]").message
    assert said.startswith("Der gedruckte Wert scoring.rounds (the rounds' points) ist noch unbekannt:")
    assert "`companion data set trans-europa scoring.rounds '[1, 2]'`" in said
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    run(["abandon"], expect=0)
    refused = de(run, "add", "Ann=1", expect=1)
    assert "Dieses Spiel wurde abgebrochen: `undo` nimmt das zurück" in refused.stderr
    refused = de(run, "abandon", expect=1)
    assert "Diese Partie wurde schon abgebrochen" in refused.stderr


def test_the_score_sheets_own_name_is_german_on_every_screen_and_english_in_json(run):
    """A score sheet without a title of its own is "Punkteblock" on the German screens (the
    sessions, the statistics, a report and its page); a title a group gave stays its own, and
    `--json` keeps the game's English name (a program reads it)."""
    import json

    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    run(["add", "Ann=3", "Bob=4"], expect=0)
    run(["finish"], expect=0)
    run(["played", "Azul", "--players", "Ann=68,Bob=47.5"], expect=0)
    sid = next(s["id"] for s in json.loads(run(["sessions", "--json"], expect=0).stdout)
               if s["title"] == "Score sheet")
    screens = {"sessions": de(run, "sessions").stdout, "stats": de(run, "stats").stdout,
               "report": de(run, "report", sid).stdout, "page": de(run, "report", sid, "--html", "-").stdout,
               "stats page": de(run, "stats", "--html", "-").stdout}
    for name, text in screens.items():
        assert "Punkteblock" in text and "Score sheet" not in text.split("https://app.bgstatsapp")[0], name
    assert "Azul" in screens["sessions"] and "Azul" in screens["stats"]
    assert "Score sheet" in run(["sessions"], expect=0).stdout  # English where the viewer reads English
    assert {s["title"] for s in json.loads(de(run, "sessions", "--json").stdout)} == {"Score sheet", "Azul"}
