"""`delete` moves a session into the data folder's bin, `restore` brings it back byte for byte."""

from __future__ import annotations

import json

from companion.core.app import App
from companion.terminal.cli import run_line
from companion.core.store import Store


def new_sheet(run, players="Ann,Bob"):
    return run(["new", "scoresheet", "--players", players], expect=0).stdout.split()[2].rstrip(":")


def finished_sheet(run, players="Ann,Bob", scores=("Ann=5", "Bob=2")):
    sid = new_sheet(run, players)
    run(["add", *scores], expect=0)
    run(["finish"], expect=0)
    return sid


def test_delete_then_restore_gives_the_session_back_byte_for_byte(run, home):
    sid = finished_sheet(run)
    run(["note", "keep me"], expect=0)
    path = home / "sessions" / f"{sid}.json"
    before = path.read_bytes()
    out = run(["delete", sid, "--yes"], expect=0).stdout
    assert "bin" in out and f"restore {sid}" in out
    # since issue 30 the bin is a per-device log: the file is never moved nor rewritten
    assert path.read_bytes() == before and sid in Store(home).deleted_ids()
    assert sid not in run(["sessions"], expect=0).stdout
    assert sid in run(["sessions", "--deleted"], expect=0).stdout
    st = json.loads(run(["stats", "--json"], expect=0).stdout)
    assert st["sessions"] == 0 and st["players"] == []
    assert json.loads(run(["export"], expect=0).stdout)["sessions"] == []
    assert "does not exist" in run(["report", sid], expect=1).stderr or "No session" in run(["report", sid], expect=1).stderr
    out = run(["restore", sid[:4]], expect=0).stdout
    assert f"Restored session {sid}" in out
    assert path.read_bytes() == before
    assert sid not in Store(home).deleted_ids()
    assert json.loads(run(["stats", "--json"], expect=0).stdout)["sessions"] == 1
    assert "The bin is empty" in run(["sessions", "--deleted"], expect=0).stdout


def test_delete_needs_yes_outside_the_shell_and_changes_nothing(run, script, home):
    sid = new_sheet(run)
    refused = run(["delete", sid], expect=1).stderr
    assert "--yes" in refused
    code, out, err = script(f"delete {sid}\n")
    assert code != 0 and "--yes" in err
    assert (home / "sessions" / f"{sid}.json").exists()
    assert sid in run(["sessions"], expect=0).stdout


def test_delete_asks_in_the_shell(home):
    app = App(home)
    run_line(app, "new scoresheet --players Ann,Bob")
    sid = app.store.current()
    answers = iter(["n", "y"])
    app.ask = lambda question, default="": next(answers)
    code, _ = run_line(app, f"delete {sid}")
    assert code == 0 and sid not in Store(home).deleted_ids(), "no: nothing changed"
    code, _ = run_line(app, f"delete {sid}")
    assert code == 0 and sid in Store(home).deleted_ids()
    assert app.store.current() is None, "the deleted session is no longer current"


def test_refusals(run, home):
    assert "No session" in run(["delete", "zzzz", "--yes"], expect=1).stderr
    assert "No deleted session" in run(["restore", "zzzz"], expect=1).stderr
    sid = new_sheet(run)
    # deleted before issue 30 (moved into bin/), and a session with the same id came back
    # meanwhile (an import): the bin's copy stays
    (home / "bin").mkdir()
    (home / "bin" / f"{sid}.json").write_bytes((home / "sessions" / f"{sid}.json").read_bytes())
    assert "in the record already" in run(["restore", sid], expect=1).stderr
    assert (home / "bin" / f"{sid}.json").exists()


def test_sessions_deleted_json(run):
    sid = new_sheet(run)
    run(["delete", sid, "--yes"], expect=0)
    listed = json.loads(run(["sessions", "--deleted", "--json"], expect=0).stdout)
    assert [e["id"] for e in listed] == [sid] and listed[0]["players"] == ["Ann", "Bob"]


def test_delete_and_restore_fit_80_columns(run):
    """Screens fit 80 columns: the `delete` confirmation ran to 180 columns, cut mid-word."""
    run(["new", "scoresheet", "--players", "Ann,Bartholomew Jones,Cy,Dee"], expect=0)
    run(["add", "Ann=3"], expect=0)
    sid = json.loads(run(["status", "--json"], expect=0).stdout)["session"]
    out = run(["delete", sid, "--yes"], expect=0).stdout + run(["restore", sid], expect=0).stdout
    assert all(len(line) <= 80 for line in out.splitlines()), out
    words = " ".join(out.split())
    assert f"it is in the bin, out of stats and exports. `restore {sid}` brings it back." in words
    assert "it counts again." in words
