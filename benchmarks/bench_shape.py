"""What checking a game by shape at load, and bounding a plugin's check on the pages, cost.

Issue 27: every game is checked by shape when it is loaded (core/shape.py), which every
command on a session does once; and on `serve`'s pages a plugin's check of a move runs in a
thread of its own under a time bound (core/plugins.bounded). Side by side, in one process:

- the load check of each installed game by name only (the registry's check as it was) and by
  name and shape (as it is), medians of many loads;
- a trivial check called directly, and the same check run bounded, as a plugin's is.

    python benchmarks/bench_shape.py [--runs 300] [--base PYTHON]

``--base PYTHON`` times ``registry.check`` of each game with another tree's interpreter too (the
tree before this change), run in turn with this one's, for the anchor.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from unittest import mock


def interleaved_ms(fns: list, runs: int) -> list[float]:
    """Median milliseconds of each function, run in turn (one of each per round), so that a busy
    moment of a shared machine hits them alike."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(runs):
        for i, fn in enumerate(fns):
            start = time.perf_counter()
            fn()
            times[i].append(time.perf_counter() - start)
    return [statistics.median(t) * 1000 for t in times]


def by_name_only(check):
    """The registry's check with the shape checks left out: the check as it was."""
    from companion.core import shape

    def run():
        with mock.patch.multiple(shape, check_facts=lambda *a: None, check_rules=lambda *a: None,
                                 check_moves=lambda *a: None, check_views=lambda *a: None):
            check()
    return run


# the load check of each game, timed in an interpreter of either tree: {game: median ms}
CHECK_TIMES = """
import json, statistics, sys, time
from companion.core import registry
out = {}
for gid, (t, d, v) in registry.targets().items():
    registry.check(gid, t, d, v)
    x = []
    for _ in range(int(sys.argv[1])):
        a = time.perf_counter(); registry.check(gid, t, d, v); x.append(time.perf_counter() - a)
    out[gid] = statistics.median(x) * 1000
print(json.dumps(out))
"""


def check_times(python: str, runs: int) -> dict[str, float]:
    done = subprocess.run([python, "-c", CHECK_TIMES, str(runs)], check=True, capture_output=True, text=True,
                          cwd="/")
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--base", help="another tree's python, to time its registry.check side by side")
    args = parser.parse_args()
    runs = args.runs
    from companion.core import plugins, registry

    if args.base:
        here: dict[str, list[float]] = {}
        base: dict[str, list[float]] = {}
        for _ in range(3):  # in turn, three times each
            for gid, ms in check_times(sys.executable, runs).items():
                here.setdefault(gid, []).append(ms)
            for gid, ms in check_times(args.base, runs).items():
                base.setdefault(gid, []).append(ms)
        print(f"{'game':<15} {'registry.check, base':>21} {'this tree':>10}")
        for gid in here:
            print(f"{gid:<15} {statistics.median(base.get(gid, [0])):>18.3f} ms {statistics.median(here[gid]):>7.3f} ms")

    found = registry.targets()
    print(f"{'game':<15} {'by name':>10} {'by name and shape':>19} {'shape alone':>12}")
    for gid, (target, dist, version) in found.items():
        registry.check(gid, target, dist, version)  # imported once: what is timed is the check

        def check(gid=gid, target=target, dist=dist, version=version):
            registry.check(gid, target, dist, version)

        name, both = interleaved_ms([by_name_only(check), check], runs)
        print(f"{gid:<15} {name:>8.3f} ms {both:>17.3f} ms {both - name:>10.3f} ms")

    parts = registry.parts(next(iter(found)))
    plugin = registry.Parts(parts.game, parts.moves, parts.views, "a-plugin", "1", "a_plugin.rules:Game")
    direct, bounded = interleaved_ms([lambda: plugins.bounded(parts, "go", lambda: True),
                                      lambda: plugins.bounded(plugin, "go", lambda: True)], runs)
    print(f"a check called directly {direct:.3f} ms; bounded (a thread of its own) {bounded:.3f} ms "
          f"(+{bounded - direct:.3f} ms a move of a plugin's on each page drawn)")


if __name__ == "__main__":
    main()
