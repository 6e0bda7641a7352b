"""Replay in linear time (issue 12): one working state, and snapshots kept beside the journal."""

from __future__ import annotations

import json

import pytest

from companion.core import recording
from companion.core import session as sessions
from companion.contract.errors import RuleError
from companion.core.store import Store
from companion.contract.api import Game
from built_once import built_once
from journal_support import edit_entry, entries, journal_files
from long_mode import LONG
from storm_support import copying_replay


@pytest.fixture(autouse=True)
def snapshot_every(monkeypatch):
    """A write keeps a snapshot every 20 events replayed by default (200 in use, and in the long
    run): the same paths on sessions of tens of rounds instead of hundreds."""
    if not LONG:
        monkeypatch.setattr(recording, "SNAPSHOT_EVERY", 20)


def long_scoresheet(tmp_path, rounds: int) -> tuple[Store, str]:
    def build(folder) -> str:
        store = Store(folder)
        s = sessions.create(store, "scoresheet", ["Ann", "Bob"], {"lowest_wins": False, "target": None})
        for i in range(rounds):
            sessions.record(store, s.id, {"type": "add", "scores": {"Ann": i % 5, "Bob": 1}})
        return s.id

    sid = built_once(tmp_path / "home", ("replay linear", rounds), build)
    return Store(tmp_path / "home"), sid


def test_a_long_session_replays_from_its_snapshot_to_the_same_state(tmp_path):
    store, sid = long_scoresheet(tmp_path, recording.SNAPSHOT_EVERY + 30)
    assert store.snapshot_path(sid).is_file()
    session = sessions.load(store, sid)
    replay = session.replay()
    assert replay.fresh < 40, "the rules replayed only the events after the snapshot"
    assert replay.state == copying_replay(session)
    assert len(replay.events) == recording.SNAPSHOT_EVERY + 30


def test_a_changed_journal_is_replayed_from_the_start(tmp_path):
    store, sid = long_scoresheet(tmp_path, recording.SNAPSHOT_EVERY + 5)
    # a hand edit before the snapshot (issue 30: in this laptop's journal of the session)
    edit_entry(store.root, sid, 1, lambda e: e["event"]["scores"].update(Ann=1000))
    session = sessions.load(store, sid)
    replay = session.replay()
    assert replay.fresh == recording.SNAPSHOT_EVERY + 5
    assert replay.state == copying_replay(session) and replay.state["totals"]["Ann"] >= 1000


def test_undo_after_a_snapshot_and_a_damaged_snapshot(tmp_path):
    store, sid = long_scoresheet(tmp_path, recording.SNAPSHOT_EVERY + 2)
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

    def summary(self, s):
        return {"players": [{"name": p, "score": 0} for p in s["players_order"]], "round": None}

    def result(self, s):
        return None


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
    store, sid = long_scoresheet(tmp_path, recording.SNAPSHOT_EVERY + 1)
    before = store.session_path(sid).read_bytes()
    with pytest.raises(RuleError):
        sessions.record(store, sid, {"type": "add", "scores": {"Ann": 1, "Zed": 2}})
    assert store.session_path(sid).read_bytes() == before
    session = sessions.load(store, sid)
    assert session.replay().state == copying_replay(session)


def written_session(tmp_path, events: list[dict]) -> tuple[Store, str]:
    """A score-sheet session whose journal is ``events``, written in one pass as recording them
    one by one would have (the way benchmarks/bench_replay.py builds long sessions)."""
    from companion.core.store import SCHEMA_KEY, atomic_write_text, dumps_compact, schema_version

    store = Store(tmp_path / "home")
    s = sessions.create(store, "scoresheet", ["Ann", "Bob"], {"lowest_wins": False, "target": None})
    journal = {str(n): {"kind": "do", "event": e, "at": "2026-12-01T00:00:00+00:00"} for n, e in enumerate(events, 1)}
    doc = {SCHEMA_KEY: {"kind": "session", "version": schema_version("session")},
           "meta": {"1": sessions.load(store, s.id).meta}, "journal": journal}
    atomic_write_text(store.session_path(s.id), dumps_compact(doc))
    return store, s.id


def full_replay(store: Store, sid: str) -> sessions.Replay:
    """The replay from the first event, with no snapshot and every entry parsed."""
    meta, journal = store.read_session(sid)
    return sessions.Session(meta, journal).replay()


def test_an_action_after_a_snapshot_parses_only_the_entries_since(tmp_path):
    """Issue 12, item 14: recording one action at 10,000 events should cost about what it costs
    at 10, so the entries a snapshot stands for are neither parsed nor replayed."""
    store, sid = long_scoresheet(tmp_path, recording.SNAPSHOT_EVERY + 30)
    session, after, _ = sessions.record(store, sid, {"type": "add", "scores": {"Ann": 2, "Bob": 3}})
    assert isinstance(session._journal, sessions.Later), "the covered entries were not parsed"
    assert isinstance(after._events, sessions.Later) and after.count == recording.SNAPSHOT_EVERY + 31
    assert after.fresh <= 31
    full = full_replay(store, sid)
    assert after.state == full.state and after.data == full.data
    assert [e["at"] for e in after.events] == [e["at"] for e in full.events]  # parsed when asked for
    assert len(session.journal) == session.length == recording.SNAPSHOT_EVERY + 31


