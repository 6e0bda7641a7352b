"""Recording one action in a data folder holding 1, 100 and 10,000 finished sessions.

The issue's target: the median at 10,000 sessions is within 1.2 times the median at 1, since
each session has its own file and recording touches only that file and the lock.

    python benchmarks/bench_record.py [--runs 60] [--sizes 1,100,10000]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from common import fill_finished_scoresheets, median_seconds

from companion.core import session as sessions


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=60)
    parser.add_argument("--sizes", default="1,100,10000")
    args = parser.parse_args()
    results = {}
    for size in [int(s) for s in args.sizes.split(",")]:
        with tempfile.TemporaryDirectory() as tmp:
            store = fill_finished_scoresheets(Path(tmp) / "home", size)
            live = sessions.create(store, "scoresheet", ["Ann", "Bob"], {"lowest_wins": False, "target": None})
            for i in range(20):  # a session in the middle of an evening
                sessions.record(store, live.id, {"type": "add", "scores": {"Ann": i}})
            event = {"type": "add", "scores": {"Ann": 1, "Bob": 2}}
            results[size] = median_seconds(lambda: sessions.record(store, live.id, event), args.runs)
            print(f"{size:>6} stored sessions: record one action median {results[size] * 1000:6.2f} ms")
    sizes = sorted(results)
    if len(sizes) > 1:
        print(f"ratio {sizes[-1]} / {sizes[0]}: {results[sizes[-1]] / results[sizes[0]]:.2f} (target <= 1.2)")


if __name__ == "__main__":
    main()
