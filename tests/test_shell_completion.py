"""Completion from context, argument by argument (issue 13.4), and never a private card."""

from __future__ import annotations

import pytest
from prompt_toolkit.document import Document

from companion.core import session as sessions
from companion.core.app import App
from companion.core.store import Store
from companion.terminal.cli import cli
from companion.terminal.shell import CommandCompleter, SessionView

try:
    from test_trans_rails_script import setup as trans_board_setup
except ImportError:  # tests/ imported as a package
    from tests.test_trans_rails_script import setup as trans_board_setup


def offers(home, text: str) -> dict[str, str]:
    """{inserted text: its note} the shell offers after ``text``."""
    app = App(home)
    completer = CommandCompleter(app, SessionView(app), cli)
    return {c.text: c.display_meta_text for c in completer.get_completions(Document(text), None)}


def state(home) -> dict:
    store = Store(home)
    return sessions.load(store, store.current()).replay().state


@pytest.fixture
def trans(script, home):
    code, _, err = script(trans_board_setup())
    assert code == 0, err
    return home


def test_players_where_a_player_goes(trans):
    for text in ("hand ", "pass ", "start ", "build ", "rails ", "round end --winner "):
        assert {"Ann", "Bob", "Cy", "Dee"} <= set(offers(trans, text)), text
    assert set(offers(trans, "hand ")) == {"Ann", "Bob", "Cy", "Dee"}  # no city, no card name


def test_start_offers_the_free_junctions_only(home, run):
    run(["new", "trans-amerika", "--players", "Ann,Bob", "--entropy", "x"], expect=0)
    run(["round", "start"], expect=0)
    run(["start", "Ann", "San Diego"], expect=0)
    trans = home
    free = offers(trans, "start Bob ")
    assert "'San Diego'" not in free and "'Los Angeles'" in free and "E7" in free
    assert set(offers(trans, "start Bob Sa")) >= {"'San Francisco'", "Sacramento"}


def test_build_offers_the_free_neighbours_of_the_last_junction_with_their_cost(trans):
    got = offers(trans, "build Ann Dallas-")
    assert got  # some free lines out of Dallas
    assert "Dallas-J10" not in got and "Dallas-I11" not in got  # Ann built those
    assert all(v.startswith("Dallas-") for v in got) and set(got.values()) <= {"1 rail", "2 rails"}
    # a longer path: only the last junction counts
    assert {k.removeprefix("E5-"): v for k, v in offers(trans, "build Ann E5-Dallas-").items()} == got
    # before any hyphen: the junctions of Ann's network, where a rail may start
    first = offers(trans, "build Ann ")
    assert "Dallas" in first and "Portland" not in first


def test_build_after_a_city_with_a_space(trans):
    assert offers(trans, "build Cy St. Louis-")  # the shell split the name; the game joins it again


def test_round_start_special_offers_the_decks_card_ids(trans):
    assert {"pass-three", "return-any", "rhythm-321"} <= set(offers(trans, "round start --special "))


def test_no_city_of_a_hand_is_ever_offered(trans):
    hands = {c for h in state(trans)["hands"].values() for c in h}
    for text in ("hand ", "hand Ann ", "hand Ann --set ", "hand Ann --return ", "pass ", "pass Ann ",
                 "rails ", "rails Ann "):
        got = {t.strip("'") for t in offers(trans, text)}
        assert not got & hands, text


def test_transatlantic_market_and_own_ships(home, run):
    for name, flag, price in (("NUBIAN", "white", "30"), ("HAMMONIA", "blue", "70"), ("DEVONIA", "red", "50")):
        run(["ship", "add", name, "--year", "1875", "--flag", flag, "--price", price], expect=0)  # TEST values
    run(["data", "set", "transatlantic", "market.surcharges", "[0, 10, 20, 30, 40, 50]"], expect=0)
    run(["new", "transatlantic", "--players", "Ann,Bob"], expect=0)
    run(["reveal", "NUBIAN", "HAMMONIA"], expect=0)
    assert set(offers(home, "buy Ann ")) == {"NUBIAN", "HAMMONIA"}
    assert offers(home, "buy Ann ")["NUBIAN"] == "market 1"
    assert set(offers(home, "reveal ")) == {"DEVONIA"}  # not the ones already in the market
    run(["buy", "Ann", "NUBIAN"], expect=0)
    assert offers(home, "scrap ") == {"NUBIAN": "Ann's"}
    assert "NUBIAN" not in offers(home, "buy Bob ")


def test_atlantic_star_agency_spaces_and_seas(home, run):
    run(["new", "atlantic-star", "--players", "Ann,Bob"], expect=0)
    assert set(offers(home, "charter Ann ")) == {"3000", "2000", "1000", "0"}
    seas = {"baltic", "mediterranean", "atlantic", "pacific"}
    assert set(offers(home, "voyage Ann ")) == seas and set(offers(home, "loan Ann ")) == seas
    assert set(offers(home, "charter ")) == {"Ann", "Bob"}


def test_scoresheet_add_offers_each_player_once(home, run):
    run(["new", "scoresheet", "--players", "Ann,Bob,Cy"], expect=0)
    assert set(offers(home, "add ")) == {"Ann=", "Bob=", "Cy="}
    assert set(offers(home, "add Ann=3 ")) == {"Bob=", "Cy="}
