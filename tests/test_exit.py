"""The exit itself (companion/contract/exit.py): what a view is given holds only what its viewer
may see, and a game's words are given the reader's view.

Played on real sessions: the third example (secret bids) installed as a distribution, and a
dealt Trans Europa round, whose deal seed is the secret of secrets.
"""

from __future__ import annotations

import json

import pytest

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
