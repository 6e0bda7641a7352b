"""prompt_toolkit's default key bindings, built once per process and shared by every prompt.

prompt_toolkit builds its whole set of default bindings (basic, Emacs, Vi, mouse: several
hundred) for every Application, so for the shell's prompt, its first question and each private
screen. They hold no state of their own (each handler works on the event's application, each
filter asks the current one), so one set serves them all: a shell, and each script line that
asks, starts sooner (issue 29). Only the defaults are shared; a session's own bindings (its
completion, history, toolbar) are still its own.
"""

from __future__ import annotations

from functools import lru_cache

from prompt_toolkit.application import application
from prompt_toolkit.key_binding.defaults import load_key_bindings


@lru_cache(maxsize=1)
def default_bindings():
    """The default bindings every Application of this process uses (built at the first)."""
    return load_key_bindings()


def share_default_bindings() -> None:
    """Make every Application made from now on use the one set (idempotent)."""
    # a later prompt_toolkit that builds its defaults elsewhere is left as it is: prompts then
    # build their own, as before (tests/test_shared_key_bindings.py checks that they are shared)
    if getattr(application, "load_key_bindings", None) is load_key_bindings:
        application.load_key_bindings = default_bindings


share_default_bindings()
