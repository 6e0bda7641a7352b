"""The moves made from the phones (issue 21 items 1 and 2, issue 22 item 9), through Starlette's
test client: each page offers what its player may do now, every post goes through the same
path as a typed command (the lock, the rules, the journal, undo), and a form goes stale only
when the player's own move or the choice itself changed."""

from __future__ import annotations

import json
import re
import threading

import pytest
from long_mode import LONG

from serve_support import (PLAYERS, forms_on, hands, moves_on, new_trans, play_trans_round, post_move,
                           site_and_client, trans_state, transatlantic_cards, typed_round)


def status_of(run, *before) -> dict:
    return json.loads(run([*before, "status", "--json"], expect=0).stdout)


def player_of(status: dict, name: str) -> dict:
    return next(p for p in status["players"] if p["name"] == name)


def journal(run) -> list[dict]:
    return json.loads(run(["log", "--json"], expect=0).stdout)


def page(client, links, who, query="") -> str:
    response = client.get(f"/p/{links[who]}{query}")
    assert response.status_code == 200
    return response.text


def refusal_text(response) -> str:
    """The one line a refused post says on its page."""
    found = re.search(r'<section class="wide error"><p>(.*?)</p></section>', response.text)
    assert found, response.text[:400]
    import html

    return html.unescape(found.group(1))


# -- Trans: a whole round from four phones -------------------------------------------------------------

def test_a_whole_trans_round_from_four_phones_scores_itself_as_typed_commands(run, home, tmp_path):
    run(["new", "trans-amerika", "--players", ",".join(PLAYERS), "--entropy", "phones"], expect=0)
    sid = status_of(run)["session"]
    site, client, links = site_and_client(home, sid)
    assert moves_on(page(client, links, "Ann")) == ["round start"]  # the start player deals
    assert moves_on(page(client, links, "Bob")) == []
    assert post_move(client, links["Ann"], "round start").status_code == 303

    steps = []

    def act(player, move, value):
        fields = {"junction": value} if move == "start" else {"path": value} if move == "build" else {}
        steps.append(move)
        for other in PLAYERS:  # nobody else's page offers a move of the board meanwhile (every
            if other != player and (LONG or len(steps) % 5 == 1):  # 5th move; each in the long run)
                assert not {"start", "build", "end-turn"} & set(moves_on(page(client, links, other))), other
        response = post_move(client, links[player], move, fields)
        assert response.status_code == 303, refusal_text(response)

    dealt = hands(home, sid)
    typed = play_trans_round(home, sid, act)
    played = status_of(run)
    last = played["history"][-1]
    assert not played["round_open"] and last["auto"] is True  # it ended and scored itself
    assert len(played["history"]) == 1

    # the same round typed at the laptop, in another data folder
    by_hand = typed_round(run, tmp_path / "typed", dealt, typed)
    assert by_hand["history"][-1]["missing"] == last["missing"]
    assert by_hand["history"][-1]["winners"] == last["winners"]
    assert [p["score"] for p in by_hand["players"]] == [p["score"] for p in played["players"]]
    assert by_hand["rails"] == played["rails"]


