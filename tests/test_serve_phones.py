"""Playing from the phones in a real browser (issue 21 item 9): headless Chromium at 390x844
with touch emulation, one tab per phone, every move a finger's tap on the page: a whole Trans
round (markers and rails tapped on the board) that ends and scores itself as typed commands
do, the Transatlantic opening purchases (in the default run the market's first and last cards
turned on the phone, the others typed), a move out of turn, two phones tapping at once, a
phone reloading mid-turn, and `undo` typed in the shell taking a phone's move back."""

from __future__ import annotations

import json
import shutil
import threading
import time

import pytest
from long_mode import LONG

from browser_support import body_text, new_tab, phone, quit_chrome, serve, stop, tap, until
from serve_support import PLAYERS, hands, play_trans_round, trans_state, transatlantic_cards, typed_round

LOST = 5.0  # seconds after which a tap that sent nothing was lost (a post is sent as the finger lifts)
WAIT = 30.0  # seconds a page may take to come back after a tap (a few hundred ms, more on a busy CI)


@pytest.fixture
def web():
    browser = phone()
    yield browser
    quit_chrome(browser)


def status_of(run, *before) -> dict:
    return json.loads(run([*before, "status", "--json"], expect=0).stdout)


class Phones:
    """One browser tab per player, each on that player's page (a phone each). The first
    player's is opened at once, each other's when the test first turns to it: a phone the
    test never taps costs no tab (issue 29, item 7: a tab and its page ~0.2 s of CPU)."""

    def __init__(self, web, links: dict[str, str], players):
        self.web, self.links, self.tabs = web, links, {}
        web.get(links[players[0]])
        self.tabs[players[0]] = web.current_window_handle

    def on(self, who: str):
        if who not in self.tabs:  # this phone opens its page now, as it stands
            new_tab(self.web)
            self.web.get(self.links[who])
            self.tabs[who] = self.web.current_window_handle
            return self.web
        self.web.switch_to.window(self.tabs[who])
        return self.web

    def ready(self, who: str, css: str):
        """``who``'s tab once its page shows ``css`` (it reloads itself as the game moves)."""
        web = self.on(who)
        found = until(web, "return document.readyState === 'complete' && document.querySelector(arguments[0])", css,
                      timeout=WAIT)
        if not found:
            raise AssertionError(f"{who}'s page never showed {css}; it shows:\n{body_text(web)[:1500]}")
        return found

    def after(self, who: str, action) -> None:
        """Do ``action`` on ``who``'s page and wait for what it leads to: another page (a link,
        a seat chosen), or this page's post answered in place (issue 31: the page's script posts
        a move and applies the answer like a pushed page; ``data-posted`` counts those).
        A tap that sent nothing in :data:`LOST` seconds (no post under way, none answered: the
        finger came down as the page was changed under it, say) raises StaleElementReferenceException,
        which the callers take as "look again and tap again", as a player taps again."""
        from selenium.common.exceptions import StaleElementReferenceException, TimeoutException

        web = self.on(who)
        posted = web.execute_script("window.__before = true; window.__tappedAt = Date.now();"
                                    "return document.documentElement.getAttribute('data-posted') || '0'")
        action(web)
        got = until(web, "var h = document.documentElement, posted = h.getAttribute('data-posted') || '0';"
                         "if (window.__before !== true) return document.readyState === 'complete' && 'left';"
                         "if (posted !== arguments[0]) return 'posted';"
                         "return !h.hasAttribute('aria-busy') && Date.now() - window.__tappedAt > arguments[1]"
                         " && 'lost';", posted, LOST * 1000, timeout=WAIT)
        if got == "lost":
            raise StaleElementReferenceException(f"{who}'s tap sent nothing in {LOST} s")
        if not got:
            busy = web.execute_script("return document.documentElement.hasAttribute('aria-busy')")
            raise TimeoutException(f"{who}'s tap led nowhere in {WAIT} s"
                                   + (" (its post was sent and never answered)" if busy else ""))


