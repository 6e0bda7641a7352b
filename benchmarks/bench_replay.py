"""Replay at scale (issue 12): long sessions must cost time in proportion to their length.

Measured as a table uses the companion, in fresh processes (`companion ...`):

* `status` of a score-sheet session holding 1,000, 4,000 and 10,000 events;
* recording one action (`add`) in a session of 10 events and of 10,000 events;
* a 2,000-line script (`companion < script.txt`: one `new`, then 1,999 rounds);
* importing one exported session of 12,000 events into an empty data folder.

Targets (BENCHMARKS.md): status at 10,000 events under 150 ms; one action at 10,000 events at
most 1.5x the cost at 10 events; the script under 20 s; the import under 5 s.

    python benchmarks/bench_replay.py [--runs 7] [--sizes 1000,4000,10000]
    python benchmarks/bench_replay.py --baseline DIR --sizes 1000,4000 --runs 3

With ``--baseline DIR`` (a folder holding an older ``companion`` package, e.g. from
``git archive 9d81e3c companion | tar -x -C DIR``) it only times `status --json` and `add` side
by side: the old package (on PYTHONPATH) and this one, on the same sessions, alternately.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import median_seconds

from companion.core import session as sessions
from companion.core.store import SCHEMA_KEY, Store, atomic_write_text, now, schema_version

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def companion(home: Path, *args: str, stdin: str | None = None, baseline: str | None = None,
              module: bool = False) -> subprocess.CompletedProcess:
    """One `companion` process: the installed command, or ``python -m companion`` (``module``),
    with an older package first on PYTHONPATH when ``baseline`` is given."""
    env = dict(os.environ, COMPANION_HOME=str(home))
    if baseline is not None:
        env["PYTHONPATH"] = baseline
    argv = [sys.executable, "-m", "companion", *args] if module else ["companion", *args]
    # run from the data folder's parent: `python -m` puts the working folder first on the path,
    # so from the repository's root it would run this package whatever PYTHONPATH says
    return subprocess.run(argv, input=stdin, text=True, capture_output=True, env=env, check=True,
                          cwd=home.parent if home.parent.is_dir() else None)


def side_by_side(baseline: str, sizes: list[int], runs: int, tmp: Path) -> None:
    for size in sizes:
        # each version in its own folder: their replay snapshots may differ in format
        homes = {"before": (tmp / f"before{size}", baseline), "now": (tmp / f"now{size}", None)}
        sids = {name: long_session(where, size) for name, (where, _) in homes.items()}
        for name, (where, package) in homes.items():  # as after any action: a snapshot is kept
            companion(where, "add", "Ann=1", "--session", sids[name], baseline=package, module=True)
        times: dict[str, list[float]] = {"before": [], "now": []}
        for _ in range(runs):  # alternate, so both see the same machine load
            for name, (where, package) in homes.items():
                start = time.perf_counter()
                companion(where, "status", "--json", "--session", sids[name], baseline=package, module=True)
                times[name].append(time.perf_counter() - start)
        old, new = (sorted(times[k])[runs // 2] for k in ("before", "now"))
        print(f"status --json at {size:>6} events: before {old * 1000:8.0f} ms, now {new * 1000:6.0f} ms "
              f"({old / new:.1f}x)")
        times = {"before": [], "now": []}
        for _ in range(runs):  # alternate, so both see the same machine load
            for name, (where, package) in homes.items():
                start = time.perf_counter()
                companion(where, "add", "Ann=1", "--session", sids[name], baseline=package, module=True)
                times[name].append(time.perf_counter() - start)
        old, new = (sorted(times[k])[runs // 2] for k in ("before", "now"))
        print(f"add           at {size:>6} events: before {old * 1000:8.0f} ms, now {new * 1000:6.0f} ms "
              f"({old / new:.1f}x)")


def long_session(home: Path, events: int) -> str:
    """A live score-sheet session of ``events`` rounds, written in one pass (its journal is what
    recording them one by one would have written)."""
    store = Store(home)
    s = sessions.create(store, "scoresheet", PLAYERS, {"lowest_wins": False, "target": None})
    at = now()
    journal = {
        str(i + 1): {"kind": "do", "event": {"type": "add", "scores": {p: (i * 7 + j) % 23 for j, p in enumerate(PLAYERS)}},
                     "at": at}
        for i in range(events)
    }
    meta = sessions.load(store, s.id).meta
    doc = {SCHEMA_KEY: {"kind": "session", "version": schema_version("session")}, "meta": {"1": meta}, "journal": journal}
    atomic_write_text(store.session_path(s.id), json.dumps(doc, ensure_ascii=False, separators=(",", ":")))
    return s.id


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--sizes", default="1000,4000,10000")
    parser.add_argument("--baseline", help="a folder with an older companion package, timed side by side")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        if args.baseline:
            side_by_side(args.baseline, [int(x) for x in args.sizes.split(",")], args.runs, tmp)
            return
        print("status as a subprocess:")
        for size in [int(x) for x in args.sizes.split(",")]:
            home = tmp / f"status{size}"
            sid = long_session(home, size)
            cold = median_seconds(lambda: companion(home, "status", "--session", sid), args.runs)
            companion(home, "add", "Ann=1", "--session", sid)  # a write keeps a replay snapshot
            warm = median_seconds(lambda: companion(home, "status", "--session", sid), args.runs)
            print(f"  {size:>6} events: {warm * 1000:7.1f} ms with its snapshot, {cold * 1000:7.1f} ms without"
                  " (target at 10,000: < 150 ms)")

        print("recording one action (`add`) as a subprocess, side by side:")
        small, big = tmp / "small", tmp / "big"
        sid_small, sid_big = long_session(small, 10), long_session(big, 10_000)
        companion(big, "add", "Ann=1", "--session", sid_big)  # as after any action: a snapshot is kept
        times: dict[str, list[float]] = {"small": [], "big": []}
        for _ in range(args.runs):  # alternate, so both see the same machine load
            for name, home, sid in (("small", small, sid_small), ("big", big, sid_big)):
                start = time.perf_counter()
                companion(home, "add", "Ann=1", "Bob=2", "--session", sid)
                times[name].append(time.perf_counter() - start)
        med = {k: sorted(v)[len(v) // 2] for k, v in times.items()}
        print(f"      10 events: {med['small'] * 1000:7.1f} ms")
        print(f"  10,000 events: {med['big'] * 1000:7.1f} ms")
        print(f"  ratio: {med['big'] / med['small']:.2f} (target <= 1.5)")

        home = tmp / "script"
        lines = ["new scoresheet --players " + ",".join(PLAYERS)]
        lines += [f"add Ann={i % 13} Bob={i % 7} Cy=3 Dee={i % 5}" for i in range(1999)]
        cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        companion(home, stdin="\n".join(lines) + "\n")
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        used = after.ru_utime - cpu.ru_utime + after.ru_stime - cpu.ru_stime
        print(f"a 2,000-line script: {wall:.2f} s (target < 20 s); processor time {used:.2f} s, the rest is "
              "waiting for the disk (two fsyncs per action)")

        source = tmp / "source"
        long_session(source, 12_000)
        export = tmp / "export.json"
        companion(source, "export", "-o", str(export))
        runs = []
        for n in range(max(1, args.runs // 2)):
            home = tmp / f"import{n}"
            start = time.perf_counter()
            companion(home, "import", str(export))
            runs.append(time.perf_counter() - start)
        print(f"importing one 12,000-event session: {sorted(runs)[len(runs) // 2]:.2f} s (target < 5 s)")


if __name__ == "__main__":
    main()
