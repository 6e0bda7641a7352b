"""A Tab in the login shell at 10,000 sessions (issue 23: under 150 ms).

What bash runs on Tab is `companion` itself with the completion variables its script sets
(`_COMPANION_COMPLETE=bash2_complete`, `COMP_LINE` up to the cursor; issue 29): a whole process, start-up
included. Each completion runs as that process, alternating with `companion --version` (the
floor of any command), medians of ``--runs``.

    python benchmarks/bench_complete.py [--runs 15] [--sessions 10000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from common import fill_finished_scoresheets, python

TARGET_MS = 150
CASES = [
    ("session ids", ["companion", "use", ""]),
    ("a session id's start", ["companion", "report", "b00"]),
    ("players", ["companion", "stats", "--player", ""]),
    ("games and titles", ["companion", "stats", "--game", ""]),
    ("a title", ["companion", "played", "Ca"]),
    ("command names", ["companion", "st"]),
]


def timed(argv: list[str], env: dict) -> float:
    start = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--sessions", type=int, default=10_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "home"
        fill_finished_scoresheets(root, args.sessions, ("scoresheet", "atlantic-star", "transatlantic"))
        subprocess.run([python(), "-m", "companion", "--data-dir", str(root), "played", "Carcassonne", "--players",
                        "Ann=1,Bob=2"], check=True, capture_output=True)
        base_env = {**os.environ, "COMPANION_HOME": str(root)}
        version = [python(), "-m", "companion", "--version"]
        for name, words in CASES:
            env = {**base_env, "_COMPANION_COMPLETE": "bash2_complete", "COMP_LINE": " ".join(words)}
            argv = [python(), "-m", "companion"]
            timed(argv, env), timed(version, base_env)  # warm the file cache and the bytecode
            tab, floor = [], []
            for _ in range(args.runs):
                tab.append(timed(argv, env))
                floor.append(timed(version, base_env))
            t, f = statistics.median(tab) * 1000, statistics.median(floor) * 1000
            verdict = "ok" if t < TARGET_MS else f"OVER {TARGET_MS} ms"
            print(f"{args.sessions} sessions  Tab for {name:<22} median {t:6.1f} ms "
                  f"(companion --version {f:5.1f} ms)  {verdict}", flush=True)


if __name__ == "__main__":
    main()
