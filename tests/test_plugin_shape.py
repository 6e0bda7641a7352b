"""A plugin whose parts have the wrong shape is named at load, in one line, and breaks nothing.

Issue 27: a game with `initial(self, setup)`, `MOVES = ["not a move", 3]`, `PLAYTHROUGH =
"not a dict"` and `status_view = 42` passed the check by name; installed, it made `games
--verbose` fail for every game and `new` on it say "Something went wrong inside companion
(TypeError)". Each wrong shape is installed here as a real distribution (as pip installs it,
into a folder of its own, found through the entry point group as any plugin is), and so is a plugin claiming
the built-in id `scoresheet` and two plugins claiming one id, each tried with the plugins
first and last on the path.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from plugin_support import SIMPLEST_RULES, install, not_loaded, on_path, run_here, write_distribution

RULES = '''from companion.contract.api import Game


class Base(Game):
    title = "Shapes"
    description = "A game of the wrong shape."
''' + SIMPLEST_RULES + '''

def _game(gid, moves="shapes_moves", views="shapes_views", **more):
    return type(gid.title(), (Base,), {"id": gid, "moves": moves, "views": views, **more})


def _initial(self, setup):
    return {}


def _on_go(self, s):
    pass


BadArity = _game("badarity", initial=_initial)
BadHandler = _game("badhandler", on_go=_on_go)
BadView = _game("badview", view=42)
BadFacts = _game("badfacts", player_fields=("player", 3))
BadMoves = _game("badmoves", moves="shapes_badmoves")
BadAllowed = _game("badallowed", moves="shapes_badallowed")
BadKind = _game("badkind", moves="shapes_badkind")
BadPlaythrough = _game("badplaythrough", moves="shapes_badplaythrough")
BadStatus = _game("badstatus", views="shapes_badstatus")
AllBad = _game("allbad", moves="shapes_allbad", views="shapes_badstatus", initial=_initial)
Impostor = _game("scoresheet", title="Not the score sheet")
Twin = _game("twin", title="Twin of the shapes")
'''

NEW = '''from companion.games.kit import new_command
import shapes_game


def _new(cls):
    @new_command(cls)
    def new():
        """A game for the tests."""
        return {}
    return new


NEW = {gid: _new(getattr(shapes_game, name)) for gid, name in %s}
'''


def moves_module(gid: str, name: str, extra: str) -> str:
    return NEW % repr([(gid, name)]) + extra


SHAPES = {
    "shapes_game.py": RULES,
    "shapes_moves.py": NEW % repr([(g, n) for g, n in [
        ("badarity", "BadArity"), ("badhandler", "BadHandler"), ("badview", "BadView"), ("badfacts", "BadFacts"),
        ("badstatus", "BadStatus"), ("scoresheet", "Impostor"), ("twin", "Twin")]]),
    "shapes_views.py": "from companion.contract.view import Line\n\n\ndef status_view(at):\n"
                       "    return [Line('Shapes')]\n",
    "shapes_badmoves.py": moves_module("badmoves", "BadMoves", 'MOVES = ["not a move", 3]\n'),
    "shapes_badallowed.py": moves_module("badallowed", "BadAllowed", """from companion.contract.declare import Move

MOVES = [Move("go", [], lambda at: {"type": "go"}, help="Go.", allowed=lambda at: True)]
"""),
    "shapes_badkind.py": moves_module("badkind", "BadKind", """from companion.contract.declare import Kind, Move, Param


class Colour(Kind):
    def options(self, at):
        return [("red", "")]


