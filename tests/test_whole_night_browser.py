"""A night with the laptop closed (issue 31, item 10), on Chromium at 390x844 with touch: a
fresh folder, `new` and `serve` typed, then nothing more: one table code, four phones choosing
their seats, every printed value a move needs answered on a phone, each game to its end from
the phones, and the TV at 1920x1080 showing the winner without scrolling.

The default run plays a score sheet whole (seats, a round, its end on the start player's phone)
and the first deal of a Trans Amerika with special cards (its colours asked on the dealer's
phone). The long run (COMPANION_LONG_TESTS=1) plays the report's night: a whole Trans Amerika
with special cards, a Transatlantic to its final sheets (the stack's end tapped on a phone, the
surcharges asked on one), and the score sheet; every move is a tap. Its Atlantic Star for two
(charters, every sea's voyages, a loan, the ship cards and victory points asked on the phones)
is a long-run test of its own."""

from __future__ import annotations

import json
import subprocess
import time

import pytest
from long_mode import LONG

import browser_support as b
from test_serve_phones import Phones, WAIT, move_button, settled, status_of, tap_button, tap_on_board

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def serve_code(home) -> tuple[subprocess.Popen, str, str]:
    """`serve` started as the laptop would, piped (forked from the warm web process): (process,
    the table's code, the TV's page)."""
    from warm_support import serve_process

    proc = serve_process(home, "--port", "0")
    join = table = None
    while join is None:
        line = proc.stdout.readline()
        if not line:
            raise AssertionError(proc.stderr.read())
        kind, _, url = line.strip().partition(" ")
        if kind == "table":
            table = url
        elif kind == "join":
            join = url
    return proc, join, table


class SeatedPhones(Phones):
    """Four phones (a tab each) that scanned the table's one code and chose their seat; with
    ``seated`` only the first so many (the others' seats stay free: a test whose subject is one
    phone's moves opens no tab it does not tap, issue 29 item 7)."""

    def __init__(self, web, join: str, players, seated: int | None = None):  # noqa: super().__init__ opens links
        self.web, self.links, self.tabs = web, {}, {}
        for i, who in enumerate(players[:seated]):
            if i:
                b.new_tab(web)
            web.get(join)
            self.tabs[who] = web.current_window_handle
            assert "Who are you?" in b.body_text(web) and "card" not in b.body_text(web).casefold()
            offered = [e.get_attribute("value") for e in web.find_elements("css selector", 'button[name="seat"]')]
            assert offered == players[i:], offered  # the seats still free, nobody else's
            button = web.find_element("css selector", f'button[name="seat"][value="{who}"]')
            self.after(who, lambda w, button=button: b.tap(w, button))
            assert "/p/" in web.current_url and f"{who} · " in b.body_text(web)
            self.links[who] = web.current_url


# a special card's scoring chart, as the players read it off the card: TEST values, not the box's
CHART_PARTS = {"winner": "6", "missing": "4, 3, 2, 2, 1"}
ANSWERED: list[str] = []  # every question a button answered, in this test process


CHART_VALUES = {"charts.generous.winner": "6", "charts.generous.missing": "4, 3, 2, 2, 1"}  # TEST values


def answer_questions(phones: Phones, who: str, typed: dict[str, str] | None = None) -> list[str]:
    """Answer on ``who``'s phone every printed value it asks, as a player reads it off the box:
    the suggestion or a button when there is one, else the value in ``typed``. Returns the keys."""
    asked = []
    for _ in range(40):
        web = phones.on(who)
        forms = web.find_elements("css selector", 'form[action$="/value"]')
        if not forms:
            return asked
        key = forms[0].find_element("css selector", 'input[name="key"]').get_attribute("value")
        asked.append(key)
        buttons = forms[0].find_elements("css selector", 'button[name="value"]')
        if buttons and key not in (typed or {}):
            ANSWERED.append(key)  # a different board colour for each card colour, as on a real box
            phones.after(who, lambda w: b.tap(w, buttons[len(ANSWERED) % len(buttons)]))
        else:
            field = forms[0].find_element("css selector", 'input[name="typed"]')
            field.send_keys(typed[key] if key in (typed or {}) else CHART_PARTS[key.rsplit(".", 1)[1]])
            keep = forms[0].find_element("css selector", 'button.go:not([name="value"])')  # not the suggestion
            phones.after(who, lambda w: b.tap(w, keep))
    raise AssertionError(f"{who}'s phone kept asking: {asked}")


