"""A replay snapshot's long lists kept apart, and a journal's covered bytes checked at its ends
(issue 30, item 5: `add` at 50,000 events within 1.2x of `add` at 10).

A score sheet's rounds are written beside the snapshot (companion.core.snapshot_parts) and read
only by what reads them; an action counts and appends. Whatever happens to the part file (gone,
damaged, an older snapshot still read), the state is the replay of the journal."""

from __future__ import annotations

import copy
import json
import os

import pytest

from companion.contract.api import json_copy
from companion.core import journals as jn
from companion.core import recording
from companion.core import session as sessions
from companion.core import snapshot_parts
from companion.core.device import device
from companion.core.snapshot_parts import Apart
from companion.core.store import Store, now
from long_mode import LONG
from storm_support import copying_replay

PLAYERS = ["Ann", "Bob"]


@pytest.fixture(autouse=True)
def small_parts(monkeypatch):
    """Lists of 16 items or more are kept apart (512 in use): the tests stay short. By default
    an action also checks 4 KiB at each end of what a snapshot covers (64 KiB in use) and a
    write keeps a snapshot every 20 events replayed (200): the same paths on journals of 200
    rounds instead of 2,000; the long run (COMPANION_LONG_TESTS=1) keeps the sizes in use."""
    monkeypatch.setattr(snapshot_parts, "APART_MIN", 16)
    if not LONG:
        monkeypatch.setattr(jn, "EDGE", 4096)
        monkeypatch.setattr(recording, "SNAPSHOT_EVERY", 20)


def written_sheet(home, rounds: int) -> tuple[Store, str]:
    """A score sheet of ``rounds`` rounds in this laptop's journal (written as the actions would
    have written it), then one action, which replays them all and keeps a snapshot."""
    store = Store(home)
    s = sessions.create(store, "scoresheet", PLAYERS, {"lowest_wins": False, "target": None})
    me = device(store)
    lines = [jn.header(me["id"], me["name"], s.id)]
    for i in range(rounds):
        lines.append({"id": f"{me['id']}:{i + 1}", "parent": f"{me['id']}:{i}" if i else None, "kind": "do",
                      "event": {"type": "add", "scores": {"Ann": i % 7, "Bob": (3 * i) % 5}}, "at": now()})
    path = jn.journal_path(store.sessions_dir, s.id, me["id"])
    path.write_text("".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines), encoding="utf-8")
    store = Store(home)
    sessions.record(store, s.id, {"type": "add", "scores": {"Ann": 1, "Bob": 1}})
    return Store(home), s.id


def truth(store: Store, sid: str) -> dict:
    """The state a replay from the first event gives (no snapshot, every entry merged)."""
    meta, merged = Store(store.root).read_merged(sid)
    return copying_replay(sessions.Session(meta, list(merged.line)))


def snapshot(store: Store, sid: str) -> dict:
    return json.loads(store.snapshot_path(sid).read_text(encoding="utf-8"))


def parts(store: Store, sid: str) -> list:
    return sorted(p.name for p in store.snapshot_path(sid).parent.glob(f"{sid}.*.part"))


def test_the_rounds_are_kept_apart_and_an_action_does_not_read_them(tmp_path):
    store, sid = written_sheet(tmp_path / "home", 300)
    snap = snapshot(store, sid)
    assert snap["format"] == sessions.SNAPSHOT_FORMAT == 5
    assert snap["state"]["rounds"] == [] and snap["apart"]["rounds"]["count"] == 301
    assert parts(store, sid) == [snap["apart"]["rounds"]["file"]]
    expected = truth(store, sid)
    session, after, _ = sessions.record(Store(store.root), sid, {"type": "add", "scores": {"Ann": 2, "Bob": 9}})
    rounds = after.state["rounds"]
    assert isinstance(rounds, Apart) and rounds.unread, "the action read every round"
    assert len(rounds) == 302 and after.state["totals"] == truth(store, sid)["totals"]
    assert after.state == truth(store, sid) and len(expected["rounds"]) == 301
    assert not rounds.unread  # compared above: read, and an ordinary list since


def test_the_next_snapshot_grows_the_same_part_and_an_older_snapshot_still_reads(tmp_path):
    store, sid = written_sheet(tmp_path / "home", 300)
    first = snapshot(store, sid)
    old_text = store.snapshot_path(sid).read_text(encoding="utf-8")
    old_state = truth(store, sid)
    held = None
    for i in range(recording.SNAPSHOT_EVERY):  # as a shell does: one session held, actions one by one
        held = sessions.record(store, sid, {"type": "add", "scores": {"Ann": i % 4, "Bob": 1}}, held)
        held = (held.session, held.replay)
    second = snapshot(store, sid)
    assert second["apart"]["rounds"]["file"] == first["apart"]["rounds"]["file"], "the part was written again"
    assert second["apart"]["rounds"]["count"] == 301 + recording.SNAPSHOT_EVERY
    assert held[1].state["rounds"].unread, "writing the snapshot read the rounds"
    assert sessions.load(Store(store.root), sid).replay().state == truth(store, sid)
    # a reader that still holds the older snapshot reads the bytes it names, whatever followed
    part = store.snapshot_path(sid).with_name(first["apart"]["rounds"]["file"])
    assert store.read_snapshot_part(sid, first["apart"]["rounds"]) == old_state["rounds"]
    assert part.stat().st_size == second["apart"]["rounds"]["bytes"]
    assert old_text != store.snapshot_path(sid).read_text(encoding="utf-8")


