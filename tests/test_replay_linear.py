"""Replay in linear time (issue 12): one working state, and snapshots kept beside the journal."""

from __future__ import annotations

import json

import pytest

from companion.core import session as sessions
from companion.core.errors import RuleError
from companion.core.store import Store
from companion.games.base import Game
from storm_support import copying_replay


def long_scoresheet(tmp_path, rounds: int) -> tuple[Store, str]:
    store = Store(tmp_path / "home")
    s = sessions.create(store, "scoresheet", ["Ann", "Bob"], {"lowest_wins": False, "target": None})
    for i in range(rounds):
        sessions.record(store, s.id, {"type": "add", "scores": {"Ann": i % 5, "Bob": 1}})
    return store, s.id


def test_a_long_session_replays_from_its_snapshot_to_the_same_state(tmp_path):
    store, sid = long_scoresheet(tmp_path, sessions.SNAPSHOT_EVERY + 30)
    assert store.snapshot_path(sid).is_file()
    session = sessions.load(store, sid)
    replay = session.replay()
    assert replay.fresh < 40, "the rules replayed only the events after the snapshot"
    assert replay.state == copying_replay(session)
    assert len(replay.events) == sessions.SNAPSHOT_EVERY + 30


def test_a_changed_journal_is_replayed_from_the_start(tmp_path):
    store, sid = long_scoresheet(tmp_path, sessions.SNAPSHOT_EVERY + 5)
    path = store.session_path(sid)
    doc = json.loads(path.read_text())
    doc["journal"]["1"]["event"]["scores"]["Ann"] = 1000  # a hand edit before the snapshot
    path.write_text(json.dumps(doc, ensure_ascii=False, separators=(",", ":")))
    session = sessions.load(store, sid)
    replay = session.replay()
    assert replay.fresh == sessions.SNAPSHOT_EVERY + 5
    assert replay.state == copying_replay(session) and replay.state["totals"]["Ann"] >= 1000


def test_undo_after_a_snapshot_and_a_damaged_snapshot(tmp_path):
    store, sid = long_scoresheet(tmp_path, sessions.SNAPSHOT_EVERY + 2)
    sessions.step(store, sid, "undo")
    session = sessions.load(store, sid)
    assert session.replay().state == copying_replay(session)
    store.snapshot_path(sid).write_text("{not json")
    session = sessions.load(store, sid)
    assert session.replay().state == copying_replay(session)
    sessions.record(store, sid, {"type": "add", "scores": {"Ann": 3}})
    session = sessions.load(store, sid)
    assert session.replay().state == copying_replay(session)


class HalfWay(Game):
    id = "halfway"
    title = "Half way"

    def initial(self, setup, data):
        return {"players_order": list(setup.players), "marks": [], "finished": False}

    def on_mark(self, s, event, data):
        s["marks"].append(event["n"])
        if event["n"] < 0:
            raise RuleError("no negative marks")


def test_a_refusal_half_way_leaves_the_callers_state_alone():
    game = HalfWay()
    state = {"players_order": ["Ann"], "marks": [1], "finished": False}
    with pytest.raises(RuleError):
        game.apply(state, {"type": "mark", "n": -1}, {})
    assert state == {"players_order": ["Ann"], "marks": [1], "finished": False}
    event = {"type": "mark", "n": 2}
    after = game.apply(state, event, {})
    assert after["marks"] == [1, 2] and state["marks"] == [1] and event == {"type": "mark", "n": 2}


def test_a_refused_action_in_a_long_session_changes_nothing(tmp_path):
    store, sid = long_scoresheet(tmp_path, sessions.SNAPSHOT_EVERY + 1)
    before = store.session_path(sid).read_bytes()
    with pytest.raises(RuleError):
        sessions.record(store, sid, {"type": "add", "scores": {"Ann": 1, "Zed": 2}})
    assert store.session_path(sid).read_bytes() == before
    session = sessions.load(store, sid)
    assert session.replay().state == copying_replay(session)
