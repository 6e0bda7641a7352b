"""A game written outside this repository, installed as a real distribution, plays end to end.

The example of docs/writing-a-game.md (docs/examples/companion-yacht) is copied to a temporary
folder and installed with pip into a folder of its own (``--target``), which the companion
then finds on its path, exactly as it finds any installed plugin: through the entry point
group ``companion.games``. A broken plugin is installed the same way to show it is reported
in one line and stops nothing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "companion-yacht"

BROKEN = {
    "pyproject.toml": """[build-system]
requires = ["setuptools>=77"]
build-backend = "setuptools.build_meta"

[project]
name = "companion-broken"
version = "0.0.1"

[project.entry-points."companion.games"]
broken = "broken_game:Broken"
nocontract = "odd_game:NotAGame"
twin = "twin_game:Twin"

[tool.setuptools]
py-modules = ["broken_game", "odd_game", "twin_game"]
""",
    # a game whose `finish` has the same name as the score sheet's
    "twin_game.py": """import click

from companion.games.api import Game
from companion.games.kit import new_command, pass_app


class Twin(Game):
    id = "twin"
    title = "Twin"
    description = "A game with a command named like the score sheet's."
    ui = "twin_game"

    def initial(self, setup, data):
        return {"players_order": list(setup.players), "finished": False, "winners": []}

    def on_finish(self, s, event, data):
        s["finished"], s["winners"] = True, list(s["players_order"][:1])

    def summary(self, s):
        return {"players": [{"name": p, "score": 0} for p in s["players_order"]], "round": 0,
                "finished": s["finished"], "winners": s["winners"]}


@new_command("twin")
def new():
    \"\"\"Nothing but a finish.\"\"\"
    return {}


@click.command()
@pass_app
def finish(app):
    \"\"\"The twin's own finish.\"\"\"
    app.record({"type": "finish"}, ("twin",), "finish")
    click.echo("twin finished")


COMMANDS = {"finish": finish}
NEW = {"twin": new}
""",
    "broken_game.py": "raise_here = 1 / 0\n",
    "odd_game.py": """class NotAGame:
    id = "nocontract"
