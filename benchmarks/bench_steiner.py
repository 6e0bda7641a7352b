"""Speed of the exact missing-rails calculation, against the issue's targets.

1. One exact evaluation (5 cities, a network of 20 rails) in process: median under 20 ms.
   Scenarios are drawn from a fixed seed: a start marker, 20 rails grown from it at random,
   and one city per colour; a second set adds three other players' networks of 20 rails.
2. ``rails MAP --all-hands --stats`` (``steiner.all_hands``) on each map: at least 2x faster
   than the plain Dreyfus-Wagner of ``baseline_dreyfus_wagner.py``, run side by side on the
   same hands; every hand's count must agree.
3. Memory: the peak traced by tracemalloc during the all-hands run, and the process's peak
   resident size, against the 200 MB limit.

Run: ``.venv/bin/python benchmarks/bench_steiner.py`` (about a minute and a half; the
baseline dominates). ``--quick`` times the baseline on a 2,000-hand sample and extrapolates.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import baseline_dreyfus_wagner as baseline  # noqa: E402

from companion.games.trans import board as boards  # noqa: E402
from companion.games.trans import steiner  # noqa: E402

MAPS = ["amerika", "europa"]


def grow_network(board, rng: random.Random, rails: int, taken: set) -> tuple[int, list]:
    """A start marker on a free junction and ``rails`` free lines grown from it at random."""
    free_nodes = [v for v in range(len(board.xy)) if all(v not in e for e in taken)]
    start = rng.choice(free_nodes)
    nodes = {start}
    built = []
    while len(built) < rails:
        frontier = [e for e in board.cost if (e[0] in nodes or e[1] in nodes) and e not in taken]
        e = rng.choice(frontier)
        taken.add(e)
        built.append(e)
        nodes.update(e)
    return start, built


def scenarios(board, count: int, others: int, seed: int = 6):
    rng = random.Random(seed)
    by_colour = board.hands_colours()
    out = []
    for _ in range(count):
        taken: set = set()
        start, mine = grow_network(board, rng, 20, taken)
        built = list(mine)
        for _ in range(others):
            built += grow_network(board, rng, 20, taken)[1]
        network = board.network(start, built)
        hand = [rng.choice(cs).node for cs in by_colour]
        out.append((hand, network, built))
    return out


def bench_one(board, others: int, count: int) -> dict:
    cases = scenarios(board, count, others)
    times = []
    for hand, network, built in cases:
        t = time.perf_counter()
        steiner.missing_rails(board, hand, network, built)
        times.append(time.perf_counter() - t)
    times.sort()
    return {
        "median_ms": 1000 * statistics.median(times),
        "p90_ms": 1000 * times[int(0.9 * len(times))],
        "max_ms": 1000 * times[-1],
    }


def bench_all(board, players, quick: bool) -> dict:
    ours_times = []
    for _ in range(3):
        t = time.perf_counter()
        _, ours = steiner.hand_costs(board, players)
        ours_times.append(time.perf_counter() - t)
    ours_s = statistics.median(ours_times)
    sample = 2000 if quick else None
    t = time.perf_counter()
    base = baseline.hand_costs(board, players, sample=sample)
    base_s = time.perf_counter() - t
    wrong = [h for h, v in base.items() if ours[h] != v]
    base_full_s = base_s * len(ours) / len(base)
    return {
        "hands": len(ours),
        "ours_s": ours_s,
        "baseline_s": base_full_s,
        "baseline_measured": f"{len(base)} hands" + (" (extrapolated)" if len(base) < len(ours) else ""),
        "ratio": base_full_s / ours_s,
        "disagreements": len(wrong),
    }


def memory(board) -> float:
    tracemalloc.start()
    steiner.all_hands(board)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 1e6


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="baseline on a 2,000-hand sample only")
    ap.add_argument("--count", type=int, default=300, help="evaluations per map for part 1")
    args = ap.parse_args(argv)

    print("1. One exact evaluation: 5 cities, a network of 20 rails (target: median < 20 ms)")
    for name in MAPS:
        board = boards.load(boards.resolve_map(name))
        for others in (0, 3):
            r = bench_one(board, others, args.count)
            extra = f" + {others} other networks of 20" if others else ""
            print(f"   {name:8} network of 20{extra:24} median {r['median_ms']:6.2f} ms   "
                  f"p90 {r['p90_ms']:6.2f} ms   max {r['max_ms']:6.2f} ms")

    print("2. All hands on the empty board (target: at least 2x faster than plain Dreyfus-Wagner)")
    for name in MAPS:
        board = boards.load(boards.resolve_map(name))
        for players in (None, 3):
            label = "4-6 players" if players is None else "2-3 players"
            try:
                r = bench_all(board, players, args.quick)
            except Exception as exc:  # e.g. Europa's dashed cards are unknown
                print(f"   {name:8} {label}: skipped ({exc})")
                continue
            print(f"   {name:8} {label}: {r['hands']:5} hands  shared tables {r['ours_s']:6.2f} s   "
                  f"plain DW {r['baseline_s']:7.2f} s [{r['baseline_measured']}]   "
                  f"{r['ratio']:5.1f}x faster   disagreements: {r['disagreements']}")

    print("3. Memory (target: under 200 MB)")
    for name in MAPS:
        board = boards.load(boards.resolve_map(name))
        print(f"   {name:8} all hands: peak traced {memory(board):6.1f} MB")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"   whole benchmark process: peak resident {rss:6.1f} MB")


if __name__ == "__main__":
    main()
