"""`companion check` names a plugin that shows a secret, and passes one that keeps it (issue 27, item 4).

Before: the conformance test (tests/test_game_contract.py) was not installed with the package,
looked at the table only, skipped values of two characters or fewer, and a plugin that drew
another player's secret onto a player's page passed it. Now `companion check` ships with the
package and compares every surface of every viewer with a twin run that differs only in its
secrets.

The plugin is installed as a real distribution (as in tests/test_plugin_failures.py): games of
sealed bids (each player bids 0 to 3 in secret; once everyone has bid, the bids are shown and
the highest wins). ``sealed`` keeps the bids to their owners until then; ``leaky`` is the same
game whose status view, drawn for a player, shows every bid made so far (read behind the exit,
through the app: what a view must not do); ``blabber`` says the bids in its summary (`status --json`) and its
log. A fourth entry point, ``broken``, names a module that does not exist.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from long_mode import LONG, scaled
from plugin_support import install, on_path, run_here

PLUGIN = {
    "pyproject.toml": """[build-system]
requires = ["setuptools>=77"]
build-backend = "setuptools.build_meta"

[project]
name = "companion-sealed"
version = "0.0.1"

[project.entry-points."companion.games"]
sealed = "sealedbids.rules:Sealed"
leaky = "sealedbids.rules:Leaky"
blabber = "sealedbids.rules:Blabber"
broken = "sealedbids.nothere:Broken"
leaky-trans = "leakytrans:LeakyTrans"

[tool.setuptools]
packages = ["sealedbids", "leakytrans"]

[tool.setuptools.package-data]
leakytrans = ["*.json"]
""",
    "sealedbids/__init__.py": "",
    "sealedbids/rules.py": '''from companion.contract.api import Game, best
from companion.contract.errors import RuleError


class Sealed(Game):
    id = "sealed"
    title = "Sealed bids"
    description = "Each player bids 0 to 3 in secret; the highest bid wins."
    min_players = 2
    max_players = 4
    moves = "sealedbids.moves"
    views = "sealedbids.views"

    def initial(self, setup, data):
        return {"players": list(setup.players), "bids": {}}

    def on_bid(self, s, event, data):
        if event["player"] in s["bids"]:
            raise RuleError(f"{event['player']} has bid already.")
        s["bids"][event["player"]] = int(event["bid"])

    def done(self, s):
        return len(s["bids"]) == len(s["players"])

    def result(self, s):
        return {"winners": best(s["bids"])} if self.done(s) else None

    def turn(self, s):
        return [p for p in s["players"] if p not in s["bids"]]

    def view(self, s, player):
        if self.done(s):
            return {**s, "bid": sorted(s["bids"])}
        return {"players": s["players"], "bid": sorted(s["bids"]),
                "bids": {p: b for p, b in s["bids"].items() if p == player}}

    def summary(self, s):
        shown = self.done(s)
        return {"players": [{"name": p, "score": s["bids"].get(p, 0) if shown else 0} for p in s["players"]],
                "round": None}

    def describe(self, event):
        return f"{event['player']} has bid" if event.get("type") == "bid" else super().describe(event)


class Leaky(Sealed):
    id = "leaky"
    title = "Leaky bids"
    description = "Sealed bids whose player pages show every bid."
    views = "sealedbids.leaky"


HEARD = {}  # the leak: every bid the rules folded, kept where the exit cannot filter it


class Blabber(Sealed):  # its summary and log reach past the exit, to what the rules heard
    id = "blabber"
    title = "Blabbing bids"
    description = "Sealed bids whose summary and log say every bid."

    def initial(self, setup, data):
        HEARD.clear()  # each replay folds its own bids
        return super().initial(setup, data)

    def on_bid(self, s, event, data):
        super().on_bid(s, event, data)
        HEARD[event["player"]] = event["bid"]

    def summary(self, s):
        return {**super().summary(s), "bids": {p: HEARD[p] for p in s["players"] if p in HEARD}}

    def describe(self, event):
        return f"{event['player']} bid {HEARD.get(event['player'])}" if event.get("type") == "bid" else super().describe(event)
''',
    "sealedbids/moves.py": '''from companion.contract.declare import Move, OneOf, Param, Player
from companion.games.kit import new_command
from sealedbids.rules import Blabber, Leaky, Sealed


def _new(cls):
    @new_command(cls)
    def new():
        """Sealed bids."""
        return {}
    return new


def _mine(at, player):
    return player in at.game.turn(at.full)


MOVES = [Move("bid", [Param("player", Player(), "Who bids."),
                      Param("bid", OneOf(["0", "1", "2", "3"], "BID", strict=True), "The bid.", private=True)],
              lambda at: {"type": "bid", **at.args}, help="Bid in secret: `bid Ann 2`.", phone=True,
              allowed=_mine)]
NEW = {"sealed": _new(Sealed), "leaky": _new(Leaky), "blabber": _new(Blabber)}
PLAYTHROUGH = {"sealed": ["new sealed --players Ann,Bob,Cy", "bid Ann 2", "status", "bid Bob 1", "bid Cy 3"],
               "leaky": ["new leaky --players Ann,Bob,Cy", "bid Ann 2", "bid Bob 1", "bid Cy 3"],
               "blabber": ["new blabber --players Ann,Bob", "bid Ann 2", "bid Bob 1"]}
''',
    "sealedbids/views.py": '''from companion.contract.view import Line


def status_view(at):
    state = at.state
    out = [Line(f"{p} has bid." if p in state["bid"] else f"{p} has not bid yet.") for p in state["players"]]
    if at.viewer in state["bids"]:
        out.append(Line(f"Your bid: {state['bids'][at.viewer]}"))
    return out
''',
    "sealedbids/leaky.py": '''from companion.contract.view import Line
from sealedbids.views import status_view as sealed_view


def status_view(at):
    out = sealed_view(at)
    if at.viewer is not None:  # the leak: every bid so far, read from the session behind the exit
        out += [Line(f"{p} bid {b}") for p, b in at.host.loaded()[1].state["bids"].items()]
    return out
''',
    "leakytrans/__init__.py": '''"""Trans Europa whose player pages show the next player's hand (a dealt secret)."""
