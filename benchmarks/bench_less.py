"""What an action does less (issue 29, round 2), each beside its anchor: the same work done the
way it was done before. Each line is the CPU of one call, median of many.

1. A dry run of a typed value (`Game.apply`: a Trans Amerika round, 4 players, 60 rails): the
   state copied by a walk of its plain JSON values (contract/api.state_copy) against
   ``copy.deepcopy``, as every answer typed to `build` or `pass` is checked.
2. The paths an action asks of the data folder (a session kept in one laptop's journal: its
   signature, its file and its journals, asked 10 times as one action asks them): made once
   per Store against made anew at each call (Store.session_path, journal_paths).
3. The two locks an action takes (its session's and the folder's), taken and released: the
   folders told ready by three stats (Store.ensure) and the files in .local/ named once,
   against both folders made again (two refused mkdirs, six stats) and the names made anew.
4. A file written whole (atomic_write_text): its folder told there by one stat and the
   leftovers of killed writes by their names' ends, against a mkdir refused and a glob
   pattern compiled for each file's name.
5. `rails MAP --all-hands` counted (Amerika's 16,807 hands, Europa's), nothing kept: the least
   of a subset's splits taken in one pass (steiner.hand_costs), against the tree given with
   ``--base DIR`` (e.g. a checkout of main before issue 29's round 2), each in its own process.

Run: ``.venv/bin/python benchmarks/bench_less.py [--base DIR]`` (about 20 seconds).
"""

from __future__ import annotations

import argparse
import copy
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from common import median_cpu as cpu  # noqa: E402  (benchmarks/common.py)

from companion.contract import api  # noqa: E402
from companion.contract.api import Setup  # noqa: E402
from companion.core import datapack  # noqa: E402
from companion.core import session as sessions  # noqa: E402
from companion.core.store import Store  # noqa: E402
from companion.games.trans.rules import TransAmerika, make_round_start  # noqa: E402
from companion.games.trans.track import trans_board  # noqa: E402


def trans_round() -> tuple:
    """(game, state, data, a build event): a Trans Amerika round with 60 rails built."""
    g = TransAmerika()
    data = datapack.pack(g.id)["values"]
    board = trans_board(data, g.id)
    rng = random.Random(7)
    players = ("Ann", "Bob", "Cy", "Dee")
    s = g.initial(Setup(g.id, players, {}), data)
    s = g.apply(s, make_round_start(s, data, "5e" * 32, "", "sess", special="build-anywhere", physical=True), data)
    for p, node in zip(players, rng.sample(range(len(board.xy)), 4)):
        s = g.apply(s, {"type": "marker", "player": p, "junction": board.name(node)}, data)
    lines = rng.sample(sorted(board.cost), 61)
    build = lambda n, ab: {"type": "build", "player": players[n % 4],  # noqa: E731
                           "paths": [f"{board.coord[ab[0]]}-{board.coord[ab[1]]}"]}
    for n, ab in enumerate(lines[:60]):
        s = g.advance(s, build(n, ab), data)
    return g, s, data, build(60, lines[60])


def dry_run() -> list[tuple[str, float, float]]:
    g, s, data, event = trans_round()
    copied = cpu(lambda: api.state_copy(s), 301)
    deep = cpu(lambda: copy.deepcopy(s), 301)
    applied = cpu(lambda: g.apply(s, event, data), 301)
    before = cpu(lambda: g.advance(copy.deepcopy(s), api.json_copy(event), data), 301)
    return [("the state copied (Trans Amerika, 60 rails)", copied, deep),
            ("a `build` dry run (Game.apply)", applied, before)]


def paths() -> list[tuple[str, float, float]]:
    store = Store(Path(tempfile.mkdtemp(prefix="bench-less-")) / "home")
    s = sessions.create(store, "scoresheet", ["Ann", "Bob"], {"lowest_wins": False, "target": None})
    sessions.record(store, s.id, {"type": "add", "scores": {"Ann": 1, "Bob": 2}})

    def asked() -> None:
        for _ in range(10):
            store.signature(s.id)
            store.session_path(s.id).exists()
            store.journal_paths(s.id)

    asked()
    kept = cpu(asked, 301)
    # the anchor makes every path anew at every call, as before issue 29's round 2
    real_session_path, real_journal_paths = Store.session_path, Store.journal_paths

    def session_path(self, sid):
        self._paths = None
        return real_session_path(self, sid)

    def journal_paths(self, sid):
        self._paths = self._journal_paths = None
        return real_journal_paths(self, sid)

    Store.session_path, Store.journal_paths = session_path, journal_paths
    try:
        made = cpu(asked, 301)
    finally:
        Store.session_path, Store.journal_paths = real_session_path, real_journal_paths
    return [("an action's paths (signature, file, journals) x10", kept, made)]