def type_into(phones: Phones, who: str, css: str, text: str) -> None:
    """Type ``text`` into the field of ``css`` on ``who``'s page, again if the page was replaced
    under the finger (another phone's entry reached it)."""
    from selenium.common.exceptions import ElementNotInteractableException, StaleElementReferenceException

    for _ in range(5):
        try:
            field = phones.ready(who, css)
            phones.web.execute_script("arguments[0].scrollIntoView({block: 'center'})", field)
            field.clear()
            field.send_keys(text)
            return
        except (ElementNotInteractableException, StaleElementReferenceException):
            time.sleep(0.3)
    raise AssertionError(f"could not type into {css} on {who}'s page")


def tv_shows_the_winner(web, table: str) -> str:
    """The TV's page at 1920x1080 (the last phone's tab made the TV: the game is over, and
    opening a window of its own took ~0.15 s of CPU): the winner and every score row on the
    first screen."""
    phones_tab = web.current_window_handle
    web.switch_to.window(web.window_handles[-1])
    phone = b.device_of(web)
    b.emulate(web, b.Device(1920, 1080))
    try:
        web.get(table)
        b.drawn(web)
        below = web.execute_script(
            "var h = window.innerHeight, out = [];"
            "var rows = Array.from(document.querySelectorAll('.winner, section.scores tr'));"
            "document.querySelectorAll('section').forEach(function(s){ var t = s.querySelector('h2');"
            " if (t && /score/i.test(t.innerText)) rows = rows.concat(Array.from(s.querySelectorAll('tr'))); });"
            "rows.forEach(function(e){"
            " var r = e.getBoundingClientRect(); if (r.bottom > h) out.push(e.innerText.slice(0, 40)); });"
            "return out;")
        assert below == [] and web.execute_script("return window.scrollY") == 0, below
        return web.find_element("css selector", ".winner").text
    finally:
        b.emulate(web, phone)  # a phone again, whichever tab the next game keeps
        web.switch_to.window(phones_tab)


def one_tab_left(web) -> None:
    """Close every phone's tab but the first, for the night's next game."""
    for handle in list(web.window_handles)[1:]:
        web.switch_to.window(handle)
        web.close()
    web.switch_to.window(web.window_handles[0])


@pytest.fixture
def web():
    browser = b.phone()
    yield browser
    b.quit_chrome(browser)


def play_score_sheet(web, run, home, rounds: int) -> None:
    run(["new", "scoresheet", "--title", "Carcassonne", "--players", ",".join(PLAYERS)], expect=0)
    proc, join, table = serve_code(home)
    try:
        phones = SeatedPhones(web, join, PLAYERS)
        b.new_tab(web)  # a fifth phone scans the code: every seat is taken
        web.get(join)
        assert "Every seat is taken" in b.body_text(web) and not web.find_elements("css selector", "button[name=seat]")
        web.close()
        for n in range(rounds):
            for i, who in enumerate(PLAYERS):
                type_into(phones, who, 'form:has(input[name="move"][value="score"]) input[name="points"]',
                          str((n + 1) * (i + 2) % 13))
                assert "Carcassonne" in b.body_text(phones.web)
                tap_button(phones, who, move_button("score", "button.go"),
                           lambda n=n: status_of(run).get("round") == n + 1 or who in (status_of(run).get("entered")
                                                                                       or []))
            assert settled(lambda n=n: len(status_of(run)["players"][0]["rounds"]) == n + 1)
        ann = phones.on("Ann")  # the start player's phone ends the game, under "More moves"
        more = phones.ready("Ann", "details.more summary")
        b.tap(ann, more)
        tap_button(phones, "Ann", move_button("end-game", 'button[name="result"]'),
                   lambda: status_of(run)["finished"])
        assert status_of(run)["finished"]
        winner = tv_shows_the_winner(web, table)
        assert winner.startswith("The game is over: ") and " wins." in winner
    finally:
        b.stop(proc)


