"""Running the companion in a real pseudo-terminal, as a person's terminal would.

A test that reads piped output never sees what a terminal shows: the board's escape codes were
once printed as text on every real terminal while every piped test passed. Here the companion
runs in a pty of a given size, with or without colour, and its output is fed to pyte (a VT100
terminal emulator) so a test can look at the screen a person sees, cell by cell.

- :func:`run_command` runs one `companion ARGS` and returns a :class:`Capture`;
- :class:`Shell` starts the interactive shell, types lines into it and reads its screen.
"""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time

import pyte

# Every escape sequence a terminal acts on (CSI, OSC, two-character ESC sequences).
ESCAPES = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_]|[()][0-9A-Za-z])")
SGR = re.compile(r"\x1b\[[0-9;]*m")
# What an escape code looks like once it was made visible by mistake ("\x1b[2m" as text).
SHOWN_ESCAPE = re.compile(r"\\x1b|\\u001b|\\033|\^\[\[")


def _env(columns: int, rows: int, colour: bool, home, extra: dict | None) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "COLUMNS", "LINES")}
    env.update(TERM="xterm-256color", COMPANION_HOME=str(home), PYTHONIOENCODING="utf-8")
    if not colour:
        env["NO_COLOR"] = "1"
    env.update(extra or {})
    return env


def _spawn(args: list[str], columns: int, rows: int, env: dict) -> tuple[subprocess.Popen, int]:
    import fcntl
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    proc = subprocess.Popen([sys.executable, "-m", "companion", *args], stdin=slave, stdout=slave, stderr=slave,
                            env=env, close_fds=True, start_new_session=True)
    os.close(slave)
    return proc, master


def _start(args: list[str], columns: int, rows: int, env: dict):
    """`companion ARGS` on a new pty of ``columns`` x ``rows``: (its process, the pty's master).
    Forked from a helper that imported the companion once (tests/pty_fork.py); in the long
    run, or with COMPANION_PTY_FORK=0, a new interpreter each time (:func:`_spawn`)."""
    import pty_fork

    if not pty_fork.wanted():
        return _spawn(args, columns, rows, env)
    import fcntl
    import struct
    import termios

    master, slave = pty.openpty()
    try:
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        proc = pty_fork.start(args, env, slave)
    except BaseException:
        os.close(master)
        raise
    finally:
        os.close(slave)
    return proc, master


def _kill(proc) -> None:
    """Kill the command's process group (a forked command may have ended and been reaped
    already, or not lead its group yet: tests/pty_fork.py)."""
    import pty_fork

    pty_fork.kill(proc)


class Capture:
    """What one command wrote to its terminal: the raw bytes, and the screen they draw."""

    def __init__(self, raw: bytes, columns: int, rows: int):
        self.raw = raw.decode("utf-8", "replace")
        self.columns = columns
        screen = pyte.Screen(columns, max(rows, self.raw.count("\n") + 2))
        stream = pyte.Stream(screen)
        stream.feed(self.raw.replace("\n", "\r\n") if "\r\n" not in self.raw else self.raw)
        self.screen = screen

    @property
    def lines(self) -> list[str]:
        """The lines as printed, escape codes removed (the terminal's own wrapping not applied)."""
        return [ESCAPES.sub("", line).rstrip("\r") for line in self.raw.split("\n")]

    @property
    def display(self) -> list[str]:
        """The screen as a person sees it, one string a row, trailing blanks cut."""
        return [row.rstrip() for row in self.screen.display]

    def text(self) -> str:
        return "\n".join(self.display).rstrip()

    def coloured_cells(self) -> int:
        """How many visible cells carry a colour or an emphasis."""
        count = 0
        for row in self.screen.buffer.values():
            for cell in row.values():
                if cell.data.strip() and (cell.fg != "default" or cell.bg != "default" or cell.bold or cell.reverse):
                    count += 1
        return count

    def problems(self, names: tuple[str, ...] = ()) -> list[str]:
        """What a person would see wrong: an escape code shown as text, a line wider than the
        terminal (the terminal would break it anywhere, inside a word), a name broken across
        two lines."""
        out = []
        for n, row in enumerate(self.display, 1):
            if SHOWN_ESCAPE.search(row):
                out.append(f"row {n} shows an escape code as text: {row[:60]!r}")
        from companion.terminal.render import _width

        for n, line in enumerate(self.lines, 1):
            if _width(line) > self.columns:
                out.append(f"line {n} is {_width(line)} columns wide on a {self.columns}-column terminal: "
                           f"{line[:60]!r}")
        flat = "\n".join(line.rstrip() for line in self.lines)
        for name in names:
            parts = name.split(" ")
            for i in range(1, len(parts)):
                broken = " ".join(parts[:i]) + "\n"
                if broken in flat and (flat.split(broken, 1)[1].lstrip().startswith(" ".join(parts[i:]))):
                    out.append(f"the name {name!r} is broken across two lines")
        return out


