"""Two processes recording into one session at once never lose each other's events.

Every writer is a process of its own forked from one that imported the companion already
(tests/warm_support.py: the same processes, files and locks, without 0.1 s of imports each)."""

from __future__ import annotations

from long_mode import scaled
from warm_support import warm  # noqa: F401 (a fixture)

from companion.core import session as sessions
from companion.core.store import Store

WRITER = r"""
import sys
from companion.core import session as sessions
from companion.core.store import Store
store = Store(sys.argv[1])
for i in range(int(sys.argv[4])):
    sessions.record(store, sys.argv[2], {"type": "add", "scores": {sys.argv[3]: i + 1}})
print("done", flush=True)
"""


def test_two_writers_keep_every_event(tmp_path, warm):
    store = Store(tmp_path / "home")
    s = sessions.create(store, "scoresheet", ["Ann", "Bob"], {"lowest_wins": False, "target": None})
    count = 30
    procs = [warm.start(WRITER, store.root, s.id, name, count) for name in ("Ann", "Bob")]
    results = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), results
    events = [e["event"]["scores"] for e in sessions.load(store, s.id).replay().events]
    for name in ("Ann", "Bob"):
        mine = [e[name] for e in events if name in e]
        assert mine == list(range(1, count + 1)), f"{name}'s events are lost or out of order"
    status = sessions.load(store, s.id).status()
    assert [p["score"] for p in status["players"]] == [count * (count + 1) // 2] * 2


CLI_WRITER = r"""
import sys
from click.testing import CliRunner
from companion.terminal.cli import cli
home, sid, name, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
runner = CliRunner()
for i in range(count):
    r = runner.invoke(cli, ["--data-dir", home, "add", "--session", sid, f"{name}={i + 1}"])
    if r.exit_code:
        print("FAILED", i, r.output, r.stderr, flush=True)
        sys.exit(1)
print("done", flush=True)
"""


def test_four_processes_fifty_actions_each(tmp_path, warm):
    """Four shells on one data folder: two share a session, two have their own; all 200 kept."""
    store = Store(tmp_path / "home")
    shared = sessions.create(store, "scoresheet", ["Ann", "Bob"], {"lowest_wins": False, "target": None})
    own1 = sessions.create(store, "scoresheet", ["Cy", "Dee"], {"lowest_wins": False, "target": None})
    own2 = sessions.create(store, "scoresheet", ["Eve", "Fay"], {"lowest_wins": False, "target": None})
    plan = [(shared.id, "Ann"), (shared.id, "Bob"), (own1.id, "Cy"), (own2.id, "Eve")]
    procs = [warm.start(CLI_WRITER, store.root, sid, name, 50) for sid, name in plan]
    outs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    total = 0
    for sid, name in plan:
        mine = [e["event"]["scores"][name] for e in sessions.load(store, sid).replay().events
                if name in e["event"]["scores"]]
        assert mine == list(range(1, 51)), f"{name}: lost or reordered"
        total += len(mine)
    assert total == 200


def long_tests() -> bool:
    import os

    return os.environ.get("COMPANION_LONG_TESTS") == "1"


def test_eight_scripts_and_four_one_shot_writers_nothing_refused(tmp_path, warm):
    """Issue 12: one lock for the whole folder refused 17 of 600 writes and stopped 7 of 8
    scripts. With a lock per session (and a short one for the index) and bounded waits, 8
    scripts of 150 actions on 8 sessions (60 each in the default run), plus 4 one-shot writers,
    all finish: nothing refused."""
    home = tmp_path / "home"
    store = Store(home)
    ids = [sessions.create(store, "scoresheet", ["Ann", "Bob"], {"lowest_wins": False, "target": None}).id
           for _ in range(8)]
    actions = scaled(60, 150)
    env = {"COMPANION_HOME": str(home)}
    scripts = []
    for sid in ids:
        lines = "".join(f"add --session {sid} Ann={i + 1}\n" for i in range(actions))
        proc = warm.companion(stdin=True, env=env)  # script mode: the lines on its standard input
        proc.stdin.write(lines)
        proc.stdin.flush()  # its `finish` comes after the one-shot writers: a script faster than
        scripts.append(proc)  # a one-shot's start finished the game under its `add` (issue 29, item 7)
    one_shots = []
    for n in range(4):  # while the scripts run: a new session, and actions on a script's session
        one_shots.append(warm.companion("new", "scoresheet", "--players", f"P{n},Q{n}", env=env))
        one_shots.append(warm.companion("add", "--session", ids[n], "Bob=1", env=env))
    results = [(p, *p.communicate(timeout=900)) for p in one_shots]
    for sid, proc in zip(ids, scripts):
        proc.stdin.write(f"finish --session {sid}\n")
        proc.stdin.close()
    for proc in scripts:
        results.append((proc, *proc.communicate(timeout=900)))
    refused = [(p.args, err) for p, out, err in results if p.returncode != 0 or err.strip()]
    assert not refused, refused
    for sid in ids:
        replay = sessions.load(store, sid).replay()
        ann = [e["event"]["scores"]["Ann"] for e in replay.events if "Ann" in e["event"].get("scores", {})]
        assert ann == list(range(1, actions + 1)) and replay.state["finished"]
    entries = {e["id"]: e for e in sessions.index(store)}
    assert len(entries) == 12 and all(entries[sid]["finished"] for sid in ids)
