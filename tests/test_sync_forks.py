"""A fork is shown, never lost (issue 30): two laptops continuing one session from the same
point, every laptop showing the same fork, `sync resolve` keeping one branch or playing both,
the choice travelling like any action, and a sync engine's conflict copy of a journal merged."""

from __future__ import annotations

import json
import random

from long_mode import scaled
from sync_support import Engine, Laptop, conflict_name, put

from companion.core.journals import RESOLVE, _path
from companion.core.store import Store


def two_laptops(tmp_path, rounds_a=3, rounds_b=2):
    """Ann's and Bob's laptops, one score sheet of one round synced to both, then continued
    on both while their sync was paused: ``rounds_a`` rounds on Ann's, ``rounds_b`` on Bob's."""
    ann, bob, engine = Laptop(tmp_path / "ann", "Ann's laptop"), Laptop(tmp_path / "bob", "Bob's laptop"), Engine()
    ann.run("new", "scoresheet", "--players", "Ann,Bob", expect=0)
    sid = ann.json("status")["session"]
    ann.run("add", "Ann=1", "Bob=1", expect=0)
    engine.sync(ann, bob)
    bob.run("use", sid, expect=0)
    for i in range(rounds_a):
        ann.run("add", f"Ann={10 + i}", "Bob=0", expect=0)
    for i in range(rounds_b):
        bob.run("add", "Ann=0", f"Bob={20 + i}", expect=0)
    engine.sync(ann, bob)
    return ann, bob, engine, sid


def same_everywhere(*laptops):
    """Every laptop shows the same sessions, stats and statuses (whose is current aside)."""
    def view(laptop):
        rows = [dict(r, current=None) for r in laptop.json("sessions")]
        statuses = [laptop.json("status", "--session", r["id"]) for r in rows]
        return rows, laptop.json("stats"), statuses

    first = view(laptops[0])
    for other in laptops[1:]:
        assert view(other) == first
    return first


def test_both_laptops_show_the_same_fork_and_refuse_to_go_on(tmp_path):
    ann, bob, _engine, sid = two_laptops(tmp_path)
    rows, _stats, (status,) = same_everywhere(ann, bob)
    assert rows[0]["fork"] == status["fork"]
    fork = status["fork"]
    assert fork["after_moves"] == 1
    # the branches in the order they began (by time, then by laptop id: the same on every laptop)
    assert sorted((b["name"], b["moves"]) for b in fork["branches"]) == [("Ann's laptop", 3), ("Bob's laptop", 2)]
    said = " ".join(ann.run("status", expect=0).stdout.split())
    assert ("forked after move 1: 3 moves on Ann's laptop; 2 moves on Bob's laptop" in said
            or "forked after move 1: 2 moves on Bob's laptop; 3 moves on Ann's laptop" in said)
    assert "fork" in bob.run("sessions", expect=0).stdout
    for laptop in (ann, bob):
        for line in (["add", "Ann=5"], ["undo"], ["note", "late"]):
            err = laptop.run(*line, expect=1).stderr
            assert err.count("\n") == 1 and f"companion sync resolve {sid}" in err


def test_keeping_one_branch_sets_the_other_aside_and_every_laptop_follows(tmp_path):
    ann, bob, engine, sid = two_laptops(tmp_path)
    journals = {laptop.name: sorted((laptop.root / "sessions").glob(f"{sid}.*.jsonl")) for laptop in (ann, bob)}
    said = bob.run("sync", "resolve", sid, "--keep", "ann's laptop", expect=0).stdout
    assert "Kept 3 moves on Ann's laptop; set aside (kept in the journal, not played): 2 moves on Bob's laptop" in said
    assert bob.json("status").get("fork") is None
    assert [p["rounds"] for p in bob.json("status")["players"]] == [[1, 10, 11, 12], [1, 0, 0, 0]]
    # Ann's laptop still shows the fork until the choice reaches it; then the same session
    assert ann.json("status")["fork"]
    engine.sync(ann, bob)
    same_everywhere(ann, bob)
    assert ann.json("status").get("fork") is None
    # the set-aside rounds are still in Bob's journal: nothing was deleted
    text = (bob.root / "sessions" / f"{sid}.{bob.device}.jsonl").read_text()
    assert '"Bob":20' in text and '"Bob":21' in text
    assert all(path.exists() for paths in journals.values() for path in paths)
    ann.run("add", "Ann=7", "Bob=7", expect=0)
    engine.sync(ann, bob)
    assert [p["score"] for p in bob.json("status")["players"]] == [41, 8]
    same_everywhere(ann, bob)


