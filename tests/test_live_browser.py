"""Live pages in a real browser (issue 21, items 4 and 9): headless Chromium at 390x844, every
page of a game open at once, the server a real `companion serve` in its own process.

The one timed promise here is the issue's own (item 9): `undo` typed in the shell, taking back
a move made on a phone, shows on every page within 300 ms. It is measured in the pages: each
page notes the moment (the system clock) its text shows the undo, against the moment the
session file was written (its modification time). The medians and spreads are in
BENCHMARKS.md ("Live pages"), from benchmarks/bench_serve.py; the test tries for 300 ms three
times and fails only past :data:`AT_THE_LATEST` (issue 29: on a busy machine 507 ms failed a
suite that had nothing wrong)."""

from __future__ import annotations

import json
import time

import pytest

from browser_support import body_text, new_tab, phone, quit_chrome, until
from live_support import PLAYERS, Served, companion, new_trans
from serve_support import hands
from warm_support import serve_process

WITHIN = 0.300  # seconds: the promise, from the write to every page showing it
AT_THE_LATEST = 3.0  # seconds: what the test holds on any machine (a page left to reload itself is later)

# Notes, in the page, the system clock's time when the page's text first contains `arguments[0]`
# (checked at every change of the document, so also when the live script swaps the body in).
WATCH = """
window.__seen = null;
var wanted = arguments[0];
function check() {
  if (window.__seen === null && document.body && document.body.innerText.indexOf(wanted) >= 0) {
    window.__seen = Date.now();
  }
}
new MutationObserver(check).observe(document.documentElement, {childList: true, subtree: true, characterData: true});
check();
"""


@pytest.fixture
def web():
    browser = phone()
    yield browser
    quit_chrome(browser)


def wait_for(web, test, timeout: float = 10.0):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(web, timeout, poll_frequency=0.1).until(lambda w: test(w))


def shows(web, words: str, timeout: float = 10.0) -> None:
    """Wait until ``web``'s page shows ``words``, checked by the page itself every 25 ms
    (browser_support.until: ~0.012 s of CPU a second waited, against ~0.035 s polling through
    the driver; a page that reconnects waits seconds, issue 29 item 7)."""
    if not until(web, "return document.body !== null && document.body.innerText.indexOf(arguments[0]) >= 0",
                 words, timeout=timeout):
        raise AssertionError(f"the page never showed {words!r}; it shows:\n{body_text(web)[:1500]}")


def open_every_page(web, srv: Served) -> dict:
    """One window per page (the table's and each player's): {who: window handle}."""
    windows = {}
    for n, who in enumerate([None, *PLAYERS]):
        if n:
            new_tab(web, "window")
        web.get(srv.table if who is None else srv.players[who])
        windows[who] = web.current_window_handle
    return windows


def test_undo_in_the_shell_taking_back_a_phones_move_shows_on_every_page_at_once(web, home):
    """Ann taps her move on her phone, every page shows it; then `undo` is typed in the shell
    (this process, the shell's own path). The machine is shared with other work, so a try
    that comes later than 300 ms is tried again, up to three times; every page must show the
    undo in place (the same document) within :data:`AT_THE_LATEST`, and a failure lists them all."""
    from companion.core.app import App
    from companion.terminal.cli import run_line

    sid = new_trans(home, special="pass-three")
    tries = []
    with Served(home) as srv:
        windows = open_every_page(web, srv)
        for _ in range(3):
            web.switch_to.window(windows["Ann"])
            wait_for(web, lambda w: w.find_elements("css selector", "form button[name=city]"))
            web.find_elements("css selector", "form button[name=city]")[0].click()  # Ann's move, on her phone
            for handle in windows.values():
                web.switch_to.window(handle)
                shows(web, "Waiting for Bob")
                web.execute_script(WATCH, "Waiting for Ann")
            time.sleep(0.3)
            status, error = run_line(App(home), "undo")  # as typed at the shell's prompt
            assert status == 0 and error is None
            # ms, the system clock: when the undo was written (issue 30: to this laptop's journal)
            written = max(p.stat().st_mtime_ns for p in (home / "sessions").glob(f"{sid}.*")) / 1e6
            deadline = time.monotonic() + AT_THE_LATEST
            late = {}
            for who, handle in windows.items():
                web.switch_to.window(handle)
                seen = web.execute_script("return window.__seen")
                while seen is None and time.monotonic() < deadline:
                    time.sleep(0.05)
                    seen = web.execute_script("return window.__seen")
                assert seen is not None, f"{who or 'the table'}'s page never showed the undo"
                late[who or "table"] = round(seen - written)
            tries.append(late)
            assert "Ann" in json.loads(companion(home, "status", "--json").stdout)["waiting_for"]
            if max(late.values()) <= WITHIN * 1000:
                break
    print("undo seen on every page after (ms from the write):", tries)
    assert max(tries[-1].values()) <= AT_THE_LATEST * 1000, tries


def test_a_page_changes_in_place_keeping_its_scroll(web, home):
    new_trans(home)
    with Served(home) as srv:
        web.get(srv.table)
        web.execute_script("window.__same = 'this document'; window.scrollTo(0, 400)")
        scrolled = web.execute_script("return window.scrollY")
        assert scrolled > 0
        companion(home, "start", "Ann", "E6")  # another process
        shows(web, "E6")
        assert web.execute_script("return window.__same") == "this document"  # no reload
        assert web.execute_script("return window.scrollY") == scrolled
        assert web.execute_script("return performance.getEntriesByType('navigation').length") == 1


