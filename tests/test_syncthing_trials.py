"""Two and three laptops on a real Syncthing change the club's record at the same time, with
their syncs dropped and restored, and all end with the same record (issue 30, item 4).

Each trial: some laptops' Syncthing is stopped (SIGSTOP: the Wi-Fi drops); every laptop at
once runs a few random actions (games logged or started and played, rounds added and undone,
games finished, players renamed, titles named with options, a printed value set or forgotten,
sessions deleted and restored, a companion killed with SIGKILL in the middle of adding a round,
ending a game or undoing: between its journal and its index);
sometimes a Syncthing is killed with SIGKILL and started again; then every sync is resumed
(SIGCONT) and the laptops are waited for until their shared files are the same. Then:

* every laptop shows the same `sessions`, `sessions --deleted`, `stats`, `players`, titles
  (`games`) and printed value (`data show`);
* every acknowledged round is in its session's file (a round on a session another laptop
  deleted meanwhile is kept there, in the bin), and no round is there that was not asked for.

A session is continued only on the laptop that started it: two laptops continuing one session
at once is the session half of issue 30 (per-device journals, docs/forks.md).

One trial of each kind by default (two laptops, three laptops: each syncing through a real
Syncthing); COMPANION_LONG_TESTS=1 runs 204: three clubs of two laptops and three of
three side by side, 34 trials each.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time

import pytest
from long_mode import report_races, scaled
from syncthing_support import Cluster, Companion, need_syncthing
from warm_support import warm  # noqa: F401 (a fixture: the laptops' companions forked from it)

from companion.core.journal import load
from companion.core.store import Store

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"]
NEW_NAMES = ["Anna", "Bobby", "Cyrus", "Dora", "Evie", "Flora", "Ann", "Bob"]
TITLES = ["Azul", "Carcassonne", "Hanabi", "Patchwork"]
KINDS = ["play", "new", "add", "add", "undo", "finish", "rename", "title", "value", "delete", "restore", "kill"]


class Laptop:
    """One laptop: its folder, its companion, and what it started (session -> rounds known)."""

    def __init__(self, index: int, folder, warm=None):
        self.index, self.folder = index, folder
        self.companion = Companion(folder, warm)
        self.in_play: dict[str, dict] = {}  # its own sessions: {"players", "finished"}


class Ledger:
    """What was acknowledged, for the check afterwards: per session, the fewest and the most
    rounds its file may hold (a command killed midway may or may not have written)."""

    def __init__(self):
        self.rounds: dict[str, list[int]] = {}
        self.acknowledged = self.kept = self.refused = self.unknown = 0
        self.lock = threading.Lock()

    def started(self, sid: str) -> None:
        with self.lock:
            self.rounds[sid] = [0, 0]

    def moved(self, sid: str, low: int, high: int) -> None:
        with self.lock:
            self.rounds[sid][0] += low
            self.rounds[sid][1] += high


def session_id(out: str) -> str | None:
    found = re.search(r"session ([a-z0-9]{8})", out)
    return found.group(1) if found else None


def act(laptop: Laptop, rng: random.Random, ledger: Ledger, trouble: list[str], laptops: int) -> None:
    """One random action on one laptop, its outcome written in the ledger."""
    kind = rng.choice(KINDS)
    c = laptop.companion
    two = rng.sample(NAMES, 2)
    own = [sid for sid, s in laptop.in_play.items() if not s["finished"]]
    if kind in ("add", "undo", "finish") and not own:
        kind = "new"
    if kind == "play":
        args = ["played", "scoresheet", "--players", f"{two[0]}={rng.randint(0, 30)},{two[1]}={rng.randint(0, 30)}"]
    elif kind == "title":
        args = ["played", "scoresheet", "--players", f"{two[0]}={rng.randint(0, 30)},{two[1]}={rng.randint(0, 30)}",
                "--title", rng.choice(TITLES), "--bgg-id", str(rng.randint(1, 400000))]
        if rng.random() < 0.3:
            args.append("--lowest-wins")
    elif kind == "new":
        args = ["new", "scoresheet", "--players", ",".join(two)]
    elif kind == "add":
        sid = rng.choice(own)
        players = laptop.in_play[sid]["players"]
        args = ["--session", sid, "add", *(f"{p}={rng.randint(0, 9)}" for p in players)]
    elif kind == "undo":
        sid = rng.choice(own)
        args = ["--session", sid, "undo"]
    elif kind == "finish":
        sid = rng.choice(own)
        args = ["--session", sid, "finish"]
    elif kind == "rename":
        args = ["player", "rename", rng.choice(NAMES), rng.choice(NEW_NAMES)]
    elif kind == "value":
        args = (["data", "set", "trans-europa", "bgg_id", str(rng.randint(1, 9999))] if rng.random() < 0.7
                else ["data", "unset", "trans-europa", "bgg_id"])
    elif kind in ("delete", "restore"):
        listed = c.run("sessions", *(["--deleted"] if kind == "restore" else []), "--json")
        ids = [s["id"] for s in json.loads(listed["out"] or "[]")] if listed["code"] == 0 else []
        if not ids:
            return
        sid = rng.choice(ids)
        args = ["delete", sid, "--yes"] if kind == "delete" else ["restore", sid]
    else:  # kill: a companion killed in the middle of adding a round, ending a game or undoing
        if own:
            sid = rng.choice(own)
            players = laptop.in_play[sid]["players"]
            what = rng.choice(["add", "add", "finish", "undo"])  # (an end: between its journal and its index)
            line = ["--session", sid, what, *((f"{p}=1" for p in players) if what == "add" else ())]
            c.proc.stdin.write(json.dumps(line) + "\n")
            c.proc.stdin.flush()
            time.sleep(rng.uniform(0, 0.12))
            c.kill()
            if not laptop.in_play[sid]["finished"]:  # written or not: either is right
                ledger.moved(sid, *{"add": (0, 1), "finish": (0, 0), "undo": (-1, 0)}[what])
            if what == "finish":  # over or not: left alone (an undo might take back its end, not a round)
                laptop.in_play[sid]["finished"] = True
            with ledger.lock:
                ledger.unknown += 1
        return
    # Any action at any moment: sessions started in the same second, on one laptop or several,
    # are listed by their ids after their start on every laptop, and games ended in the same
    # second in that order (issue 30).
    result = c.run(*args)
    if "Traceback" in result["err"] or result["code"] not in (0, 1, 2):
        trouble.append(f"{' '.join(args)}: {result['err'][-300:]}")
        return
    if result["code"] != 0:
        with ledger.lock:
            ledger.refused += 1
        if kind in ("add", "undo", "finish") and "The game is over" in result["err"]:
            laptop.in_play[args[1]]["finished"] = True
        return
    with ledger.lock:
        ledger.acknowledged += 1
    if kind == "new":
        sid = session_id(result["out"])
        ledger.started(sid)
        laptop.in_play[sid] = {"players": two, "finished": False}
    elif kind == "add":
        ledger.moved(args[1], 1, 1)
    elif kind == "undo":
        ledger.moved(args[1], -1, -1)
    elif kind == "finish":
        laptop.in_play[args[1]]["finished"] = True


def views(laptop: Laptop) -> dict:
    """What a person sees of the record on this laptop."""
    c = laptop.companion
    out = {}
    for name, args in {"sessions": ["sessions", "--json"], "deleted": ["sessions", "--deleted", "--json"],
                       "stats": ["stats", "--json"], "players": ["players", "--json"], "games": ["games", "--json"],
                       "value": ["data", "show", "trans-europa", "bgg_id"]}.items():
        result = c.run(*args)
        assert result["code"] == 0 and "Traceback" not in result["err"], (laptop.index, args, result["err"])
        out[name] = json.loads(result["out"]) if "--json" in args else result["out"]
    out["games"] = out["games"]["titles"]
    for row in out["sessions"]:
        row.pop("current")  # each laptop's own current session (issue 30): never synced
    for row in out["deleted"]:
        row.pop("current", None)
    return out


def rounds_in(folder, sid: str) -> int:
    """The rounds in effect in session ``sid``'s file, read whether or not it is in the bin."""
    s = load(Store(folder), sid)
    done, _ = s.fold()
    return sum(1 for entry in done if entry["event"].get("type") == "add")


