"""A long evening never breaks a page or a report (issue 29, item 2).

Before: a finished play whose BG Stats link was longer than a QR code holds (6 players and 12
notes: 3,830 characters, against the 2,953 bytes of the largest code) made `report --html` write
nothing and exit 1, `report` on a terminal end with "Something went wrong inside companion", and
the TV's table page answer 500, its live stream never sent the final page. Now the link carries
the comments' first 280 characters, so such a play fits a code again; a link still too long
(six long names in a script of three bytes a letter) is given as a link alone, with the reason
in one line, on every surface."""

from __future__ import annotations

import html
import json
import re
from urllib.parse import parse_qs, urlsplit

from live_support import Served, Stream, companion, get

from companion.record import bgstats

LONG_NAMES = [f"李雷韩梅梅王小明张伟刘洋陈静杨帆{i}Ünï" for i in range(6)]  # 20 characters each
GERMAN = ["Maximiliane Müllerin", "Bartholomäus Jürgens", "Anneliese Großkreutz", "Friederike Hohenstau",
          "Wolfgang Überreiter", "Zoë Björnsdóttir-Ør"]
NOTE = ("Runde {n}: Die Barbaren greifen an, Ritter verteidigen Städte & Metropolen; große Diskussion über "
        "Regeln ö ä ü ß")


def note(n: int) -> str:
    """A note of exactly 200 characters, unicode in it, numbered."""
    return (f"Note {n}: Ünïcödé 李雷 Björn's harbour scored after the check; " * 5)[:200]


def evening(run, players: list[str], notes: list[str]) -> str:
    run(["new", "scoresheet", "--players", ",".join(players), "--location", "Küche, 3. Stock"], expect=0)
    run(["add", *(f"{p}={i}" for i, p in enumerate(players, 1))], expect=0)
    for text in notes:
        run(["note", "--", text], expect=0)
    run(["finish"], expect=0)
    return json.loads(run(["status", "--json"], expect=0).stdout)["session"]


def from_link(link: str) -> dict:
    return json.loads(parse_qs(urlsplit(link).query)["data"][0])


def test_the_link_carries_the_first_280_characters_of_the_comments(run):
    """The ecosystem round's play (3,830 characters before) now fits a code; the export keeps
    every note, and a short play's notes go whole."""
    sid = evening(run, GERMAN, [NOTE.format(n=n) for n in range(1, 13)])
    link = run(["export", sid, "--format", "bgstats-link"], expect=0).stdout.strip()
    full = json.loads(run(["export", sid, "--format", "bgstats"], expect=0).stdout)
    carried = from_link(link)["comments"]
    assert len(carried) <= bgstats.COMMENTS_KEPT and carried.endswith(bgstats.MORE)
    assert full["comments"].startswith(carried[:-len(bgstats.MORE)])
    assert full["comments"].count("Runde") == 12, "the export has every note"
    assert bgstats.too_long(link) is None and bgstats.qr_svg(link), f"{len(link)} characters fit a code"
    assert {k: v for k, v in from_link(link).items() if k != "comments"} == \
        {k: v for k, v in full.items() if k != "comments"}

    short = evening(run, ["Ann", "Bob"], ["Close game!", "Bob forgot a road."])
    link = run(["export", short, "--format", "bgstats-link"], expect=0).stdout.strip()
    assert from_link(link)["comments"] == "Close game!\nBob forgot a road."


def test_a_link_too_long_for_a_code_is_given_as_a_link_with_the_reason(run, home, tmp_path):
    """6 long unicode names, 50 notes of 200 characters: report, report --html and the TV's
    page (a real server) all render, the link alone and why."""
    sid = evening(run, LONG_NAMES, [note(n) for n in range(50)])
    link = run(["export", sid, "--format", "bgstats-link"], expect=0).stdout.strip()
    assert len(link) > bgstats.QR_BYTES and bgstats.qr(link) is None
    why = bgstats.too_long(link)
    assert why.startswith("This link is too long for a QR code (") and "\n" not in why

    out = run(["report", sid], expect=0)
    assert link in out.stdout.splitlines() and "too long for a QR code" in out.stdout and not out.stderr

    page = tmp_path / "long.html"
    run(["report", sid, "--html", str(page)], expect=0)
    text = page.read_text(encoding="utf-8")
    assert f'href="{html.escape(link)}"' in text and html.escape(why) in text
    assert "<svg" not in text.split("Add to BG Stats")[1].split("<h2>")[0], "no code"
    assert all(html.escape(n) in text for n in LONG_NAMES)

    from pty_support import run_command

    shown = run_command(["report", sid], home, columns=100, rows=400)
    said = " ".join(shown.lines)
    assert "too long for a QR code" in said and "Something went wrong" not in said

    with Served(home, players=LONG_NAMES) as srv:
        status, _headers, body = get(srv.host, srv.port, srv.path(None))
        table = body.decode()
        assert status == 200 and "The game is over" in table
        assert f'href="{html.escape(link)}"' in table and "too long for a QR code" in table
        assert get(srv.host, srv.port, srv.path(None) + "/v")[0] == 200
        status, _headers, body = get(srv.host, srv.port, srv.path(LONG_NAMES[0]))
        assert status == 200 and f'href="{html.escape(link)}"' in body.decode()
    assert not (home / ".local" / "errors.log").exists()


def test_the_tv_is_sent_its_final_page_when_the_long_evening_ends(run, home):
    """The table's live stream, open while the last note and `finish` are typed, is sent the
    final page (before: the stream broke, and the TV kept the page before the end)."""
    run(["new", "scoresheet", "--players", ",".join(LONG_NAMES)], expect=0)
    run(["add", f"{LONG_NAMES[0]}=3"], expect=0)
    for n in range(50):
        run(["note", "--", note(n)], expect=0)
    with Served(home, players=LONG_NAMES) as srv:
        version = get(srv.host, srv.port, srv.path(None) + "/v")[2].decode()
        stream = Stream(srv.host, srv.port, srv.path(None), since=version)
        try:
            companion(home, "finish")
            _version, page = stream.page(timeout=20)
        finally:
            stream.close()
        assert "The game is over" in page and "too long for a QR code" in page
    assert not (home / ".local" / "errors.log").exists()
