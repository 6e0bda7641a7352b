"""`companion serve`: page times, the tap seen on every page, the watch, server memory, a
flood of connections, and `companion --version`.

    python benchmarks/bench_serve.py [--runs 31] [--actions 1000] [--base DIR] [--only PARTS]

PARTS (comma-separated, default all): pages, tap, watch, memory, flood, version.

1. pages: pages served over real HTTP (uvicorn on a thread, urllib) for a six-player Trans
   Europa round with 80 rails on the board: the first request after each recorded change
   (rendered: replay, exact missing-rail count, board drawing) and repeated requests (kept per
   version).
2. tap: 7 pages open in headless Chromium (six players' and the table's, 390x844), Ann taps a
   pass on her page; the time from the tap until every one of the 7 pages shows it, and from an
   `undo` written by another process until every page shows that, measured in the pages (each
   page notes the system clock's time when its text changes). With --base DIR the same is run
   against that tree (`companion serve` from it), alternating, side by side.
3. watch: how soon a server notices a session file replaced by another process: a stat poll at
   several intervals against inotify (Linux, through ctypes), and what each costs a quiet server
   (CPU seconds of a watcher process over 20 s).
4. memory: the server's memory (VmRSS of a `companion serve` process) while 1,000 actions are
   recorded with 7 pages open (7 live streams read as a browser reads them).
5. flood: a player's page asked every 0.2 s while 1,000 idle connections are held open, and
   while 250 slow ones trickle their request heads (answer times, status codes); with --base
   DIR the same against that tree.
6. version: `companion --version` with this tree and with --base DIR (a copy of the tree
   before the web pages, e.g. `git archive BASE | tar -x -C DIR`), side by side, alternating.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
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
    from companion.contract.errors import CompanionError

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
    from companion.contract.errors import CompanionError
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


def tree_env(tree: str | None, home: Path) -> dict:
    env = dict(os.environ, COMPANION_HOME=str(home))
    if tree:
        env["PYTHONPATH"] = tree
    return env


def serve_tree(tree: str | None, home: Path, players: list[str]):
    """`companion serve --port 0` of ``tree`` (None: this one): (process, {who: url}); reads
    this tree's piped links (`table URL`, `player NAME URL`) and the older `NAME URL`."""
    proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=tree_env(tree, home))
    links = {}
    for _ in range(1 + len(players)):
        line = proc.stdout.readline().rstrip("\n")
        if not line:
            raise SystemExit(proc.stderr.read())
        if line.startswith("player "):
            _, rest = line.split(" ", 1)
            name, url = rest.rsplit(" ", 1)
        else:
            name, url = line.rsplit(" ", 1)
        links[name] = url
    return proc, links


# Put into every document of a window before its own scripts run (so it survives the base tree's
# reloads): notes in sessionStorage the system clock's time when the page's text first holds
# the text the benchmark waits for.
WATCHER = """
(function () {
  function check() {
    var want = sessionStorage.getItem('want');
    if (want && !sessionStorage.getItem('seen') && document.body && document.body.innerText.indexOf(want) >= 0) {
      sessionStorage.setItem('seen', String(Date.now()));
    }
  }
  new MutationObserver(check).observe(document, {childList: true, subtree: true, characterData: true});
  document.addEventListener('DOMContentLoaded', check);
})();
"""


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