from companion.games.trans.rules import TransEuropa


class LeakyTrans(TransEuropa):
    id = "leaky-trans"
    title = "Leaky Trans"
    description = "Trans Europa whose player pages show the next player's hand."
    moves = "leakytrans.moves"
    views = "leakytrans.views"
    pack_file = "leakytrans:trans-europa.json"  # the companion's own pack, copied in by the fixture
''',
    "leakytrans/moves.py": '''from companion.games.kit import new_command
from companion.games.trans.moves import COMMANDS, GROUPS, MOVES  # noqa: F401
from leakytrans import LeakyTrans


@new_command(LeakyTrans)
def new():
    """Trans Europa, leaking."""
    return {"variant": None, "scoring": "prestige", "order": "rulebook"}


NEW = {"leaky-trans": new}
PLAYTHROUGH = {"leaky-trans": ["new leaky-trans --players Ann,Bob,Cy,Dee --entropy x", "round start", "status"]}
''',
    "leakytrans/views.py": '''from companion.contract.view import Line
from companion.games.trans.views import MAPS, board_view, map_view, next_action, score_goal  # noqa: F401
from companion.games.trans.views import status_view as trans_view


def status_view(at):
    out = trans_view(at)
    if at.viewer in at.players:  # the leak: the next player's hand, from the whole session
        after = at.players[(at.players.index(at.viewer) + 1) % len(at.players)]
        full = at.host.loaded()[1].state  # reached behind the exit, through the app
        out.append(Line(f"{after} holds " + ", ".join(full["hands"].get(after) or [])))
    return out
