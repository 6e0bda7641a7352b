"""A game written outside this repository, installed as a real distribution, plays end to end.

The example of docs/writing-a-game.md (docs/examples/companion-yacht) is copied to a temporary
folder and installed as pip installs it into a folder of its own (plugin_support.install,
checked against pip by tests/test_plugin_install.py), which the companion
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
from plugin_support import SIMPLEST_RULES, install, not_loaded, on_path, run_here, write_distribution

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "companion-yacht"

BROKEN = {
    # a game whose `finish` has the same name as the score sheet's
    "twin_game.py": """from companion.contract.api import Game
from companion.contract.declare import Move
from companion.games.kit import new_command
from companion.contract.view import Line


class Twin(Game):
    id = "twin"
    title = "Twin"
    description = "A game with a command named like the score sheet's."
    moves = views = "twin_game"

    def initial(self, setup, data):
        return {"players": list(setup.players), "done": False}

    def on_finish(self, s, event, data):
        s["done"] = True

    def result(self, s):
        return {"winners": s["players"][:1]} if s["done"] else None

    def summary(self, s):
        return {"players": [{"name": p, "score": 0} for p in s["players"]], "round": 0}


def status_view(at):
    return [Line("Twin")]


@new_command(Twin)
def new():
    \"\"\"Nothing but a finish.\"\"\"
    return {}


MOVES = [Move("finish", [], lambda at: {"type": "finish"}, help="The twin's own finish.", actor=None,
              done=lambda outcome: [Line("twin finished")])]
NEW = {"twin": new}
""",
    "broken_game.py": "raise_here = 1 / 0\n",
    "odd_game.py": """class NotAGame:
    id = "nocontract"
""",
    # three mistakes a plugin author makes, each named at load; and a plugin whose code raises
    "typo_game.py": """from companion.contract.api import Game


class Base(Game):
    title = "Typo"
    description = "A game for the tests of a plugin's mistakes."
    moves = "typo_moves"
    views = "typo_views"
""" + SIMPLEST_RULES + """

class Typo(Base):
    id = "typo"
    moves = "typo_game.comands"


class NoSummary(Game):
    id = "nosummary"
    title = "No summary"
    moves, views = "typo_moves", "typo_views"

    def initial(self, setup, data):
        return {}

    def result(self, s):
        return None


class Stauts(Base):
    id = "stauts"
    views = "typo_game"


def render_stauts(at):
    return []


def status_view(at):
    return []


class Boom(Base):
    id = "boom"

    def on_boom(self, s, event, data):
        return 1 / 0
""",
    "typo_moves.py": """from companion.contract.declare import Move
from companion.games.kit import new_command
from typo_game import Boom, NoSummary, Stauts, Typo


def _new(cls):
    @new_command(cls)
    def new():
        \"\"\"A game for the tests.\"\"\"
        return {}
    return new


MOVES = [Move("boom", [], lambda at: {"type": "boom"}, help="Raise inside the plugin.", actor=None)]
NEW = {cls.id: _new(cls) for cls in (Boom, NoSummary, Stauts, Typo)}
""",
    "typo_views.py": """from companion.contract.view import Line


def status_view(at):
    return [Line("Boom")]