class TapTable:
    """One tree's server, and its 7 pages (six phones' and the table's), each in a headless
    Chromium of its own, as on 7 devices (a browser keeps at most 6 connections to one server,
    and a live page holds one; and one window per browser, so that no window is ever switched
    to, which can wake a page's timers early)."""

    def __init__(self, tree: str | None, browsers: list):
        self.tree = tree
        self.home = Path(tempfile.mkdtemp(prefix="bench-tap-"))
        env = tree_env(tree, self.home)
        companion = [sys.executable, "-m", "companion"]
        subprocess.run(companion + ["new", "trans-europa", "--players", ",".join(PLAYERS), "--variant",
                                    "special-cards"], env=env, check=True, capture_output=True)
        subprocess.run(companion + ["round", "start", "--special", "pass-three"], env=env, check=True,
                       capture_output=True)
        self.proc, links = serve_tree(tree, self.home, PLAYERS)
        self.pages = {}  # who -> (browser, window)
        self.visible = set()
        try:
            for who, web in zip(["table", *PLAYERS], browsers):
                web.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WATCHER})
                web.get(links[who])
                self.pages[who] = (web, web.current_window_handle)
                self.visible.add(web.execute_script("return document.visibilityState"))
        except BaseException:
            stop(self.proc)
            raise
        self.live = {"EventSource" in web.page_source for web, _ in self.pages.values()}  # which tree runs

    def _in(self, who: str):
        web, window = self.pages[who]
        if web.current_window_handle != window:
            web.switch_to.window(window)
        return web

    def arm(self, text: str) -> None:
        for who in self.pages:
            self._in(who).execute_script(
                "sessionStorage.setItem('want', arguments[0]); sessionStorage.removeItem('seen')", text)

    def collect(self, since_ms: float, timeout: float = 10.0) -> float:
        """Milliseconds from ``since_ms`` until the last of the 7 pages showed what was armed."""
        end = time.monotonic() + timeout
        seen = {}
        while len(seen) < len(self.pages) and time.monotonic() < end:
            time.sleep(0.05)
            for who in self.pages:
                if who in seen:
                    continue
                try:
                    value = self._in(who).execute_script("return sessionStorage.getItem('seen')")
                except Exception:  # noqa: BLE001 - the page is being replaced by its own reload
                    value = None
                if value:
                    seen[who] = float(value)
        if len(seen) < len(self.pages):
            raise SystemExit(f"{self.tree or 'this tree'}: pages never showed it: {set(self.pages) - set(seen)}")
        self.last = {who: round(t - since_ms) for who, t in seen.items()}
        if os.environ.get("BENCH_VERBOSE"):
            loaded = {who: round(self._in(who).execute_script("return performance.timeOrigin") - since_ms)
                      for who in self.pages}
            print(self.tree or "this tree", "seen", self.last, "document loaded", loaded, flush=True)
        return max(seen.values()) - since_ms

    def tap(self) -> float:
        """Ann taps her first pass button: ms until every page shows it."""
        from selenium.webdriver.support.ui import WebDriverWait

        self.arm("Waiting for Bob")
        web = self._in("Ann")
        WebDriverWait(web, 10, poll_frequency=0.02).until(
            lambda w: w.find_elements("css selector", "form button[name=city]"))
        tapped = web.execute_script(
            "var t = Date.now(); document.querySelector('form button[name=city]').click(); return t;")
        from_tap = self.collect(tapped)
        return from_tap, from_tap - (self.written() - tapped)

    def written(self) -> float:
        """When the session was last written (ms, the system clock): the write of the action, to
        the session file or (issue 30) to a laptop's journal beside it, whichever is newest."""
        sid = next((self.home / "sessions").glob("*.json")).stem
        return max(f.stat().st_mtime_ns for f in (self.home / "sessions").glob(f"{sid}*")) / 1e6

    def undo(self) -> float:
        """`undo` by another process: ms from the write until every page shows it."""
        self.arm("Waiting for Ann")
        subprocess.run([sys.executable, "-m", "companion", "undo"], env=tree_env(self.tree, self.home), check=True,
                       capture_output=True)
        return self.collect(self.written())

    def close(self) -> None:
        stop(self.proc)


def stop(proc) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()


