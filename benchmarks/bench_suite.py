"""The README's test command timed as a person waits for it, with the machine's whole CPU.

    python benchmarks/bench_suite.py [--runs 2] [--workers auto,3] [-- PYTEST ARGS]

Runs `.venv/bin/pytest -p no:cacheprovider` (the README's command; the cache plugin off so one
run leaves nothing for the next) once per run and worker count, the counts interleaved so that
each is measured beside the others under the same load (issue 29, item 7: the goal is 90 s on
2 cores). For each run: the wall time, the machine's CPU over it (user + nice + system of
/proc/stat: every process, Chromium, Syncthing and the servers included, which the test
processes' own clocks miss) and the cores' idle time (while every worker waits at once).
The wall time is at best the CPU over the cores; the idle time says how far from it a run is.
Linux only (/proc/stat).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def machine_ticks() -> tuple[int, int]:
    """(busy, idle) clock ticks of every core since boot."""
    with open("/proc/stat", encoding="ascii") as fh:
        fields = [int(v) for v in fh.readline().split()[1:]]
    user, nice, system, idle = fields[:4]
    return user + nice + system, idle


def one_run(workers: str, extra: list[str]) -> dict:
    tick = os.sysconf("SC_CLK_TCK")
    argv = [str(ROOT / ".venv" / "bin" / "pytest"), "-p", "no:cacheprovider", "-n", workers, *extra]
    busy0, idle0 = machine_ticks()
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - started
    busy1, idle1 = machine_ticks()
    lines = done.stdout.strip().splitlines() or [""]
    failed = [line for line in lines if line.startswith(("FAILED ", "ERROR "))]
    return {"workers": workers, "wall": wall, "cpu": (busy1 - busy0) / tick, "idle": (idle1 - idle0) / tick,
            "code": done.returncode, "summary": lines[-1].strip("= "), "failed": failed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2, help="runs of each worker count (default 2)")
    parser.add_argument("--workers", default="auto", help="pytest-xdist's -n values, comma-separated (default auto)")
    parser.add_argument("extra", nargs="*", help="more pytest arguments, after --")
    args = parser.parse_args()
    counts = [w.strip() for w in args.workers.split(",") if w.strip()]
    results: dict[str, list[dict]] = {w: [] for w in counts}
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f} at the start")
    print(f"{'workers':>8} {'wall':>8} {'CPU':>8} {'idle':>8}  result")
    for _ in range(args.runs):
        for w in counts:
            row = one_run(w, args.extra)
            results[w].append(row)
            print(f"{w:>8} {row['wall']:7.1f}s {row['cpu']:7.1f}s {row['idle']:7.1f}s  {row['summary']}", flush=True)
            for line in row["failed"]:  # a timing is worth little without knowing what failed
                print(f"{'':>10}{line[:150]}", flush=True)
    print("medians:")
    for w, rows in results.items():
        print(f"{w:>8} {statistics.median(r['wall'] for r in rows):7.1f}s "
              f"{statistics.median(r['cpu'] for r in rows):7.1f}s {statistics.median(r['idle'] for r in rows):7.1f}s")
    sys.exit(max(r["code"] for rows in results.values() for r in rows))


if __name__ == "__main__":
    main()