def first_trans_deal(web, run, home) -> tuple[Phones, subprocess.Popen, str, str]:
    """Trans Amerika with special cards on a fresh folder: `new`, `serve`, the seats chosen,
    and the first deal tapped on the start player's phone, its colours asked there."""
    # eight cards a round in the short run: one of them names a colour, asked at the deal
    run(["new", "trans-amerika", "--players", ",".join(PLAYERS), "--variant", "special-cards",
         "--specials-per-round", "1" if LONG else "8"], expect=0)
    proc, join, table = serve_code(home)
    # the long run seats every phone (the round is played from them); by default only the
    # dealer's is tapped, and the seats are chosen by the score sheet's night above
    phones = SeatedPhones(web, join, PLAYERS, seated=None if LONG else 1)
    asked = []
    for _ in range(12):
        if status_of(run)["round_open"]:
            break
        tap_button(phones, "Ann", move_button("round start", "button.go"))
        asked += answer_questions(phones, "Ann")
    assert status_of(run)["round_open"], b.body_text(phones.on("Ann"))[:800]
    return phones, proc, table, ",".join(asked)


def test_a_score_sheet_night_with_the_laptop_closed(web, run, home):
    play_score_sheet(web, run, home, rounds=1 if not LONG else 5)  # one round of the same path by default


def test_the_first_deal_asks_its_colours_on_the_dealers_phone(web, run, home):
    phones, proc, _table, asked = first_trans_deal(web, run, home)
    try:
        assert all(k.startswith(("colour_aliases.", "special_cards.", "charts.")) for k in asked.split(",") if k)
        from companion.core.store import Store

        kept = Store(home).user_values("trans-amerika")
        assert all(k in kept for k in asked.split(",") if k)
    finally:
        b.stop(proc)


@pytest.mark.skipif(not LONG, reason="the whole night runs with COMPANION_LONG_TESTS=1")
def test_the_nights_transatlantic_from_the_phones(web, run, home):
    play_transatlantic(web, run, home)


@pytest.mark.skipif(not LONG, reason="the whole night runs with COMPANION_LONG_TESTS=1")
def test_the_whole_night_trans_transatlantic_and_a_score_sheet(web, run, home):
    from serve_support import play_trans_round, trans_state

    # Trans Amerika, every round from the phones. The driver's own route finding (standing in for
    # the players' judgement) reads which double lines are water and mountain: confirmed at the
    # laptop before `serve`, as a group that opened the box would
    run(["data", "accept", "trans-amerika", "double_kinds"], expect=0)
    phones, proc, table, _asked = first_trans_deal(web, run, home)
    sid = status_of(run)["session"]
    try:
        for _round in range(12):
            st = status_of(run)
            if st["finished"]:
                break
            for _ in range(8):  # the next deal, on the phone that offers it (its questions answered there)
                if status_of(run)["round_open"]:
                    break
                dealer = next((p for p in PLAYERS if phones.on(p).refresh() or phones.on(p).find_elements(
                    "css selector", move_button("round start", "button.go"))), None)
                assert dealer is not None, {p: b.body_text(phones.on(p))[:300] for p in PLAYERS}
                tap_button(phones, dealer, move_button("round start", "button.go"))
                answer_questions(phones, dealer)
            assert status_of(run)["round_open"]
            waiting_choices(phones, run, home, sid)

            def act(player, move, value):
                waiting_choices(phones, run, home, sid)
                if move == "start":
                    tap_on_board(phones, player, value, "junction")
                elif move == "build":
                    tap_on_board(phones, player, value, "path")
                else:
                    tap_button(phones, player, move_button(move))
                answer_questions(phones, player, CHART_VALUES)

            def settle() -> bool:
                """Every phone looked at again for a question the round's scoring asks."""
                answered = False
                for p in PLAYERS:
                    phones.on(p).refresh()
                    answered |= bool(answer_questions(phones, p, CHART_VALUES))
                return answered

            play_trans_round(home, sid, act, PLAYERS, settle=settle)
        assert status_of(run)["finished"]
        assert tv_shows_the_winner(web, table).startswith("The game is over: ")
    finally:
        b.stop(proc)
    one_tab_left(web)
    play_transatlantic(web, run, home)
    play_score_sheet(web, run, home, rounds=3)


