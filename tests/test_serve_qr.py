"""The links' QR codes (issue 21 item 7): dark on light in explicit colours with a 4-module
quiet zone, so that a terminal's theme does not matter, read back with zbarimg as a light and a
dark terminal show them; and `serve --qr-dir` writing each code as a PNG or SVG file."""

from __future__ import annotations

import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import time

import pytest

from serve_support import PLAYERS, new_trans, read_pty_until

pyte = pytest.importorskip("pyte")
ZBAR = shutil.which("zbarimg")
needs_zbar = pytest.mark.skipif(ZBAR is None, reason="zbarimg is missing: apt-get install -y zbar-tools")
LAN_LINK = "http://192.168.100.200:65535/p/" + "AbCdEfGhIjKlMnOpQrStUvWx"  # the longest LAN link: 55 characters
THEMES = {"light": (0, 255), "dark": (255, 0)}  # the terminal's own (foreground, background)


def screen_of(text: str, columns: int = 80) -> "pyte.Screen":
    screen = pyte.Screen(columns, text.count("\n") + 2)
    pyte.Stream(screen).feed(text.replace("\r\n", "\n").replace("\n", "\r\n"))
    return screen


def _level(colour: str, default: int) -> int:
    if colour == "default":
        return default
    try:
        return sum(int(colour[i:i + 2], 16) for i in (0, 2, 4)) // 3
    except ValueError:  # a colour name of the first 16
        return {"black": 0, "white": 255}.get(colour, 128)


def picture(screen, rows: range, columns: range, theme: str, path, scale: int = 6) -> None:
    """The cells of a terminal screen as a person sees them in ``theme``: each cell two modules
    (its upper and lower half), in its colours or the theme's own; written as a PGM image
    with the theme's background around it."""
    fg0, bg0 = THEMES[theme]
    pixels = []
    for y in rows:
        top, bottom = [], []
        for x in columns:
            cell = screen.buffer[y][x]
            fg, bg = _level(cell.fg, fg0), _level(cell.bg, bg0)
            if cell.reverse:
                fg, bg = bg, fg
            top.append(fg if cell.data in "▀█" else bg)
            bottom.append(fg if cell.data in "▄█" else bg)
        pixels += [top, bottom]
    pad = 4 * scale
    width = len(pixels[0]) * scale + 2 * pad
    data = bytearray(bytes([bg0]) * width * pad)
    for row in pixels:
        line = bytes([bg0]) * pad + b"".join(bytes([v]) * scale for v in row) + bytes([bg0]) * pad
        data += line * scale
    data += bytes([bg0]) * width * pad
    height = len(pixels) * scale + 2 * pad
    path.write_bytes(f"P5 {width} {height} 255\n".encode() + bytes(data))


def decoded(path) -> str | None:
    """What zbarimg reads in an image, the link's scheme and host as a browser writes them
    (lower case: the code holds them in capitals, which are the same address)."""
    result = subprocess.run([ZBAR, "-q", "--raw", str(path)], capture_output=True, text=True, timeout=30)
    if result.returncode != 0:
        return None
    text = result.stdout.strip()
    head, sep, rest = text.partition("://")
    host, slash, path = rest.partition("/")
    return f"{head.lower()}{sep}{host.lower()}{slash}{path}" if sep else text


def code_rows(screen) -> list[int]:
    """The rows of the screen holding a code's half blocks."""
    return [y for y in range(screen.lines) if "▀" in "".join(screen.buffer[y][x].data for x in range(screen.columns))]


def reads_in_every_theme(screen, link: str, stem) -> None:
    """The code drawn on ``screen``, pictured as a light and as a dark terminal shows it,
    scans as ``link`` in each (zbarimg)."""
    rows = code_rows(screen)
    for theme in THEMES:
        path = stem.with_name(f"{stem.name}-{theme}.pgm")
        picture(screen, range(rows[0], rows[-1] + 1), range(60), theme, path)
        assert decoded(path) == link, theme


def test_a_code_has_a_four_module_quiet_zone_and_fits_an_80x24_private_screen():
    from companion.web.command import QUIET, qr_matrix

    rows = qr_matrix(LAN_LINK)
    assert QUIET == 4
    assert all(not any(row) for row in rows[:4] + rows[-4:])
    assert all(not any(row[:4]) and not any(row[-4:]) for row in rows)
    assert len(rows) == 37  # version 3 and its quiet zone: 19 terminal rows


@needs_zbar
@pytest.mark.parametrize("theme", THEMES)
def test_the_terminal_code_reads_on_a_light_and_on_a_dark_terminal(theme, tmp_path):
    from companion.web.command import qr_text

    text = qr_text(LAN_LINK, colour=True)
    assert "\x1b[38;5;16;48;5;231m" in text or "\x1b[38;5;231;48;5;16m" in text  # explicit dark and light
    screen = screen_of(text)
    picture(screen, range(len(text.split("\n"))), range(40), theme, tmp_path / "code.pgm")
    assert decoded(tmp_path / "code.pgm") == LAN_LINK