def bench_tap(runs: int, base: str | None) -> None:
    from browser_support import chrome, find_browser, quit_chrome

    if isinstance(find_browser(), str):
        print(f"tap: skipped ({find_browser()})")
        return
    trees = [("this tree", None)] + ([("base", base)] if base else [])
    browsers = []
    tables = {}
    taps = {name: [] for name, _ in trees}
    writes = {name: [] for name, _ in trees}
    undos = {name: [] for name, _ in trees}
    try:
        for name, tree in trees:
            mine = [chrome(390, 844) for _ in range(1 + len(PLAYERS))]
            browsers += mine
            tables[name] = TapTable(tree, mine)
        import random

        pause = random.Random(21)  # the same pauses every time the benchmark runs
        for n in range(runs):
            for name, table in tables.items():  # alternating, so the machine's load falls on both
                time.sleep(pause.uniform(0.3, 1.5))  # a player acts at any moment of a page's poll
                from_tap, from_write = table.tap()
                taps[name].append(from_tap)
                writes[name].append(from_write)
                time.sleep(pause.uniform(0.3, 1.5))
                undos[name].append(table.undo())
    finally:
        for table in tables.values():
            table.close()
        for web in browsers:
            quit_chrome(web)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    for name in tables:
        for what, values in (("a tap until all 7 pages show it", taps[name]),
                             ("a tap's write until all 7 pages show it", writes[name]),
                             ("an undo by another process until all 7 pages show it", undos[name])):
            print(f"{name}: {what}: median {statistics.median(values):.0f} ms, p95 {percentile(values, 0.95):.0f} ms, "
                  f"max {max(values):.0f} ms ({len(values)} runs; pages {sorted(tables[name].visible)}, "
                  f"live script {sorted(tables[name].live)})")
    print(f"load average at the end: {load:.1f}")