""",
}


def pip_install(source: Path, target: Path) -> None:
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--no-index", "--target", str(target), str(source)], check=True, capture_output=True, text=True)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """A folder holding the installed example and a broken plugin."""
    work = tmp_path_factory.mktemp("plugins")
    source = work / "companion-yacht"
    shutil.copytree(EXAMPLE, source)  # built from a copy: nothing is written into the repository
    target = work / "site"
    pip_install(source, target)
    broken = work / "companion-broken"
    broken.mkdir()
    for name, text in BROKEN.items():
        (broken / name).write_text(text)
    pip_install(broken, target)
    assert any(p.name.startswith("companion_yacht") and p.suffix == ".dist-info" for p in target.iterdir())
    return target


@pytest.fixture
def companion(site, home):
    env = dict(os.environ, COMPANION_HOME=str(home), PYTHONPATH=str(site), COLUMNS="80")

    def _run(*args: str, stdin: str | None = None, expect: int = 0) -> subprocess.CompletedProcess:
        result = subprocess.run([sys.executable, "-m", "companion", *args], input=stdin, capture_output=True,
                                text=True, env=env)
        assert "Traceback" not in result.stdout + result.stderr
        assert result.returncode == expect, (result.stdout, result.stderr)
        return result

    return _run


GAME = """\
new yacht --players Ann,Bob
score Ann full-house 3,3,3,5,5
score Bob yacht 6,6,6,6,6
score Ann yacht 1,2,3,4,5
score Bob chance 6,5,4,3,2
score Ann chance 6,6,6,5,5
score Bob full-house 2,2,3,3,3
score Ann sixes 6,6,6,1,2
score Bob sixes 6,1,1,1,1
score Ann fives 5,5,5,5,1
score Bob fives 5,1,1,1,1
score Ann fours 4,4,1,1,1
score Bob fours 4,4,4,1,1
score Ann threes 3,3,3,3,1
score Bob threes 3,1,1,1,1
score Ann twos 2,2,2,1,1
score Bob twos 2,2,1,1,1
score Ann ones 1,1,1,1,1
score Bob ones 1,2,2,2,2
"""


def test_the_plugin_shows_up_like_a_built_in_game(companion):
    games = companion("games").stdout
    assert "yacht" in games and "Five dice, nine boxes each" in games
    assert "trans-europa" in games and "scoresheet" in games  # the others still load
    assert companion("new", "--help").stdout.count("yacht") >= 1
    assert "score" in companion("help").stdout


def test_a_broken_plugin_is_one_line_and_stops_nothing(companion):
    out = companion("games").stdout
    lines = [line for line in out.splitlines() if line.startswith("Not loaded:")]
    assert len(lines) == 2, out
    assert "twin" in out
    assert any("broken" in line and "ZeroDivisionError" in line or "division by zero" in line for line in lines)
    assert any("nocontract" in line and "it has no" in line for line in lines)
    assert companion("--version").stdout.startswith("companion ")


def test_a_whole_game_through_the_command_line(companion, tmp_path):
    out = companion(stdin=GAME).stdout
    assert "Ann: 25 in full-house, 25 in all." in out
    status = json.loads(companion("status", "--json").stdout)
    assert status["game"] == "yacht" and status["finished"] is True
    totals = {p["name"]: p["score"] for p in status["players"]}
    # by hand: Ann 25 full house + 0 (no yacht) + 28 chance + 18 + 20 + 8 + 12 + 6 + 5 = 122;
    #          Bob 50 yacht + 20 chance + 25 full house + 6 + 5 + 12 + 3 + 4 + 1 = 126
    assert totals == {"Ann": 122, "Bob": 126}
    assert status["winners"] == ["Bob"]
    text = companion("status").stdout
    assert "full-house" in text and "Bob wins" in text
    log = companion("log").stdout
    assert "Ann filled full-house with 3,3,3,5,5" in log
    # refusals are one line and change nothing; undo walks the log back
    companion("undo")
    refused = companion("score", "Ann", "ones", "1,1,1,1,1", expect=1)
    assert refused.stderr.strip() == "Error: It is Bob's turn, not Ann's."
    companion("score", "Bob", "ones", "1,2,2,2,2")
    assert json.loads(companion("status", "--json").stdout)["winners"] == ["Bob"]
    # printed values come from the plugin's own pack, with their sources
    shown = companion("data", "show", "yacht").stdout
    assert "full_house" in shown and "example game's own rule" in shown
    # history and export know it like any other game
    assert "yacht" in companion("sessions").stdout
    exported = tmp_path / "out.json"
    companion("export", "-o", str(exported))
    assert json.loads(exported.read_text())["sessions"][0]["meta"]["game"] == "yacht"


def test_a_refusal_before_the_game_is_one_line(companion):
    companion("new", "yacht", "--players", "Ann,Bob")
    bad = companion("score", "Ann", "sevens", "1,1,1,1,1", expect=1)
    assert "There is no box 'sevens'" in bad.stderr and bad.stderr.count("\n") == 1
    dice = companion("score", "Ann", "ones", "1,1,x", expect=2)
    assert "is not five dice" in dice.stderr


def test_two_games_may_share_a_command_name(companion):
    companion("new", "scoresheet", "--players", "Ann,Bob")
    companion("add", "Ann=3", "Bob=1")
    sheet = json.loads(companion("sessions", "--json").stdout)[-1]["id"]
    companion("new", "twin", "--players", "Cy,Dee")
    assert companion("help").stdout.index("Twin") < companion("help").stdout.index("Sessions")
    assert companion("finish").stdout.strip() == "twin finished"
    assert "Game over" in companion("--session", sheet, "finish").stdout  # the score sheet's own
    companion("use", sheet)
    assert companion("help").stdout.index("Score sheet") < companion("help").stdout.index("Sessions")


def test_import_stats_and_completion_know_the_plugin(companion, site, home, tmp_path):
    companion(stdin=GAME)
    exported = tmp_path / "yacht.json"
    companion("export", "-o", str(exported))
    other = tmp_path / "other-laptop"
    env = dict(os.environ, COMPANION_HOME=str(other), PYTHONPATH=str(site))
    imported = subprocess.run([sys.executable, "-m", "companion", "import", str(exported)], capture_output=True,
                              text=True, env=env)
    assert imported.returncode == 0, imported.stderr
    stats = subprocess.run([sys.executable, "-m", "companion", "stats"], capture_output=True, text=True, env=env)
    assert "126 by Bob" in stats.stdout and "yacht" in stats.stdout
    # the shell offers the plugin's command and its words, through the same completer
    code = ("from prompt_toolkit.document import Document\n"
            "from companion.core.app import App\n"
            "from companion.terminal.cli import cli\n"
            "from companion.terminal.shell import CommandCompleter, SessionView\n"
            "app = App(__import__('pathlib').Path(%r))\n"
            "c = CommandCompleter(app, SessionView(app), cli)\n"
            "print(sorted(x.text for x in c.get_completions(Document('sc'), None)))\n"
            "print(sorted(x.text for x in c.get_completions(Document('score Ann full'), None)))\n") % str(home)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=str(site)), check=True).stdout
    assert "'score'" in out.splitlines()[0] and "'full-house'" in out.splitlines()[1]
