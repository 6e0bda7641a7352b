"""The record in another language and the xlsx export (issue 28), side by side with their
anchors, on a data folder of finished sessions:

* `export --format xlsx` beside `export --format csv` (the same rows; xlsx adds openpyxl's
  import and its zip), and `export --format csv --excel` in German beside English;
* `stats`, `stats --html -` and `players` in German (`--lang de`: the catalogue read, numbers and
  dates in German) beside English.

Each pair runs in turn, as real subprocesses, so the ratio is taken under the same load.

    python benchmarks/bench_exports_lang.py [--sessions 1000] [--runs 7]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import fill_finished_scoresheets


def timed(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp())
    root = work / "data"
    fill_finished_scoresheets(root, args.sessions)
    base = [sys.executable, "-m", "companion", "--data-dir", str(root)]
    pairs = {
        "export xlsx / csv": (["export", "--format", "csv", "-o", str(work / "a.csv"), "--force"],
                              ["export", "--format", "xlsx", "-o", str(work / "a.xlsx"), "--force"]),
        "export --excel de / en": (["export", "--format", "csv", "--excel", "-o", str(work / "e.csv"), "--force"],
                                   ["--lang", "de", "export", "--format", "csv", "--excel", "-o",
                                    str(work / "d.csv"), "--force"]),
        "stats de / en": (["stats"], ["--lang", "de", "stats"]),
        "stats --html de / en": (["stats", "--html", "-"], ["--lang", "de", "stats", "--html", "-"]),
        "players de / en": (["players"], ["--lang", "de", "players"]),
    }
    print(f"{args.sessions} finished sessions, median of {args.runs} pairs (anchor first):")
    for name, (anchor, other) in pairs.items():
        a, b = [], []
        for _ in range(args.runs):
            a.append(timed(base + anchor))
            b.append(timed(base + other))
        ma, mb = statistics.median(a), statistics.median(b)
        print(f"  {name:<24} {mb:6.3f} s / {ma:6.3f} s   ratio {mb / ma:.2f}")


if __name__ == "__main__":
    main()
