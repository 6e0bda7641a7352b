"""`report ID --html FILE` and `stats --html FILE`: one self-contained page with an SVG chart.

The page is parsed back (no script, nothing loaded from anywhere, the chart's lines match the
scores), and rendered in headless Chromium when one is installed, to see the chart drawn.
"""

from __future__ import annotations

import json
import re
import struct
import zlib
from html.parser import HTMLParser
from xml.etree import ElementTree as ET

import pytest

from companion.record.report import PALETTE, nice_ticks

try:
    from test_exchange_json import SCRIPTS, new_command_or_skip
except ImportError:  # tests/ imported as a package
    from tests.test_exchange_json import SCRIPTS, new_command_or_skip

SVG = "{http://www.w3.org/2000/svg}"


class Page(HTMLParser):
    """Every tag with its attributes, and the page's text."""

    def __init__(self, text: str):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def self_contained(text: str) -> Page:
    page = Page(text)
    names = [t for t, _ in page.tags]
    assert "script" not in names and "iframe" not in names and "link" not in names and "img" not in names
    for tag, attrs in page.tags:
        if tag == "a" and attrs.get("href", "").startswith("https://app.bgstatsapp.com/createPlay.html?data="):
            continue  # "Add to BG Stats" (issue 23): a link the reader may follow; the page loads nothing
        for key in ("src", "href"):
            assert key not in attrs, (tag, attrs)
        assert not any(k.startswith("on") for k in attrs), (tag, attrs)
    csp = next(a["content"] for t, a in page.tags if t == "meta" and a.get("http-equiv") == "Content-Security-Policy")
    assert "default-src 'none'" in csp
    assert "url(" not in text and "@import" not in text
    return page


def charts(text: str) -> list[ET.Element]:
    """Every inline SVG chart of the page, parsed as XML (not the "Add to BG Stats" QR code)."""
    return [ET.fromstring(m) for m in re.findall(r"<svg\b.*?</svg>", text, flags=re.S) if 'class="chart"' in m]


def lines(svg: ET.Element) -> dict[str, list[tuple[float, float]]]:
    out = {}
    for g in svg.iter(f"{SVG}g"):
        if g.get("class") == "series":
            points = []
            for poly in g.iter(f"{SVG}polyline"):
                points += [tuple(map(float, p.split(","))) for p in poly.get("points").split()]
            out[g.get("data-player")] = points
    return out


def game(run, players="Ann,Bob,Cy", *rounds):
    sid = run(["new", "scoresheet", "--players", players], expect=0).stdout.split()[2].rstrip(":")
    for r in rounds:
        run(["add", *r.split()], expect=0)
    return sid


def test_session_report_has_scores_winners_chart_and_log(run, tmp_path):
    sid = game(run, "Ann,Bob,Cy", "Ann=3 Bob=6 Cy=1", "Ann=6 Bob=5 Cy=2", "Ann=9 Bob=4 Cy=3")
    run(["finish"], expect=0)
    out = tmp_path / "report.html"
    result = run(["report", sid[:5], "--html", str(out)], expect=0)
    assert result.stdout == f"Wrote the report of session {sid} (Score sheet) to {out}.\n"
    text = out.read_text(encoding="utf-8")
    page = self_contained(text)
    words = " ".join(page.text)
    assert "Score sheet" in words and sid in words and "Won by Ann." in words
    rows = re.findall(r"<tr>(.*?)</tr>", text, flags=re.S)
    cells = [re.sub(r"<[^>]+>", "", r) for r in rows]
    assert any("Ann" in c and "18" in c and "winner" in c for c in cells)
    assert any("Bob" in c and "15" in c for c in cells)
    assert [t for t, _ in page.tags].count("li") == 4, "three rounds and the finish, in words"
    assert "round scored: Ann +3, Bob +6, Cy +1" in words
    (chart,) = charts(text)
    series = lines(chart)
    assert list(series) == ["Ann", "Bob", "Cy"]
    assert all(len(points) == 4 for points in series.values()), "the start and three rounds"
    ann, bob = series["Ann"], series["Bob"]
    # SVG y grows downwards: Bob leads after round 1, Ann after round 3
    assert bob[1][1] < ann[1][1] and ann[3][1] < bob[3][1]
    assert ann[0] == bob[0], "everyone starts at 0"
    labels = [t.text for t in chart.iter(f"{SVG}text")]
    assert {"start", "R1", "R2", "R3", "round"} <= set(labels)


