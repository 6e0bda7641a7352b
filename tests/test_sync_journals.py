"""One writer per session file (issue 30): each laptop appends a session's events to its own
journal of it, the session is the merge of its devices' journals, and an old single-file
session is read as one device's journal and continued without being rewritten."""

from __future__ import annotations

import itertools
import json
import os
import shutil
from pathlib import Path

from sync_support import Engine, Laptop

from companion.core import session as sessions
from companion.core.device import DEVICE_PATTERN, device_id, device_name, set_device_name
from companion.core.journals import BASE, merge
from companion.core.store import Store

FIXTURE = Path(__file__).parent / "fixtures" / "before-30"


def test_a_device_id_is_made_once_and_kept_outside_what_is_synced(tmp_path):
    store = Store(tmp_path / "home")
    first = device_id(store)
    assert DEVICE_PATTERN.fullmatch(first)
    assert device_id(Store(tmp_path / "home")) == first  # stable across processes
    doc = json.loads((tmp_path / "home" / ".local" / "device.json").read_text())
    assert doc["device"]["1"]["id"] == first and doc["_schema"]["kind"] == "device"
    import socket

    assert device_name(Store(tmp_path / "home")) == socket.gethostname()
    set_device_name(Store(tmp_path / "home"), "Ann's laptop")
    assert device_name(Store(tmp_path / "home")) == "Ann's laptop"
    assert device_id(Store(tmp_path / "other")) != first  # another data folder, another id


def test_an_action_appends_one_line_to_this_laptops_journal(tmp_path):
    ann = Laptop(tmp_path / "ann", "Ann's laptop")
    ann.run("new", "scoresheet", "--players", "Ann,Bob", expect=0)
    sid = ann.json("status")["session"]
    base = ann.root / "sessions" / f"{sid}.json"
    before = (base.read_bytes(), base.stat().st_ino)
    ann.run("add", "Ann=3", "Bob=4", expect=0)
    ann.run("add", "Ann=1", "Bob=2", expect=0)
    ann.run("undo", expect=0)
    assert (base.read_bytes(), base.stat().st_ino) == before  # the session's file is never rewritten
    journal = ann.root / "sessions" / f"{sid}.{ann.device}.jsonl"
    lines = [json.loads(line) for line in journal.read_text().splitlines()]
    assert lines[0]["device"] == ann.device and lines[0]["name"] == "Ann's laptop"
    assert [(e["id"], e["parent"], e["kind"]) for e in lines[1:]] == [
        (f"{ann.device}:1", None, "do"), (f"{ann.device}:2", f"{ann.device}:1", "do"),
        (f"{ann.device}:3", f"{ann.device}:2", "undo")]
    assert [p["score"] for p in ann.json("status")["players"]] == [3, 4]
    ann.run("redo", expect=0)
    assert [p["score"] for p in ann.json("status")["players"]] == [4, 6]
    assert oct(journal.stat().st_mode & 0o777) == "0o600"


def test_an_old_single_file_session_reads_as_before_and_goes_on_in_a_journal(tmp_path):
    home = tmp_path / "home"
    shutil.copytree(FIXTURE, home)
    old = Laptop(home, "Old laptop")
    base = home / "sessions" / "ngxu1elb.json"
    text = base.read_bytes()
    status = old.json("status")
    assert [p["rounds"] for p in status["players"]] == [[3, 2], [4, 2]]  # an undo between the rounds
    old.run("add", "Ann=10", "Bob=10", expect=0)
    assert base.read_bytes() == text  # nothing migrated, nothing rewritten
    journal = home / "sessions" / f"ngxu1elb.{old.device}.jsonl"
    entry = json.loads(journal.read_text().splitlines()[1])
    assert entry["parent"] == f"{BASE}:4"  # it follows the old file's last entry
    assert [p["score"] for p in old.json("status")["players"]] == [15, 16]
    old.run("undo", expect=0)
    old.run("undo", expect=0)  # undo goes on along the log, into the old file's entries
    assert [p["rounds"] for p in old.json("status")["players"]] == [[3], [4]]
    exported = json.loads(old.run("export", expect=0).stdout)
    kinds = [e["kind"] for e in exported["sessions"][0]["journal"]]
    assert kinds == ["do", "do", "undo", "do", "do", "undo", "undo"]
    assert all(set(e) <= {"kind", "at", "event"} for e in exported["sessions"][0]["journal"])


