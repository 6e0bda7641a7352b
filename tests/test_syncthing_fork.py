"""A session continued on two laptops while their real Syncthing was paused (issue 30's trial):
both laptops then show the same fork, nothing acknowledged is lost, and the choice made on one
laptop reaches the other through Syncthing. Skipped, saying why, when syncthing is absent.

The two laptops are tests/syncthing_support.py's, as in the trials: each data folder set up by
`companion sync setup`, and "in sync" asked of each Syncthing's REST API (idle, nothing needed,
every peer complete) before the files are compared, not waited for as three quiet seconds."""

from __future__ import annotations

import pytest
from syncthing_support import SYNCTHING, Cluster
from sync_support import Laptop

pytestmark = pytest.mark.skipif(SYNCTHING is None, reason="syncthing is not installed (apt-get install syncthing)")


class Pair:
    """Two laptops' Syncthing: paused together (the Wi-Fi drops), and asked when they agree."""

    def __init__(self, root):
        self.cluster = Cluster(root, 2)

    def __enter__(self) -> "Pair":
        return self

    def __exit__(self, *exc) -> None:
        self.cluster.close()

    def pause(self) -> None:
        self.cluster.pause(self.cluster.nodes)

    def resume(self) -> None:
        self.cluster.resume_all()

    def converged(self) -> bool:
        self.cluster.wait_in_sync()  # raises, saying what differs, after 120 s
        return True


def test_a_session_continued_on_two_paused_laptops_forks_and_is_resolved_through_syncthing(tmp_path):
    with Pair(tmp_path) as pair:
        ann, bob = pair.cluster.folders
        ann_laptop, bob_laptop = Laptop(ann, "Ann's laptop"), Laptop(bob, "Bob's laptop")
        ann_laptop.run("new", "scoresheet", "--players", "Ann,Bob", expect=0)
        sid = ann_laptop.json("status")["session"]
        ann_laptop.run("add", "Ann=1", "Bob=1", expect=0)
        assert pair.converged(), "the two Syncthing instances did not sync the new session"
        bob_laptop.run("use", sid, expect=0)
        pair.pause()  # the Wi-Fi drops: both go on
        for i in range(3):
            ann_laptop.run("add", f"Ann={10 + i}", "Bob=0", expect=0)
        for i in range(2):
            bob_laptop.run("add", "Ann=0", f"Bob={20 + i}", expect=0)
        pair.resume()
        assert pair.converged(), "the two Syncthing instances did not sync after the pause"
        seen = [laptop.json("status") for laptop in (ann_laptop, bob_laptop)]
        assert seen[0] == seen[1] and seen[0]["fork"]["after_moves"] == 1
        assert sorted(b["moves"] for b in seen[0]["fork"]["branches"]) == [2, 3]
        assert [r["fork"] for r in ann_laptop.json("sessions")] == [r["fork"] for r in bob_laptop.json("sessions")]
        bob_laptop.run("sync", "resolve", sid, "--both", expect=0)
        assert pair.converged(), "the choice did not reach Ann's laptop"
        after = [laptop.json("status") for laptop in (ann_laptop, bob_laptop)]
        assert after[0] == after[1] and after[0].get("fork") is None
        rounds = [p["rounds"] for p in after[0]["players"]]
        assert sorted(rounds[0][1:]) == [0, 0, 10, 11, 12] and sorted(rounds[1][1:]) == [0, 0, 0, 20, 21]
        assert ann_laptop.json("stats") == bob_laptop.json("stats")
        conflicts = [p for d in (ann, bob) for p in d.rglob("*sync-conflict*")]
        assert not conflicts, conflicts