''',
}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The plugin installed once for the file (into a folder of its own, as pip installs it:
    plugin_support.install), put on this process's path while the file's tests run (and taken
    off again after), so the registry finds it through its entry points like any plugin."""
    work = tmp_path_factory.mktemp("sealed")
    source = work / "companion-sealed"
    for name, text in PLUGIN.items():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_text(text)
    root = Path(__file__).resolve().parent.parent
    shutil.copy(root / "data" / "trans-europa.json", source / "leakytrans" / "trans-europa.json")
    target = work / "site"
    install(source, target=target)
    with on_path(target, ("sealedbids", "leakytrans")):
        yield target


def check(site: Path, home: Path, *args: str) -> subprocess.CompletedProcess:
    """`companion check ARGS` run through the command line in this process (a process of its
    own for each cost a start of the companion and its games each time: 2 s of the file's 9);
    the first test runs it as an author does, `python -m companion check` (`own_process`), and
    so do the checks that load Leaky Trans."""
    result = run_here(["check", *args], {"COMPANION_HOME": str(home), "COLUMNS": "200"})
    assert "Traceback" not in result.stdout + result.stderr, result.stderr
    return result


@pytest.fixture(scope="module")
def everything(site, tmp_path_factory) -> subprocess.CompletedProcess:
    """`check --json` of every installed game (one random move a game: what is asked here is
    which games are checked, and which are named as not loaded), run once for the tests below,
    in a process of its own: Leaky Trans shares Trans Europa's own commands, which, loaded in
    this process, would answer for it in the next test file's Trans games."""
    return own_process(site, tmp_path_factory.mktemp("everything") / "home", "--seeds", "1", "--moves", "1", "--json")


def own_process(site: Path, home: Path, *args: str) -> subprocess.CompletedProcess:
    """`python -m companion check ARGS` in a process of its own, the plugin on PYTHONPATH."""
    env = dict(os.environ, COMPANION_HOME=str(home), PYTHONPATH=str(site), COLUMNS="200")
    result = subprocess.run([sys.executable, "-m", "companion", "check", *args], capture_output=True, text=True,
                            env=env, timeout=300)
    assert "Traceback" not in result.stdout + result.stderr, result.stderr
    return result


# in this process by default; also `python -m companion check` in the long run (by default the
# fixture `everything` and the Leaky Trans test below run the check as an author does)
HOWS = [check, *([own_process] if LONG else [])]


@pytest.mark.parametrize("how", HOWS, ids=["in this one", "its own process"][:len(HOWS)])
def test_a_plugin_drawing_another_players_bid_on_a_page_is_named(site, home, how):
    result = how(site, home, "leaky", "--seeds", "2", "--moves", "40")  # naming a leak needs no long run
    assert result.returncode == 1, result.stdout
    lines = result.stdout.splitlines()
    # one line per failure: the game, the move, the surface, the value; then the game's summary
    leaks = [line for line in lines if line.startswith("leaky: ") and "page: shows a secret of " in line]
    assert leaks, result.stdout
    first = leaks[0]
    made = re.search(r"move 1 `bid (\w+) (\d)`: (\w+)'s page: ", first)  # the move: the run's first bid
    assert made, first
    bidder, bid, page = made.groups()
    assert page != bidder  # the surface: another player's page
    assert f"shows a secret of {bidder}'s: '{bid}' in '" in first, first  # the value, a single digit
    assert f"{bidder} bid {bid}" in first.split(" in '", 1)[1], first  # with the words around it
    assert any(f"{page}'s stream: shows a secret of {bidder}'s" in line for line in lines), result.stdout
    assert not any(" the table's" in line or "status --json" in line or ": log" in line for line in leaks)
    assert lines[-1].startswith("leaky: ") and "failure" in lines[-1], lines[-1]


def test_a_dealt_hand_drawn_on_another_players_page_is_named(site, home):
    """The twin of an even seed is dealt the same cards but two, one player's hand at a time:
    the page of a player whose hand is the same in both shows the other's city, and is named."""
    # the leak is named at the first random move of seed 2 (`round start`, which deals: a run
    # starts from the playthrough's `new`); the long run plays 40
    # (in a process of its own, as `everything`: Leaky Trans shares Trans Europa's commands)
    result = own_process(site, home, "leaky-trans", "--seeds", "2", "--moves", str(scaled(2, 40)))
    assert result.returncode == 1, result.stdout + result.stderr
    found = [re.search(r"^leaky-trans: seed \d+, move \d+ `[^`]+`: (\w+)'s page: shows a secret of (\w+)'s: "
                       r"'([^']+)' in '(.*)' \(its twin", line) for line in result.stdout.splitlines()]
    found = [f for f in found if f]
    assert found, result.stdout
    viewer, owner, city, around = found[0].groups()
    assert viewer != owner and f"{owner} holds" in around and city in around


def test_a_secret_in_the_summary_or_the_log_is_named_on_the_tables_surfaces(site, home):
    result = check(site, home, "blabber", "--seeds", "1")
    assert result.returncode == 1, result.stdout
    named = {line.split(": ")[2] for line in result.stdout.splitlines()[:-1]}
    assert {"status --json", "log"} <= named, result.stdout
    json_line = next(line for line in result.stdout.splitlines() if ": status --json: " in line)
    made = re.search(r"move 1 `bid (\w+) (\d)`", json_line)
    assert made and f"shows a secret of {made[1]}'s: '" in json_line, json_line


def test_the_same_game_keeping_its_secrets_passes(site, home):
    result = check(site, home, "sealed", "--seeds", "3")
    assert result.returncode == 0, result.stdout
    summary = result.stdout.strip().splitlines()[-1]
    assert summary.startswith("sealed: ok") and "3 seeds" in summary, summary
    assert " 0 surfaces compared" not in summary, summary  # the twins were compared, not skipped


def test_every_installed_game_is_checked_without_a_name(everything):
    games = {g["game"]: g for g in json.loads(everything.stdout)["games"]}
    assert {"sealed", "leaky", "scoresheet", "trans-europa", "trans-amerika", "transatlantic",
            "atlantic-star"} <= set(games), everything.stdout
    assert all(g["moves"] >= 1 for g in games.values()), everything.stdout  # each played, not only named
    assert everything.returncode == 1  # the leaky one fails the whole check


def test_a_game_that_does_not_load_is_named_as_it_is_in_games(site, home, everything):
    result = check(site, home, "broken")
    assert result.returncode == 1 and not result.stdout
    assert result.stderr.startswith("Error: Not loaded: broken (companion-sealed 0.0.1): "), result.stderr
    assert any(line.startswith("broken (companion-sealed 0.0.1): ") for line in json.loads(everything.stdout)["not_loaded"])


def test_an_unknown_game_is_one_line_and_checks_nothing(site, home):
    result = check(site, home, "nosuchgame")
    assert result.returncode == 1
    assert result.stderr.strip().count("\n") == 0 and "nosuchgame" in result.stderr and "companion games" in result.stderr
    assert not result.stdout


def test_check_json_is_described_in_docs_json(site, home):
    """`check --json` (format check/1) lists what docs/json.md says, a failure with its move,
    surface, value, the twin's value and whose secret it is."""
    from test_json_contract import check as keys_fit
    from test_json_contract import keys, section

    result = check(site, home, "blabber", "sealed", "--seeds", "1", "--json")
    assert result.returncode == 1
    out = json.loads(result.stdout)
    keys_fit(out, keys(section("`check --json`")), where="check")
    assert out["format"] == "check/1" and [g["game"] for g in out["games"]] == ["blabber", "sealed"]
    blabber, sealed = out["games"]
    assert sealed["ok"] and not sealed["failures"] and not blabber["ok"]
    for game in out["games"]:
        keys_fit(game, keys(section("A game checked")), where="check game")
    for failure in blabber["failures"]:
        keys_fit(failure, keys(section("A failure (")), where="check failure")
    leak = next(f for f in blabber["failures"] if f["surface"] == "status --json")
    bidder, bid = leak["move"].split()[1:]
    # the run and its twin share the plugin's module (what its rules heard), so the value shown
    # is one of the two bids: the check names the bidder, and the two values differ
    assert leak["seed"] == 1 and leak["step"] == 1 and leak["whose"] == bidder and bid in (leak["value"], leak["twin"])
    assert leak["twin"] != leak["value"]


def test_check_in_a_script_leaves_the_session_and_the_data_folder_as_they_were(script, home):
    code, out, err = script("new scoresheet --players Ann,Bob\ncheck scoresheet --seeds 1 --moves 3\n"
                            "add Ann=3 Bob=4\n")
    assert code == 0, err
    assert "scoresheet: ok (" in out and "Round 1 recorded. Totals: Ann 3, Bob 4." in out
    assert len(list((home / "sessions").glob("*.json"))) == 1  # the check's sessions were its own