def run_trials(tmp_path, laptops: int, trials: int, seed: int, warm=None) -> dict:
    need_syncthing()
    cluster = Cluster(tmp_path, laptops)
    machines = [Laptop(i, folder, warm) for i, folder in enumerate(cluster.folders)]
    ledger = Ledger()
    overlapped = killed_syncthings = 0
    problems: list[str] = []
    waited = []
    try:
        cluster.wait_in_sync()
        for trial in range(trials):
            rng = random.Random(seed * 1000 + trial)
            dropped = [node for node in cluster.nodes if rng.random() < 0.7]
            cluster.pause(dropped)
            overlapped += len(dropped) >= 2
            trouble: list[str] = []
            threads = []
            for laptop in machines:
                own = random.Random(rng.random())
                steps = own.randint(1, 4)
                threads.append(threading.Thread(
                    target=lambda l=laptop, r=own, n=steps: [act(l, r, ledger, trouble, laptops) for _ in range(n)]))
            for thread in threads:
                thread.start()
            if rng.random() < 0.15:  # a Syncthing killed while the laptops write
                victim = rng.choice(cluster.nodes)
                time.sleep(rng.uniform(0, 0.2))
                victim.kill()
                killed_syncthings += 1
            for thread in threads:
                thread.join()
            waited.append(cluster.wait_in_sync())
            problems += [f"trial {trial}: {t}" for t in trouble]
            seen = [views(laptop) for laptop in machines]
            for laptop, view in zip(machines[1:], seen[1:]):
                ids = [{row["id"] for row in v["sessions"]} for v in (seen[0], view)]
                if ids[0] != ids[1]:  # say why: the files, the bin, what `sessions` noted
                    for sid in ids[0] ^ ids[1]:
                        why = [(m.index, (m.folder / "sessions" / f"{sid}.json").exists(),
                                sid in Store(m.folder).deleted_ids(), m.companion.run("sessions")["err"][-300:])
                               for m in (machines[0], laptop)]
                        problems.append(f"trial {trial} (seed {seed}): session {sid} listed on one laptop only: {why}")
                for what in view:
                    if view[what] != seen[0][what]:
                        problems.append(f"trial {trial} (seed {seed}): laptop {laptop.index}'s {what} differs from "
                                        f"laptop 0's: {str(view[what])[:200]} / {str(seen[0][what])[:200]}")
            for sid, (low, high) in ledger.rounds.items():
                found = rounds_in(cluster.folders[0], sid)
                if not low <= found <= high:
                    problems.append(f"trial {trial} (seed {seed}): session {sid} holds {found} rounds, "
                                    f"acknowledged {low}..{high}")
            if problems:
                break
        # what is each laptop's own never travelled: each kept its own id and its own .local/
        devices = {json.loads((f / ".local" / "device.json").read_text())["device"]["1"]["id"] for f in cluster.folders}
        if len(devices) != laptops:
            problems.append(f"seed {seed}: the laptops share a device id: .local/ was synced")
    finally:
        for laptop in machines:
            laptop.companion.close()
        cluster.close()
    rounds = sum(low for low, _ in ledger.rounds.values())
    return {"trials": trials, "overlapped": overlapped, "acknowledged": ledger.acknowledged, "rounds": rounds,
            "refused": ledger.refused, "killed": ledger.unknown, "syncthings": killed_syncthings, "waited": waited,
            "problems": problems}


