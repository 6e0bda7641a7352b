"""Transatlantic through the commands a table types: the catalogue, the market, purchases, scoring.

Ship years, prices and the surcharges are TEST values typed as the players would (the printed
ones are unknown here), except the rulebook's HAMMONIA at £70 + £30.
"""

from __future__ import annotations

import json

import pytest
from transatlantic_support import flat

CATALOGUE = [  # TEST values
    ["ship", "add", "DEVONIA", "--year", "1877", "--flag", "red", "--price", "50"],
    ["ship", "add", "Nubian", "--year", "1875", "--flag", "white", "--price", "30"],
    ["ship", "add", "GERMANIC", "--year", "1874", "--flag", "white", "--price", "40", "--income", "40"],
    ["ship", "add", "HAMMONIA", "--year", "1882", "--flag", "blue", "--price", "70"],
    ["ship", "add", "ABYSSINIA", "--year", "1870", "--flag", "red", "--price", "30"],
    ["ship", "add", "UMBRIA", "--year", "1884", "--flag", "red", "--price", "90", "--speed", "19.5"],
    ["ship", "add", "City of New York", "--year", "1888", "--flag", "black", "--price", "100",
     "--tonnage", "11000", "--passengers", "1700"],
    ["ship", "add", "ARIEL", "--year", "1865", "--flag", "none", "--kind", "sail"],
    ["ship", "add", "HQ RED", "--year", "1890", "--flag", "red", "--price", "60", "--kind", "hq"],
    ["ship", "add", "HQ BLUE", "--year", "1891", "--flag", "blue", "--price", "60", "--kind", "hq"],
]
SURCHARGES = ["data", "set", "transatlantic", "market.surcharges", "[0, 10, 20, 30, 40, 50]"]  # TEST
MARKET = ["reveal", "DEVONIA", "nubian", "GERMANIC", "HAMMONIA", "ABYSSINIA", "UMBRIA"]


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    """The catalogue typed, the surcharges set and a game begun: once for the module."""
    from shared_install import typed

    return typed(tmp_path_factory.mktemp("transatlantic") / "home", *CATALOGUE, SURCHARGES,
                 ["new", "transatlantic", "--players", "Ann,Bob,Cy"])


@pytest.fixture
def game(run, prepared, home):
    """The test's own copy of the prepared table."""
    import shutil

    shutil.copytree(prepared, home)
    return run


def refused(run, args, text, code=1):
    result = run(args, expect=code)
    assert text in result.stderr, result.stderr
    assert result.stderr.startswith("Error:") and len(result.stderr.strip().splitlines()) == 1
    return result


# -- the catalogue ------------------------------------------------------------------------


def test_ship_add_remembers_a_card_for_later_games(run):
    out = run(CATALOGUE[6], expect=0).stdout
    assert "Added CITY OF NEW YORK: steam, black, 1888, £100 (tonnage 11000, passengers 1700)." in flat(out)
    shown = json.loads(run(["ship", "show", "city of new york", "--json"], expect=0).stdout)
    assert shown.pop("format") == "ship-show/1"
    assert shown == {"name": "CITY OF NEW YORK", "year": 1888, "flag": "black", "price": 100, "kind": "steam",
                     "income": None, "tonnage": 11000, "speed": None, "passengers": 1700}
    assert "CITY OF NEW YORK: steam, black, 1888, £100" in run(["ship", "show", "City Of New York"]).stdout
    # the same value `data show` lists as the players' own
    assert "supplied by you on" in run(["data", "show", "transatlantic", "ships.CITY OF NEW YORK"], expect=0).stdout


def test_ships_lists_the_catalogue(run):
    assert "No ships yet" in run(["ships"], expect=0).stdout
    for args in CATALOGUE[:3]:
        run(args, expect=0)
    out = run(["ships"], expect=0).stdout
    assert "3 ships in the catalogue" in out
    assert out.index("GERMANIC") < out.index("NUBIAN") < out.index("DEVONIA")  # by year
    assert set(json.loads(run(["ships", "--json"], expect=0).stdout)) == {"DEVONIA", "NUBIAN", "GERMANIC"}


def test_ship_add_again_corrects_the_card(run):
    run(CATALOGUE[1], expect=0)
    out = run(["ship", "add", "NUBIAN", "--year", "1876", "--flag", "white", "--price", "30"], expect=0).stdout
    assert "Updated NUBIAN" in out and "keep the values they began with" in out
    assert json.loads(run(["ship", "show", "NUBIAN", "--json"]).stdout)["year"] == 1876


