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
import time
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
import gc
gc.collect()
gc.freeze()  # what every writer inherits: never walked again, in this process or a child
commands = sys.stdin
answers = os.fdopen(os.dup(1), "w", buffering=1)
for line in commands:
    job = json.loads(line)
    if "wait" in job:  # "poll": None while the child runs
        pid, status = os.waitpid(job["wait"], os.WNOHANG if job.get("poll") else 0)
        code = None if pid == 0 else -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
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
            if job.get("path"):  # PYTHONPATH's entries before the warm process's: after the script's folder
                import importlib
                sys.path[1:1] = job["path"]
                importlib.invalidate_caches()
                registry.forget()
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


class Errors:
    """A forked child's standard error (a file), read as a Popen's pipe: to its end, once the
    child has ended."""

    def __init__(self, child: "Forked"):
        self.child = child

    def read(self) -> str:
        self.child.wait(timeout=60)
        try:
            return self.child.err.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return ""

    def close(self) -> None:
        pass


class Forked:
    """One writer forked by :class:`Warm`: ``stdout`` to read, ``stderr`` to read once it ended,
    ``send_signal``, ``terminate``, ``kill``, ``poll``, ``wait``, ``communicate``, ``pid`` and
    ``returncode`` as a Popen's."""

    def __init__(self, warm: "Warm", pid: int, stdin, stdout, err: Path, args: list[str]):
        self.warm, self.pid, self.stdin, self.stdout, self.err, self.args = warm, pid, stdin, stdout, err, args
        self.stderr = Errors(self)
        self.returncode: int | None = None

    def send_signal(self, signal: int) -> None:
        if self.returncode is None:
            os.kill(self.pid, signal)

    def terminate(self) -> None:
        self.send_signal(15)

    def kill(self) -> None:
        self.send_signal(9)

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self.warm._wait(self.pid, poll=True)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """The child's end; with ``timeout``, asked in short steps (the warm process answers one
        request at a time: a wait that may not end must not hold every other start)."""
        if timeout is None:
            if self.returncode is None:
                self.returncode = self.warm._wait(self.pid)
            return self.returncode
        deadline = time.monotonic() + timeout
        while self.poll() is None:
            if time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(self.args, timeout)
            time.sleep(0.01)
        return self.returncode

    def communicate(self, timeout: float | None = None) -> tuple[str, str]:
        if self.stdin is not None and not self.stdin.closed:
            self.stdin.close()
        out = self.stdout.read()  # to its end: the writer ended (or was killed)
        self.stdout.close()
        self.wait(timeout)
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
        env = self.env = dict(os.environ, COMPANION_HOME=str(self.folder / "home"))
        self.proc = subprocess.Popen([sys.executable, "-c", WARM, *modules], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1, cwd=self.cwd, env=env)

    def _ask(self, job: dict) -> dict:
        with self.lock:
            self.proc.stdin.write(json.dumps(job) + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        assert line, "the warm process died"
        return json.loads(line)

    def start(self, script: str, *argv: str, stdin: bool = False, env: dict | None = None,
              path: list[str] | None = None) -> Forked:
        """``python -c script argv...``, forked: its stdout a pipe read like a Popen's, its
        standard input a pipe written by the caller (``stdin``) or empty, ``env`` its
        environment's changes (a value None: the variable removed), ``path`` the folders a
        PYTHONPATH would put before the warm process's own (the registry then scans again)."""
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
                                              "env": env or {}, "cwd": str(self.cwd), "path": path or []}) + "\n")
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

    def companion(self, *args: str, stdin: bool = False, env: dict | None = None,
                  path: list[str] | None = None) -> Forked:
        """`companion ARGS` as its entry point runs it (`python -m companion`), forked."""
        return self.start("import sys; sys.argv[0] = 'companion'\nfrom companion.terminal.start import main\nmain()",
                          *args, stdin=stdin, env=env, path=path)

    def run(self, *args: str, env: dict | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
        """`companion ARGS` forked, as ``subprocess.run(..., capture_output=True, timeout=...)``
        answers: a child still running after ``timeout`` is killed and TimeoutExpired raised."""
        child = self.companion(*args, env=env)
        out: list[str] = []
        reader = threading.Thread(target=lambda: out.append(child.stdout.read()), daemon=True)
        reader.start()
        try:
            child.wait(timeout)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
            raise
        finally:
            reader.join(timeout)
        child.stdout.close()
        err = child.err.read_text(encoding="utf-8", errors="replace")
        child.err.unlink()
        return subprocess.CompletedProcess(["companion", *args], child.returncode, "".join(out), err)

    def _wait(self, pid: int, poll: bool = False) -> int | None:
        return self._ask({"wait": pid, "poll": poll})["code"]

    def changes(self, env: dict) -> dict:
        """What turns this process's environment into ``env`` (for :meth:`start`'s ``env``)."""
        return {**{key: None for key in self.env if key not in env},
                **{key: value for key, value in env.items() if self.env.get(key) != value}}

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


# -- the tests' servers (tests/browser_support.py serve(), tests/live_support.py Served) ---------

WEB = ("companion.terminal.cli", "companion.core.session", "companion.core.app", "companion.core.store",
       "companion.terminal.start", "companion.terminal.setup", "companion.core.datapack",
       "companion.web.server", "companion.web.site", "companion.web.seats", "importlib.metadata",
       "email.parser", "uvicorn", "uvicorn.config", "uvicorn.main", "uvicorn.server", "uvicorn.lifespan.on",
       "uvicorn.protocols.http.h11_impl", "uvicorn.protocols.websockets.auto", "uvicorn.loops.asyncio")
_web: Warm | None = None


def _python(env) -> dict:
    """What an interpreter reads as it starts: a forked server would not see a change in it."""
    return {key: value for key, value in env.items() if key.startswith("PYTHON")}


_STARTED = _python(os.environ)  # the warm process's (a server in another environment is a new interpreter)


def _added_path(env) -> list[str] | None:
    """The folders ``env``'s PYTHONPATH puts before the warm process's (a plugin a test
    installed), or None when ``env`` differs in anything else an interpreter reads as it starts."""
    now, then = _python(env), dict(_STARTED)
    entries = [e for e in now.pop("PYTHONPATH", "").split(os.pathsep) if e]
    own = [e for e in then.pop("PYTHONPATH", "").split(os.pathsep) if e]
    if now != then or entries[len(entries) - len(own):] != own:
        return None
    return entries[:len(entries) - len(own)]
_web_lock = threading.Lock()


def forking() -> bool:
    """Whether servers are forked (not in the long run, nor with COMPANION_PTY_FORK=0: there each
    is a new interpreter, as a person starts it)."""
    return os.environ.get("COMPANION_LONG_TESTS") != "1" and os.environ.get("COMPANION_PTY_FORK", "1") != "0"


def serve_process(home: Path, *args: str, env: dict | None = None):
    """`companion serve ARGS` with COMPANION_HOME=home (and ``env``'s changes, e.g. LANGUAGE),
    stdout and stderr piped: forked from this test process's warm web process (started on
    first use, which has imported the web server once: ~0.15 s of CPU a server less), or a new
    interpreter (:func:`forking`)."""
    global _web
    env = dict(os.environ, **(env or {}), COMPANION_HOME=str(home))
    added = _added_path(env)
    if not forking() or added is None:
        return subprocess.Popen([sys.executable, "-m", "companion", "serve", *args], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=env)
    with _web_lock:
        if _web is None:
            _web = Warm(WEB, cwd=Path(__file__).resolve().parents[1])
    return _web.companion("serve", *args, env=_web.changes(env), path=added)


def close_web() -> None:
    """The warm web process ended (tests/conftest.py, as the test process's tests end)."""
    global _web
    with _web_lock:
        if _web is not None:
            _web.close()
            _web = None


def serve_links(home: Path, *args: str, env: dict | None = None):
    """:func:`serve_process` of `serve --port 0 ARGS`, its piped lines read up to the table's
    code (`join`, the last), and its table page answering (so everything it says before it
    serves is said): (process, {"table"|player|"join": url})."""
    from browser_support import link_line

    proc = serve_process(home, "--port", "0", *args, env=env)
    links: dict[str, str] = {}
    while "join" not in links:
        line = proc.stdout.readline()
        assert line, proc.stderr.read()
        kind, name, url = link_line(line)
        links[name if kind == "player" else kind] = url
    answering(links["table"])
    return proc, links


def answering(url: str) -> None:
    """Once ``url`` answers (any status): a server says all its lines before it serves, and
    handles `serve --stop` once it serves. (A `serve --stop` of a process of its own gave the
    server that time by its start; one in this process can come before it.)"""
    import urllib.error
    import urllib.request

    try:
        urllib.request.urlopen(url, timeout=60).close()
    except urllib.error.HTTPError:
        pass


def stop_served(home: Path, proc, url: str | None = None) -> str:
    """`serve --stop` run in this process (the server's own end is what is tested, not this
    command's start), once the server answers at ``url`` (if given: :func:`serve_links` waited
    already), then the server's end awaited: what it said on stderr."""
    from click.testing import CliRunner

    from companion.terminal.cli import cli

    if url is not None:
        answering(url)
    done = CliRunner().invoke(cli, ["serve", "--stop"], env={"COMPANION_HOME": str(home)})
    assert done.exit_code == 0, (done.stdout, done.stderr)
    proc.wait(timeout=60)
    return proc.stderr.read()
