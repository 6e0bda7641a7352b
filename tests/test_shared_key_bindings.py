"""One set of prompt_toolkit's default key bindings per process (issue 29): every prompt the
shell, its questions and the private screen make uses it, and its keys work in each of them,
one after another and side by side."""

from __future__ import annotations

from prompt_toolkit import PromptSession
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from companion.terminal import keys, shell  # noqa: F401 - importing the shell shares them


def typed(session: PromptSession, inp, keys_typed: str) -> str:
    inp.send_text(keys_typed)
    return session.prompt("> ")


def test_every_prompt_shares_the_defaults_and_their_keys_work_in_each():
    with create_pipe_input() as first_in, create_pipe_input() as second_in:
        first = PromptSession(input=first_in, output=DummyOutput())
        second = PromptSession(input=second_in, output=DummyOutput())
        assert first.app._default_bindings is second.app._default_bindings is keys.default_bindings()
        # Emacs keys: Ctrl-A to the start of the line, Ctrl-E to its end, Ctrl-W a word back
        assert typed(first, first_in, "tus\x01sta\x05 --json\r") == "status --json"
        assert typed(second, second_in, "undo undo\x17\r") == "undo "
        assert typed(first, first_in, "log\x7f\x7fs\x01\x0bsessions\r") == "sessions"
        # a session's own bindings stay its own
        assert first.app.key_bindings is not second.app.key_bindings


def test_sharing_twice_changes_nothing():
    keys.share_default_bindings()
    keys.share_default_bindings()
    from prompt_toolkit.application import application

    assert application.load_key_bindings is keys.default_bindings