def trials_side_by_side(tmp_path, laptops: int, clusters: int, trials: int, warm=None) -> None:
    """``clusters`` clubs of ``laptops`` laptops, each running ``trials`` trials, side by side
    (most of a trial is waiting for the clock or the sync, so they share the machine well); each
    laptop's companion a process forked from ``warm`` (tests/warm_support.py)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(clusters) as pool:
        runs = list(pool.map(lambda i: run_trials(tmp_path / f"club{i}", laptops, trials, seed=laptops * 100 + i,
                                                  warm=warm), range(clusters)))
    total = {k: sum(r[k] for r in runs)
             for k in ("trials", "overlapped", "acknowledged", "rounds", "refused", "killed", "syncthings")}
    problems = [p for r in runs for p in r["problems"]]
    waited = sorted(w for r in runs for w in r["waited"])
    report_races(f"Syncthing, {laptops} laptops (issue 30): trials with syncs dropped", total["trials"],
                 len(set(KINDS)), total["overlapped"], total["acknowledged"],
                 0 if problems else total["acknowledged"], total["refused"])
    print(f"\n{laptops} laptops, {clusters} clubs side by side: {total['trials']} trials, {total['acknowledged']} actions "
          f"acknowledged ({total['rounds']} rounds), {total['refused']} refused in one line, {total['killed']} "
          f"companions and {total['syncthings']} Syncthings killed with SIGKILL, {len(problems)} problems, 0 lost; in sync after a median "
          f"{waited[len(waited) // 2] if waited else 0:.1f} s")
    assert not problems, f"{len(problems)} problems: " + "; ".join(problems[:4])


def test_two_laptops_end_with_the_same_record(tmp_path, warm):
    trials_side_by_side(tmp_path, 2, clusters=scaled(1, 3), trials=scaled(1, 34), warm=warm)


def test_three_laptops_end_with_the_same_record(tmp_path, warm):
    trials_side_by_side(tmp_path, 3, clusters=scaled(1, 3), trials=scaled(1, 34), warm=warm)