def test_a_marker_and_a_rail_are_tapped_on_the_board(run, home):
    sid = new_trans(run, special=None)
    _site, client, links = site_and_client(home, sid)
    html = page(client, links, "Ann")
    board = next(f for f in forms_on(html) if f["image"])
    assert board["hidden"]["move"] == "start"
    city = hands(home, sid)["Ann"][0]
    x, y = _on_image(html, f'circle[data-v="{city}"]')
    response = client.post(f"/p/{links['Ann']}/choose", data={**board["hidden"], "tap.x": x, "tap.y": y},
                           follow_redirects=False)
    if "pick=" in response.headers.get("location", ""):  # the whole board: junctions close together
        picked = page(client, links, "Ann", response.headers["location"].split(links["Ann"], 1)[1])
        assert "Which one?" in picked
        chooser = next(f for f in forms_on(picked) if ("junction", city) in f["buttons"])
        response = client.post(f"/p/{links['Ann']}/choose", data={**chooser["hidden"], "junction": city},
                               follow_redirects=False)
    assert response.status_code == 303
    assert status_of(run)["players"][0]["start"] == city
    for p, n in (("Bob", "K8"), ("Cy", "H11"), ("Dan", "N5")):
        run(["start", p, n], expect=0)
    html = page(client, links, "Ann")  # her turn to build: close on her marker, lines 50 px apart
    board = next(f for f in forms_on(html) if f["image"])
    assert board["hidden"]["move"] == "build" and board["hidden"]["z"] == "4"
    line = re.search(r'<line [^>]*data-v="([^"]+)"', html).group(1)
    x, y = _on_image(html, f'line[data-v="{line}"]')
    response = client.post(f"/p/{links['Ann']}/choose", data={**board["hidden"], "tap.x": x, "tap.y": y},
                           follow_redirects=False)
    assert response.status_code == 303 and "z=4" in response.headers["location"]  # the board stays as it was
    assert status_of(run)["rails"][-1] == {"line": line, "player": "Ann"}
    drawn = run(["board"], expect=0).output.replace("\n  ", " ")  # the laptop's board shows the same state
    assert f"Ann: start {city}; 1 rail built" in drawn


def _on_image(html: str, selector: str) -> tuple[int, int]:
    """Where the element of ``selector`` (a circle or a line of the board) is on the tap image,
    in its CSS pixels, from the page's own drawing (viewBox and size)."""
    svg = re.search(r'<svg class="tapboard-svg" viewBox="([-\d. ]+)" width="(\d+)" height="(\d+)"', html)
    vx, vy, vw, vh = (float(v) for v in svg.group(1).split())
    wpx, hpx = int(svg.group(2)), int(svg.group(3))
    tag, attr = re.match(r'(\w+)\[data-v="(.*)"\]', selector).groups()
    element = re.search(rf'<{tag} ([^>]*data-v="{re.escape(attr)}"[^>]*)/>', html).group(1)
    a = dict(re.findall(r'(\w[\w-]*)="([^"]*)"', element))
    if tag == "circle":
        x, y = float(a["cx"]), float(a["cy"])
    else:
        x, y = (float(a["x1"]) + float(a["x2"])) / 2, (float(a["y1"]) + float(a["y2"])) / 2
    return round((x - vx) * wpx / vw), round((y - vy) * hpx / vh)


def test_lines_offered_are_those_the_turn_still_pays_for_and_two_rails_worth_make_a_turn(run, home):
    sid = new_trans(run, special=None)
    for p, n in (("Ann", "E6"), ("Bob", "K8"), ("Cy", "H11"), ("Dan", "N5")):
        run(["start", p, n], expect=0)
    _site, client, links = site_and_client(home, sid)
    game, state, data = trans_state(home, sid)
    board = game.board_of(data)
    offered = next(f for f in forms_on(page(client, links, "Ann")) if f["hidden"].get("move") == "build"
                   and "path" in f["options"])["options"]["path"]
    assert offered and all("E6" in line for line in offered)  # the lines out of her marker
    single = next(v for v in offered if board.cost[tuple(sorted(board.path_junctions(v)))] == 1)
    assert post_move(client, links["Ann"], "build", {"path": single}).status_code == 303
    html = page(client, links, "Ann")
    assert "1 rail&#x27;s worth left this turn" in html or "1 rail's worth left this turn" in html
    assert "end-turn" in moves_on(html)
    listed = next(f for f in forms_on(html) if "path" in f["options"])["options"]["path"]
    game, state, data = trans_state(home, sid)
    assert all(game._turn_costs(state, board)[tuple(sorted(board.path_junctions(v)))] == 1 for v in listed)
    assert post_move(client, links["Ann"], "end-turn").status_code == 303
    assert moves_on(page(client, links, "Ann")) == []
    assert "build" in moves_on(page(client, links, "Bob"))
    assert "Bob's turn" in run(["status"], expect=0).stdout or status_of(run)["turn"]["player"] == "Ann"


