"""A session file is read once per action, and replayed once (issue 20, item 5).

A one-off action used to read its file 2 or 3 times (the root group reading its game, the
command reading it again, the locked write a third time) and a typed shell line about 3 times
with up to 3 replays (the command, the toolbar, the "Meanwhile" check). Now the root group,
the command, its locked write, the toolbar and the "Meanwhile" check share one read and one
replay, and a file unchanged since this process wrote it is not read again at all.
"""

from __future__ import annotations

import pytest

from companion.core import session as sessions
from companion.core import store as stores

from shell_support import drive


@pytest.fixture
def count(monkeypatch):
    """Counts reads of session files (not the index or settings) and replays by the rules."""
    seen = {"reads": 0, "replays": 0}
    read = stores.read_file_text

    def counting_read(path, *args, **kwargs):
        if path.parent.name == "sessions":
            seen["reads"] += 1
        return read(path, *args, **kwargs)

    replay = sessions.Session._replay

    def counting_replay(self, upto):
        seen["replays"] += 1
        return replay(self, upto)

    monkeypatch.setattr(stores, "read_file_text", counting_read)
    monkeypatch.setattr(sessions.Session, "_replay", counting_replay)

    def reset():
        seen["reads"] = seen["replays"] = 0
        return seen

    return reset


@pytest.mark.parametrize("args", [["add", "Ann=3", "Bob=1"], ["status"], ["status", "--json"], ["log"],
                                  ["note", "cold evening"], ["finish"]])
def test_a_one_off_command_reads_its_session_once_and_replays_it_once(run, count, args):
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    run(["add", "Ann=1"], expect=0)
    seen = count()
    run(args, expect=0)
    assert seen["reads"] == 1, seen
    assert seen["replays"] <= 1, seen


def test_undo_reads_once_and_replays_before_and_after(run, count):
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    run(["add", "Ann=1"], expect=0)
    seen = count()
    run(["undo"], expect=0)
    assert seen["reads"] == 1 and seen["replays"] <= 2, seen


def test_a_typed_line_reads_at_most_once_and_replays_at_most_once(home, run, count):
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    run(["add", "Ann=1"], expect=0)
    seen = count()
    lines = ["add Ann=3 Bob=1", "status", "add Bob=2", "log", "status --json", "add Ann=1"]
    drive(home, "\n".join(lines) + "\n")
    # the first line reads the file once (the shell's first look); every later line finds it as
    # this shell left it (its own write), so reads it no more
    assert seen["reads"] <= 1, seen
    assert seen["replays"] <= 1, seen


def test_a_line_after_another_terminal_wrote_reads_once_more(home, run, count):
    from companion.core.app import App
    from companion.terminal.cli import run_line

    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    shell = App(home)
    shell.pin_session()
    assert run_line(shell, "add Ann=1") == (0, None)
    seen = count()
    run(["add", "Bob=5"], expect=0)  # another terminal
    seen = count()
    assert run_line(shell, "add Ann=2") == (0, None)
    assert seen["reads"] == 1, seen
    # the other terminal's action comes from its journal (issue 30): read once, and replayed at
    # most once (it was applied to what this shell held before the journals)
    assert seen["replays"] <= 1, seen
    s, replay = shell.loaded()
    assert [p["score"] for p in s.status(replay)["players"]] == [3, 5]
