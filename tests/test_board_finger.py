"""A board that stays under the finger (issue 31, item 5): on a phone of 390x844 with touch, a
player's Trans board opens close around their own network, under "Build anywhere" only the
lines next to that network stand out, no two labels are drawn on top of each other, and a tap
on a player's own city places the marker though other junctions are as near. Screenshots
(looked at while this was written) are kept with ``COMPANION_SHOTS=DIR``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import browser_support
from browser_support import phone, quit_chrome, tap
from live_support import Served, companion, new_trans
from serve_support import hands



@pytest.fixture
def web():
    browser = phone()
    yield browser
    quit_chrome(browser)


def shot(web, name: str) -> None:
    browser_support.shot(web, f"board-{name}")


def status(home) -> dict:
    return json.loads(companion(home, "status", "--json").stdout)


def labels_apart(svg_texts: list[dict]) -> list[tuple[str, str]]:
    """The pairs of labels whose boxes (as the browser lays them out) overlap."""
    out = []
    for i, a in enumerate(svg_texts):
        for b in svg_texts[:i]:
            if (a["x"] < b["x"] + b["w"] - 0.5 and b["x"] < a["x"] + a["w"] - 0.5
                    and a["y"] < b["y"] + b["h"] - 0.5 and b["y"] < a["y"] + a["h"] - 0.5):
                out.append((a["t"], b["t"]))
    return out


BOXES = """return [].map.call(document.querySelectorAll('svg.tapboard-svg text[font-size="11"], svg.tapboard-svg text[font-size="8"]'),
  function(t){var b=t.getBBox();return {t:t.textContent,x:b.x,y:b.y,w:b.width,h:b.height}})"""


def test_the_labels_on_a_players_board_never_overlap_on_any_hand():
    """Every hand of one city a colour on both boards (a thousand drawn): no two labels meet,
    and the report's Boston and Buffalo (Dee's, in round 2) are both named whole."""
    import random

    from companion.games.trans import screens
    from companion.games.trans.track import trans_board

    for game in ("trans-amerika", "trans-europa"):
        data = json.loads((Path(__file__).parents[1] / "data" / f"{game}.json").read_text())["values"]
        board = trans_board(data, game)
        pts, width, height = screens.geometry(board)
        by_colour: dict[str, list[str]] = {}
        for c in board.cities:
            by_colour.setdefault(c.colour, []).append(c.name)
        hands_drawn = [set(), {"Boston", "Buffalo"} & {c.name for c in board.cities}]
        rng = random.Random(31)
        hands_drawn += [{rng.choice(v) for v in by_colour.values()} for _ in range(500)]
        for hand in hands_drawn:
            placed = screens.labels(board, pts, width, height, hand)
            boxes = [(name, screens._box(lx, ly, a, s, t)) for name, (t, lx, ly, a, s) in placed.items()]
            for i, (n1, b1) in enumerate(boxes):
                assert all(screens._apart(b1, b2) for _n2, b2 in boxes[:i]), (game, hand, n1)
                assert 0 <= b1[0] and b1[2] <= width, (game, n1)
        if game == "trans-amerika":
            placed = screens.labels(board, pts, width, height, {"Boston", "Buffalo"})
            assert placed["Boston"][0] == "Boston" and placed["Buffalo"][0] == "Buffalo"


def test_a_tap_on_ones_own_city_places_the_marker_where_junctions_crowd(web, home):
    """On the whole board junctions are a few pixels apart: a tap on the ring of one of Ann's
    own cities places her marker there, without a list to pick from."""
    sid = new_trans(home, special=None)
    mine = hands(home, sid)["Ann"]
    with Served(home) as srv:
        web.get(srv.players["Ann"] + "?z=1")
        city = mine[0]
        ring = web.find_element("css selector", f'svg.tapboard-svg circle[data-v="{city}"]')
        image = web.find_element("css selector", "form.tapboard input[type=image]")
        box = web.execute_script("var a=arguments[0].getBoundingClientRect(),b=arguments[1].getBoundingClientRect();"
                                 "return [a.left+a.width/2-b.left,a.top+a.height/2-b.top]", ring, image)
        shot(web, "marker-whole-board")
        tap(web, image, box[0] + 2, box[1] + 2)  # a finger is not exact
        from selenium.webdriver.support.ui import WebDriverWait

        WebDriverWait(web, 10).until(lambda w: status(home)["players"][0].get("start") == city)


def test_under_build_anywhere_only_the_lines_next_to_the_network_stand_out(web, home):
    """Round with "Build anywhere": Ann's page opens zoomed in around her marker, the lines
    touching her network are highlighted with their cost, every other free line is a faint
    line (tappable when zoomed to), no labels meet, and one tap on a highlighted line builds it."""
    from companion.games.trans import screens

    new_trans(home, special="build-anywhere")
    for who, where in (("Ann", "E6"), ("Bob", "K8"), ("Cy", "H11"), ("Dan", "N5")):
        companion(home, "start", who, where)
    first = status(home)["turn"]["player"] if status(home).get("turn") else "Ann"
    with Served(home) as srv:
        web.get(srv.players[first] + "?z=1")  # the whole board first: the page then opens as it opens, to be tapped
        shot(web, "build-anywhere-whole-board")
        assert labels_apart(web.execute_script(BOXES)) == []
        web.get(srv.players[first])
        board = web.find_element("css selector", "form.tapboard")
        assert board.find_element("css selector", "input[name=z]").get_attribute("value") == str(screens.CLOSE)
        bold = web.find_elements("css selector", 'svg.tapboard-svg line[stroke-dasharray]')
        faint = web.find_elements("css selector", 'svg.tapboard-svg line[stroke-opacity=".3"]')
        assert 0 < len(bold) <= 6 < len(faint), (len(bold), len(faint))  # the network's few, not the map
        assert "zoom in elsewhere" in web.find_element("css selector", "body").text
        shot(web, "build-anywhere-opening")
        assert labels_apart(web.execute_script(BOXES)) == []
        line = web.find_elements("css selector", 'svg.tapboard-svg line[stroke-dasharray]')[0]
        name = line.get_attribute("data-v")
        image = web.find_element("css selector", "form.tapboard input[type=image]")
        at = web.execute_script("var a=arguments[0].getBoundingClientRect(),b=arguments[1].getBoundingClientRect();"
                                "return [a.left+a.width/2-b.left,a.top+a.height/2-b.top]", line, image)
        tap(web, image, *at)
        from selenium.webdriver.support.ui import WebDriverWait

        WebDriverWait(web, 10).until(lambda w: any(r["line"] == name for r in status(home)["rails"]))
        assert "pick=" not in web.current_url
        shot(web, "build-anywhere-built")
        assert re.search(r"z=" + str(screens.CLOSE), web.current_url) or "z=" not in web.current_url


def test_among_crowded_junctions_a_tap_within_reach_of_ones_own_city_chooses_it():
    """Two junctions within a finger's reach: the player's own city (a quick choice) is chosen
    at once; without it the nearest few are offered to pick from, as before."""
    from companion.contract.view import Tap
    from companion.web.forms import PageView, hits

    targets = [("Buffalo", "", (100.0, 100.0)), ("G4", "", (108.0, 100.0)), ("G5", "", (104.0, 108.0))]
    whole = PageView(z=1)
    mine = Tap("", 336, 200, targets, quick=["Buffalo"])
    assert hits(mine, whole, (105.0, 101.0)) == ("Buffalo", [])
    theirs = Tap("", 336, 200, targets)
    value, near = hits(theirs, whole, (105.0, 101.0))
    assert value is None and {v for v, _n in near} == {"Buffalo", "G4", "G5"}
