"""Transatlantic to the letter (issue 15): no `final` before the end, the owner of the oldest
ship starts, the opening purchases anti-clockwise, the last steamship to the docks.

Ship years, prices and surcharges are TEST values (nobody here has the printed cards).
"""

from __future__ import annotations

import pytest
from transatlantic_support import flat
from refusal_support import refused

CATALOGUE = [  # TEST values
    ["ship", "add", "ARIEL", "--year", "1865", "--flag", "none", "--kind", "sail"],
    ["ship", "add", "SIRIUS", "--year", "1860", "--flag", "none", "--kind", "sail"],
    ["ship", "add", "FLYING CLOUD", "--year", "1870", "--flag", "none", "--kind", "sail"],
    ["ship", "add", "DEVONIA", "--year", "1877", "--flag", "red", "--price", "50"],
    ["ship", "add", "NUBIAN", "--year", "1875", "--flag", "white", "--price", "30"],
    ["ship", "add", "GERMANIC", "--year", "1874", "--flag", "white", "--price", "40"],
    ["ship", "add", "HAMMONIA", "--year", "1882", "--flag", "blue", "--price", "70"],
    ["ship", "add", "ABYSSINIA", "--year", "1870", "--flag", "red", "--price", "30"],
    ["ship", "add", "UMBRIA", "--year", "1884", "--flag", "red", "--price", "90"],
    ["ship", "add", "HQ RED", "--year", "1890", "--flag", "red", "--price", "60", "--kind", "hq"],
    ["data", "set", "transatlantic", "market.surcharges", "[0, 10, 20, 30, 40, 50]"],
]
FINAL = ["--cash", "100", "--sheet", "red=1,white=1,blue=1", "--rows", "0", "--next-row", "0"]


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory):
    """The catalogue typed once for the module."""
    from shared_install import typed

    return typed(tmp_path_factory.mktemp("catalogue") / "home", *CATALOGUE)


@pytest.fixture
def table(run, catalogue, home):
    """The test's own copy of the catalogue."""
    import shutil

    shutil.copytree(catalogue, home)
    return run


def test_final_before_the_end_is_refused_naming_abandon(table, status):
    """Seed 002: "The game ends after the last steamship is purchased from the ship market."
    On a brand-new game `final` for every player used to print "Game over"."""
    table(["new", "transatlantic", "--players", "Ann,Bob"], expect=0)
    err = refused(table, status, ["final", "Ann", *FINAL], "The game ends only after the last steamship is bought")
    assert "`abandon`" in err and "The game ends after the last steamship is purchased" in err
    assert not status()["finished"]


def test_final_after_the_trigger_warns_of_turns_left_and_status_agrees_once_over(table, status):
    """Seed 002: "The current round is completed, and one additional round is played." Players
    don't always type `next`, so `final` is taken then, with one warning."""
    table(["new", "transatlantic", "--players", "Ann,Bob"], expect=0)
    for line in (["reveal", "NUBIAN"], ["stack-empty"], ["buy", "Ann", "NUBIAN"]):
        table(line, expect=0)
    assert status()["end"]["turns_left"] == 4
    out = table(["final", "Ann", *FINAL], expect=0).stdout
    assert "by the record 4 turns are left" in out
    out = table(["final", "Bob", *FINAL], expect=0).stdout
    assert "Game over" in out
    s = status()
    assert s["finished"] and s["current"] is None and s["end"]["turns_left"] == 0
    text = table(["status"], expect=0).stdout
    assert "the game is over" in text and "turns left" not in text and "turn left" not in text


