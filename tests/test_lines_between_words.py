"""Every line the program writes breaks between words (issue 31): on a real terminal of 80 and
60 columns, read through a pseudo-terminal, no line of `serve` or `report` is wider than the
terminal, which would break it anywhere ("(add --lan for th\\ne phones)", "or sca\\nn the code",
"`report ID --html FILE` s\\nhows it."). A line that is one word alone (a link) may be wider:
it cannot break between words, and a link must stay whole to be opened or copied."""

from __future__ import annotations

import os
import select
import signal
import threading
import time

import re

import pytest

from pty_support import ESCAPES, _env, _start, run_command


DRAWN = re.compile(r"\x1b\[\d*[CDJ]")


def broken_inside_words(lines: list[str], columns: int) -> list[str]:
    """The lines a terminal of ``columns`` would break inside a word."""
    from companion.terminal.render import _width

    return [line for line in lines if _width(line) > columns and " " in line.strip()]


@pytest.fixture
def finished(run, home):
    run(["new", "scoresheet", "--title", "Carcassonne", "--players", "Ann,Bob", "--bgg-id", "822"], expect=0)
    run(["score", "Ann", "10"], expect=0)
    run(["score", "Bob", "5"], expect=0)
    run(["finish"], expect=0)
    return home


@pytest.mark.parametrize("columns", [80, 60])
@pytest.mark.parametrize("colour", [True, False], ids=["colour", "NO_COLOR"])
def test_report_breaks_between_words(finished, columns, colour):
    shown = run_command(["report"], finished, columns=columns, rows=60, colour=colour)
    assert "Add to BG Stats" in shown.raw
    assert broken_inside_words(shown.lines, columns) == [], shown.text()
    flat = " ".join(shown.raw.split())
    assert "or scan the code:" in flat and ("`report ID --html FILE`" in flat or "QR code" in flat)


def serve_screen(home, columns: int, timeout: float = 60.0) -> str:
    """What `serve` writes to a terminal of ``columns`` until it says how it stops (each
    private screen's Enter pressed, as the players would); then the server is stopped."""
    proc, master = _start(["serve", "--port", "0"], columns, 40, _env(columns, 40, False, home, None))
    raw, quiet, asked = b"", time.monotonic(), 0
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            if select.select([master], [], [], 0.1)[0]:
                try:
                    data = os.read(master, 65536)
                except OSError:
                    break
                if not data:
                    break
                raw += data
                quiet = time.monotonic()
                if b"\x1b[6n" in data:  # where is the cursor? (answered as a terminal does)
                    os.write(master, b"\x1b[1;1R")
            text = raw.decode("utf-8", "replace")
            if "stops it." in " ".join(ESCAPES.sub("", text).split()):
                break
            if raw.count(b"ress Enter") > asked or time.monotonic() - quiet > 2.0:  # a private screen's
                asked = raw.count(b"ress Enter")  # question (or a quiet one): Enter, as the players would
                os.write(master, b"\r")
                quiet = time.monotonic()
        else:
            raise AssertionError(f"`serve` never said how it stops:\n{raw.decode('utf-8', 'replace')}")
    finally:
        os.killpg(proc.pid, signal.SIGTERM)  # the test's own server, by its process group
        try:
            proc.wait(timeout=10)
        except Exception:  # noqa: BLE001 - one that does not stop is killed
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        os.close(master)
    return raw.decode("utf-8", "replace")


@pytest.mark.parametrize("columns", [80, 60])
def test_serve_breaks_between_words(run, home, columns):
    run(["new", "scoresheet", "--title", "Carcassonne", "--players", "Ann,Bob"], expect=0)
    raw = serve_screen(home, columns)
    # the lines `serve` printed; a question prompt_toolkit draws and redraws itself (moving the
    # cursor over it) is left to prompt_toolkit
    lines = [ESCAPES.sub("", line).rstrip("\r") for line in raw.split("\n") if not DRAWN.search(line)]
    assert any("add --lan" in line for line in lines) or "add --lan for the phones" in " ".join(raw.split())
    assert broken_inside_words(lines, columns) == [], "\n".join(lines)