# -- the same path as a typed command --------------------------------------------------------------------

def _markers_down(run, home):
    sid = new_trans(run, special=None)
    for p, n in (("Ann", "E6"), ("Bob", "K8"), ("Cy", "H11"), ("Dan", "N5")):
        run(["start", p, n], expect=0)
    return sid


def test_a_move_out_of_turn_is_refused_naming_whose_turn_it_is(run, home):
    sid = _markers_down(run, home)
    site, client, links = site_and_client(home, sid)
    ann = page(client, links, "Ann")  # Ann's turn: her page offers her rails
    form = next(f for f in forms_on(ann) if f["hidden"].get("move") == "build" and "path" in f["options"])
    run(["build", "Bob", "K8-K9"], expect=0)  # the laptop records Bob's rail: the turn has moved on
    game, state, _data = trans_state(home, sid)
    due = game.builder(state)
    assert due in ("Bob", "Cy")
    before = len(journal(run))
    response = client.post(f"/p/{links['Ann']}/choose", data={**form["hidden"], "path": form["options"]["path"][0]})
    assert response.status_code == 409
    assert refusal_text(response) == f"It is {due}'s turn to build, not Ann's."
    assert len(journal(run)) == before
    # and a page never offers a move its player may not make
    assert "build" not in moves_on(page(client, links, "Ann"))
    assert f"Nothing for you to do now: it is {due}&#x27;s turn." in page(client, links, "Ann")


def test_a_refusal_says_what_the_shell_says(run, home, tmp_path):
    """A rule the page cannot know in advance (a headquarters twice) is refused in the shell's words."""
    _transatlantic(run)
    run(["buy", "Bob", "NUBIAN"], expect=0)
    run(["buy", "Ann", "GERMANIC"], expect=0)
    run(["buy", "Cy", "ABYSSINIA"], expect=0)  # the opening is done: Cy's turn
    run(["reveal", "SIRIUS II", "HQ RED", "HQ BLUE"], expect=0)
    sid = status_of(run)["session"]
    _site, client, links = site_and_client(home, sid, ["Ann", "Bob", "Cy"])
    shell = run(["buy", "Cy", "HQ RED", "HQ BLUE"], expect=1).output.strip().removeprefix("Error: ")
    response = post_move(client, links["Cy"], "buy", {"ships": ["HQ RED", "HQ BLUE"]})
    assert response.status_code == 409 and refusal_text(response) == shell


def test_a_player_takes_back_their_own_last_move_while_nobody_has_moved_since(run, home):
    sid = _markers_down(run, home)
    _site, client, links = site_and_client(home, sid)
    assert post_move(client, links["Ann"], "build", {"path": "E6-E7"}).status_code == 303
    html = page(client, links, "Ann")
    assert "Your last move" in html and "Ann built E6-E7" in html
    assert post_move(client, links["Ann"], "(take back)").status_code == 303
    assert status_of(run)["rails"] == []
    assert journal(run)[-1]["event"]["type"] == "marker"  # undone: the build is in the log as undone
    run(["redo"], expect=0)  # the laptop can bring it back: nothing recorded is lost
    assert status_of(run)["rails"][0]["line"] == "E6-E7"
    page_before = page(client, links, "Ann")
    run(["build", "Ann", "E7-E8"], expect=0)  # Ann's turn goes on at the laptop: still hers
    run(["build", "Bob", "K8-K9"], expect=0)  # then Bob moves: Ann's take-back is gone
    html = page(client, links, "Ann")
    assert "Your last move" not in html
    form = next(f for f in forms_on(page_before) if f["hidden"].get("move") == "(take back)")
    response = client.post(f"/p/{links['Ann']}/choose", data=form["hidden"])
    assert response.status_code == 409 and "Someone has moved since your last move" in refusal_text(response)
    assert len(status_of(run)["rails"]) == 3


