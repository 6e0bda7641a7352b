"""Each game's pages: what the table page shows, what a player's page adds, the end of a game."""

from __future__ import annotations

import json

from serve_support import PLAYERS, hands, new_trans, site_and_client


def pages(home, run, players):
    sid = json.loads(run(["status", "--json"], expect=0).stdout)["session"]
    _site, client, links = site_and_client(home, sid, players)
    table = client.get(f"/t/{links['table']}")
    assert table.status_code == 200
    mine = {p: client.get(f"/p/{links[p]}").text for p in players}
    return table.text, mine


def test_trans_player_page_has_colours_marker_network_and_the_exact_missing_rails(run, home):
    sid = new_trans(run, special=None)
    ann = hands(home, sid)["Ann"]
    run(["start", "Ann", "E6"], expect=0)
    table, mine = pages(home, run, PLAYERS)
    page = mine["Ann"]
    assert "Your cities (round 1)" in page and all(c in page for c in ann)
    assert "Start marker" in page and "E6" in page and "Network" in page
    rails = json.loads(run(["rails", "Ann", "--json"], expect=0).stdout)["rails"]
    assert f"<dt>Missing rails</dt><dd>{rails} to your network</dd>" in page
    assert "Missing rails" not in table and not any(c in table for c in ann)


def test_no_rail_count_leaves_the_count_off_the_pages(run, home):
    new_trans(run, special=None, extra=["--no-rail-count"])
    _table, mine = pages(home, run, PLAYERS)
    assert "Missing rails" not in mine["Ann"] and "Your cities" in mine["Ann"]


def test_trans_return_card_offers_the_whole_hand(run, home):
    sid = new_trans(run, special="return-any")
    _table, mine = pages(home, run, PLAYERS)
    assert "Put one city back" in mine["Bob"]
    for city in hands(home, sid)["Bob"]:
        assert f'name="city" value="{city}"' in mine["Bob"]


def test_trans_end_of_game_shows_the_result_and_every_hand_on_every_page(run, home):
    run(["new", "trans-europa", "--players", ",".join(PLAYERS)], expect=0)
    for _ in range(4):  # the normal chart: a winner scores 4, so Ann reaches 13 in 4 rounds
        run(["round", "start"], expect=0)
        run(["round", "end", "--winner", "Ann", "--missing", "Bob=5", "--missing", "Cy=5", "--missing", "Dan=5"],
            expect=0)
    sid = json.loads(run(["status", "--json"], expect=0).stdout)["session"]
    last = hands(home, sid)
    table, mine = pages(home, run, PLAYERS)
    for page in (table, *mine.values()):
        assert "The game is over: Ann wins." in page and "cities (last round)" in page
        for cities in last.values():
            assert all(c in page for c in cities)


def test_transatlantic_pages_show_market_docks_and_own_ships(run, home):
    for args in ([["ship", "add", "DEVONIA", "--year", "1877", "--flag", "red", "--price", "50"],
                  ["ship", "add", "NUBIAN", "--year", "1875", "--flag", "white", "--price", "30"],
                  ["ship", "add", "GERMANIC", "--year", "1874", "--flag", "white", "--price", "40"],
                  ["ship", "add", "HAMMONIA", "--year", "1882", "--flag", "blue", "--price", "70"],
                  ["ship", "add", "ABYSSINIA", "--year", "1870", "--flag", "red", "--price", "30"],
                  ["ship", "add", "UMBRIA", "--year", "1884", "--flag", "red", "--price", "90"],
                  ["data", "set", "transatlantic", "market.surcharges", "[0, 10, 20, 30, 40, 50]"],  # TEST values
                  ["new", "transatlantic", "--players", "Ann,Bob,Cy"],
                  ["reveal", "DEVONIA", "NUBIAN", "GERMANIC", "HAMMONIA", "ABYSSINIA", "UMBRIA"],
                  ["buy", "Ann", "NUBIAN"]]):
        run(args, expect=0)
    table, mine = pages(home, run, ["Ann", "Bob", "Cy"])
    assert "The market" in table and "DEVONIA" in table and "The docks" in table and "£" in table
    assert "Your ships" in mine["Ann"] and "NUBIAN" in mine["Ann"].split("Scores")[0]
    assert "No ships yet." in mine["Bob"]


def test_atlantic_star_pages_show_agency_seas_and_own_money(script, run, home):
    code, _out, err = script("new atlantic-star --players Ann,Bob --agency Rhea,Oceana,Titan,Ceres\n"
                             "charter Ann 0\n")
    assert code == 0, err
    table, mine = pages(home, run, ["Ann", "Bob"])
    assert "The charter agency" in table and "The seas" in table and "Oceana" in table
    status = json.loads(run(["status", "--json"], expect=0).stdout)
    ann = status["players"][0]
    assert "<dt>Money</dt>" in mine["Ann"] and f"{ann['money']:,} marks" in mine["Ann"]
    assert f"<dt>Cards in hand</dt><dd>{ann['hand']}</dd>" in mine["Ann"]
    assert "Plaques left" in mine["Ann"] and "Your places" in mine["Ann"]
    assert "Money" not in table


def test_score_sheet_pages_show_the_table_and_the_result(run, home):
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    run(["add", "Ann=4", "Bob=2"], expect=0)
    table, mine = pages(home, run, ["Ann", "Bob"])
    assert "The score sheet" in table and "<th scope=\"col\">Round</th>" in table and "Total" in table
    assert "The score sheet" in mine["Bob"]
    run(["finish"], expect=0)
    table, mine = pages(home, run, ["Ann", "Bob"])
    assert "The game is over: Ann wins." in table and "The game is over: Ann wins." in mine["Bob"]


def test_game_palettes_match_the_score_bars():
    # issue 20: the Trans board's SVG takes its seat colours from companion.contract.view (was web.PLAYER_COLOURS)
    from companion.games.trans import screens
    from companion.web import pages as web_pages

    assert screens.player_colour(0) == web_pages.PLAYER_COLOURS[0]
    assert [screens.player_colour(i) for i in range(6)] == list(web_pages.PLAYER_COLOURS)
