"""Starting `companion ARGS` in a pseudo-terminal without starting Python again each time.

A pty test (tests/pty_support.py) looks at what one command draws on a real terminal; the
suite runs a few hundred of them, and each `python -m companion` spent most of its CPU starting
the interpreter and importing the companion and prompt_toolkit before drawing anything (0.03 to
0.1 s each, most of the pty files' CPU: issue 29, item 7). Here one helper process per test
process imports them once, with no terminal of its own; for each command it forks a child that
is the command's own process: a session of its own (``setsid``, as ``start_new_session`` did),
the pty's slave as its standard input, output and error, the command's environment, its
standard streams made anew on that terminal as Python's start makes them (line-buffered on a
terminal, ``PYTHONIOENCODING``), then the same entry point as ``python -m companion``
(``companion.terminal.start.main``) and exit with its status. The helper only imports modules:
no command has run in it, so every cache (the language chosen, the games loaded, the session
read) starts empty in each child as in a new process.

:func:`run` does the same with pipes (files) for the tests that check what another process
sees (a game cache read afresh, a second terminal on the shell's data folder), and returns what
``subprocess.run(..., capture_output=True, text=True)`` did. Where the interpreter's start is
the subject (the locale of the environment, `--version`'s imports, signals) the tests still
start `python -m companion` themselves.

``COMPANION_LONG_TESTS=1`` (the long run) and ``COMPANION_PTY_FORK=0`` start a new interpreter
for every command instead, exactly as a person's terminal does (tests/pty_support.py).
"""

from __future__ import annotations

import atexit
import json
import os
import select
import socket
import subprocess
import sys
import time

from process_support import ended

# What the helper imports before its first fork: what every command and the shell import
# anyway, and the games' own modules (imports only: the registry is never asked, so nothing
# is chosen or cached before a command runs).
PRELOAD = (
    "companion.terminal.start", "companion.terminal.cli", "companion.terminal.shell", "companion.terminal.render",
    "companion.terminal.declared", "companion.terminal.generic", "companion.terminal.history",
    "companion.core.app", "companion.core.session", "companion.core.store", "companion.contract.language",
    "prompt_toolkit", "prompt_toolkit.shortcuts",
)


def _games_modules() -> list[str]:
    """The built-in games' rules, moves and views modules (by the package's files, not the registry)."""
    import companion.games as games

    out = []
    root = os.path.dirname(games.__file__)
    for name in sorted(os.listdir(root)):
        folder = os.path.join(root, name)
        if os.path.isfile(os.path.join(folder, "__init__.py")):
            for part in ("rules", "moves", "views"):
                if os.path.isfile(os.path.join(folder, part + ".py")):
                    out.append(f"companion.games.{name}.{part}")
    return out


# -- the helper's side (run as ``python tests/pty_fork.py FD``) -----------------------------------------


def _child(fds: list[int], args: list[str], env: dict, cwd: str) -> None:
    """In the forked child: become `companion ARGS` with ``fds`` as its standard input, output
    and error (a pty's slave three times, or pipes); never returns."""
    import io
    import signal

    code = 1
    try:
        os.setsid()
        for fd, given in enumerate(fds):
            os.dup2(given, fd)
        for given in set(fds):
            if given > 2:
                os.close(given)
        signal.signal(signal.SIGINT, signal.default_int_handler)  # as Python's start sets them
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)
        os.chdir(cwd)
        sys.path[0] = cwd  # `python -m` puts the working folder first
        os.environ.clear()
        os.environ.update(env)
        encoding, _, errors = (env.get("PYTHONIOENCODING") or "utf-8").partition(":")

        def stream(fd: int, mode: str, errs: str, line: bool):
            raw = io.FileIO(fd, mode, closefd=False)
            buffered = io.BufferedReader(raw) if mode == "r" else io.BufferedWriter(raw)
            return io.TextIOWrapper(buffered, encoding=encoding, errors=errs, line_buffering=line)

        sys.stdin = sys.__stdin__ = stream(0, "r", errors or "strict", os.isatty(0))
        sys.stdout = sys.__stdout__ = stream(1, "w", errors or "strict", os.isatty(1))
        sys.stderr = sys.__stderr__ = stream(2, "w", "backslashreplace", True)
        sys.argv = [os.path.join(os.path.dirname(__import__("companion").__file__), "__main__.py"), *args]
        from companion.terminal.start import main

        try:
            main()
            code = 0
        except SystemExit as exc:
            if exc.code is None:
                code = 0
            elif isinstance(exc.code, int):
                code = exc.code
            else:
                print(exc.code, file=sys.stderr)
                code = 1
        except BaseException:  # noqa: BLE001 - as the interpreter would: the traceback, status 1
            import traceback

            traceback.print_exc()
            code = 1
        atexit._run_exitfuncs()
        for s in (sys.stdout, sys.stderr):
            try:
                s.flush()
            except (OSError, ValueError):
                pass
    finally:
        os._exit(code & 0xFF)


def serve(fd: int) -> None:
    """The helper: one request at a time on the socket ``fd`` (a command's JSON and the pty's
    slave); answers ``pid N`` once forked, ``exit N`` once the child ended."""
    import importlib

    for name in (*PRELOAD, *_games_modules()):
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - a module that does not import is the command's to report
            pass
    import gc

    gc.collect()
    gc.freeze()  # what every command inherits: never walked again, in this helper or a child
    sock = socket.socket(fileno=fd)
    while True:
        try:
            message, fds, _flags, _addr = socket.recv_fds(sock, 1 << 20, 3)
        except OSError:
            return
        if not message:
            return
        request = json.loads(message)
        fds = [fds[i] for i in request.get("streams", (0, 0, 0))]
        pid = os.fork()
        if pid == 0:
            sock.close()
            _child(fds, request["args"], request["env"], request["cwd"])
        for fd in set(fds):
            os.close(fd)
        sock.sendall(f"pid {pid}\n".encode())
        _, status = os.waitpid(pid, 0)
        sock.sendall(f"exit {os.waitstatus_to_exitcode(status)}\n".encode())


