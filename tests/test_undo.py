"""Undo and redo move along the event log; the journal on disk never loses anything."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from journal_support import entries

from companion.core import session as sessions
from companion.core.store import Store


def test_undo_redo_and_a_new_action_drops_the_undone(run, status, home):
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    run(["add", "Ann=1"], expect=0)
    run(["add", "Ann=2"], expect=0)
    assert "Undid: round scored: Ann +2" in run(["undo"], expect=0).stdout
    assert status()["players"][0]["score"] == 1
    assert "Redid: round scored: Ann +2" in run(["redo"], expect=0).stdout
    assert status()["players"][0]["score"] == 3
    run(["undo"], expect=0)
    run(["add", "Bob=5"], expect=0)
    assert "Nothing to redo" in run(["redo"], expect=1).stderr
    assert [p["score"] for p in status()["players"]] == [1, 5]
    run(["undo"], expect=0)
    run(["undo"], expect=0)
    assert "Nothing to undo" in run(["undo"], expect=1).stderr
    # the journal still holds every action ever recorded
    sid = status()["session"]
    kinds = [e["kind"] for e in entries(home, sid)]
    assert kinds.count("do") == 3 and kinds.count("undo") == 4 and kinds.count("redo") == 1


def test_log_mentions_what_redo_would_bring_back(run):
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    run(["add", "Ann=7"], expect=0)
    run(["undo"], expect=0)
    assert "`redo` brings back round scored: Ann +7" in run(["log"], expect=0).stdout


def test_undo_of_the_finishing_event_reopens_the_index(run):
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    run(["add", "Ann=7"], expect=0)
    run(["finish"], expect=0)
    assert json.loads(run(["sessions", "--json"], expect=0).stdout)[0]["finished"]
    run(["undo"], expect=0)
    assert json.loads(run(["sessions", "--json"], expect=0).stdout)[0]["finished"] is None


actions = st.lists(
    st.dictionaries(st.sampled_from(["Ann", "Bob", "Cy"]), st.integers(-50, 50), min_size=1),
    min_size=1, max_size=8,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rounds=actions, finish=st.booleans())
def test_n_actions_then_n_undos_give_the_initial_state(tmp_path_factory, rounds, finish):
    store = Store(tmp_path_factory.mktemp("undo"))
    s = sessions.create(store, "scoresheet", ["Ann", "Bob", "Cy"], {"lowest_wins": False, "target": None})
    initial = s.status()
    events = [{"type": "add", "scores": r} for r in rounds] + ([{"type": "finish"}] if finish else [])
    states = [initial]
    for e in events:
        _, replay, _ = sessions.record(store, s.id, e)
        states.append(sessions.load(store, s.id).status(replay))
    # undo + redo is the identity at every point
    for back in range(len(events)):
        sessions.step(store, s.id, "undo")
        after_undo = sessions.load(store, s.id).status()
        assert after_undo["players"] == states[-2 - back]["players"]
        sessions.step(store, s.id, "redo")
        assert sessions.load(store, s.id).status()["players"] == states[-1 - back]["players"]
        sessions.step(store, s.id, "undo")
    final = sessions.load(store, s.id).status()
    assert final == initial