def test_the_journal_is_one_compact_line_per_entry(tmp_path):
    """Issue 30: an action appends one line to this laptop's journal (what encoding the entry
    compact writes, each entry naming the one before), and the session's file is not touched."""
    from companion.core.store import dumps_compact

    store, sid = long_scoresheet(tmp_path, 5)
    text = store.session_path(sid).read_text(encoding="utf-8")
    for n in range(3):
        sessions.record(store, sid, {"type": "add", "scores": {"Ann": n, "Bob": 1}})
        if n == 1:
            sessions.step(store, sid, "undo")
    sessions.record(store, sid, {"type": "note", "text": "Zoë paid 12 € \"for\" the pizza}}"})
    assert store.session_path(sid).read_text(encoding="utf-8") == text
    (journal,) = journal_files(store.root, sid)
    lines = journal.read_text(encoding="utf-8").splitlines()[1:]
    assert all(line == dumps_compact(json.loads(line)) for line in lines)
    assert len(lines) == 10 and [json.loads(b)["parent"] for b in lines[1:]] == [json.loads(a)["id"] for a in lines[:-1]]


def test_an_undo_after_the_covered_entries_replays_them_all(tmp_path):
    store, sid = long_scoresheet(tmp_path, recording.SNAPSHOT_EVERY + 3)
    session, after, moved = sessions.step(store, sid, "undo")
    assert after.state == full_replay(store, sid).state and after.count == recording.SNAPSHOT_EVERY + 2
    session, after, moved = sessions.step(store, sid, "redo")
    assert after.state == full_replay(store, sid).state and after.count == recording.SNAPSHOT_EVERY + 3


def test_values_frozen_before_the_snapshot_are_kept_by_it(tmp_path):
    """Printed values an event froze (``_data``) before the snapshot still apply afterwards,
    in the order they were frozen, though their events are not parsed."""
    events = [{"type": "add", "scores": {"Ann": 1, "Bob": 2}} for _ in range(recording.SNAPSHOT_EVERY + 10)]
    events[3]["_data"] = {"chart.first": 1}
    events[7]["_data"] = {"chart": {"first": 5, "second": 6}}
    events[9]["_data"] = {"chart.second": 7}
    store, sid = written_session(tmp_path, events)
    sessions.record(store, sid, {"type": "add", "scores": {"Ann": 1}})  # replays all, keeps a snapshot
    session, after, _ = sessions.record(store, sid, {"type": "add", "scores": {"Bob": 1}})
    assert isinstance(session._journal, sessions.Later)
    assert after.data["chart"] == {"first": 5, "second": 7} == full_replay(store, sid).data["chart"]


def test_a_reveal_before_the_snapshot_is_still_known(tmp_path):
    store, sid = long_scoresheet(tmp_path, 3)
    sessions.reveal(store, sid)
    for i in range(recording.SNAPSHOT_EVERY + 2):
        sessions.record(store, sid, {"type": "add", "scores": {"Ann": i % 3}})
    session = sessions.load(store, sid)
    assert isinstance(session._journal, sessions.Later) and session.revealed
    assert not isinstance(session._journal, list)


@pytest.mark.parametrize("edit", ["before", "after", "spaces"])
def test_a_file_changed_under_the_snapshot_is_read_whole(tmp_path, edit):
    """The snapshot stands for the text it was taken of (its SHA-256): a hand edit before it,
    a changed entry after it or a file written with spaces is read and replayed whole."""
    store, sid = long_scoresheet(tmp_path, recording.SNAPSHOT_EVERY + 2)
    sessions.record(store, sid, {"type": "add", "scores": {"Ann": 1}})
    last = len(entries(store.root, sid))
    if edit == "before":
        edit_entry(store.root, sid, 2, lambda e: e["event"]["scores"].update(Bob=50))
    elif edit == "after":
        edit_entry(store.root, sid, last, lambda e: e["event"]["scores"].update(Ann=40))
    else:  # the journal written again with spaces (issue 30: each line is one entry)
        (journal,) = journal_files(store.root, sid)
        journal.write_text("".join(json.dumps(json.loads(line), ensure_ascii=False) + "\n"
                                   for line in journal.read_text().splitlines()))
    session = sessions.load(store, sid)
    assert isinstance(session._journal, list) == (edit != "after")
    assert session.replay().state == full_replay(store, sid).state == copying_replay(sessions.load(store, sid))
    sessions.record(store, sid, {"type": "add", "scores": {"Bob": 1}})
    assert sessions.load(store, sid).replay().state == full_replay(store, sid).state


def test_a_second_replay_of_one_session_starts_from_the_snapshot_again(tmp_path):
    """The first replay changes the snapshot's state in place (no copy of a long state); a
    second replay of the same loaded session (a retry after a printed value was supplied,
    `log`) must not start from that changed state: before, it counted the later events twice."""
    store, sid = long_scoresheet(tmp_path, recording.SNAPSHOT_EVERY + 10)
    full = full_replay(store, sid).state
    lazy = sessions.load(store, sid)
    assert isinstance(lazy._journal, sessions.Later)
    again = sessions.load(Store(store.root), sid)  # (issue 30: a session is loaded from its journals' ends)
    for session in (lazy, again):
        first = session.replay()
        assert first.fresh < 20, "the first replay starts from the snapshot"
        assert first.state == full
        assert session.replay().state == full
        assert session.replay().state == full
