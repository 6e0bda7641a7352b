"""A plugin's failure is its own (issue 22, C1).

One session of a plugin game whose rules raise made `sessions`, `stats`, `players`, `export`
and ratings fail for the whole folder with "Something went wrong inside companion". Now the
history commands skip that session with one line naming the plugin and the session, and show
every other one; the session's own commands name the plugin too.

The plugin is installed as a real distribution (as in tests/test_plugin_game.py): two score
sheets, one whose rules raise at every call once `BOOM=1` is set (so its sessions can be made
while it works, as before a plugin upgrade), one whose `summary` alone raises.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from plugin_support import install, on_path, run_here, write_distribution

PLUGIN = {
    "boomgames/__init__.py": "",
    "boomgames/atcall.py": """import os

from companion.games.scoresheet.rules import ScoreSheet


def _boom():
    if os.environ.get("BOOM") == "1":
        return 1 / 0


class Boom(ScoreSheet):
    id = "boom-call"
    title = "Boom at every call"
    description = "A score sheet whose rules raise once BOOM=1."
    moves = "boomgames.moves"
    views = "boomgames.views"

    def initial(self, setup, data):
        _boom()
        return super().initial(setup, data)

    def on_add(self, s, event, data):
        _boom()
        return super().on_add(s, event, data)

    def summary(self, s):
        _boom()
        return super().summary(s)

    def describe(self, event):
        _boom()
        return super().describe(event)


class BoomSummary(ScoreSheet):
    id = "boom-summary"
    title = "Boom in summary"
    description = "A score sheet whose summary raises once BOOM=1."
    moves = "boomgames.moves"
    views = "boomgames.views"

    def summary(self, s):
        if os.environ.get("BOOM") == "1":
            return {}["players"]
        return super().summary(s)
""",
    "boomgames/moves.py": """import click

from companion.games.kit import new_command
from companion.games.scoresheet.moves import MOVES  # noqa: F401 (the score sheet's add and finish)
from boomgames.atcall import Boom, BoomSummary


def _new(cls):
    @new_command(cls)
    def new():
        \"\"\"A score sheet that breaks.\"\"\"
        return {"lowest_wins": False, "target": None}
    return new


NEW = {cls.id: _new(cls) for cls in (Boom, BoomSummary)}
""",
    "boomgames/views.py": "from companion.games.scoresheet.views import next_action, score_goal, status_view  # noqa: F401\n",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The plugin installed once for the file, on this process's path while its tests run."""
    work = tmp_path_factory.mktemp("boom")
    source = write_distribution(work / "companion-boom", "companion-boom", PLUGIN, {
        "boom-call": "boomgames.atcall:Boom", "boom-summary": "boomgames.atcall:BoomSummary"},
        version="0.0.2", packages=["boomgames"])
    install(source, target=work / "site")
    with on_path(work / "site", ("boomgames",)):
        yield work / "site"


def runner(site: Path, home: Path):
    """`companion ARGS` through the command line in this process (the plugin found on the path
    like any plugin); ``boom`` sets BOOM=1 for the command, which breaks the plugin's rules.
    The shell's test below runs the companion in a process of its own."""
    base = {"COMPANION_HOME": str(home), "COLUMNS": "200", "BOOM": None}

    def _run(*args: str, expect: int | None = 0, boom: bool = False) -> subprocess.CompletedProcess:
        env = {**base, "BOOM": "1"} if boom else base
        result = run_here(list(args), env)
        assert "Traceback" not in result.stdout + result.stderr
        assert "inside companion" not in result.stderr, result.stderr
        if expect is not None:
            assert result.returncode == expect, (args, result.stdout, result.stderr)
        return result

    return _run


@pytest.fixture
def companion(site, home):
    return runner(site, home)


def current(companion) -> str:
    return json.loads(companion("status", "--json").stdout)["session"]


@pytest.fixture
def folder(built, home):
    """A copy of the folder below for each test."""
    source, ids = built
    shutil.copytree(source, home)
    return ids


@pytest.fixture(scope="module")
def built(site, tmp_path_factory):
    """A healthy finished score sheet and one in play, a finished and an unfinished session of
    each plugin game, and a boom-call session the index does not list yet (a copy, as after a
    crash or an index rebuilt after a plugin upgrade). Built once for the module."""
    home = tmp_path_factory.mktemp("boom-folder") / "home"
    companion = runner(site, home)
    ids = {}
    companion("new", "scoresheet", "--players", "Ann,Bob")
    companion("add", "Ann=5", "Bob=3")
    companion("finish")
    ids["sheet"] = current(companion)
    companion("new", "scoresheet", "--players", "Ann,Cy")
    companion("add", "Ann=1", "Cy=2")
    ids["sheet in play"] = current(companion)
    for game in ("boom-call", "boom-summary"):
        companion("new", game, "--players", "Ann,Dee")
        companion("add", "Ann=4", "Dee=1")
        companion("finish")
        ids[f"{game} finished"] = current(companion)
        companion("new", game, "--players", "Ann,Eve")
        companion("add", "Ann=2", "Eve=2")
        ids[f"{game} in play"] = current(companion)
    unlisted = "zz" + ids["boom-call in play"][2:]
    text = (home / "sessions" / f"{ids['boom-call in play']}.json").read_text().replace(ids["boom-call in play"],
                                                                                          unlisted)
    (home / "sessions" / f"{unlisted}.json").write_text(text)
    ids["boom-call unlisted"] = unlisted
    companion("use", ids["sheet"])
    shutil.rmtree(home / ".local" / "cache" / "replay", ignore_errors=True)  # (each test's process makes its own)
    return home, ids


