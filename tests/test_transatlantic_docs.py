"""Every Transatlantic command has help text, and docs/transatlantic.md explains it and its options."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from companion.core import registry
from companion.terminal.cli import find_command
from companion.terminal.declared import commands_of

ROOT = Path(__file__).resolve().parent.parent
NAMES = sorted(commands_of("transatlantic"))  # from the game's declarations, never a hand-kept list (issue 20)


def docs_text() -> str:
    path = ROOT / "docs" / "transatlantic.md"
    if not path.exists():
        pytest.skip("needs the source tree")
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", NAMES)
def test_every_command_has_help_and_docs(name):
    cmd = find_command(name)
    assert cmd.help and cmd.help.strip()
    text = docs_text()
    assert f"`{name}" in text, f"docs/transatlantic.md does not mention `{name}`"
    commands = cmd.commands.values() if isinstance(cmd, click.Group) else [cmd]
    for sub in commands:
        assert sub.help
        if sub is not cmd:
            assert f"{name} {sub.name}" in text
        for param in sub.params:
            if isinstance(param, click.Option) and param.name != "session" and "--json" not in param.opts:
                assert any(opt in text for opt in param.opts), f"{name} {param.opts}"


def test_new_is_documented():
    cmd = registry.parts("transatlantic").moves.NEW["transatlantic"]  # issue 20: `new` is in the moves module
    assert "2 to 4 players" in cmd.help
    assert "new transatlantic --players" in docs_text() and "--start" in docs_text()
