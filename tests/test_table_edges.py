"""The table's rough edges of the second game night (issue 24), one test each: what the
players saw, and what they expected instead."""

from __future__ import annotations

import json

import pytest

from companion.core.app import App
from companion.terminal.cli import run_line
from companion.terminal.shell import SessionView

try:
    from shell_support import Screen, drive, last_json
except ImportError:  # run from the repository root
    from tests.shell_support import Screen, drive, last_json

AMERIKA_HANDS = {"Ann": "San Diego,Dallas,St. Louis,Cincinnati,Washington",
                 "Bob": "Los Angeles,Chicago,Oklahoma City,Memphis,New York",
                 "Cy": "Portland,Bismarck,Santa Fe,New Orleans,Boston",
                 "Dee": "Sacramento,Minneapolis,Omaha,El Paso,Charleston"}


def bar(home) -> str:
    return SessionView(App(home)).toolbar()


def trans_round(script, *, built: str = "build Ann Omaha-J5") -> None:
    """Trans Amerika, three players, a round dealt at the table, markers down, one build."""
    lines = ["new trans-amerika --players Ann,Bob,Cy,Dee --entropy x", "round start --physical",
             *[f"hand {p} --set '{h}'" for p, h in AMERIKA_HANDS.items()],
             "start Ann Omaha", "start Bob Denver", "start Cy Dallas", "start Dee Helena", built]
    code, _, err = script("\n".join(lines) + "\n")
    assert code == 0, err


# -- after abandon ---------------------------------------------------------------------------------

def test_after_abandon_status_and_the_toolbar_say_so_and_offer_no_build(home, script, run):
    trans_round(script)
    run(["abandon"], expect=0)
    out = run(["status"], expect=0).stdout
    assert out.startswith("Abandoned: this game has no result (`undo` takes that back).")
    assert "Next: `build" not in out and "build NAME PATH" not in out and "Turn 1" not in out
    text = bar(home)
    assert "abandoned" in text and "build" not in text and "turn" not in text


@pytest.mark.parametrize("new, move", [
    ("new scoresheet --players Ann,Bob", "add"),
    ("new atlantic-star --players Ann,Bob", "'s turn"),
    ("new transatlantic --players Ann,Bob", "'s turn"),
])
def test_no_game_says_what_comes_next_once_abandoned(script, run, new, move):
    code, _, err = script(new + "\nabandon\n")
    assert code == 0, err
    out = run(["status"], expect=0).stdout
    assert move not in out.split("\n", 1)[1]


# -- whose turn ------------------------------------------------------------------------------------

def test_after_a_full_turn_the_next_seat_builds(home, script, status, run):
    trans_round(script)  # Omaha-J5 is a double line: 2 of Ann's 2 rails' worth
    s = status()
    assert s["turn"]["player"] == "Ann" and s["builder"] == "Bob"
    assert "Bob's turn" in bar(home)
    assert "Turn 1 (lap 1): Ann, 2 of 2 rails' worth placed; Bob builds next." in run(["status"], expect=0).stdout


def test_the_table_page_names_who_builds_now(script):
    """The table page draws the game's view: its heading follows the builder, not the last."""
    from companion.core import registry
    from companion.contract.declare import At
    from companion.games.trans.screens import headline
    from companion.contract.view import plain

    trans_round(script)
    app = App(__import__("os").environ["COMPANION_HOME"])
    s, replay = app.loaded()
    status = s.status(replay)
    assert "Round 1 · Bob is building" in plain(headline(status))
    assert registry.get("trans-amerika").turn(replay.state) == ["Bob"]
    assert At(s, replay).game.turn(replay.state) == ["Bob"]


def test_a_round_over_on_the_board_and_a_scored_round_show_no_turn(home, run, script):
    lines = ["new trans-amerika --players Ann,Bob,Cy,Dee --entropy x", "round start --physical",
             *[f"hand {p} --set '{h}'" for p, h in AMERIKA_HANDS.items()],
             "start Ann San Diego", "start Bob Los Angeles", "start Cy Portland", "start Dee Omaha"]
    code, _, err = script("\n".join(lines) + "\n")
    assert code == 0, err
    paths = json.loads(run(["rails", "Ann", "--json", "--print"], expect=0).stdout)["paths"]
    out = run(["build", "Ann", ",".join(paths)], expect=0).stdout
    assert "The round has ended: Ann wins it." in out
    text = bar(home)
    assert "'s turn" not in text and "round end --auto" in text
    run(["round", "end", "--auto"], expect=0)
    text = bar(home)
    assert "'s turn" not in text and "next: round start" in text