def notes(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("Note:")]


def assert_skips_named(result, ids: dict, which: list[str]) -> None:
    said = notes(result)
    for key in which:
        sid = ids[key]
        mine = [line for line in said if sid in line]
        assert len(mine) == 1, (key, result.stderr)
        game = key.split()[0]  # the game of that session, though both games are one package's
        assert f"the game {game} (companion-boom 0.0.2) failed" in mine[0], mine[0]
        assert "tell the game's author" in mine[0]
    # Each test runs on a copy of the folder: its files are new ones (new inodes and change
    # times), so the index's check reads every session again once (issue 30: an entry is
    # trusted while its files are those it was read from): a plugin's other sessions may be
    # named too, once each, and never a session of another game
    boom = {sid for key, sid in ids.items() if key.startswith("boom")}
    assert all(any(sid in line for sid in boom) for line in said), result.stderr
    assert len(said) == len({line.split()[3] for line in said}), result.stderr  # each session once


BROKEN_IN_PLAY = ["boom-call in play", "boom-summary in play", "boom-call unlisted"]


def test_sessions_skips_a_plugins_broken_session_and_lists_the_others(companion, folder):
    result = companion("sessions", "--json", boom=True)
    listed = {e["id"] for e in json.loads(result.stdout)}
    assert folder["sheet"] in listed and folder["sheet in play"] in listed
    assert folder["boom-call unlisted"] not in listed
    assert_skips_named(result, folder, ["boom-call unlisted"])


@pytest.mark.parametrize("command", [["stats"], ["stats", "--json"], ["stats", "--ratings"], ["players"],
                                     ["players", "--json"]])
def test_the_history_skips_it_with_one_line(companion, folder, command):
    result = companion(*command, boom=True)
    assert "Ann" in result.stdout
    assert_skips_named(result, folder, ["boom-call unlisted"])


@pytest.mark.parametrize("fmt", ["csv", "bgg", "json"])
def test_export_skips_it_and_keeps_the_others(companion, folder, tmp_path, fmt):
    out = tmp_path / f"out.{fmt}"
    result = companion("export", "--format", fmt, "-o", str(out), boom=True)
    text = out.read_text()
    assert folder["sheet"] in text and folder["sheet in play"] in text
    if fmt == "json":  # the json export copies the files as they are: no rules are run
        assert_skips_named(result, folder, ["boom-call unlisted"])
        assert folder["boom-call in play"] in text
    else:  # csv and bgg replay the sessions in play for their scores so far
        assert_skips_named(result, folder, BROKEN_IN_PLAY)
        assert folder["boom-call in play"] not in text


@pytest.mark.parametrize("command", [["status"], ["status", "--json"], ["log"], ["add", "Ann=1"], ["undo"],
                                     ["report"], ["board"]])
@pytest.mark.parametrize("game", ["boom-call", "boom-summary"])
def test_the_sessions_own_commands_name_the_plugin(companion, folder, command, game):
    result = companion("--session", folder[f"{game} in play"], *command, expect=None, boom=True)
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    if game == "boom-summary" and (result.returncode == 0 or "failed" not in errors[0]):
        return  # a command that never asks for the summary works, or refuses for its own reason
    assert result.returncode == 1 and len(errors) == 1, result.stderr
    assert errors[0].startswith(f"Error: The game {game} (companion-boom 0.0.2) failed"), errors
    assert "tell the game's author" in errors[0]
    assert all(line.startswith(("Error:", "Note: Skipped session")) for line in result.stderr.splitlines())


def test_without_the_failure_everything_is_listed(companion, folder):
    """The same folder with the plugin working: nothing is skipped (the test's own control)."""
    result = companion("sessions", "--json")
    assert len(json.loads(result.stdout)) == 7 and not notes(result)


def test_the_shell_skips_it_too(companion, folder, site, home):
    """Script mode (as the shell) gives the same lines and goes on with the next command."""
    env = dict(os.environ, COMPANION_HOME=str(home), PYTHONPATH=str(site), BOOM="1")
    result = subprocess.run([sys.executable, "-m", "companion"], input="sessions\nstats\n", capture_output=True,
                            text=True, env=env, timeout=120)
    assert "Traceback" not in result.stderr and "inside companion" not in result.stderr
    assert result.returncode == 0, result.stderr
    assert folder["sheet"] in result.stdout
    assert folder["boom-call unlisted"] in result.stderr
    shutil.rmtree(home / ".local" / "cache" / "replay", ignore_errors=True)
