"""`companion serve` on a real terminal (a pseudo-terminal): the table's one QR code, and with
--player-codes each player's code on a private screen of its own, one player at a time, then
Ctrl-C (which, in the walk, puts the codes away and leaves the server running)."""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import time

import pytest

from pty_support import read_until
from serve_support import PLAYERS, new_trans

pty = pytest.importorskip("pty")


def test_each_players_code_is_shown_alone_and_ctrl_c_stops(run, home):
    new_trans(run)
    main, child = pty.openpty()
    os.set_blocking(main, True)
    env = dict(os.environ, COMPANION_HOME=str(home), COLUMNS="80", LINES="24")
    proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--port", "0", "--player-codes"],
                            stdin=child,
                            stdout=child, stderr=child, env=env, start_new_session=True)
    os.close(child)
    try:
        first = read_until(main, "Pass the laptop to Ann")
        assert "The table's code" in first and any(block in first for block in "▀▄█")  # a QR code in blocks
        table = re.search(r"http://127\.0\.0\.1:\d+/t/\S+", first).group(0)
        assert "/p/" not in first  # no player's link on the shared screen
        urls = {}
        for i, name in enumerate(PLAYERS):
            os.write(main, b"\r")
            screen = read_until(main, "Press Enter to hide")
            assert f"Only {name} looks" in screen
            urls[name] = re.search(r"http://127\.0\.0\.1:\d+/p/[A-Za-z0-9_-]+", screen).group(0)
            assert sum(f"Only {n} looks" in screen for n in PLAYERS) == 1
            cleared = max(screen.rfind("\x1b[H"), screen.rfind("\x1b[2J"))  # the private screen's start
            shown = screen[cleared:] if cleared >= 0 else screen
            assert drawn_lines(shown) <= 24, drawn_lines(shown)  # fits an 80x24 terminal
            if i + 1 < len(PLAYERS):
                assert f"(next: {PLAYERS[i + 1]})" in screen
            os.write(main, b"\r")
            after = read_until(main, "Pass the laptop to" if i + 1 < len(PLAYERS) else "Ctrl-C")
            assert "\x1b[?1049l" in after  # the private screen is left: the code is gone
            assert urls[name] not in after
        assert len(set(urls.values())) == len(PLAYERS) and table not in urls.values()
        import urllib.request

        for _ in range(100):  # the server answers before Ctrl-C is pressed
            try:
                with urllib.request.urlopen(table, timeout=2) as r:
                    assert r.status == 200
                break
            except OSError:
                time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=20)
        assert "The server is stopped." in read_until(main, "stopped", timeout=5)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(main)


def drawn_lines(screen: str) -> int:
    """The lines a screen's text fills, without the blank lines prompt_toolkit may print below
    its prompt to make room before moving back up (it does when the terminal's answer to where
    the cursor is comes late, as on a busy machine: 23 blank lines, then 23 up)."""
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen)
    lines = re.sub(r"[\x00-\x09\x0b-\x1f]", "", text).split("\n")  # controls (a backspace) draw nothing
    while lines and not lines[-1].strip():
        lines.pop()
    return len(lines)


def serve_on_a_pty(home, *args):
    main, child = pty.openpty()
    os.set_blocking(main, True)
    env = dict(os.environ, COMPANION_HOME=str(home), COLUMNS="80", LINES="24")
    proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--port", "0", *args], stdin=child,
                            stdout=child, stderr=child, env=env, start_new_session=True)
    os.close(child)
    return proc, main


def answers(url: str) -> int:
    import urllib.request

    for _ in range(100):
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                return r.status
        except OSError:
            time.sleep(0.1)
    return 0


def test_one_code_for_the_table_no_walk_and_ctrl_c_in_the_walk_keeps_the_server(run, home):
    """Issue 31: `serve` shows the table's one code (no walk round the table); after a restart
    it says the links are the same; Ctrl-C in the players' codes' walk never stops the server."""
    new_trans(run)
    proc, main = serve_on_a_pty(home)
    try:
        first = read_until(main, "Ctrl-C")
        assert "The table's code" in first and "Pass the laptop" not in first and "/p/" not in first
        join = re.search(r"http://127\.0\.0\.1:\d+/t/\S+/join", first).group(0)
        assert answers(join) == 200
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(main)
    proc, main = serve_on_a_pty(home, "--player-codes")  # the lid was closed: serve again
    try:
        first = read_until(main, "Pass the laptop to Ann")
        assert "The links are the same as before: the phones only need a reload." in first
        again = re.search(r"http://127\.0\.0\.1:\d+/t/\S+/join", first).group(0)
        assert again.split("/t/")[1] == join.split("/t/")[1]  # the same token (a new port: --port 0)
        os.write(main, b"\x03")  # Ctrl-C at the first player's code
        after = read_until(main, "Ctrl-C (or")
        assert "put away; the server goes on" in after
        assert answers(again) == 200 and proc.poll() is None  # the same link, and the server runs
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(main)
