"""`companion serve`: page times, update latency, server memory, and `companion --version`.

    python benchmarks/bench_serve.py [--runs 31] [--actions 1000] [--base DIR]

1. Pages served over real HTTP (uvicorn on a thread, urllib) for a six-player Trans Europa
   round with 80 rails on the board: the first request after each recorded change (rendered:
   replay, exact missing-rail count, board drawing) and repeated requests (kept per version).
2. The update: an action recorded by another process, until the table page in headless
   Chromium shows it (the page's own script; skipped without Chromium).
3. The server's memory (VmRSS of a `companion serve` process) while 1,000 actions are
   recorded with 7 pages open (7 pollers doing what the page script does: /v every 400 ms,
   the page again when it changed).
4. `companion --version` with this tree and with --base DIR (a copy of the tree before the
   web pages, e.g. `git archive BASE | tar -x -C DIR`), side by side, alternating.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

PLAYERS = ["Ann", "Bob", "Cy", "Dan", "Eve", "Fay"]


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.read().decode()


def six_players_eighty_rails(home: Path) -> str:
    """A Trans Europa round: 6 players, markers down, 80 rails on free lines (build-anywhere)."""
    from companion.core import session as sessions
    from companion.core.app import App
    from companion.core.store import Store
    from companion.games.trans.track import trans_board

    os.environ["COMPANION_HOME"] = str(home)
    store = Store(home)
    s = sessions.create(store, "trans-europa", PLAYERS, {"variant": "special-cards", "scoring": "prestige"})
    from companion.games.trans.rules import make_round_start

    replay = s.replay()
    event = make_round_start(replay.state, replay.data, s.meta["seed"], "", s.id, special="build-anywhere")
    sessions.record(store, s.id, event)
    board = trans_board(s.replay().data, "trans-europa")
    for p, junction in zip(PLAYERS, ["E6", "H11", "K8", "N5", "F3", "J4"]):
        sessions.record(store, s.id, {"type": "marker", "player": p, "junction": junction})
    built = 0
    from companion.core.errors import CompanionError

    for n, (a, b) in enumerate(sorted(board.cost, key=lambda e: (e[0] * 7919 + e[1] * 104729) % 1009)):
        if built == 80:
            break
        try:
            sessions.record(store, s.id, {"type": "build", "player": PLAYERS[n % 6],
                                          "paths": [f"{board.coord[a]}-{board.coord[b]}"]})
            built += 1
        except CompanionError:
            continue
    assert built == 80, built
    App(home)  # the same data folder the server reads
    return s.id


def a_free_rail(home: Path, sid: str) -> dict:
    """A `build` event the recorded round accepts (it is recorded and undone once to be sure)."""
    from companion.core import session as sessions
    from companion.core.errors import CompanionError
    from companion.core.store import Store
    from companion.games.trans.track import trans_board

    store = Store(home)
    board = trans_board(sessions.load(store, sid).replay().data, "trans-europa")
    for a, b in board.cost:
        event = {"type": "build", "player": "Ann", "paths": [f"{board.coord[a]}-{board.coord[b]}"]}
        try:
            sessions.record(store, sid, dict(event))
        except CompanionError:
            continue
        sessions.step(store, sid, "undo")
        return event
    raise SystemExit("no free rail")


def bench_pages(runs: int) -> None:
    from companion.core import session as sessions
    from companion.core.store import Store
    from companion.web import server, tokens
    from companion.web.site import Site

    home = Path(tempfile.mkdtemp(prefix="bench-serve-"))
    sid = six_players_eighty_rails(home)
    rail = a_free_rail(home, sid)
    store = Store(home)
    links = tokens.links(home, sid, PLAYERS)
    links["table"] = links[tokens.TABLE]
    site = Site(home, sid)
    sock = server.bind("127.0.0.1", 0)
    base = f"http://127.0.0.1:{sock.getsockname()[1]}"
    running = server.start_background(site, sock, base)

    def timed(url: str) -> float:
        t = time.perf_counter()
        get(url)
        return time.perf_counter() - t

    try:
        for who, prefix in (("Ann", "p"), ("table", "t")):
            url = f"{base}/{prefix}/{links[who]}"
            get(url)
            built, undone, cached = [], [], []
            for _ in range(runs):
                sessions.record(store, sid, dict(rail))  # a rail, as another window records it
                built.append(timed(url))
                cached.append(timed(url))
                sessions.step(store, sid, "undo")  # an undo: the server replays the round
                undone.append(timed(url))
            size = len(get(url).encode())
            med = lambda xs: statistics.median(xs) * 1000  # noqa: E731
            print(f"{who:>5} page, 6 players, 80 rails, {size / 1024:.0f} KiB, {runs} runs: "
                  f"after a rail {med(built):5.1f} ms (max {max(built) * 1000:.1f}), "
                  f"after an undo {med(undone):5.1f} ms (max {max(undone) * 1000:.1f}), "
                  f"unchanged {med(cached):4.1f} ms (medians)")
    finally:
        running.stop()


def bench_update(runs: int) -> None:
    from browser_support import body_text, chrome, find_browser, quit_chrome, serve, stop

    if isinstance(find_browser(), str):
        print(f"update latency: skipped ({find_browser()})")
        return
    from selenium.webdriver.support.ui import WebDriverWait

    home = Path(tempfile.mkdtemp(prefix="bench-update-"))
    env = dict(os.environ, COMPANION_HOME=str(home))
    companion = [sys.executable, "-m", "companion"]
    subprocess.run(companion + ["new", "scoresheet", "--players", ",".join(PLAYERS)], env=env, check=True,
                   capture_output=True)
    proc, links = serve(home, PLAYERS)
    web = chrome(1280, 900)
    seen = []
    try:
        web.get(links["table"])
        for i in range(runs):
            time.sleep(0.3 + (i % 4) * 0.1)  # land at different points of the page's poll
            subprocess.run(companion + ["add", *(f"{p}={i + 1}" for p in PLAYERS)], env=env, check=True,
                           capture_output=True)
            done = time.perf_counter()
            WebDriverWait(web, 5, poll_frequency=0.01).until(lambda w: f"After round {i + 1}" in body_text(w))
            seen.append(time.perf_counter() - done)
    finally:
        quit_chrome(web)
        stop(proc)
    print(f"update seen in the browser (table page, another process records): median "
          f"{statistics.median(seen) * 1000:.0f} ms, max {max(seen) * 1000:.0f} ms, {runs} runs")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def bench_memory(actions: int) -> None:
    """A six-player round with 80 rails; then rails built and taken back (`build`, `undo`) in
    turn, ``actions`` in all, by this process, with 7 pages open on the server's process."""
    from browser_support import serve, stop

    from companion.core import session as sessions
    from companion.core.store import Store

    home = Path(tempfile.mkdtemp(prefix="bench-memory-"))
    sid = six_players_eighty_rails(home)
    store = Store(home)
    build = a_free_rail(home, sid)
    proc, links = serve(home, PLAYERS)
    stop_polling = threading.Event()
    fetched = [0]

    def page_script(url: str) -> None:  # what the inline script does
        version = get(url + "/v")
        while not stop_polling.is_set():
            time.sleep(0.4)
            now = get(url + "/v")
            if now != version:
                get(url)
                fetched[0] += 1
                version = now

    pollers = [threading.Thread(target=page_script, args=(u,), daemon=True) for u in links.values()]
    for t in pollers:
        t.start()
    marks = {}
    started = time.perf_counter()
    try:
        time.sleep(2)
        marks[0] = rss_kib(proc.pid)
        for n in range(1, actions + 1):
            if n % 2:
                sessions.record(store, sid, dict(build))
            else:
                sessions.step(store, sid, "undo")
            if n % 10 == 0:
                time.sleep(0.45)  # let the pages see the versions, as at a real table
            if n in (100, 250, 500, 750, actions):
                time.sleep(1)
                marks[n] = rss_kib(proc.pid)
    finally:
        stop_polling.set()
        for t in pollers:
            t.join(timeout=15)
        stop(proc)
    line = ", ".join(f"{n}: {kib / 1024:.1f} MiB" for n, kib in marks.items())
    print(f"server memory (VmRSS) after N recorded actions (build/undo in turn on a 6-player, 80-rail round), "
          f"7 pages open: {line}; {fetched[0]} page reloads in {time.perf_counter() - started:.0f} s")


