"""The board commands have help text, and the docs explain each command and option."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from companion.terminal.cli import find_command

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def text() -> str:
    if not DOCS.exists():
        pytest.skip("needs the source tree")
    return (DOCS / "trans.md").read_text(encoding="utf-8") + (DOCS / "rails.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["start", "build", "rails"])
def test_every_board_command_has_help_and_docs(name):
    cmd = find_command(name)
    assert cmd.help and cmd.help.strip()
    docs = text()
    assert f"`{name} " in docs
    for param in cmd.params:
        if isinstance(param, click.Option) and param.name not in ("as_json", "session"):  # shared options
            assert any(opt in docs for opt in param.opts), f"{name} {param.opts}"


def test_the_new_options_are_in_the_docs():
    docs = text()
    for words in ("round end --auto", "--deal balanced=", "round start --unbalanced", "rails NAME",
                  "single_lines", "--winner"):
        assert words in docs, words
