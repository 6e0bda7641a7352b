"""The index of sessions keeps, beside each entry, the signature of the files it was read from,
and reads a session again when its files are no longer those (issue 30): never by comparing
times, which a sync sets as it likes and a loaded laptop writes late.

The cases the Syncthing trials met (tests/test_syncthing_trials.py), each made to happen here
every time: a journal a sync brings before this laptop's index is written for another reason;
a companion killed between its journal and its index while the index's check was stamped; and
sessions started in the same second on two laptops."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from sync_support import Laptop, put

from companion.core import index as index_module
from companion.core.store import Store

OLD = 1_600_000_000_000_000_000  # 2020: the time a sync may give a file it brings


def started(laptop: Laptop, players: str = "Ann,Bob") -> str:
    out = laptop.run("new", "scoresheet", "--players", players, expect=0).stdout
    return out.split()[2].rstrip(":")


def listed(laptop: Laptop) -> dict:
    return {e["id"]: e for e in laptop.json("sessions")}


def bring(src: Laptop, dst: Laptop, name: str) -> Path:
    """What Syncthing does with a file: written whole under a temporary name, renamed in, and
    given the other laptop's modification time (here an old one)."""
    target = dst.root / "sessions" / name
    put(target, (src.root / "sessions" / name).read_bytes())
    os.utime(target, ns=(OLD, OLD))
    return target


@pytest.fixture
def pair(tmp_path):
    return Laptop(tmp_path / "a", "Ann's laptop"), Laptop(tmp_path / "b", "Bob's laptop")


def test_a_journal_brought_before_the_index_is_written_for_another_reason(pair):
    """Laptop B lists a session of A's; A finishes it; the sync brings A's journal to B with
    an old time; B starts a game of its own (its index written after the journal arrived,
    without reading it). B lists A's session finished all the same."""
    a, b = pair
    sid = started(a)
    put(b.root / "sessions" / f"{sid}.json", (a.root / "sessions" / f"{sid}.json").read_bytes())
    assert listed(b)[sid]["finished"] is None
    a.run("--session", sid, "add", "Ann=3", "Bob=1", expect=0)
    a.run("--session", sid, "finish", expect=0)
    bring(a, b, f"{sid}.{a.device}.jsonl")
    started(b, "Cy,Dee")  # writes B's index, after the journal came and without reading it
    late = time.time_ns() + 1_000_000_000  # (on a loaded laptop, a second after)
    os.utime(Store(b.root).index_path, ns=(late, late))
    assert listed(b)[sid]["finished"] == listed(a)[sid]["finished"] is not None
    assert listed(b)[sid]["summary"] == listed(a)[sid]["summary"]


def stamped(laptop: Laptop, monkeypatch) -> None:
    """A check finding everything in step is stamped (cache/index-checked.json), so the next
    look skips the files, as on a laptop whose sessions folder has been quiet for a while
    (the two seconds waited for are not waited here)."""
    monkeypatch.setattr(index_module, "QUIET_NS", 0)
    for _ in range(2):  # the first look may write what it read; the next one finds all in step
        laptop.json("sessions")
    assert (laptop.root / ".local" / "cache" / "index-checked.json").exists()


class Killed(BaseException):
    """The companion dies here (kill -9): nothing after runs."""


def test_a_kill_between_the_journal_and_the_index_is_seen_through_the_stamp(pair, monkeypatch):
    """`finish` appends to the journal in place (the folder's time does not change) and dies
    before the index is written, while the index's check was stamped: the next `sessions`
    lists the game finished. Then the same for an undo of that finish."""
    a, _ = pair
    sid = started(a)
    a.run("add", "Ann=3", "Bob=1", expect=0)
    stamped(a, monkeypatch)
    from companion.core import index as indexing  # recording imports it when it records

    with monkeypatch.context() as m:
        m.setattr(indexing, "_sync_index", lambda *args: (_ for _ in ()).throw(Killed()))
        with pytest.raises(Killed):
            a.run("finish")
    assert json.loads(a.run("status", "--json", expect=0).stdout)["finished"]
    assert listed(a)[sid]["finished"] is not None
    assert listed(a)[sid]["summary"]["winners"] == ["Ann"]
    stamped(a, monkeypatch)
    with monkeypatch.context() as m:
        m.setattr(indexing, "_sync_index", lambda *args: (_ for _ in ()).throw(Killed()))
        with pytest.raises(Killed):
            a.run("undo")
    assert listed(a)[sid]["finished"] is None