def test_the_owner_of_the_oldest_ship_starts(table, status):
    """Seed 002: "Each player receives 1 random Sailing Ship. The owner of the oldest ship becomes
    the starting player and takes the Start Player card. Players take their turns in clockwise
    order." """
    table(["new", "transatlantic", "--players", "Ann,Bob,Cy"], expect=0)
    table(["own", "Ann", "ARIEL"], expect=0)
    table(["own", "Bob", "SIRIUS"], expect=0)
    out = table(["own", "Cy", "FLYING CLOUD"], expect=0).stdout
    assert "Bob owns the oldest ship (SIRIUS, 1860) and starts" in out
    assert "Opening purchases, anti-clockwise: Ann, Cy, Bob; then turns go clockwise: Bob, Cy, Ann." in flat(out)
    s = status()
    assert s["start_player"] == "Bob" and s["start_by"] == "oldest ship"
    assert [p["name"] for p in s["players"]] == ["Bob", "Cy", "Ann"]
    assert s["opening_due"] == "Ann"


def test_a_start_player_against_the_oldest_ship_is_refused_with_the_reason(table, status):
    """Seed 002: "The owner of the oldest ship becomes the starting player"."""
    table(["new", "transatlantic", "--players", "Ann,Bob", "--start", "Ann"], expect=0)
    table(["own", "Ann", "ARIEL"], expect=0)
    err = refused(table, status, ["own", "Bob", "SIRIUS"], "Bob owns the oldest ship (SIRIUS, 1860)")
    assert "--start Ann" in err and "--start Bob" in err
    assert status()["start_player"] == "Ann"


def test_opening_purchases_go_anti_clockwise_from_the_start_players_right(table, status):
    """Seed 002: "Before starting to play, each player purchases a steamship from the ship market
    in anti-clockwise order and deploys it." (The seed does not name the first buyer: the start
    player's right-hand neighbour buys first, so the start player buys last.) Then "Players take
    their turns in clockwise order" from the start player."""
    table(["new", "transatlantic", "--players", "Ann,Bob,Cy"], expect=0)
    for line in (["own", "Ann", "ARIEL"], ["own", "Bob", "SIRIUS"], ["own", "Cy", "FLYING CLOUD"],
                 ["reveal", "DEVONIA", "NUBIAN", "GERMANIC", "HAMMONIA", "ABYSSINIA", "UMBRIA"]):
        table(line, expect=0)
    err = refused(table, status, ["buy", "Bob", "NUBIAN"], "It is Ann's opening purchase")
    assert "in anti-clockwise order" in err
    refused(table, status, ["next"], "The opening purchases come before the first turn: Ann's is due")
    refused(table, status, ["buy", "Ann", "NUBIAN", "GERMANIC"], "The opening purchase is one steamship")
    table(["buy", "Ann", "NUBIAN"], expect=0)
    refused(table, status, ["buy", "Bob", "GERMANIC"], "It is Cy's opening purchase")
    table(["buy", "Cy", "HAMMONIA"], expect=0)
    assert "Bob's opening purchase" in table(["status"], expect=0).stdout
    table(["buy", "Bob", "UMBRIA"], expect=0)
    s = status()
    assert s["opening_due"] is None and s["current"] == "Bob" and s["round"] == 1
    assert "Round 1: Cy's turn." in table(["next"], expect=0).stdout


def test_the_countdown_counts_from_the_start_players_seat(table, status):
    """Seed 002: "The current round is completed, and one additional round is played", the
    rounds starting with the owner of the oldest ship."""
    table(["new", "transatlantic", "--players", "Ann,Bob"], expect=0)
    for line in (["own", "Ann", "ARIEL"], ["own", "Bob", "SIRIUS"], ["reveal", "NUBIAN", "GERMANIC", "DEVONIA", "ABYSSINIA", "UMBRIA"],
                 ["buy", "Ann", "NUBIAN"], ["buy", "Bob", "DEVONIA"], ["stack-empty"]):
        table(line, expect=0)
    out = table(["buy", "Bob", "UMBRIA"], expect=0).stdout  # Bob, the start player, on round 1's first turn
    assert "the very last turn is Ann's (4 turns left, this one included)" in flat(out)
    assert status()["end"]["last"] == "Ann"