def test_catalogue_refusals(run):
    refused(run, ["ship", "add", "X", "--year", "1880", "--flag", "purple", "--price", "5"],
            "There is no 'purple' flag: the flags are white, blue, red, black, green")
    refused(run, ["ship", "add", "X", "--year", "1880", "--flag", "red"], "needs --price P", code=2)
    refused(run, ["ship", "add", "X", "--year", "1880", "--flag", "red", "--price", "-5"], "cannot be negative")
    refused(run, ["ship", "add", "ST. LOUIS", "--year", "1895", "--flag", "red", "--price", "5"], "without dots")
    refused(run, ["ship", "add", "X", "--flag", "red", "--price", "5"], "--year", code=2)
    refused(run, ["ship", "show", "TITANIC"], "companion ship add TITANIC --year YEAR --flag COLOUR --price PRICE")
    assert "No ships yet" in run(["ships"], expect=0).stdout


def test_a_flag_the_players_add_is_accepted(run):
    run(["data", "set", "transatlantic", "flags", '["white", "blue", "red", "black", "green", "yellow"]'], expect=0)
    run(["ship", "add", "X", "--year", "1880", "--flag", "Yellow", "--price", "5"], expect=0)
    assert json.loads(run(["ship", "show", "x", "--json"]).stdout)["flag"] == "yellow"


# -- a session ----------------------------------------------------------------------------


def test_new_takes_2_to_4_players_and_a_start_player(run, status):
    refused(run, ["new", "transatlantic", "--players", "Ann"], "2 to 4 players, not 1")
    refused(run, ["new", "transatlantic", "--players", "A,B,C,D,E"], "2 to 4 players, not 5")
    run(["new", "transatlantic", "--players", "Ann,Bob,Cy,Dan", "--start", "cy"], expect=0)
    s = status()
    assert [p["name"] for p in s["players"]] == ["Cy", "Dan", "Ann", "Bob"]
    assert s["start"] == "Cy" and s["current"] == "Cy" and s["market"] == [None] * 6 and s["end"] is None


def test_the_rulebook_purchase_example(game, status):
    game(MARKET, expect=0)
    out = game(["buy", "Ann", "NUBIAN", "HAMMONIA"], expect=0).stdout
    assert "Ann buys NUBIAN £40 (£30 + £10 in position 2) and HAMMONIA £100 (£70 + £30 in position 4): " \
           "£140 in all." in flat(out)
    assert "DEVONIA goes to the docks." in out
    assert "3 positions empty: turn over new cards with `reveal SHIP ...`" in out
    out = game(["reveal", "CITY OF NEW YORK", "HQ RED", "HQ BLUE"], expect=0).stdout
    assert "no steamship is left in the stack" in out
    s = status()
    assert s["market"] == ["GERMANIC", "ABYSSINIA", "UMBRIA", "CITY OF NEW YORK", "HQ RED", "HQ BLUE"]
    assert s["docks"] == ["DEVONIA"]
    assert s["players"][0]["ships"] == ["NUBIAN", "HAMMONIA"]


def test_market_shows_every_part_of_each_price(game):
    game(MARKET, expect=0)
    out = game(["market"], expect=0).stdout
    line = next(line for line in out.splitlines() if "HAMMONIA" in line)
    assert line.split() == ["4", "HAMMONIA", "steam", "blue", "1882", "£70", "£30", "£100"]
    rows = [dict(r) for r in json.loads(game(["market", "--json"], expect=0).stdout)]
    assert {r.pop("format") for r in rows} == {"market/1"}
    assert [r["ship"] for r in rows] == ["DEVONIA", "NUBIAN", "GERMANIC", "HAMMONIA", "ABYSSINIA", "UMBRIA"]
    assert rows[1] == {"position": 2, "ship": "NUBIAN", "surcharge": 10, "kind": "steam", "flag": "white",
                       "year": 1875, "price": 30, "total": 40}


def test_the_docks_are_one_view_on_every_screen(game):
    """`status`, `board` and `market` draw the docks the same way (issue 20: one view of them)."""
    game(MARKET, expect=0)
    game(["buy", "Ann", "NUBIAN"], expect=0)  # DEVONIA (red) to the docks
    line = "Docks: DEVONIA → per ship at scoring: red +1"
    for screen in (["status"], ["board"], ["market"]):
        assert line in game(screen, expect=0).stdout.splitlines(), screen