def position(web, value: str):
    """Where the board's mark for ``value`` (a line or a ringed city) is on the tap image, in
    CSS pixels from its corner, as drawn: None when it is outside the part shown."""
    return web.execute_script("""
        var el = document.querySelector('.tapboard svg [data-v="' + CSS.escape(arguments[0]) + '"]');
        if (!el) return null;
        var svg = el.ownerSVGElement, box = svg.getBoundingClientRect(), vb = svg.viewBox.baseVal;
        var x, y;
        if (el.tagName === 'line') {
          x = (+el.getAttribute('x1') + +el.getAttribute('x2')) / 2; y = (+el.getAttribute('y1') + +el.getAttribute('y2')) / 2;
        } else { x = +el.getAttribute('cx'); y = +el.getAttribute('cy'); }
        var px = (x - vb.x) * box.width / vb.width, py = (y - vb.y) * box.height / vb.height;
        if (px < 4 || py < 4 || px > box.width - 4 || py > box.height - 4) return null;
        return [px, py];""", value)


def tap_on_board(phones: Phones, who: str, value: str, name: str) -> None:
    """Tap ``value`` on ``who``'s board: where it is drawn (zooming out to the whole board when
    it is outside the part shown), then, if the tap was between several, its button in the
    picker that came up."""
    from selenium.common.exceptions import StaleElementReferenceException

    for _ in range(3):
        try:
            board = phones.ready(who, ".tapboard input[type=image]")
            web = phones.web
            at = position(web, value)
            if at is None:
                whole = web.find_elements("css selector", 'nav.zoom a[aria-label="The whole board"]')
                assert whole, f"{value} is not on {who}'s board"
                phones.after(who, lambda w: tap(w, whole[0]))
                board = phones.ready(who, ".tapboard input[type=image]")
                at = position(web, value)
            assert at is not None, f"{value} is not drawn on {who}'s board"
            phones.after(who, lambda w: tap(w, board, at[0], at[1]))
            picker = web.find_elements("css selector", f'form.picker button[name="{name}"]')
            if picker:
                button = next(b for b in picker if b.get_attribute("value") == value)
                phones.after(who, lambda w: tap(w, button))
            return
        except StaleElementReferenceException:  # the page reloaded itself meanwhile: look again
            continue
    raise AssertionError(f"could not tap {value} on {who}'s board")


def tap_button(phones: Phones, who: str, css: str, done=None) -> None:
    """Tap the button of ``css`` on ``who``'s page; with ``done`` (what the tap records), again
    if the page reloaded itself under the finger (the game moved on as the tap came) and the
    tap was lost."""
    from selenium.common.exceptions import StaleElementReferenceException

    for _ in range(4):
        try:
            button = phones.ready(who, css)
            phones.after(who, lambda w: tap(w, button))
        except StaleElementReferenceException:
            continue
        if done is None or settled(done):
            return
    raise AssertionError(f"could not tap {css} on {who}'s page")


def settled(done, within: float = 5.0) -> bool:
    """Whether ``done()`` comes true soon: a tap's post may still be on its way when the page
    reloads itself under the finger."""
    deadline = time.monotonic() + within
    while True:
        if done():
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)


def move_button(move: str, verb_css: str = "button") -> str:
    return f'form:has(input[name="move"][value="{move}"]) {verb_css}'


TAPPED_RAILS = 3  # the round's last moves, tapped in the default run (every move in the long run)


