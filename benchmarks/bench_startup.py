"""Start-up, side by side with a bare Click app of one command that prints one line.

Targets (issue 11): `companion --version` at most 1.15x the bare app, and `companion status`
on a 20-round score sheet at most 1.5x. The commands are timed interleaved (one run of each
in turn, many rounds), so a busy moment on a shared machine hits them all alike; medians.

    python benchmarks/bench_startup.py [--runs 31]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BARE = '''import click


@click.command()
def main():
    click.echo("one line")


main()
'''


def interleaved(commands: dict[str, list[str]], runs: int, env: dict) -> dict[str, float]:
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            start = time.perf_counter()
            subprocess.run(argv, check=True, capture_output=True, env=env)
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(t) for name, t in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=31)
    parser.add_argument("--companion", help="another installation's `companion` to time (e.g. an older release)")
    args = parser.parse_args()
    companion = args.companion or shutil.which("companion") or sys.exit("install the project first (pip install .)")
    with tempfile.TemporaryDirectory() as tmp:
        bare = Path(tmp) / "bare.py"
        bare.write_text(BARE)
        env = dict(os.environ, COMPANION_HOME=str(Path(tmp) / "home"))
        setup = "new scoresheet --players Ann,Bob,Cy\n" + "".join(
            f"add Ann={r} Bob={2 * r % 7} Cy={r % 3}\n" for r in range(20))
        subprocess.run([companion], input=setup, text=True, check=True, capture_output=True, env=env)
        subprocess.run([companion, "status"], check=True, capture_output=True, env=env)  # warm the caches
        result = interleaved({
            "bare Click app": [sys.executable, str(bare)],
            "companion --version": [companion, "--version"],
            "companion status (20 rounds)": [companion, "status"],
        }, args.runs, env)
    base = result["bare Click app"]
    for name, seconds in result.items():
        print(f"{name:<30} median {seconds * 1000:6.1f} ms   {seconds / base:4.2f}x")
    print("targets: --version <= 1.15x, status <= 1.5x")


if __name__ == "__main__":
    main()
