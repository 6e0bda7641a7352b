"""Every game keeps the contract: the built-in ones and the three examples of docs/writing-a-game.md.

OpenSpiel simulates every registered game through one small state API; here every game found
through the entry point group ``companion.games`` (the examples are installed as real
distributions into a folder of their own, put on the path) is loaded and checked by the
registry, and its declared playthrough (``PLAYTHROUGH`` in its moves module) is played through
the command line, line by line, as a shell would. After every line:

- the state the recording path kept equals a fresh replay of the file (replay equals record);
- the summary has the keys the contract names;
- nothing only a player may see (``view(state, player)`` minus ``view(state, None)``) is on
  the table's screen or the table's page.

And every declared move and screen is a working command with help, and `companion check`
(shipped with the package: random legal play beside a twin with other secrets, see
companion/check/) passes for every game installed here.
"""

from __future__ import annotations

import json
import re
import shutil
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from long_mode import LONG

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = {"yacht": ROOT / "docs" / "examples" / "companion-yacht",
            "tally": ROOT / "docs" / "examples" / "companion-tally",
            "tricks": ROOT / "docs" / "examples" / "companion-tricks"}
BUILT_IN = sorted(ep.name for ep in entry_points(group="companion.games") if ep.value.startswith("companion."))
GAMES = BUILT_IN + sorted(EXAMPLES)


@pytest.fixture(scope="module")
def plugins(tmp_path_factory):
    """The examples installed as pip installs them (plugin_support.install) into a folder put on
    this process's path (and taken off again), so the registry finds them through their entry
    points like any plugin."""
    from plugin_support import install, on_path

    work = tmp_path_factory.mktemp("contract")
    site = work / "site"
    copies = []
    for name, source in EXAMPLES.items():
        copies.append(work / source.name)
        shutil.copytree(source, copies[-1])  # built from a copy: nothing is written into the repository
    install(*copies, target=site)
    with on_path(site, ("yacht_companion", "tally_companion", "tricks_companion")):
        yield site


def strings(value, found: set) -> set:
    from companion.contract.text import strings_in

    strings_in(value, found)
    return found


@pytest.mark.parametrize("game_id", GAMES)
def test_the_game_loads_and_keeps_the_contract(plugins, game_id):
    from companion.core import registry
    from companion.contract.api import MOVES_PARTS, VIEWS_PARTS

    assert game_id in registry.available(), registry.problems()
    found = registry.parts(game_id)
    for part, (required, _) in {**MOVES_PARTS, **VIEWS_PARTS}.items():
        if required:
            assert found.get(part) is not None, part
    assert found.get("PLAYTHROUGH", {}).get(game_id), f"{game_id} declares no playthrough"


@pytest.mark.parametrize("game_id", GAMES)
def test_every_declared_move_and_screen_is_a_command_with_help(plugins, game_id, run):
    from companion.core import registry
    from companion.terminal.declared import commands_of, declaration

    found = registry.parts(game_id)
    declared = [*(found.get("MOVES") or []), *(found.get("SCREENS") or [])]
    commands = commands_of(game_id)
    for decl in declared:
        words = decl.name.split(" ")
        cmd = commands[words[0]]
        if len(words) > 1 and not hasattr(cmd, "commands"):
            # a move typed through a hand-written command (Trans's `hand NAME --set`): that command
            # is the game's own, registered, with help
            assert words[0] in (found.get("COMMANDS") or {}) and cmd.help, decl.name
            continue
        for w in words[1:]:
            cmd = cmd.commands[w]
        assert declaration(cmd) is decl
        assert decl.help.strip(), f"{decl.name} has no help"
        run(["new", game_id, "--players", ",".join(["Ann", "Bob", "Cy", "Dee"][:max(2, found.game.min_players)])],
            expect=0)
        shown = run(["help", *words], expect=0).stdout
        assert decl.help.strip().split("\n")[0][:30] in " ".join(shown.split())
        for p in decl.params:
            assert (p.metavar in shown) or any(f in shown for f in p.flags), (decl.name, p.name, shown)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_playthrough_replays_as_it_recorded_and_keeps_secrets_off_the_table(plugins, game_id, home):
    from companion.core import registry
    from companion.core import session as sessions
    from companion.core.app import App
    from companion.contract.declare import At
    from companion.terminal.cli import run_line
    from companion.terminal.render import draw
    from companion.web import views as pages

    lines = registry.parts(game_id).get("PLAYTHROUGH")[game_id]
    app = App(home)
    app.pin_session()
    game = registry.get(game_id)
    seen_private = False
    for n, line in enumerate(lines, 1):
        code, message = run_line(app, line)
        assert code == 0, f"line {n} ({line}): {message}"
        s, kept = app.loaded()
        fresh = sessions.load(app.store, s.id).replay()
        assert json.dumps(kept.state, sort_keys=True) == json.dumps(fresh.state, sort_keys=True), f"line {n}"
        assert kept.ctx == fresh.ctx and kept.count == fresh.count, f"line {n}"
        status = s.status(fresh)
        assert isinstance(status["players"], list) and all({"name", "score"} <= set(p) for p in status["players"])
        assert "round" in status and isinstance(status["finished"], bool) and isinstance(status["winners"], list)
        table = strings(game.view(fresh.state, None), set())
        screen = draw(registry.parts(game_id).views.status_view(At(s, fresh, None, host=app)), width=100)
        page = pages.table_page(s, fresh, "v")
        for player in s.players:
            secret = {x for x in strings(game.view(fresh.state, player), set()) - table if len(x) > 2}
            seen_private = seen_private or bool(secret)
            for word in secret:
                assert not re.search(rf"\b{re.escape(word)}\b", screen), (line, player, word)
                assert not re.search(rf"\b{re.escape(word)}\b", page), (line, player, word)
    if game.deals:  # a game with a deal has something to hide at some point
        assert seen_private or type(game).view is not __import__("companion.contract.api", fromlist=["Game"]).Game.view


@pytest.mark.parametrize("game_id", GAMES)
def test_companion_check_passes(plugins, game_id, run):
    """The check an author runs (docs/writing-a-game.md, "Checking your game"), on every game
    this test installs: one line per game, "ok", exit status 0."""
    # the author's default runs (2 seeds of 40 random moves) in the long run; 2 of 5 by default,
    # the same checks on each move (a Trans game's 40 took 10 s a game on a quiet machine; the
    # playthrough, which each check plays first, is half of what 10 cost)
    result = run(["check", game_id, *([] if LONG else ["--moves", "5"])], expect=0)
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{game_id}: ok ("), result.stdout