PHONE_GAME = ("new atlantic-star --players Bartholomeus,Maximiliane\n" + "".join(
    f"charter {p} 0\n" for p in ["Bartholomeus", "Maximiliane"] * 4))


@pytest.mark.parametrize("columns", [80, 60])
def test_the_lines_from_the_phones_break_between_words(script, home, columns):
    """ "From Bartholomeus's phone: ..." is written by the server's thread above the shell's
    prompt: between words too ("build-a\\nnywhere" in the report)."""
    import httpx

    from pty_support import Shell
    from serve_support import forms_on
    from companion.web import server, tokens

    code, _out, err = script(PHONE_GAME)
    assert code == 0, err
    with Shell(home, columns=columns, rows=40, colour=False) as sh:
        mark = len(sh.raw)
        os.write(sh.master, b"serve --port 0\r")
        deadline = time.monotonic() + 60
        asked = 0
        while b"runs in the background" not in sh.raw[mark:]:
            assert time.monotonic() < deadline, sh.text()
            sh._pump(0.1)
            if sh.raw[mark:].count(b"ress Enter") > asked:  # each private screen's Enter, as the players would
                asked = sh.raw[mark:].count(b"ress Enter")
                os.write(sh.master, b"\r")
        while (note := server.noted(home)) is None:  # the server's note, which `serve --stop` reads too
            assert time.monotonic() < deadline, sh.text()
            sh._pump(0.1)
        sid = note["session"]
        token = tokens.links(home, sid, ["Bartholomeus", "Maximiliane"])["Bartholomeus"]
        posted: dict = {}

        def tap() -> None:  # a phone's tap, while the test reads the shell's terminal
            with httpx.Client(base_url=note["base"], timeout=30) as client:
                page = client.get(f"/p/{token}").text
                form = next(f for f in forms_on(page) if f["hidden"].get("move") == "voyage")
                data = {**form["hidden"], "sea": "mediterranean", "stars": "4", "cards": "5,M,3,2"}
                posted["status"] = client.post(form["action"].replace("{token}", token), data=data).status_code

        phone = threading.Thread(target=tap)
        phone.start()
        while phone.is_alive():
            sh._pump(0.2)
        assert posted.get("status") in (200, 303), posted
        sh.wait_for("worth 15")
        said = "From Bartholomeus's phone: Bartholomeus staged a Mediterranean voyage worth 15 (5 M 3 2), 4-star class."
        assert len(said) > 60
        words = sh.text().split()
        assert all(word in words for word in said.split()), sh.text()  # no word cut in two
        os.write(sh.master, b"serve --stop\r")
        sh.wait_for("stopped")


@pytest.mark.parametrize("columns", [80, 60])
def test_the_values_the_phones_will_ask_break_between_words(home, columns):
    """`new` lists the printed values still unknown, a line per group, before it offers the
    set-up (issue 31); those lines went out unwrapped, and a terminal of 60 columns broke them
    inside their words ("special cards that nam" / "e a colour")."""
    from pty_support import Shell

    with Shell(home, columns=columns, rows=60) as shell:
        shell.type("new trans-amerika --players Ann,Bob,Cy --start Bob", until="Enter to")
        shell.type("", until="[y/N]")  # no words for the shuffle
        shell.type("n", until="companion>")
        rows = shell.text().splitlines()
    listed = [row for row in rows if row.startswith("  - ")]
    assert any(row.startswith("  - colour_aliases") for row in listed), rows
    # a row the terminal broke is full to the last column and goes on at the next row's start;
    # a single word (the deal's fingerprint) may only break so
    broken = [f"{a}|{b}" for a, b in zip(rows, rows[1:])
              if len(a) == columns and " " in a.strip() and b and not b.startswith(" ")
              and not a.startswith("companion> ")]  # what was typed is the terminal's to show
    assert broken == [], "\n".join(rows)