def test_a_whole_trans_round_played_from_four_phones_ends_and_scores_itself(web, run, home, tmp_path):
    """The start player deals from the phone and the first marker is tapped; the long run
    (COMPANION_LONG_TESTS=1) taps every move of the round, the default run types the moves
    between and taps the last :data:`TAPPED_RAILS`, the one that ends the round among them."""
    run(["new", "trans-amerika", "--players", ",".join(PLAYERS), "--entropy", "four phones"], expect=0)
    sid = status_of(run)["session"]
    proc, links = serve(home, PLAYERS)
    try:
        phones = Phones(web, links, PLAYERS)
        tap_button(phones, "Ann", move_button("round start"),  # the start player deals from the phone
                   lambda: status_of(run)["round_open"])
        assert status_of(run)["round_open"]

        def board_now():
            _game, state, _data = trans_state(home, sid)
            track = state["track"]
            return len(track["markers"]), len(track["rails"]), json.dumps(track["turn"]), state["round_open"]

        lost = []  # taps in a row that recorded nothing
        dealt = hands(home, sid)

        def act(player, move, value) -> bool:
            before = board_now()
            if move == "start":
                tap_on_board(phones, player, value, "junction")
            elif move == "build":
                tap_on_board(phones, player, value, "path")
            else:
                tap_button(phones, player, move_button(move))
            if settled(lambda: board_now() != before):
                lost.clear()
                return True
            lost.append(f"{player} {move} {value}")  # tapped again, at most 3 times
            assert len(lost) < 3, f"taps recorded nothing: {lost}; the page shows:\n{body_text(phones.web)[:1500]}"
            return False

        if LONG:
            typed = play_trans_round(home, sid, act)
        else:  # the same round: its first marker and last rails tapped, the moves between typed
            typed = _round_typed_in_a_copy(run, home, tmp_path / "dry", sid)
            for n, line in enumerate(typed):
                if 0 < n < len(typed) - TAPPED_RAILS:
                    run(line, expect=0)
                    continue
                while not act(line[1], line[0], line[2] if len(line) > 2 else None):
                    pass
        played = status_of(run)
        assert not played["round_open"] and played["history"][-1]["auto"] is True
        assert sum(1 for line in typed if line[0] == "build") >= 8
        bob = phones.on("Bob")  # Bob's phone shows the round over (live, else once reloaded)
        if not settled(lambda: "Round 1 is over" in body_text(bob), within=10):
            bob.refresh()
        assert settled(lambda: "Round 1 is over" in body_text(bob))
    finally:
        stop(proc)
    if LONG:  # the round typed from the same hands in a new session
        by_hand = typed_round(run, tmp_path / "typed", dealt, typed)
    else:  # the copy that typed the round above, its deal the phone's: ended as typed
        dry = ["--data-dir", str(tmp_path / "dry")]
        run([*dry, "round", "end", "--auto"], expect=0)
        by_hand = status_of(run, *dry)
    assert by_hand["history"][-1]["missing"] == played["history"][-1]["missing"]
    assert [p["score"] for p in by_hand["players"]] == [p["score"] for p in played["players"]]


def _round_typed_in_a_copy(run, home, folder, sid) -> list[list[str]]:
    """The round's moves as typed commands, played in a copy of the data folder (typed, the
    round is over on the board after its last rail, and scored by `round end`)."""
    shutil.copytree(home, folder)

    def typed(player, move, value):
        run(["--data-dir", str(folder), move, player] + ([value] if value else []), expect=0)

    moves = []
    with pytest.raises(AssertionError, match="over on the board but was not scored"):
        moves = play_trans_round(folder, sid, lambda player, move, value: (
            moves.append([move, player] + ([value] if value else [])), typed(player, move, value)))
    return moves


def _transatlantic(run):
    transatlantic_cards(run)
    run(["new", "transatlantic", "--players", "Ann,Bob,Cy"], expect=0)


