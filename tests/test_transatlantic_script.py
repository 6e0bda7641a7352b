"""A whole Transatlantic evening in script mode, and the shell asking for a ship's card.

Every ship value, surcharge and sheet VP here is a TEST value (the printed ones are unknown
here), except the rulebook's HAMMONIA at £70 + £30.
"""

from __future__ import annotations

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from companion.core.app import App
from companion.terminal.cli import cli, run_shell
from companion.terminal.shell import CommandCompleter, SessionView
from transatlantic_support import flat

EVENING = """\
# the catalogue, typed once (TEST values)
companion ship add ARIEL --year 1865 --flag none --kind sail
ship add SIRIUS --year 1860 --flag none --kind sail
ship add DEVONIA --year 1877 --flag red --price 50
ship add NUBIAN --year 1875 --flag white --price 30
ship add GERMANIC --year 1874 --flag white --price 40
ship add HAMMONIA --year 1882 --flag blue --price 70
ship add ABYSSINIA --year 1870 --flag red --price 30
ship add UMBRIA --year 1884 --flag red --price 90
ship add "CITY OF NEW YORK" --year 1888 --flag black --price 100
ship add COLUMBIA --year 1889 --flag blue --price 80
ship add "HQ RED" --year 1890 --flag red --price 60 --kind hq
data set transatlantic market.surcharges '[0, 10, 20, 30, 40, 50]'

new transatlantic --players Ann,Bob --start Bob
own Bob SIRIUS
own Ann ARIEL
reveal DEVONIA NUBIAN GERMANIC HAMMONIA ABYSSINIA UMBRIA
# the opening purchases, anti-clockwise
buy Ann GERMANIC
buy Bob ABYSSINIA
reveal "CITY OF NEW YORK" COLUMBIA "HQ RED"
# round 1
buy Bob UMBRIA
next
buy Ann "CITY OF NEW YORK"
vp Ann 2 --note "trade houses"
next
# round 2, the last one
scrap ABYSSINIA --sheet-vp 2
buy Bob "HQ RED"
next
next
final Bob --cash 180 --sheet red=4 --rows 1 --next-row 3
final Ann --cash 210 --sheet white=3,black=2 --rows 2 --next-row 0
"""


def test_a_whole_evening_in_script_mode(script, status):
    code, out, err = script(EVENING)
    assert (code, err) == (0, "")
    assert "Ann buys GERMANIC £60 (£40 + £20 in position 3)." in out
    assert "Bob buys UMBRIA £100 (£90 + £10 in position 2)." in out
    assert "HAMMONIA goes to the docks." in out
    assert ("Ann took the last steamship off the market: the end is triggered. Round 1 is finished and one "
            "more full round is played; the very last turn is Ann's (3 turns left, this one included).") in flat(out)
    # seed 002: "The game ends after the last steamship is purchased from the ship market"
    assert ("COLUMBIA, the last steamship on the market, went to the docks, so CITY OF NEW YORK was the last "
            "steamship purchased") in flat(out)
    assert "ABYSSINIA is scrapped: Bob scores 2 + 1 (red ships in the docks) = 3 VP." in flat(out)
    assert "That was the very last turn" in out
    # Bob: UMBRIA 4+1, HQ RED 4+1, SIRIUS 0, £180 -> 1, 1 row -> 5, 3 markers x 2, 3 during play = 25
    # Ann: GERMANIC 3+1, CITY OF NEW YORK 2+0, ARIEL 0, £210 -> 2, 2 rows -> 15, 2 during play = 25
    # the tie goes to the youngest ship: Ann's CITY OF NEW YORK (1888) beats Bob's UMBRIA (1884);
    # a headquarters is a building, not a ship
    assert "Game over: Ann wins. (Bob, Ann tied on 25; youngest ship: Bob 1884, Ann 1888.)" in out
    s = status()
    assert s["docks"] == ["DEVONIA", "NUBIAN", "HAMMONIA", "COLUMBIA"]
    assert s["docks_value"] == {"red": 1, "white": 1, "blue": 2}
    assert s["market"] == [None] * 6
    assert [(p["name"], p["score"], p["ships"]) for p in s["players"]] == [
        ("Bob", 25, ["SIRIUS", "UMBRIA", "HQ RED"]),
        ("Ann", 25, ["ARIEL", "GERMANIC", "CITY OF NEW YORK"]),
    ]
    assert s["players"][0]["scrapped"] == ["ABYSSINIA"]
    assert s["end"] == {"by": "Ann", "round": 1, "last": "Ann", "turns_left": 0, "docked": True}
    assert s["finished"] and s["winners"] == ["Ann"]


