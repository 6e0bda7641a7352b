"""Two processes recording into one session at once never lose each other's events."""

from __future__ import annotations

import subprocess
import sys

from companion import session as sessions
from companion.store import Store

WRITER = r"""
import sys
from companion import session as sessions
from companion.store import Store
store = Store(sys.argv[1])
for i in range(int(sys.argv[4])):
    sessions.record(store, sys.argv[2], {"type": "add", "scores": {sys.argv[3]: i + 1}})
print("done", flush=True)
"""


def test_two_writers_keep_every_event(tmp_path):
    store = Store(tmp_path / "home")
    s = sessions.create(store, "scoresheet", ["Ann", "Bob"], {"lowest_wins": False, "target": None})
    count = 30
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(store.root), s.id, name, str(count)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for name in ("Ann", "Bob")]
    results = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), results
    events = [e["event"]["scores"] for e in sessions.load(store, s.id).replay().events]
    for name in ("Ann", "Bob"):
        mine = [e[name] for e in events if name in e]
        assert mine == list(range(1, count + 1)), f"{name}'s events are lost or out of order"
    status = sessions.load(store, s.id).status()
    assert [p["score"] for p in status["players"]] == [count * (count + 1) // 2] * 2