def test_without_start_or_sailing_ships_purchases_are_taken_as_recorded(table, status):
    """Nobody knows who starts until every sailing ship is recorded (or --start is given), so the
    opening order cannot be checked: purchases are taken as typed, as before."""
    table(["new", "transatlantic", "--players", "Ann,Bob,Cy"], expect=0)
    table(["reveal", "NUBIAN", "GERMANIC"], expect=0)
    table(["buy", "Bob", "NUBIAN"], expect=0)
    assert status()["opening_due"] is None


def test_the_last_steamship_to_the_docks_names_the_rule(table, status):
    """Seed 002: "The game ends after the last steamship is purchased from the ship market." A
    purchase that docks a ship always buys a steamship, which is then the last one purchased."""
    table(["new", "transatlantic", "--players", "Ann,Bob"], expect=0)
    for line in (["reveal", "DEVONIA", "NUBIAN", "HQ RED"],):
        table(line, expect=0)
    out = table(["buy", "Ann", "NUBIAN"], expect=0).stdout
    assert "DEVONIA goes to the docks." in out
    assert ("DEVONIA, the last steamship on the market, went to the docks, so NUBIAN was the last steamship "
            "purchased: \"The game ends after the last steamship is purchased from the ship market\"") in flat(out)
    assert status()["end"]["docked"] is True


OPENED = (["own", "Ann", "ARIEL"], ["own", "Bob", "SIRIUS"], ["own", "Cy", "FLYING CLOUD"],
          ["reveal", "DEVONIA", "NUBIAN", "GERMANIC", "HAMMONIA", "ABYSSINIA", "UMBRIA"],
          ["buy", "Ann", "NUBIAN"], ["buy", "Cy", "HAMMONIA"], ["buy", "Bob", "UMBRIA"],  # Bob starts
          ["ship", "add", "COLUMBIA", "--year", "1889", "--flag", "blue", "--price", "80"],  # TEST values
          ["ship", "add", "CAMPANIA", "--year", "1893", "--flag", "blue", "--price", "90"],
          ["ship", "add", "ETRURIA", "--year", "1885", "--flag", "red", "--price", "75"],
          ["reveal", "COLUMBIA", "CAMPANIA", "ETRURIA"])


def test_a_purchase_out_of_turn_after_the_opening_is_taken_with_a_note(table, status):
    """Seed 001, SHIPYARD: "The player may purchase 1 or 2 ships from the ship market.", a card
    played on one's own turn (rulebook: "A player's turn consists of playing one card and
    executing the related action/s."). `next` is optional, so a purchase on another player's turn
    by the record is taken as typed (a missed `next`), with one note naming whose turn the record
    says, so a wrong name can be undone; with no `next` typed yet there is nothing to say."""
    table(["new", "transatlantic", "--players", "Ann,Bob,Cy"], expect=0)
    for line in OPENED:
        table(line, expect=0)
    out = table(["buy", "Cy", "COLUMBIA"], expect=0).stdout  # no `next` yet: the record counts no turns
    assert "Note" not in out
    table(["next"], expect=0)  # Cy's turn by the record
    before = status()
    out = table(["buy", "ann", "ETRURIA"], expect=0).stdout
    assert ("Note: by the turns recorded with `next` it is Cy's turn; this is taken as Ann's purchase all the "
            "same (`next` is optional). If Cy bought, `undo` and buy again naming Cy.") in flat(out)
    after = status()
    assert after["players"][2]["ships"] == ["ARIEL", "NUBIAN", "ETRURIA"], "Ann's, as typed"
    assert (after["current"], after["turn"], after["round"]) == (before["current"], before["turn"], 1)
    table(["undo"], expect=0)
    out = table(["buy", "Cy", "ETRURIA"], expect=0).stdout  # Cy's turn: nothing to note
    assert "Note" not in out and "Cy buys ETRURIA" in out