def test_two_laptops_taking_turns_make_one_session(tmp_path):
    ann, bob, engine = Laptop(tmp_path / "ann", "Ann"), Laptop(tmp_path / "bob", "Bob"), Engine()
    ann.run("new", "scoresheet", "--players", "Ann,Bob", expect=0)
    sid = ann.json("status")["session"]
    ann.run("add", "Ann=1", "Bob=1", expect=0)
    engine.sync(ann, bob)
    bob.run("use", sid, expect=0)
    bob.run("add", "Ann=2", "Bob=2", expect=0)
    bob.run("undo", expect=0)
    bob.run("add", "Ann=5", "Bob=5", expect=0)
    engine.sync(ann, bob)
    ann.run("add", "Ann=7", "Bob=7", expect=0)
    engine.sync(ann, bob)
    assert ann.json("status") == bob.json("status")
    assert [p["rounds"] for p in ann.json("status")["players"]] == [[1, 5, 7], [1, 5, 7]]
    assert ann.json("sessions") == bob.json("sessions")
    assert not ann.json("sessions")[0].get("fork")
    assert engine.conflicts == 0


def test_the_merge_is_the_same_whatever_order_the_journals_come_in():
    def e(dev, n, parent, kind="do", at="2026-12-04T20:00:00+00:00"):
        return {"id": f"{dev}:{n}", "parent": parent, "kind": kind, "event": {"type": "add"}, "at": at}

    base = [{"kind": "do", "event": {"type": "add"}, "at": "t"}] * 2
    journals = {
        "aaaaaaaaaa": [e("aaaaaaaaaa", 1, "base:2"), e("aaaaaaaaaa", 2, "aaaaaaaaaa:1")],
        "bbbbbbbbbb": [e("bbbbbbbbbb", 1, "aaaaaaaaaa:2"), e("bbbbbbbbbb", 2, "bbbbbbbbbb:1", "undo")],
        "cccccccccc": [e("cccccccccc", 1, "bbbbbbbbbb:2")],
    }
    results = set()
    for order in itertools.permutations(journals):
        merged = merge(base, {k: journals[k] for k in order})
        results.add(json.dumps([merged.line, merged.head, merged.fork]))
        assert merged.fork is None and len(merged.line) == 7 and merged.head == "cccccccccc:1"
    assert len(results) == 1
    # an entry whose parent has not arrived yet waits; it is neither lost nor a fork
    waiting = merge(base, {"cccccccccc": journals["cccccccccc"]})
    assert waiting.fork is None and len(waiting.line) == 2 and waiting.waiting == 1


def test_a_line_a_killed_write_left_unfinished_is_no_entry_and_is_cut(tmp_path):
    store = Store(tmp_path / "home")
    s = sessions.create(store, "scoresheet", ["Ann", "Bob"], {"lowest_wins": False, "target": None})
    sessions.record(store, s.id, {"type": "add", "scores": {"Ann": 1}})
    journal = store.sessions_dir / f"{s.id}.{device_id(store)}.jsonl"
    with open(journal, "a") as fh:
        fh.write('{"id":"x:9","parent":null,"kind":"do","ev')  # a kill in the middle of a line
    fresh = Store(tmp_path / "home")
    assert sessions.load(fresh, s.id).replay().count == 1
    sessions.record(fresh, s.id, {"type": "add", "scores": {"Ann": 2}})
    lines = journal.read_text().splitlines()
    assert len(lines) == 3 and all(json.loads(line) for line in lines)
    assert sessions.load(Store(tmp_path / "home"), s.id).replay().count == 2
    assert os.stat(journal).st_size == len(journal.read_bytes())


def test_a_fork_resolved_inside_a_branch_before_the_branch_was_chosen_is_still_shown():
    """Found by the long random trials: Cy's fork inside Ann's branch was resolved on Ann's
    laptop, and Bob then chose both branches without having seen that resolution. What followed
    it is neither played as if chosen nor dropped: it is a branch where the line stops."""
    def e(dev, n, parent, kind="do", **more):
        return {"id": f"{dev}:{n}", "parent": parent, "kind": kind, "event": {"type": "add"}, "at": "t", **more}

    a, b, c = "aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc"
    journals = {
        a: [e(a, 1, None), e(a, 2, f"{a}:1"),
            e(a, 3, f"{a}:1", "resolve", keep=[f"{a}:2", f"{c}:1"], aside=[], tips={f"{a}:2": f"{a}:2", f"{c}:1": f"{c}:1"}),
            e(a, 4, f"{a}:3")],
        b: [e(b, 1, None), e(b, 2, None, "resolve", keep=[f"{a}:1", f"{b}:1"], aside=[],
                              tips={f"{a}:1": f"{a}:2", f"{b}:1": f"{b}:1"})],
        c: [e(c, 1, f"{a}:1")],
    }
    merged = merge([], journals)
    shown = {n for n, x in merged.nodes.items() if any(x is y for y in merged.line)}
    assert merged.fork is not None
    for branch in merged.fork.branches:
        stack = [branch["first"]]
        while stack:
            n = stack.pop()
            shown.add(n)
            stack += [k for k, p in merged.parents.items() if p == n]
    assert shown == set(merged.nodes)  # every entry on the line or on a branch shown
