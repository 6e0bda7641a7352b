"""Leftover temporary files are cleaned at the next start (issue 22, item 8).

Every write goes to a temporary file (`.NAME.RANDOM.tmp` beside the file) that is renamed over
the file: a process killed mid-write leaves one behind. Before, it stayed until the next write
of that same file (the second adversarial test found one after 40 kills of `serve`). Now the
first write of a process and the start of a shell or a script remove every leftover that no
writer holds: one is removed only under the lock its writer would hold (the session's, or the
folder's), taken without waiting, so a write in progress in another process is never touched.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from companion.core import session as sessions
from companion.core.store import Store


def leftovers(home, sid: str) -> list:
    return [
        home / "sessions" / f".{sid}.json.k2j3h4.tmp",
        home / "sessions" / f".{sid}.json.import-4242.old",  # an import killed before it took back its copy
        home / ".index.json.x9y8z7.tmp",
        home / ".settings.json.a1b2c3.tmp",
        home / ".userdata.json.d4e5f6.tmp",
        home / ".players.json.g7h8i9.tmp",
        home / ".local" / "cache" / "replay" / f".{sid}.snapshot.j1k2l3.tmp",
    ]


@pytest.fixture
def folder(home):
    store = Store(home)
    sid = sessions.create(store, "scoresheet", ["Ann", "Bob"], {"lowest_wins": False, "target": None}).id
    other = sessions.create(store, "scoresheet", ["Cy", "Dee"], {"lowest_wins": False, "target": None}).id
    files = leftovers(home, sid)
    for path in files:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("half a write")
    return sid, other, files


@pytest.mark.parametrize("how", ["a write to another session", "a shell or a script starting"])
def test_the_next_start_removes_every_leftover(run, home, folder, how):
    sid, other, files = folder
    if how == "a write to another session":
        run(["--session", other, "add", "Cy=1"], expect=0)
    else:
        run([], input="status\n", expect=0)
    assert [p for p in files if p.exists()] == []
    assert sessions.load(Store(home), sid).replay().count == 0  # the files themselves untouched


def test_a_reading_command_leaves_them_and_never_fails(run, home, folder):
    """`status` alone writes nothing, and a leftover is never read as data."""
    sid, _other, files = folder
    json.loads(run(["--session", sid, "status", "--json"], expect=0).stdout)


HOLD = r"""
import sys, time
from companion.core.store import Store
store = Store(sys.argv[1])
with store.writing_session(sys.argv[2]):
    print("held", flush=True)
    time.sleep(float(sys.argv[3]))
"""


def test_a_write_in_progress_elsewhere_is_left_alone(run, home, folder):
    """Another process holds the session's lock (it is writing that session): its temporary
    file stays; the others go."""
    sid, other, files = folder
    busy = files[0]  # the session file's temporary file, as the writer holding the lock made it
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(home), sid, "20"], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "held"
        for path in files:  # (the holder swept the folder when it took its lock: as they were again)
            path.write_text("half a write")
        started = time.monotonic()
        run(["--session", other, "add", "Cy=1"], expect=0)
        assert time.monotonic() - started < 15, "the sweep waited for a lock"
        assert busy.exists(), "a write in progress lost its temporary file"
        assert files[1].exists() and files[6].exists()  # under the same lock: left too
        assert not any(p.exists() for p in files[2:6])  # the folder's files: gone
    finally:
        proc.kill()
        proc.wait()
    run(["--session", other, "add", "Cy=2"], expect=0)  # a later start cleans it
    assert not busy.exists()
