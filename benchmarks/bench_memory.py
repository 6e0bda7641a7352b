"""Peak memory (and time) of the commands the other benchmarks time, measured side by side.

Each command runs as a real subprocess, as a player would run it; its peak resident set size
comes from ``os.wait4``, the resource usage of that one child (what ``getrusage(RUSAGE_CHILDREN)``
gives, without mixing children together), taken by a small launcher process (see LAUNCHER).
Start-up is part of every figure, so ``python -c pass`` and ``companion --version`` are measured
beside them.

    python benchmarks/bench_memory.py [--runs 5] [--sizes 1000,10000] [--markdown]

Commands: `python -c pass`, `companion --version`; `add` (one action recorded) with 1 and
10,000 stored sessions; `sessions` and `stats` at each size in --sizes.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from common import fill_finished_scoresheets, python

from companion.core import session as sessions


# A small launcher between this script and each command: a child starts with a copy of its
# parent's pages, so a command started straight from this (large) script would report this
# script's size as its own peak. The launcher is a bare interpreter of a few MB, less than any
# command measured, and reports the command's own time and peak (os.wait4: that one child).
LAUNCHER = r"""
import os, sys, time
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    os.execvp(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
print(time.perf_counter() - start, usage.ru_maxrss, os.waitstatus_to_exitcode(status))
"""


def measure(argv: list[str], runs: int) -> tuple[float, float]:
    """(median seconds, largest peak RSS in MB) of ``runs`` runs of ``argv``."""
    times, peaks = [], []
    for _ in range(runs):
        done = subprocess.run([python(), "-S", "-c", LAUNCHER, *argv], capture_output=True, text=True, check=True)
        seconds, kilobytes, code = done.stdout.split()
        if int(code):
            raise SystemExit(f"{' '.join(argv)} failed: {done.stderr}")
        times.append(float(seconds))
        peaks.append(int(kilobytes) / 1024)  # Linux reports kilobytes
    return statistics.median(times), max(peaks)


def live_folder(root: Path, stored: int) -> str:
    """A data folder with ``stored`` finished sessions and one live score sheet of 20 rounds."""
    store = fill_finished_scoresheets(root, stored) if stored > 1 else None
    if store is None:
        from companion.core.store import Store

        store = Store(root)
    live = sessions.create(store, "scoresheet", ["Ann", "Bob"], {"lowest_wins": False, "target": None})
    for i in range(20):
        sessions.record(store, live.id, {"type": "add", "scores": {"Ann": i}})
    return live.id


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sizes", default="1000,10000", help="stored sessions for `sessions` and `stats`")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table at the end")
    args = parser.parse_args()
    companion = [python(), "-m", "companion"]
    rows: list[tuple[str, float, float]] = []

    def run(label: str, argv: list[str]) -> None:
        seconds, peak = measure(argv, args.runs)
        rows.append((label, seconds, peak))
        print(f"{label:<44} median {seconds * 1000:8.1f} ms   peak RSS {peak:7.1f} MB", flush=True)

    run("python -c pass", [python(), "-c", "pass"])
    run("companion --version", [*companion, "--version"])
    with tempfile.TemporaryDirectory() as tmp:
        for stored in (1, 10_000):
            root = Path(tmp) / f"record{stored}"
            live = live_folder(root, stored)
            run(f"add (one action), {stored:,} stored session{'s' if stored > 1 else ''}",
                [*companion, "--data-dir", str(root), "add", "--session", live, "Ann=1", "Bob=2"])
        for size in [int(s) for s in args.sizes.split(",")]:
            root = Path(tmp) / f"history{size}"
            fill_finished_scoresheets(root, size)
            for cmd in (["sessions"], ["stats"]):
                run(f"{' '.join(cmd)}, {size:,} sessions", [*companion, "--data-dir", str(root), *cmd])
    if args.markdown:
        print("\n| command | median time | peak memory (RSS) |\n|---|---|---|")
        for label, seconds, peak in rows:
            print(f"| {label} | {seconds * 1000:.1f} ms | {peak:.1f} MB |")


if __name__ == "__main__":
    sys.exit(main())