# -- the test's side --------------------------------------------------------------------------------


def kill(proc) -> None:
    """SIGKILL to a command's process group, and to the process itself (forked a moment ago, it
    may not lead its own group yet); nothing if it ended already."""
    import signal

    for send in (os.killpg, os.kill):
        try:
            send(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


class Forked:
    """The command's process as the test sees it: what :class:`subprocess.Popen` offered the pty
    tests (``pid``, ``poll``, ``wait``); its status comes from the helper that reaped it."""

    def __init__(self, helper: "_Helper", pid: int):
        self.helper, self.pid, self.returncode = helper, pid, None

    def poll(self):
        if self.returncode is None:
            line = self.helper.line(0)
            if line is not None:
                self.returncode = int(line.split()[1])
        return self.returncode

    def wait(self, timeout: float | None = None):
        if self.returncode is None:
            line = self.helper.line(timeout)
            if line is None:
                raise subprocess.TimeoutExpired(f"companion (pid {self.pid})", timeout)
            self.returncode = int(line.split()[1])
        return self.returncode


class _Helper:
    def __init__(self):
        ours, theirs = socket.socketpair()
        env = {k: v for k, v in os.environ.items() if k != "COMPANION_HOME"}
        self.proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), str(theirs.fileno())],
                                     pass_fds=[theirs.fileno()], env=env, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, start_new_session=True)
        theirs.close()
        self.sock = ours
        self.buffer = b""
        self.pid = os.getpid()
        self.last: Forked | None = None

    def line(self, timeout: float | None) -> str | None:
        """The helper's next line, waiting up to ``timeout`` seconds (None: as long as it takes)."""
        end = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = None if end is None else max(0.0, end - time.monotonic())
            if not select.select([self.sock], [], [], left)[0]:
                return None
            data = self.sock.recv(4096)
            if not data:
                raise RuntimeError("the pty helper (tests/pty_fork.py) ended")
            self.buffer += data
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode()

    def start(self, args: list[str], env: dict, fds: list[int], cwd: str | None = None) -> Forked:
        """``fds``: one (a pty's slave: input, output and error) or three (input, output, error)."""
        if self.last is not None and self.last.poll() is None:
            # a command a failed test left running: the helper serves one at a time
            kill(self.last)
            self.last.wait()
        streams = (0, 0, 0) if len(fds) == 1 else (0, 1, 2)
        request = {"args": args, "env": env, "cwd": cwd or os.getcwd(), "streams": streams}
        socket.send_fds(self.sock, [json.dumps(request).encode()], fds)
        line = self.line(60)
        if line is None or not line.startswith("pid "):
            raise RuntimeError(f"the pty helper did not fork: {line!r}")
        self.last = Forked(self, int(line.split()[1]))
        return self.last

    def close(self) -> None:
        self.sock.close()
        ended(self.proc, timeout=5, ask=False)  # its socket closed: it ends by itself


_helper: _Helper | None = None


def wanted() -> bool:
    """Whether commands are forked from the helper (not in the long run, nor with COMPANION_PTY_FORK=0)."""
    return os.environ.get("COMPANION_LONG_TESTS") != "1" and os.environ.get("COMPANION_PTY_FORK", "1") != "0"


def start(args: list[str], env: dict, slave: int) -> Forked:
    """`companion ARGS` in its own process on the pty ``slave`` (the caller closes its copy)."""
    return _the_helper().start(args, env, [slave])


def run(args: list[str], env: dict, input: str | None = None, cwd=None, timeout: float = 120.0):
    """`companion ARGS` in its own process with pipes, as ``subprocess.run([sys.executable,
    "-m", "companion", *args], capture_output=True, text=True, env=env)`` returns it (a
    :class:`subprocess.CompletedProcess`); a new interpreter when :func:`wanted` says so."""
    if not wanted():
        return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True, env=env,
                              input=input, cwd=cwd, timeout=timeout,
                              stdin=None if input is not None else subprocess.DEVNULL)
    import tempfile

    with tempfile.TemporaryFile() as given, tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        given.write((input or "").encode())
        given.seek(0)
        proc = _the_helper().start(list(args), dict(env), [given.fileno(), out.fileno(), err.fileno()],
                                   str(cwd) if cwd else None)
        try:
            code = proc.wait(timeout)
        except subprocess.TimeoutExpired:
            kill(proc)
            proc.wait()
            raise
        out.seek(0)
        err.seek(0)
        return subprocess.CompletedProcess([sys.executable, "-m", "companion", *args], code,
                                           _text(out.read()), _text(err.read()))


def _text(data: bytes) -> str:
    """As ``text=True`` reads a pipe: decoded, its line ends made ``\\n``."""
    return data.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n")


def close() -> None:
    """End this process's helper and reap it (its commands' CPU is then counted as this
    process's children's): at the end of the tests (tests/conftest.py), an xdist worker
    running no exit handlers."""
    global _helper
    if _helper is not None and _helper.pid == os.getpid():
        _helper.close()
    _helper = None


def _the_helper() -> "_Helper":
    global _helper
    if _helper is not None and (_helper.pid != os.getpid() or _helper.proc.poll() is not None):
        _helper = None  # a forked test process, or a helper that ended: a new one
    if _helper is None:
        _helper = _Helper()
        atexit.register(close)
    return _helper


if __name__ == "__main__":
    serve(int(sys.argv[1]))