def waiting_choices(phones: Phones, run, home, sid: str) -> None:
    """The choices a special card asks of every phone (pass a city, put one back): each phone
    taps its first offer."""
    from serve_support import trans_state

    for _ in range(40):
        game, state, _data = trans_state(home, sid)
        if not state["round_open"] or not state.get("pending"):
            return
        from selenium.common.exceptions import StaleElementReferenceException

        who = game.waiting(state)[0]
        web = phones.on(who)
        try:
            buttons = web.find_elements("css selector", 'form:has(input[name="move"][value="pass"]) button, '
                                                        'form:has(input[name="move"][value="hand return"]) button')
            if not buttons:
                web.refresh()
                time.sleep(0.3)
                continue
            phones.after(who, lambda w: b.tap(w, buttons[0]))
        except StaleElementReferenceException:  # the page was replaced as it was read: look again
            continue


def play_transatlantic(web, run, home) -> None:
    """Transatlantic: the cards typed once (`ship add`, before `serve`), then phones only: the
    starting ships, the market turned over, the purchases (the surcharges asked on the first
    buyer's phone), the stack's end, the final sheets."""
    from serve_support import transatlantic_cards

    transatlantic_cards(run)
    run(["data", "unset", "transatlantic", "market.surcharges"], expect=0)  # asked on a phone instead
    players = ["Ann", "Bob", "Cy"]
    run(["new", "transatlantic", "--players", ",".join(players)], expect=0)
    proc, join, table = serve_code(home)
    try:
        phones = SeatedPhones(web, join, players)
        for who, ship in (("Ann", "ARIEL"), ("Bob", "SIRIUS"), ("Cy", "FLYING CLOUD")):
            tap_button(phones, who, move_button("own", f'button[value="{ship}"]'))
        for _ in range(120):
            st = status_of(run)
            if st["finished"]:
                break
            offered = {}
            for who in players:  # what each phone offers now (a page follows the game by itself)
                page = phones.on(who)
                page.refresh()
                offered[who] = [e.get_attribute("value") for e in page.find_elements(
                    "css selector", 'form:not(.picker) input[name="move"]')]
            final = next((w for w in players if "final" in offered[w]), None)
            if final is not None:  # the final scoring sheet, on the player's own phone
                for field in phones.on(final).find_elements(
                        "css selector", 'form:has(input[name="move"][value="final"]) input[type="number"]'):
                    field.send_keys("1")
                tap_button(phones, final, move_button("final", "button.go"))
                continue
            who = next((w for w in players if {"buy", "reveal", "stack-empty", "next", "own"} & set(offered[w])),
                       None)
            assert who is not None, (st, offered)
            moves = offered[who]
            if "reveal" in moves:
                tap_button(phones, who, move_button("reveal", "button"))
            elif "buy" in moves and (st.get("opening_due") or len(st["players"][0]["ships"]) < 3):
                tap_button(phones, who, move_button("buy", "button"))
                answer_questions(phones, who, {"market.surcharges": "0, 10, 20, 30, 40, 50"})
            elif "stack-empty" in moves:
                tap_button(phones, who, move_button("stack-empty", "button.go"))
            elif "next" in moves:
                tap_button(phones, who, move_button("next", "button.go"))
            elif "buy" in moves:
                tap_button(phones, who, move_button("buy", "button"))
            else:
                raise AssertionError((st, offered))
        assert settled(lambda: status_of(run)["finished"], within=WAIT)
        assert status_of(run)["stack"] == "empty"  # the stack's end, tapped on a phone
        from companion.core.store import Store

        assert Store(home).user_values("transatlantic")["market.surcharges"] == [0, 10, 20, 30, 40, 50]
        assert tv_shows_the_winner(web, table).startswith("The game is over: ")
    finally:
        b.stop(proc)
    one_tab_left(web)


