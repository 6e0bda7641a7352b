"""`sessions`, `stats` and `players` on data folders of 1,000 and 10,000 finished sessions.

The issue's targets: with 10,000 finished sessions each command's median is under 2 seconds,
and the cost grows no faster than linearly from 1,000 to 10,000 (ratio at most 10). The
commands run as real subprocesses (start-up included), so the ratio also shows what each
extra session costs beyond the fixed start-up, measured with `companion --version`.

    python benchmarks/bench_history.py [--runs 7] [--sizes 1000,10000] [--commands sessions,stats]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from common import fill_finished_scoresheets, median_command, python

TARGET_SECONDS = 2.0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--commands", default="sessions,stats,stats --json,players")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    commands = [c.split() for c in args.commands.split(",")]
    base = median_command([python(), "-m", "companion", "--version"], args.runs)
    print(f"start-up (companion --version): median {base * 1000:7.1f} ms")
    results: dict[tuple[str, int], float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            root = Path(tmp) / f"home{size}"
            fill_finished_scoresheets(root, size)
            for cmd in commands:
                argv = [python(), "-m", "companion", "--data-dir", str(root), *cmd]
                median_command(argv, 1)  # warm the file cache
                t = results[(" ".join(cmd), size)] = median_command(argv, args.runs)
                verdict = "" if size < 10_000 else (" ok" if t < TARGET_SECONDS else f" OVER {TARGET_SECONDS:g} s")
                print(f"{size:>6} sessions  {' '.join(cmd):<14} median {t * 1000:8.1f} ms{verdict}")
    lo, hi = min(sizes), max(sizes)
    if lo != hi:
        for cmd in commands:
            name = " ".join(cmd)
            a, b = results[(name, lo)], results[(name, hi)]
            marginal = (b - base) / max(a - base, 1e-9)
            print(f"{name:<14} ratio {hi}/{lo}: {b / a:5.2f} (linear: <= {hi / lo:g}); "
                  f"beyond start-up: {marginal:5.2f}")


if __name__ == "__main__":
    main()
