"""The exit itself (companion/contract/exit.py): what a view is given holds only what its viewer
may see, and a game's words are given the reader's view.

Played on real sessions: the third example (secret bids) installed as a distribution, and a
dealt Trans Europa round, whose deal seed is the secret of secrets.
"""

from __future__ import annotations

import json

import pytest

import plugin_support
from tricks_support import PLAYERS, install, on_path


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    yield from on_path(install(tmp_path_factory.mktemp("tricks-exit")))


def loaded(home):
    from companion.core import session as sessions
    from companion.core.store import Store

    store = Store(home)
    s = sessions.load(store, store.current())
    return s, s.replay()


def test_a_view_is_given_the_viewers_state_only(site, home, run):
    from companion.contract.exit import Exit

    run(["new", "tricks", "--players", ",".join(PLAYERS)], expect=0)
    run(["bid", "Ann", "1"], expect=0)
    s, replay = loaded(home)
    table = Exit(s, replay).at()
    assert table.full["bids"] == {} and table.state["bids"] == {} and table.replay.state["bids"] == {}
    assert [p["bid"] for p in table.status["players"]] == [None, None, None]
    assert table.replay.events[0]["event"]["bid"] == "hidden for now"
    with pytest.raises(AttributeError):
        table.session.replay()  # a view has no way to the whole replay
    ann = Exit(s, replay, "Ann").at()
    assert ann.full["bids"] == {"Ann": 1} and ann.replay.events[0]["event"]["bid"] == 1
    assert replay.state["bids"] == {"Ann": 1}  # the rules' state is untouched


def test_a_describe_taking_the_state_gets_the_readers_view(site, home, run, monkeypatch):
    from companion.contract.exit import Exit
    from tricks_companion.rules import Tricks

    seen = []

    def describe(self, event, state):
        seen.append(json.loads(json.dumps(state["bids"])))
        return f"{event['player']} bid {event.get('bid', '?')}"

    monkeypatch.setattr(Tricks, "describe", describe)
    run(["new", "tricks", "--players", ",".join(PLAYERS)], expect=0)
    run(["bid", "Ann", "1"], expect=0)
    s, replay = loaded(home)
    assert Exit(s, replay).words(replay.events[0]["event"]) == "Ann bid ?"
    assert Exit(s, replay, "Ann").words(replay.events[0]["event"]) == "Ann bid 1"
    assert seen[-2:] == [{}, {"Ann": 1}]


def test_a_view_never_sees_the_deal_seed(home, run):
    from companion.contract.exit import Exit

    run(["new", "trans-europa", "--players", "Ann,Bob,Cy,Dan"], expect=0)
    run(["round", "start"], expect=0)
    s, replay = loaded(home)
    assert "seed" in s.meta
    at = Exit(s, replay).at()
    assert "seed" not in at.session.meta and at.session.id == s.id
    assert at.full["hands"] == {}  # the table sees no hand
    assert Exit(s, replay).event(replay.events[0]["event"]) == json.loads(run(["log", "--json"]).stdout)[0]["event"]


# A plugin that tries to reach the whole state from its views (design-review-3 and
# adversarial-3's "leaky" plugin, written again here): its status_view reads `at.full` and
# `at.replay.state` on a player's page, its summary returns every secret word, its done line the
# word just picked, its describe the word too.
LEAKY = {
    "pyproject.toml": """[build-system]
requires = ["setuptools>=77"]
build-backend = "setuptools.build_meta"

[project]
name = "companion-leaky"
version = "0.0.1"

[project.entry-points."companion.games"]
leaky = "leaky_game:Leaky"

[tool.setuptools]
py-modules = ["leaky_game"]
""",
    "leaky_game.py": '''from companion.contract.api import Game
from companion.contract.declare import Move, OneOf, Param, Player
from companion.contract.view import Line, Table
from companion.games.kit import new_command

_WORDS = ["quince", "cherry", "banana", "date"]


class Leaky(Game):
    id = "leaky"
    title = "Leaky"
    min_players = 2
    moves = views = "leaky_game"

    def initial(self, setup, data):
        return {"players": list(setup.players), "secret": {}}

    def on_pick(self, s, event, data):
        s["secret"][event["player"]] = event["word"]

    def view(self, s, player):
        return dict(s, secret={p: w for p, w in s["secret"].items() if p == player})

    def result(self, s):
        return None

    def summary(self, s):
        return {"players": [{"name": p, "score": 0, "word": s["secret"].get(p)} for p in s["players"]],
                "round": 0}

    def describe(self, event):
        return f"{event['player']} picked {event.get('word', 'a word')}"


def status_view(at):
    rows = [[p, at.full["secret"].get(p, "-"), at.replay.state["secret"].get(p, "-")] for p in at.players]
    return [Line(f"Words: {at.status['players']}"), Table(["player", "full", "replay"], rows)]


@new_command(Leaky)
def new():
    """Secret words."""
    return {}


MOVES = [Move("pick", [Param("player", Player(), "Who."), Param("word", OneOf(_WORDS), "A word.", private=True)],
              lambda at: {"type": "pick", "player": at.args["player"], "word": at.args["word"]},
              help="Pick a secret word.", phone=True, allowed=lambda at, p: p not in at.full["secret"],
              done=lambda outcome: [Line(f"picked {outcome.event.get('word')} {outcome.replay.state['secret']}")])]
NEW = {"leaky": new}
''',
}


@pytest.fixture(scope="module")
def leaky(tmp_path_factory):
    work = tmp_path_factory.mktemp("leaky")
    source = tmp_path_factory.mktemp("source") / "companion-leaky"
    source.mkdir()
    for name, text in LEAKY.items():
        (source / name).write_text(text, encoding="utf-8")
    # installed as pip installs it, without pip's start and build hooks (tests/plugin_support.py)
    plugin_support.install(source, target=work / "site")
    yield from on_path(work / "site", "leaky_game")


def test_a_view_that_reaches_for_the_whole_state_finds_the_viewers(leaky, home, run):
    from serve_support import site_and_client

    run(["new", "leaky", "--players", "Ann,Bob"], expect=0)
    run(["pick", "Bob", "date"], expect=0)  # Bob's page offers nothing more: every word on it is his view's
    said = run(["pick", "Ann", "cherry"], expect=0).stdout
    assert "cherry" not in said
    for words in (["status"], ["status", "--json"], ["log"], ["log", "--json"]):
        assert "cherry" not in run(words, expect=0).stdout, words
    s, _replay = loaded(home)
    _site, client, links = site_and_client(home, s.id, ["Ann", "Bob"])
    assert "cherry" not in client.get(f"/t/{links['table']}").text
    bob = client.get(f"/p/{links['Bob']}").text
    assert "cherry" not in bob and "date" in bob
    assert "cherry" in client.get(f"/p/{links['Ann']}").text  # her own page
