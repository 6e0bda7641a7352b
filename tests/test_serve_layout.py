"""Every page as a phone and a TV show it (issue 21 items 5 and 6), in headless Chromium: no
horizontal overflow at 360 px on any page of any game, board labels never cut off, each
player's colour the same everywhere, no violation axe-core finds (on the table's and one
player's pages of each game, every page with COMPANION_LONG_TESTS=1), and a TV page that reads from
across the room (scores at least 4% of the screen's height, the screen used, the final score
broken down, no private card)."""

from __future__ import annotations

import json

import pytest
from long_mode import LONG

from axe_support import summary, violations
from browser_support import body_text, phone, quit_chrome, serve, stop

NARROW = 360  # CSS px: the narrowest phone the issue names


def status_of(run) -> dict:
    return json.loads(run(["status", "--json"], expect=0).stdout)


def trans_mid_round(run):
    run(["new", "trans-amerika", "--players", "Ann,Bob,Cy,Dee,Eve,Flo", "--entropy", "x"], expect=0)
    run(["round", "start"], expect=0)
    for p, n in (("Ann", "Boston"), ("Bob", "Seattle"), ("Cy", "Jacksonville"),
                 ("Dee", "San Diego"), ("Eve", "Duluth"), ("Flo", "New York")):
        run(["start", p, n], expect=0)
    run(["build", "Ann", "Boston-Q3"], expect=None)
    return ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"]


def transatlantic(run):
    for args in (["ship", "add", "ARIEL", "--year", "1865", "--flag", "none", "--kind", "sail"],
                 ["ship", "add", "SIRIUS", "--year", "1860", "--flag", "none", "--kind", "sail"],
                 ["ship", "add", "CITY OF NEW YORK", "--year", "1888", "--flag", "blue", "--price", "120"],
                 ["ship", "add", "KAISER WILHELM DER GROSSE", "--year", "1897", "--flag", "black", "--price", "150"],
                 ["ship", "add", "NUBIAN", "--year", "1875", "--flag", "white", "--price", "30"],
                 ["data", "set", "transatlantic", "market.surcharges", "[0, 10, 20, 30, 40, 50]"],  # TEST values
                 ["new", "transatlantic", "--players", "Bartholomew,Ann"],
                 ["own", "Bartholomew", "ARIEL"], ["own", "Ann", "SIRIUS"],
                 ["reveal", "CITY OF NEW YORK", "KAISER WILHELM DER GROSSE", "NUBIAN"]):
        run(args, expect=0)
    return ["Bartholomew", "Ann"]


def atlantic_star(run):
    for args in (["new", "atlantic-star", "--players", "Ann,Bob", "--agency", "Rhea,Oceana,Titan,Ceres"],
                 ["charter", "Ann", "0"], ["charter", "Bob", "0"], ["charter", "Ann", "0"], ["charter", "Bob", "0"],
                 ["charter", "Ann", "0"], ["charter", "Bob", "0"],
                 ["voyage", "Ann", "baltic", "--value", "12", "--class", "1"], ["voyage", "Bob", "baltic", "--value", "9"],
                 ["loan", "Ann", "baltic", "3000"]):
        run(args, expect=0)
    return ["Ann", "Bob"]


def scoresheet(run):
    players = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"]
    run(["new", "scoresheet", "--players", ",".join(players)], expect=0)
    for n in range(12):
        run(["add", *(f"{p}={(n * 7 + i * 3) % 23 - 5}" for i, p in enumerate(players))], expect=0)
    run(["score", "Ann", "4"], expect=0)
    return players


GAMES = {"trans": trans_mid_round, "transatlantic": transatlantic, "atlantic-star": atlantic_star,
         "scoresheet": scoresheet}


def overflow(web) -> list[str]:
    """What runs off a page at its width: the page itself, and every element wider than the
    window or cut by its own box (a scrolled table hides its last column)."""
    return web.execute_script("""
        var out = [], width = document.documentElement.clientWidth;
        if (document.documentElement.scrollWidth > width) out.push('page ' + document.documentElement.scrollWidth);
        document.querySelectorAll('body *').forEach(function (el) {
          if (el.closest('.tapboard') || el.closest('svg')) return;  // the board to tap: fixed, inside its box
          var r = el.getBoundingClientRect();
          if (r.width && r.right > width + 0.5) out.push(el.tagName + '.' + el.className + ' right ' + r.right);
          if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible')
            out.push(el.tagName + '.' + el.className + ' cut ' + el.scrollWidth + '>' + el.clientWidth);
        });
        var t = document.querySelector('.tapboard');
        if (t && t.getBoundingClientRect().right > width + 0.5) out.push('tapboard ' + t.getBoundingClientRect().right);
        return out;""")


def clipped_labels(web) -> list[str]:
    """Board labels that run outside their drawing."""
    return web.execute_script("""
        var out = [];
        document.querySelectorAll('svg.board text').forEach(function (t) {
          var vb = t.ownerSVGElement.viewBox.baseVal, b = t.getBBox();
          if (b.x < vb.x - 0.5 || b.y < vb.y - 0.5 || b.x + b.width > vb.x + vb.width + 0.5 ||
              b.y + b.height > vb.y + vb.height + 0.5) out.push(t.textContent);
        });
        return out;""")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """``served(game)``: (data folder, players, links) of :data:`GAMES`'s ``game`` and its
    `serve`, made once for the module's tests, which only read its pages (issue 29, item 7: a
    folder made and served again took ~0.5 s of CPU); the servers stop with the module."""
    from live_support import companion

    made, procs = {}, []

    def get(game: str):
        if game not in made:
            home = tmp_path_factory.mktemp(f"layout-{game}") / "home"
            players = GAMES[game](lambda args, expect=None: companion(home, *args, check=expect == 0))
            proc, links = serve(home, players)
            procs.append(proc)
            made[game] = home, players, links
        return made[game]

    yield get
    for proc in procs:
        stop(proc)


