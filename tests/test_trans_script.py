"""A whole Trans evening in script mode, and the shell asking for what a command left out."""

from __future__ import annotations

import json

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from companion.core.app import App
from companion.terminal.cli import run_shell

EVENING = """\
# Trans Amerika, three players, prestige scoring
new trans-amerika --players Ann,Bob,Cy --start Bob --entropy "pizza and dice"
round start
round end --winner Bob --missing Cy=2 --missing Ann=6
round start --special rhythm-321
round end --winner Cy --missing Bob=1 --missing Ann=3
round start --physical
hand Ann --set Portland,Helena,Omaha,"El Paso","New York"
round end --rails-out --missing Ann=1 --missing Bob=2 --missing Cy=4
round start
round end --winner Bob --winner Ann --missing Cy=5
status --json
verify
"""


def status_json(stdout: str) -> dict:
    start = stdout.index('{\n  "session"')
    return json.loads(stdout[start:stdout.index("\n}\n", start) + 2])


def test_a_complete_scripted_game(script):
    code, out, err = script(EVENING)
    assert code == 0, err
    assert "Trans Amerika with Bob, Cy, Ann (Bob starts)" in out
    assert "Round 2 started: Cy starts." in out and "lap 1: 3" in out
    assert "Round 3 scored: Bob +2 (2 missing), Cy +1 (4 missing), Ann +3 (1 missing)." in out.replace("\n  ", " ")
    assert "Game over: Bob wins." in out
    status = status_json(out)
    assert [(p["name"], p["score"]) for p in status["players"]] == [("Bob", 13), ("Cy", 7), ("Ann", 8)]
    assert status["finished"] and status["winners"] == ["Bob"] and status["round"] == 4
    assert status["hands"]["Ann"] and len(status["history"]) == 4
    assert "All 15 deals match the seed." in out  # 3 rounds dealt by the app x 5 colours


def test_script_mode_refuses_a_missing_count_and_stops(script, status):
    code, out, err = script(
        "new trans-europa --players Ann,Bob,Cy,Dee\nround start\nround end --winner Ann --missing Bob=2\nstatus\n"
    )
    assert code == 1
    assert err.strip() == ("line 3: Every player who did not connect needs a missing-rail count: "
                           "add --missing Cy=N --missing Dee=N")
    assert status()["round_open"] is True


def drive(home, text: str) -> None:
    with create_pipe_input() as pipe:
        pipe.send_text(text)
        pipe.close()  # the end of the input is Ctrl-D: a question left waiting cannot hang the test
        with create_app_session(input=pipe, output=DummyOutput()):
            run_shell(App(home), input=pipe, output=DummyOutput())


def test_the_shell_asks_for_the_counts_left_out(home, capsys):
    drive(home, "new trans-amerika --players Ann,Bob,Cy --entropy x\nround start\n"
                "round end --winner Ann --missing Bob=2\n5\nstatus --json\nexit\n")
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "Error" not in err
    assert "Round 1 scored: Ann +4 (connected), Bob +2 (2 missing), Cy +0 (5 missing)." in out
    status = status_json(out)
    assert [p["score"] for p in status["players"]] == [4, 2, 0]


def test_the_shell_asks_again_for_a_typed_count_that_is_not_a_number(home, capsys):
    drive(home, "new trans-amerika --players Ann,Bob --entropy x\nround start\n"
                "round end --winner Ann\nlots\n\x03status --json\nexit\n")
    out, err = capsys.readouterr()
    assert "'lots' is not Bob's missing rails: a whole number from 1 to 49" in out  # the board's largest count
    assert "Stopped; nothing was recorded." in err
    assert status_json(out)["round_open"] is True


def test_the_shell_shows_a_hand(home, capsys):
    drive(home, "new trans-amerika --players Ann,Bob --entropy x\nround start\nhand Ann\nexit\n")
    out, _ = capsys.readouterr()
    assert "Ann's cities (round 1):" in out
