"""Driving the interactive shell in tests: prompt_toolkit's pipe input, a dummy screen."""

from __future__ import annotations

import io
import json

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from companion.core.app import App
from companion.terminal.cli import run_shell


def drive(home, text: str, app: App | None = None, output=None, private: bool | None = None) -> App:
    """Type ``text`` into a shell on ``home``; the end of the text is Ctrl-D (so a question
    left waiting ends the shell instead of hanging the test)."""
    app = app or App(home)
    output = output or DummyOutput()
    with create_pipe_input() as pipe:
        pipe.send_text(text)
        pipe.close()
        with create_app_session(input=pipe, output=output):
            run_shell(app, input=pipe, output=output, private=private)
    return app


ENTER_ALT, LEAVE_ALT = "\x1b[?1049h", "\x1b[?1049l"


class Screen(io.StringIO):
    """A terminal's output captured as text, escape codes and all (prompt_toolkit's VT100)."""

    def output(self, columns: int = 80, rows: int = 24):
        from prompt_toolkit.data_structures import Size
        from prompt_toolkit.output.vt100 import Vt100_Output

        return Vt100_Output(self, lambda: Size(rows=rows, columns=columns), term="xterm")

    def split(self) -> tuple[str, str]:
        """(what the shared screen got, what the private screen got)."""
        shared, private, text = [], [], self.getvalue()
        while ENTER_ALT in text:
            before, _, rest = text.partition(ENTER_ALT)
            inside, _, text = rest.partition(LEAVE_ALT)
            shared.append(before)
            private.append(inside)
        shared.append(text)
        return "".join(shared), "".join(private)


def asked(home, text: str, columns: int = 140) -> str:
    """Drive the shell with ``text`` and return what its screen showed (the questions it asked),
    without escape codes and with the wrapping undone."""
    try:
        from pty_support import ESCAPES
    except ImportError:  # run from the repository root
        from tests.pty_support import ESCAPES

    screen = Screen()
    drive(home, text, output=screen.output(columns=columns))
    return " ".join(ESCAPES.sub("", screen.getvalue()).split())


def last_json(out: str) -> dict:
    """The last JSON object printed (e.g. by `status --json`)."""
    start = out.rindex('{\n  "session"')
    return json.loads(out[start:out.index("\n}", start) + 2])