def test_names_and_words_are_escaped(run, tmp_path):
    game(run, "<b>Ann</b>,Bob&Co", "<b>Ann</b>=2")
    run(["report", "--html", str(tmp_path / "r.html")], expect=0)
    text = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "<b>" not in text and "&lt;b&gt;Ann&lt;/b&gt;" in text and "Bob&amp;Co" in text
    charts(text)  # still well-formed XML


def test_report_in_the_terminal(run):
    game(run, "Ann,Bob", "Ann=3 Bob=1", "Ann=1 Bob=5")
    out = run(["report"], expect=0).stdout
    assert "In play: no winner yet." in out
    assert "round scored: Ann +3, Bob +1" in out
    assert re.search(r"Bob\s+6", out) and ("▁" in out or "█" in out)


def test_report_refusals(run, tmp_path):
    assert "No current session" in run(["report"], expect=1).stderr
    game(run, "Ann,Bob", "Ann=1")
    assert "No session starts with 'zz9'" in run(["report", "zz9"], expect=1).stderr
    assert "is a folder" in run(["report", "--html", str(tmp_path)], expect=1).stderr


def test_a_renamed_player_shows_with_the_recorded_name(run, tmp_path):
    game(run, "Ann,Bbo", "Ann=1 Bbo=2")
    run(["player", "rename", "Bbo", "Bob"], expect=0)
    run(["report", "--html", str(tmp_path / "r.html")], expect=0)
    text = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "Bob <small>(recorded as Bbo)</small>" in text
    assert list(lines(charts(text)[0])) == ["Ann", "Bob"]


@pytest.mark.parametrize("game_id", list(SCRIPTS))
def test_every_game_gets_a_report_with_a_line_per_player(run, home, tmp_path, game_id):
    new_command_or_skip(game_id)
    for args in SCRIPTS[game_id]:
        run(args, expect=0)
    out = tmp_path / "r.html"
    run(["report", "--html", str(out)], expect=0)
    text = out.read_text(encoding="utf-8")
    self_contained(text)
    status = json.loads(run(["status", "--json"], expect=0).stdout)
    (chart,) = charts(text)
    assert list(lines(chart)) == [p["name"] for p in status["players"]]
    log = json.loads(run(["log", "--json"], expect=0).stdout)
    assert Page(text).tags.count(("li", {})) == len(log)


def test_stats_page_has_win_rate_bars_and_tables(run, tmp_path):
    game(run, "Ann,Bob", "Ann=3 Bob=1")
    run(["finish"], expect=0)
    game(run, "Ann,Bob", "Ann=1 Bob=4")
    run(["finish"], expect=0)
    game(run, "Ann,Cy", "Ann=5 Cy=4")
    run(["finish"], expect=0)
    game(run, "Ann,Cy", "Cy=1")
    out = tmp_path / "stats.html"
    assert "Wrote the statistics of 3 finished sessions" in run(["stats", "--html", str(out)], expect=0).stdout
    text = out.read_text(encoding="utf-8")
    page = self_contained(text)
    words = " ".join(page.text)
    assert "Head to head" in words and "In play (not counted)" in words and "record score" in words
    bars, recent = charts(text)
    widths = {}
    for rect in bars.iter(f"{SVG}rect"):
        if rect.get("class") == "bar":
            widths[rect.find(f"{SVG}title").text.split(":")[0]] = float(rect.get("width"))
    assert widths["Ann"] / widths["Bob"] == pytest.approx((2 / 3) / (1 / 2), rel=0.01)
    assert widths["Cy"] == 0
    assert set(lines(recent)) == {"Ann", "Bob", "Cy"}


