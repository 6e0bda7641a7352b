"""The web site through Starlette's test client: every route and every bad input."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from serve_support import PLAYERS, hands, new_trans, site_and_client


@pytest.fixture
def served(run, home):
    sid = new_trans(run)
    site, client, links = site_and_client(home, sid)
    return sid, site, client, links


def form_of(html: str) -> str:
    return re.search(r'name="form" value="([0-9]+\.[0-9a-f]+\.[0-9a-f]+)"', html).group(1)


def journal_length(run) -> int:
    return len(json.loads(run(["log", "--json"], expect=0).stdout))


def test_a_player_page_shows_own_cities_and_nobody_elses(served, home):
    sid, _site, client, links = served
    dealt = hands(home, sid)
    for name in PLAYERS:
        html = client.get(f"/p/{links[name]}").text
        for other, cities in dealt.items():
            for city in cities:
                assert (city in html) == (other == name), (name, other, city)
        assert f"{name} · Trans Europa" in html


def test_the_table_page_shows_no_city_of_any_hand(served, home):
    sid, _site, client, links = served
    response = client.get(f"/t/{links['table']}")
    assert response.status_code == 200
    for cities in hands(home, sid).values():
        for city in cities:
            assert city not in response.text
    assert "<svg" in response.text and "Markers and rails" in response.text


def test_every_page_carries_the_strict_headers(served):
    _sid, _site, client, links = served
    for path in (f"/p/{links['Ann']}", f"/t/{links['table']}", f"/p/{links['Ann']}/v", "/nothing", "/"):
        headers = client.get(path).headers
        csp = headers["content-security-policy"]
        assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp
        assert headers["referrer-policy"] == "no-referrer"
        assert headers["cache-control"] == "no-store"
        assert headers["x-frame-options"] == "DENY"


def test_pages_need_no_javascript_and_load_nothing_from_elsewhere(served):
    _sid, _site, client, links = served
    html = client.get(f"/p/{links['Ann']}").text
    assert "<form method=\"post\"" in html and "<noscript>" in html
    assert not re.search(r"""(src|href)=["']?https?:""", html)
    assert html.count("<link") == 1 and '<link rel="icon" href="data:,">' in html and "@import" not in html


def test_wrong_missing_and_misplaced_tokens_get_the_same_404_as_an_unknown_path(served, run, home):
    from companion.web.site import Guesses

    sid, site, client, links = served
    unknown = client.get("/no/such/page")
    assert unknown.status_code == 404
    other_sid = new_trans(run, special=None)
    from companion.web import tokens

    other_links = tokens.links(home, other_sid, PLAYERS)
    for path in ("/p/", "/p/wrong", f"/p/{links['Ann'][:-1]}", f"/p/{links['table']}", f"/t/{links['Ann']}",
                 f"/t/{links['Ann']}/v", f"/p/{links['table']}/v", f"/p/{other_links['Ann']}",
                 f"/t/{other_links[tokens.TABLE]}", "/t/", "/p/x/choose", f"/p/{links['Ann']}/other"):
        site.guesses = Guesses()  # the same answer is the point here, not its slow-down (test_web_connections)
        response = client.get(path)
        assert response.status_code == 404, path
        assert response.text == unknown.text, path
    assert client.post("/p/wrong/choose", data={"form": "x", "choice": "y"}).text == unknown.text


def test_wrong_methods_are_refused(served):
    _sid, _site, client, links = served
    assert client.post(f"/p/{links['Ann']}").status_code == 405
    assert client.post(f"/t/{links['table']}").status_code == 405
    assert client.delete(f"/p/{links['Ann']}/v").status_code == 405
    assert client.get(f"/p/{links['Ann']}/choose").status_code == 405
    assert client.put(f"/p/{links['Ann']}/choose", data={"form": "x"}).status_code == 405


