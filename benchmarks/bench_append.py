"""Recording one action (`add`) in a session of 10 events and of 50,000, in fresh processes.

The target of issue 30: `add` at 50,000 events within 1.2 times `add` at 10. Before issue 30 the
session's one file was parsed and rewritten (and fsynced) whole at every action; now the action
appends one line to this laptop's journal of the session (companion.core.journals) and the
replay starts from the snapshot of the merged line.

    python benchmarks/bench_append.py [--runs 15] [--sizes 10,50000] [--baseline DIR] [--instructions]

``--instructions`` counts each `add` under valgrind's callgrind, as users run it: bytecode
compiled once and read since (``PYTHONDONTWRITEBYTECODE`` is dropped: with it every start
compiles every module, a constant that made the ratio look smaller) and ``PYTHONHASHSEED=0``.

With ``--baseline DIR`` (a folder holding an older ``companion`` package, e.g. from
``git archive b79d17f companion | tar -x -C DIR``) the same is timed for that package, side by
side (alternating runs, so both see the same machine load), on a session in its own layout.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_replay import PLAYERS, companion, long_session  # noqa: E402

from companion.core import session as sessions  # noqa: E402
from companion.core.device import device  # noqa: E402
from companion.core.journals import header, journal_path  # noqa: E402
from companion.core.store import Store, now  # noqa: E402


def journaled_session(home: Path, events: int) -> str:
    """A live score sheet of ``events`` rounds recorded on this laptop: its file as `new`
    writes it, and this laptop's journal of it as recording them one by one would have
    written it (one line each, each following the one before)."""
    store = Store(home)
    s = sessions.create(store, "scoresheet", PLAYERS, {"lowest_wins": False, "target": None})
    me = device(store)
    at = now()
    lines = [json.dumps(header(me["id"], me["name"], s.id), separators=(",", ":"))]
    for i in range(events):
        entry = {"id": f"{me['id']}:{i + 1}", "parent": f"{me['id']}:{i}" if i else None, "kind": "do",
                 "event": {"type": "add", "scores": {p: (i * 7 + j) % 23 for j, p in enumerate(PLAYERS)}}, "at": at}
        lines.append(json.dumps(entry, ensure_ascii=False, separators=(",", ":")))
    path = journal_path(store.sessions_dir, s.id, me["id"])
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    path.chmod(0o600)
    return s.id


def in_process(sizes: list[int], runs: int) -> None:
    """An `add` without the process around it: a fresh Store reads the session (from its
    snapshot), replays, appends and fsyncs, as the command does after start-up."""
    from common import median_seconds

    medians = {}
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            home = Path(tmp) / f"in{size}"
            sid = journaled_session(home, size)
            for _ in range(2):
                sessions.record(Store(home), sid, {"type": "add", "scores": {"Ann": 1}})
            event = {"type": "add", "scores": {"Ann": 1, "Bob": 2}}
            medians[size] = median_seconds(lambda: sessions.record(Store(home), sid, event), runs)
    figures = ", ".join(f"{size:,} events {medians[size] * 1000:.1f} ms" for size in sizes)
    print(f"add past start-up (in process): {figures}; {sizes[-1]:,} minus {sizes[0]:,}: "
          f"{(medians[sizes[-1]] - medians[sizes[0]]) * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--sizes", default="10,50000")
    parser.add_argument("--baseline", help="a folder with an older companion package, timed side by side")
    parser.add_argument("--instructions", action="store_true",
                        help="count each `add` in instructions (valgrind's callgrind: the machine's load does not count)")
    parser.add_argument("--in-process", action="store_true",
                        help="also time what an `add` does past start-up (read, replay, append) in this process")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.in_process:
        in_process(sizes, args.runs)
    with tempfile.TemporaryDirectory() as tmp:
        homes = {}
        for size in sizes:
            homes[("now", size)] = (Path(tmp) / f"now{size}" / "home", None)
            if args.baseline:
                homes[("before", size)] = (Path(tmp) / f"before{size}" / "home", args.baseline)
        sids = {}
        for (name, size), (home, package) in homes.items():
            sids[(name, size)] = journaled_session(home, size) if name == "now" else long_session(home, size)
            for _ in range(2):  # as after any action: a replay snapshot is kept
                companion(home, "add", "Ann=1", "--session", sids[(name, size)], baseline=package, module=True)
        if args.instructions:
            from bench_instructions import counted

            counts = {}
            for key, (home, package) in homes.items():
                # as users run it: the bytecode written once and read since (with
                # PYTHONDONTWRITEBYTECODE every start compiles every module, which hid two thirds
                # of the difference), the hash seed fixed (the order of sets and dicts moves the count)
                env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
                env.update(COMPANION_HOME=str(home), PYTHONHASHSEED="0", **({"PYTHONPATH": package} if package else {}))
                argv = [sys.executable, "-m", "companion", "add", "Ann=1", "Bob=2", "--session", sids[key]]
                subprocess.run(argv, env=env, cwd=str(home.parent), capture_output=True, check=True)
                counts[key] = counted(argv, env, cwd=str(home.parent))
            for name in ("before", "now"):
                if (name, sizes[0]) in counts:
                    figures = ", ".join(f"{size:,} events {counts[(name, size)] / 1e6:.1f} M" for size in sizes)
                    ratio = counts[(name, sizes[-1])] / counts[(name, sizes[0])]
                    print(f"add ({name}), instructions: {figures}; ratio {ratio:.2f} (target <= 1.2)")
        times: dict = {key: [] for key in homes}
        for _ in range(args.runs):  # alternate, so all see the same machine load
            for key, (home, package) in homes.items():
                start = time.perf_counter()
                companion(home, "add", "Ann=1", "Bob=2", "--session", sids[key], baseline=package, module=True)
                times[key].append(time.perf_counter() - start)
        medians = {key: sorted(t)[len(t) // 2] for key, t in times.items()}
        for name in ("before", "now"):
            if (name, sizes[0]) not in medians:
                continue
            figures = ", ".join(f"{size:,} events {medians[(name, size)] * 1000:.1f} ms" for size in sizes)
            ratio = medians[(name, sizes[-1])] / medians[(name, sizes[0])]
            print(f"add ({name}): {figures}; ratio {sizes[-1]:,} / {sizes[0]:,}: {ratio:.2f} (target <= 1.2)")


if __name__ == "__main__":
    main()