def test_the_transatlantic_opening_purchases_from_the_phones(web, run, home):
    _transatlantic(run)
    players = ["Ann", "Bob", "Cy"]
    proc, links = serve(home, players)
    try:
        phones = Phones(web, links, players)

        def owns(who, ship):
            return lambda: ship in next(p for p in status_of(run)["players"] if p["name"] == who)["ships"]

        for who, ship in (("Ann", "ARIEL"), ("Bob", "SIRIUS"), ("Cy", "FLYING CLOUD")):
            tap_button(phones, who, move_button("own", f'button[value="{ship}"]'), owns(who, ship))
        status = status_of(run)
        assert status["opening_due"] == "Bob", [p["ships"] for p in status["players"]]  # Cy owns the oldest ship
        for n, ship in enumerate(("NUBIAN", "DEVONIA", "GERMANIC", "HAMMONIA", "ABYSSINIA", "UMBRIA")):
            if LONG or n in (0, 5):  # the first and last cards turned on the phone, the others typed
                tap_button(phones, "Bob", move_button("reveal", f'button[value="{ship}"]'),
                           lambda ship=ship: ship in status_of(run)["market"])
            else:
                run(["reveal", ship], expect=0)
        page = phones.ready("Bob", move_button("buy"))
        assert "NUBIAN · £30 (position 1)" in body_text(phones.web) and page
        for who, ship in (("Bob", "NUBIAN"), ("Ann", "GERMANIC"), ("Cy", "ABYSSINIA")):
            tap_button(phones, who, move_button("buy", f'button[value="{ship}"]'), owns(who, ship))
        status = status_of(run)
        assert status["opening_due"] is None and status["turn"] == "Cy"
        assert {p["name"]: p["ships"][-1] for p in status["players"]} == {"Bob": "NUBIAN", "Ann": "GERMANIC",
                                                                        "Cy": "ABYSSINIA"}
        phones.ready("Ann", "section.scores")
        assert "Nothing for you to do now: it is Cy's turn." in body_text(phones.web)
    finally:
        stop(proc)


def _markers(run):
    run(["new", "trans-europa", "--players", ",".join(PLAYERS)], expect=0)
    run(["round", "start"], expect=0)
    for p, n in (("Ann", "E6"), ("Bob", "K8"), ("Cy", "H11"), ("Dan", "N5")):
        run(["start", p, n], expect=0)
    return status_of(run)["session"]


def _no_script_phone():
    """A phone whose browser runs no script: its page stays as it was drawn (a lost Wi-Fi, an
    old browser), so a form can be sent after the game moved on."""
    return phone(scripts=False)


def test_a_move_out_of_turn_is_refused_on_the_page_naming_whose_turn_it_is(run, home):
    sid = _markers(run)
    proc, links = serve(home, PLAYERS)
    web = _no_script_phone()
    try:
        web.get(links["Ann"])
        phones = Phones.__new__(Phones)
        phones.web, phones.links, phones.tabs = web, links, {"Ann": web.current_window_handle}
        board = phones.ready("Ann", ".tapboard input[type=image]")
        run(["build", "Bob", "K8-K9"], expect=0)  # the laptop records Bob's rail: the turn is no longer Ann's
        game, state, _data = trans_state(home, sid)
        due = game.builder(state)
        at = position(web, "E6-E7")
        phones.after("Ann", lambda w: tap(w, board, at[0], at[1]))
        assert f"It is {due}'s turn to build, not Ann's." in body_text(web)
        assert [r["player"] for r in status_of(run)["rails"]] == ["Bob"]
        assert not web.find_elements("css selector", ".tapboard")  # the page drawn again offers Ann nothing
    finally:
        quit_chrome(web)
        stop(proc)