def test_a_phone_back_from_a_lost_wifi_shows_the_current_state_and_records_once(web, home):
    """While Bob's phone is away, a stream of his page opened straight at the server (not
    through the lost Wi-Fi) shows when the server sent his new page to every open stream; the
    phone, WITHIN (the promise's whole budget) later still shows the old state: it could not know.
    (Before: a fixed 2 s wait, with nothing telling whether the move had gone out yet.)"""
    from live_support import Stream, Wifi

    sid = new_trans(home, special="pass-three")
    with Served(home) as srv:
        wifi = Wifi(srv.host, srv.port)
        try:
            web.get(wifi.url(srv.players["Bob"]))
            shown = web.execute_script("return document.documentElement.getAttribute('data-v')")
            web.execute_cdp_cmd("Network.enable", {})
            offline = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
            wifi.cut()  # the phone's connections die, and nothing gets through
            web.execute_cdp_cmd("Network.emulateNetworkConditions", offline)  # the phone knows it is offline
            control = Stream(srv.host, srv.port, srv.path("Bob"), since=shown)
            try:
                companion(home, "pass", "Ann", hands(home, sid)["Ann"][0])  # while Bob's phone is away
                assert control.data(timeout=30) != shown  # sent: a page still connected has it now
            finally:
                control.close()
            time.sleep(WITHIN)
            assert "Waiting for Ann" in body_text(web)  # it could not know
            wifi.restore()
            web.execute_cdp_cmd("Network.emulateNetworkConditions", dict(offline, offline=False))  # 'online'
            shows(web, "Waiting for Bob")  # back: the current state
            assert web.execute_script("return document.documentElement.getAttribute('data-v')") != shown
            before = len(json.loads(companion(home, "log", "--json").stdout))
            web.find_elements("css selector", "form button[name=city]")[0].click()
            shows(web, "Chosen to pass left")
            log = json.loads(companion(home, "log", "--json").stdout)
            assert len(log) == before + 1 and log[-1]["event"]["player"] == "Bob"
        finally:
            wifi.close()


def test_a_phone_whose_wifi_comes_back_unannounced_catches_up_by_itself(web, home):
    """No 'online' event this time (the network dropped and returned under the browser): the
    page's stream fails, and the page tries again, 1 s, then 2 s, 4 s ... later."""
    from live_support import Wifi

    new_trans(home)
    with Served(home) as srv:
        wifi = Wifi(srv.host, srv.port)
        try:
            web.get(wifi.url(srv.table))
            wifi.cut()
            companion(home, "start", "Ann", "E6")
            time.sleep(1.5)
            assert "E6" not in body_text(web)
            wifi.restore()
            shows(web, "E6", timeout=20)
        finally:
            wifi.close()


def test_a_page_catches_up_when_the_server_comes_back(web, home):
    """The laptop went to sleep (the server stopped), moves were typed meanwhile, the server is
    started again on the same port: the open page reconnects by itself and shows them."""
    new_trans(home)
    srv = Served(home)
    try:
        web.get(srv.table)
        port = srv.port
        srv.stop()
        companion(home, "start", "Ann", "E6")
        again = serve_process(home, "--port", str(port))  # forked from the warm web process
        try:
            again.stdout.readline()
            shows(web, "E6", timeout=20)  # reconnecting waits 1 s, 2 s, 4 s ...
            assert web.execute_script("return performance.getEntriesByType('navigation').length") == 1
        finally:
            again.terminate()
            again.wait(timeout=15)
            again.stdout.close()
            again.stderr.close()
    finally:
        srv.stop()


def test_pages_are_complete_and_their_forms_work_without_javascript(web, home):
    sid = new_trans(home, special="pass-three")
    with Served(home) as srv:
        web.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
        web.get(srv.players["Ann"])
        text = body_text(web)
        assert all(city in web.page_source for city in hands(home, sid)["Ann"])
        assert "Waiting for Ann" in text
        web.find_elements("css selector", "form button[name=city]")[0].click()  # a plain HTML post
        wait_for(web, lambda w: "Chosen to pass left" in w.page_source)
        companion(home, "pass", "Bob", hands(home, sid)["Bob"][0])
        web.refresh()  # without JavaScript, a reload brings the page up to date
        assert "Waiting for Cy" in web.page_source
    log = (home / ".local" / "web" / "access.log").read_text()
    assert "POST player move 303" in log and "player live" not in log  # no script ran, no stream


def test_a_refused_choice_shows_why_and_the_page_still_follows_the_game(web, home):
    sid = new_trans(home, special="pass-three")
    with Served(home) as srv:
        web.get(srv.players["Ann"])
        web.execute_script("var b = document.querySelector('form button[name=city]');"
                           "b.value = 'Atlantis'; b.click()")  # a city the page did not offer
        # shown in place (issue 31): the page stays at its own address, as a pushed page does
        wait_for(web, lambda w: w.execute_script("return document.querySelector('section.error') !== null"))
        assert "/choose" not in web.current_url
        companion(home, "pass", "Ann", hands(home, sid)["Ann"][0])  # typed on the laptop meanwhile
        shows(web, "Waiting for Bob")  # the refusal's page went live as well