def test_a_form_sent_twice_records_once(run, home):
    sid = _markers_down(run, home)
    _site, client, links = site_and_client(home, sid)
    html = page(client, links, "Ann")
    form = next(f for f in forms_on(html) if f["hidden"].get("move") == "build" and "path" in f["options"])
    data = {**form["hidden"], "path": "E6-E7"}
    assert client.post(f"/p/{links['Ann']}/choose", data=data, follow_redirects=False).status_code == 303
    again = client.post(f"/p/{links['Ann']}/choose", data=data)  # the phone lost the answer and sent it again
    assert again.status_code == 403 and "out of date" in refusal_text(again)
    assert [r["line"] for r in status_of(run)["rails"]] == ["E6-E7"]
    # a move the table undid is not made again by the old page
    run(["undo"], expect=0)
    again = client.post(f"/p/{links['Ann']}/choose", data=data)
    assert again.status_code == 403 and status_of(run)["rails"] == []


def test_two_phones_tapping_at_once_one_wins_the_other_is_told(run, home):
    """Ann takes back her rail while Bob builds on his turn: exactly one of them is recorded."""
    sid = _markers_down(run, home)
    site, client, links = site_and_client(home, sid)
    assert post_move(client, links["Ann"], "build", {"path": "E6-E7"}).status_code == 303
    run(["build", "Ann", "E7-E8"], expect=0)  # her two rails' worth: Bob's turn
    # (the laptop's rail is Ann's move too: her page can take both back, one at a time)
    ann = next(f for f in forms_on(page(client, links, "Ann")) if f["hidden"].get("move") == "(take back)")
    bob = next(f for f in forms_on(page(client, links, "Bob")) if f["hidden"].get("move") == "build"
               and "path" in f["options"])
    results = {}
    start = threading.Barrier(2)

    def send(who, data):
        start.wait()
        results[who] = client.post(f"/p/{links[who]}/choose", data=data, follow_redirects=False)

    threads = [threading.Thread(target=send, args=("Ann", ann["hidden"])),
               threading.Thread(target=send, args=("Bob", {**bob["hidden"], "path": bob["options"]["path"][0]}))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    codes = sorted(r.status_code for r in results.values())
    assert codes == [303, 409], {w: (r.status_code, r.text[:200]) for w, r in results.items()}
    loser = next(w for w, r in results.items() if r.status_code == 409)
    said = refusal_text(results[loser])
    rails = [r["line"] for r in status_of(run)["rails"]]
    if loser == "Bob":  # Ann's take-back won: her turn again, Bob was told so
        assert said == "It is Ann's turn to build, not Bob's." and rails == ["E6-E7"]
    else:  # Bob's rail won: someone moved since Ann's
        assert "Someone has moved since" in said and rails == ["E6-E7", "E7-E8", bob["options"]["path"][0]]


# -- fairness (issue 22 item 9): a choice still good is recorded whatever else is written ------------------

def test_a_phones_choice_is_not_starved_by_unrelated_writes(run, home):
    sid = new_trans(run)  # pass-three: every player chooses a city at once
    _site, client, links = site_and_client(home, sid)
    html = page(client, links, "Ann")
    form = next(f for f in forms_on(html) if f["hidden"].get("move") == "pass")
    for n in range(3):  # the laptop writes meanwhile (issue 22, U5: each note made the form stale)
        run(["note", f"remark {n}"], expect=0)
    run(["pass", "Bob", hands(home, sid)["Bob"][0]], expect=0)  # and another player chooses
    response = client.post(f"/p/{links['Ann']}/choose", data={**form["hidden"], "city": hands(home, sid)["Ann"][0]},
                           follow_redirects=False)
    assert response.status_code == 303  # the first post is recorded
    assert "Ann" not in status_of(run)["waiting_for"]


def test_a_choice_changed_by_another_move_is_refused_and_one_still_the_same_is_recorded(run, home):
    _transatlantic(run, reveal=["NUBIAN", "HAMMONIA", "DEVONIA", "GERMANIC", "ABYSSINIA"])
    sid = status_of(run)["session"]
    _site, client, links = site_and_client(home, sid, ["Ann", "Bob", "Cy"])
    bob = next(f for f in forms_on(page(client, links, "Bob")) if f["hidden"].get("move") == "buy")
    run(["reveal", "UMBRIA"], expect=0)  # position 6 fills: NUBIAN at position 1 keeps its price
    response = client.post(f"/p/{links['Bob']}/choose", data={**bob["hidden"], "ships": "NUBIAN"},
                           follow_redirects=False)
    assert response.status_code == 303 and player_of(status_of(run), "Bob")["ships"][-1] == "NUBIAN"
    ann_page = page(client, links, "Ann")  # Ann's opening purchase: DEVONIA at position 1, £50
    ann = next(f for f in forms_on(ann_page) if f["hidden"].get("move") == "buy")
    assert ("ships", "DEVONIA") in ann["buttons"] and "DEVONIA · £50 (position 1)" in ann_page
    run(["undo"], expect=0)
    run(["buy", "Bob", "GERMANIC"], expect=0)  # the laptop corrects Bob's purchase: NUBIAN docks instead
    response = client.post(f"/p/{links['Ann']}/choose", data={**ann["hidden"], "ships": "DEVONIA"})
    assert response.status_code == 403
    assert refusal_text(response) == ("DEVONIA has changed since this page was drawn (£50 (position 1), now £60 "
                                      "(position 2)): look again and choose.")
    assert [e["event"]["ships"] for e in journal(run) if e["event"]["type"] == "buy"] == [["GERMANIC"]]


def _transatlantic(run, reveal=("NUBIAN", "HAMMONIA", "DEVONIA", "GERMANIC", "ABYSSINIA", "UMBRIA")):
    transatlantic_cards(run, extra=[["SIRIUS II", "--year", "1888", "--flag", "blue", "--price", "80"],
                                    ["HQ RED", "--year", "1890", "--flag", "red", "--price", "60", "--kind", "hq"],
                                    ["HQ BLUE", "--year", "1891", "--flag", "blue", "--price", "60", "--kind", "hq"]])
    for args in (["new", "transatlantic", "--players", "Ann,Bob,Cy"],
                 ["own", "Ann", "ARIEL"], ["own", "Bob", "SIRIUS"], ["own", "Cy", "FLYING CLOUD"],
                 ["reveal", *reveal]):
        run(args, expect=0)


# -- Transatlantic, Atlantic Star and the score sheet -------------------------------------------------------

def test_the_transatlantic_opening_from_the_phones(run, home):
    transatlantic_cards(run)
    run(["new", "transatlantic", "--players", "Ann,Bob,Cy"], expect=0)
    sid = status_of(run)["session"]
    _site, client, links = site_and_client(home, sid, ["Ann", "Bob", "Cy"])
    for who, ship in (("Ann", "ARIEL"), ("Bob", "SIRIUS"), ("Cy", "FLYING CLOUD")):
        assert post_move(client, links[who], "own", {"ship": ship}).status_code == 303
    status = status_of(run)
    assert status["start"] == "Cy" and status["opening_due"] == "Bob"  # the oldest ship starts
    for ship in ("NUBIAN", "DEVONIA", "GERMANIC", "HAMMONIA", "ABYSSINIA", "UMBRIA"):  # the buyer due reveals
        assert post_move(client, links["Bob"], "reveal", {"ships": ship}).status_code == 303
    html = page(client, links, "Bob")
    assert "NUBIAN · £30 (position 1)" in html and "DEVONIA · £60 (position 2)" in html  # the prices shown
    assert "buy" not in moves_on(page(client, links, "Ann"))  # Bob's opening purchase first
    for who, ship in (("Bob", "NUBIAN"), ("Ann", "GERMANIC"), ("Cy", "ABYSSINIA")):
        response = post_move(client, links[who], "buy", {"ships": ship})
        assert response.status_code == 303, refusal_text(response)
    status = status_of(run)
    assert status["opening_due"] is None and status["turn"] == "Cy"
    assert [p["ships"] for p in status["players"]] == [["FLYING CLOUD", "ABYSSINIA"], ["ARIEL", "GERMANIC"],
                                                        ["SIRIUS", "NUBIAN"]]
    assert "next" in moves_on(page(client, links, "Cy"))  # Cy ends the first turn from the phone
    assert post_move(client, links["Cy"], "next").status_code == 303
    assert status_of(run)["turn"] == "Ann"


def test_a_transatlantic_players_own_final_sheet(run, home):
    _transatlantic(run, reveal=["NUBIAN", "DEVONIA", "GERMANIC", "HAMMONIA", "ABYSSINIA"])
    for args in (["buy", "Bob", "NUBIAN"], ["buy", "Ann", "GERMANIC"], ["buy", "Cy", "ABYSSINIA"], ["stack-empty"]):
        run(args, expect=0)
    status = status_of(run)
    assert status["end"] is not None  # the last steamship bought, none in the stack
    sid = status["session"]
    _site, client, links = site_and_client(home, sid, ["Ann", "Bob", "Cy"])
    form = next(f for f in forms_on(page(client, links, "Ann")) if f["hidden"].get("move") == "final")
    assert "sheet.white" in form["fields"] and "cash" in form["fields"]  # one field per flag of her ships
    response = post_move(client, links["Ann"], "final", {"cash": "250", "sheet.white": "3", "rows": "1",
                                                         "next_row": "2"})
    assert response.status_code == 303, refusal_text(response)
    assert player_of(status_of(run), "Ann")["final"] is not None
    assert "final" not in moves_on(page(client, links, "Ann"))


def test_atlantic_star_from_the_phones(script, run, home):
    code, _out, err = script("new atlantic-star --players Ann,Bob --agency Rhea,Oceana,Titan,Ceres\n")
    assert code == 0, err
    sid = status_of(run)["session"]
    _site, client, links = site_and_client(home, sid, ["Ann", "Bob"])
    assert moves_on(page(client, links, "Bob")) == []
    html = page(client, links, "Ann")
    assert "charter" in moves_on(html) and "1000 · Titan" in html
    for who in ("Ann", "Bob", "Ann", "Bob", "Ann", "Bob"):
        assert post_move(client, links[who], "charter", {"space": "0"}).status_code == 303
    html = page(client, links, "Ann")
    assert "baltic · not sailed yet, 3 legs" in html
    response = post_move(client, links["Ann"], "voyage", {"sea": "baltic", "value": "12", "stars": "1"})
    assert response.status_code == 303, refusal_text(response)
    response = post_move(client, links["Bob"], "voyage", {"sea": "baltic", "value": "9"})
    assert response.status_code == 303, refusal_text(response)
    assert "loan" in moves_on(page(client, links, "Ann"))
    preview = post_move(client, links["Ann"], "loan", {"sea": "baltic", "amount": "3000", "preview": "yes"})
    assert preview.status_code == 200 and "Preview, nothing recorded" in preview.text
    assert post_move(client, links["Ann"], "loan", {"sea": "baltic", "amount": "3000"}).status_code == 303
    ann = status_of(run)["players"][0]
    assert ann["places"][0]["loan"] == 3000
    assert "Your victory points now" in page(client, links, "Ann")


def test_score_sheet_each_player_enters_their_own_points(run, home):
    run(["new", "scoresheet", "--players", "Ann,Bob,Cy"], expect=0)
    sid = status_of(run)["session"]
    _site, client, links = site_and_client(home, sid, ["Ann", "Bob", "Cy"])
    assert moves_on(page(client, links, "Ann")) == ["score"]
    assert post_move(client, links["Ann"], "score", {"points": "12"}).status_code == 303
    assert moves_on(page(client, links, "Ann")) == []  # hers are in
    assert "You entered 12 for round 1." in page(client, links, "Ann")
    assert "12" not in page(client, links, "Bob").split("Round 1 is being entered")[1].split("</p>")[0]
    assert post_move(client, links["Bob"], "score", {"points": "-3"}).status_code == 303
    assert status_of(run)["round"] == 0
    said = run(["status"], expect=0).stdout  # the laptop says what is next: Cy's points, not `add`
    assert "waiting for Cy" in said and "`score NAME POINTS` enters the others' points" in said
    assert "`add NAME=POINTS ...` records a round" not in said
    from companion.games.scoresheet.views import next_action

    assert next_action(status_of(run)) == "score NAME POINTS for Cy"  # the shell's toolbar
    assert post_move(client, links["Cy"], "score", {"points": "7"}).status_code == 303
    status = status_of(run)
    assert status["round"] == 1 and [p["score"] for p in status["players"]] == [12, -3, 7]


def test_score_sheet_with_a_scorekeeper(run, home):
    run(["new", "scoresheet", "--players", "Ann,Bob,Cy", "--scorekeeper", "bob"], expect=0)
    sid = status_of(run)["session"]
    _site, client, links = site_and_client(home, sid, ["Ann", "Bob", "Cy"])
    assert moves_on(page(client, links, "Ann")) == [] and moves_on(page(client, links, "Cy")) == []
    form = next(f for f in forms_on(page(client, links, "Bob")) if f["hidden"].get("move") == "add")
    assert form["fields"] == ["scores.Ann", "scores.Bob", "scores.Cy"]
    data = {**form["hidden"], "scores.Ann": "5", "scores.Bob": "2", "scores.Cy": ""}
    assert client.post(f"/p/{links['Bob']}/choose", data=data, follow_redirects=False).status_code == 303
    again = client.post(f"/p/{links['Bob']}/choose", data=data)  # sent twice: recorded once
    assert again.status_code == 403
    status = status_of(run)
    assert status["round"] == 1 and [p["score"] for p in status["players"]] == [5, 2, 0]


# -- a page acts as its own player only ---------------------------------------------------------------------

def test_a_page_acts_only_as_its_own_player(run, home):
    sid = _markers_down(run, home)
    _site, client, links = site_and_client(home, sid)
    form = next(f for f in forms_on(page(client, links, "Ann")) if f["hidden"].get("move") == "build"
                and "path" in f["options"])
    data = {**form["hidden"], "path": "E6-E7", "player": "Bob"}  # naming another player changes nothing
    assert client.post(f"/p/{links['Ann']}/choose", data=data, follow_redirects=False).status_code == 303
    assert status_of(run)["rails"] == [{"line": "E6-E7", "player": "Ann"}]
    table = client.post(f"/t/{links['table']}/choose", data=data)
    assert table.status_code == 404  # the table's token cannot act
    bob = client.post(f"/p/{links['Bob']}/choose", data={**form["hidden"], "path": "E7-E8"})
    assert bob.status_code == 409 and len(status_of(run)["rails"]) == 1  # Ann's form on Bob's page: not his turn


def test_a_value_the_page_did_not_offer_is_refused(run, home):
    _transatlantic(run)
    for args in (["buy", "Bob", "NUBIAN"], ["buy", "Ann", "GERMANIC"], ["buy", "Cy", "ABYSSINIA"]):
        run(args, expect=0)
    sid = status_of(run)["session"]
    _site, client, links = site_and_client(home, sid, ["Ann", "Bob", "Cy"])
    form = next(f for f in forms_on(page(client, links, "Ann")) if f["hidden"].get("move") == "scrap")
    response = client.post(f"/p/{links['Ann']}/choose", data={**form["hidden"], "ship": "NUBIAN", "sheet_vp": "0"})
    assert response.status_code == 400  # Bob's ship: not Ann's to scrap
    assert player_of(status_of(run), "Bob")["ships"] == ["SIRIUS", "NUBIAN"]