def lock() -> list[tuple[str, float, float]]:
    """The session's lock and the folder's taken and released, as an action takes them."""
    store = Store(Path(tempfile.mkdtemp(prefix="bench-less-")) / "home")
    s = sessions.create(store, "scoresheet", ["Ann", "Bob"], {"lowest_wins": False, "target": None})

    def taken() -> None:
        with store.writing_session(s.id), store.writing():
            pass

    taken()
    now = cpu(taken, 301)
    real_ready, real_local_path = Store._ready, Store.local_path

    def local_path(self, name):  # made anew at each call, as before
        self._paths = None
        return real_local_path(self, name)

    Store._ready, Store.local_path = lambda self: False, local_path  # the folders made again at each lock
    try:
        before = cpu(taken, 301)
    finally:
        Store._ready, Store.local_path = real_ready, real_local_path
    return [("an action's two locks taken and released", now, before)]


def write() -> list[tuple[str, float, float]]:
    """A file written whole (a session's file, the index, settings: atomic_write_text), its
    folder told there by a stat and its leftovers by their names' ends, against the folder made
    again (a mkdir refused) and the leftovers found by a glob pattern compiled for its name.
    Each run writes another file's name, as a command writes a session's file and the index."""
    from companion.core import files

    folder = Path(tempfile.mkdtemp(prefix="bench-less-"))
    names = iter(range(10**6))
    written = lambda: files.atomic_write_text(folder / f"s{next(names):07d}.json", "{}")  # noqa: E731

    def old_folder(path: Path) -> None:
        path.mkdir(mode=files.FOLDER_MODE, parents=True, exist_ok=True)

    def old_leftovers(path: Path) -> None:
        import contextlib

        with contextlib.suppress(OSError):
            for leftover in path.parent.glob(f".{files.glob_escape(path.name)}.*.tmp"):
                with contextlib.suppress(OSError):
                    leftover.unlink()

    written()
    now = cpu(written, 301)
    real = files.make_private_folder, files.clean_leftovers
    files.make_private_folder, files.clean_leftovers = old_folder, old_leftovers
    try:
        before = cpu(written, 301)
    finally:
        files.make_private_folder, files.clean_leftovers = real
    return [("a file written whole (atomic_write_text, fsync)", now, before)]


HANDS = """
import statistics, sys, time
from companion.games.trans import board as boards, steiner
b = boards.load(sys.argv[1])
times = []
for _ in range(5):
    steiner._hands_kept.clear()
    start = time.process_time()
    steiner.all_hands(b)
    times.append(time.process_time() - start)
print(statistics.median(times))
"""


def hands(base: str | None) -> list[tuple[str, float, float]]:
    def measured(tree: str, game: str) -> float:
        env = dict(os.environ, PYTHONPATH=tree)
        return float(subprocess.run([sys.executable, "-c", HANDS, game], env=env, check=True, capture_output=True,
                                    text=True, cwd=tempfile.gettempdir()).stdout)

    here = str(Path(__file__).resolve().parent.parent)
    return [(f"rails {game[6:]} --all-hands, counted anew", measured(here, game),
             measured(base, game) if base else float("nan")) for game in ("trans-amerika", "trans-europa")]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", help="another tree of the companion: its all-hands count is the anchor of 6")
    args = parser.parse_args()
    print(f"{'what (CPU of one, median)':52} {'now':>9} {'anchor':>9} {'ratio':>7}")
    for measure in (dry_run, paths, lock, write, lambda: hands(args.base)):
        for name, now, anchor in measure():
            print(f"{name:52} {now * 1000:7.3f}ms {anchor * 1000:7.3f}ms {anchor / max(now, 1e-9):6.1f}x")


if __name__ == "__main__":
    main()