@pytest.mark.parametrize("game", GAMES)
def test_no_page_overflows_a_360_px_phone_and_axe_finds_nothing(game, served):
    _home, players, links = served(game)
    web = phone(NARROW, 780)
    try:
        for n, who in enumerate(["table", *players]):
            web.get(links[who])
            assert overflow(web) == [], (game, who)
            assert clipped_labels(web) == [], (game, who)
            if LONG or n < 2:  # axe on the table's and a player's pages (the others are built alike)
                found = violations(web)
                assert found == [], f"{game} {who}:\n{summary(found)}"
    finally:
        quit_chrome(web)


def test_each_player_has_one_colour_on_every_page_on_the_board_and_in_reports(served, tmp_path):
    from companion.contract.view import PLAYER_COLOURS
    from live_support import companion

    home, players, links = served("transatlantic")
    status = json.loads(companion(home, "status", "--json").stdout)
    assert status["players"][0]["name"] == "Ann"  # Transatlantic turns its seats: Ann (the oldest ship) plays first
    web = phone()
    try:
        for who in ["table", *players]:
            web.get(links[who])
            dots = web.execute_script("""return Array.from(document.querySelectorAll('section.scores th')).map(
                function (th) { return [th.textContent.trim(), th.querySelector('circle').getAttribute('fill')]; });""")
            assert dict(dots) == {"Bartholomew": PLAYER_COLOURS[0], "Ann": PLAYER_COLOURS[1]}, who
    finally:
        quit_chrome(web)
    companion(home, "report", status["session"], "--html", str(tmp_path / "r.html"))
    html = (tmp_path / "r.html").read_text()
    assert f'background:{PLAYER_COLOURS[0]}"></span>Bartholomew' in html
    assert f'background:{PLAYER_COLOURS[1]}"></span>Ann' in html


def test_the_tv_page_reads_from_across_the_room(served):
    from live_support import companion

    home, _players, links = served("trans")  # Trans in the middle of its first round
    sid = json.loads(companion(home, "status", "--json").stdout)["session"]
    web = phone(1920, 1080)
    try:
        web.get(links["table"])
        sizes = web.execute_script("""return Array.from(document.querySelectorAll('section.scores td:not(.bar)'))
            .map(function (td) { return parseFloat(getComputedStyle(td).fontSize); });""")
        assert sizes and min(sizes) >= 0.04 * 1080  # scores at least 4% of the screen's height
        board = web.execute_script("return document.querySelector('svg.board').getBoundingClientRect().width")
        assert board >= 0.6 * 1920  # the game's public view large, the whole screen used
        from serve_support import hands
        from pathlib import Path

        text = body_text(web) + web.page_source
        # a start marker's city is public (on the board, and the shared screen says "Ann's start
        # marker is on Boston"): the TV names it (issue 31); every other card of a hand, never
        markers = {"Boston", "Seattle", "Jacksonville", "San Diego", "Duluth", "New York"}
        assert all(c in text for c in markers)
        for cities in hands(Path(home), sid).values():
            assert not any(c in text for c in cities if c not in markers)  # no private card, ever
        assert violations(web) == []
    finally:
        quit_chrome(web)


@pytest.mark.parametrize("game", ["trans", "transatlantic", "scoresheet"])
def test_the_tv_page_shows_the_final_score_broken_down(game, run, home):
    if game == "trans":
        players = ["Ann", "Bob", "Cy", "Dee"]
        run(["new", "trans-europa", "--players", ",".join(players)], expect=0)
        for _ in range(4):
            run(["round", "start"], expect=0)
            run(["round", "end", "--winner", "Ann", "--missing", "Bob=5", "--missing", "Cy=5", "--missing", "Dee=5"],
                expect=0)
        expected = ["The score, round by round", "Round 4", "+4 ✓", "+0 5 missing"]
    elif game == "transatlantic":
        players = transatlantic(run)
        for args in (["buy", "Bartholomew", "NUBIAN"], ["buy", "Ann", "KAISER WILHELM DER GROSSE"], ["stack-empty"],
                     ["final", "Ann", "--cash", "250", "--sheet", "black=3", "--rows", "1", "--next-row", "2"],
                     ["final", "Bartholomew", "--cash", "50", "--sheet", "white=2", "--rows", "0", "--next-row", "1"]):
            run(args, expect=0)
        expected = ["The final score", "Cash", "Next row", "Total"]  # one row a player (issue 31)
    else:
        players = scoresheet(run)
        run(["score", "Bob", "1"], expect=0)
        for p in ("Cy", "Dee", "Eve", "Flo"):
            run(["score", p, "0"], expect=0)
        run(["finish"], expect=0)
        expected = ["The score sheet", "Round", "Total"]
    assert status_of(run)["finished"]
    proc, links = serve(home, players)
    web = phone(1920, 1080)
    try:
        web.get(links["table"])
        text = body_text(web)
        assert "The game is over" in text
        for words in expected:
            assert words in text, words
        if LONG or game == "transatlantic":  # one finished TV by default (its score table is one row a player)
            assert violations(web) == []
    finally:
        quit_chrome(web)
        stop(proc)
