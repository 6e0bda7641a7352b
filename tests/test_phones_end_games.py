"""Every move on the phone that needs it (issue 31, item 3): Transatlantic's "the stack is
empty" on the phone of the player who would turn over the next card, and a score sheet's end
(and a tie's winner, and a co-operative result) on the scorekeeper's or start player's phone."""

from __future__ import annotations

import json

from serve_support import moves_on, post_move, site_and_client


def sid_of(run) -> str:
    return json.loads(run(["status", "--json"], expect=0).stdout)["session"]


def status(run) -> dict:
    return json.loads(run(["status", "--json"], expect=0).stdout)


def test_the_stack_is_empty_is_tapped_on_the_phone_of_the_player_acting(run, home):
    for args in ([["ship", "add", "DEVONIA", "--year", "1877", "--flag", "red", "--price", "50"],
                  ["ship", "add", "NUBIAN", "--year", "1875", "--flag", "white", "--price", "30"],
                  ["data", "set", "transatlantic", "market.surcharges", "[0, 10, 20, 30, 40, 50]"],  # TEST values
                  ["new", "transatlantic", "--players", "Ann,Bob,Cy"],
                  ["reveal", "DEVONIA", "NUBIAN"],
                  ["buy", "Ann", "NUBIAN"]]):
        run(args, expect=0)
    players = ["Ann", "Bob", "Cy"]
    _site, client, links = site_and_client(home, sid_of(run), players)
    offered = {p: moves_on(client.get(f"/p/{links[p]}").text) for p in players}
    acting = [p for p in players if "stack-empty" in offered[p]]
    assert len(acting) == 1, offered  # only the player who would turn over the next card
    page = client.get(f"/p/{links[acting[0]]}").text
    assert "No card is left in the stack" in page and "The stack is empty" in page
    done = post_move(client, links[acting[0]], "stack-empty", follow=True)
    assert done.status_code == 200
    assert status(run)["stack"] == "empty"
    assert "stack-empty" not in moves_on(client.get(f"/p/{links[acting[0]]}").text)


def test_the_start_player_finishes_a_score_sheet_on_the_phone(run, home):
    run(["new", "scoresheet", "--title", "Carcassonne", "--players", "Ann,Bob,Cy"], expect=0)
    run(["add", "Ann=12", "Bob=30", "Cy=9"], expect=0)
    _site, client, links = site_and_client(home, sid_of(run), ["Ann", "Bob", "Cy"])
    assert "end-game" in moves_on(client.get(f"/p/{links['Ann']}").text)
    assert "end-game" not in moves_on(client.get(f"/p/{links['Bob']}").text)  # Ann starts: her phone ends it
    done = post_move(client, links["Ann"], "end-game", {"result": "Bob"}, follow=True)
    assert done.status_code == 200 and "The game is over: Bob wins." in done.text
    assert status(run)["finished"] and status(run)["winners"] == ["Bob"]


def test_a_tie_the_rules_settle_is_named_on_the_scorekeepers_phone(run, home):
    run(["new", "scoresheet", "--players", "Ann,Bob,Cy", "--target", "20", "--tie-breaker", "most tiles",
         "--scorekeeper", "Cy"], expect=0)
    run(["add", "Ann=20", "Bob=20", "Cy=5"], expect=0)
    _site, client, links = site_and_client(home, sid_of(run), ["Ann", "Bob", "Cy"])
    page = client.get(f"/p/{links['Cy']}").text
    assert "settle-tie" in moves_on(page) and "Who won the tie?" in page
    assert 'value="Ann"' in page and 'value="Bob"' in page and 'name="result" value="Cy"' not in page
    assert "settle-tie" not in moves_on(client.get(f"/p/{links['Ann']}").text)
    refused = post_move(client, links["Cy"], "settle-tie", {"result": "Cy"})
    assert refused.status_code == 400 and not status(run)["finished"]
    post_move(client, links["Cy"], "settle-tie", {"result": "Bob"})
    assert status(run)["winners"] == ["Bob"]


def test_a_co_operative_game_ends_won_or_lost_on_the_phone(run, home):
    run(["new", "scoresheet", "--title", "Pandemic", "--players", "Ann,Bob", "--coop"], expect=0)
    _site, client, links = site_and_client(home, sid_of(run), ["Ann", "Bob"])
    page = client.get(f"/p/{links['Ann']}").text
    assert "we won together" in page and "we lost together" in page
    post_move(client, links["Ann"], "end-game", {"result": "lost"})
    assert status(run)["finished"] and status(run)["winners"] == []
