"""Writer processes forked from one Python that has imported the companion already.

The kill tests (tests/test_crash.py, tests/test_crash_games.py) start a writer, wait for its
first acknowledged action and kill it with SIGKILL at a random instant; the concurrency tests
start several writers, scripts and one-shot commands at once; the Syncthing trials run each
laptop's companion. Each started as `python -c SCRIPT` spent 0.1 s of CPU importing the
companion and its games before its first write: most of what the kill tests cost. Here one
process (`Warm`) imports them once, and each writer is a child it forks: a real process of
its own, with its own pid, files and locks, killed by a real SIGKILL, that only skips the
imports. Its output (and, when asked, its standard input) is a pipe of its own (a FIFO), used
as a Popen's is.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

WARM = r"""
import json, os, sys, traceback
for module in sys.argv[1:]:
    __import__(module)
from companion.core import registry
from companion.terminal import declared
for game in registry.available():  # every game's rules, moves and views, and its commands
    registry.parts(game)
    declared.commands_of(game)
commands = sys.stdin
answers = os.fdopen(os.dup(1), "w", buffering=1)
for line in commands:
    job = json.loads(line)
    if "wait" in job:
        _, status = os.waitpid(job["wait"], 0)
        code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
        answers.write(json.dumps({"code": code}) + "\n")
        continue
    out = os.open(job["out"], os.O_WRONLY)  # the caller holds the other end of each already
    given = os.open(job["stdin"], os.O_RDONLY) if job["stdin"] else os.open(os.devnull, os.O_RDONLY)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.dup2(given, 0)
            os.dup2(out, 1)
            os.dup2(os.open(job["err"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 2)
            os.close(out)
            os.close(given)
            answers.close()
            os.chdir(job["cwd"])
            for key, value in job["env"].items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
            sys.stdin = open(0, closefd=False)
            sys.argv = ["-c", *job["argv"]]
            try:
                exec(compile(job["script"], "<writer>", "exec"), {"__name__": "__main__"})
                code = 0
            except SystemExit as stop:
                if stop.code is None or isinstance(stop.code, int):
                    code = stop.code or 0
                else:
                    print(stop.code, file=sys.stderr)
            except BaseException:
                traceback.print_exc()
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)
    os.close(out)
    os.close(given)
    answers.write(json.dumps({"pid": pid}) + "\n")
"""


class Forked:
    """One writer forked by :class:`Warm`: ``stdout`` to read, ``send_signal``, ``communicate``
    and ``returncode`` as a Popen's."""

    def __init__(self, warm: "Warm", pid: int, stdin, stdout, err: Path, args: list[str]):
        self.warm, self.pid, self.stdin, self.stdout, self.err, self.args = warm, pid, stdin, stdout, err, args
        self.returncode: int | None = None

    def send_signal(self, signal: int) -> None:
        if self.returncode is None:
            os.kill(self.pid, signal)

    def kill(self) -> None:
        self.send_signal(9)

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            self.returncode = self.warm._wait(self.pid)
        return self.returncode

    def communicate(self, timeout: float | None = None) -> tuple[str, str]:
        if self.stdin is not None and not self.stdin.closed:
            self.stdin.close()
        out = self.stdout.read()  # to its end: the writer ended (or was killed)
        self.stdout.close()
        self.wait()
        err = self.err.read_text(encoding="utf-8", errors="replace")
        self.err.unlink()
        return out, err


class Warm:
    """A process that has imported ``modules`` and forks a writer each time :meth:`start` is called."""

    def __init__(self, modules: tuple[str, ...] = ("companion.terminal.cli", "companion.core.session",
                                                    "companion.core.app", "companion.core.store",
                                                    "companion.terminal.start"),
                 cwd: Path | None = None):
        self.cwd = Path(cwd or os.getcwd())
        self.folder = Path(tempfile.mkdtemp(prefix="companion-warm-"))
        self.count = 0
        self.lock = threading.Lock()  # one request at a time on the pipe (writers start from threads)
        # a writer given no data folder writes into one of this process's, never a user's
        env = dict(os.environ, COMPANION_HOME=str(self.folder / "home"))
        self.proc = subprocess.Popen([sys.executable, "-c", WARM, *modules], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1, cwd=self.cwd, env=env)

    def _ask(self, job: dict) -> dict:
        with self.lock:
            self.proc.stdin.write(json.dumps(job) + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        assert line, "the warm process died"
        return json.loads(line)

    def start(self, script: str, *argv: str, stdin: bool = False, env: dict | None = None) -> Forked:
        """``python -c script argv...``, forked: its stdout a pipe read like a Popen's, its
        standard input a pipe written by the caller (``stdin``) or empty, ``env`` its
        environment's changes (a value None: the variable removed)."""
        with self.lock:
            self.count += 1
            fifo, err, given = (self.folder / f"{kind}{self.count}" for kind in ("out", "err", "in"))
            os.mkfifo(fifo)
            if stdin:
                os.mkfifo(given)
            # both ends opened here first, without waiting (the warm process's opens then never
            # wait either, and a warm process that died is an empty answer, not a hang)
            out_fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
            in_fd = os.open(given, os.O_RDWR) if stdin else None
            self.proc.stdin.write(json.dumps({"script": script, "argv": [str(a) for a in argv], "out": str(fifo),
                                              "err": str(err), "stdin": str(given) if stdin else None,
                                              "env": env or {}, "cwd": str(self.cwd)}) + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
            fifo.unlink()
            if stdin:
                given.unlink()
        if not line:
            os.close(out_fd)
            in_fd is None or os.close(in_fd)
            raise AssertionError("the warm process died")
        os.set_blocking(out_fd, True)
        stdout = open(out_fd, encoding="utf-8")
        writer = open(in_fd, "w", encoding="utf-8") if stdin else None
        return Forked(self, json.loads(line)["pid"], writer, stdout, err, ["-c", "<writer>", *argv])

    def companion(self, *args: str, stdin: bool = False, env: dict | None = None) -> Forked:
        """`companion ARGS` as its entry point runs it (`python -m companion`), forked."""
        return self.start("import sys; sys.argv[0] = 'companion'\nfrom companion.terminal.start import main\nmain()",
                          *args, stdin=stdin, env=env)

    def _wait(self, pid: int) -> int:
        return self._ask({"wait": pid})["code"]

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=60)
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture(scope="module")
def warm():
    """One warm process for a test file (import it into the file: ``from warm_support import warm``)."""
    process = Warm(cwd=Path(__file__).resolve().parents[1])
    yield process
    process.close()
