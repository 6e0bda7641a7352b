"""The interactive shell, driven through prompt_toolkit's pipe input and dummy output."""

from __future__ import annotations

import json

from prompt_toolkit.application import create_app_session
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from companion.core.app import App
from companion.terminal.cli import cli, run_shell
from companion.terminal.shell import CommandCompleter, SessionView, toolbar_text


def drive(home, text: str, app: App | None = None) -> App:
    """Type ``text`` into a shell on ``home`` and let it run to the end of the input."""
    app = app or App(home)
    with create_pipe_input() as pipe:
        pipe.send_text(text)
        pipe.close()  # the end of the input is Ctrl-D: a question left waiting cannot hang the test
        with create_app_session(input=pipe, output=DummyOutput()):
            run_shell(app, input=pipe, output=DummyOutput())
    return app


def test_commands_run_and_errors_do_not_stop_the_shell(home, capsys):
    drive(home, "new scoresheet --players Ann,Bob\nadd Zed=1\nadd Ann=4 Bob=2\nstatus --json\nexit\n")
    out, err = capsys.readouterr()
    assert "Error: There is no player called 'Zed'" in err
    assert "Traceback" not in out + err
    status = json.loads(out[out.index("{"):out.rindex("}") + 1])
    assert [p["score"] for p in status["players"]] == [4, 2]


def test_ctrl_d_leaves_and_quit_leaves(home, capsys):
    drive(home, "games\n\x04")
    assert "scoresheet" in capsys.readouterr().out
    drive(home, "quit\nthis line is never read\n")
    assert "never" not in capsys.readouterr().err


def test_ctrl_c_clears_the_line(home, capsys):
    drive(home, "new scoresheet --players Ann,Bob\nadd Ann=99\x03add Ann=1\nexit\n")
    drive(home, "status --json\nexit\n")
    out = capsys.readouterr().out
    status = json.loads(out[out.rindex("{\n  \"session\""):out.rindex("}") + 1])
    assert status["players"][0]["score"] == 1


def test_help_lists_commands_and_explains_one(home, capsys):
    drive(home, "help\nhelp add\nhelp nosuch\nexit\n")
    out, err = capsys.readouterr()
    assert "undo" in out and "Record a round" in out
    assert "No command 'nosuch'" in err


def test_unexpected_errors_are_logged_not_shown(home, capsys, monkeypatch):
    from companion.games.scoresheet import views

    def boom(*a, **k):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(views, "status_view", boom)
    drive(home, "new scoresheet --players Ann,Bob\nstatus\ngames\nexit\n")
    out, err = capsys.readouterr()
    assert "Something went wrong inside companion (ZeroDivisionError)" in err
    assert "Traceback" not in out + err
    assert "scoresheet" in out  # the shell went on
    assert "ZeroDivisionError: boom" in (home / ".local" / "errors.log").read_text()


def test_history_is_kept_in_the_data_folder(home):
    drive(home, "games\nexit\n")
    assert "games" in (home / ".local" / "shell-history").read_text()


def complete(app: App, text: str) -> list[str]:
    completer = CommandCompleter(app, SessionView(app), cli)
    return [c.text for c in completer.get_completions(Document(text), None)]


def test_completion_of_commands_options_and_players(home, run):
    run(["new", "scoresheet", "--players", "Ann,Bob,Mary Jo"], expect=0)
    app = App(home)
    assert "status" in complete(app, "sta")
    assert {"sessions", "status"} <= set(complete(app, "s"))
    assert "--json" in complete(app, "status --j")
    assert complete(app, "add A") == ["Ann="]
    assert "'Mary Jo='" in complete(app, "add M")
    assert "scoresheet" in complete(app, "new sc")
    assert "--lowest-wins" in complete(app, "new scoresheet --lo")


def test_toolbar_names_session_round_and_leader(home, run):
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    run(["add", "Ann=3", "Bob=5"], expect=0)
    text = SessionView(App(home)).toolbar()
    assert "Score sheet" in text and "round 1" in text and "leader Bob (5)" in text
    run(["new", "scoresheet", "--players", "Cy,Dee"], expect=0)
    assert "all level: Cy & Dee (0)" in SessionView(App(home)).toolbar()
    assert "no session" in SessionView(App(home / "empty")).toolbar()


def test_toolbar_text_on_a_finished_game():
    status = {"session": "abc", "game": "g", "title": "G", "round": 2, "finished": True,
              "winners": ["Ann"], "players": [{"name": "Ann", "score": 3}]}
    assert "over: Ann won" in toolbar_text(status)


def test_the_shell_asks_for_the_players_words_at_new(home):
    from companion.core import session as sessions
    from companion.core.store import Store

    drive(home, "new trans-amerika --players Ann,Bob,Cy,Dee\n\nour secret words\nexit\n")  # Enter: the first named is the oldest
    store = Store(home)
    assert sessions.load(store, store.current()).meta["entropy"] == "our secret words"
    # given in full, nothing is asked: the next line is a command again
    drive(home, "new trans-amerika --players Ann,Bob,Cy,Dee --entropy given\ngames\nexit\n")
    assert sessions.load(store, store.current()).meta["entropy"] == "given"
