"""What was left of issue 31 on the phones, in a real Chromium at 390x844 with touch against a
real `companion serve`: the phone that taps a move changes its page in place, as every other
page does (no reload: the document, its address and its live stream stay), and a printed value
that clashes with another (two card colours on one board colour) is asked again on the phone in
a player's words, with buttons, never with a laptop command."""

from __future__ import annotations

import json
import os
import time

import browser_support as b
from serve_support import PLAYERS, new_trans

EDITION = {"brown": "red", "white": "blue", "pink": "green", "turquoise": "yellow", "orange": "orange"}
SHOTS = os.environ.get("COMPANION_SHOTS")  # a folder: the screenshots looked at, kept there


def wait_for(web, ok, timeout: float = 15.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            got = ok(web)
        except Exception:  # noqa: BLE001 - the page is changing under the check
            got = None
        if got:
            return got
        time.sleep(0.1)
    raise AssertionError(f"not seen in {timeout} s: {b.body_text(web)[:600]}")


def shot(web, name: str) -> None:
    if SHOTS:
        web.save_screenshot(os.path.join(SHOTS, name + ".png"))


def test_the_tapping_phone_changes_its_page_in_place(run, home):
    sid = new_trans(run)  # "pass three cities": every phone passes cities to its neighbour
    proc, links = b.serve(home, PLAYERS)
    web = b.phone()
    try:
        web.get(links["Ann"])
        button = wait_for(web, lambda w: w.find_elements("css selector", "form button[name=city]"))[0]
        city = button.get_attribute("value")
        address = web.current_url
        web.execute_script("window.companionStayed = 'yes'")  # gone if the document is replaced
        b.tap(web, button)
        wait_for(web, lambda w: "Chosen to pass left" in b.body_text(w)
                 and not w.find_elements("css selector", "form button[name=city]"))  # recorded, shown
        shot(web, "tapped-in-place-390x844")
        assert web.execute_script("return window.companionStayed") == "yes"  # the same document
        assert web.current_url == address  # no /choose address, nothing a reload would post again
        from companion.core import session as sessions
        from companion.core.store import Store

        assert sessions.load(Store(home), sid).replay().state["pending"]["chosen"]["Ann"] == city
        # the page still follows the game: a move taken back at the laptop reaches it in place too
        run(["undo"], expect=0)
        wait_for(web, lambda w: "Chosen to pass left" not in b.body_text(w)
                 and w.find_elements("css selector", "form button[name=city]"))
        assert web.execute_script("return window.companionStayed") == "yes"
    finally:
        b.quit_chrome(web)
        b.stop(proc)


def test_two_card_colours_on_one_board_colour_are_asked_again_on_the_phone(run, home):
    """Every colour a special card names said to be this board's orange: a deal with two cards
    (or one card's two colours) on one board colour is refused on the laptop with `data set`; on
    the phone it is the question again, with what clashes and one button per board colour."""
    for named in ("brown", "white", "pink", "orange", "turquoise"):
        run(["data", "set", "trans-amerika", f"colour_aliases.{named}", '"orange"'], expect=0)
    web = b.phone()
    try:
        for _attempt in range(4):  # eight cards a round: two naming colours (else a new session)
            run(["new", "trans-amerika", "--players", ",".join(PLAYERS), "--variant", "special-cards",
                 "--specials-per-round", "8"], expect=0)
            proc, links = b.serve(home, PLAYERS)
            try:
                web.get(links["Ann"])
                asked = deal_on_the_phone(web)
            finally:
                b.stop(proc)
            if asked:
                break
        assert asked, "no deal clashed: eight cards never named two colours?"
        from companion.core.store import Store

        kept = Store(home).user_values("trans-amerika")  # kept as `data set` keeps it
        for text in asked:
            named = next(n for n in EDITION if f"the card's {n} means" in text)
            assert kept[f"colour_aliases.{named}"] == EDITION[named]
        status = json.loads(run(["status", "--json"], expect=0).stdout)
        assert status["round"] == 1 and status["round_open"]  # dealt, with the colours given again
    finally:
        b.quit_chrome(web)


def deal_on_the_phone(web) -> list[str]:
    """Tap "Deal the cities" until dealt, answering each clash with another board colour."""
    asked: list[str] = []
    for _ in range(10):
        dealt = wait_for(web, lambda w: "deal" if not w.find_elements(
            "css selector", "form input[name=move][value='round start']") else w.find_elements(
            "css selector", "form input[name=move][value='round start']"))
        if dealt == "deal":
            return asked
        form = dealt[0].find_element("xpath", "..")
        b.tap(web, form.find_element("css selector", "button"))
        question = wait_for(web, lambda w: w.find_elements("css selector", "section.question")
                            or (not w.find_elements("css selector", "form input[name=move][value='round start']")
                                and ["dealt"]))
        if question == ["dealt"]:
            return asked
        text = b.body_text(web)
        assert "companion data" not in text and "`" not in text, text  # a phone's words, no command
        assert "both came out as this board's orange" in text or "both were given as this board's orange" in text
        assert "tap the board colour" in text
        buttons = web.find_elements("css selector", "section.question form button[name=value]")
        assert [json.loads(x.get_attribute("value")) for x in buttons] == ["green", "blue", "yellow", "red", "orange"]
        if not asked:
            shot(web, "clash-asked-again-390x844")
        asked.append(text)
        key = web.find_element("css selector", "section.question input[name=key]").get_attribute("value")
        meant = EDITION[key.split(".", 1)[1]]  # each of the edition's colours on a board colour of its own
        b.tap(web, next(x for x in buttons if json.loads(x.get_attribute("value")) == meant))
        wait_for(web, lambda w: "Kept: colour_aliases." in b.body_text(w))
    raise AssertionError("still not dealt after 10 answers")


def test_the_laptop_still_names_the_command_and_a_value_given_again_counts(run, home):
    """At the laptop the same clash names `data set`; the value given again there counts for the
    session that froze the old one (it is frozen into the round's start, as a missing one is)."""
    for named in EDITION:
        run(["data", "set", "trans-amerika", f"colour_aliases.{named}", '"orange"'], expect=0)
    run(["new", "trans-amerika", "--players", ",".join(PLAYERS), "--variant", "special-cards"], expect=0)
    refused = run(["round", "start", "--special", "reveal-pink-orange", "--physical"], expect=1)
    assert "companion data set trans-amerika colour_aliases.pink" in refused.output
    run(["data", "set", "trans-amerika", "colour_aliases.pink", '"green"'], expect=0)
    run(["round", "start", "--special", "reveal-pink-orange", "--physical"], expect=0)
    status = json.loads(run(["status", "--json"], expect=0).stdout)
    assert status["round_open"] and status["special"]["id"] == "reveal-pink-orange"


def test_a_tap_on_the_board_places_the_marker_in_place(run, home):
    """The board is an image button: the tap's place (NAME.x, NAME.y) is posted as a browser's
    own submit posts it, and the page changes in place."""
    new_trans(run, special=None)
    from companion.core.store import Store
    from companion.core import session as sessions

    sid = json.loads(run(["status", "--json"], expect=0).stdout)["session"]
    city = sessions.load(Store(home), sid).replay().state["hands"]["Ann"][0]
    proc, links = b.serve(home, PLAYERS)
    web = b.phone()
    try:
        web.get(links["Ann"] + "?z=1")
        ring = wait_for(web, lambda w: w.find_element("css selector", f'svg.tapboard-svg circle[data-v="{city}"]'))
        image = web.find_element("css selector", "form.tapboard input[type=image]")
        box = web.execute_script("var a=arguments[0].getBoundingClientRect(),b=arguments[1].getBoundingClientRect();"
                                 "return [a.left+a.width/2-b.left,a.top+a.height/2-b.top]", ring, image)
        web.execute_script("window.companionStayed = 'yes'")
        b.tap(web, image, box[0], box[1])
        wait_for(web, lambda w: json.loads(run(["status", "--json"], expect=0).stdout)["players"][0].get("start") == city)
        wait_for(web, lambda w: not w.find_elements("css selector", "form.tapboard input[name=move][value=start]"))
        assert web.execute_script("return window.companionStayed") == "yes"
    finally:
        b.quit_chrome(web)
        b.stop(proc)
