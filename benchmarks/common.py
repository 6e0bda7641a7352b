"""Helpers shared by the benchmark scripts: timing medians and building big data folders."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

from companion.core import session as sessions
from companion.core.store import SCHEMA_KEY, Store, atomic_write_text, now, schema_version


def median_seconds(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def median_cpu(fn: Callable[[], object], runs: int, before: Callable[[], object] = lambda: None) -> float:
    """Median CPU seconds of ``fn`` (``before`` runs untimed ahead of each run)."""
    times = []
    for _ in range(runs):
        before()
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times)


def median_command(argv: list[str], runs: int, env: dict | None = None) -> float:
    return median_seconds(lambda: subprocess.run(argv, check=True, capture_output=True, env=env), runs)


def fill_finished_scoresheets(root: Path, count: int, games: tuple[str, ...] = ("scoresheet",),
                              devices: int = 1) -> Store:
    """A data folder holding ``count`` finished score-sheet sessions, written in one pass.

    One session is played for real through the session layer; its files are then copied under
    new ids (so the folder holds real, replayable sessions), and the index is rebuilt once.
    ``games`` other than the score sheet change only the index entries (what `stats` reads).

    Since issue 30 a session is its file (the description) and the journal of the laptop that
    played it (``sessions/ID.DEVICE.jsonl``): the plays are spread over ``devices`` laptops'
    ids, as a club's folder synced from that many laptops holds them.
    """
    store = Store(root)
    model = sessions.create(store, "scoresheet", ["Ann", "Bob", "Cy"], {"lowest_wins": False, "target": None})
    for i in range(5):
        sessions.record(store, model.id, {"type": "add", "scores": {"Ann": i, "Bob": 2 * i % 7, "Cy": 3}})
    sessions.record(store, model.id, {"type": "finish"})
    doc = json.loads(store.session_path(model.id).read_text())
    from companion.core import journals as jn

    (journal,) = store.journal_paths(model.id)
    rows = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()]
    laptops = [f"{0xB0000000 + k:010x}" for k in range(max(1, devices))]
    # written plainly and flushed once (as `import` does): 50,000 files with an fsync each take
    # minutes, and what is measured is reading them
    import os

    for n in range(count - 1):
        sid = f"b{n:07d}"
        doc["meta"]["1"]["id"] = sid
        with open(store.session_path(sid), "w", encoding="utf-8") as fh:
            fh.write(json.dumps(doc, separators=(",", ":")))
        os.chmod(store.session_path(sid), 0o600)
        dev = laptops[n % len(laptops)]
        lines = [jn.header(dev, f"laptop {n % len(laptops) + 1}", sid)]
        for row in rows[1:]:
            own = row["id"].split(":")[1]
            parent = row.get("parent")
            lines.append({**row, "id": f"{dev}:{own}", "parent": f"{dev}:{parent.split(':')[1]}" if parent else None})
        path = jn.journal_path(store.sessions_dir, sid, dev)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write("".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines))
        os.chmod(path, 0o600)
    if hasattr(os, "sync"):
        os.sync()
    with store.writing():
        sessions.rebuild_index(store)
        # the index keeps the final summary of finished sessions, as recording the finish does
        index = json.loads(store.index_path.read_text())
        # varied results (a fixed pattern, so runs compare), so ratings and head-to-head do real work
        for n, entry in enumerate(index["sessions"].values()):
            scores = {"Ann": 8 + n % 7, "Bob": 6 + (3 * n) % 9, "Cy": 5 + (5 * n) % 11}
            top = max(scores.values())
            summary = {"finished_at": now(), "round": 5, "scores": scores,
                       "winners": [p for p, v in scores.items() if v == top]}
            entry["finished"] = summary["finished_at"]
            entry["summary"] = summary
            entry["game"] = games[n % len(games)]  # several games: ratings keep a table per game
        index[SCHEMA_KEY] = {"kind": "index", "version": schema_version("index")}
        atomic_write_text(store.index_path, json.dumps(index, separators=(",", ":")))
    return store


def python() -> str:
    return sys.executable