def test_both_branches_are_played_one_after_the_other(tmp_path):
    ann, bob, engine, sid = two_laptops(tmp_path)
    first = ann.json("status")["fork"]["branches"][0]["name"]
    said = ann.run("sync", "resolve", sid, "--both", expect=0).stdout
    engine.sync(ann, bob)
    _rows, stats, (status,) = same_everywhere(ann, bob)
    if first == "Ann's laptop":
        assert "Played one after the other: 3 moves on Ann's laptop; 2 moves on Bob's laptop" in said
        assert [p["rounds"] for p in status["players"]] == [[1, 10, 11, 12, 0, 0], [1, 0, 0, 0, 20, 21]]
    else:
        assert "Played one after the other: 2 moves on Bob's laptop; 3 moves on Ann's laptop" in said
        assert [p["rounds"] for p in status["players"]] == [[1, 0, 0, 10, 11, 12], [1, 20, 21, 0, 0, 0]]
    assert "Nothing to redo" in bob.run("redo", expect=1).stderr
    bob.run("undo", expect=0)  # undo goes on along the merged log
    assert len(bob.json("status")["players"][1]["rounds"]) == 5


def test_both_is_refused_in_one_line_when_the_rules_refuse(tmp_path):
    # a finished game on one branch, a round on the other: a round after the end is refused
    ann3 = Laptop(tmp_path / "c" / "ann", "Ann's laptop")
    bob3 = Laptop(tmp_path / "c" / "bob", "Bob's laptop")
    ann3.run("new", "scoresheet", "--players", "Ann,Bob", expect=0)
    sid3 = ann3.json("status")["session"]
    ann3.run("add", "Ann=1", "Bob=1", expect=0)
    sync3 = Engine()
    sync3.sync(ann3, bob3)
    bob3.run("use", sid3, expect=0)
    ann3.run("finish", expect=0)
    import time

    time.sleep(1.1)  # (times are kept to the second: the finish's branch begins first)
    bob3.run("add", "Ann=0", "Bob=5", expect=0)
    sync3.sync(ann3, bob3)
    before = {p.name: p.read_bytes() for p in (ann3.root / "sessions").iterdir()}
    err = ann3.run("sync", "resolve", sid3, "--both", expect=1).stderr
    assert err.count("\n") == 1 and "--keep" in err and "Nothing was changed" in err
    assert {p.name: p.read_bytes() for p in (ann3.root / "sessions").iterdir()} == before
    ann3.run("sync", "resolve", sid3, "--keep", bob3.device[:4], expect=0)
    assert ann3.json("status")["finished"] is False


def test_a_conflict_copy_of_a_journal_is_read_merged_and_removed(tmp_path):
    """A sync engine's conflict copy of a journal (two versions of one laptop's journal, as after
    a folder restored from a backup on that laptop) holds entries of that laptop: they are read
    at once, and the laptop merges them into its journal and removes the copy at its next write."""
    ann, bob, engine, sid = two_laptops(tmp_path, rounds_a=2, rounds_b=0)
    journal = ann.root / "sessions" / f"{sid}.{ann.device}.jsonl"
    lines = journal.read_text().splitlines()
    # the newer version won: the copy holds the older one plus a round only it has
    extra = json.loads(lines[-1])
    extra.update(id=f"{ann.device}:{len(lines)}", parent=extra["id"])
    extra["event"] = {"type": "add", "scores": {"Ann": 99}}
    copy = ann.root / conflict_name(f"sessions/{journal.name}", "BOB")
    put(copy, ("\n".join(lines) + "\n" + json.dumps(extra) + "\n").encode())
    assert [p["score"] for p in ann.json("status")["players"]][0] == 1 + 10 + 11 + 99
    engine.sync(ann, bob)
    assert [p["score"] for p in bob.json("status")["players"]][0] == 1 + 10 + 11 + 99
    ann.run("add", "Ann=1", expect=0)
    assert not copy.exists()
    assert '"Ann":99' in journal.read_text()
    assert [p["score"] for p in ann.json("status")["players"]][0] == 1 + 10 + 11 + 99 + 1


