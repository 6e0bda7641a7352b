"""`companion status` on every game against a bare Click app, counted in instructions.

Wall-clock ratios on a shared machine move by a tenth between two runs with no change
(BENCHMARKS.md, issue 27 item 7); instructions counted by valgrind's callgrind do not depend on
the load. The games are prepared as benchmarks/bench_startup.py prepares them (a 20-round score
sheet, Trans Amerika with 80 rails, Transatlantic and Atlantic Star in mid-play). Measure a
non-editable install (`pip install .`), as users and CI have it: an editable install adds its
import finder to every start, the bare app's too.

    python benchmarks/bench_instructions.py [--companion PATH]

`PYTHONDONTWRITEBYTECODE` is left out of the environment: with it every module is compiled at
every start, which triples the count.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_startup  # noqa: E402

GAMES = ("scoresheet", "trans-amerika", "transatlantic", "atlantic-star")


def counted(argv: list[str], env: dict, cwd: str | None = None) -> int:
    """The instructions one run of ``argv`` takes (callgrind's total)."""
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv], env=env,
                          capture_output=True, text=True, cwd=cwd)
    return int(re.search(r"Collected : (\d+)", done.stderr).group(1))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--companion", help="the `companion` to count (default: the one on the PATH)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind): nothing was counted")
    companion = args.companion or shutil.which("companion") or sys.exit("install the project first (pip install .)")
    python = str(Path(companion).parent / "python")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as tmp:
        bare = Path(tmp) / "bare.py"
        bare.write_text(bench_startup.BARE)
        subprocess.run([python, str(bare)], env=env, capture_output=True)  # compiled once, as every start after
        base = counted([python, str(bare)], env)
        print(f"{'bare Click app':<34} {base / 1e6:8.1f} M instructions")
        for game in GAMES:
            home = Path(tmp) / game
            there = dict(env, COMPANION_HOME=str(home))
            bench_startup.prepare(game, home, companion, there)
            for argv in ([companion, "status"], [companion, "--version"]):  # the caches and .pyc written
                subprocess.run(argv, env=there, capture_output=True)
            n = counted([companion, "status"], there)
            print(f"{'status, ' + game:<34} {n / 1e6:8.1f} M instructions   {n / base:4.2f}x")
        n = counted([companion, "--version"], env)
        print(f"{'--version':<34} {n / 1e6:8.1f} M instructions   {n / base:4.2f}x")
    print("targets (issue 27): status <= 1.3x on every game, --version <= 1.1x")


if __name__ == "__main__":
    main()