@pytest.mark.parametrize("harm", ["gone", "damaged", "cut"])
def test_a_part_gone_or_damaged_is_replayed_from_the_journal(tmp_path, harm):
    store, sid = written_sheet(tmp_path / "home", 300)
    (name,) = parts(store, sid)
    path = store.snapshot_path(sid).with_name(name)
    if harm == "gone":
        path.unlink()
    elif harm == "damaged":
        data = bytearray(path.read_bytes())
        data[len(data) // 2] = ord("9") if data[len(data) // 2] != ord("9") else ord("8")
        path.write_bytes(bytes(data))
    else:
        path.write_bytes(path.read_bytes()[:-40])
    session = sessions.load(Store(store.root), sid)
    assert session.replay().state == truth(store, sid)
    assert not store.snapshot_path(sid).exists() or snapshot(store, sid)["apart"]["rounds"]["file"] != name
    # the next action writes a true snapshot again
    sessions.record(Store(store.root), sid, {"type": "add", "scores": {"Ann": 1}})
    assert sessions.load(Store(store.root), sid).replay().state == truth(store, sid)


def test_a_part_changed_by_hand_is_not_believed_by_status(run, home):
    store, sid = written_sheet(home, 300)
    before = json.loads(run(["--session", sid, "status", "--json"], expect=0).stdout)
    (name,) = parts(store, sid)
    path = store.snapshot_path(sid).with_name(name)
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[5] = json.dumps({"Ann": 999, "Bob": 0}, separators=(",", ":"))
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    assert json.loads(run(["--session", sid, "status", "--json"], expect=0).stdout) == before
    assert [p["rounds"][5] for p in before["players"]] == [r for r in truth(store, sid)["rounds"][5].values()]


def test_add_says_the_same_and_status_shows_every_round(run, home):
    store, sid = written_sheet(home, 300)
    done = run(["--session", sid, "add", "Ann=5", "Bob=6"], expect=0).stdout
    state = truth(store, sid)
    assert f"Round {len(state['rounds'])} recorded. Totals: Ann {state['totals']['Ann']}, Bob {state['totals']['Bob']}." \
        in done
    status = json.loads(run(["--session", sid, "status", "--json"], expect=0).stdout)
    assert [p["rounds"] for p in status["players"]] == [[r[p] for r in state["rounds"]] for p in PLAYERS]
    assert status["round"] == 302


def test_delete_removes_the_parts_too(run, home):
    store, sid = written_sheet(home, 300)
    assert parts(store, sid)
    run(["delete", sid, "--yes"], expect=0)
    assert not list(store.snapshot_path(sid).parent.glob(f"{sid}*"))


def test_a_snapshot_of_the_format_before_is_still_read(tmp_path):
    """A snapshot written before the parts (format 4: the whole state in it, each journal's
    covered bytes and their CRC-32) is still used as it is."""
    store, sid = written_sheet(tmp_path / "home", 300)
    snap = snapshot(store, sid)
    rounds = store.read_snapshot_part(sid, snap["apart"]["rounds"])
    old = {k: v for k, v in snap.items() if k not in ("check", "apart")}
    old["format"] = 4
    old["state"] = dict(snap["state"], rounds=rounds)
    old["journals"]["files"] = {name: spec[:2] for name, spec in snap["journals"]["files"].items()}
    store.write_snapshot(sid, old)
    session = sessions.load(Store(store.root), sid)
    assert isinstance(session._journal, sessions.Later), "the old snapshot was not used"
    assert session.replay().fresh < 5 and session.replay().state == truth(store, sid)


def test_a_long_list_behaves_as_a_list():
    """What a rule or a view may do with a list kept apart: counting and appending read
    nothing; anything else reads it first, and copies are plain lists."""
    reads = []

    def load(spec):
        reads.append(spec)
        return [{"Ann": n} for n in range(spec["count"])]

    rows = Apart({"count": 3}, load)
    rows.append({"Ann": 3})
    assert len(rows) == 4 and rows and not reads
    assert json.dumps(rows) == json.dumps([{"Ann": n} for n in range(4)]) and len(reads) == 1
    assert rows == [{"Ann": n} for n in range(4)] and rows[-1] == {"Ann": 3} and rows[1:2] == [{"Ann": 1}]
    for copied in (json_copy(rows), copy.deepcopy(rows), copy.copy(rows), rows.copy()):
        assert type(copied) is list and copied == rows and copied is not rows
    fresh = Apart({"count": 2}, load)
    assert [r["Ann"] for r in fresh] == [0, 1]
    assert ", ".join(str(r["Ann"]) for r in Apart({"count": 2}, load)) == "0, 1"
    assert [9] + Apart({"count": 1}, load) == [9, {"Ann": 0}]
    assert sorted(Apart({"count": 2}, load), key=lambda r: -r["Ann"])[0] == {"Ann": 1}


def big_journal_sheet(home) -> tuple[Store, str, os.PathLike]:
    """A sheet whose journal is longer than both ends the action checks (2,000 rounds at the
    ends in use, 200 at the tests' own)."""
    store, sid = written_sheet(home, 2000 if LONG else 200)
    (path,) = [p for p in store.journal_paths(sid)]
    assert path.stat().st_size > 3 * jn.EDGE
    return Store(home), sid, path


def test_the_covered_bytes_are_checked_at_their_ends_in_the_same_file(tmp_path):
    store, sid, path = big_journal_sheet(tmp_path / "home")
    session = sessions.load(store, sid)
    assert isinstance(session._journal, sessions.Later)
    assert session.replay().state == truth(store, sid)
    # an entry near either end of what the snapshot covers, changed in place: read whole
    for where in (3, -3):
        store, sid, path = big_journal_sheet(tmp_path / f"home{where}")
        lines = path.read_text(encoding="utf-8").splitlines()
        n = where if where > 0 else len(lines) + where
        entry = json.loads(lines[n])
        entry["event"]["scores"]["Ann"] = 6 if entry["event"]["scores"]["Ann"] != 6 else 5  # the same size
        lines[n] = json.dumps(entry, separators=(",", ":"))
        with open(path, "r+", encoding="utf-8") as fh:  # in place: the same inode
            fh.write("".join(line + "\n" for line in lines))
        session = sessions.load(Store(store.root), sid)
        assert isinstance(session._journal, list), "the change was believed"
        assert session.replay().state == truth(store, sid)


def test_a_journal_replaced_by_a_sync_is_checked_whole(tmp_path):
    """Another inode (a sync engine or an editor wrote the file anew): every covered byte is
    checked, so a change in its middle is seen, and the same bytes still use the snapshot."""
    store, sid, path = big_journal_sheet(tmp_path / "home")
    text = path.read_bytes()
    path.unlink()
    path.write_bytes(text)
    session = sessions.load(Store(store.root), sid)
    assert isinstance(session._journal, sessions.Later)
    lines = text.decode("utf-8").splitlines()
    n = len(lines) // 2
    entry = json.loads(lines[n])
    entry["event"]["scores"]["Bob"] = 1 if entry["event"]["scores"]["Bob"] != 1 else 2
    lines[n] = json.dumps(entry, separators=(",", ":"))
    path.unlink()
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    session = sessions.load(Store(store.root), sid)
    assert isinstance(session._journal, list)
    assert session.replay().state == truth(store, sid)


def test_a_change_in_the_middle_is_seen_by_the_next_snapshot(tmp_path):
    """A same-size change in place in the middle of what a snapshot covers is not read by an
    action (it checks the ends); the next snapshot, which reads every byte, sees it: the old
    snapshot is dropped and the session is replayed from its journal."""
    store, sid, path = big_journal_sheet(tmp_path / "home")
    lines = path.read_text(encoding="utf-8").splitlines()
    n = len(lines) // 2
    entry = json.loads(lines[n])
    entry["event"]["scores"]["Bob"] = 1 if entry["event"]["scores"]["Bob"] != 1 else 2
    lines[n] = json.dumps(entry, separators=(",", ":"))
    with open(path, "r+", encoding="utf-8") as fh:
        fh.write("".join(line + "\n" for line in lines))
    held = None
    for i in range(recording.SNAPSHOT_EVERY):
        held = sessions.record(Store(store.root), sid, {"type": "add", "scores": {"Ann": 1}}, held)
        held = (held.session, held.replay)
    assert sessions.load(Store(store.root), sid).replay().state == truth(store, sid)


def test_a_part_named_with_more_bytes_than_it_holds_is_not_read(tmp_path):
    """A snapshot naming a part longer than its file (forged, or a file cut) reads nothing
    beyond the file and replays the journal instead."""
    store, sid = written_sheet(tmp_path / "home", 300)
    snap = snapshot(store, sid)
    snap["apart"]["rounds"]["bytes"] = 1 << 40
    store.write_snapshot(sid, {k: v for k, v in snap.items() if k != "check"})
    session = sessions.load(Store(store.root), sid)
    assert session.replay().state == truth(store, sid)


def test_a_snapshot_without_the_lock_writes_its_parts_anew(tmp_path):
    """A read holds no lock: its snapshot writes its parts as new files, never growing one
    in place that a writer may be growing too."""
    store, sid = written_sheet(tmp_path / "home", 300)
    before = snapshot(store, sid)["apart"]["rounds"]
    session = sessions.load(Store(store.root), sid)
    replay = session.replay()
    basis = store.journal_basis(sid, session.entries_from(session.length - 1)[0]["id"], session.length)
    snap = session.journaled_snapshot_of(replay, basis, store, appending=False)
    assert snap["apart"]["rounds"]["file"] != before["file"]
    assert store.read_snapshot_part(sid, before) == store.read_snapshot_part(sid, snap["apart"]["rounds"])