def test_prices_wait_for_the_surcharges(run, status):
    for args in CATALOGUE:
        run(args, expect=0)
    run(["new", "transatlantic", "--players", "Ann,Bob"], expect=0)
    run(MARKET, expect=0)
    assert "companion data set transatlantic market.surcharges '[S1, S2, S3, S4, S5, S6]'" in run(["market"], expect=0).stdout
    refused(run, ["buy", "Ann", "NUBIAN"], "`companion data set transatlantic market.surcharges '[S1, S2, S3, S4, S5, S6]'`")
    assert status()["market"][1] == "NUBIAN"
    run(SURCHARGES, expect=0)  # typed once, mid-game: the next purchase uses and freezes it
    assert "NUBIAN £40" in run(["buy", "Ann", "NUBIAN"], expect=0).stdout


def test_a_headquarters_only_purchase_sends_nothing_to_the_docks(game, status):
    game(["reveal", "DEVONIA", "HQ RED", "HQ BLUE"], expect=0)
    out = game(["buy", "Cy", "hq red"], expect=0).stdout
    assert "Cy buys HQ RED £70 (£60 + £10 in position 2)." in out
    assert "No ship goes to the docks." in out
    assert status()["docks"] == [] and status()["market"][:2] == ["DEVONIA", "HQ BLUE"]


def test_own_gives_the_starting_sailing_ship(game, status):
    assert "Bob owns ARIEL: sail, no flag, 1865, no price." in game(["own", "bob", "ariel"], expect=0).stdout
    assert status()["players"][1]["ships"] == ["ARIEL"]


def test_a_ship_added_after_new_is_frozen_into_the_event(game, status):
    game(["ship", "add", "CAMPANIA", "--year", "1893", "--flag", "red", "--price", "120"], expect=0)
    game(["reveal", "CAMPANIA"], expect=0)
    game(["ship", "add", "CAMPANIA", "--year", "1893", "--flag", "blue", "--price", "1"], expect=0)
    assert json.loads(game(["market", "--json"]).stdout)[0]["flag"] == "red"
    rows = json.loads(game(["log", "--json"], expect=0).stdout)
    assert rows[0]["event"]["ships"][0]["name"] == "CAMPANIA" and rows[0]["event"]["ships"][0]["price"] == 120


def test_the_end_trigger_is_announced_and_counted(game, status):
    game(["reveal", "DEVONIA", "HQ RED"], expect=0)
    game(["next"], expect=0)
    out = game(["buy", "Bob", "DEVONIA"], expect=0).stdout
    assert ("Bob took the last steamship off the market: the end is triggered. Round 1 is finished and one "
            "more full round is played; the very last turn is Cy's (5 turns left, this one included).") in flat(out)
    assert status()["end"] == {"by": "Bob", "round": 1, "last": "Cy", "turns_left": 5, "docked": False}
    assert "Round 1: Cy's turn. 4 turns left, the very last is Cy's." in game(["next"], expect=0).stdout
    for _ in range(3):
        game(["next"], expect=0)
    assert "That was the very last turn" in game(["next"], expect=0).stdout
    assert status()["end"]["turns_left"] == 0
    refused(game, ["next"], "The last turn has been played")
    text = game(["status"], expect=0).stdout
    assert "End triggered by Bob in round 1: 0 turns left, the very last is Cy's." in text


def test_stack_empty(game, status):
    game(["reveal", "DEVONIA"], expect=0)
    assert "The stack is empty" in game(["stack-empty"], expect=0).stdout
    assert status()["stack"] == "empty"
    refused(game, ["reveal", "NUBIAN"], "The stack is empty")
    out = game(["buy", "Ann", "DEVONIA"], expect=0).stdout
    assert "the end is triggered" in out and "turn over new cards" not in out