def test_a_pass_chosen_on_the_page_is_recorded_and_undo_takes_it_back(served, run, home):
    sid, _site, client, links = served
    ann = hands(home, sid)["Ann"]
    html = client.get(f"/p/{links['Ann']}").text
    assert "Pass a city (pass 1 of 3)" in html
    before = journal_length(run)
    response = client.post(f"/p/{links['Ann']}/choose", data={"form": form_of(html), "choice": ann[0]},
                           follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == f"/p/{links['Ann']}"
    log = json.loads(run(["log", "--json"], expect=0).stdout)
    assert len(log) == before + 1 and log[-1]["event"]["type"] == "pass"
    assert log[-1]["event"]["player"] == "Ann" and ann[0] not in json.dumps(log)  # hidden in the log
    status = json.loads(run(["status", "--json"], expect=0).stdout)
    assert "Ann" not in status["waiting_for"]
    after = client.get(f"/p/{links['Ann']}").text
    assert f"Chosen to pass left" in after and 'name="city"' not in after
    run(["undo"], expect=0)
    status = json.loads(run(["status", "--json"], expect=0).stdout)
    assert "Ann" in status["waiting_for"]
    assert 'name="city"' in client.get(f"/p/{links['Ann']}").text


def test_a_missing_or_replayed_form_token_is_refused(served, run, home):
    sid, _site, client, links = served
    ann = hands(home, sid)["Ann"]
    url = f"/p/{links['Ann']}/choose"
    before = journal_length(run)
    assert client.post(url, data={"choice": ann[0]}).status_code == 403
    assert client.post(url, data={"form": "0" * 32, "choice": ann[0]}).status_code == 403
    assert journal_length(run) == before
    form = form_of(client.get(f"/p/{links['Ann']}").text)
    assert client.post(url, data={"form": form, "choice": ann[0]}, follow_redirects=False).status_code == 303
    run(["undo"], expect=0)  # Ann may choose again, but not with the old page
    replay = client.post(url, data={"form": form, "choice": ann[1]})
    assert replay.status_code == 403 and "out of date" in replay.text
    assert journal_length(run) == before  # the one pass was undone, and nothing came after it
    assert "Ann" in json.loads(run(["status", "--json"], expect=0).stdout)["waiting_for"]


def test_bob_cannot_use_anns_form_token(served, run, home):
    sid, _site, client, links = served
    form = form_of(client.get(f"/p/{links['Ann']}").text)
    bob = hands(home, sid)["Bob"]
    assert client.post(f"/p/{links['Bob']}/choose", data={"form": form, "choice": bob[0]}).status_code == 403


def test_a_choice_when_none_is_pending_is_refused(run, home):
    sid = new_trans(run, special="three-rails")
    _site, client, links = site_and_client(home, sid)
    html = client.get(f"/p/{links['Ann']}").text
    assert 'name="city"' not in html
    form = _site.move_token("Ann", "pass", 0, {"city": []})  # what a page would carry, were it offered
    response = client.post(f"/p/{links['Ann']}/choose", data={"form": form, "move": "pass",
                                                              "choice": hands(home, sid)["Ann"][0]})
    assert response.status_code == 409 and "Ann has nothing to choose now" in response.text


def _site_store(home):
    from companion.core.store import Store

    return Store(home)


def test_a_city_not_in_the_hand_is_refused_and_nothing_recorded(served, run, home):
    sid, _site, client, links = served
    bob = hands(home, sid)["Bob"]
    html = client.get(f"/p/{links['Ann']}").text
    before = journal_length(run)
    # read as the typed `pass` reads it (issue 27: one reader), then refused by the rules in their
    # words (409), or refused as a field left empty (400)
    for city, status, said in ((bob[0], 409, f"{bob[0]} is not in Ann's hand"),
                               ("Atlantis", 409, "There is no city 'Atlantis' on the Europa board."),
                               ("", 400, "Choose the city you pass to your left neighbour, then tap “")):  # issue 31: what to choose
        response = client.post(f"/p/{links['Ann']}/choose", data={"form": form_of(html), "choice": city})
        assert response.status_code == status, city
        assert said in unescape(response.text), city
        assert bob[0] not in response.text or city == bob[0]
    assert journal_length(run) == before


def test_an_oversized_or_odd_body_is_refused(served, run, home):
    sid, _site, client, links = served
    html = client.get(f"/p/{links['Ann']}").text
    url = f"/p/{links['Ann']}/choose"
    before = journal_length(run)
    big = client.post(url, data={"form": form_of(html), "choice": "x" * 5000})
    assert big.status_code == 413
    as_json = client.post(url, json={"form": form_of(html), "choice": hands(home, sid)["Ann"][0]})
    assert as_json.status_code == 400
    assert journal_length(run) == before


def test_the_version_changes_when_another_process_records(served, run):
    _sid, _site, client, links = served
    first = client.get(f"/t/{links['table']}/v").text
    assert client.get(f"/t/{links['table']}/v").text == first
    assert f'data-v="{first}"' in client.get(f"/t/{links['table']}").text
    run(["start", "Ann", "E6"], expect=None)
    run(["undo"], expect=None)
    assert client.get(f"/t/{links['table']}/v").text != first


def test_the_access_log_never_holds_a_token(served):
    _sid, site, client, links = served
    client.get(f"/p/{links['Ann']}")
    client.get(f"/t/{links['table']}/v")
    client.get("/p/guessed-token")
    text = site.log_path.read_text()
    assert "GET player page 200" in text and "GET player page 404" in text and "GET table version 200" in text
    assert "/p/" not in text and "/t/" not in text  # the route's name, never a path
    for token in links.values():
        assert token not in text
    assert "guessed-token" not in text
    assert oct(site.log_path.stat().st_mode & 0o777) == "0o600"


def test_repeated_wrong_tokens_from_one_address_are_slowed():
    from companion.web.site import FREE_GUESSES, Guesses

    guesses = Guesses()
    delays = [guesses.delay("10.0.0.9") for _ in range(FREE_GUESSES + 4)]
    assert delays[:FREE_GUESSES] == [0.0] * FREE_GUESSES
    assert 0 < delays[FREE_GUESSES] < delays[FREE_GUESSES + 1] < delays[FREE_GUESSES + 3]
    assert guesses.delay("10.0.0.10") == 0.0  # another address is not slowed


def test_new_links_replace_every_token_and_old_pages_get_404(served, home):
    sid, _site, client, links = served
    from companion.web import tokens

    fresh = tokens.links(home, sid, PLAYERS, renew=True)
    assert set(fresh.values()).isdisjoint(links.values())
    assert client.get(f"/p/{links['Ann']}").status_code == 404
    assert client.get(f"/p/{fresh['Ann']}").status_code == 200


def test_the_pages_state_after_new_actions_is_the_full_replays(run, home):
    """The server applies newly recorded actions to its last state instead of replaying the
    round: after every kind of step it must hold exactly what a full replay gives."""
    sid = new_trans(run, special=None)
    site, client, links = site_and_client(home, sid)
    steps = [["start", "Ann", "E6"], ["start", "Bob", "K8"], ["start", "Cy", "H11"], ["start", "Dan", "N5"],
             ["build", "Ann", "E6-E7"], ["build", "Ann", "E7-E8"], ["undo"], ["redo"], ["build", "Bob", "K8-K9"]]
    for step in steps:
        run(step, expect=0)
        client.get(f"/t/{links['table']}")
        _s, served = site.snapshot(site.version())
        _s2, full = site.load()
        assert (served.state, served.events, served.undone, served.finished_at) == \
            (full.state, full.events, full.undone, full.finished_at), step


def test_a_bug_while_drawing_a_page_is_a_500_logged_without_the_token(served, home, monkeypatch):
    _sid, site, client, links = served
    from companion.web import views

    def broken(*args, **kwargs):
        raise RuntimeError(f"drawing failed for /t/{links['table']}")

    monkeypatch.setattr(views, "table_page", broken)
    response = client.get(f"/t/{links['table']}")
    assert response.status_code == 500 and "Traceback" not in response.text
    assert response.headers["cache-control"] == "no-store"
    logged = (home / ".local" / "errors.log").read_text()
    assert "RuntimeError: drawing failed for /t/~" in logged
    assert all(token not in logged for token in links.values())


def test_wrong_tokens_through_the_site_are_counted_per_address(served):
    _sid, site, client, links = served
    from companion.web.site import FREE_GUESSES

    for n in range(FREE_GUESSES):
        client.get(f"/p/guess{n}")
    client.get(f"/p/{links['Ann']}")  # a right token is not a guess
    assert site.guesses.seen["testclient"][0] == FREE_GUESSES
    assert site.guesses.delay("testclient") > 0  # the next wrong one waits
