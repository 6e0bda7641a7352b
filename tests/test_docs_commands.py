"""Every command of every built-in game is explained in that game's walkthrough, with its
options: the list comes from the game's declarations (its moves, screens and hand-written
commands), never from a hand-kept list, so a command added and left out of the docs fails here.
A game's walkthrough is the pages of docs/ whose heading names the game (or, for the score
sheet, the README, which shows its `new` command)."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from companion.core import registry

ROOT = Path(__file__).resolve().parent.parent
GAMES = [g for g in registry.available() if registry.parts(g).target.startswith("companion.")]
PAGES = {p: p.read_text(encoding="utf-8") for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
         if p.exists()}


def walkthrough(game_id: str) -> str:
    """The pages whose heading names the game (docs/trans.md, docs/rails.md for Trans Europa),
    else that show its `new` command (the README for the score sheet)."""
    title = registry.get(game_id).title
    found = [text for text in PAGES.values() if title in text.split("\n", 1)[0]]
    found = found or [text for text in PAGES.values()
                      if f"new {game_id}" in text and "writing a game" not in text.lower()[:80]]
    if not found:
        pytest.skip("needs the source tree's docs")
    return "\n".join(found)


def cases():
    from companion.terminal.declared import commands_of

    out = []
    for game_id in GAMES:
        for name, cmd in sorted(commands_of(game_id).items()):
            out.append((game_id, name))
    return out


@pytest.mark.parametrize("game_id, name", cases(), ids=[f"{g}:{n}" for g, n in cases()])
def test_every_command_of_a_game_is_in_its_walkthrough_with_its_options(game_id, name):
    from companion.terminal.declared import commands_of

    cmd = commands_of(game_id)[name]
    text = walkthrough(game_id)
    assert cmd.help and cmd.help.strip()
    assert f"`{name}" in text, f"the walkthrough of {game_id} does not mention `{name}`"
    for sub in (cmd.commands.values() if isinstance(cmd, click.Group) else [cmd]):
        assert sub.help and sub.help.strip()
        if sub is not cmd:
            assert f"{name} {sub.name}" in text, f"`{name} {sub.name}` is not in the walkthrough of {game_id}"
        for param in sub.params:
            if isinstance(param, click.Option) and param.name not in ("session", "as_json", "plain") \
                    and not param.hidden:
                assert any(opt in text for opt in param.opts), f"{name} {sub.name}: {param.opts}"


@pytest.mark.parametrize("game_id", GAMES)
def test_new_and_its_options_are_in_the_walkthrough(game_id):
    new = registry.parts(game_id).get("NEW")[game_id]
    text = walkthrough(game_id)
    for param in new.params:
        if isinstance(param, click.Option) and param.name not in ("played_on", "location"):
            assert any(opt in text for opt in param.opts), f"new {game_id}: {param.opts}"
