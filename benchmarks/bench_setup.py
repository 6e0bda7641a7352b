"""What the shell's `new` adds to ask "N printed values are not known yet: set them up now?"
(issue 24): `setup.pending(app, game)` on a fresh data folder, per game, median of alternated
runs. It runs once after every `new` in the shell, and before each `data setup` question list.

    python benchmarks/bench_setup.py [--runs 41]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

GAMES = ("trans-europa", "trans-amerika", "transatlantic", "atlantic-star")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=41)
    runs = parser.parse_args().runs
    from companion.core.app import App
    from companion.terminal import setup

    app = App(Path(tempfile.mkdtemp(prefix="companion-bench-")))
    times: dict[str, list[float]] = {g: [] for g in GAMES}
    for g in GAMES:  # warm: the packs are read once per process
        setup.pending(app, g)
    for _ in range(runs):
        for g in GAMES:  # alternated: each game in turn, every round
            start = time.perf_counter()
            setup.pending(app, g)
            times[g].append(time.perf_counter() - start)
    for g in GAMES:
        print(f"{g:<15} {len(setup.pending(app, g)):>3} values unknown   median {statistics.median(times[g]) * 1000:.2f} ms")


if __name__ == "__main__":
    main()
