"""The group's history on each phone (issue 31, item 8): `/p/TOKEN/history` shows the sessions of
this data folder, the player's own statistics and head-to-head, and the ratings, made by the
same functions as `sessions`, `stats` and `stats --ratings`, read-only, and without a secret of
a game in play (the hands of an unfinished session)."""

from __future__ import annotations

import html as markup
import json
import re

from serve_support import PLAYERS, hands, new_trans, site_and_client


def history_group(run) -> str:
    """Three finished plays (Carcassonne twice, a co-op) and a Trans game in play, dealt."""
    run(["played", "Carcassonne", "--players", "Ann=52,Bob=47,Cy=30"], expect=0)
    run(["played", "Carcassonne", "--players", "Ann=20,Bob=41,Cy=33"], expect=0)
    run(["played", "Azul", "--players", "Ann=70,Cy=61"], expect=0)
    return new_trans(run)


def text_of(page: str) -> str:
    return " ".join(markup.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_a_players_history_page_shows_what_the_commands_say(run, home):
    sid = history_group(run)
    _site, client, links = site_and_client(home, sid)
    game_page = client.get(f"/p/{links['Ann']}").text
    assert f'href="/p/{links["Ann"]}/history"' in game_page  # one tap from the player's page
    response = client.get(f"/p/{links['Ann']}/history")
    assert response.status_code == 200
    page = text_of(response.text)
    assert f'href="/p/{links["Ann"]}"' in response.text  # back to the game, on the same private link
    sessions = json.loads(run(["sessions", "--json"], expect=0).stdout)
    assert len(sessions) == 4 and all(s["id"] in page for s in sessions)
    assert f"{sid} (this game)" in page and "in play" in page and "won by Bob" in page
    stats = json.loads(run(["stats", "--player", "Ann", "--json"], expect=0).stdout)
    ann = stats["players"][0]
    assert f"Ann won {ann['wins']} of {ann['sessions']} finished games" in page
    assert "Head-to-head" in page and "Bob 1 1 0" in page and "Cy 2 1 0" in page
    ratings = json.loads(run(["stats", "--ratings", "--json"], expect=0).stdout)
    best = ratings["overall"][0]
    assert f"{best['name']} {best['rating']:.1f} {best['mu']:.1f} ± {best['sigma']:.1f} {best['plays']}" in page
    assert "<script" not in response.text and "<form" not in response.text  # read-only, nothing posts


def test_no_secret_of_the_game_in_play_reaches_the_history(run, home):
    sid = history_group(run)
    _site, client, links = site_and_client(home, sid)
    dealt = hands(home, sid)
    for who in PLAYERS:
        page = client.get(f"/p/{links[who]}/history").text
        assert not any(city in page for other in PLAYERS for city in dealt[other]), who


def test_only_a_players_own_link_opens_it(run, home):
    sid = history_group(run)
    _site, client, links = site_and_client(home, sid)
    assert client.get(f"/p/{links['table']}/history").status_code == 404  # the table's code is no player
    assert client.get(f"/t/{links['table']}/history").status_code == 404
    assert client.get("/p/not-a-token/history").status_code == 404
    assert client.post(f"/p/{links['Ann']}/history").status_code == 405
    assert json.loads(run(["sessions", "--json"], expect=0).stdout)[-1]["id"] == sid  # nothing written


def test_the_history_in_german(run, home):
    sid = history_group(run)
    _site, client, links = site_and_client(home, sid)
    page = text_of(client.get(f"/p/{links['Ann']}/history?lang=de").text)
    assert "Die Geschichte der Gruppe" in page and "Direktvergleich" in page



def test_on_a_phone_in_chromium_the_history_is_one_tap_away_and_fits(run, home):
    from browser_support import body_text, phone, quit_chrome, serve, stop, tap

    sid = history_group(run)
    proc, links = serve(home, PLAYERS)
    web = phone()
    try:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait

        web.get(links["Bob"])
        tap(web, web.find_element(By.CSS_SELECTOR, 'a[href$="/history"]'))
        WebDriverWait(web, 10).until(lambda w: w.current_url.endswith("/history") and "Head-to-head" in body_text(w))
        assert web.current_url == links["Bob"] + "/history"  # still the private link
        text = body_text(web)
        assert "The group's history" in text and f"{sid} (this game)" in text and "Ratings, all games" in text
        assert "Bob won 1 of 2 finished games" in text
        wide = web.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert wide[0] <= wide[1] == 390, wide  # no page wider than the phone
        dealt = hands(home, sid)
        assert not any(city in web.page_source for cards in dealt.values() for city in cards)
        tap(web, web.find_element(By.LINK_TEXT, "Back to the game"))
        WebDriverWait(web, 10).until(lambda w: w.current_url == links["Bob"])
    finally:
        quit_chrome(web)
        stop(proc)
