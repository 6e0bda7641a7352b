"""Every question on the phone (issue 31, item 2): a printed value a phone's move needs is asked
on that phone (what needs it, where it is printed, buttons when the choices are few, the public
suggestion), checked as `data set` checks it and kept as `data set` keeps it; then the move
goes through. No page names a laptop command for it."""

from __future__ import annotations

import json
import re

from serve_support import forms_on, moves_on, post_move, site_and_client

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def sid_of(run) -> str:
    return json.loads(run(["status", "--json"], expect=0).stdout)["session"]


def kept_values(home, game: str) -> dict:
    from companion.core.store import Store

    return Store(home).user_values(game)


def question_form(html: str) -> dict | None:
    found = [f for f in forms_on(html) if (f["action"] or "").endswith("/value")]
    return found[0] if found else None


def test_the_deal_asks_the_special_cards_colours_on_the_phone(run, home):
    for _ in range(6):  # eight cards a round: one names a colour (else a new deal, with another seed)
        run(["new", "trans-amerika", "--players", ",".join(PLAYERS), "--variant", "special-cards",
             "--specials-per-round", "8"], expect=0)
        site, client, links = site_and_client(home, sid_of(run), PLAYERS)
        told: list[str] = []
        site.notify = told.append
        asked = deal_answering(run, home, client, links)
        if asked:
            break
    assert asked, "no deal asked anything: the pack knows every colour already?"
    assert "round start" not in moves_on(client.get(f"/p/{links['Ann']}").text)  # dealt
    assert set(asked) <= set(kept_values(home, "trans-amerika"))
    assert any("kept the printed value trans-amerika colour_aliases." in line for line in told)


def deal_answering(run, home, client, links) -> list[str]:
    asked = []
    for _ in range(12):
        page = post_move(client, links["Ann"], "round start", follow=True)
        form = question_form(page.text)
        if form is None:
            break
        assert page.status_code == 200 and "companion data set" not in page.text
        assert "Where to look" in page.text and "Needed for" in page.text
        key = form["hidden"]["key"]
        asked.append(key)
        assert key.startswith("colour_aliases.")
        values = [v for name, v in form["buttons"] if name == "value"]
        assert [json.loads(v) for v in values] == ["green", "blue", "yellow", "red", "orange"]  # one button each
        if len(asked) == 1:  # a colour not on this board, typed: refused as `data set` refuses it, nothing kept
            wrong = client.post(form["action"].replace("{token}", links["Ann"]),
                                data={**form["hidden"], "typed": "purple"})
            assert wrong.status_code == 400 and question_form(wrong.text) is not None
            assert key not in kept_values(home, "trans-amerika")
            forged = client.post(form["action"].replace("{token}", links["Ann"]),
                                 data={**form["hidden"], "key": "rails", "value": "3"})
            assert forged.status_code == 400 and "not one this laptop asked you" in forged.text
        kept = client.post(form["action"].replace("{token}", links["Ann"]),
                           data={**form["hidden"], "value": values[len(asked) % 5]}, follow_redirects=True)
        assert kept.status_code == 200 and "Kept: " + key in kept.text
    return asked


def test_a_victory_point_row_is_typed_or_the_suggestion_confirmed_on_the_phone(run, home):
    from companion.web import questions

    run(["new", "atlantic-star", "--players", "Ann,Bob", "--agency", "Rhea,Oceana,Titan,Ceres"], expect=0)
    sid = sid_of(run)
    site, client, links = site_and_client(home, sid, ["Ann", "Bob"])
    section = questions.question(site.reader, site.secret, sid, "Ann", "atlantic-star", "vp.2", "Stage a voyage",
                                 "/p/{token}/value")
    assert "Yes, my copy says 18, 14, 10, 7, 4, 2" in section  # the public suggestion, one tap
    typed = questions.question(site.reader, site.secret, sid, "Ann", "atlantic-star", "vp.3", "Stage a voyage",
                               "/p/{token}/value")
    assert 'name="typed"' in typed and "Yes, my copy" not in typed  # no suggestion: a field
    seal = questions.seal(site.secret, sid, "Ann", "atlantic-star", "vp.3")
    base = {"game": "atlantic-star", "key": "vp.3", "seal": seal, "for": "Stage a voyage"}
    short = client.post(f"/p/{links['Ann']}/value", data={**base, "typed": "9, 6, 3"})
    assert short.status_code == 400 and question_form(short.text) is not None
    assert "vp.3" not in kept_values(home, "atlantic-star")
    kept = client.post(f"/p/{links['Ann']}/value", data={**base, "typed": "24, 18, 13, 9, 5, 2"}, follow_redirects=False)
    assert kept.status_code == 303
    assert kept_values(home, "atlantic-star")["vp.3"] == [24, 18, 13, 9, 5, 2]
    assert client.post(f"/p/{links['Bob']}/value", data={**base, "typed": "1, 1, 1, 1, 1, 0"}).status_code == 400
    assert re.search(r"Kept: vp\.3", client.get(f"/p/{links['Ann']}").text)


def test_serve_says_which_values_the_phones_will_ask(run, home):
    from warm_support import serve_links, stop_served

    run(["new", "atlantic-star", "--players", "Ann,Bob", "--agency", "Rhea,Oceana,Titan,Ceres"], expect=0)
    proc, links = serve_links(home)  # forked from the warm web process
    assert list(links) == ["table", "Ann", "Bob", "join"]
    err = stop_served(home, proc)
    flat = " ".join(err.split())
    assert "printed values of atlantic-star are not known yet: the phone whose move first needs one asks" in flat


def test_a_round_the_board_ended_asks_the_cards_chart_and_then_scores_itself(run, home):
    """The round end that follows the last rail by itself needs the 'generous' card's chart:
    the phone that built the rail asks it, and the round is scored once it is answered."""
    import pytest

    from serve_support import play_trans_round

    run(["new", "trans-amerika", "--players", ",".join(PLAYERS), "--variant", "special-cards"], expect=0)
    run(["round", "start", "--special", "generous"], expect=0)
    sid = sid_of(run)
    site, client, links = site_and_client(home, sid, PLAYERS)
    from companion.web import limits

    # a whole round played as fast as the machine posts: the posts' rate is test_web_limits'
    site.posts = limits.Rate(burst=1000)
    movers = []

    def act(player, move, value):
        fields = {"junction": value} if move == "start" else {"path": value} if move == "build" else {}
        movers.append(player)
        assert post_move(client, links[player], move, fields).status_code == 303

    with pytest.raises(AssertionError, match="was not scored"):
        play_trans_round(home, sid, act, PLAYERS)
    last = movers[-1]
    answers = {"charts.generous.winner": "6", "charts.generous.missing": "4, 3, 2, 2, 1"}
    asked = []
    for _ in range(3):
        form = question_form(client.get(f"/p/{links[last]}").text)
        if form is None:
            break
        key = form["hidden"]["key"]
        asked.append(key)
        kept = client.post(f"/p/{links[last]}/value", data={**form["hidden"], "typed": answers[key]},
                           follow_redirects=False)
        assert kept.status_code == 303
    assert asked == ["charts.generous.winner", "charts.generous.missing"]
    played = json.loads(run(["status", "--json"], expect=0).stdout)
    assert not played["round_open"] and played["history"][-1]["auto"] is True  # scored by itself
    assert question_form(client.get(f"/p/{links[last]}").text) is None
