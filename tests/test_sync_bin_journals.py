"""The two halves of issue 30 together: the bin as a per-device log (companion.core.shared_log)
and the sessions as per-device journals (companion.core.journals). A session deleted on one
laptop while another went on playing it loses nothing: the journals never move, and `restore`
brings back every laptop's rounds, on every laptop."""

from __future__ import annotations

from sync_support import Engine, Laptop


def rounds(laptop: Laptop, sid: str) -> dict:
    return {p["name"]: p["rounds"] for p in laptop.json("status", "--session", sid)["players"]}


def test_a_round_played_on_one_laptop_while_another_deleted_the_session_comes_back_with_restore(tmp_path):
    ann, bob, engine = Laptop(tmp_path / "ann", "Ann's laptop"), Laptop(tmp_path / "bob", "Bob's laptop"), Engine()
    ann.run("new", "scoresheet", "--players", "Ann,Bob", expect=0)
    sid = ann.json("status")["session"]
    ann.run("add", "Ann=1", "Bob=1", expect=0)
    engine.sync(ann, bob)
    bob.run("use", sid, expect=0)
    ann.run("delete", sid, "--yes", expect=0)  # while apart: Ann deletes it, Bob plays a round
    bob.run("add", "Ann=2", "Bob=7", expect=0)
    engine.sync(ann, bob)
    for laptop in (ann, bob):
        assert sid not in [r["id"] for r in laptop.json("sessions")]
        assert sid in [r["id"] for r in laptop.json("sessions", "--deleted")]
    refused = bob.run("add", "Ann=3", "Bob=3", expect=1).output  # a deleted session takes no more
    assert "is gone" in refused and len(refused.strip().splitlines()) == 1
    ann.run("restore", sid, expect=0)
    engine.sync(ann, bob)
    for laptop in (ann, bob):
        assert sid in [r["id"] for r in laptop.json("sessions")]
        assert rounds(laptop, sid) == {"Ann": [1, 2], "Bob": [1, 7]}  # Bob's round, kept in his journal
