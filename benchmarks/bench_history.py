"""`sessions`, `stats`, `stats --ratings` and `players` on data folders of 1,000 and 10,000
finished sessions, and the import of a 1,000-session file and of one continued session.

Issue 23 adds 50,000 sessions (years of a club's plays), `report ID` (one session, whatever
the store's size), `export --format json` (streamed: under 2 s and 150 MB at 50,000), the peak
memory of each run, and ``--against SRC``: the same commands from another source tree (an
earlier version, e.g. `git archive` of it) run in turn with this one, each pair side by side,
so the ratio of the two is taken from runs under the same load.

The targets (issue 16): with 10,000 sessions `sessions`, `stats` and `stats --ratings` under
1 s each; importing a 1,000-session file under 5 s; a fast-forward import of one continued
session (into the folder of 10,000) under 0.5 s. Earlier (issue 7): no worse than linear from
1,000 to 10,000 (ratio at most 10). Every command runs as a real subprocess (start-up
included), so the ratio also shows what each extra session costs beyond the fixed start-up,
measured with `companion --version`.

    python benchmarks/bench_history.py [--runs 7] [--sizes 1000,10000] [--commands sessions,stats]

Issue 30: ``--devices 10`` spreads the plays over ten laptops' journals (``sessions/ID.DEVICE.jsonl``,
as a folder synced from a club's ten laptops holds them), and ``--first-sync`` measures a laptop's
first sync of the largest folder: the shared part of the folder copied into a new data folder
(as the sync engine brings it: ``sessions/`` and the group's lists, without ``.local/``), then the
first `sessions` there, which builds this laptop's index from every session; each run starts again
from a fresh copy, and with ``--against`` the other tree runs in turn on its own fresh copy.

Issue 29: ``--new-play`` times `stats --ratings` the first after a new play on the largest
folder (the ratings added on top of their cache) beside the same command with every play rated
again, pair by pair, and checks that both give the same numbers.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from common import fill_finished_scoresheets, median_command, python

TARGET_SECONDS = 1.0
TARGETED = {"sessions", "stats", "stats --ratings"}
IMPORT_TARGET = 5.0
CONTINUED_TARGET = 0.5
FIRST_SYNC_AGAINST_MAX = 10_000


def companion(root: Path, *args: str) -> list[str]:
    return [python(), "-m", "companion", "--data-dir", str(root), *args]


# A small launcher between this script and each command (as bench_memory.py does): a child
# starts with a copy of its parent's pages, so a command started straight from this script
# (large, once it has built 50,000 sessions) would report this script's size as its own peak.
LAUNCHER = r"""
import os, sys, time
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
    os.execvp(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
print(time.perf_counter() - start, usage.ru_maxrss, os.waitstatus_to_exitcode(status),
      usage.ru_utime + usage.ru_stime)
"""


def launched(argv: list[str], env: dict | None = None) -> tuple[float, float, float]:
    """(seconds, peak resident MB, CPU seconds) of one run of ``argv``, taken by the launcher."""
    # from outside the repository: `python -m` puts the working folder first on the path, so
    # from its root every run would be this tree's whatever PYTHONPATH names (--against)
    done = subprocess.run([python(), "-S", "-c", LAUNCHER, *argv], capture_output=True, text=True, env=env,
                          check=True, cwd=tempfile.gettempdir())
    seconds, kilobytes, code, cpu = done.stdout.split()
    if int(code):
        raise SystemExit(f"{' '.join(argv)} failed ({code})")
    return float(seconds), int(kilobytes) / 1024, float(cpu)


def timed(argv: list[str], env: dict | None = None) -> tuple[float, float]:
    """(seconds, peak resident MB) of one run of ``argv``, taken by the launcher."""
    return launched(argv, env)[:2]


def bench_new_play(root: Path, runs: int) -> dict:
    """`stats --ratings`, the first after a new play (issue 29), side by side with the full
    recomputation: each pair logs a play (untimed) and times `stats --ratings` on top of the
    cache (A), then logs another and times it with the cache removed, every play rated again
    (B). Both outputs are compared: the numbers must be the same. Each pair also times the
    command once more right after A (the history unchanged: the cached figure, the anchor that
    carries over from a quiet machine's table)."""
    import os
    import statistics

    here = {**os.environ, "PYTHONPATH": ""}
    cache = root / "cache" / "ratings.json"
    argv = companion(root, "stats", "--ratings")
    pairs = []
    subprocess.run(argv, check=True, capture_output=True)  # the cache of the history as it is
    for n in range(runs + 1):
        subprocess.run(companion(root, "played", "Azul", "--players", f"Ann={n % 7},Bob={n % 5},Cy={n % 3}"),
                       check=True, capture_output=True)
        a = launched(argv, here)
        c = launched(argv, here)  # and again: the history unchanged, the kept ratings as they are
        added = subprocess.run(companion(root, "stats", "--ratings", "--json"), check=True, capture_output=True).stdout
        cache.unlink()
        again = subprocess.run(companion(root, "stats", "--ratings", "--json"), check=True, capture_output=True).stdout
        if added != again:
            raise SystemExit("the ratings added on top of the cache differ from rating everything again")
        subprocess.run(companion(root, "played", "Azul", "--players", f"Ann={n % 3},Bob={n % 7},Cy={n % 5}"),
                       check=True, capture_output=True)
        cache.unlink()
        b = launched(argv, here)
        if n:  # the first pair warms the file cache
            pairs.append((a, b, c))
    return {"added": statistics.median(p[0][0] for p in pairs), "added_cpu": statistics.median(p[0][2] for p in pairs),
            "added_rss": max(p[0][1] for p in pairs),
            "again": statistics.median(p[1][0] for p in pairs), "again_cpu": statistics.median(p[1][2] for p in pairs),
            "again_rss": max(p[1][1] for p in pairs),
            "ratio": statistics.median(p[0][0] / p[1][0] for p in pairs),
            "cached": statistics.median(p[2][0] for p in pairs), "cached_cpu": statistics.median(p[2][2] for p in pairs),
            "to_cached": statistics.median(p[0][0] / p[2][0] for p in pairs)}


def side_by_side(argv: list[str], base_env: dict | None, runs: int) -> dict:
    """Medians of ``runs`` runs of ``argv`` (this tree) and, with ``base_env``, of the same
    command from the other tree, alternating A B A B; the ratio is the median of the pairs'."""
    import os
    import statistics

    here = {**os.environ, "PYTHONPATH": ""}
    pairs = []
    timed(argv, here)  # warm the file cache (and each tree's bytecode)
    if base_env is not None:
        timed(argv, base_env)
    for _ in range(runs):
        a = timed(argv, here)
        b = timed(argv, base_env) if base_env is not None else None
        pairs.append((a, b))
    out = {"time": statistics.median(p[0][0] for p in pairs), "rss": max(p[0][1] for p in pairs)}
    if base_env is not None:
        out["base_time"] = statistics.median(p[1][0] for p in pairs)
        out["base_rss"] = max(p[1][1] for p in pairs)
        out["ratio"] = statistics.median(p[0][0] / p[1][0] for p in pairs)
    return out


def bench_first_sync(root: Path, tmp: Path, base_env: dict | None, runs: int) -> dict:
    """A laptop's first sync of ``root`` (issue 30): the copy of its shared part (timed apart)
    and the first `sessions` on the copy (a fresh copy each run), this tree and, with
    ``base_env``, the other one in turn (up to FIRST_SYNC_AGAINST_MAX sessions: before issue 30's
    item 5 the first `sessions` rewrote the index once per session, quadratic in the folder)."""
    if base_env is not None and sum(1 for _ in (root / "sessions").glob("*.json")) > FIRST_SYNC_AGAINST_MAX:
        base_env = None
    import os
    import statistics

    here = {**os.environ, "PYTHONPATH": ""}
    trees = [("this", here)] + ([("other", base_env)] if base_env is not None else [])
    found: dict[str, list] = {name: [] for name, _ in trees}
    copies = []
    for _ in range(runs):
        for name, env in trees:
            target = tmp / "first-sync"
            shutil.rmtree(target, ignore_errors=True)
            start = time.perf_counter()
            shutil.copytree(root, target, ignore=shutil.ignore_patterns(".local"))
            copies.append(time.perf_counter() - start)
            found[name].append(launched(companion(target, "sessions"), env))
    shutil.rmtree(tmp / "first-sync", ignore_errors=True)
    out = {"copy": statistics.median(copies)}
    for name, got in found.items():
        out[name] = {"time": statistics.median(g[0] for g in got), "cpu": statistics.median(g[2] for g in got),
                     "rss": max(g[1] for g in got)}
    return out


def bench_cold(argv: list[str], cache: Path, runs: int) -> float:
    """Median time of a command with its cache file removed before each run (not timed)."""
    times = []
    for _ in range(runs):
        cache.unlink(missing_ok=True)
        start = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]


def bench_import(tmp: Path, source: Path, runs: int) -> float:
    """Median time to import a json export of the 1,000-session folder into an empty folder."""
    file = tmp / "thousand.json"
    subprocess.run(companion(source, "export", "-o", str(file), "--force"), check=True, capture_output=True)
    times = []
    for n in range(runs):
        target = tmp / f"import{n}"
        start = time.perf_counter()
        subprocess.run(companion(target, "import", str(file)), check=True, capture_output=True)
        times.append(time.perf_counter() - start)
        shutil.rmtree(target)
    return sorted(times)[len(times) // 2]


def bench_continued(tmp: Path, root: Path, runs: int) -> float:
    """Median time of a fast-forward import of one session continued elsewhere (3 new events),
    into the big folder; the stored file is put back between runs (not timed)."""
    sid = sorted(p.stem for p in (root / "sessions").glob("*.json"))[0]
    path = root / "sessions" / f"{sid}.json"
    original = path.read_bytes()
    other = tmp / "other"
    single = tmp / "single.json"
    subprocess.run(companion(root, "export", "-o", str(single), "--force", "--game", "scoresheet"),
                   check=True, capture_output=True)
    doc = json.loads(single.read_text(encoding="utf-8"))
    doc["sessions"] = [s for s in doc["sessions"] if s["meta"]["id"] == sid]
    single.write_text(json.dumps(doc), encoding="utf-8")
    subprocess.run(companion(other, "import", str(single)), check=True, capture_output=True)
    # the game goes on elsewhere: the finish undone, a note, finished again (3 new entries)
    subprocess.run(companion(other, "--session", sid, "undo"), check=True, capture_output=True)
    subprocess.run(companion(other, "--session", sid, "note", "continued on the other laptop"), check=True,
                   capture_output=True)
    subprocess.run(companion(other, "--session", sid, "finish"), check=True, capture_output=True)
    grown = tmp / "grown.json"
    subprocess.run(companion(other, "export", "-o", str(grown), "--force"), check=True, capture_output=True)
    times = []
    for _ in range(runs):
        path.write_bytes(original)
        start = time.perf_counter()
        result = subprocess.run(companion(root, "import", str(grown)), check=True, capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        assert f"continued: {sid}, 3 new events" in result.stdout, result.stdout
    path.write_bytes(original)
    return sorted(times)[len(times) // 2]


def main() -> None:
    import os

    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--commands", default="sessions,stats,stats --ratings,stats --json,players")
    parser.add_argument("--no-import", action="store_true", help="Skip the two import benchmarks.")
    parser.add_argument("--games", default="scoresheet",
                        help="Comma-separated game ids the sessions cycle through (index only), e.g. "
                             "scoresheet,trans-europa,transatlantic,atlantic-star")
    parser.add_argument("--against", metavar="SRC",
                        help="A source tree of another version (its folder holding companion/): each command "
                             "also runs from it, in turn with this tree, and the ratio is printed.")
    parser.add_argument("--report", action="store_true", help="Also `report ID` of one session.")
    parser.add_argument("--export", action="store_true", help="Also `export --format json -o FILE`.")
    parser.add_argument("--devices", type=int, default=1,
                        help="Spread the plays over this many laptops' journals (issue 30: a synced club folder).")
    parser.add_argument("--first-sync", action="store_true",
                        help="Also a laptop's first sync of the largest folder: copied in, then the first `sessions`.")
    parser.add_argument("--new-play", action="store_true",
                        help="Also `stats --ratings` the first after a new play, beside the full recomputation "
                             "(on the largest folder).")
    parser.add_argument("--store", metavar="DIR",
                        help="Keep the data folders in DIR (DIR/homeSIZE) and reuse one built before: the "
                             "folder of 50,000 plays takes minutes to build (one size: the smaller are removed).")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    commands = [c.split() for c in args.commands.split(",") if c]
    base_env = {**os.environ, "PYTHONPATH": args.against} if args.against else None
    start_up = side_by_side([python(), "-m", "companion", "--version"], base_env, args.runs)
    print(f"start-up (companion --version): median {start_up['time'] * 1000:7.1f} ms"
          + (f", other tree {start_up['base_time'] * 1000:7.1f} ms" if base_env else ""))
    base = start_up["time"]
    results: dict[tuple[str, int], float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        roots = {}
        for size in sizes:
            root = roots[size] = Path(args.store or tmp) / f"home{size}"
            if not (args.store and (root / "sessions").is_dir()):
                fill_finished_scoresheets(root, size, tuple(args.games.split(",")), args.devices)
            jobs = [(" ".join(cmd), companion(root, *cmd)) for cmd in commands]
            if args.report:
                sid = sorted(p.stem for p in (root / "sessions").glob("*.json"))[size // 2]
                jobs.append(("report ID", companion(root, "report", sid)))
            if args.export:
                jobs.append(("export json", companion(root, "export", "--format", "json", "-o",
                                                      str(Path(tmp) / "out.json"), "--force")))
            for name, argv in jobs:
                got = side_by_side(argv, base_env, args.runs)
                t = results[(name, size)] = got["time"]
                verdict = ""
                if size >= 10_000 and name in TARGETED:
                    verdict = " ok" if t < TARGET_SECONDS else f" OVER {TARGET_SECONDS:g} s"
                line = f"{size:>6} sessions  {name:<16} median {t * 1000:8.1f} ms  peak {got['rss']:6.1f} MB{verdict}"
                if base_env is not None:
                    line += (f"   other tree {got['base_time'] * 1000:8.1f} ms  peak {got['base_rss']:6.1f} MB"
                             f"   ratio {got['ratio']:.2f}")
                print(line, flush=True)
                if "--ratings" in name and base_env is None:  # without the ratings cache: every play rated
                    cold = bench_cold(argv, root / "cache" / "ratings.json", args.runs)
                    verdict = "" if size < 10_000 else (" ok" if cold < TARGET_SECONDS else f" OVER {TARGET_SECONDS:g} s")
                    print(f"{size:>6} sessions  {name + ' (cold)':<16} median {cold * 1000:8.1f} ms{verdict}")
            if args.first_sync and size == max(sizes):
                got = bench_first_sync(root, Path(tmp), base_env, args.runs)
                line = (f"{size:>6} sessions  first sync: copy {got['copy'] * 1000:8.1f} ms, then `sessions` median "
                        f"{got['this']['time'] * 1000:8.1f} ms (CPU {got['this']['cpu'] * 1000:.0f} ms, peak "
                        f"{got['this']['rss']:.1f} MB)")
                if "other" in got:
                    line += (f"   other tree {got['other']['time'] * 1000:8.1f} ms (CPU {got['other']['cpu'] * 1000:.0f} "
                             f"ms)   ratio {got['this']['time'] / got['other']['time']:.2f}")
                print(line, flush=True)
            if args.new_play and size == max(sizes):
                got = bench_new_play(root, args.runs)
                verdict = "" if size < 10_000 else (" ok" if got["added"] < TARGET_SECONDS else f" OVER {TARGET_SECONDS:g} s")
                print(f"{size:>6} sessions  stats --ratings, first after a new play: median {got['added'] * 1000:8.1f} ms "
                      f"(CPU {got['added_cpu'] * 1000:.0f} ms, peak {got['added_rss']:.1f} MB){verdict}; every play "
                      f"rated again {got['again'] * 1000:8.1f} ms (CPU {got['again_cpu'] * 1000:.0f} ms, peak "
                      f"{got['again_rss']:.1f} MB); ratio {got['ratio']:.2f}; the same numbers", flush=True)
                print(f"{size:>6} sessions  stats --ratings, then unchanged (cached): median {got['cached'] * 1000:8.1f} ms "
                      f"(CPU {got['cached_cpu'] * 1000:.0f} ms); first after a new play / cached: {got['to_cached']:.2f}",
                      flush=True)
            if size != max(sizes):
                import shutil as _shutil

                _shutil.rmtree(root)  # the folders of 50,000 take room: keep only the largest
        if not args.no_import:
            small, big = min(sizes), max(sizes)
            if small not in roots or not roots[small].exists():
                fill_finished_scoresheets(roots[small], small, tuple(args.games.split(",")), args.devices)
            t = bench_import(Path(tmp), roots[small], max(3, args.runs // 2))
            print(f"import of a {small}-session file      median {t * 1000:8.1f} ms "
                  f"{'ok' if t < IMPORT_TARGET else f'OVER {IMPORT_TARGET:g} s'}")
            t = bench_continued(Path(tmp), roots[big], args.runs)
            print(f"continued session into {big} sessions median {t * 1000:8.1f} ms "
                  f"{'ok' if t < CONTINUED_TARGET else f'OVER {CONTINUED_TARGET:g} s'}")
    lo, hi = min(sizes), max(sizes)
    if lo != hi:
        for name in sorted({n for n, _ in results}):
            if (name, lo) not in results or (name, hi) not in results:
                continue
            a, b = results[(name, lo)], results[(name, hi)]
            marginal = (b - base) / max(a - base, 1e-9)
            print(f"{name:<16} ratio {hi}/{lo}: {b / a:5.2f} (linear: <= {hi / lo:g}); "
                  f"beyond start-up: {marginal:5.2f}")


if __name__ == "__main__":
    main()
