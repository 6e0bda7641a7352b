"""The json export of sessions kept in laptops' journals (issue 30, item 5): a session played on
one laptop is read from its two files directly (50,000 of them: 36 s through the store's merge),
and every other (several laptops, a conflict copy, a line cut by a kill) through the merge, so
the export says exactly what the store's read says."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from companion.core import journals as jn
from companion.core import session as sessions
from companion.core.store import Store
from companion.record import json_export

FIXTURE = Path(__file__).parent / "fixtures" / "before-30"


def item(store: Store, sid: str) -> str:
    listing = store.journal_listing()
    return json_export._session_item(store, sid, str(store.sessions_dir), tuple(listing.get(sid, ())))


def merged(store: Store, sid: str) -> str:
    meta, journal = Store(store.root).read_session(sid)
    return json_export._ENCODE({"meta": meta, "journal": journal})


def played(store: Store, rounds: int = 4) -> str:
    s = sessions.create(store, "scoresheet", ["Ann", "Zoë"], {"lowest_wins": False, "target": None})
    for i in range(rounds):
        sessions.record(store, s.id, {"type": "add", "scores": {"Ann": i, "Zoë": 2 * i}})
    sessions.step(store, s.id, "undo")
    sessions.record(store, s.id, {"type": "note", "text": "Zoë paid 12 € \"for\" the pizza}}"})
    return s.id


def test_a_session_of_one_laptop_is_read_from_its_files_as_the_merge_reads_it(tmp_path, monkeypatch):
    store = Store(tmp_path / "home")
    sid = played(store)
    calls = []
    monkeypatch.setattr(Store, "read_merged", lambda self, s: calls.append(s))  # never asked
    got = item(store, sid)
    monkeypatch.undo()
    assert not calls and got == merged(store, sid)
    assert [e["kind"] for e in json.loads(got)["journal"]] == ["do"] * 4 + ["undo", "do"]


def test_an_old_session_continued_in_a_journal(tmp_path):
    home = tmp_path / "home"
    shutil.copytree(FIXTURE, home)
    store = Store(home)
    sessions.record(store, "ngxu1elb", {"type": "add", "scores": {"Ann": 10, "Bob": 10}})
    got = item(Store(home), "ngxu1elb")
    assert got == merged(store, "ngxu1elb") and len(json.loads(got)["journal"]) == 5


def test_two_laptops_a_conflict_copy_and_a_cut_line_take_the_merge(tmp_path):
    store = Store(tmp_path / "home")
    sid = played(store)
    (mine,) = store.journal_paths(sid)
    lines = mine.read_text(encoding="utf-8").splitlines()
    # a line a killed write left unfinished: neither read counts it
    with open(mine, "a", encoding="utf-8") as fh:
        fh.write('{"id":"' + mine.name.split(".")[1] + ':99","parent":nul')
    assert item(Store(store.root), sid) == merged(store, sid)
    # another laptop went on from the last entry
    other = "0123456789"
    last = json.loads(lines[-1])["id"]
    entry = {"id": f"{other}:1", "parent": last, "kind": "do", "event": {"type": "add", "scores": {"Ann": 5}},
             "at": "2026-12-05T03:00:00"}
    (store.sessions_dir / f"{sid}.{other}.jsonl").write_text(
        json.dumps(jn.header(other, "Bob's laptop", sid)) + "\n" + json.dumps(entry) + "\n", encoding="utf-8")
    store = Store(store.root)
    store.forget_listing()
    got = item(store, sid)
    assert got == merged(store, sid) and json.loads(got)["journal"][-1]["event"]["scores"] == {"Ann": 5}
    # a conflict copy of that laptop's journal
    shutil.copy(store.sessions_dir / f"{sid}.{other}.jsonl",
                store.sessions_dir / f"{sid}.{other}.sync-conflict-20261205-030000-ABCDEFG.jsonl")
    store = Store(store.root)
    store.forget_listing()
    assert item(store, sid) == merged(store, sid)


def test_a_journal_edited_out_of_its_line_takes_the_merge(tmp_path):
    """A journal whose entries do not follow each other (edited by hand) is the merge's to
    read: the export says what `status` and `log` say."""
    store = Store(tmp_path / "home")
    sid = played(store)
    (mine,) = store.journal_paths(sid)
    lines = mine.read_text(encoding="utf-8").splitlines()
    lines[2], lines[3] = lines[3], lines[2]
    mine.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert item(Store(store.root), sid) == merged(store, sid)