def bench_version(base: str | None, runs: int) -> None:
    from common import median_command

    here = str(HERE.parent)
    trees = [("this tree", here)] + ([("base", base)] if base else [])
    times = {name: [] for name, _ in trees}
    for _ in range(runs):
        for name, tree in trees:
            env = dict(os.environ, PYTHONPATH=tree)
            times[name].append(median_command([sys.executable, "-m", "companion", "--version"], 1, env=env))
    pure = median_command([sys.executable, "-c", "pass"], runs)
    for name, values in times.items():
        print(f"companion --version ({name}): median {statistics.median(values) * 1000:.1f} ms "
              f"(python -c pass {pure * 1000:.1f} ms)")
    code = ("import sys\nfrom companion.terminal.cli import cli\ntry:\n    cli(['--version'])\nexcept SystemExit:\n    pass\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'starlette','uvicorn','segno','anyio'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip().splitlines()[-1]
    print(f"web modules loaded by --version: {out}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=31)
    parser.add_argument("--actions", type=int, default=1000)
    parser.add_argument("--only", help="comma-separated: pages,update,memory,version")
    parser.add_argument("--base", help="a copy of the tree before the web pages, for --version side by side")
    args = parser.parse_args()
    only = set(args.only.split(",")) if args.only else {"pages", "update", "memory", "version"}
    if "pages" in only:
        bench_pages(args.runs)
    if "update" in only:
        bench_update(min(args.runs, 21))
    if "memory" in only:
        bench_memory(args.actions)
    if "version" in only:
        bench_version(args.base, args.runs)


if __name__ == "__main__":
    main()
