"""Sums the lines of ``COMPANION_TEST_TIMES=FILE pytest`` (tests/suite_times.py) by file.

    python benchmarks/suite_times.py FILE [--top 30] [--tests]

Prints, per test file, its tests' wall time, their CPU (the test process, the children it
reaped, and the processes it keeps: a Chromium, the commands' helper) and the wait (wall minus
CPU): where the suite computes and where it waits.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--tests", action="store_true", help="list tests, not files")
    args = parser.parse_args()
    rows = [json.loads(line) for line in open(args.file, encoding="utf-8") if line.strip()]
    sums: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
    for row in rows:
        key = row["test"] if args.tests else row["test"].split("::")[0]
        entry = sums[key]
        entry[0] += row["wall"]
        entry[1] += row["cpu"] + row["children"] + max(0.0, row.get("kept", 0.0))
        entry[2] += 1
    wall = sum(e[0] for e in sums.values())
    cpu = sum(e[1] for e in sums.values())
    print(f"{len(rows)} tests: {wall:.0f} test-seconds of wall, {cpu:.0f} of CPU, {wall - cpu:.0f} waiting")
    print(f"{'wall':>7} {'cpu':>7} {'wait':>7} {'n':>4}  file")
    for key, (w, c, n) in sorted(sums.items(), key=lambda kv: -kv[1][0])[: args.top]:
        print(f"{w:7.1f} {c:7.1f} {w - c:7.1f} {n:4d}  {key}")


if __name__ == "__main__":
    main()