@needs_zbar
def test_under_no_color_the_code_is_drawn_in_the_terminals_own_colours(tmp_path):
    """No colour: right on a light terminal (the docs say so, and point to --qr-dir)."""
    from companion.web.command import qr_text

    text = qr_text(LAN_LINK, colour=False)
    assert "\x1b" not in text
    picture(screen_of(text), range(len(text.split("\n"))), range(40), "light", tmp_path / "code.pgm")
    assert decoded(tmp_path / "code.pgm") == LAN_LINK


@needs_zbar
def test_serve_on_a_real_terminal_shows_codes_that_scan_in_both_themes(run, home, tmp_path):
    pty = pytest.importorskip("pty")
    new_trans(run, special=None)
    main, child = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env.update(COMPANION_HOME=str(home), COLUMNS="80", LINES="24", TERM="xterm-256color")
    proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--port", "0", "--player-codes"], stdin=child,
                            stdout=child, stderr=child, env=env, start_new_session=True)
    os.close(child)
    try:
        # both screens read first, every question of the terminal answered at once; the codes
        # decoded after (decoding the first before pressing Enter left the prompt waiting for
        # its answer on a busy machine, and it printed a warning over the next screen)
        shared = read_pty_until(main, "Pass the laptop to Ann")
        os.write(main, b"\r")
        private = read_pty_until(main, "Press Enter to hide")
        table = re.search(r"http://127\.0\.0\.1:\d+/t/\S+/join", shared).group(0)  # the table's one code
        reads_in_every_theme(screen_of(shared), table, tmp_path / "table")
        shown = private[private.rfind("\x1b[2J"):]
        # the code, its link and the prompt fit 80x24 (counted to the prompt: the test's terminal
        # answers every cursor question "row 1", and prompt_toolkit, told so before it draws on a
        # busy machine, makes room below a prompt it believes to be at the top)
        drawn = shown[:shown.index("Press Enter to hide")]
        assert "WARNING" not in private and drawn.count("\n") + 1 <= 24
        ann = re.search(r"http://127\.0\.0\.1:\d+/p/[A-Za-z0-9_-]+", shown).group(0)
        reads_in_every_theme(screen_of(shown), ann, tmp_path / "ann")
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        os.close(main)


# -- the codes as files -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One `companion serve` for the tests of the codes as files, which only read its links
    (`serve --links` writes no session and no link): (its data folder, the session's id, {who:
    url}). Issue 29, item 7: a server each before."""
    from click.testing import CliRunner

    from browser_support import serve, stop
    from companion.terminal.cli import cli

    folder = tmp_path_factory.mktemp("qr-files") / "home"

    def run(args, expect=None):
        result = CliRunner().invoke(cli, ["--data-dir", str(folder), *args], catch_exceptions=False)
        assert expect is None or result.exit_code == expect, result.output
        return result

    sid = new_trans(run, special=None)
    proc, links = serve(folder, PLAYERS)
    try:
        yield folder, sid, links
    finally:
        stop(proc)


@needs_zbar
@pytest.mark.parametrize("fmt", ["png", "svg"])
def test_serve_links_writes_each_code_as_a_file(run, served, tmp_path, fmt):
    home, sid, links = served
    there = ["--data-dir", str(home)]
    out = tmp_path / "codes"
    out.mkdir()
    result = run([*there, "serve", "--links", "--qr-dir", str(out), "--qr-format", fmt], expect=0)
    files = sorted(out.iterdir())
    assert [f.name for f in files] == sorted(f"{sid}-{who}.{fmt}" for who in ["join", "table", *PLAYERS])
    assert "Wrote 6 QR codes" in result.output
    # the table's code (issue 31), its file named on the line after what it is
    lines = result.output.splitlines()
    said = lines.index("The table's code, which every phone scans to choose who it is:")
    assert lines[said + 1].strip() == str(out / f"{sid}-join.{fmt}")
    assert str(out / f"{sid}-Ann.{fmt}") in lines[lines.index("Ann's own:") + 1]
    for f in files:
        assert stat.S_IMODE(f.stat().st_mode) == 0o600  # each holds a private link
    if fmt == "png":
        for who in ["table", *PLAYERS]:
            assert decoded(out / f"{sid}-{who}.png") == links[who]
        assert decoded(out / f"{sid}-join.png") == links["table"] + "/join"
    else:
        text = (out / f"{sid}-Ann.svg").read_text()
        assert text.lstrip().startswith("<?xml") or text.lstrip().startswith("<svg")
        assert 'fill="#fff"' in text or "#fff" in text  # the light background is drawn, not left out
    again = run([*there, "serve", "--links", "--qr-dir", str(out), "--qr-format", fmt], expect=1)
    assert "exists already" in again.output
    assert run([*there, "serve", "--links", "--qr-dir", str(out), "--qr-format", fmt, "--force"], expect=0)


def test_codes_are_never_written_inside_the_data_folder(run, served):
    home, _sid, _links = served
    there = ["--data-dir", str(home)]
    refused = run([*there, "serve", "--links", "--qr-dir", str(home)], expect=1)
    assert "inside the data folder" in refused.output
    assert not list(home.glob("*.svg"))
    assert "go with --qr-dir" in run([*there, "serve", "--links", "--force"], expect=2).output
