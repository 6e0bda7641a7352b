"""The caches in the data folder are checked, never believed (issue 22, W1, W2 and S4).

`cache/replay/ID.snapshot` keeps a long session's state so that an action need not replay
every event. Its state was believed as it was: a snapshot changed by hand (still valid JSON)
changed what `status` showed and what later actions built on, while `log` showed the truth.
Now a snapshot carries the SHA-256 of its own contents beside the SHA-256 of the journal text
it stands for; one whose contents do not match is not used, and the session is replayed from
its journal. (This catches damage and careless edits, not someone who can write the folder
and recompute the hash: SECURITY.md says so.)

`cache/games.json` remembers which `module:attribute` each game id names, so that start-up
need not scan every installed distribution. It decided which module was imported: a forged one
imported `this` and then blamed the installation. Now a cached target is used only when the
installed distribution's own entry points name it; anything else means a fresh scan.

A snapshot holds every hand of a dealt round: it leaves with its session on `delete`.
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from built_once import built_once

from companion.core import registry
from companion.core import session as sessions
from companion.core.store import Store
from storm_support import copying_replay


def long_scoresheet(home, rounds: int = sessions.SNAPSHOT_EVERY + 30) -> tuple[Store, str]:
    def build(folder) -> str:
        store = Store(folder)
        s = sessions.create(store, "scoresheet", ["Ann", "Bob"], {"lowest_wins": False, "target": None})
        for i in range(rounds):
            sessions.record(store, s.id, {"type": "add", "scores": {"Ann": 1, "Bob": i % 3}})
        return s.id

    sid = built_once(home, ("caches checked", rounds), build)
    store = Store(home)
    assert store.snapshot_path(sid).is_file()
    return store, sid


def truth(store: Store, sid: str) -> dict:
    """The state a replay from the first event gives (no snapshot, every entry parsed)."""
    meta, journal = store.read_session(sid)
    return copying_replay(sessions.Session(meta, journal))


def edit_snapshot(store: Store, sid: str, change) -> None:
    """Change the snapshot's contents as a hand edit would: parse, change, write back valid JSON."""
    path = store.snapshot_path(sid)
    snap = json.loads(path.read_text(encoding="utf-8"))
    change(snap)
    path.write_text(json.dumps(snap, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


def forge_total(snap: dict) -> None:
    snap["state"]["totals"]["Ann"] = 999999


EDITS = {
    "state": forge_total,
    "a round of the state": lambda snap: snap["state"]["rounds"][0].update(Ann=999999),
    "the context": lambda snap: snap["ctx"].update(result={"winners": ["Bob"]}),
    "the events it covers": lambda snap: snap.update(done=int(snap["done"]) - 3),
}


@pytest.mark.parametrize("what", sorted(EDITS))
def test_a_snapshot_changed_by_hand_is_not_believed(tmp_path, what):
    store, sid = long_scoresheet(tmp_path / "home")
    expected = truth(store, sid)
    edit_snapshot(store, sid, EDITS[what])
    session = sessions.load(store, sid)
    replay = session.replay()
    assert replay.state == expected, "the changed snapshot was believed"
    assert replay.count == sessions.SNAPSHOT_EVERY + 30 and not replay.finished
    # an action builds on the true state, and the snapshot written after it is true again
    sessions.record(store, sid, {"type": "add", "scores": {"Ann": 1, "Bob": 1}})
    assert sessions.load(store, sid).replay().state == truth(store, sid)


def test_status_and_later_actions_show_the_truth_after_a_forged_snapshot(run, home):
    """The report's case through the commands: `status --json` and a later `add` are those of
    a copy of the folder without its cache."""
    store, sid = long_scoresheet(home, 250)
    before = json.loads(run(["status", "--json"], expect=0).stdout)
    edit_snapshot(store, sid, forge_total)
    assert json.loads(run(["status", "--json"], expect=0).stdout) == before
    run(["add", "Ann=1", "Bob=1"], expect=0)
    status = json.loads(run(["status", "--json"], expect=0).stdout)
    ann = next(p["score"] for p in status["players"] if p["name"] == "Ann")
    assert ann == 251


def test_a_snapshot_is_still_used_when_nothing_changed(tmp_path):
    """The check costs nothing of what the snapshot saves: an untouched one is still used."""
    store, sid = long_scoresheet(tmp_path / "home")
    session = sessions.load(store, sid)
    assert isinstance(session._journal, sessions.Later), "the entries it covers are not parsed"
    assert session.replay().fresh < 40 and session.replay().state == truth(store, sid)


def test_a_snapshot_moved_to_another_session_is_not_believed(tmp_path):
    store, first = long_scoresheet(tmp_path / "home")
    _, second = long_scoresheet(tmp_path / "home", sessions.SNAPSHOT_EVERY + 40)
    store.snapshot_path(first).write_bytes(store.snapshot_path(second).read_bytes())
    assert sessions.load(store, first).replay().state == truth(store, first)


# -- S4: the snapshot leaves with its session ------------------------------------------------------


def test_delete_removes_the_snapshot_and_restore_replays_from_the_journal(run, home):
    store, sid = long_scoresheet(home)
    expected = truth(store, sid)
    run(["delete", sid, "--yes"], expect=0)
    assert not store.snapshot_path(sid).exists(), "the state (a dealt round's hands) stayed behind"
    assert not list((home / ".local" / "cache" / "replay").glob(f"{sid}*"))
    run(["restore", sid], expect=0)
    assert sessions.load(store, sid).replay().state == expected
    run(["--session", sid, "add", "Ann=1", "Bob=1"], expect=0)
    assert store.snapshot_path(sid).is_file(), "a snapshot is made again from the journal"
    assert sessions.load(store, sid).replay().state == truth(store, sid)


def test_a_snapshot_left_by_an_older_delete_is_checked_on_restore(run, home):
    """A bin filled before this change may have left its session's snapshot behind; restored
    and then changed, the session is read from its journal, whatever that snapshot says."""
    store, sid = long_scoresheet(home)
    kept = store.snapshot_path(sid).read_bytes()
    run(["delete", sid, "--yes"], expect=0)
    store.snapshot_path(sid).write_bytes(kept)  # as an older companion left it
    edit_snapshot(store, sid, forge_total)
    run(["restore", sid], expect=0)
    assert sessions.load(store, sid).replay().state == truth(store, sid)


# -- W2: the game cache names only what the installed entry points name ---------------------------


def companion(home, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """`companion ARGS` in a process of its own (forked from the helper of tests/pty_fork.py: a
    new process's caches, without starting Python again)."""
    from pty_fork import run

    return run(list(args), {**os.environ, "COMPANION_HOME": str(home), **(env or {})}, timeout=120)


def test_a_forged_game_cache_imports_nothing_it_names(home):
    """The report's case: the fingerprint kept, `scoresheet` pointed at the module `this`.
    Before, `status` printed the Zen of Python and blamed the installation."""
    assert companion(home, "new", "scoresheet", "--players", "Ann,Bob").returncode == 0
    assert companion(home, "status").returncode == 0  # (writes the cache)
    cache = home / ".local" / "cache" / "games.json"
    doc = json.loads(cache.read_text())
    assert "scoresheet" in doc["games"]
    doc["games"]["scoresheet"][0] = "this:x"
    cache.write_text(json.dumps(doc))
    result = companion(home, "status")
    assert result.returncode == 0, result.stderr
    assert "Beautiful is better than ugly" not in result.stdout + result.stderr
    assert "could not be loaded" not in result.stderr
    assert "Score sheet" in result.stdout or "Ann" in result.stdout
    assert json.loads(cache.read_text())["games"]["scoresheet"][0] != "this:x", "a fresh scan wrote it again"


@pytest.mark.parametrize("damage", ["another game's target", "a target of no distribution", "a game nobody installed",
                                    "not a list", "garbage"])
def test_a_damaged_game_cache_means_a_fresh_scan(home, damage):
    assert companion(home, "new", "scoresheet", "--players", "Ann,Bob").returncode == 0
    assert companion(home, "status").returncode == 0  # (writes the cache)
    cache = home / ".local" / "cache" / "games.json"
    doc = json.loads(cache.read_text())
    games = doc["games"]
    if damage == "another game's target":
        games["scoresheet"] = list(games["transatlantic"])
    elif damage == "a target of no distribution":
        games["scoresheet"][0] = "companion.games.scoresheet.rules:ScoreSheet2"
    elif damage == "a game nobody installed":
        games["evil"] = ["os:system", "tabletop-companion", games["scoresheet"][2], *games["scoresheet"][3:]]
    elif damage == "not a list":
        games["scoresheet"] = "this:x"
    text = "{garbage" if damage == "garbage" else json.dumps(doc)
    cache.write_text(text)
    result = companion(home, "status", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["game"] == "scoresheet"
    listed = companion(home, "games")
    assert listed.returncode == 0 and "evil" not in listed.stdout
    assert "Not loaded: scoresheet" not in listed.stdout and "scoresheet" in listed.stdout


def test_the_cache_still_spares_the_scan(home, monkeypatch):
    """A true cache is used: no entry-point scan when the cached target checks out."""
    store = Store(home)
    sessions.create(store, "scoresheet", ["Ann", "Bob"], {"lowest_wins": False, "target": None})
    cache = home / ".local" / "cache" / "games.json"
    registry.forget()
    registry.use_cache_file(cache)
    try:
        registry.get("scoresheet")  # scans, and writes the cache
        assert cache.is_file()
        registry.forget()
        monkeypatch.setattr(registry, "_scan_with_folders", lambda: pytest.fail("scanned although the cache was true"))
        assert registry.get("scoresheet").id == "scoresheet"
    finally:
        monkeypatch.undo()
        registry.forget()
        registry.use_cache_file(None)