@pytest.mark.skipif(not LONG, reason="the whole night runs with COMPANION_LONG_TESTS=1")
def test_the_nights_atlantic_star_from_the_phones(web, run, home):
    play_atlantic_star(web, run, home)


def play_atlantic_star(web, run, home) -> None:
    """Atlantic Star for two, phones only after `serve`: charters on the free agency space, every
    voyage of every sea (the first one naming its ship cards, asked on the phone), a loan, the last
    voyage asking each class's victory points on the phone that stages it, and the TV showing the
    winner. The cards and rows typed are TEST values (tests/atlantic_star_support.py's)."""
    from atlantic_star_support import TEST_VP
    from test_atlantic_star_whole_game import SHIP_CARDS, next_move

    # typed where the phone has no suggestion to confirm (the 1- and 2-star rows have one: tapped)
    typed = {**SHIP_CARDS, **{f"vp.{cls}": ", ".join(map(str, TEST_VP[cls])) for cls in ("3", "4", "5")}}
    players = ["Ann", "Bob"]
    run(["new", "atlantic-star", "--players", ",".join(players), "--agency", "Rhea,Oceana,Titan,Ceres"], expect=0)
    proc, join, table = serve_code(home)
    try:
        phones = SeatedPhones(web, join, players)
        loaned, asked, moves = False, [], []
        for _ in range(120):
            st = status_of(run)
            if st["finished"]:
                break
            who = st["turn"]
            me = next(p for p in st["players"] if p["name"] == who)
            move, fields = next_move(st, me, loaned)
            recorded = len(json.loads(run(["log", "--json"], expect=0).stdout))
            for _try in range(8):  # the tap, again after each printed value the phone asked
                form = f'form:has(input[name="move"][value="{move}"])'
                more = phones.web.execute_script(  # a move under "More moves": its summary tapped first
                    "var f = arguments[0].closest('details'); return f && !f.open ? f.querySelector('summary') : null",
                    phones.ready(who, form))
                if more is not None:
                    b.tap(phones.web, more)
                for name, value in fields.items():
                    if name not in ("sea", "space"):
                        type_into(phones, who, f'{form} input[name="{name}"]', value)
                chosen = "sea" if "sea" in fields else "space"
                pick = phones.on(who).find_elements("css selector", f'{form} select[name="{chosen}"]')
                if pick:  # a pick list (the loan's sea), then the form's button
                    from selenium.webdriver.support.ui import Select

                    Select(pick[0]).select_by_value(fields[chosen])
                    tap_button(phones, who, f"{form} button.go")
                else:
                    tap_button(phones, who, f'{form} button[name="{chosen}"][value="{fields[chosen]}"]')
                asked += answer_questions(phones, who, typed)
                if settled(lambda: len(json.loads(run(["log", "--json"], expect=0).stdout)) > recorded):
                    break
            else:
                raise AssertionError(b.body_text(phones.on(who))[:1200])
            moves.append(move)
            loaned = loaned or move == "loan"
        final = status_of(run)
        assert final["finished"] and {"charter", "voyage", "loan"} <= set(moves)
        assert sorted(k for k in asked if k.startswith("vp.")) == ["vp.1", "vp.2", "vp.3", "vp.4"]
        assert {"ships.RHEA", "ships.TITAN"} <= set(asked)
        from companion.core.store import Store

        kept = Store(home).user_values("atlantic-star")
        assert kept["vp.3"] == TEST_VP["3"] and kept["ships.TITAN"] == ["M", "2", "X", "1"]
        for p in final["players"]:  # the final scores, from the rows answered on the phones
            assert p["score"] == sum(kept[f"vp.{x['class']}"][x["place"] - 1] for x in p["places"])
        winner = tv_shows_the_winner(web, table)
        assert winner.startswith("The game is over: ") and final["winners"][0] in winner
    finally:
        b.stop(proc)
    one_tab_left(web)