def test_the_opening_buyer_is_the_one_to_act_in_status_and_the_toolbar(table, status, home):
    """Seed 002: "Before starting to play, each player purchases a steamship from the ship market
    in anti-clockwise order". During the opening the toolbar named the start player's turn and
    suggested `next`, which is refused until every opening purchase is made."""
    # issue 20: the toolbar asks the game whose turn it is (Game.turn): read the shell's own bar
    from companion.core.app import App
    from companion.terminal.shell import SessionView

    table(["new", "transatlantic", "--players", "Ann,Bob,Cy"], expect=0)
    for line in OPENED[:4]:
        table(line, expect=0)
    s = status()
    assert s["opening_due"] == "Ann" and s["turn"] == "Ann" and s["current"] == "Bob"  # `current` kept
    bar = SessionView(App(home)).toolbar()
    assert "Ann's turn" in bar and "next: buy Ann SHIP: Ann's opening purchase" in bar
    for line in OPENED[4:]:
        table(line, expect=0)
    s = status()
    assert s["turn"] == "Bob" and "next: `next` when Bob's turn ends" in SessionView(App(home)).toolbar()


def test_the_log_names_players_as_seated(table, status):
    """A name typed in another case is recorded as seated: the log read "cy bought NUBIAN"."""
    table(["new", "transatlantic", "--players", "Ann,Bob,Cy"], expect=0)
    for line in (["reveal", "NUBIAN", "GERMANIC"], ["buy", "cy", "NUBIAN"], ["vp", "ANN", "2"]):
        table(line, expect=0)
    log = table(["log"], expect=0).stdout
    assert "Cy bought NUBIAN" in log and "Ann scores 2 VP" in log and "cy bought" not in log


def test_a_flagless_ship_scrapped_scores_nothing_off_a_sheet(table, status):
    """Seed 002: "Finally, the scrapped ship is scored in the usual way", and the usual way scores
    a ship by its flag's value on the sheet: a sailing ship without a flag scores nothing, as at
    final scoring. `scrap ARIEL --sheet-vp 2` used to give 2 VP."""
    table(["new", "transatlantic", "--players", "Ann,Bob"], expect=0)
    table(["own", "Ann", "ARIEL"], expect=0)
    refused(table, status, ["scrap", "ariel", "--sheet-vp", "2"],
            "ARIEL flies no flag, so no player sheet scores it and scrapping it scores nothing: "
            "type `scrap ARIEL --sheet-vp 0`.")
    out = table(["scrap", "ARIEL", "--sheet-vp", "0"], expect=0).stdout
    assert "ARIEL is scrapped: it flies no flag, so Ann scores 0 VP for it. It leaves the game." in flat(out)
    assert status()["players"][0]["play_vp"] == 0


def test_every_line_fits_80_columns_and_names_stay_whole(table, status):
    """Screens fit 80 columns: the long messages broke mid-word at the screen's edge ("Ann st /
    arts", "CITY O / F NEW YORK")."""
    table(["ship", "add", "CITY OF NEW YORK", "--year", "1888", "--flag", "black", "--price", "100"], expect=0)
    outs = [table(["new", "transatlantic", "--players", "Ann,Bartholomew Jones,Cy"], expect=0).stdout]
    for line in (["own", "Ann", "ARIEL"], ["own", "Bartholomew Jones", "SIRIUS"], ["own", "Cy", "FLYING CLOUD"],
                 ["reveal", "DEVONIA", "NUBIAN", "GERMANIC", "HAMMONIA", "ABYSSINIA", "CITY OF NEW YORK"],
                 ["buy", "Ann", "NUBIAN"], ["buy", "Cy", "HAMMONIA"], ["buy", "Bartholomew Jones", "ABYSSINIA"]):
        outs.append(table(line, expect=0).stdout)
    text = "\n".join(outs)
    assert all(len(line) <= 80 for line in text.splitlines()), [ln for ln in text.splitlines() if len(ln) > 80]
    assert "CITY OF NEW YORK" in text and "Bartholomew Jones owns the oldest ship" in text
    assert "Ann st\n" not in text