MOVES = [Move("paint", [Param("colour", Colour())], lambda at: {"type": "paint"}, help="Paint.", actor=None)]
"""),
    "shapes_badplaythrough.py": moves_module("badplaythrough", "BadPlaythrough", 'PLAYTHROUGH = "not a dict"\n'),
    "shapes_allbad.py": moves_module("allbad", "AllBad", 'MOVES = ["not a move", 3]\nPLAYTHROUGH = "not a dict"\n'),
    "shapes_badstatus.py": "status_view = 42\n",
}
# a plugin written before the contract moved to companion.contract: it still loads and plays
SHAPES["oldnames_game.py"] = '''from companion.games.api import Game
from companion.games import view
from companion.games.declare import Move
from companion.games.kit import new_command
from companion.core.errors import RuleError


class OldNames(Game):
    id = "oldnames"
    title = "Old names"
    description = "A plugin importing the contract by its old names."
    moves = views = "oldnames_game"

    def initial(self, setup, data):
        return {"players": list(setup.players), "done": 0}

    def on_go(self, s, event, data):
        if s["done"] > 1:
            raise RuleError("Twice is enough.")
        s["done"] += 1

    def result(self, s):
        return None

    def summary(self, s):
        return {"players": [{"name": p, "score": s["done"]} for p in s["players"]], "round": 0}


def status_view(at):
    return [view.Line(f"Done {at.state['done']} times.")]


@new_command(OldNames)
def new():
    """A game of the old names."""
    return {}


MOVES = [Move("go", [], lambda at: {"type": "go"}, help="Go.", actor=None)]
NEW = {"oldnames": new}
'''
SHAPE_GAMES = ["badarity", "badhandler", "badview", "badfacts", "badmoves", "badallowed", "badkind",
               "badplaythrough", "badstatus", "allbad"]
TWINS = {
    "twins_game.py": "import shapes_game\n\nTwin = shapes_game._game('twin', moves='twins_moves', "
                     "title='The other twin')\n",
    "twins_moves.py": NEW.replace("import shapes_game", "import twins_game as shapes_game") % "[('twin', 'Twin')]",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """A folder holding the two distributions of the wrong shapes."""
    work = tmp_path_factory.mktemp("shapes")
    names = dict(badarity="BadArity", badhandler="BadHandler", badview="BadView", badfacts="BadFacts",
                 badmoves="BadMoves", badallowed="BadAllowed", badkind="BadKind", badplaythrough="BadPlaythrough",
                 badstatus="BadStatus", allbad="AllBad")
    points = {g: f"shapes_game:{names[g]}" for g in SHAPE_GAMES}
    points.update(scoresheet="shapes_game:Impostor", twin="shapes_game:Twin", oldnames="oldnames_game:OldNames")
    target = work / "site"
    install(write_distribution(work / "shapes", "companion-shapes", SHAPES, points),
                write_distribution(work / "twins", "companion-twins", TWINS, {"twin": "twins_game:Twin"}), target=target)
    return target


@pytest.fixture(params=["plugins first", "plugins last"])
def companion(request, site, home):
    """The companion's command line in this process, the plugins' folder first on its path or
    last (after the companion's own distribution): nothing may depend on the order. (A process
    of its own for each command cost two thirds of the file; `own_process` below is one.)"""
    def _run(*args: str, expect: int | None = 0) -> subprocess.CompletedProcess:
        result = run_here(list(args), {"COMPANION_HOME": str(home), "COLUMNS": "200"})
        assert "Traceback" not in result.stdout + result.stderr
        assert "inside companion" not in result.stdout + result.stderr
        if expect is not None:
            assert result.returncode == expect, (result.stdout, result.stderr)
        return result

    with on_path(site, ("shapes_game", "shapes_moves", "shapes_views", "shapes_badmoves", "shapes_badallowed",
                        "shapes_badkind", "shapes_badplaythrough", "shapes_allbad", "shapes_badstatus",
                        "oldnames_game", "twins_game", "twins_moves"), last=request.param == "plugins last"):
        yield _run


@pytest.fixture(params=["plugins first", "plugins last"])
def own_process(request, site, home):
    """The companion in a process of its own, started as a user starts it, with the plugins'
    folder first on the path (PYTHONPATH) or last (after the companion's own distribution)."""
    env = dict(os.environ, COMPANION_HOME=str(home), COLUMNS="200")
    if request.param == "plugins first":
        env["PYTHONPATH"] = str(site)
        start = [sys.executable, "-m", "companion"]
    else:
        env.pop("PYTHONPATH", None)
        start = [sys.executable, "-c", f"import runpy, sys; sys.path.append({str(site)!r}); "
                                       "sys.argv[0] = 'companion'; runpy.run_module('companion', run_name='__main__')"]

    def _run(*args: str, expect: int | None = 0) -> subprocess.CompletedProcess:
        result = subprocess.run([*start, *args], capture_output=True, text=True, env=env, timeout=120)
        assert "Traceback" not in result.stdout + result.stderr
        assert "inside companion" not in result.stdout + result.stderr
        if expect is not None:
            assert result.returncode == expect, (result.stdout, result.stderr)
        return result

    return _run


WRONG = {
    "badarity": "its rules' initial(self, setup) cannot be called as the contract says: "
                "initial(setup, data) -> state",
    "badhandler": "its rules' on_go(self, s) cannot be called as the contract says: on_go(state, event, data)",
    "badview": "its rules' view should be a method view(state, player) -> state, not 42",
    "badfacts": "its player_fields should be a tuple of event keys (text), not ('player', 3)",
    "badmoves": "its moves module shapes_badmoves: MOVES[0] is 'not a move', not a companion.contract.declare.Move",
    "badallowed": "its moves module shapes_badallowed: move 'go': its allowed(at) cannot be called as the contract "
                  "says: allowed(at, player) -> bool",
    "badkind": "its moves module shapes_badkind: move 'paint': the kind of its parameter 'colour' (Colour): "
               "options(self, at) cannot be called as the contract says: options(at, param)",
    "badplaythrough": "its moves module shapes_badplaythrough: PLAYTHROUGH should be {game id: [command line, ...]}, "
                      "not 'not a dict'",
    "badstatus": "its views module shapes_badstatus: status_view should be a function status_view(at) -> View, not 42",
    "allbad": "its rules' initial(self, setup) cannot be called as the contract says: initial(setup, data) -> state",
}


def test_each_wrong_shape_is_named_at_load_in_one_line(own_process):
    companion = own_process
    out = companion("games").stdout
    lines = not_loaded(out)
    for gid, wrong in WRONG.items():
        mine = [line for line in lines if line.startswith(f"Not loaded: {gid} ")]
        assert mine == [f"Not loaded: {gid} (companion-shapes 0.0.1): {wrong}"], out
    assert {line.split()[0] for line in out.splitlines() if line and not line.startswith((" ", "Not loaded"))} >= {
        "scoresheet", "trans-europa", "trans-amerika", "transatlantic", "atlantic-star"}
    listed = json.loads(companion("games", "--json").stdout)
    assert {g["id"] for g in listed["games"]} == {"atlantic-star", "oldnames", "scoresheet", "trans-amerika",
                                                  "trans-europa", "transatlantic"}
    assert all(any(line.startswith(f"{gid} (companion-shapes 0.0.1): ") for line in listed["not_loaded"])
               for gid in WRONG)


def test_games_verbose_and_the_other_games_still_work(companion):
    out = companion("games", "--verbose").stdout
    assert "from tabletop-companion" in out and "moves: add" in out
    companion("new", "scoresheet", "--players", "Ann,Bob")
    companion("add", "Ann=3", "Bob=4")
    assert json.loads(companion("status", "--json").stdout)["game"] == "scoresheet"


@pytest.mark.parametrize("gid", ["badarity", "allbad", "badstatus"])
def test_new_on_a_game_of_the_wrong_shape_is_refused_by_name(companion, gid):
    refused = companion("new", gid, "--players", "Ann,Bob", expect=None)
    assert refused.returncode != 0
    said = " ".join(refused.stderr.split())
    assert f"The game {gid!r} is installed but could not be loaded: {gid} (companion-shapes 0.0.1): {WRONG[gid]}" \
        in said, said
    assert companion("sessions").stdout.count("\n") <= 1  # nothing was started


def test_a_plugin_claiming_a_built_in_id_is_refused_by_name(companion):
    out = companion("games").stdout
    assert ("Not loaded: scoresheet (companion-shapes 0.0.1): the id 'scoresheet' is taken by the built-in game "
            "(tabletop-companion ") in " ".join(out.split())
    assert "Not the score sheet" not in out
    said = companion("new", "scoresheet", "--players", "Ann,Bob").stdout
    assert "Not the score sheet" not in said
    assert json.loads(companion("status", "--json").stdout)["title"] != "Not the score sheet"
    companion("add", "Ann=3", "Bob=4")  # the built-in's own move


def test_two_plugins_claiming_one_id_are_both_refused_by_name(companion):
    out = " ".join(companion("games").stdout.split())
    assert ("Not loaded: twin (companion-shapes 0.0.1): the id 'twin' is claimed by companion-twins 0.0.1 too, so "
            "neither is loaded") in out
    assert ("Not loaded: twin (companion-twins 0.0.1): the id 'twin' is claimed by companion-shapes 0.0.1 too, so "
            "neither is loaded") in out
    refused = companion("new", "twin", "--players", "Ann,Bob", expect=None)
    assert refused.returncode != 0 and "The game 'twin' is installed but could not be loaded" in refused.stderr


def test_a_plugin_importing_the_old_names_loads_and_is_told_the_new_ones(companion):
    assert "oldnames " in companion("games").stdout
    out = " ".join(companion("games", "--verbose").stdout.split())
    assert ("imports by their old names: companion.games.api (now companion.contract.api), companion.games.view (now "
            "companion.contract.view), companion.games.declare (now companion.contract.declare), "
            "companion.core.errors (now companion.contract.errors)") in out
    assert out.count("imports by their old names") == 1  # the companion's own games use the new ones
    companion("new", "oldnames", "--players", "Ann,Bob")
    companion("go")
    companion("go")
    assert "Twice is enough." in companion("go", expect=1).stderr
    assert "Done 2 times." in companion("status").stdout
