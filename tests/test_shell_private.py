"""Private entry stays private (issues 13.5 and 12.11): a city to pass or return is chosen on
the private screen, never echoed on the shared one nor kept in the history file, and a wrong
choice is answered privately."""

from __future__ import annotations

import json
import stat

from companion.core import session as sessions
from companion.core.store import Store

try:
    from shell_support import Screen, drive
except ImportError:  # tests/ imported as a package
    from tests.shell_support import Screen, drive


def hands(home) -> dict:
    store = Store(home)
    return sessions.load(store, store.current()).replay().state["hands"]


def start(run, special: str, players: str = "Ann,Bob") -> None:
    run(["new", "trans-amerika", "--players", players, "--entropy", "x"], expect=0)
    run(["round", "start", "--special", special], expect=0)


def test_pass_is_chosen_on_the_private_screen(home, run, capsys):
    start(run, "pass-three")
    before = hands(home)
    mine, theirs = before["Ann"][0], before["Bob"][0]
    screen = Screen()
    capsys.readouterr()
    # `pass Ann`, Enter to hand over, a wrong guess at Bob's city, then one of Ann's own
    drive(home, f"pass Ann\n\n{theirs}\n{mine}\nstatus\n", output=screen.output(), private=True)
    out, err = capsys.readouterr()
    shared, private = screen.split()
    assert "Ann's choice is recorded." in out
    assert "Now: pass 1 of 3: Bob must still choose a city to pass left: pass NAME\n" in out
    for city in (mine, theirs):
        assert city not in out + err and city not in shared  # never on the shared screen
        assert city not in (home / ".local" / "shell-history").read_text()
    assert "Only Ann looks." in private and mine in private
    assert f"{theirs} is not in Ann's hand" in private  # the refusal, on the private screen only
    store = Store(home)
    assert sessions.load(store, store.current()).replay().state["pending"]["chosen"] == {"Ann": mine}


def test_ctrl_c_on_the_private_screen_records_nothing(home, run, capsys):
    start(run, "pass-three")
    screen = Screen()
    drive(home, "pass Ann\n\n\x03status --json\n", output=screen.output(), private=True)
    out, err = capsys.readouterr()
    assert "Stopped; nothing was recorded." in err
    store = Store(home)
    assert sessions.load(store, store.current()).replay().state["pending"]["chosen"] == {}


def test_return_is_chosen_on_the_private_screen(home, run, capsys):
    start(run, "return-any")
    city = hands(home)["Bob"][2]
    screen = Screen()
    capsys.readouterr()
    drive(home, f"hand Bob --return\n\n{city}\n", output=screen.output(), private=True)
    out, err = capsys.readouterr()
    shared, private = screen.split()
    assert "Bob put a city back and plays with 4." in out and "Now: Ann must still put a city back: hand NAME --return" in out
    assert city not in out + err + shared and city in private
    assert city not in hands(home)["Bob"]


def test_an_explicit_choice_typed_in_the_shell_is_refused_without_naming_a_hand(home, run, capsys):
    start(run, "pass-three")
    theirs = hands(home)["Bob"][0]
    drive(home, f"pass Ann {theirs}\nhand Ann --set {theirs}\n")
    out, err = capsys.readouterr()
    assert theirs not in out + err  # neither "not in Ann's hand" nor "already in Bob's hand"
    assert "That choice was refused and nothing was recorded. Type `pass Ann`" in err
    history = (home / ".local" / "shell-history").read_text()
    assert theirs not in history and "pass Ann" not in history


def test_without_a_private_screen_the_shell_asks_for_the_explicit_form(home, run, capsys):
    start(run, "pass-three")
    drive(home, "pass Ann\n")
    assert "Name the city: pass NAME CITY" in capsys.readouterr().err


def test_rails_json_in_the_shell_uses_the_private_screen(home, run, capsys):
    run(["new", "trans-amerika", "--players", "Ann,Bob", "--entropy", "x"], expect=0)
    run(["round", "start"], expect=0)
    cities = hands(home)["Ann"]
    screen = Screen()
    capsys.readouterr()
    drive(home, "rails Ann --json\n\n\n", output=screen.output(), private=True)
    out, err = capsys.readouterr()
    shared, private = screen.split()
    assert not any(c in out + err + shared for c in cities)
    assert all(c in private for c in cities) and '"rails"' in private
    # `--print` is the plain form, for a printer or a pipe
    drive(home, "rails Ann --json --print\n")
    payload = json.loads(capsys.readouterr().out.split("\n", 1)[1])
    assert payload["player"] == "Ann"


def test_the_history_file_is_owner_only(home):
    drive(home, "games\n")
    mode = stat.S_IMODE((home / ".local" / "shell-history").stat().st_mode)
    assert mode == 0o600


def test_one_shot_hand_prints_plainly_when_piped(home, run):
    run(["new", "trans-amerika", "--players", "Ann,Bob", "--entropy", "x"], expect=0)
    run(["round", "start"], expect=0)
    out = run(["hand", "Bob"], expect=0).stdout
    assert "Bob's cities (round 1):" in out and all(c in out for c in hands(home)["Bob"])
    assert "Bob's cities" in run(["hand", "Bob", "--print"], expect=0).stdout


def test_one_shot_hand_on_a_terminal_uses_the_alternate_screen(home, run):
    """`companion hand Bob` in a real pseudo-terminal: the cities only between the alternate
    screen's start and end, then Enter to leave."""
    import os
    import pty
    import select
    import subprocess
    import sys
    import time

    run(["new", "trans-amerika", "--players", "Ann,Bob", "--entropy", "x"], expect=0)
    run(["round", "start"], expect=0)
    cities = hands(home)["Bob"]
    master, slave = pty.openpty()
    env = dict(os.environ, COMPANION_HOME=str(home), TERM="xterm", COLUMNS="80", LINES="24")
    proc = subprocess.Popen([sys.executable, "-m", "companion", "hand", "Bob"], stdin=slave, stdout=slave,
                            stderr=slave, env=env, close_fds=True)
    os.close(slave)
    seen, deadline = b"", time.monotonic() + 60
    try:
        while proc.poll() is None and time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if not ready:
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            seen += chunk
            if b"\x1b[6n" in chunk:  # the cursor-position request a terminal answers
                os.write(master, b"\x1b[1;1R")
            if chunk.rstrip().endswith((b"cards. ", b"cards.", b"again. ", b"again.")) or b"press Enter" in chunk \
                    or b"Press Enter" in chunk:
                os.write(master, b"\r")
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    text = seen.decode("utf-8", "replace")
    assert proc.returncode == 0, text
    enter, leave = "\x1b[?1049h", "\x1b[?1049l"
    assert enter in text and leave in text
    before, _, rest = text.partition(enter)
    inside, _, after = rest.partition(leave)
    assert all(c in inside for c in cities)
    assert not any(c in before + after for c in cities)

