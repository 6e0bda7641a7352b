"""A plugin's check that raises or never returns refuses that move only, named, on a real server.

Issue 27 (adversarial-3 D6): a plugin's `allowed` that raised made the player's page answer
"Something went wrong inside companion."; one that never returned held the server's threads
until the table page timed out. The plugin here is installed as a real distribution and the
companion serves it in its own process (`companion serve`): its move `good` is offered, its
moves `raises` and `hangs` are not, and the page names the game and its distribution for each;
many requests of the page that hangs leave the table page answering; a page whose own drawing
fails names the plugin too.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import subprocess
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from html import unescape

import pytest
from plugin_support import install, on_path, run_here, write_distribution

RULES = '''from companion.contract.api import Game


class Checky(Game):
    id = "checky"
    title = "Checky"
    description = "A game whose checks fail, for the tests."
    min_players, max_players = 2, 4
    moves = "checks_moves"
    views = "checks_views"

    def initial(self, setup, data):
        return {"players": list(setup.players), "moved": []}

    def on_good(self, s, event, data):
        s["moved"].append(event["player"])

    on_raises = on_hangs = on_good

    def result(self, s):
        return None

    def summary(self, s):
        return {"players": [{"name": p, "score": s["moved"].count(p)} for p in s["players"]], "round": 0}


class SlowTurn(Checky):
    id = "slowturn"
    title = "Slow turn"
    moves = "checks_slowturn"

    def turn(self, s):
        import threading

        threading.Event().wait()  # never returns
'''
SLOW_TURN = '''from companion.contract.declare import Move, Param, Player
from companion.games.kit import new_command
from checks_rules import SlowTurn


@new_command(SlowTurn)
def new():
    """A game whose turn never comes."""
    return {}


MOVES = [Move("good", [Param("player", Player(), "Who.")], lambda at: {"type": "good", **at.args}, help="Good.",
              phone=True)]
NEW = {"slowturn": new}
'''
MOVES = '''import threading

from companion.contract.declare import Move, Param, Player
from companion.contract.view import Line
from companion.games.kit import new_command
from checks_rules import Checky


@new_command(Checky)
def new():
    """A game whose checks fail."""
    return {}


def _raises(at, player):
    raise ValueError("a bug in the check")


def _hangs(at, player):
    threading.Event().wait()  # never returns


def _move(name, allowed):
    return Move(name, [Param("player", Player(), "Who.")], lambda at: {"type": name, **at.args}, help=f"{name}.",
                allowed=allowed, phone=True, verb=f"Do {name}", done=lambda outcome: [Line(f"{name} done")])


MOVES = [_move("good", lambda at, player: True), _move("raises", _raises), _move("hangs", _hangs)]
NEW = {"checky": new}
'''
VIEWS = '''import os

from companion.contract.view import Line


def status_view(at):
    if at.viewer == "Cy" and os.environ.get("CHECKY_VIEW_RAISES"):
        raise KeyError("a bug in the view")
    return [Line("Moved: " + ", ".join(at.state["moved"]))]
'''


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("checks")
    source = write_distribution(work / "checks", "companion-checks",
                                {"checks_rules.py": RULES, "checks_moves.py": MOVES, "checks_views.py": VIEWS,
                                 "checks_slowturn.py": SLOW_TURN},
                                {"checky": "checks_rules:Checky", "slowturn": "checks_rules:SlowTurn"})
    install(source, target=work / "site")
    return work / "site"


PACKAGES = ("checks_rules", "checks_moves", "checks_views", "checks_slowturn")


def fetch(url: str, data: dict | None = None, timeout: float = 60) -> tuple[int, str]:
    body = urllib.parse.urlencode(data).encode() if data is not None else None
    try:
        with urllib.request.urlopen(url, data=body, timeout=timeout) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


@contextlib.contextmanager
def serving(site: Path, home: Path, game: str, **env: str):
    """`companion serve` of a session of Ann, Bob and Cy playing ``game``, with the plugin
    installed (``env``: more of the server's environment); gives (run a command, {who: url}).
    The server is a process of its own (forked from the warm web process, the plugin on its
    path as PYTHONPATH puts it); the other commands run in this process, the plugin on its path."""
    from warm_support import serve_process

    env = dict(CHECKY_VIEW_RAISES="1", **env)

    def run(*args: str) -> subprocess.CompletedProcess:
        with on_path(site, PACKAGES):
            return run_here(list(args), {"COMPANION_HOME": str(home), **env})

    assert run("new", game, "--players", "Ann,Bob,Cy").returncode == 0
    proc = serve_process(home, "--port", "0", env={"PYTHONPATH": str(site), **env})
    from browser_support import link_line

    links = {}
    try:
        for _ in range(4):
            line = proc.stdout.readline()
            assert line, proc.stderr.read()
            kind, name, url = link_line(line)
            links["table" if kind == "table" else name] = url
        yield run, links
    finally:
        stopped = run("serve", "--stop")
        assert stopped.returncode == 0, stopped.stderr
        proc.wait(timeout=60)  # a check still hanging in its thread does not keep the server alive
        assert "Traceback" not in proc.stderr.read()


@pytest.fixture(scope="module")
def served(site, tmp_path_factory):
    """One server of checky for the tests below, which read its pages (the first records one
    move, which the others do not look at), with the real bound of a plugin's check: its first
    page waits the whole 2 s for the check that never returns, and every later one is refused
    at once while that check still runs (issue 29, item 7: a server each took 2 s more)."""
    with serving(site, tmp_path_factory.mktemp("checky-home"), "checky") as both:
        yield both


RAISES = ("The game checky (companion-checks 0.0.1) failed (ValueError in checks_moves line 16) when asked to "
          "check whether raises may be made: not offered; tell the game's author.")
HANGS = ("The game checky (companion-checks 0.0.1) took more than 2 s to check whether hangs may be made: not "
         "offered; tell the game's author.")


def test_a_failing_check_refuses_its_move_only_and_names_the_plugin(served):
    from serve_support import forms_on

    run, links = served
    status, page = fetch(links["Ann"])
    assert status == 200, page
    text = unescape(page)
    assert RAISES in text and HANGS in text, text[text.find("<main"):][:1000]
    assert "inside companion" not in text
    offered = [f["hidden"].get("move") for f in forms_on(page)]
    assert "good" in offered and "raises" not in offered and "hangs" not in offered
    good = next(f for f in forms_on(page) if f["hidden"].get("move") == "good")
    assert fetch(links["Ann"] + "/choose", good["hidden"])[0] == 200  # recorded (303), then its page
    assert json.loads(run("status", "--json").stdout)["players"][0]["score"] == 1
    for move, said in (("raises", RAISES), ("hangs", HANGS)):  # posted anyway: refused, named
        status, page = fetch(links["Bob"] + "/choose", {**good["hidden"], "move": move})
        assert status == 409 and said in unescape(page), page
    assert run("status").returncode == 0


def test_a_plugins_failure_is_named_in_the_phones_language(served):
    """The lines naming a plugin's failure are whole sentences of the catalogue, as every other
    line a phone reads (issue 27: they were English on a German page)."""
    _run, links = served
    asked = urllib.request.Request(links["Ann"], headers={"Accept-Language": "de"})
    with urllib.request.urlopen(asked, timeout=60) as answer:
        text = " ".join(unescape(answer.read().decode()).split())
    assert ("Das Spiel checky (companion-checks 0.0.1) ist gescheitert (ValueError in checks_moves Zeile 16), als "
            "es prüfen sollte, ob raises gemacht werden darf: nicht angeboten; sag es dem Autor des Spiels.") in text
    assert ("Das Spiel checky (companion-checks 0.0.1) brauchte länger als 2 s, um zu prüfen, ob hangs gemacht "
            "werden darf: nicht angeboten; sag es dem Autor des Spiels.") in text
    assert "took more than" not in text and "when asked to" not in text


def test_a_check_that_never_returns_leaves_the_server_answering(served):
    run, links = served
    many = [links["Bob"] + f"?z=2&c={i}" for i in range(60)]  # 60 pages drawn afresh (each its own view)
    with concurrent.futures.ThreadPoolExecutor(60) as pool:
        answers = list(pool.map(fetch, many))
        table = pool.submit(fetch, links["table"]).result()
    assert table[0] == 200 and "Checky" in table[1]
    assert {status for status, _ in answers} == {200}
    assert all("hangs may be made: not offered" in unescape(page) for _, page in answers)
    assert fetch(links["table"])[0] == 200


def test_a_page_whose_drawing_fails_names_the_plugin(served):
    _run, links = served
    status, page = fetch(links["Cy"])
    assert status == 500
    said = " ".join(unescape(page).split())
    assert "The game checky (companion-checks 0.0.1) failed (KeyError in checks_views line 8)" in said, page
    assert "inside companion" not in said
    assert fetch(links["Ann"])[0] == 200 and fetch(links["table"])[0] == 200


def test_a_turn_that_never_comes_leaves_the_page_and_the_table_answering(site, home):
    """With the bound set shorter (``COMPANION_PLUGIN_CHECK_SECONDS``, clamped to at most the
    default): the same refusal, in the time set, which the page says."""
    from companion.core import plugins

    with serving(site, home, "slowturn", **{plugins.CHECK_SECONDS_SETTING: "0.5"}) as (_run, links):
        turn_never_comes(links)


def turn_never_comes(links: dict) -> None:
    for who in ("Ann", "Bob", "Ann"):
        status, page = fetch(links[who])
        text = unescape(page)
        assert status == 200 and "inside companion" not in text
        assert ("The game slowturn (companion-checks 0.0.1) took more than 0.5 s to check whether good may be "
                "made: not offered; tell the game's author.") in text
        assert ("The game slowturn (companion-checks 0.0.1) took more than 0.5 s to say whose turn it is: the page "
                "does not say; tell the game's author.") in text
    assert fetch(links["table"])[0] == 200
