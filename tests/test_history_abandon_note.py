"""`abandon` and `note`: events every game understands, taken back by `undo`, carried by exports."""

from __future__ import annotations

import json


def new_sheet(run, players="Ann,Bob"):
    out = run(["new", "scoresheet", "--players", players], expect=0).stdout
    return out.split()[2].rstrip(":")


def index_entry(run, sid):
    return next(e for e in json.loads(run(["sessions", "--json"], expect=0).stdout) if e["id"] == sid)


def test_abandon_ends_a_game_with_no_result_and_undo_takes_it_back(run, status, monkeypatch):
    monkeypatch.setenv("COLUMNS", "120")  # the sessions table cuts long cells to fit the screen
    sid = new_sheet(run)
    run(["add", "Ann=3", "Bob=4"], expect=0)
    out = run(["abandon", "--reason", "the train left"], expect=0).stdout
    assert "abandoned (the train left)" in out and "undo" in out
    st = status()
    assert st["abandoned"] is True and st["abandon_reason"] == "the train left"
    assert st["finished"] is False and st["winners"] == []
    assert "abandoned: the train left" in run(["sessions"], expect=0).stdout
    refused = run(["add", "Ann=1", "Bob=1"], expect=1)
    assert "abandoned" in refused.stderr and "undo" in refused.stderr
    assert status()["players"][0]["score"] == 3, "the refused round changed nothing"
    run(["undo"], expect=0)
    assert status()["abandoned"] is False
    assert "in play" in run(["sessions"], expect=0).stdout
    assert index_entry(run, sid)["summary"] is None
    run(["redo"], expect=0)
    assert "abandoned" in run(["sessions"], expect=0).stdout


def test_abandon_by_id_and_refusals(run):
    first = new_sheet(run)
    new_sheet(run, "Cy,Dee")
    run(["abandon", first], expect=0)
    assert index_entry(run, first)["summary"]["abandoned_at"]
    assert "already" in run(["abandon", first], expect=1).stderr
    second = new_sheet(run)
    run(["add", "Ann=3", "Bob=4"], expect=0)
    run(["finish"], expect=0)
    refused = run(["abandon", second], expect=1).stderr
    assert "over" in refused
    assert "does not exist" in run(["abandon", "zzzzzzzz"], expect=1).stderr or \
        "No session" in run(["abandon", "zzzzzzzz"], expect=1).stderr


def test_stats_counts_abandoned_games_neither_played_nor_in_play(run):
    done = new_sheet(run)
    run(["add", "Ann=5", "Bob=2"], expect=0)
    run(["finish"], expect=0)
    playing = new_sheet(run, "Ann,Cy")
    quit_ = new_sheet(run, "Ann,Dee")
    run(["abandon", "--reason", "rain"], expect=0)
    st = json.loads(run(["stats", "--json"], expect=0).stdout)
    assert st["sessions"] == 1
    assert [u["id"] for u in st["unfinished"]] == [playing]
    assert [(a["id"], a["reason"]) for a in st["abandoned"]] == [(quit_, "rain")]
    assert {p["name"] for p in st["players"]} == {"Ann", "Bob"}, "Dee played no finished game"
    text = run(["stats"], expect=0).stdout
    assert "1 in play, not counted; 1 abandoned, not counted" in " ".join(text.split())  # wrapped at 80
    assert "Abandoned (no result, not counted):" in text and quit_ in text
    assert done


def test_abandon_works_for_every_game_without_its_own_rules(run, status):
    run(["new", "transatlantic", "--players", "Ann,Bob,Cy"], expect=0)
    run(["abandon"], expect=0)
    assert status()["abandoned"] is True
    run(["new", "trans-europa", "--players", "Ann,Bob"], expect=0)
    run(["note", "played", "on", "the", "ferry"], expect=0)
    run(["abandon"], expect=0)
    assert status()["abandoned"] is True


def test_note_is_an_event_shown_by_log_and_report_and_undone(run):
    sid = new_sheet(run)
    out = run(["note", "Bob", "had", "to", "leave", "early"], expect=0).stdout
    assert "Bob had to leave early" in out
    log = run(["log"], expect=0).stdout
    assert "Note: Bob had to leave early" in log
    rows = json.loads(run(["log", "--json"], expect=0).stdout)
    assert rows[-1]["type"] == "note" and rows[-1]["event"]["text"] == "Bob had to leave early"
    assert "Note: Bob had to leave early" in run(["report", sid], expect=0).stdout
    run(["undo"], expect=0)
    assert "nothing recorded yet" in run(["log"], expect=0).stdout


def test_note_allowed_after_the_end_and_refusals(run):
    new_sheet(run)
    run(["add", "Ann=3", "Bob=4"], expect=0)
    run(["finish"], expect=0)
    run(["note", "a close one"], expect=0)
    assert "Note: a close one" in run(["log"], expect=0).stdout
    assert run(["note", "   "], expect=1).stderr.startswith("Error: A note needs some words")
    assert "500" in run(["note", "x" * 501], expect=1).stderr
    assert run(["note"], expect=2).exit_code == 2


def test_exports_carry_abandon_and_note(run, home, tmp_path):
    sid = new_sheet(run)
    run(["add", "Ann=3", "Bob=4"], expect=0)
    run(["note", "cold evening"], expect=0)
    run(["abandon", "--reason", "rain"], expect=0)
    doc = json.loads(run(["export"], expect=0).stdout)
    kinds = [e["event"]["type"] for e in doc["sessions"][0]["journal"] if e["kind"] == "do"]
    assert kinds == ["add", "note", "abandon"]
    csv_text = run(["export", "--format", "csv"], expect=0).stdout
    header, first = csv_text.splitlines()[:2]
    row = dict(zip(header.split(","), first.split(",")))
    assert row["abandoned"] == "1" and row["finished"] == "0" and row["notes"] == "cold evening"
    xml = run(["export", "--format", "bgg"], expect=0).stdout
    assert 'incomplete="1"' in xml and "abandoned: rain" in xml and "cold evening" in xml
    # the json export imports into another folder, abandoned
    path = tmp_path / "out.json"
    run(["export", "-o", str(path)], expect=0)
    other = tmp_path / "other"
    run(["--data-dir", str(other), "import", str(path)], expect=0)
    listed = run(["--data-dir", str(other), "sessions"], expect=0).stdout
    assert sid in listed and "abandoned: rain" in listed


def test_long_reasons_and_notes_fit_80_columns(run, monkeypatch):
    """A reason or a note is as long as people make it: every line that shows one wraps at a
    space to fit the screen, and the words are all there."""
    monkeypatch.setenv("COLUMNS", "80")
    new_sheet(run)
    reason = "the pizza arrived and everyone left the table for the rest of the evening"
    note = "Bob brought the snacks and Ann the drinks; next time we play at Cy's, with the new expansion"
    outs = [run(["note", note], expect=0).stdout, run(["abandon", "--reason", reason], expect=0).stdout,
            run(["status"], expect=0).stdout, run(["report"], expect=0).stdout, run(["log"], expect=0).stdout]
    for out in outs:
        assert max(len(line) for line in out.splitlines()) <= 80, out
    joined = " ".join(" ".join(outs).split())
    assert reason in joined and note in joined