def test_two_laptops_resolving_at_once_agree_and_lose_nothing(tmp_path):
    ann, bob, engine, sid = two_laptops(tmp_path)
    ann.run("sync", "resolve", sid, "--keep", "Ann's laptop", expect=0)
    bob.run("sync", "resolve", sid, "--keep", "Bob's laptop", expect=0)
    bob.run("add", "Ann=0", "Bob=50", expect=0)  # after Bob's own choice, before hearing of Ann's
    engine.sync(ann, bob)
    rows, _stats, (status,) = same_everywhere(ann, bob)
    # one choice counts on both laptops (the earlier, by time and then id); what followed the
    # other is a new fork, never replayed after a choice it did not follow
    if status.get("fork") is None:  # Bob's choice counted: his round follows it
        assert status["players"][1]["rounds"] == [1, 20, 21, 50]
    else:
        assert rows[0]["fork"] == status["fork"] and [b["moves"] for b in status["fork"]["branches"]] == [1]
        assert status["players"][1]["rounds"] == [1, 0, 0, 0]  # Ann's branch, as Ann chose
        ann.run("sync", "resolve", sid, "--keep", "Bob's laptop", expect=0)
        engine.sync(ann, bob)
        _rows, _stats, (status,) = same_everywhere(ann, bob)
        assert status.get("fork") is None and status["players"][1]["rounds"][-1] == 50
    assert '"Bob":50' in (bob.root / "sessions" / f"{sid}.{bob.device}.jsonl").read_text()


# -- random trials ---------------------------------------------------------------------------------

TRIALS = scaled(4, 200)
STEPS = scaled(24, 40)


def recorded(laptop: Laptop, sid: str):
    """(every entry of the session in any file, the ids on its line, the ids on a waiting fork's
    branches, the ids a resolution set aside) as this laptop merges them."""
    store = Store(laptop.root)
    _meta, merged = store.read_merged(sid)
    line = {n for n, e in merged.nodes.items() if any(e is x for x in merged.line)}
    branches: set[str] = set()
    if merged.fork is not None:
        for b in merged.fork.branches:
            stack = [b["first"]]
            while stack:
                n = stack.pop()
                branches.add(n)
                stack += [c for c, p in merged.parents.items() if p == n]
    aside: set[str] = set()
    for entry in merged.line:
        if entry.get("kind") == RESOLVE:
            for first in entry.get("aside") or []:
                aside.update(_path(first, (entry.get("tips") or {}).get(first), merged.parents))
    return merged.nodes, line, branches, aside