def test_nice_ticks_are_round_and_cover_the_range():
    assert nice_ticks(0, 45) == [0, 10, 20, 30, 40, 50]
    assert nice_ticks(-7, 13) == [-10, -5, 0, 5, 10, 15]
    ticks = nice_ticks(5, 5)
    assert ticks[0] <= 5 <= ticks[-1]


# -- in a real browser ---------------------------------------------------------------------


def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """(width, height, rows of RGB(A) bytes) of an 8-bit non-interlaced PNG, as Chromium writes."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and interlace == 0
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 0xFF
            elif f == 2:
                line[i] = (line[i] + b) & 0xFF
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(bytes(line))
        prev = line
    return width, bpp, rows


def count_colour(image, hex_colour: str) -> int:
    width, bpp, rows = image
    rgb = bytes.fromhex(hex_colour.lstrip("#"))
    return sum(1 for row in rows for x in range(width) if row[x * bpp:x * bpp + 3] == rgb)


def test_the_chart_is_drawn_in_headless_chromium(run, tmp_path):
    """The report opened in the kept headless Chromium (tests/browser_support.py) at 1000x1000:
    the chart's own box, as the browser paints it, holds each player's line (the screenshot is
    of that box only: fewer pixels to read back)."""
    import base64

    from browser_support import chrome, quit_chrome

    game(run, "Ann,Bob", "Ann=3 Bob=9", "Ann=12 Bob=1", "Ann=2 Bob=8", "Ann=9 Bob=0")
    page = tmp_path / "report.html"
    run(["report", "--html", str(page)], expect=0)
    web = chrome(1000, 1000)
    try:
        web.get(page.as_uri())
        box = web.execute_script("var r = document.querySelector('svg.chart').getBoundingClientRect();"
                                 "return [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height]")
        shot = web.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": box[0], "y": box[1], "width": box[2], "height": box[3], "scale": 1}})
    finally:
        quit_chrome(web)
    image = png_pixels(base64.b64decode(shot["data"]))
    ann, bob = count_colour(image, PALETTE[0]), count_colour(image, PALETTE[1])
    # a line four rounds long, 3 px wide, covers far more than the legend's 16 x 3 px and the
    # table's swatch; an undrawn chart would leave only those
    assert ann > 800 and bob > 800, (ann, bob)


def test_the_chart_follows_each_player_when_the_game_turns_the_seats(run, tmp_path):
    """Seed 002: "The owner of the oldest ship becomes the starting player", so Transatlantic
    seats Bob first once the sailing ships are known; each line must stay with its player."""
    run(["ship", "add", "ARIEL", "--year", "1865", "--flag", "none", "--kind", "sail"], expect=0)  # TEST values
    run(["ship", "add", "SIRIUS", "--year", "1838", "--flag", "none", "--kind", "sail"], expect=0)
    run(["new", "transatlantic", "--players", "Ann,Bob"], expect=0)
    run(["own", "Ann", "ARIEL"], expect=0)
    run(["own", "Bob", "SIRIUS"], expect=0)  # the oldest ship: Bob starts, the seats turn
    run(["vp", "Ann", "5"], expect=0)
    out = tmp_path / "r.html"
    run(["report", "--html", str(out)], expect=0)
    text = out.read_text(encoding="utf-8")
    (chart,) = charts(text)
    series = lines(chart)
    assert list(series) == ["Bob", "Ann"], "the seats as the table shows them"
    ann, bob = series["Ann"], series["Bob"]
    assert ann[-1][1] < bob[-1][1], "Ann's 5 VP is Ann's line, not Bob's (SVG y grows downwards)"
    swatches = re.findall(r'class="swatch" style="background:(#[0-9a-fA-F]+)"', text)
    colours = {g.get("data-player"): g.get("stroke") or next(
        (p.get("stroke") for p in g.iter(f"{SVG}polyline")), None)
        for g in chart.iter(f"{SVG}g") if g.get("class") == "series"}
    assert [colours["Bob"], colours["Ann"]] == swatches[:2], "each line in its player's colour"