""",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """A folder holding the installed example and a broken plugin."""
    work = tmp_path_factory.mktemp("plugins")
    source = work / "companion-yacht"
    shutil.copytree(EXAMPLE, source)  # built from a copy: nothing is written into the repository
    target = work / "site"
    broken = write_distribution(work / "companion-broken", "companion-broken", BROKEN, {
        "broken": "broken_game:Broken", "nocontract": "odd_game:NotAGame", "twin": "twin_game:Twin",
        "typo": "typo_game:Typo", "nosummary": "typo_game:NoSummary", "stauts": "typo_game:Stauts",
        "boom": "typo_game:Boom"})
    install(source, broken, target=target)
    assert any(p.name.startswith("companion_yacht") and p.suffix == ".dist-info" for p in target.iterdir())
    return target


PACKAGES = ("yacht_companion", "broken_game", "odd_game", "twin_game", "typo_game", "typo_moves", "typo_views")


@pytest.fixture
def own_process(site, home):
    """`companion ARGS` started as a user starts it, the plugins found through PYTHONPATH."""
    base = dict(os.environ, COMPANION_HOME=str(home), PYTHONPATH=str(site), COLUMNS="80")

    def _run(*args: str, stdin: str | None = None, expect: int = 0, env: dict | None = None) -> subprocess.CompletedProcess:
        result = subprocess.run([sys.executable, "-m", "companion", *args], input=stdin, capture_output=True,
                                text=True, env={**base, **(env or {})})
        assert "Traceback" not in result.stdout + result.stderr
        assert result.returncode == expect, (result.stdout, result.stderr)
        return result

    return _run


@pytest.fixture
def companion(site, home):
    """`companion ARGS` (or script mode, given ``stdin``) through the command line in this
    process, the plugins on its path as PYTHONPATH puts them in a process of its own (a process
    for each command cost two thirds of the file; the first test below starts them as a user does)."""
    base = {"COMPANION_HOME": str(home), "COLUMNS": "80"}

    def _run(*args: str, stdin: str | None = None, expect: int = 0, env: dict | None = None) -> subprocess.CompletedProcess:
        result = run_here(list(args), {**base, **(env or {})}, input=stdin)
        assert "Traceback" not in result.stdout + result.stderr
        assert result.returncode == expect, (result.stdout, result.stderr)
        return result

    with on_path(site, PACKAGES):
        yield _run


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


def test_the_plugin_shows_up_like_a_built_in_game(own_process):
    companion = own_process
    games = companion("games").stdout
    assert "yacht" in games and "Five dice, nine boxes each" in games
    assert "trans-europa" in games and "scoresheet" in games  # the others still load
    assert companion("new", "--help").stdout.count("yacht") >= 1
    assert "score" in companion("help").stdout


def test_a_broken_plugin_is_one_line_naming_it_and_stops_nothing(companion):
    out = companion("games").stdout
    lines = not_loaded(out)
    assert len(lines) == 5, out
    assert "twin " in out and "boom " in out  # these load
    said = "\n".join(lines)
    assert "Not loaded: broken (companion-broken 0.0.1): its rules module broken_game does not import " \
           "(ZeroDivisionError: division by zero)" in said
    assert "Not loaded: nocontract (companion-broken 0.0.1): odd_game:NotAGame is not a companion.contract.api.Game" \
        in said
    assert "Not loaded: typo (companion-broken 0.0.1): its moves module typo_game.comands does not exist" in said
    assert "Not loaded: nosummary (companion-broken 0.0.1): its rules lack summary(), which every game needs" in said
    assert ("Not loaded: stauts (companion-broken 0.0.1): its views module typo_game: render_stauts is not part "
            "of the contract (did you mean render_status, from the old contract: now status_view?)") in said
    assert companion("--version").stdout.startswith("companion ")


def test_games_verbose_lists_what_each_game_provides(companion):
    out = companion("games", "--verbose").stdout
    yacht = out[out.index("\nyacht "):]
    assert "from companion-yacht 1.0.0 (yacht_companion.rules:Yacht)" in " ".join(yacht.split())
    assert "moves: score" in yacht and "views: status_view, next_action" in yacht


def test_an_error_in_a_plugins_code_names_the_plugin_not_the_companion(companion):
    companion("new", "boom", "--players", "Ann,Bob")
    failed = companion("boom", expect=1)
    assert "inside companion" not in failed.stderr
    assert "The game boom (companion-broken 0.0.1) failed (ZeroDivisionError in typo_game line" in failed.stderr
    assert "tell the game's author" in " ".join(failed.stderr.split())
    assert json.loads(companion("log", "--json").stdout) == []  # nothing was recorded


def test_companion_games_loads_only_the_games_it_names(own_process):
    """COMPANION_GAMES is read as a process starts (its commands are made from the games it
    names): each command here is a process of its own."""
    companion = own_process
    out = companion("games", env={"COMPANION_GAMES": "yacht,scoresheet"}).stdout
    listed = [line.split()[0] for line in out.splitlines() if line and not line.startswith((" ", "Not loaded"))]
    assert listed == ["scoresheet", "yacht"]
    assert "left out by COMPANION_GAMES" in " ".join(out.split())
    refused = companion("new", "trans-europa", "--players", "Ann,Bob", env={"COMPANION_GAMES": "yacht"}, expect=2)
    assert "trans-europa" in refused.stderr


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
    assert "Yacht (example)" in companion("sessions").stdout  # the game's title (issue 23)
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
    imported = companion("import", str(exported), env={"COMPANION_HOME": str(other)})
    stats = companion("stats", env={"COMPANION_HOME": str(other)})
    assert "126 by Bob" in stats.stdout and "Yacht (example)" in stats.stdout and imported.returncode == 0
    # the shell offers the plugin's command and what may go in its parameters now (the boxes
    # still empty on Ann's sheet), through the same completer
    companion("new", "yacht", "--players", "Ann,Bob")
    companion("score", "Ann", "ones", "1,1,2,3,4")
    from prompt_toolkit.document import Document

    from companion.core.app import App
    from companion.terminal.cli import cli
    from companion.terminal.shell import CommandCompleter, SessionView

    app = App(home)
    c = CommandCompleter(app, SessionView(app), cli)

    def offered(text: str) -> list[str]:
        return sorted(x.text for x in c.get_completions(Document(text), None))

    assert "score" in offered("sc") and "full-house" in offered("score Ann full")
    assert offered("score Ann on") == []  # Ann filled ones already