def test_two_phones_tapping_at_once_one_wins_and_the_other_is_told(run, home):
    """Ann's phone takes her rail back as Bob's phone builds: one of the two is recorded."""
    _markers(run)
    run(["build", "Ann", "E6-E7,E7-E8"], expect=0)  # Ann's two rails' worth: Bob's turn
    proc, links = serve(home, PLAYERS)
    ann, bob = _no_script_phone(), _no_script_phone()
    try:
        ann.get(links["Ann"])
        bob.get(links["Bob"])
        take_back = ann.find_element("css selector", move_button("(take back)"))
        line = bob.find_element("css selector", ".tapboard svg line[data-v]").get_attribute("data-v")
        board = bob.find_element("css selector", ".tapboard input[type=image]")
        at = position(bob, line)
        for w in (ann, bob):
            w.execute_script("window.__before = true")
        start = threading.Barrier(2)
        threads = [threading.Thread(target=lambda: (start.wait(), tap(ann, take_back))),
                   threading.Thread(target=lambda: (start.wait(), tap(bob, board, at[0], at[1])))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        from selenium.webdriver.support.ui import WebDriverWait

        for w in (ann, bob):
            WebDriverWait(w, WAIT).until(lambda x: not x.execute_script("return window.__before === true")
                                         and x.execute_script("return document.readyState") == "complete")
        said = {"Ann": body_text(ann), "Bob": body_text(bob)}
        rails = [r["line"] for r in status_of(run)["rails"]]
        if rails == []:  # Ann's take-back won (her two rails were one move): Bob was told whose turn it is
            assert "It is Ann's turn to build, not Bob's." in said["Bob"]
        else:  # Bob's rail won: Ann was told someone moved since
            assert rails == ["E6-E7", "E7-E8", line]
            assert "Someone has moved since your last move" in said["Ann"]
    finally:
        for w in (ann, bob):
            quit_chrome(w)
        stop(proc)


def test_a_phone_reloading_mid_turn_keeps_its_turn_and_records_once(web, run, home):
    sid = _markers(run)
    proc, links = serve(home, PLAYERS)
    try:
        phones = Phones(web, links, ["Ann"])
        phones.ready("Ann", ".tapboard input[type=image]")
        old = web.execute_script("""var f = document.querySelector('form.tapboard');
            return Array.from(f.querySelectorAll('input[type=hidden]')).map(function (i) { return [i.name, i.value]; });""")
        tap_on_board(phones, "Ann", "E6-E7", "path")  # the first of Ann's two rails' worth
        web.refresh()  # mid-turn the phone reloads: a plain GET (the tap's post was answered with a redirect)
        phones.ready("Ann", ".tapboard input[type=image]")
        text = body_text(web)
        assert "1 rail's worth left this turn" in text and "Ann built E6-E7" in text
        # the form from before the tap, sent again (a phone back from a lost Wi-Fi): refused, nothing recorded
        said = web.execute_async_script("""var done = arguments[arguments.length - 1];
            var body = new URLSearchParams(arguments[0]); body.append('path', 'E7-E8');
            fetch(document.querySelector('form.tapboard').action, {method: 'POST', body: body})
              .then(function (r) { return r.text().then(function (t) { done([r.status, t]); }); });""", old)
        assert said[0] == 403 and "out of date" in said[1]
        game, state, _data = trans_state(home, sid)
        assert [r["name"] for r in state["track"]["rails"]] == ["E6-E7"]
        assert game.builder(state) == "Ann"
    finally:
        stop(proc)


def test_undo_in_the_shell_takes_a_phones_move_back_and_the_page_shows_it(web, run, home):
    _markers(run)
    proc, links = serve(home, PLAYERS)
    try:
        phones = Phones(web, links, ["Ann"])
        tap_on_board(phones, "Ann", "E6-E7", "path")
        assert status_of(run)["rails"] == [{"line": "E6-E7", "player": "Ann"}]
        from prompt_toolkit.application import create_app_session
        from prompt_toolkit.input import create_pipe_input
        from prompt_toolkit.output import DummyOutput

        from companion.core.app import App
        from companion.terminal.cli import run_shell

        with create_pipe_input() as pipe:  # `undo` typed in the shell
            pipe.send_text("undo\nexit\n")
            with create_app_session(input=pipe, output=DummyOutput()):
                run_shell(App(home), input=pipe, output=DummyOutput())
        assert status_of(run)["rails"] == []
        # no reload: the page follows the game by itself (a reload here loaded it twice)
        assert settled(lambda: "2 rails' worth left this turn" in body_text(web), within=WAIT), body_text(web)[:1500]
        phones.ready("Ann", ".tapboard input[type=image]")
        text = body_text(web)
        assert "2 rails' worth left this turn" in text and "Ann built E6-E7" not in text
        assert web.find_elements("css selector", '.tapboard svg line[data-v="E6-E7"]')  # free again
    finally:
        stop(proc)
