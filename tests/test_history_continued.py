"""Games continued on another laptop: import appends, refuses diverged journals, --skip-conflicts
and --dry-run; the appended part is checked like a new session (rules and seed)."""

from __future__ import annotations

import json
from pathlib import Path


def folder_bytes(root: Path) -> dict:
    # .stignore is the folder's layout (written with its folders, issue 30), not its contents; the
    # laptop's device id (issue 30) is made once, and a cache is made again from the record
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()
            and not p.name.endswith(".lock") and p.name not in (".stignore", "device.json")
            and p.relative_to(root).parts[:2] != (".local", "cache")}


def at(run, folder, *args, expect=0):
    return run(["--data-dir", str(folder), *args], expect=expect)


def sheet(run, folder, players="Ann,Bob"):
    return at(run, folder, "new", "scoresheet", "--players", players).stdout.split()[2].rstrip(":")


def log_of(run, folder, sid):
    return [(r["type"], r["event"]) for r in json.loads(at(run, folder, "log", "--json", "--session", sid).stdout)]


def test_a_continued_game_round_trips_between_two_folders_in_both_directions(run, tmp_path):
    home, laptop, f = tmp_path / "home", tmp_path / "laptop", tmp_path / "x.json"
    sid = sheet(run, home)
    at(run, home, "add", "Ann=3", "Bob=1")
    at(run, home, "export", "-o", str(f))
    at(run, laptop, "import", str(f))
    # it goes on on the laptop, and comes home
    at(run, laptop, "add", "--session", sid, "Ann=2", "Bob=5")
    at(run, laptop, "note", "--session", sid, "at Bob's")
    at(run, laptop, "export", "-o", str(f), "--force")
    out = at(run, home, "import", str(f)).stdout
    assert f"continued: {sid}, 2 new events" in out
    assert log_of(run, home, sid) == log_of(run, laptop, sid)
    # and on at home, back to the laptop, where it ends
    at(run, home, "add", "--session", sid, "Ann=9", "Bob=0")
    at(run, home, "finish", "--session", sid)
    at(run, home, "export", "-o", str(f), "--force")
    assert f"continued: {sid}, 2 new events" in at(run, laptop, "import", str(f)).stdout
    assert log_of(run, home, sid) == log_of(run, laptop, sid)
    home_index = {e["id"]: e for e in json.loads(at(run, home, "sessions", "--json").stdout)}
    laptop_index = {e["id"]: e for e in json.loads(at(run, laptop, "sessions", "--json").stdout)}
    assert laptop_index[sid]["finished"] and laptop_index[sid]["summary"] == home_index[sid]["summary"]
    assert json.loads(at(run, laptop, "stats", "--json").stdout)["sessions"] == 1
    # the same session on both (issue 30: each folder's own file and its laptops' journals, merged)
    from companion.core.store import Store

    assert Store(laptop).read_session(sid) == Store(home).read_session(sid)
    # the older file again: this folder went further, and is kept
    out = at(run, laptop, "import", str(f)).stdout
    assert "already here" in out


def test_an_older_file_keeps_the_longer_copy(run, tmp_path):
    home, laptop, f = tmp_path / "home", tmp_path / "laptop", tmp_path / "x.json"
    sid = sheet(run, home)
    at(run, home, "export", "-o", str(f))
    at(run, laptop, "import", str(f))
    at(run, laptop, "add", "--session", sid, "Ann=2", "Bob=5")
    before = folder_bytes(laptop)
    assert f"kept: {sid} went further here" in at(run, laptop, "import", str(f)).stdout
    assert folder_bytes(laptop) == before


def test_diverged_journals_are_refused_without_changing_anything(run, tmp_path):
    home, laptop, f = tmp_path / "home", tmp_path / "laptop", tmp_path / "x.json"
    sid = sheet(run, home)
    other = sheet(run, home, "Cy,Dee")
    at(run, home, "add", "--session", sid, "Ann=1", "Bob=1")
    at(run, home, "export", "-o", str(f))
    at(run, laptop, "import", str(f))
    at(run, home, "add", "--session", sid, "Ann=5", "Bob=0")
    at(run, laptop, "add", "--session", sid, "Ann=0", "Bob=5")
    at(run, home, "add", "--session", other, "Cy=4", "Dee=2")  # a plain continuation beside it
    fresh = sheet(run, home, "Eve,Fay")
    at(run, home, "export", "-o", str(f), "--force")
    before = folder_bytes(laptop)
    refused = at(run, laptop, "import", str(f), expect=1).stderr
    assert f"session {sid} has diverged" in refused and "entry 2 differs" in refused
    assert "--skip-conflicts" in refused
    assert folder_bytes(laptop) == before
    # a dry run says what would happen and changes nothing
    out = at(run, laptop, "import", str(f), "--dry-run", "--skip-conflicts").stdout
    assert "Would import 1 session" in out and f"would be continued: {other}, 1 new event" in out
    assert f"would be skipped: {sid} has diverged" in out and "nothing was changed" in out
    assert folder_bytes(laptop) == before
    out = at(run, laptop, "import", str(f), "--skip-conflicts").stdout
    assert f"skipped: {sid} has diverged: entry 2 differs" in out
    assert f"continued: {other}, 1 new event" in out and "Imported 1 session" in out
    ids = {e["id"] for e in json.loads(at(run, laptop, "sessions", "--json").stdout)}
    assert fresh in ids
    assert log_of(run, laptop, sid)[-1][1]["scores"] == {"Ann": 0, "Bob": 5}, "the laptop's own game is kept"


