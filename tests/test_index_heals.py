"""The index is a cache of the session files that heals itself (issue 12, item 2), and
messages say "nothing was changed" only when that is true."""

from __future__ import annotations

import errno
import json
import os

from companion.contract.errors import StoreError
from companion.core.store import Store


def new(run, players="Ann,Bob") -> str:
    return run(["new", "scoresheet", "--players", players], expect=0).stdout.split()[2].rstrip(":")


def listed(run) -> dict:
    return {e["id"]: e for e in json.loads(run(["sessions", "--json"], expect=0).stdout)}


def full_index(monkeypatch):
    def full(self, entry, *args, **kwargs):
        raise StoreError(f"Could not write {self.index_path}: {os.strerror(errno.ENOSPC)}. Nothing was changed.")

    monkeypatch.setattr(Store, "index_put", full)


def test_a_finish_whose_index_update_failed_is_saved_and_said_so(run, monkeypatch):
    sid = new(run)
    run(["add", "Ann=3"], expect=0)
    with monkeypatch.context() as m:
        full_index(m)
        result = run(["finish"], expect=0)  # the action is in the journal: it worked
    assert "Nothing was changed" not in result.stderr
    assert f"Saved in" in result.stderr and f"{sid}.json" in result.stderr and "index" in result.stderr
    entry = listed(run)[sid]
    assert entry["finished"] and entry["summary"]["winners"] == ["Ann"], "sessions agrees with status"
    assert json.loads(run(["status", "--json"], expect=0).stdout)["finished"]
    stats = json.loads(run(["stats", "--json"], expect=0).stdout)
    assert "Ann" in json.dumps(stats)


def finish_in_the_journal_only(home, sid: str) -> Store:
    """A `finish` that reached the journal while the index write never happened (a kill)."""
    store = Store(home)
    with store.writing():
        store.append(sid, {"kind": "do", "event": {"type": "finish"}, "at": "2026-11-30T20:00:00+00:00"})
    os.utime(store.index_path, ns=(1, 1))  # the index is older than the journal
    return store


def test_a_kill_between_the_journal_and_the_index(run, home):
    """The finish reached the journal, the index write never happened (as after a kill)."""
    sid = new(run)
    run(["add", "Ann=3"], expect=0)
    store = finish_in_the_journal_only(home, sid)
    assert listed(run)[sid]["finished"] == "2026-11-30T20:00:00+00:00"
    # and the other way: an undo reaching the journal only
    with store.writing():
        store.append(sid, {"kind": "undo", "at": "2026-11-30T20:01:00+00:00"})
    assert listed(run)[sid]["finished"] is None
    run(["finish"], expect=0)  # the retry is accepted, since the game really is in play


def test_new_on_a_full_disk_says_what_was_saved(run, monkeypatch, home):
    new(run)
    with monkeypatch.context() as m:
        full_index(m)
        result = run(["new", "scoresheet", "--players", "Cy,Dee"], expect=0)
    sid = result.stdout.split()[2].rstrip(":")
    assert "Nothing was changed" not in result.stderr and "Saved in" in result.stderr
    assert sid in listed(run), "the session is listed: a retry would have made a duplicate"


def test_an_index_entry_whose_file_is_gone_is_dropped(run, home):
    a, b = new(run), new(run, "Cy,Dee")
    (home / "sessions" / f"{a}.json").unlink()
    assert set(listed(run)) == {b}


def test_a_read_only_folder_still_answers_with_the_healed_index(run, home):
    sid = new(run)
    run(["add", "Ann=1"], expect=0)
    store = finish_in_the_journal_only(home, sid)
    before = store.index_path.read_bytes()

    def read_only(*a, **k):
        raise StoreError(f"The data folder {home} is read-only (Read-only file system): reading commands work.")

    import contextlib

    with contextlib.ExitStack() as stack:
        from _pytest.monkeypatch import MonkeyPatch

        m = MonkeyPatch()
        stack.callback(m.undo)
        m.setattr(Store, "writing", read_only)
        assert listed(run)[sid]["finished"]
        assert store.index_path.read_bytes() == before
