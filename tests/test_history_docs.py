"""The history commands have help text, and docs/history.md explains each of them."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from companion.terminal.cli import find_command

ROOT = Path(__file__).resolve().parent.parent
NAMES = ["players", "player", "stats", "export", "import", "report", "abandon", "note", "delete", "restore",
         "played", "sessions"]


@pytest.mark.parametrize("name", NAMES)
def test_every_history_command_has_help_and_docs(name):
    cmd = find_command(name)
    assert cmd.help and cmd.help.strip()
    docs = ROOT / "docs" / "history.md"
    if not docs.exists():
        pytest.skip("needs the source tree")
    text = docs.read_text(encoding="utf-8")
    assert f"`{name}" in text, f"docs/history.md does not mention `{name}`"
    if isinstance(cmd, click.Group):
        for sub in cmd.commands:
            assert cmd.commands[sub].help
            assert f"{name} {sub}" in text


def test_every_option_is_in_the_docs():
    text = (ROOT / "docs" / "history.md").read_text(encoding="utf-8") if (ROOT / "docs").exists() else None
    if text is None:
        pytest.skip("needs the source tree")
    for name in NAMES:
        for param in find_command(name).params:
            if isinstance(param, click.Option):
                assert any(opt in text for opt in param.opts), f"{name} {param.opts}"


def test_help_lists_the_history_commands(run):
    out = run(["help"], expect=0).stdout
    for name in NAMES:
        assert name in out