def test_a_session_is_read_again_once_per_change(pair, monkeypatch):
    """A history command reads a session again only when its files changed since it was read:
    once after a change, then never (no session in play read at every command)."""
    a, b = pair
    done = started(a)
    a.run("add", "Ann=3", "Bob=1", expect=0)
    a.run("finish", expect=0)
    in_play = started(a, "Cy,Dee")
    a.run("add", "Cy=1", "Dee=2", expect=0)
    reads: list[str] = []
    real = index_module._entry_of
    monkeypatch.setattr(index_module, "_entry_of", lambda s: reads.append(s.id) or real(s))
    a.json("sessions")
    first = list(reads)
    reads.clear()
    a.json("sessions")
    a.json("stats")
    assert reads == [], f"read again with nothing changed: {reads} (first look read {first})"
    a.run("--session", in_play, "add", "Cy=2", "Dee=2", expect=0)
    a.json("sessions")
    assert reads == [in_play]
    reads.clear()
    a.json("sessions")
    assert reads == []
    # a journal a sync brings is read once, whatever time it carries
    put(b.root / "sessions" / f"{done}.json", (a.root / "sessions" / f"{done}.json").read_bytes())
    b.json("sessions")
    bring(a, b, f"{done}.{a.device}.jsonl")
    reads.clear()
    assert listed(b)[done]["finished"] is not None
    assert reads == [done]
    reads.clear()
    b.json("sessions")
    assert reads == []


def test_sessions_started_in_the_same_second_list_alike_on_every_laptop(pair, monkeypatch):
    """Two laptops each start games within the same second; once their files met, both list
    them in one order (by start, then id), and `stats` agrees; one laptop's own games started
    within a second keep the order it started them."""
    a, b = pair
    from companion.core import recording

    monkeypatch.setattr(recording, "now", lambda: "2026-12-05T20:00:00+00:00")
    mine = [started(a, f"Ann,P{n}") for n in range(6)]
    theirs = [started(b, f"Bob,Q{n}") for n in range(3)]
    assert [e["id"] for e in a.json("sessions")] == mine, "a laptop's own: in the order it started them"
    for sid in mine:
        put(b.root / "sessions" / f"{sid}.json", (a.root / "sessions" / f"{sid}.json").read_bytes())
    for sid in theirs:
        put(a.root / "sessions" / f"{sid}.json", (b.root / "sessions" / f"{sid}.json").read_bytes())
    order = [e["id"] for e in a.json("sessions")]
    assert order == [e["id"] for e in b.json("sessions")] == sorted(mine + theirs)
    for sid in [mine[0], theirs[0], mine[1]]:  # the games end in one second as well, on both laptops
        laptop = a if sid in mine else b
        laptop.run("--session", sid, "add", "Ann=1" if sid in mine else "Bob=1", expect=0)
        laptop.run("--session", sid, "finish", expect=0)
        other = b if laptop is a else a
        put(other.root / "sessions" / f"{sid}.{laptop.device}.jsonl",
            (laptop.root / "sessions" / f"{sid}.{laptop.device}.jsonl").read_bytes())
    assert a.json("stats") == b.json("stats")
    assert a.json("sessions", "--deleted") == b.json("sessions", "--deleted")


def test_an_import_is_not_read_again_by_the_next_look(pair, monkeypatch, tmp_path):
    """The sessions an import writes are listed with the signatures of the files it wrote: the
    next history command reads none of them again (at 50,000 plays that would be a rebuild);
    a session it continues is read again once."""
    a, b = pair
    played = [a.run("played", "scoresheet", "--players", f"Ann={n},Bob=3", expect=0) for n in range(4)]
    assert all(r.exit_code == 0 for r in played)
    sid = started(a)
    a.run("add", "Ann=1", "Bob=1", expect=0)
    export = tmp_path / "club.json"
    a.run("export", "-o", str(export), expect=0)
    b.run("import", str(export), expect=0)
    reads: list[str] = []
    real = index_module._entry_of
    monkeypatch.setattr(index_module, "_entry_of", lambda s: reads.append(s.id) or real(s))
    assert len(b.json("sessions")) == 5
    assert reads == []
    a.run("add", "Ann=2", "Bob=2", expect=0)
    a.run("export", "-o", str(export), "--force", expect=0)
    reads.clear()  # (laptop A's export read its session again: it changed)
    b.run("import", str(export), expect=0)
    mine, theirs = listed(b)[sid], listed(a)[sid]
    assert {**mine, "current": None} == {**theirs, "current": None}  # (each laptop's own current session)
    assert reads == [sid]
