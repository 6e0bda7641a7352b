"""The small things a player met (issue 31, item 9), each with its test: what to tick when Buy
is sent with nothing ticked, "an orange city", pages that name no laptop command, a score
sheet's pages under its own title, the TV's start markers with the label the board prints,
and the round-by-round table within a phone's width."""

from __future__ import annotations

from html import escape

import json
import time

import browser_support as b
from serve_support import PLAYERS, forms_on, post_move, site_and_client, transatlantic_cards


def sid_of(run) -> str:
    return json.loads(run(["status", "--json"], expect=0).stdout)["session"]


def test_buy_with_nothing_ticked_says_what_to_tick(run, home):
    transatlantic_cards(run)
    run(["new", "transatlantic", "--players", "Ann,Bob"], expect=0)
    run(["own", "Ann", "ARIEL"], expect=0)
    run(["own", "Bob", "SIRIUS"], expect=0)
    run(["reveal", "NUBIAN", "DEVONIA"], expect=0)
    due = json.loads(run(["status", "--json"], expect=0).stdout)["opening_due"]
    _site, client, links = site_and_client(home, sid_of(run), ["Ann", "Bob"])
    refused = post_move(client, links[due], "buy", {})
    assert refused.status_code == 400
    import re
    said = re.findall(r"<section class=\"wide error\"><p>([^<]*)", refused.text)
    form = next(f for f in forms_on(client.get(f"/p/{links[due]}").text) if f["hidden"].get("move") == "buy")
    if form["boxes"]:  # tick boxes (one or two ships): what to tick
        assert said == ["Tick the ships you buy (one or more), then tap “Buy”."], said
    else:  # the opening purchase: one ship, chosen from the list
        assert said == ["Choose the ships you buy, then tap “Buy”."], said
    assert "fill in the form and send it again" not in refused.text


def test_an_orange_city_takes_an():
    from companion.games.trans import screens

    class Game:  # the rules' one question here: is Ann to choose now? (yes)
        @staticmethod
        def waiting(state):
            return ["Ann"]

    def title(colour: str) -> str:
        state = {"round_open": True, "pending": {"kind": "pass-colour", "colour": colour, "next": 0,
                                                 "order": ["Ann", "Bob"]}}
        return screens.choice_words(Game, state, {}, "Ann")[0]

    assert title("orange") == "Pass an orange city"
    assert title("yellow") == "Pass a yellow city"


def test_a_score_sheets_pages_say_its_title_and_no_laptop_command(run, home):
    run(["new", "scoresheet", "--title", "Carcassonne", "--players", "Ann,Bob,Cy"], expect=0)
    run(["add", "Ann=12", "Bob=7", "Cy=9"], expect=0)
    run(["score", "Ann", "3"], expect=0)
    _site, client, links = site_and_client(home, sid_of(run), ["Ann", "Bob", "Cy"])
    table = client.get(f"/t/{links['table']}").text
    bob = client.get(f"/p/{links['Bob']}").text
    assert "<h1>Carcassonne: the table</h1>" in table and "Bob · Carcassonne</h1>" in bob
    assert "Carcassonne: join the table" in client.get(f"/t/{links['table']}/join").text
    for page in (table, bob):
        assert "score NAME POINTS" not in page and "<code>finish" not in page and "add NAME=POINTS" not in page
    assert "score NAME POINTS" in run(["status"], expect=0).stdout  # the laptop still says it


def test_a_loan_preview_on_a_phone_names_no_laptop_command(script, run, home):
    code, _out, err = script("new atlantic-star --players Ann,Bob --agency Rhea,Oceana,Titan,Ceres\n"
                             "charter Ann 0\ncharter Bob 0\ncharter Ann 0\ncharter Bob 0\ncharter Ann 0\n"
                             "charter Bob 0\nvoyage Ann baltic --cards 5,M,3 --class 1\n")
    assert code == 0, err
    said = run(["loan", "Ann", "baltic", "3000", "--preview"], expect=None)
    text = said.stdout + said.stderr
    assert "companion data set" not in text
    if "victory points are not known yet" in text:
        assert "they are asked when the game first needs them" in text


def test_the_tvs_start_markers_name_their_cities(run, home):
    """The table's "Start" column names the city a marker stands on ("Kansas City"), not the
    board's three-letter mark ("KaC"): a marker is on the board for everyone to see, so its
    city's name tells nothing the board does not."""
    from companion.core import session as sessions
    from companion.core.store import Store

    run(["new", "trans-europa", "--players", ",".join(PLAYERS)], expect=0)
    run(["round", "start"], expect=0)
    sid = sid_of(run)
    s = sessions.load(Store(home), sid)
    state = s.replay().state
    game = s.game
    board = game.board_of(s.replay().data)
    due = game.marker_due(state)
    city = game.hand_of(state, due)[0]
    run(["start", due, city], expect=0)
    _site, client, links = site_and_client(home, sid, PLAYERS)
    table = client.get(f"/t/{links['table']}").text
    spot = next(c for c in board.cities if c.name == city)
    assert f"<td>{escape(city)}</td>" in table
    assert f"({spot.abbr})" not in table


def test_the_rounds_so_far_fit_a_phones_width(run, home):
    run(["new", "trans-europa", "--players", ",".join(PLAYERS)], expect=0)
    for _ in range(3):
        run(["round", "start"], expect=0)
        run(["round", "end", "--winner", "Dan", "--missing", "Ann=5", "--missing", "Bob=12", "--missing", "Cy=4"],
            expect=0)
    proc, links = b.serve(home, PLAYERS)
    web = b.phone()
    try:
        web.get(links["Ann"])
        time.sleep(0.3)
        widths = web.execute_script(
            "var t = Array.from(document.querySelectorAll('table')).find(function(t){"
            " var s = t.closest('section'); return s && s.innerText.indexOf('The rounds so far') >= 0; });"
            "var box = t.parentElement; return [t.scrollWidth, box.clientWidth, document.documentElement.scrollWidth,"
            " window.innerWidth];")
        assert widths[0] <= widths[1] and widths[2] <= widths[3], widths
        assert "+4 ✓" in b.body_text(web)
    finally:
        b.quit_chrome(web)
        b.stop(proc)
