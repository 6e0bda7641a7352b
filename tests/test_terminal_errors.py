"""How an argv command's error reads on a terminal (the table's laptop) and in a pipe."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios


def test_an_error_on_a_terminal_wraps_at_spaces(home, run):
    """An argv command's refusal on a terminal of 80 columns breaks at spaces, never inside a
    word; piped (as every other test reads it) it stays one line."""
    run(["new", "trans-europa", "--players", "Ann,Bob,Cy", "--entropy", "x"], expect=0)
    piped = run(["round", "start"], expect=1).stderr
    assert len(piped.strip().splitlines()) == 1 and len(piped) > 160, "one long line when piped"
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = dict(os.environ, COMPANION_HOME=str(home), TERM="xterm")
    env.pop("COLUMNS", None)
    proc = subprocess.Popen([sys.executable, "-m", "companion", "round", "start"], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=slave, env=env, close_fds=True)
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the other end closed: the process is done
            break
        if not chunk:
            break
        seen += chunk
    proc.wait(60)
    os.close(master)
    lines = seen.decode().replace("\r", "").strip().splitlines()
    assert len(lines) > 2 and all(len(line) <= 80 for line in lines), lines
    assert " ".join(" ".join(lines).split()) == " ".join(piped.split())