def bench_watch(seconds: float = 20.0, changes: int = 40) -> None:
    """A stat poll against inotify: the delay to notice a replaced file, and the idle cost."""
    watcher = HERE / "watch_probe.py"
    folder = Path(tempfile.mkdtemp(prefix="bench-watch-"))
    target = folder / "session.json"
    target.write_text("x")
    results = []
    for kind in ("poll:0.025", "poll:0.05", "poll:0.1", "inotify"):
        probe = subprocess.Popen([sys.executable, str(watcher), kind, str(target)], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        ready = probe.stdout.readline().strip()
        if ready != "ready":
            print(f"watch {kind}: not available ({probe.stderr.read().strip() or ready})")
            probe.wait()
            continue
        delays = []
        for n in range(changes):
            time.sleep(0.05 + (n % 7) * 0.013)
            tmp = folder / f".session.json.{n}.tmp"
            tmp.write_text("y" * (n + 1))
            written = time.time()
            os.replace(tmp, target)
            seen = float(probe.stdout.readline())
            delays.append((seen - written) * 1000)
        probe.stdin = None
        probe.send_signal(2)  # SIGINT: the idle part next
        probe.wait(timeout=5)
        idle = subprocess.run([sys.executable, str(watcher), kind, str(target), "--idle", str(seconds)],
                              capture_output=True, text=True)
        cpu = float(idle.stdout.split()[-1])
        results.append((kind, statistics.median(delays), max(delays), cpu))
    for kind, med, worst, cpu in results:
        print(f"watch {kind:<11}: noticed after median {med:5.1f} ms, max {worst:5.1f} ms; "
              f"idle cost {cpu * 1000:5.1f} ms of CPU in {seconds:.0f} s ({cpu / seconds * 100:.2f} % of a core)")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def bench_memory(actions: int) -> None:
    """A six-player round with 80 rails; then rails built and taken back (`build`, `undo`) in
    turn, ``actions`` in all, by this process, with 7 pages open on the server's process (7 live
    streams, read as a browser reads them)."""
    sys.path.insert(0, str(HERE.parent / "tests"))
    from urllib.parse import urlsplit

    from live_support import Stream

    from companion.core import session as sessions
    from companion.core.store import Store

    home = Path(tempfile.mkdtemp(prefix="bench-memory-"))
    sid = six_players_eighty_rails(home)
    store = Store(home)
    build = a_free_rail(home, sid)
    proc, links = serve_tree(None, home, PLAYERS)
    stop_reading = threading.Event()
    pages = [0]

    def page_stream(url: str) -> None:  # what a page's EventSource does
        parts = urlsplit(url)
        s = Stream(parts.hostname, parts.port, parts.path)
        while not stop_reading.is_set():
            try:
                s.page(timeout=1)
                pages[0] += 1
            except (TimeoutError, OSError):
                continue
            except EOFError:
                s = Stream(parts.hostname, parts.port, parts.path)
        s.close()

    readers = [threading.Thread(target=page_stream, args=(u,), daemon=True) for u in links.values()]
    for t in readers:
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
        stop_reading.set()
        for t in readers:
            t.join(timeout=15)
        stop(proc)
    line = ", ".join(f"{n}: {kib / 1024:.1f} MiB" for n, kib in marks.items())
    print(f"server memory (VmRSS) after N recorded actions (build/undo in turn on a 6-player, 80-rail round), "
          f"7 live pages: {line}; {pages[0]} pages pushed in {time.perf_counter() - started:.0f} s")


def bench_flood(base: str | None) -> None:
    """A player's page asked every 0.2 s during 1,000 idle connections, then during 250 slow ones."""
    import socket

    def asked(url: str) -> tuple[int, float]:
        started = time.perf_counter()
        try:
            with urllib.request.urlopen(url, timeout=10) as r:
                r.read()
                return r.status, time.perf_counter() - started
        except urllib.error.HTTPError as e:
            return e.code, time.perf_counter() - started
        except OSError:
            return 0, time.perf_counter() - started

    trees = [("this tree", None)] + ([("base", base)] if base else [])
    for name, tree in trees:
        home = Path(tempfile.mkdtemp(prefix="bench-flood-"))
        env = tree_env(tree, home)
        subprocess.run([sys.executable, "-m", "companion", "new", "scoresheet", "--players", "Ann,Bob"], env=env,
                       check=True, capture_output=True)
        proc, links = serve_tree(tree, home, ["Ann", "Bob"])
        host, port = links["Ann"].split("/")[2].split(":")
        try:
            for kind in ("idle", "slow"):
                held = []
                for _ in range(1000 if kind == "idle" else 250):
                    s = socket.create_connection((host, int(port)), timeout=5)
                    if kind == "slow":
                        s.sendall(f"GET /p/x HTTP/1.1\r\nHost: {host}:{port}\r\n".encode())
                    held.append(s)
                opened = time.monotonic()
                answers = []
                n = 0
                while time.monotonic() - opened < 8:
                    if kind == "slow" and n % 3 == 0:
                        for s in held:
                            try:
                                s.sendall(f"X-{n}: 1\r\n".encode())
                            except OSError:
                                pass
                    answers.append(asked(links["Ann"]))
                    n += 1
                    time.sleep(0.2)
                closed = 0
                for s in held:
                    s.setblocking(False)
                    try:
                        closed += s.recv(1) == b""
                    except BlockingIOError:
                        pass
                    except OSError:
                        closed += 1
                    s.close()
                codes = {}
                for code, _ in answers:
                    codes[code] = codes.get(code, 0) + 1
                times = [t * 1000 for code, t in answers if code == 200] or [float("nan")]
                print(f"flood {name}, {len(held)} {kind} connections: {len(answers)} asks in 8 s, statuses {codes}, "
                      f"200s median {statistics.median(times):.1f} ms, max {max(times):.1f} ms; "
                      f"closed by the server after 8 s: {closed} of {len(held)}")
                time.sleep(1)
        finally:
            stop(proc)


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
    parser.add_argument("--only", help="comma-separated: pages,tap,watch,memory,flood,version")
    parser.add_argument("--base", help="a copy of another tree (e.g. `git archive main | tar -x -C DIR`), run side "
                                       "by side with this one for tap, flood and version")
    args = parser.parse_args()
    # `python -m companion` puts the working folder first on the path: from the repository's
    # root it would run this tree's companion even with PYTHONPATH=BASE. So the benchmark's
    # processes start elsewhere.
    os.chdir(tempfile.gettempdir())
    only = set(args.only.split(",")) if args.only else {"pages", "tap", "watch", "memory", "flood", "version"}
    if "pages" in only:
        bench_pages(args.runs)
    if "tap" in only:
        bench_tap(args.runs, args.base)
    if "watch" in only:
        bench_watch()
    if "memory" in only:
        bench_memory(args.actions)
    if "flood" in only:
        bench_flood(args.base)
    if "version" in only:
        bench_version(args.base, args.runs)


if __name__ == "__main__":
    main()
