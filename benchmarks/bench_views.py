"""A server's memory over many distinct board views of one player's page (issue 29, D2).

Each `?z=2&c=X,Y` of a player's page is a page drawn; before issue 29 every one was kept until
the session changed. This runs `companion serve` on a Trans Europa session in its first round
(as `tests/test_web_floods.py` does), asks Ann's page for N distinct views on one keep-alive
connection, and reads the server's resident size before and after, with this tree and, with
--base DIR, another one side by side.

    python benchmarks/bench_views.py [--views 1000] [--base DIR]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parent.parent


def rss_mb(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="utf-8") as fh:
        return int(fh.read().split("VmRSS:")[1].split()[0]) // 1024


def one_tree(tree: Path, views: int) -> str:
    home = Path(tempfile.mkdtemp(prefix="bench-views-")) / "home"
    env = dict(os.environ, COMPANION_HOME=str(home), PYTHONPATH=str(tree))

    def companion(*args: str) -> str:
        return subprocess.run([sys.executable, "-m", "companion", *args], env=env, check=True, capture_output=True,
                              text=True, cwd=home.parent).stdout

    companion("new", "trans-europa", "--players", "Ann,Bob,Cy,Dan")
    companion("round", "start")
    # run from outside any tree: `-m` puts the working folder first on the path
    proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--port", "0"], env=env, cwd=home.parent,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        lines = [proc.stdout.readline() for _ in range(5)]
        ann = next(line.split()[-1] for line in lines if " Ann " in f" {line} ")
        parts = urlsplit(ann)
        before = rss_mb(proc.pid)
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        started = time.perf_counter()
        for i in range(views):
            conn.request("GET", f"{parts.path}?z=2&c={i % 500}.{i // 500 % 10},{i // 5000}.0",
                         headers={"Host": parts.netloc})
            conn.getresponse().read()
        spent = time.perf_counter() - started
        return f"{views:,} views in {spent:.1f} s: the server's memory {before} -> {rss_mb(proc.pid)} MB"
    finally:
        proc.terminate()
        proc.wait(timeout=15)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--views", type=int, default=1000)
    parser.add_argument("--base", help="another tree (e.g. `git archive main | tar -x -C DIR`), run side by side")
    args = parser.parse_args()
    trees = [("this tree", HERE)] + ([("base", Path(args.base).resolve())] if args.base else [])
    for name, tree in trees:
        print(json.dumps({"tree": name, "result": one_tree(tree, args.views)}, ensure_ascii=False))


if __name__ == "__main__":
    main()
