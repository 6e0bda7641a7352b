"""A long-lived process keeps its own session (issues 12.1 and 13.1).

Two processes on one data folder: the shell (or a script on standard input) and another
terminal that starts a new session and records into the shell's. The other terminal is a real
`companion` subprocess; the shell runs in a thread on prompt_toolkit's pipe input, fed line by
line, so each step happens in a known order.
"""

from __future__ import annotations

import json
import re
import os
import subprocess
import sys
import threading
import time

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from companion.core import session as sessions
from companion.core.app import App
from companion.core.store import Store
from companion.terminal.cli import run_shell


def other_terminal(home, *args: str) -> subprocess.CompletedProcess:
    """`companion ARGS` in another process on the same data folder."""
    from pty_fork import run

    return run(list(args), dict(os.environ, COMPANION_HOME=str(home)), timeout=60)  # forked: tests/pty_fork.py


def wait_for(condition, what: str, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if condition():
                return
        except Exception:  # noqa: BLE001 - the file may be half-written: look again
            pass
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


class ShellThread:
    """A shell on ``home`` in a thread, typed into line by line."""

    def __init__(self, home):
        self.app = App(home)
        self._pipe_cm = create_pipe_input()
        self.pipe = self._pipe_cm.__enter__()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        with create_app_session(input=self.pipe, output=DummyOutput()):
            run_shell(self.app, input=self.pipe, output=DummyOutput())

    def type(self, line: str) -> None:
        self.pipe.send_text(line + "\n")

    def new_session(self, store: Store) -> str:
        """Start a score sheet in this shell; its id, once the folder shows it."""
        self.type("new scoresheet --players Ann,Bob")
        wait_for(lambda: store.current(), "the shell's new session")
        return store.current()

    def close(self) -> None:
        self.type("exit")
        self.thread.join(30)
        self._pipe_cm.__exit__(None, None, None)
        assert not self.thread.is_alive()


def rounds(store: Store, sid: str) -> list[dict]:
    """The score rows in effect (undone ones left out)."""
    return [e["event"] for e in sessions.load(store, sid).fold()[0] if e["event"].get("type") == "add"]


def test_another_terminals_new_never_redirects_the_shell(home, capsys):
    store = Store(home)
    shell = ShellThread(home)
    try:
        mine = shell.new_session(store)
        other = other_terminal(home, "new", "scoresheet", "--players", "Ann,Bob")
        assert other.returncode == 0, other.stderr
        theirs = store.current()
        assert theirs != mine  # the folder's current session moved ...
        shell.type("add Ann=10 Bob=0")
        wait_for(lambda: rounds(store, mine), "the shell's round")
    finally:
        shell.close()
    out = capsys.readouterr().out
    # ... but the shell's round went into the shell's own session
    assert [r["scores"] for r in rounds(store, mine)] == [{"Ann": 10, "Bob": 0}]
    assert rounds(store, theirs) == []
    assert "Meanwhile" not in out  # nothing was recorded into the shell's session by others


def test_the_shell_says_in_one_line_what_another_terminal_recorded_in_its_session(home, capsys):
    store = Store(home)
    shell = ShellThread(home)
    try:
        mine = shell.new_session(store)
        shell.type("add Ann=1 Bob=1")
        wait_for(lambda: rounds(store, mine), "the shell's first round")
        for args in (["add", "Ann=7", "Bob=3"], ["new", "scoresheet", "--players", "Cy,Dee"]):
            other = other_terminal(home, "--session", mine, *args) if args[0] == "add" else other_terminal(home, *args)
            assert other.returncode == 0, other.stderr
        shell.type("status --json")
        shell.type("status --json")
    finally:
        shell.close()
    out = re.sub(r"\n +(?=\S)", " ", capsys.readouterr().out)  # the line wraps at 80 columns
    lines = [line for line in out.splitlines() if line.startswith("Meanwhile")]
    assert len(lines) == 1  # said once, before the next output, then not again
    assert mine in lines[0] and "round scored: Ann +7, Bob +3" in lines[0]
    before, after = out.split(lines[0])
    first = json.loads(after[after.index("{"):after.index("\n}") + 2])
    assert first["session"] == mine and [p["score"] for p in first["players"]] == [8, 4]


def test_use_and_new_inside_the_shell_move_it(home, capsys, run):
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    first = Store(home).current()
    shell = ShellThread(home)
    try:
        shell.type("new scoresheet --players Cy,Dee")
        wait_for(lambda: Store(home).current() != first, "the shell's new")
        second = Store(home).current()
        shell.type(f"use {first}")
        wait_for(lambda: Store(home).current() == first, "the shell's use")
        other_terminal(home, "use", second)
        shell.type("add Ann=2 Bob=5")
        wait_for(lambda: rounds(Store(home), first), "the round in the used session")
    finally:
        shell.close()
    assert rounds(Store(home), second) == []


def test_a_script_keeps_its_session_when_another_process_starts_one(home):
    env = dict(os.environ, COMPANION_HOME=str(home))
    store = Store(home)
    proc = subprocess.Popen([sys.executable, "-m", "companion"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        proc.stdin.write("new scoresheet --players Ann,Bob\n")
        proc.stdin.flush()
        wait_for(lambda: store.current(), "the script's new session")
        mine = store.current()
        assert other_terminal(home, "new", "scoresheet", "--players", "Ann,Bob").returncode == 0
        theirs = store.current()
        out, err = proc.communicate("add Ann=4 Bob=6\nadd Ann=9 Bob=9\nundo\nadd Ann=5 Bob=6\n",
                                    timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert [r["scores"] for r in rounds(store, mine)] == [{"Ann": 4, "Bob": 6}, {"Ann": 5, "Bob": 6}]
    assert sessions.load(store, theirs).journal == []


def test_a_shell_started_with_no_session_stays_without_one(home, capsys):
    shell = ShellThread(home)
    try:
        shell.type("games")
        seen: list[str] = []  # the shell has started (and fixed its session) once it answered
        wait_for(lambda: seen.append(capsys.readouterr().out) or "scoresheet" in "".join(seen), "games")
        assert other_terminal(home, "new", "scoresheet", "--players", "Ann,Bob").returncode == 0
        shell.type("add Ann=1 Bob=2")
    finally:
        shell.close()
    err = capsys.readouterr().err
    assert "No session here yet" in err
    assert rounds(Store(home), Store(home).current()) == []


def test_session_alone_moves_only_this_shell(home, run, capsys):
    try:
        from shell_support import drive
    except ImportError:
        from tests.shell_support import drive
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    first = Store(home).current()
    run(["new", "scoresheet", "--players", "Cy,Dee"], expect=0)
    second = Store(home).current()
    drive(home, f"--session {first}\nadd Ann=1 Bob=2\n")
    out = capsys.readouterr().out
    assert f"Here, now session {first}" in out
    assert rounds(Store(home), first) and not rounds(Store(home), second)
    assert Store(home).current() == second  # the folder's current session is untouched
