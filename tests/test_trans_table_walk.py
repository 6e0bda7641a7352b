"""What a table of four met playing Trans Europa / Amerika on one laptop at 80 columns (the
walk of issue 15's several special cards and Europa's single lines).

Every screen fits 80 columns without breaking a word; a question in the shell is asked again
until it is answered, never dropped, and never asked of a player who has nothing to choose;
an answer a question takes is never refused afterwards.
"""

from __future__ import annotations

import json
import re

import pytest

try:
    from shell_support import Screen, drive
except ImportError:  # tests/ imported as a package
    from tests.shell_support import Screen, drive

from companion.core.session import load
from companion.core.store import Store

LONG = "Annabelle,Bartholomew,Cyprian,Dorothea"
ALIASES = {"brown": "red", "white": "blue", "pink": "green", "turquoise": "yellow", "orange": "orange"}
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\r")


@pytest.fixture(autouse=True)
def eighty(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")


def fits(text: str) -> bool:
    return all(len(line) <= 80 for line in text.splitlines())


def state(home):
    store = Store(home)
    s = load(store, store.current())
    return s, s.replay()


def test_a_round_end_fits_80_columns_with_whole_names(run):
    """Seed 000: "All players then reveal their five city cards ... Scoring now takes place." The
    round end's result, totals and the hands revealed fit 80 columns, broken between a player's
    results and between cities, never inside "Salt Lake City" or "Bartholomew +0"."""
    run(["new", "trans-amerika", "--players", LONG, "--entropy", "walk"], expect=0)
    run(["round", "start"], expect=0)
    out = run(["round", "end", "--winner", "Annabelle", "--missing", "Bartholomew=12", "--missing",
               "Cyprian=3", "--missing", "Dorothea=7"], expect=0).stdout
    assert fits(out), out
    flat = out.replace("\n  ", " ")
    for result in ("Bartholomew +0 (12 missing)", "Cyprian +1 (3 missing)", "Dorothea +0 (7 missing)",
                   "Annabelle 4"):
        assert result in flat


def test_the_build_and_start_lines_fit_80_columns(run):
    """Seed 000: "The starting player begins, then all the others place their marker in turn,
    clockwise." The line saying every marker is down, and a turn's warning, fit 80 columns."""
    run(["new", "trans-amerika", "--players", "Ann,Bob", "--entropy", "walk"], expect=0)
    run(["round", "start"], expect=0)
    run(["start", "Ann", "San Diego"], expect=0)
    out = run(["start", "Bob", "Seattle"], expect=0).stdout
    assert "Every start marker is down" in out and fits(out), out
    out = run(["build", "Ann", "San Diego-D11-E11-E10"], expect=0).stdout
    assert "Warning: that makes" in out and fits(out), out


def test_the_colour_question_fits_and_a_blank_answer_asks_again(home, run, status, capsys):
    """Seed 000's pass card names "pink"; the classic Europa board has no pink. In the shell the
    question fits 80 columns, and an empty Enter or a colour the board lacks is answered and the
    question comes back (the command is never dropped)."""
    run(["new", "trans-europa", "--players", "Ann,Bob,Cy,Dee", "--entropy", "walk"], expect=0)
    screen = Screen()
    capsys.readouterr()
    drive(home, "round start --special pass-pink\n\npurple\nred\n", output=screen.output(), private=True)
    out, err = capsys.readouterr()
    prompts = ESCAPES.sub("", screen.getvalue())
    assert "Colour (yellow, red, orange, green, blue): " in prompts
    assert all(len(line) <= 80 for line in out.splitlines()) and "Nothing recorded" not in out + err
    assert "Type one of this board's colours" in out and "'purple' is not one of this board's colours" in out
    assert status()["round"] == 1 and status()["special"]["id"] == "pass-pink"
    assert '"red"' in run(["data", "show", "trans-europa", "colour_aliases.pink"], expect=0).stdout


def _four_with(run, *cards):
    for key, value in ALIASES.items():
        run(["data", "set", "trans-amerika", f"colour_aliases.{key}", json.dumps(value)], expect=0)
    run(["new", "trans-amerika", "--players", "Ann,Bob,Cy,Dee", "--entropy", "walk"], expect=0)
    args = [a for c in cards for a in ("--special", c)]
    return run(["round", "start", *args], expect=0).stdout


def test_a_player_who_already_chose_is_not_asked_again(home, run, capsys):
    """Seed 000, pass-three: "All of you simultaneously choose any one of your 5 city cards and
    pass it". A second `pass Ann` in the same pass is refused on the shared screen, naming whom
    the pass waits for: Ann is not taken to a private question every answer of which is refused."""
    _four_with(run, "pass-three")
    _, replay = state(home)
    ann = replay.state["hands"]["Ann"]
    screen = Screen()
    capsys.readouterr()
    drive(home, f"pass Ann\n\n{ann[0]}\npass Ann\n", output=screen.output(), private=True)
    out, err = capsys.readouterr()
    assert screen.getvalue().count("\x1b[?1049h") == 1  # the private screen opened once, for the first pass
    assert "Ann has already chosen a city for pass 1 of 3: waiting for Bob, Cy, Dee." in err
    assert ann[0] not in out + err
    _, replay = state(home)
    assert replay.state["pending"]["chosen"] == {"Ann": ann[0]}


def test_a_pass_out_of_turn_is_refused_before_any_question(home, run, capsys):
    """Seed 000, pass-a-colour: the start player passes, "who in turn also decides ... and so
    on". `pass Cy` while Ann is due is refused at once: Cy is never handed the laptop."""
    _four_with(run, "pass-pink")
    screen = Screen()
    capsys.readouterr()
    drive(home, "pass Cy\n", output=screen.output(), private=True)
    out, err = capsys.readouterr()
    assert "It is Ann's turn to pass a green city" in err and "Pass the laptop" not in screen.getvalue()


def test_the_rules_say_whose_choice_it_is_before_which_city():
    """Whose turn, or a choice already made, is said before the city is checked: a wrong city
    typed out of turn is answered with whose turn it is, which names no card."""
    from companion.core import datapack
    from companion.contract.errors import RuleError
    from companion.contract.api import Setup
    from companion.games.trans.rules import TransAmerika, make_round_start

    g = TransAmerika()
    data = datapack.pack(g.id)["values"]
    data = dict(data, colour_aliases=dict(data["colour_aliases"], **ALIASES))
    s = g.initial(Setup(g.id, ("Ann", "Bob", "Cy"), {"order": "rulebook"}), data)
    s = g.apply(s, make_round_start(s, data, "c3" * 32, "", "sess", special=["pass-three"]), data)
    s = g.apply(s, {"type": "pass", "player": "Ann", "city": s["hands"]["Ann"][0]}, data)
    with pytest.raises(RuleError, match="Ann has already chosen a city for pass 1 of 3"):
        g.apply(s, {"type": "pass", "player": "Ann", "city": ""}, data)
    s = g.initial(Setup(g.id, ("Ann", "Bob", "Cy"), {"order": "rulebook"}), data)
    s = g.apply(s, make_round_start(s, data, "c3" * 32, "", "sess", special=["pass-pink"]), data)
    with pytest.raises(RuleError, match="It is Ann's turn to pass a green city"):
        g.apply(s, {"type": "pass", "player": "Cy", "city": "Nowhere"}, data)


def test_the_private_screen_fits_80_columns(home, run, capsys):
    """Seed 000, return-any: "each of you puts any one of them face down back". On the private
    screen the hand, what is due and a refused answer fit 80 columns; the screen where the
    city is chosen does not repeat the command to type (its question says what to type)."""
    _four_with(run, "return-any", "pass-three")
    screen = Screen()
    capsys.readouterr()
    drive(home, "hand Ann\n\n\nhand Ann --return\n\nDallas Fort Worth Nowhere\n", output=screen.output(),
          private=True)
    _, private = screen.split()
    text = ESCAPES.sub("", private)
    assert "Your choice is due: Ann, Bob, Cy, Dee must still put a city back" in text  # `hand Ann`
    assert text.count("Your choice is due") == 1  # not on the choosing screen
    assert "There is no city 'Dallas Fort Worth Nowhere'" in text
    said = [line for line in text.splitlines() if "(one of your cities):" not in line]  # the prompt is redrawn
    assert all(len(line) <= 80 for line in said), [line for line in said if len(line) > 80]


def test_the_missing_rails_question_takes_only_what_the_board_allows(home, run, status, capsys):
    """Issue 15 refuses a count larger than any player could need on the board (49 on the
    TransAmerica board). The shell's question says so and asks again, instead of taking 60 and
    then refusing the whole round end after every count was typed."""
    run(["new", "trans-amerika", "--players", "Ann,Bob,Cy", "--entropy", "walk"], expect=0)
    run(["round", "start"], expect=0)
    capsys.readouterr()
    drive(home, "round end --winner Ann\n60\n12\n3\n", output=Screen().output(), private=True)
    out, err = capsys.readouterr()
    assert "'60' is not Bob's missing rails: a whole number from 1 to 49" in out
    assert "cannot be missing" not in err
    assert status()["history"][-1]["missing"] == {"Bob": 12, "Cy": 3}


def test_round_start_shows_the_revealed_cities(run, status):
    """Seed 000: "Each player reveals their pink and orange city card ... so that everyone can see
    which two cities these are." `round start` lists them under the card, as `status` does."""
    out = _four_with(run, "reveal-pink-orange", "generous")
    shown = status()["revealed"]
    assert len(shown) == 4 and fits(out)
    for player, cities in shown.items():
        assert f"  shown: {player}: {', '.join(cities)}" in out.replace("\n      ", " ")


def test_a_junction_named_twice_says_which_coordinate_it_is(run):
    """`build Ann Wien-J9` where J9 is Wien's own junction: the refusal says so."""
    from companion.core import datapack
    from companion.contract.errors import RuleError
    from companion.games.trans.board import Board

    board = Board.from_values(datapack.pack("trans-europa")["values"], "trans-europa")
    wien = board.junction("Wien")
    with pytest.raises(RuleError, match=rf"names Wien \(its junction is {board.coord[wien]}\) twice"):
        board.parse_path(f"Wien-{board.coord[wien]}")


def test_the_colour_refusal_never_suggests_a_colour(run, status):
    """RULES.md: "an effect that names a colour the chosen edition lacks must ask which colour is
    meant". The refusal of a command typed in full shows "COLOUR" with the board's colours, not
    the board's first colour, which a table could copy as the answer."""
    run(["new", "trans-europa", "--players", "Ann,Bob,Cy,Dee", "--entropy", "walk"], expect=0)
    before = status()
    err = run(["round", "start", "--special", "return-turquoise"], expect=1).stderr
    assert "companion data set trans-europa colour_aliases.turquoise '\"COLOUR\"'" in err
    assert "one of yellow, red, orange, green, blue" in err and "'\"yellow\"'" not in err
    assert status() == before


def test_the_command_due_stays_on_one_line(run):
    """`Now: ... must still choose a city to pass left: pass NAME CITY` is wider than 80
    columns with four players: it wraps before the command, never inside it."""
    run(["new", "trans-amerika", "--players", "Ann,Bob,Cy,Dee", "--entropy", "x"], expect=0)
    out = run(["round", "start", "--special", "pass-three"], expect=0).stdout
    assert fits(out)
    assert any(line.strip().endswith("pass NAME CITY") for line in out.splitlines()), out
    shown = run(["status"], expect=0).stdout  # and its "Waiting:" line
    assert fits(shown) and any(line.strip().endswith("pass NAME CITY") for line in shown.splitlines()), shown
