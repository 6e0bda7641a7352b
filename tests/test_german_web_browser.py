"""Mixed phones at one table, in real headless Chromium (issue 28): Bob's phone and the TV speak
German because their browsers ask for it (the Accept-Language their tabs send, set through the
DevTools as a browser set to German sends it), Ann's phone speaks English, all at once from one
`companion serve`; the switch on a page flips that page only, and the live pages stay in their own language as the
game goes on. Every page in German fits a 360-px phone and the TV at 1920x1080 (screenshots,
``german-*.png``, kept with ``COMPANION_SHOTS=DIR``), and a decimal comma typed on a phone is read."""

from __future__ import annotations

import json

import pytest

import browser_support
from axe_support import summary, violations
from browser_support import quit_chrome, serve, stop
from long_mode import LONG
from pseudo_support import leaks
from test_german_web import own_words

NARROW = 360


def device(lang: str, width: int, height: int, ratio: float = 3.0) -> browser_support.Device:
    """A touch screen of ``width`` x ``height`` CSS pixels whose user reads ``lang`` (the
    Accept-Language its browser sends, the locale it reports)."""
    return browser_support.Device(width, height, ratio, mobile=True, lang=lang)


def wait_for(web, test, timeout: float = 15.0):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(web, timeout, poll_frequency=0.1).until(lambda w: test(w))


def lang(web) -> str:
    return web.execute_script("return document.documentElement.lang")


def text(web) -> str:
    return browser_support.body_text(web)


def fits(web) -> bool:
    return web.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")


def shot(web, name: str) -> None:
    """The whole page at one device pixel a CSS pixel, kept with ``COMPANION_SHOTS=DIR``."""
    browser_support.shot(web, f"german-{name}", whole=True, ratio=1)


def enter(web, points: str) -> None:
    """Type ``points`` into the page's points field and send the form, as a thumb would."""
    field = web.find_element("css selector", "input[name=points]")
    field.send_keys(points)
    web.find_element("css selector", "form button.go").click()


def test_mixed_phones_at_one_table_each_in_its_own_language(run, home):
    players = ["Ann", "Bob", "Cy"]
    run(["new", "scoresheet", "--players", ",".join(players)], expect=0)
    run(["add", "Ann=68.5", "Bob=7", "Cy=3"], expect=0)
    proc, links = serve(home, players)
    web = browser_support.phone()  # three devices, a window each (browser_support.Window)
    german, english, tv = browser_support.windows(web, device("de", NARROW, 780), device("en", NARROW, 780),
                                                  device("de", 1920, 1080, 1.0))
    try:
        english.get(links["Ann"])
        german.get(links["Bob"])
        tv.get(links["table"])
        assert (lang(english), lang(german), lang(tv)) == ("en", "de", "de")
        assert "Scores" in text(english) and "68.5" in text(english) and "Punktestand" not in text(english)
        for page in (german, tv):
            assert "Punktestand" in text(page) and "68,5" in text(page) and "Diese Seite folgt dem Spiel" in text(page)
            assert "Scores" not in text(page) and "This page follows" not in text(page)
            assert fits(page)
        shot(german, "bob-360-de")
        shot(tv, "tv-1920-de")
        # Bob types his points with a German decimal comma; Ann hers in English
        enter(german, "2,5")
        wait_for(german, lambda w: "Punktestand" in text(w) and not w.find_elements("css selector", "input[name=points]"))
        enter(english, "12,5")
        wait_for(english, lambda w: not w.find_elements("css selector", "input[name=points]"))
        # Cy's page, opened in the German browser, switched to English: that page only
        german.get(links["Cy"])
        assert lang(german) == "de"
        german.find_element("css selector", "nav.lang a[hreflang=en]").click()
        wait_for(german, lambda w: lang(w) == "en" and "Scores" in text(w))
        german.get(links["Cy"])  # remembered for Cy's page
        assert lang(german) == "en"
        enter(german, "1")
        # the round is complete: every page, kept live by its stream, shows it in its own language
        wait_for(tv, lambda w: "81" in text(w) and "9,5" in text(w))
        wait_for(english, lambda w: "81" in text(w) and "9.5" in text(w))
        assert lang(tv) == "de" and "Punktestand" in text(tv) and fits(tv)
        assert lang(english) == "en" and "Scores" in text(english)
        german.get(links["Bob"])  # Bob's page in the same browser: still German
        assert lang(german) == "de" and "9,5" in text(german) and fits(german)
        shot(german, "bob-360-de-after")
        shot(english, "ann-360-en")
        events = json.loads(run(["log", "--json"], expect=0).stdout)
        assert [e["event"].get("points") for e in events if e["event"]["type"] == "score"] == [2.5, 12.5, 1]
        # the German page has no English of the pages' own (the pseudo-language shows any)
        german.get(links["Bob"] + "?lang=xx")
        assert lang(german) == "xx"
        ids = [p.name[:8] for p in (home / "sessions").glob("*.json")]  # an id is drawn as it is: random letters
        assert leaks(own_words(german.page_source), allowed=[*players, "Deutsch", "English", "Score", "sheet", *ids]) == []
    finally:
        quit_chrome(web)
        stop(proc)


GAMES = ["trans", "transatlantic", "atlantic-star", "scoresheet"]


@pytest.mark.parametrize("game", GAMES)
def test_every_german_page_fits_a_360_px_phone_and_the_tv(game, run, home):
    import test_serve_layout

    players = test_serve_layout.GAMES[game](run)
    proc, links = serve(home, players)
    web = browser_support.phone()
    # one tab, the TV and then the phone (a window each took ~0.2 s of CPU more, issue 29 item 7)
    tv = phone = browser_support.windows(web, device("de", 1920, 1080, 1.0))[0]
    try:
        tv.get(links["table"])  # the TV first: the phone's switch to "xx" below is remembered by its page
        assert lang(tv) == "de" and fits(tv) and test_serve_layout.overflow(tv) == []
        shot(tv, f"{game}-tv-1920-de")
        browser_support.emulate(web, device("de", NARROW, 780))  # the tab is a German phone now
        # by default the table's page and two players' (the others are built alike, and
        # test_serve_layout loads every page of each game in English); axe and the pseudo-language
        # on one page a game, the table's and a player's in turn (both with COMPANION_LONG_TESTS=1)
        checked = (GAMES.index(game) % 2,)
        for n, who in enumerate(["table", *players]):
            if not (LONG or n < 3):
                continue
            phone.get(links[who])
            assert lang(phone) == "de" and "Punktestand" in text(phone), (game, who)
            assert fits(phone), (game, who, phone.execute_script("return document.documentElement.scrollWidth"))
            assert test_serve_layout.overflow(phone) == [], (game, who)
            if n < 2 and (LONG or n in checked):
                shot(phone, f"{game}-{who}-360-de")
                found = violations(phone)
                assert found == [], f"{game} {who}:\n{summary(found)}"
                phone.get(links[who] + "?lang=xx")  # every message 40% longer: the page still within the phone
                assert lang(phone) == "xx" and fits(phone), (game, who)
                shot(phone, f"{game}-{who}-360-xx")
    finally:
        quit_chrome(web)
        stop(proc)
