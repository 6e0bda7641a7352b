"""Every screen of every game on a real terminal, at 80 and 60 columns, in colour and not.

Each game's declared playthrough sets a session up; then each of its screens (`status`, its
board, `log`, every `Screen` it declares) and the shared ones run in a pseudo-terminal read by
a terminal emulator: no escape code may show as text, no line may be wider than the terminal
(the terminal would cut it anywhere, mid-word), and no name with a space may be broken across
two lines. The list of screens comes from the declarations, never a hand-kept list.
"""

from __future__ import annotations

import pytest

from companion.core import registry
from pty_support import SGR, run_command

# the built-in games that load (one that does not fails tests/test_game_contract.py)
GAMES = [g for g in registry.available() if registry.parts(g).target.startswith("companion.")]
SHARED = [["games"], ["sessions"], ["help"], ["stats"], ["players"]]


def screens_of(game_id: str) -> list[list[str]]:
    from companion.core import registry

    found = registry.parts(game_id)
    out = [["status"], ["log"]]
    if found.get("board_view"):
        out.append(["board"])
    for screen in found.get("SCREENS") or []:
        if not screen.params or all(not p.required for p in screen.params):
            out.append(screen.name.split(" "))
    return out


def play_every_game(folder) -> None:
    """A data folder per game in ``folder``, its playthrough played."""
    from click.testing import CliRunner

    from companion.core import registry
    from companion.terminal.cli import cli

    for game_id in GAMES:
        home = folder / game_id
        lines = registry.parts(game_id).get("PLAYTHROUGH", {}).get(game_id) or []
        result = CliRunner().invoke(cli, ["--data-dir", str(home)], input="\n".join(lines) + "\n")
        assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A data folder per game, its playthrough played: played once per run and copied for each
    module that reads them (this one and tests/test_german_terminal.py; tests/shared_install.py)."""
    from shared_install import prepared

    folder = prepared("played-every-game", play_every_game, tmp_path_factory.mktemp("played"))
    return {game_id: folder / game_id for game_id in GAMES}


def long_names(home) -> tuple[str, ...]:
    from companion.core.app import App
    from companion.contract.text import strings_in

    app = App(home)
    s, replay = app.loaded(app.store.current())
    found: set = set(s.players)
    strings_in(s.game.view(replay.state, None), found)
    return tuple(sorted(w for w in found if " " in w and len(w) <= 30))


CASES = [(g, tuple(args)) for g in GAMES for args in screens_of(g)] + [(GAMES[0], tuple(a)) for a in SHARED]


@pytest.mark.parametrize("columns", [80, 60])
@pytest.mark.parametrize("colour", [True, False], ids=["colour", "NO_COLOR"])
@pytest.mark.parametrize("game_id, args", CASES, ids=[f"{g}:{' '.join(a)}" for g, a in CASES])
def test_every_screen_fits_the_terminal_and_shows_no_code_as_text(played, game_id, args, columns, colour):
    home = played[game_id]
    shown = run_command(list(args), home, columns=columns, colour=colour)
    assert shown.problems(long_names(home)) == [], "\n" + shown.text()
    if not colour:
        assert not SGR.search(shown.raw), shown.raw[:300]