def test_a_wrong_line_stops_the_script_with_its_number(script, status):
    code, out, err = script("new transatlantic --players Ann,Bob\nreveal TITANIC\nnext\n")
    assert code == 1
    assert err.startswith("line 2: The ship TITANIC is not in the catalogue yet: type `companion ship add TITANIC")
    assert status()["round"] == 1 and status()["current"] == "Ann"  # line 3 never ran


def drive(home, text: str) -> None:
    with create_pipe_input() as pipe:
        pipe.send_text(text)
        pipe.close()  # the end of the input is Ctrl-D: a question left waiting cannot hang the test
        with create_app_session(input=pipe, output=DummyOutput()):
            run_shell(App(home), input=pipe, output=DummyOutput())


def test_the_shell_asks_for_an_unknown_ships_card(home, capsys, run, status):
    run(["new", "transatlantic", "--players", "Ann,Bob"], expect=0)
    # kind (Enter = steam), year, a wrong flag then the right one, a wrong price then the price
    drive(home, "reveal Campania\n\n1893\npurple\nred\nabc\n120\nexit\n")
    out = capsys.readouterr().out
    assert "CAMPANIA is not in the ship catalogue yet" in out
    assert "There is no 'purple' flag" in out and "Type a whole number." in out
    assert "Added CAMPANIA: steam, red, 1893, £120." in out
    assert status()["market"][0] == "CAMPANIA"
    assert "CAMPANIA: steam, red, 1893, £120" in run(["ship", "show", "campania"], expect=0).stdout


def test_a_blank_answer_is_asked_again_and_ctrl_c_records_nothing(home, capsys, run, status):
    run(["new", "transatlantic", "--players", "Ann,Bob"], expect=0)
    # `exit` at the year is asked about (a command?), and `n` makes it the answer (issue 24)
    drive(home, "reveal CAMPANIA\nhq\n\nexit\nn\n\x03exit\n")
    out, err = capsys.readouterr()
    assert "This value is on the card and needed: type it." in out
    assert "Type a whole number." in out  # `exit` was an answer to the year, not a command
    assert "Stopped; nothing was recorded." in err
    assert status()["market"] == [None] * 6


def test_the_shell_asks_for_final_inputs_left_out(home, capsys, run, status):
    run(["ship", "add", "NUBIAN", "--year", "1875", "--flag", "white", "--price", "30"], expect=0)  # TEST
    run(["data", "set", "transatlantic", "market.surcharges", "[0, 10, 20, 30, 40, 50]"], expect=0)  # TEST
    run(["new", "transatlantic", "--players", "Ann,Bob"], expect=0)
    for line in (["reveal", "NUBIAN"], ["stack-empty"], ["buy", "Ann", "NUBIAN"]):  # `final` waits for the end
        run(line, expect=0)
    drive(home, "final Ann\n250\n2\n2\nwhite=0\nexit\n")
    assert status()["players"][0]["score"] == 2 + 15 + 6


def test_completion_offers_ship_names_and_players(home, run):
    run(["ship", "add", "CITY OF NEW YORK", "--year", "1888", "--flag", "black", "--price", "100"], expect=0)
    run(["new", "transatlantic", "--players", "Ann,Bob"], expect=0)
    completer = CommandCompleter(App(home), SessionView(App(home)), cli)

    def complete(text):
        from prompt_toolkit.document import Document

        return [c.text for c in completer.get_completions(Document(text), None)]

    assert "'CITY OF NEW YORK'" in complete("reveal CI")
    assert "Ann" in complete("buy A")
    assert "black" in complete("final Ann --sheet bl")
