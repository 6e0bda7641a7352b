"""Killing a writing process at any instant loses at most the action being written."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time

from long_mode import report_kills, scaled
from warm_support import warm  # noqa: F401 (a fixture: writers forked from a process that imported the companion)

from companion.core import session as sessions
from companion.core.store import Store, read_json_file

KILLS = scaled(10, 200)

WRITER = r"""
import sys
from companion.core import session as sessions
from companion.core.store import Store
store = Store(sys.argv[1])
sid = sys.argv[2]
n = int(sys.argv[3])
steps = sys.argv[4:] != ["no-undo"]
while True:
    sessions.record(store, sid, {"type": "add", "scores": {"Ann": n}})
    print(n, flush=True)   # reported saved only after the write returned
    n += 1
    if steps and n % 7 == 0:
        sessions.step(store, sid, "undo")
        sessions.step(store, sid, "redo")
"""


def write_then_kill(warm, store: Store, sid: str, n: int, pause: float, *flags: str) -> list[int]:
    """Run WRITER from action ``n`` (a process forked by ``warm``), wait for its first save, kill
    it ``pause`` seconds later (at a random instant among the following writes) and return the
    actions it reported saved."""
    proc = warm.start(WRITER, store.root, sid, n, *flags)
    first = proc.stdout.readline()
    time.sleep(pause)
    proc.send_signal(signal.SIGKILL)
    out, _ = proc.communicate()
    return [int(x) for x in (first + out).split()]


def every_file_loads(root) -> None:
    kinds = {"index.json": "index", "settings.json": "settings", "userdata.json": "userdata"}
    for path in root.rglob("*.json"):
        read_json_file(path, kinds.get(path.name, "session"))


def test_kills_lose_nothing_reported_saved(tmp_path, warm):
    store = Store(tmp_path / "home")
    s = sessions.create(store, "scoresheet", ["Ann", "Bob"], {"lowest_wins": False, "target": None})
    rng = random.Random(20261130)
    saved: list[int] = []
    n = 1
    for kill in range(KILLS):
        saved += write_then_kill(warm, store, s.id, n, rng.uniform(0, 0.08))
        every_file_loads(store.root)
        session = sessions.load(store, s.id)
        session.replay()  # the state still replays
        # every action reported saved is in the journal (an undo killed before its redo only
        # hides it from the effective log; nothing recorded is ever lost)
        recorded = [e["event"]["scores"]["Ann"] for e in session.journal if e["kind"] == "do"]
        assert set(saved) <= set(recorded), f"kill {kill}: lost {set(saved) - set(recorded)}"
        n = max(recorded) + 1
    assert len(saved) >= KILLS
    recorded = {e["event"]["scores"]["Ann"] for e in sessions.load(store, s.id).journal if e["kind"] == "do"}
    report_kills("crash score sheet (session layer)", KILLS, len(saved), len(set(saved) & recorded))
    leftovers = list(store.root.rglob("*.tmp"))
    # a temporary file may remain from a kill mid-write; it is never read as data
    assert all(p.name.startswith(".") for p in leftovers)
    assert json.loads((store.root / "sessions" / f"{s.id}.json").read_text())["_schema"]["version"] == 1



def test_kills_in_a_long_session_read_from_its_snapshot(tmp_path, warm):
    """Issue 12, item 14: past a snapshot an action parses only the entries since and splices
    its own into the text it read. Killed at any instant, it still loses nothing acknowledged,
    and the session replays from its snapshot to the state a full replay gives."""
    from storm_support import copying_replay

    store = Store(tmp_path / "home")
    s = sessions.create(store, "scoresheet", ["Ann", "Bob"], {"lowest_wins": False, "target": None})
    for i in range(sessions.SNAPSHOT_EVERY + 5):
        sessions.record(store, s.id, {"type": "add", "scores": {"Bob": i}})
    assert store.snapshot_path(s.id).is_file()
    rng = random.Random(20261201)
    saved: list[int] = []
    n = 1
    kills = scaled(6, 150)
    for kill in range(kills):
        saved += write_then_kill(warm, store, s.id, n, rng.uniform(0, 0.05), "no-undo")
        every_file_loads(store.root)
        meta, journal = store.read_session(s.id)
        recorded = [e["event"]["scores"]["Ann"] for e in journal if "Ann" in e["event"]["scores"]]
        assert set(saved) <= set(recorded), f"kill {kill}: lost {set(saved) - set(recorded)}"
        n = max(recorded) + 1
    # read as the writers read it (the same companion: the snapshot names the rules' module)
    check = ("import json, sys; from companion.core import session as s; from companion.core.store import Store; "
             "x = s.load(Store(sys.argv[1]), sys.argv[2]); "
             "print(json.dumps([isinstance(x._journal, s.Later), x.replay().state]))")
    lazy, state = json.loads(subprocess.run([sys.executable, "-c", check, str(store.root), s.id], check=True,
                                            capture_output=True, text=True).stdout)
    assert lazy, "the snapshot still stands for the file's start"
    assert state == copying_replay(sessions.Session(meta, journal))
    report_kills("crash score sheet, long session past its snapshot", kills, len(saved),
                 len(set(saved) & set(recorded)))
