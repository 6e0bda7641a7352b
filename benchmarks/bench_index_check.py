"""The index's check of the session files (issue 30): `sessions --json` on a folder of finished
sessions, with the check's stamp kept (the files are not looked at) and with it removed before
each run (every session file looked at: one `lstat` each, nothing read again), beside the
same commands from another source tree (``--against SRC``, e.g. `git archive` of main), each
pair run in turn so both see the same load.

Before issue 30's fix the check compared each file's times with the index's; it now compares
each session's files' signatures (inode, size, modification and change times) with those its
entry was read from, kept in the index. Also printed: the index's size with its sources.

    python benchmarks/bench_index_check.py [--sessions 10000] [--runs 7] [--against SRC]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from common import fill_finished_scoresheets, python


def timed(argv: list[str], env: dict, before=None) -> float:
    if before:
        before()
    start = time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True, env=env)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--against", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        fill_finished_scoresheets(base, args.sessions)
        trees = {"this tree": None, **({"against": args.against.resolve()} if args.against else {})}
        folders, envs = {}, {}
        for name, src in trees.items():
            folder = Path(tmp) / name.replace(" ", "-")
            shutil.copytree(base, folder)
            # the copy is a new set of files: each tree's first look reads its sessions once
            env = dict(os.environ, **({"PYTHONPATH": str(src)} if src else {}))
            cmd = [python(), "-m", "companion", "--data-dir", str(folder), "sessions", "--json"]
            print(f"{args.sessions:,} sessions, `sessions --json`, first look at a copied folder (every session "
                  f"read once), {name}: {timed(cmd, env) * 1000:.0f} ms")
            then = time.time_ns() - 60_000_000_000  # quiet for a minute: the check is stamped
            os.utime(folder / "sessions", ns=(then, then))
            subprocess.run(cmd, check=True, capture_output=True, env=env)
            subprocess.run(cmd, check=True, capture_output=True, env=env)
            folders[name], envs[name] = folder, env
        for case in ("stamped", "checked"):
            times: dict[str, list[float]] = {name: [] for name in trees}
            for _ in range(args.runs):
                for name in trees:
                    folder = folders[name]
                    stamp = folder / ".local" / "cache" / "index-checked.json"
                    before = (lambda s=stamp: s.unlink(missing_ok=True)) if case == "checked" else None
                    cmd = [python(), "-m", "companion", "--data-dir", str(folder), "sessions", "--json"]
                    times[name].append(timed(cmd, envs[name], before))
            line = ", ".join(f"{name} {statistics.median(t) * 1000:.0f} ms" for name, t in times.items())
            if args.against:
                ratio = statistics.median(times["this tree"]) / statistics.median(times["against"])
                line += f" (ratio {ratio:.2f})"
            print(f"{args.sessions:,} sessions, `sessions --json`, {case}: {line}")
        # `finish`: the action that changes a session's entry forgets its sources first (one
        # more write of the index before its journal) and writes its entry after
        times = {name: [] for name in trees}
        for _ in range(args.runs):
            for name in trees:
                base_cmd = [python(), "-m", "companion", "--data-dir", str(folders[name])]
                subprocess.run(base_cmd + ["new", "scoresheet", "--players", "Ann,Bob"], check=True,
                               capture_output=True, env=envs[name])
                subprocess.run(base_cmd + ["add", "Ann=1", "Bob=2"], check=True, capture_output=True, env=envs[name])
                times[name].append(timed(base_cmd + ["finish"], envs[name]))
        line = ", ".join(f"{name} {statistics.median(t) * 1000:.0f} ms" for name, t in times.items())
        if args.against:
            line += f" (ratio {statistics.median(times['this tree']) / statistics.median(times['against']):.2f})"
        print(f"{args.sessions:,} sessions, `finish`: {line}")
        import json

        index = folders["this tree"] / ".local" / "index.json"
        sources = json.loads(index.read_text()).get("sources", {})
        print(f"index.json: {index.stat().st_size / 1e6:.2f} MB, of which its sources "
              f"{len(json.dumps(sources, separators=(',', ':'))) / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