def test_random_trials_converge_and_keep_every_acknowledged_action(tmp_path):
    lost: list[str] = []
    forks = resolutions = acknowledged = 0
    for trial in range(TRIALS):
        rng = random.Random(20261204 + trial)
        where = tmp_path / f"t{trial}"
        laptops = [Laptop(where / name, name) for name in ("ann", "bob", "cy")[: rng.choice((2, 3))]]
        engine = Engine()
        laptops[0].run("new", "scoresheet", "--players", "Ann,Bob", expect=0)
        sid = laptops[0].json("status")["session"]
        for other in laptops[1:]:
            engine.sync(laptops[0], other)
            other.run("use", sid, expect=0)
        done: list[tuple[str, str]] = []  # (laptop, the unique text of an acknowledged note or round)
        for step in range(STEPS):
            laptop = rng.choice(laptops)
            roll = rng.random()
            tag = f"{trial}-{step}"
            if roll < 0.4:
                result = laptop.run("add", f"Ann={1000 + step}", f"Bob={trial}")
                if result.exit_code == 0:
                    done.append((laptop.name, f'"Ann":{1000 + step}'))
            elif roll < 0.5:
                result = laptop.run("note", f"note {tag}")
                if result.exit_code == 0:
                    done.append((laptop.name, f"note {tag}"))
            elif roll < 0.6:
                result = laptop.run(rng.choice(["undo", "redo"]))
            elif roll < 0.75:
                result = laptop.run("sync", "resolve", sid, rng.choice(["--both", "--keep=" + rng.choice(laptops).device]))
                resolutions += result.exit_code == 0
            else:
                a, b = rng.sample(laptops, 2)
                engine.sync(a, b)
                continue
            assert result.exit_code in (0, 1), result.output
            if result.exit_code:  # a refusal: one line, and what it says is what to do
                assert result.stderr.count("\n") == 1, result.stderr
        acknowledged += len(done)
        for _ in range(2):  # every laptop meets every other: all converge
            for a in laptops:
                for b in laptops:
                    if a is not b:
                        engine.sync(a, b)
        views = [recorded(laptop, sid) for laptop in laptops]
        if views[0][2]:
            forks += 1
        for laptop, view in zip(laptops, views):
            nodes, line, branches, aside = view
            assert set(nodes) == set(views[0][0]), f"trial {trial}: {laptop.name} has other entries"
            text = {n: json.dumps(e, ensure_ascii=False, separators=(",", ":")) for n, e in nodes.items()}
            for who, what in done:
                holding = [n for n, t in text.items() if what in t]
                if not holding:
                    lost.append(f"trial {trial}: {what} acknowledged on {who} is gone from {laptop.name}")
                elif not any(n in line or n in branches or n in aside for n in holding):
                    lost.append(f"trial {trial}: {what} is neither in the session nor on a branch")
        same_everywhere(*laptops)
    print(f"sync trials: {TRIALS} trials, {acknowledged} actions acknowledged, {len(lost)} lost, "
          f"{forks} ended forked, {resolutions} resolutions")
    assert not lost, lost[:5]


def test_an_import_continuing_a_forked_session_is_refused_and_changes_nothing(tmp_path):
    ann, bob, _engine, sid = two_laptops(tmp_path)
    other = Laptop(tmp_path / "carol", "Carol's laptop")
    exported = tmp_path / "x.json"
    ann.run("export", "-o", str(exported), expect=0)  # the line where they parted
    other.run("import", str(exported), expect=0)
    other.run("--session", sid, "add", "Ann=3", expect=0)
    other.run("export", "-o", str(exported), "--force", expect=0)
    before = {p.name: p.read_bytes() for p in (ann.root / "sessions").iterdir()}
    err = ann.run("import", str(exported), expect=1).stderr
    assert err.count("\n") == 1 and "sync resolve" in err
    assert {p.name: p.read_bytes() for p in (ann.root / "sessions").iterdir()} == before


def test_sync_status_names_the_fork_waiting_and_forgets_it_once_resolved(tmp_path):
    """`sync status` (the folder's half of issue 30) shows the journals' fork: the session, the
    move it forked after and each laptop's branch, in its text and its --json; none once resolved."""
    ann, bob, engine, sid = two_laptops(tmp_path)
    for laptop in (ann, bob):
        found = laptop.json("sync", "status")
        assert [f["session"] for f in found["forks"]] == [sid]
        assert found["forks"][0]["fork"] == laptop.json("status")["fork"]
        said = laptop.run("sync", "status", expect=0).stdout
        assert "1 session continued on two laptops waits: `sync resolve ID`" in said
        assert f"  {sid}, after move 1: " in said
        assert "3 moves on Ann's laptop" in said and "2 moves on Bob's laptop" in said
        assert "Nothing waits" not in said
        other = bob if laptop is ann else ann  # named by its journals' header
        assert [(o["id"], o["name"]) for o in found["laptops"]] == [(other.device, other.name)]
    bob.run("sync", "resolve", sid, "--keep", "Ann's laptop", expect=0)
    engine.sync(ann, bob)
    for laptop in (ann, bob):
        assert laptop.json("sync", "status")["forks"] == []
        assert "Nothing waits: no fork, no conflict copy." in laptop.run("sync", "status", expect=0).stdout
