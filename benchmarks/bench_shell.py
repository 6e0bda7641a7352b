"""The shell at the table (issue 13.8): how fast its prompt appears, and how fast it completes.

1. Prompt: the time from starting a process in a pseudo-terminal until its prompt is on the
   screen, for `companion` (the shell, on a data folder with a Trans session in play, toolbar
   and all) and, side by side in alternating runs, for a bare prompt_toolkit
   `PromptSession().prompt()`. Target: the shell's median at most 1.3x the bare one.
2. Completion: a 6-player Trans Amerika round with 80 rails built (start markers and rails
   recorded through the rules, turn by turn), the shell's completer asked for `build NAME X-`,
   `build NAME `, `start NAME `, `hand ` and `round start --special `. Target: under 50 ms.
   The first answer after the session changed (it reads and replays the session) is timed
   apart from the next ones (the session is read again only when its file changed).

    python benchmarks/bench_shell.py [--runs 15]
"""

from __future__ import annotations

import argparse
import os
import pty
import random
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion.core import session as sessions
from companion.core.app import App
from companion.core.store import Store

BARE = "from prompt_toolkit import PromptSession; PromptSession().prompt('bare> ')"
PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"]


def time_to_prompt(argv: list[str], marker: bytes, env: dict) -> float:
    """Seconds from spawning ``argv`` on a pseudo-terminal until ``marker`` is on its screen."""
    master, slave = pty.openpty()
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
    os.close(slave)
    seen = b""
    try:
        while marker not in seen:
            ready, _, _ = select.select([master], [], [], 20)
            if not ready:
                raise SystemExit(f"no prompt from {argv}: {seen[-200:]!r}")
            chunk = os.read(master, 65536)
            if not chunk:
                raise SystemExit(f"{argv} ended before its prompt: {seen[-200:]!r}")
            seen += chunk
            # answer the terminal's cursor-position request, as a real terminal would
            if b"\x1b[6n" in chunk:
                os.write(master, b"\x1b[1;1R")
        return time.perf_counter() - start
    finally:
        proc.kill()
        proc.wait()
        os.close(master)


def bench_prompt(runs: int, home: Path) -> None:
    companion = shutil.which("companion") or sys.exit("install the project first (pip install -e .)")
    env = dict(os.environ, COMPANION_HOME=str(home), TERM="xterm", COLUMNS="80", LINES="24")
    bare, shell = [], []
    for _ in range(runs):  # alternating, so both see the same machine load
        bare.append(time_to_prompt([sys.executable, "-c", BARE], b"bare>", env))
        shell.append(time_to_prompt([companion], b"companion>", env))
    b, s = statistics.median(bare), statistics.median(shell)
    print(f"bare PromptSession().prompt()   median {b * 1000:7.1f} ms")
    print(f"companion shell prompt          median {s * 1000:7.1f} ms")
    print(f"ratio {s / b:.2f} (target <= 1.3)")


def table_with_80_rails(home: Path) -> str:
    """A 6-player Trans Amerika round in play with 80 rails built, through the rules."""
    from companion.games.trans.track import trans_board

    store = Store(home)
    s = sessions.create(store, "trans-amerika", PLAYERS, {"variant": None, "scoring": "prestige"}, entropy="bench")
    sid = s.id
    app = App(home)
    from companion.terminal.cli import run_line

    def must(line: str) -> None:
        code, message = run_line(app, line)
        if code:
            raise SystemExit(f"{line}: {message}")

    must("round start --physical")
    import click

    click.echo = lambda *a, **k: None  # the setup's own messages are not part of the figures  # no hands recorded: building never ends the round early
    s = sessions.load(store, sid)
    replay = s.replay()
    board = trans_board(replay.data, "trans-amerika")
    rng = random.Random(13)
    starts = rng.sample([c.node for c in board.cities], len(PLAYERS))
    for p, node in zip(PLAYERS, starts):
        must(f"start {p} {board.coord[node]}")
    built: set = set()
    networks = {p: {node} for p, node in zip(PLAYERS, starts)}
    count = 0  # lines on the board, as `status` counts its "rails on the board"
    while count < 80:
        for p in PLAYERS:
            worth = 0
            while worth < 2 and count < 80:
                options = sorted({(a, b) for a in networks[p] for b in board.adj[a]
                                  if ((a, b) if a < b else (b, a)) not in built
                                  and board.cost[(a, b) if a < b else (b, a)] <= 2 - worth})
                if not options:
                    break
                a, b = rng.choice(options)
                e = (a, b) if a < b else (b, a)
                must(f"build {p} {board.coord[a]}-{board.coord[b]}")
                built.add(e)
                networks[p].add(b)
                worth += board.cost[e]
                count += 1
            if count >= 80:
                break
    return sid


def bench_completion(runs: int, home: Path) -> None:
    from prompt_toolkit.document import Document

    from companion.terminal.cli import cli
    from companion.terminal.shell import CommandCompleter, SessionView

    table_with_80_rails(home)
    app = App(home)
    app.pin_session()
    state = sessions.load(app.store, app.pinned).replay().state
    from companion.games.trans.track import trans_board

    rails = len(state["track"]["rails"])
    board = trans_board(sessions.load(app.store, app.pinned).replay().data, "trans-amerika")
    built = {tuple(r["line"]) for r in state["track"]["rails"]}
    ends = [n for line in built for n in line
            if any(((n, m) if n < m else (m, n)) not in built for m in board.adj[n])]
    at = board.coord[ends[0]]
    texts = [f"build Ann {at}-", "build Ann ", "start Bob ", "hand ", "round start --special "]
    print(f"6 players, {rails} rails on the board (Trans Amerika)")
    for text in texts:
        cold, warm = [], []
        for _ in range(runs):
            view = SessionView(app)  # a fresh view: reads and replays the session first
            completer = CommandCompleter(app, view, cli)
            start = time.perf_counter()
            first = list(completer.get_completions(Document(text), None))
            cold.append(time.perf_counter() - start)
            start = time.perf_counter()
            list(completer.get_completions(Document(text), None))
            warm.append(time.perf_counter() - start)
        print(f"{text!r:32} {len(first):4} offers   first {statistics.median(cold) * 1000:6.1f} ms   "
              f"next {statistics.median(warm) * 1000:6.2f} ms   (target < 50 ms)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="companion-bench-shell-") as tmp:
        home = Path(tmp) / "home"
        os.environ["COMPANION_HOME"] = str(home)
        bench_completion(args.runs, home)
        bench_prompt(args.runs, home)


if __name__ == "__main__":
    main()
