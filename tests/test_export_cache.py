"""This machine's cache of the json export's items (issue 30): a finished session's item is
kept under the signature of its files and written from the cache while they are unchanged; a
session whose files changed in any way is read from them again, and a damaged cache is rebuilt,
so the export is the same byte for byte with or without it."""

from __future__ import annotations

import json
import os

import pytest

from companion.core import session as sessions
from companion.core.store import Store
from companion.record import export_cache, exporting, json_export


@pytest.fixture(autouse=True)
def no_quiet_wait(monkeypatch):
    # files written by the test are seconds younger than the two seconds the cache waits for
    monkeypatch.setattr(export_cache, "QUIET_NS", 0)


def finished(store: Store, rounds: int = 3) -> str:
    s = sessions.create(store, "scoresheet", ["Ann", "Zoë"], {"lowest_wins": False, "target": None})
    for i in range(rounds):
        sessions.record(store, s.id, {"type": "add", "scores": {"Ann": i, "Zoë": 2 * i}})
    sessions.record(store, s.id, {"type": "finish"})
    return s.id


def exported(home) -> dict:
    text, _ = exporting.export(Store(home), "json")
    doc = json.loads(text)
    doc.pop("exported_at")
    return doc


def without_cache(home) -> dict:
    cache = Store(home).cache_dir / export_cache.CACHE_NAME
    kept = cache.read_bytes() if cache.exists() else None
    cache.unlink(missing_ok=True)
    try:
        text, _ = exporting.export(Store(home), "json")
    finally:
        if kept is not None:
            cache.write_bytes(kept)
    doc = json.loads(text)
    doc.pop("exported_at")
    return doc


def reads(monkeypatch) -> list[str]:
    calls: list[str] = []
    real = json_export._session_item
    monkeypatch.setattr(json_export, "_session_item", lambda store, sid, *a: calls.append(sid) or real(store, sid, *a))
    return calls


def test_finished_sessions_are_written_from_the_cache_the_same(tmp_path, monkeypatch):
    home = tmp_path / "home"
    store = Store(home)
    ids = [finished(store) for _ in range(3)]
    first_text, _ = exporting.export(Store(home), "json")
    calls = reads(monkeypatch)
    second_text, _ = exporting.export(Store(home), "json")
    assert calls == []  # no session's files opened: every item from the cache
    strip = lambda t: "\n".join(l for l in t.split("\n") if '"exported_at"' not in l)
    assert strip(first_text) == strip(second_text)
    assert [s["meta"]["id"] for s in json.loads(second_text)["sessions"]] == ids


def test_a_session_changed_after_it_was_kept_is_read_again(tmp_path, monkeypatch):
    home = tmp_path / "home"
    store = Store(home)
    a, b = finished(store), finished(store)
    exported(home)
    sessions.record(store, b, {"type": "note", "text": "Zoë paid the pizza"})  # appended to its journal
    journal = next(p for p in Store(home).journal_paths(a))
    text = journal.read_text(encoding="utf-8")
    journal.write_text(text.replace('"Ann":2', '"Ann":7'), encoding="utf-8")  # same size, in place
    calls = reads(monkeypatch)
    got = exported(home)
    assert sorted(calls) == sorted([a, b])
    assert got == without_cache(home)
    assert "Zoë paid the pizza" in json.dumps(got, ensure_ascii=False) and '"Ann": 7' in json.dumps(got)
    monkeypatch.undo()
    calls = reads(monkeypatch)
    assert exported(home) == got and calls == []  # kept again under their new signatures


def test_a_damaged_cache_is_never_trusted_and_is_rebuilt(tmp_path, monkeypatch):
    home = tmp_path / "home"
    store = Store(home)
    ids = [finished(store) for _ in range(3)]
    good = exported(home)
    cache = Store(home).cache_dir / export_cache.CACHE_NAME
    lines = cache.read_bytes().split(b"\n")
    lines[1] = lines[1].replace(b'"Ann"', b'"Bob"')  # an item changed: its CRC-32 no longer matches
    lines[2] = lines[2][: len(lines[2]) // 2]  # a line cut short
    cache.write_bytes(b"\n".join(lines))
    calls = reads(monkeypatch)
    assert exported(home) == good and len(calls) == 2
    cache.write_bytes(b"not a cache\n" + cache.read_bytes())
    assert exported(home) == good and len(calls) == 5
    assert exported(home) == good and len(calls) == 5  # rebuilt
    assert set(ids) == {line.split(b"\t")[0].decode() for line in cache.read_bytes().split(b"\n")[1:] if line}


def test_an_unfinished_session_is_not_kept(tmp_path):
    home = tmp_path / "home"
    store = Store(home)
    done = finished(store)
    s = sessions.create(store, "scoresheet", ["Ann", "Zoë"], {"lowest_wins": False, "target": None})
    sessions.record(store, s.id, {"type": "add", "scores": {"Ann": 1, "Zoë": 2}})
    got = exported(home)
    assert [x["meta"]["id"] for x in got["sessions"]] == [done, s.id]
    kept = (Store(home).cache_dir / export_cache.CACHE_NAME).read_bytes().split(b"\n")[1:]
    assert [line.split(b"\t")[0].decode() for line in kept if line] == [done]
    assert os.stat(Store(home).cache_dir / export_cache.CACHE_NAME).st_mode & 0o077 == 0


def test_delete_leaves_no_copy_of_the_session_in_the_cache(tmp_path):
    from companion.record import trash

    home = tmp_path / "home"
    store = Store(home)
    keep, gone = finished(store), finished(store)
    exported(home)
    cache = Store(home).cache_dir / export_cache.CACHE_NAME
    assert gone.encode() in cache.read_bytes()
    trash.delete(Store(home), gone)
    assert not cache.exists() or gone.encode() not in cache.read_bytes()
    assert [x["meta"]["id"] for x in exported(home)["sessions"]] == [keep]
    assert gone.encode() not in cache.read_bytes()