# -- the players question --------------------------------------------------------------------------

def test_names_with_spaces_are_read_as_players_after_a_confirmation(home, capsys):
    app = drive(home, "new scoresheet\nAnn Bob Cy Dee\n\nstatus --json\n")
    out = capsys.readouterr().out
    assert [p["name"] for p in last_json(out)["players"]] == ["Ann", "Bob", "Cy", "Dee"]
    assert app.pinned


def test_one_player_with_spaces_in_the_name_stays_possible(home, capsys):
    drive(home, "new scoresheet\nAnn Marie\nn\nstatus --json\n")
    assert [p["name"] for p in last_json(capsys.readouterr().out)["players"]] == ["Ann Marie"]


def test_the_players_question_says_commas_separate_names(home):
    screen = Screen()
    drive(home, "new scoresheet\nAnn,Bob\n", output=screen.output())
    assert "Players in seat order, separated by commas" in screen.getvalue()
    assert "4 players" not in screen.getvalue()


def test_spaces_for_a_game_of_two_or_more_offer_only_the_players(home):
    screen = Screen()
    drive(home, "new transatlantic\nAnn Bob\ny\n", output=screen.output(columns=100))
    shown = screen.getvalue()
    assert "2 players: Ann, Bob? [Y/n] (n: type the names again)" in shown


# -- a command typed at a question -----------------------------------------------------------------

def test_a_command_at_the_shuffle_question_skips_it_and_runs(home, capsys, status):
    drive(home, "new trans-amerika --players Ann,Bob --start Ann\nround start --physical\nexit\n")
    out = capsys.readouterr().out
    assert "`round start --physical` is a command: the question is skipped" in out
    s = status()
    assert s["round"] == 1 and s["physical"] is True
    from companion.core import session as sessions
    from companion.core.store import Store

    store = Store(home)
    assert sessions.load(store, store.current()).meta["entropy"] == ""


def test_a_command_at_a_yes_no_question_is_asked_about(home, run, capsys):
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    run(["new", "scoresheet", "--players", "Cy,Dee"], expect=0)
    ids = [e["id"] for e in json.loads(run(["sessions", "--json"], expect=0).stdout)]
    screen = Screen()
    drive(home, f"delete {ids[0]}\nsessions\ny\nexit\n", output=screen.output(columns=100))
    out, err = capsys.readouterr()
    assert "Did you mean to run `sessions`?" in screen.getvalue()
    assert "Stopped; nothing was recorded." in err and "Kept session" not in out
    assert [e["id"] for e in json.loads(run(["sessions", "--json"], expect=0).stdout)] == ids  # nothing deleted
    assert ids[0] in out  # `sessions` ran


def test_answering_no_takes_the_command_as_the_answer(home, run, capsys):
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    sid = json.loads(run(["sessions", "--json"], expect=0).stdout)[0]["id"]
    drive(home, f"delete {sid}\nrestore {sid}\nn\nexit\n")
    assert f"Kept session {sid}; nothing was changed." in capsys.readouterr().out


# -- Ctrl-C, clear, verify, redo -----------------------------------------------------------------------

def test_ctrl_c_at_a_question_is_no_error(home, capsys):
    drive(home, "new scoresheet\n\x03exit\n")
    err = capsys.readouterr().err
    assert "Stopped; nothing was recorded." in err and "Error" not in err


def test_clear_is_a_command(home, run, capsys):
    assert run(["clear"], expect=0).stdout == ""  # not a terminal: nothing to clear
    screen = Screen()
    drive(home, "clear\nexit\n", output=screen.output())
    assert "No such command" not in capsys.readouterr().err
    assert "\x1b[2J" in screen.getvalue()


def test_verify_takes_session_like_every_command(run):
    run(["new", "trans-amerika", "--players", "Ann,Bob", "--entropy", "x"], expect=0)
    sid = json.loads(run(["sessions", "--json"], expect=0).stdout)[0]["id"]
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    out = run(["verify", "--session", sid, "--reveal"], expect=0).stdout
    assert "Seed:" in out and "No deals recorded yet." in out