def test_a_dry_run_of_a_clean_import_changes_nothing(run, tmp_path):
    home, laptop, f = tmp_path / "home", tmp_path / "laptop", tmp_path / "x.json"
    sheet(run, home)
    at(run, home, "export", "-o", str(f))
    at(run, laptop, "sessions")
    before = folder_bytes(laptop)
    out = at(run, laptop, "import", str(f), "--dry-run").stdout
    assert out.startswith("Would import 1 session") and "nothing was changed" in out
    assert folder_bytes(laptop) == before


def test_the_appended_part_is_held_to_the_rules_and_the_seed(run, tmp_path):
    home, laptop, f = tmp_path / "home", tmp_path / "laptop", tmp_path / "x.json"
    at(run, home, "new", "trans-europa", "--players", "Ann,Bob,Cy,Dee")
    sid = json.loads(at(run, home, "status", "--json").stdout)["session"]
    at(run, home, "export", "-o", str(f))
    at(run, laptop, "import", str(f))
    at(run, home, "round", "start")
    at(run, home, "export", "-o", str(f), "--force")
    doc = json.loads(f.read_text(encoding="utf-8"))
    # a doctored deal in the appended part: two cities swapped
    event = doc["sessions"][0]["journal"][-1]["event"]
    deal = next(v for v in _deals(event))
    deal["order"][0], deal["order"][1] = deal["order"][1], deal["order"][0]
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(doc), encoding="utf-8")
    before = folder_bytes(laptop)
    refused = at(run, laptop, "import", str(forged), expect=1).stderr
    assert f"session {sid} entry 1 holds a deal its seed does not give" in refused
    assert folder_bytes(laptop) == before
    # an appended event the rules refuse
    doc = json.loads(f.read_text(encoding="utf-8"))
    doc["sessions"][0]["journal"].append({"kind": "do", "at": "2026-01-01T00:00:00+00:00",
                                          "event": {"type": "round-start"}})
    forged.write_text(json.dumps(doc), encoding="utf-8")
    assert "cannot be replayed" in at(run, laptop, "import", str(forged), expect=1).stderr
    assert folder_bytes(laptop) == before
    assert f"continued: {sid}, 1 new event" in at(run, laptop, "import", str(f)).stdout


def _deals(node):
    if isinstance(node, dict):
        if {"context", "deck", "order"} <= set(node):
            yield node
        for v in node.values():
            yield from _deals(v)
    elif isinstance(node, list):
        for v in node:
            yield from _deals(v)


def test_a_failure_while_writing_takes_back_the_continued_and_new_sessions(run, tmp_path, monkeypatch):
    from companion.contract.errors import StoreError
    from companion.record import import_merge

    home, laptop, f = tmp_path / "home", tmp_path / "laptop", tmp_path / "x.json"
    sid = sheet(run, home)
    at(run, home, "export", "-o", str(f))
    at(run, laptop, "import", str(f))
    at(run, home, "add", "--session", sid, "Ann=2", "Bob=5")
    for players in ("Cy,Dee", "Eve,Fay", "Gus,Hal"):  # enough files for the one-sync bulk write
        sheet(run, home, players)
    at(run, home, "export", "-o", str(f), "--force")
    before = folder_bytes(laptop)

    def disk_full(store, entries, data=None):
        raise StoreError("Could not write index.json: No space left on device.")

    monkeypatch.setattr(import_merge, "_write_index", disk_full)
    err = at(run, laptop, "import", str(f), expect=1).stderr
    assert "No space left" in err and "nothing was imported" in err
    assert folder_bytes(laptop) == before
    monkeypatch.undo()
    out = at(run, laptop, "import", str(f)).stdout
    assert "Imported 3 sessions" in out and f"continued: {sid}, 1 new event" in out