def test_scrap_vp_and_final_scoring(game, status):
    game(MARKET, expect=0)
    game(["buy", "Ann", "UMBRIA"], expect=0)  # DEVONIA (red) to the docks
    game(["buy", "Bob", "HAMMONIA", "GERMANIC"], expect=0)  # NUBIAN (white) to the docks
    # the last steamship bought ends the game: `final` waits for it (issue 15)
    game(["reveal", "HQ RED"], expect=0)
    assert "the end is triggered" in game(["buy", "Cy", "ABYSSINIA"], expect=0).stdout
    out = game(["scrap", "germanic", "--sheet-vp", "4"], expect=0).stdout
    assert "GERMANIC is scrapped: Bob scores 4 + 1 (white ships in the docks) = 5 VP. It leaves the game." in flat(out)
    out = game(["vp", "Ann", "3", "--note", "trade houses"], expect=0).stdout
    assert "Ann scores 3 VP (trade houses): 3 during play." in out
    out = game(["final", "Ann", "--cash", "250", "--sheet", "red=3, blue=7", "--rows", "2", "--next-row", "2"],
               expect=0).stdout
    assert "Still to enter: Bob, Cy." in out
    # UMBRIA 3 + 1 docks, cash 2, rows 15, next row 6, play 3
    assert status()["players"][0]["score"] == 4 + 2 + 15 + 6 + 3
    game(["final", "Bob", "--cash", "0", "--sheet", "blue=2", "--rows", "0", "--next-row", "0"], expect=0)
    out = game(["final", "Cy", "--cash", "99", "--sheet", "red=0", "--rows", "0", "--next-row", "0"],
               expect=0).stdout
    assert "Game over: Ann wins." in out
    text = game(["status"], expect=0).stdout
    assert "Ann's score" in text and "red: sheet 3 + docks 1" in text and "2 markers × 3" in text
    s = status()
    assert s["finished"] and s["winners"] == ["Ann"]
    assert s["players"][1]["scrapped"] == ["GERMANIC"] and s["players"][1]["score"] == 2 + 5
    refused(game, ["vp", "Ann", "1"], "The game is over")
    game(["undo"], expect=0)
    assert not status()["finished"]


def test_a_tie_goes_to_the_youngest_ship(game, status):
    game(["own", "Ann", "HAMMONIA"], expect=0)  # 1882
    game(["own", "Bob", "UMBRIA"], expect=0)  # 1884
    game(["reveal", "HQ BLUE"], expect=0)  # the last purchase ends the game: `final` waits for it
    game(["buy", "Cy", "HQ BLUE"], expect=0)
    game(["final", "Ann", "--cash", "0", "--sheet", "blue=3", "--rows", "0", "--next-row", "0"], expect=0)
    game(["final", "Bob", "--cash", "0", "--sheet", "red=3", "--rows", "0", "--next-row", "0"], expect=0)
    out = game(["final", "Cy", "--cash", "0", "--sheet", "blue=0", "--rows", "0", "--next-row", "0"],
               expect=0).stdout
    assert "Game over: Bob wins. (Ann, Bob tied on 3; youngest ship: Ann 1882, Bob 1884.)" in out
    assert status()["winners"] == ["Bob"]


def test_undo_of_a_purchase_restores_market_docks_and_ownership(game, status):
    game(MARKET, expect=0)
    before = status()
    game(["buy", "Ann", "NUBIAN", "HAMMONIA"], expect=0)
    assert "Undid: Ann bought NUBIAN and HAMMONIA." in game(["undo"], expect=0).stdout
    assert status() == before


def test_log_in_words(game):
    game(["own", "Ann", "ARIEL"], expect=0)
    game(MARKET, expect=0)
    game(["buy", "Ann", "NUBIAN"], expect=0)
    game(["next"], expect=0)
    out = game(["log"], expect=0).stdout
    assert "Ann owns ARIEL" in out and "revealed DEVONIA, NUBIAN" in out and "Ann bought NUBIAN" in out
    assert "end of turn" in out


