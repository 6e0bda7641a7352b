"""A whole Atlantic Star from the phones (issue 31, "Done when"): after `new` and `serve`, two
players charter, stage every voyage of every sea, take a loan and reach the end with no command
typed at the laptop. Every printed value a move needs (the ship cards a voyage names, the victory
points of each class in use) is asked and answered on the phone that needs it; the final scores
are the ones `status --json` gives, and the table's page names the winner.

The ship cards and the victory-point rows typed here are TEST values (tests/atlantic_star_support.py
and tests/test_atlantic_star_cards.py type the same ones), not the box's; a row the phone suggests
(the pack's public suggestion, with its source) is confirmed with its button, as a player whose
copy says the same would."""

from __future__ import annotations

import html as markup
import json
import re

from atlantic_star_support import TEST_VP
from serve_support import forms_on, moves_on, post_move, site_and_client

PLAYERS = ["Ann", "Bob"]
LEGS = {"baltic": 3, "mediterranean": 4, "atlantic": 5, "pacific": 6}
# the ship cards a voyage names, read off the cards (TEST values, as test_atlantic_star_cards types them)
SHIP_CARDS = {"ships.RHEA": "5,X,3,2", "ships.TITAN": "M,2,X,1"}


def status_of(run) -> dict:
    return json.loads(run(["status", "--json"], expect=0).stdout)


def typed_answer(key: str) -> str:
    """What a player reads off the box for ``key`` (TEST values)."""
    if key in SHIP_CARDS:
        return SHIP_CARDS[key]
    return ", ".join(str(v) for v in TEST_VP[key.split(".", 1)[1]])


def answer_on_the_phone(client, token: str, asked: list[str], page: str | None = None) -> bool:
    """Answer the question ``token``'s phone asks (on ``page``, the move's answer, else on its
    page): the public suggestion's button when there is one (the player's copy says the same),
    else the value typed. Whether there was one."""
    for _ in range(1):
        page = page if page is not None else client.get(f"/p/{token}").text
        found = [f for f in forms_on(page) if (f["action"] or "").endswith("/value")]
        if not found:
            return False
        form = found[0]
        assert "companion data set" not in page  # no laptop command on a phone
        key = form["hidden"]["key"]
        asked.append(key)
        buttons = [v for name, v in form["buttons"] if name == "value"]
        data = {**form["hidden"], **({"value": buttons[0]} if buttons else {"typed": typed_answer(key)})}
        kept = client.post(form["action"].replace("{token}", token), data=data, follow_redirects=False)
        assert kept.status_code == 303, kept.text[:600]
    return True


def refusal(response) -> str:
    found = re.search(r'<section class="wide error"><p>(.*?)</p></section>', response.text)
    return markup.unescape(found.group(1)) if found else response.text[:400]


def next_move(st: dict, me: dict, loaned: bool) -> tuple[str, dict]:
    """One turn as a player would choose it: a loan once, on the first voyage staged; else the
    longest voyage the hand allows, else the free agency space."""
    if not loaned and me["name"] == "Ann" and me["places"]:
        return "loan", {"sea": me["places"][0]["sea"], "amount": "3000"}
    hand = me["hand"]
    left = {sea for sea in LEGS if 2 * 1 > sum(1 for x in me["places"] if x["sea"] == sea)}
    seas = [s for s in left if LEGS[s] <= hand and hand - LEGS[s] <= 2]
    if not seas:
        return "charter", {"space": "0"}
    sea = max(seas, key=LEGS.get)
    fields = {"sea": sea}
    if st["seas"][sea]["class"] is None:
        used = {info["class"] for info in st["seas"].values()}
        fields["stars"] = str(min(c for c in range(1, 6) if c not in used))
    staged = sum(len(info["ranking"]) for info in st["seas"].values())
    if sea == "baltic" and not me["places"]:  # the first voyage names its ship cards
        fields["ships"] = "Rhea,Titan,Rhea"
    else:
        fields["value"] = str(8 + (staged * 7) % 19)
    return "voyage", fields


def test_a_whole_atlantic_star_from_the_phones_to_its_winner(run, home):
    run(["new", "atlantic-star", "--players", ",".join(PLAYERS), "--agency", "Rhea,Oceana,Titan,Ceres"], expect=0)
    sid = status_of(run)["session"]
    site, client, links = site_and_client(home, sid, PLAYERS)
    from companion.web import limits

    site.posts = limits.Rate(burst=1000)  # a whole game posted as fast as the machine goes
    asked: list[str] = []
    loaned = False
    moves: list[str] = []
    for _ in range(200):
        st = status_of(run)
        if st["finished"]:
            break
        who = st["turn"]
        other = next(p for p in PLAYERS if p != who)
        assert moves_on(client.get(f"/p/{links[other]}").text) == []  # nothing to do out of turn
        me = next(p for p in st["players"] if p["name"] == who)
        move, fields = next_move(st, me, loaned)
        response = post_move(client, links[who], move, fields)
        for _ask in range(8):  # a printed value this move needs: asked on this phone, then the tap again
            if response.status_code == 303:
                break
            assert answer_on_the_phone(client, links[who], asked, response.text), refusal(response)
            response = post_move(client, links[who], move, fields)
        assert response.status_code == 303, refusal(response)
        assert not answer_on_the_phone(client, links[who], asked)  # nothing left asked
        moves.append(move)
        loaned = loaned or move == "loan"
    final = status_of(run)
    assert final["finished"], final

    # every move a phone's: charters, voyages in every sea, a loan; each value asked there
    assert {"charter", "voyage", "loan"} <= set(moves)
    assert set(asked) >= {"ships.RHEA", "ships.TITAN"} and sorted(k for k in asked if k.startswith("vp.")) == [
        "vp.1", "vp.2", "vp.3", "vp.4"]
    from companion.core.store import Store

    kept = Store(home).user_values("atlantic-star")
    assert kept["ships.RHEA"] == ["5", "X", "3", "2"] and kept["vp.3"] == TEST_VP["3"]
    assert all(not p["plaques_left"] for p in final["players"])
    ann = next(p for p in final["players"] if p["name"] == "Ann")
    assert any(x["loan"] == 3000 for x in ann["places"])
    baltic = next(x for x in ann["places"] if x["sea"] == "baltic" and x["voyage"] == 1)
    assert baltic["value"] == 14 - 3  # 5 + M + 5 and the bonus, less the loan's 3 points

    # the final scores: each player's places scored by the rows answered on the phones
    for p in final["players"]:
        expected = sum(kept[f"vp.{x['class']}"][x["place"] - 1] for x in p["places"])
        assert p["score"] == expected and all(x["points"] is not None for x in p["places"])
    scores = {p["name"]: p["score"] for p in final["players"]}
    top = max(scores.values())
    assert final["winners"] and all(scores[w] == top for w in final["winners"])

    # the table's page (the TV) names the winner and shows the scores; the phones say it too
    table = markup.unescape(client.get(f"/t/{links['table']}").text)
    winner = final["winners"][0]
    assert re.search(rf"The game is over: {winner} wins", table), table[:800]
    for name, score in scores.items():
        assert name in table and str(score) in table
    for who in PLAYERS:
        assert moves_on(client.get(f"/p/{links[who]}").text) == []