def test_redo_that_ends_the_game_says_so(run):
    run(["new", "scoresheet", "--players", "Ann,Bob", "--target", "10"], expect=0)
    run(["add", "Ann=12"], expect=0)
    run(["undo"], expect=0)
    out = run(["redo"], expect=0).stdout
    assert out.splitlines() == ["Redid: round scored: Ann +12.", "Game over: Ann wins."]
    run(["undo"], expect=0)
    run(["add", "Bob=3"], expect=0)
    assert "Game over" not in run(["undo"], expect=0).stdout


# -- round end -------------------------------------------------------------------------------------

def test_round_end_refuses_before_asking_when_no_round_is_open(home, run, capsys):
    run(["new", "trans-europa", "--players", "Ann,Bob", "--entropy", "x"], expect=0)
    app = App(home, ask=lambda q, d="": pytest.fail(f"asked {q!r}"))
    assert run_line(app, "round end --winner Ann") == (1, "No round is open: start one with `round start`.")


# -- Transatlantic ---------------------------------------------------------------------------------

def test_transatlantic_announces_no_start_player_before_the_oldest_ship(run):
    out = " ".join(run(["new", "transatlantic", "--players", "Ann,Bob,Cy"], expect=0).stdout.split())
    assert "(the owner of the oldest ship starts, once every player owns a sailing ship)" in out
    assert "Ann starts" not in out
    out = run(["new", "transatlantic", "--players", "Ann,Bob,Cy", "--start", "Bob"], expect=0).stdout
    assert "(Bob starts)" in out


def test_an_empty_position_has_no_question_mark_price(run):
    run(["new", "transatlantic", "--players", "Ann,Bob"], expect=0)
    out = run(["market"], expect=0).stdout
    rows = [line for line in out.splitlines() if "(empty)" in line]
    assert len(rows) == 6 and not any("?" in row for row in rows)


def test_reveal_advice_names_stack_empty_too(run, home):
    run(["new", "transatlantic", "--players", "Ann,Bob"], expect=0)
    run(["data", "set", "transatlantic", "market.surcharges", "[0, 10, 20, 30, 40, 50]"], expect=0)
    run(["ship", "add", "NUBIAN", "--year", "1860", "--flag", "white", "--kind", "sail",
         "--price", "100"], expect=0)
    run(["ship", "add", "SIRIUS", "--year", "1838", "--flag", "red", "--price", "90"], expect=0)
    run(["reveal", "NUBIAN", "SIRIUS"], expect=0)
    out = run(["buy", "Ann", "NUBIAN"], expect=0).stdout
    assert "turn over new cards with `reveal SHIP ...`, or type `stack-empty` if the stack has run out." \
        in " ".join(out.split())


# -- export, the board legend, the private screen ------------------------------------------------

def test_export_does_not_call_an_abandoned_game_in_play(run):
    run(["new", "trans-amerika", "--players", "Ann,Bob", "--entropy", "x"], expect=0)
    run(["abandon"], expect=0)
    err = run(["export"], expect=0).stderr
    assert "still in play" not in err and "was abandoned" in err


def test_the_colourless_legend_tells_water_from_mountain(run):
    run(["data", "accept", "trans-amerika", "double_kinds"], expect=0)
    out = run(["board", "trans-amerika"], expect=0).stdout  # piped: no colour
    legend = next(line for line in out.splitlines() if "water" in line and "mountain" in line)
    water, mountain = legend.split(" water")[0].split()[-2:], legend.split(" mountain")[0].split()[-2:]
    assert water != mountain
    assert "≈≈≈" in out  # a water line drawn wavy in the map itself


@pytest.mark.parametrize("shows, handover, hide", [
    ("the cards", "Pass the laptop to Ann, then press Enter to show the cards.", "Press Enter to hide them again."),
    ("the route", "Pass the laptop to Ann, then press Enter to show the route.", "Press Enter to hide it again."),
    ("", "Pass the laptop to Ann, then press Enter to show it.", "Press Enter to hide it again."),
])
def test_the_handover_says_what_is_shown(shows, handover, hide):
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input

    from companion.terminal.private import PrivateScreen

    screen = Screen()
    with create_pipe_input() as pipe:
        pipe.send_text("\r\r")
        out = screen.output()
        with create_app_session(input=pipe, output=out):
            PrivateScreen(out, pipe).show("Ann", "secret", shows)
    text = screen.getvalue()
    assert handover in text and hide in text