@pytest.mark.parametrize(
    "args, text, code",
    [
        (["buy", "Ann", "COLUMBIA"], "COLUMBIA is not on the market", 1),
        (["buy", "Ann", "NUBIAN", "DEVONIA", "UMBRIA"], "1 or 2 cards from the market, not 3", 1),
        (["buy", "Ann"], "Name the ship or ships bought", 2),
        (["buy", "Zed", "NUBIAN"], "There is no player called 'Zed'", 1),
        (["reveal", "HQ RED"], "The market has 0 empty positions", 1),
        (["reveal"], "Name the cards turned over", 2),
        (["own", "Ann", "NUBIAN"], "NUBIAN is already in play (on the market)", 1),
        (["own", "Ann", "TITANIC"], "`companion ship add TITANIC --year YEAR --flag COLOUR --price PRICE`", 1),
        (["own", "Zed", "ARIEL"], "There is no player called 'Zed'", 1),
        (["scrap", "NUBIAN", "--sheet-vp", "3"], "NUBIAN is on the market", 1),
        (["scrap", "NUBIAN"], "--sheet-vp", 2),
        (["vp", "Ann", "-2"], "cannot be negative", 1),
        (["vp", "Ann", "two"], "'two' is not a whole number", 2),
        (["final", "Ann", "--cash", "0", "--sheet", "red", "--rows", "0", "--next-row", "0"], "is not FLAG=VP", 2),
        (["final", "Ann", "--sheet", "red=2", "--rows", "0", "--next-row", "0"], "Add --cash N", 2),
        (["stack-empty", "extra"], "unexpected extra argument", 2),
        (["add", "Ann=3"], "`add` is a Score sheet command", 1),
    ],
)
def test_refusals_are_one_line_and_change_nothing(game, status, args, text, code):
    game(MARKET, expect=0)
    before = status()
    refused(game, args, text, code)
    assert status() == before


@pytest.mark.parametrize(
    "args, text",
    [
        # read by the kind on every surface (issue 27: one reader), typed or answered alike
        (["final", "Ann", "--cash", "-1", "--sheet", "", "--rows", "0", "--next-row", "0"],
         "'-1' does not fit: type a whole number, 0 or more."),
        (["final", "Ann", "--cash", "0", "--sheet", "", "--rows", "-1", "--next-row", "0"], "'-1' does not fit"),
        (["final", "Ann", "--cash", "0", "--sheet", "pink=2", "--rows", "0", "--next-row", "0"], "no 'pink' flag"),
    ],
)
def test_final_refusals_after_the_end_change_nothing(game, status, args, text):
    game(["reveal", "DEVONIA"], expect=0)
    game(["stack-empty"], expect=0)
    game(["buy", "Ann", "DEVONIA"], expect=0)  # the end: `final` is taken from now on
    before = status()
    refused(game, args, text)
    assert status() == before


def test_two_headquarters_and_a_sheet_missing_a_flag_are_refused(game, status):
    game(["reveal", "HQ RED", "HQ BLUE"], expect=0)
    refused(game, ["buy", "Ann", "HQ RED", "HQ BLUE"], "at most one headquarters")
    game(["buy", "Ann", "HQ RED"], expect=0)
    refused(game, ["final", "Ann", "--cash", "0", "--sheet", "blue=2", "--rows", "0", "--next-row", "0"],
            "Ann owns ships of the red flag: add red=VP to --sheet.")
    refused(game, ["reveal", "HQ RED"], "HQ RED is already in play (owned by Ann)")


def test_transatlantic_commands_refuse_another_games_session(run):
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    refused(run, ["market"], "`market` is a Transatlantic command")


def test_data_set_of_one_ship_is_the_same_as_ship_add(run):
    card = {"name": "NUBIAN", "year": 1875, "flag": "white", "price": 30, "kind": "steam"}  # TEST values
    run(["data", "set", "transatlantic", "ships.NUBIAN", json.dumps(card)], expect=0)
    assert "NUBIAN: steam, white, 1875, £30" in run(["ship", "show", "nubian"], expect=0).stdout


def test_the_ship_list_keeps_long_names_whole_at_80_columns(run):
    """The catalogue showed "FLYING C…" and "KAISER W…": four empty optional columns took the room."""
    run(["ship", "add", "KAISER WILHELM DER GROSSE", "--year", "1897", "--flag", "green", "--price", "110"],
        expect=0)  # TEST values
    run(["ship", "add", "FLYING CLOUD", "--year", "1851", "--flag", "none", "--kind", "sail"], expect=0)
    out = run(["ships"], expect=0).stdout
    assert "KAISER WILHELM DER GROSSE" in out and "FLYING CLOUD" in out and "…" not in out
    assert "tonnage" not in out, "a column no card fills is left out"
    run(["ship", "add", "UMBRIA", "--year", "1884", "--flag", "red", "--price", "90", "--speed", "19"], expect=0)
    out = run(["ships"], expect=0).stdout
    assert "speed" in out and all(len(line) <= 80 for line in out.splitlines())

