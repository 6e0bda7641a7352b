"""Pressing Tab in a real login shell (bash, zsh, fish) in a pseudo-terminal, as a person does.

The completion function a shell calls is only half of Tab: the shell then puts the answer on
the line, quoting it (or not), and that is where values with spaces broke (issue 29). So the
tests here type a line and a Tab into an interactive shell, then turn the completed line into
``printf '<<%s>>\\n' companion ...`` (Ctrl-A, then typing in front of it) and run it: what it
prints is exactly the words the shell would have given the companion.
"""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

BIN = str(Path(sys.executable).parent)
PROMPT = "READY> "
SPELT = "'READY''> '"  # the prompt as typed: not the prompt itself, so its echo is not taken for it
SHOW = "printf '<<%s>>\\n' "
END = "ENDOFWORDS"
ESCAPES = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_]|[()][0-9A-Za-z])")

STARTS = {
    "bash": (["bash", "--norc", "--noprofile", "-i"],
             [f"PS1={SPELT}; PS2='MORE> '", 'eval "$(companion completion bash)"']),
    "zsh": (["zsh", "-f", "-i"],
            [f"PS1={SPELT}; PS2='MORE> '; bindkey -e", "autoload -U compinit && compinit -u",
             'eval "$(companion completion zsh)"']),
    "fish": (["fish", "--no-config", "-i"],
             [f"function fish_prompt; echo -n {SPELT}; end", "set -g fish_autosuggestion_enabled 0",
              "set -g fish_history ''", "companion completion fish | source"]),
}


def _own_terminal() -> None:
    """In the child: a session of its own, whose controlling terminal is the pty (fish refuses
    to be interactive without one)."""
    import fcntl
    import termios

    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class LoginShell:
    """One interactive ``shell`` in a pty, its data folder ``home``, the completion script loaded."""

    def __init__(self, shell: str, home, tmp: Path):
        import fcntl
        import struct
        import termios

        argv, setup = STARTS[shell]
        env = {k: v for k, v in os.environ.items() if not k.startswith(("COMP", "BASH_FUNC"))}
        env.update(PATH=BIN + os.pathsep + env.get("PATH", ""), COMPANION_HOME=str(home), TERM="xterm",
                   LANG="C.UTF-8", LC_ALL="C.UTF-8", HOME=str(tmp), XDG_CONFIG_HOME=str(tmp / "config"),
                   XDG_DATA_HOME=str(tmp / "data"), HISTFILE=str(tmp / "history"), INPUTRC="/dev/null")
        self.shell = shell
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=str(tmp),
                                     close_fds=True, preexec_fn=_own_terminal)
        os.close(slave)
        self.raw = b""
        for line in setup:
            self.run_line(line)

    def _read(self, until: bytes, start: int, timeout: float) -> str:
        end = time.monotonic() + timeout
        while until not in self.raw[start:]:
            if time.monotonic() > end:
                raise TimeoutError(f"{self.shell}: {until!r} never came:\n{self.raw[start:].decode('utf-8', 'replace')}")
            if select.select([self.master], [], [], 0.1)[0]:
                try:
                    data = os.read(self.master, 65536)
                except OSError:
                    break
                self.raw += data
                if b"\x1b[6n" in data:  # where is the cursor? (fish asks): a terminal's answer
                    os.write(self.master, b"\x1b[1;1R")
        return self.raw[start:].decode("utf-8", "replace")

    def run_line(self, line: str, timeout: float = 60.0) -> str:
        start = len(self.raw)
        os.write(self.master, line.encode() + b"\r")
        return self._read(PROMPT.encode(), start + len(line), timeout)

    def tab(self, typed: str, timeout: float = 60.0) -> list[str]:
        """Type ``typed`` (``companion ...``) and Tab, then run the line the shell made of it
        through printf: the words the companion would get (the first, ``companion``, left out)."""
        start = len(self.raw)
        os.write(self.master, typed.encode() + b"\t")
        # the shell finishes the completion before it reads the next keys
        os.write(self.master, b"\x01" + SHOW.encode() + b"\x05 " + END.encode() + b"\r")
        out = self._read(f"<<{END}>>".encode(), start, timeout)
        shown = [line.rstrip("\r").split("\r")[-1] for line in ESCAPES.sub("", out).split("\n")]
        words = [m.group(1) for m in map(re.compile("^<<(.*)>>$").match, shown) if m]
        assert words[:1] == ["companion"], out
        return words[1:-1]

    def close(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        os.close(self.master)
