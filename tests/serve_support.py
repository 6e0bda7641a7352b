"""Shared by the serve tests: a Trans session dealt with a pass special card, and its site."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

PLAYERS = ["Ann", "Bob", "Cy", "Dan"]


def new_trans(run, special: str | None = "pass-three", extra=()) -> str:
    variant = ["--variant", "special-cards"] if special else []
    run(["new", "trans-europa", "--players", ",".join(PLAYERS), *variant, *extra], expect=0)
    run(["round", "start", *(["--special", special] if special else [])], expect=0)
    return json.loads(run(["status", "--json"], expect=0).stdout)["session"]


def hands(home: Path, sid: str) -> dict[str, list[str]]:
    """Every hand, read straight from the rules (the tests' own view, never a page's)."""
    from companion.core import session as sessions
    from companion.core.store import Store

    s = sessions.load(Store(home), sid)
    return {p: list(c) for p, c in s.replay().state["hands"].items()}


def site_and_client(home: Path, sid: str, players=PLAYERS):
    pytest.importorskip("httpx")
    import warnings

    with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2; httpx works
        warnings.simplefilter("ignore", UserWarning)  # StarletteDeprecationWarning
        from starlette.testclient import TestClient

    from companion.web import tokens
    from companion.web.site import Site

    made = tokens.links(home, sid, list(players))
    links = {"table": made[tokens.TABLE], **{p: made[p] for p in players}}  # no player here is called "table"
    site = Site(home, sid)
    return site, TestClient(site.app, base_url="http://127.0.0.1"), links


# -- the moves on a player's page, as a phone would see and send them ---------------------------------

def forms_on(html: str) -> list[dict]:
    """Every form of a page: {"action", "hidden": {name: value}, "buttons": [(name, value)],
    "fields": [name, ...], "options": {select name: [values]}, "boxes": {name: [values]}},
    read with the standard library's HTML parser, as a browser reads them. The board's
    drawings are left out first (no form field lives inside an SVG; they are most of a page's
    bytes, and parsing them took a third of a four-phone round's test)."""
    import re
    from html.parser import HTMLParser

    html = re.sub(r"<svg\b.*?</svg>", "", html, flags=re.S)

    found: list[dict] = []

    class Reader(HTMLParser):
        select: str | None = None

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if tag == "form":
                found.append({"action": a.get("action"), "hidden": {}, "buttons": [], "fields": [], "options": {},
                              "boxes": {}, "image": False})
            elif not found:
                return
            elif tag == "input" and a.get("type") == "hidden":
                found[-1]["hidden"][a["name"]] = a.get("value", "")
            elif tag == "input" and a.get("type") == "image":
                found[-1]["image"] = True
            elif tag == "input" and a.get("type") == "checkbox":
                found[-1]["boxes"].setdefault(a["name"], []).append(a.get("value", "on"))
            elif tag == "input":
                found[-1]["fields"].append(a.get("name"))
            elif tag == "button" and a.get("name"):
                found[-1]["buttons"].append((a["name"], a.get("value", "")))
            elif tag == "select":
                self.select = a.get("name")
                found[-1]["options"][self.select] = []
            elif tag == "option" and self.select:
                found[-1]["options"][self.select].append(a.get("value", ""))

        def handle_endtag(self, tag):
            if tag == "select":
                self.select = None

    Reader().feed(html)
    return found


def moves_on(html: str) -> list[str]:
    """The moves a page offers (each form's hidden move name, once; not its take-back)."""
    out = []
    for f in forms_on(html):
        name = f["hidden"].get("move")
        if name and name not in out and name != "(take back)":
            out.append(name)
    return out


def post_move(client, token: str, move: str, fields: dict | None = None, query: str = "", follow: bool = False):
    """Send ``move``'s form from the player page of ``token`` as it is now, with ``fields``
    (a value each, or a list): what a phone's tap does. Fails the test if the page offers no
    such form."""
    html = client.get(f"/p/{token}{query}").text
    chosen = [f for f in forms_on(html) if f["hidden"].get("move") == move]
    assert chosen, f"the page offers no {move!r}: it offers {moves_on(html)}"
    form = chosen[0]
    data = dict(form["hidden"])
    data.update(fields or {})
    for _ in range(5):  # "Too many taps at once: wait a moment": a person waits, then taps again
        response = client.post(form["action"].replace("{token}", token), data=data, follow_redirects=follow)
        if response.status_code != 429:
            return response
        time.sleep(float(response.headers.get("retry-after", "1")))
    return response


# -- a Trans round played from the phones --------------------------------------------------------------

def trans_state(home: Path, sid: str):
    """(game, state, data) of a session as the rules hold it (the tests' own view)."""
    from companion.core import session as sessions
    from companion.core.store import Store

    s = sessions.load(Store(home), sid)
    replay = s.replay()
    return s.game, replay.state, replay.data


def next_rail(home: Path, sid: str, player: str, known: tuple | None = None) -> str | None:
    """The line ``player`` builds next, along one of their shortest routes (a line touching
    their network that the turn's rails' worth left still pays for), or None: end the turn.
    ``known``: the session's (game, state, data) just read, not read again."""
    from companion.games.trans import screens

    game, state, data = known or trans_state(home, sid)
    board = game.board_of(data)
    route = set(game.missing_tree(state, data, player).edges)
    left = game.rails_worth_left(state, player)
    fits = [e for e, cost in screens.buildable(game, board, state, player) if cost <= left]
    for e in fits:
        if e in route:
            return board.edge_name(e)
    turn = state["track"]["turn"]
    if fits and not (turn and turn["player"] == player and turn["used"] > 0):
        # a turn's first rail is placed even when the route's next line costs more than the turn
        # has (a double line in a turn of one rail): a turn with nothing placed cannot be ended
        # (the whole night's long run met it: the phone offered no "End my turn")
        return board.edge_name(fits[0])
    return None


def play_trans_round(home: Path, sid: str, act, players=PLAYERS, settle=None) -> list[list[str]]:
    """Play a dealt Trans round to its end from the phones: each start marker on the player's
    first city, then every turn's rails along the builder's shortest route, ``act(player, move,
    value)`` making each move (a phone's tap). Returns the moves as typed commands, in order,
    for the same round typed at the laptop. ``settle()``, when given, answers what the phones
    still ask once the board has ended the round (a value its scoring needs, which may reach a
    page after the move's own answer), True when it answered something."""
    typed = []
    for _ in range(len(players)):
        game, state, _data = trans_state(home, sid)
        due = game.marker_due(state)
        city = game.hand_of(state, due)[0]
        act(due, "start", city)
        typed.append(["start", due, city])
    for _ in range(400):
        game, state, data = trans_state(home, sid)
        if not state["round_open"]:
            return typed
        who = game.builder(state)
        if who is None and settle is not None and settle():
            continue
        if who is None:
            from companion.core import session as sessions
            from companion.core.store import Store

            last = [e["event"] for e in sessions.load(Store(home), sid).journal[-3:]]
            raise AssertionError(f"the round is over on the board but was not scored; the last entries: {last}")
        line = next_rail(home, sid, who, (game, state, data))
        if line is None:
            act(who, "end-turn", None)
            typed.append(["end-turn", who])
        else:
            act(who, "build", line)
            typed.append(["build", who, line])
    raise AssertionError("the round never ended")


# The Transatlantic cards the phone tests play with: TEST values typed as a group would type
# theirs (`ship add`), never the printed cards, with test surcharges.
TEST_SHIPS = [
    ["ARIEL", "--year", "1865", "--flag", "none", "--kind", "sail"],
    ["SIRIUS", "--year", "1860", "--flag", "none", "--kind", "sail"],
    ["FLYING CLOUD", "--year", "1851", "--flag", "none", "--kind", "sail"],
    ["NUBIAN", "--year", "1875", "--flag", "white", "--price", "30"],
    ["DEVONIA", "--year", "1877", "--flag", "red", "--price", "50"],
    ["GERMANIC", "--year", "1874", "--flag", "white", "--price", "40"],
    ["HAMMONIA", "--year", "1882", "--flag", "blue", "--price", "70"],
    ["ABYSSINIA", "--year", "1870", "--flag", "red", "--price", "30"],
    ["UMBRIA", "--year", "1884", "--flag", "red", "--price", "90"],
]


def transatlantic_cards(run, extra=()) -> None:
    """`ship add` of :data:`TEST_SHIPS` (and ``extra``) and the test surcharges."""
    for ship in [*TEST_SHIPS, *extra]:
        run(["ship", "add", *ship], expect=0)
    run(["data", "set", "transatlantic", "market.surcharges", "[0, 10, 20, 30, 40, 50]"], expect=0)  # TEST values


def typed_round(run, folder: Path, dealt: dict[str, list[str]], typed: list[list[str]]) -> dict:
    """The round the phones played, typed at the laptop in another data folder from the same
    hands: ``status --json`` after `round end --auto`, to compare with the phones' round."""
    other = ["--data-dir", str(folder)]
    run([*other, "new", "trans-amerika", "--players", ",".join(PLAYERS)], expect=0)
    run([*other, "round", "start", "--physical"], expect=0)
    for p, cities in dealt.items():
        run([*other, "hand", p, "--set", ",".join(cities)], expect=0)
    for line in typed:
        run([*other, *line], expect=0)
    run([*other, "round", "end", "--auto"], expect=0)
    return json.loads(run([*other, "status", "--json"], expect=0).stdout)



def read_pty_until(fd: int, text: str, timeout: float = 60.0) -> str:
    """:func:`pty_support.read_until` with a minute's bound: what a pty's ``fd`` printed until
    ``text`` came, every cursor question answered (prompt_toolkit, unanswered for 2 s, prints a
    warning over what it draws: what a busy machine's reads made of `serve --player-codes`'s
    private screen once, issue 29, item 7). Read everything a screen shows before spending
    seconds on it (decoding its codes), so that no question waits meanwhile."""
    from pty_support import read_until

    return read_until(fd, text, timeout)
