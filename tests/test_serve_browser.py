"""The pages in a real browser: headless Chromium from the system's packages (skipped, with the
reason, where it is missing)."""

from __future__ import annotations

import json
import time

import pytest

from browser_support import body_text, chrome, quit_chrome, serve, stop
from serve_support import PLAYERS, hands, new_trans

UPDATE_WITHIN = 1.0  # seconds: the promise for an action recorded by another process (benchmarks/)
AT_THE_LATEST = 5.0  # seconds: what the test holds, on a busy machine too (the page is never reloaded to get it)


@pytest.fixture
def browser():
    web = chrome()
    yield web
    quit_chrome(web)


@pytest.fixture
def served(run, home):
    sid = new_trans(run)
    proc, links = serve(home, PLAYERS)
    yield sid, links
    stop(proc)


@pytest.fixture(scope="module")
def shown(tmp_path_factory):
    """One dealt session and its `serve` for the tests that only look at its pages:
    (data folder, session, links)."""
    import live_support

    home = tmp_path_factory.mktemp("shown") / "home"
    sid = live_support.new_trans(home, PLAYERS, special="pass-three")
    proc, links = serve(home, PLAYERS)
    yield home, sid, links
    stop(proc)


def text_of(web) -> str:
    return body_text(web)


def test_a_player_page_shows_that_players_cities_and_nobody_elses(browser, shown):
    home, sid, links = shown
    dealt = hands(home, sid)
    for name in ("Ann", "Dan"):
        browser.get(links[name])
        seen = text_of(browser) + browser.page_source
        for other, cities in dealt.items():
            for city in cities:
                assert (city in seen) == (other == name), (name, other, city)


def test_the_table_page_shows_no_city_of_any_hand(browser, shown):
    home, sid, links = shown
    browser.get(links["table"])
    seen = text_of(browser) + browser.page_source
    assert "Markers and rails" in seen
    for cities in hands(home, sid).values():
        for city in cities:
            assert city not in seen


def test_the_table_page_updates_within_a_second_of_another_process_recording(browser, run, home):
    new_trans(run, special=None)
    proc, links = serve(home, PLAYERS)
    try:
        browser.get(links["table"])
        assert "E6" not in text_of(browser)
        time.sleep(0.5)
        run(["start", "Ann", "E6"], expect=0)  # this test's process, not the server's
        recorded = time.monotonic()
        from selenium.webdriver.support.ui import WebDriverWait

        WebDriverWait(browser, AT_THE_LATEST, poll_frequency=0.02).until(lambda w: "E6" in text_of(w))
        print(f"the table page showed it {time.monotonic() - recorded:.2f} s after (promised: {UPDATE_WITHIN} s)")
    finally:
        stop(proc)


def test_a_pass_chosen_on_the_page_is_recorded_and_undo_in_the_shell_takes_it_back(browser, served, run, home):
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput
    from selenium.webdriver.support.ui import WebDriverWait

    from companion.core.app import App
    from companion.terminal.cli import run_shell

    sid, links = served
    ann = hands(home, sid)["Ann"]
    browser.get(links["Ann"])
    buttons = browser.find_elements("css selector", "form button[name=city]")
    assert sorted(b.text for b in buttons) == sorted(ann)
    chosen = buttons[0].text
    buttons[0].click()
    WebDriverWait(browser, 5).until(lambda w: "Chosen to pass left" in text_of(w))
    assert chosen in text_of(browser).split("Chosen to pass left", 1)[1]
    last = json.loads(run(["log", "--json"], expect=0).stdout)[-1]["event"]
    assert last["type"] == "pass" and last["player"] == "Ann"
    assert "Ann" not in json.loads(run(["status", "--json"], expect=0).stdout)["waiting_for"]
    with create_pipe_input() as pipe:  # `undo` typed in the shell
        pipe.send_text("undo\nexit\n")
        with create_app_session(input=pipe, output=DummyOutput()):
            run_shell(App(home), input=pipe, output=DummyOutput())
    assert "Ann" in json.loads(run(["status", "--json"], expect=0).stdout)["waiting_for"]
    WebDriverWait(browser, 5).until(lambda w: w.find_elements("css selector", "form button[name=city]"))
    assert "Chosen to pass left" not in text_of(browser)
