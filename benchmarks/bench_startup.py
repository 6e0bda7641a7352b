"""Start-up: `companion --version` against `python3 -c pass`, median of several runs each.

The issue's target: the ratio stays under 4 (prompt_toolkit and rich are imported only where
they are needed, and commands are imported only when used).

    python benchmarks/bench_startup.py [--runs 21]
"""

from __future__ import annotations

import argparse
import shutil
import sys

from common import median_command


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    companion = shutil.which("companion") or sys.exit("install the project first (pip install .)")
    base = median_command([sys.executable, "-c", "pass"], args.runs)
    comp = median_command([companion, "--version"], args.runs)
    print(f"python -c pass       median {base * 1000:7.1f} ms")
    print(f"companion --version  median {comp * 1000:7.1f} ms")
    print(f"ratio {comp / base:.2f} (target < 4)")


if __name__ == "__main__":
    main()
