"""`sessions`, `stats`, `stats --ratings` and `players` on data folders of 1,000 and 10,000
finished sessions, and the import of a 1,000-session file and of one continued session.

The targets (issue 16): with 10,000 sessions `sessions`, `stats` and `stats --ratings` under
1 s each; importing a 1,000-session file under 5 s; a fast-forward import of one continued
session (into the folder of 10,000) under 0.5 s. Earlier (issue 7): no worse than linear from
1,000 to 10,000 (ratio at most 10). Every command runs as a real subprocess (start-up
included), so the ratio also shows what each extra session costs beyond the fixed start-up,
measured with `companion --version`.

    python benchmarks/bench_history.py [--runs 7] [--sizes 1000,10000] [--commands sessions,stats]
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


def companion(root: Path, *args: str) -> list[str]:
    return [python(), "-m", "companion", "--data-dir", str(root), *args]


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
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--commands", default="sessions,stats,stats --ratings,stats --json,players")
    parser.add_argument("--no-import", action="store_true", help="Skip the two import benchmarks.")
    parser.add_argument("--games", default="scoresheet",
                        help="Comma-separated game ids the sessions cycle through (index only), e.g. "
                             "scoresheet,trans-europa,transatlantic,atlantic-star")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    commands = [c.split() for c in args.commands.split(",")]
    base = median_command([python(), "-m", "companion", "--version"], args.runs)
    print(f"start-up (companion --version): median {base * 1000:7.1f} ms")
    results: dict[tuple[str, int], float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        roots = {}
        for size in sizes:
            root = roots[size] = Path(tmp) / f"home{size}"
            fill_finished_scoresheets(root, size, tuple(args.games.split(",")))
            for cmd in commands:
                argv = companion(root, *cmd)
                median_command(argv, 1)  # warm the file cache
                t = results[(" ".join(cmd), size)] = median_command(argv, args.runs)
                verdict = ""
                if size >= 10_000 and " ".join(cmd) in TARGETED:
                    verdict = " ok" if t < TARGET_SECONDS else f" OVER {TARGET_SECONDS:g} s"
                print(f"{size:>6} sessions  {' '.join(cmd):<16} median {t * 1000:8.1f} ms{verdict}")
                if "--ratings" in cmd:  # without the ratings cache: every play rated
                    cold = bench_cold(argv, root / "cache" / "ratings.json", args.runs)
                    verdict = "" if size < 10_000 else (" ok" if cold < TARGET_SECONDS else f" OVER {TARGET_SECONDS:g} s")
                    print(f"{size:>6} sessions  {' '.join(cmd) + ' (cold)':<16} median {cold * 1000:8.1f} ms{verdict}")
        if not args.no_import:
            small, big = min(sizes), max(sizes)
            t = bench_import(Path(tmp), roots[small], max(3, args.runs // 2))
            print(f"import of a {small}-session file      median {t * 1000:8.1f} ms "
                  f"{'ok' if t < IMPORT_TARGET else f'OVER {IMPORT_TARGET:g} s'}")
            t = bench_continued(Path(tmp), roots[big], args.runs)
            print(f"continued session into {big} sessions median {t * 1000:8.1f} ms "
                  f"{'ok' if t < CONTINUED_TARGET else f'OVER {CONTINUED_TARGET:g} s'}")
    lo, hi = min(sizes), max(sizes)
    if lo != hi:
        for cmd in commands:
            name = " ".join(cmd)
            a, b = results[(name, lo)], results[(name, hi)]
            marginal = (b - base) / max(a - base, 1e-9)
            print(f"{name:<16} ratio {hi}/{lo}: {b / a:5.2f} (linear: <= {hi / lo:g}); "
                  f"beyond start-up: {marginal:5.2f}")


if __name__ == "__main__":
    main()
