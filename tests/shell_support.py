"""Driving the interactive shell in tests: prompt_toolkit's pipe input, a dummy screen."""

from __future__ import annotations

import json

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from companion.core.app import App
from companion.terminal.cli import run_shell


def drive(home, text: str, app: App | None = None) -> App:
    """Type ``text`` into a shell on ``home``; the end of the text is Ctrl-D (so a question
    left waiting ends the shell instead of hanging the test)."""
    app = app or App(home)
    with create_pipe_input() as pipe:
        pipe.send_text(text)
        pipe.close()
        with create_app_session(input=pipe, output=DummyOutput()):
            run_shell(app, input=pipe, output=DummyOutput())
    return app


def last_json(out: str) -> dict:
    """The last JSON object printed (e.g. by `status --json`)."""
    start = out.rindex('{\n  "session"')
    return json.loads(out[start:out.index("\n}", start) + 2])