def run_command(args: list[str], home, columns: int = 80, rows: int = 40, colour: bool = True,
                env: dict | None = None, timeout: float = 60.0) -> Capture:
    """`companion ARGS` in a pty of ``columns`` x ``rows``; with ``colour`` False, NO_COLOR is set."""
    proc, master = _start(list(args), columns, rows, _env(columns, rows, colour, home, env))
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    try:
        while True:
            if time.monotonic() > deadline:
                raise TimeoutError(f"`companion {' '.join(args)}` did not finish in {timeout} s")
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                try:
                    data = os.read(master, 65536)
                except OSError:  # the child closed its side
                    break
                if not data:
                    break
                chunks.append(data)
            elif proc.poll() is not None:
                # drain what is left
                while select.select([master], [], [], 0.05)[0]:
                    try:
                        data = os.read(master, 65536)
                    except OSError:
                        data = b""
                    if not data:
                        break
                    chunks.append(data)
                break
    finally:
        if proc.poll() is None:
            _kill(proc)
        proc.wait()
        os.close(master)
    return Capture(b"".join(chunks), columns, rows)


class Shell:
    """The interactive shell in a pty: type lines, read the screen (pyte answers the cursor
    position requests prompt_toolkit sends, as a real terminal does)."""

    def __init__(self, home, columns: int = 80, rows: int = 30, colour: bool = True, env: dict | None = None,
                 args: tuple[str, ...] = (), ready: tuple[str, ...] = ("companion>",)):
        """Started once the texts ``ready`` are on the screen (the prompt; a test that first
        needs the bar adds a text of the bar, and waits for the rest of the screen once, not twice)."""
        self.columns, self.rows = columns, rows
        self.proc, self.master = _start(list(args), columns, rows, _env(columns, rows, colour, home, env))
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = b""
        try:
            self.wait_for(*ready)
        except BaseException:
            self.close()  # never started: its process and terminal go (a test that failed here left them)
            raise

    def _pump(self, seconds: float, until=None) -> bool:
        """Read what the shell writes for ``seconds``, or until ``until()`` holds after a read
        (checked as each piece arrives, not after the whole time): whether it held."""
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return False
            ready, _, _ = select.select([self.master], [], [], min(left, 0.05))
            if not ready:
                continue
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return False
            if not data:
                return False
            self.raw += data
            self.stream.feed(data)
            if b"\x1b[6n" in data:  # where is the cursor? (answered like a terminal)
                y, x = self.screen.cursor.y + 1, self.screen.cursor.x + 1
                os.write(self.master, f"\x1b[{y};{x}R".encode())
            if until is not None and until():
                return True

    def wait_for(self, text: str, *more: str, timeout: float = 20.0) -> str:
        """The screen once ``text`` (and each of ``more``) is on it, and the rest of that screen."""
        def shown() -> bool:
            screen = self.text()
            return text in screen and all(t in screen for t in more)

        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if shown() or self._pump(0.1, until=shown):
                self._pump(0.3)  # let the rest of that screen arrive
                return self.text()
        raise TimeoutError(f"{(text, *more)!r} never appeared on the screen:\n{self.text()}")

    def type(self, line: str, until: str = "companion>", timeout: float = 20.0) -> str:
        """Type ``line`` and Enter; wait until ``until`` is on the screen again after it."""
        mark = len(self.raw)
        os.write(self.master, line.encode() + b"\r")
        def came() -> bool:
            return until.encode() in self.raw[mark + len(line):]

        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if came() or self._pump(0.1, until=came):
                self._pump(0.3)  # let the rest of that screen arrive
                return self.text()
        raise TimeoutError(f"after {line!r}, {until!r} never appeared:\n{self.text()}")

    def coloured_rows(self, containing: str) -> int:
        """Rows on the screen showing ``containing`` that have a coloured or emphasised cell."""
        count = 0
        for y in range(self.rows):
            row = self.screen.buffer[y]
            text = "".join(row[x].data for x in range(self.columns))
            if containing in text and any(c.data.strip() and (c.fg != "default" or c.bold) for c in row.values()):
                count += 1
        return count

    def output_since(self, mark: int) -> str:
        return self.raw[mark:].decode("utf-8", "replace")

    def text(self) -> str:
        return "\n".join(row.rstrip() for row in self.screen.display).rstrip()

    def close(self) -> None:
        try:
            os.write(self.master, b"\x04")
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            pass
        finally:
            if self.proc.poll() is None:
                _kill(self.proc)
                self.proc.wait()
            os.close(self.master)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def read_until(fd: int, text: str, timeout: float = 20.0) -> str:
    """What a pty's ``fd`` printed until ``text`` came (decoded), or an AssertionError naming
    the end of what came instead. Every cursor position request (``ESC [ 6 n``) is answered as
    a terminal does, even one split between two reads: unanswered, prompt_toolkit waited 1 s at
    every Enter, and after 2 s printed a warning over what it draws (issue 29, item 7)."""
    seen = b""
    answered = 0
    deadline = time.monotonic() + timeout
    while text.encode() not in seen:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"{text!r} never came; saw {seen[-800:]!r}")
        if not select.select([fd], [], [], left)[0]:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
        asked = seen.count(b"\x1b[6n")
        if asked > answered:
            os.write(fd, b"\x1b[1;1R" * (asked - answered))
            answered = asked
    return seen.decode("utf-8", "replace")

