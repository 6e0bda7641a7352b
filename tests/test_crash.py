"""Killing a writing process at any instant loses at most the action being written."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time

from long_mode import report_kills, scaled

from companion.core import session as sessions
from companion.core.store import Store, read_json_file

KILLS = scaled(20, 200)

WRITER = r"""
import sys
from companion.core import session as sessions
from companion.core.store import Store
store = Store(sys.argv[1])
sid = sys.argv[2]
n = int(sys.argv[3])
while True:
    sessions.record(store, sid, {"type": "add", "scores": {"Ann": n}})
    print(n, flush=True)   # reported saved only after the write returned
    n += 1
    if n % 7 == 0:
        sessions.step(store, sid, "undo")
        sessions.step(store, sid, "redo")
"""


def every_file_loads(root) -> None:
    kinds = {"index.json": "index", "settings.json": "settings", "userdata.json": "userdata"}
    for path in root.rglob("*.json"):
        read_json_file(path, kinds.get(path.name, "session"))


def test_kills_lose_nothing_reported_saved(tmp_path):
    store = Store(tmp_path / "home")
    s = sessions.create(store, "scoresheet", ["Ann", "Bob"], {"lowest_wins": False, "target": None})
    rng = random.Random(20261130)
    saved: list[int] = []
    n = 1
    for kill in range(KILLS):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(store.root), s.id, str(n)],
                                stdout=subprocess.PIPE, text=True)
        # wait for the first save, then kill at a random instant among the following writes
        first = proc.stdout.readline()
        time.sleep(rng.uniform(0, 0.08))
        proc.send_signal(signal.SIGKILL)
        out = first + proc.stdout.read()
        proc.wait()
        reported = [int(x) for x in out.split()]
        saved += reported
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
