"""One typed line in the shell, from Enter to the next prompt with its toolbar (issue 20).

Long-lived shells in pseudo-terminals, each on its own data folder, are served round-robin: a
line is typed (and Enter), and the clock stops when the prompt is drawn again with the toolbar
under it (the toolbar shows the session's id: the table waits for it). The anchor is a bare
prompt_toolkit loop with a constant bottom toolbar, in the same rounds. Figures: medians and p90
of each, and the ratio to the anchor.

- a score sheet at 10 events and at 10,000 (`add`);
- Trans Amerika, 6 players, 80 rails (`build` then `undo`, so the board stays as it was);
- the same round after 4,957 `build`/`undo` pairs: 10,000 journal entries, 87 in effect.

Target (issue 20): a typed `build` at 10,000 entries under 30 ms.

    python benchmarks/bench_typed.py [--runs 21]
"""

from __future__ import annotations

import argparse
import json
import os
import pty
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BARE = """
from prompt_toolkit import PromptSession
s = PromptSession(bottom_toolbar=lambda: 'session bare00 · a constant toolbar')
while True:
    line = s.prompt('bare> ')
    print(line)
"""


class Pty:
    def __init__(self, argv: list[str], env: dict, prompt: bytes):
        import fcntl
        import struct
        import termios

        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 80, 0, 0))
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
        os.close(slave)
        self.prompt = prompt
        self.read_until([prompt], 30)
        time.sleep(0.3)
        self.drain()

    def drain(self) -> None:
        while select.select([self.master], [], [], 0.05)[0]:
            if not os.read(self.master, 65536):
                return

    def read_until(self, markers: list[bytes], timeout: float) -> bytes:
        seen = b""
        end = time.perf_counter() + timeout
        while not all(m in seen for m in markers):
            left = end - time.perf_counter()
            if left <= 0:
                raise SystemExit(f"waited for {markers}: {seen[-300:]!r}")
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                chunk = os.read(self.master, 65536)
                seen += chunk
                if b"\x1b[6n" in chunk:
                    os.write(self.master, b"\x1b[1;1R")
        return seen

    def line(self, text: str, toolbar: bytes) -> float:
        os.write(self.master, text.encode())
        time.sleep(0.05)
        self.drain()  # the echo of what was typed
        start = time.perf_counter()
        os.write(self.master, b"\r")
        seen = b""
        end = start + 30
        while not (self.prompt in seen and toolbar in seen.split(self.prompt, 1)[1]):
            left = end - time.perf_counter()
            if left <= 0:
                raise SystemExit(f"after {text!r}: {seen[-300:]!r}")
            if select.select([self.master], [], [], left)[0]:
                chunk = os.read(self.master, 65536)
                seen += chunk
                if b"\x1b[6n" in chunk:
                    os.write(self.master, b"\x1b[1;1R")
        return time.perf_counter() - start

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()
        os.close(self.master)


def scoresheet(home: Path, events: int) -> str:
    from companion.core import session as sessions
    from companion.core.store import Store, atomic_write_text, dumps_compact, now, read_json_file

    store = Store(home)
    s = sessions.create(store, "scoresheet", ["Ann", "Bob", "Cy", "Dee"], {})
    store.set_current(s.id)
    path = store.session_path(s.id)
    doc = read_json_file(path, "session")
    doc["journal"] = {str(n): {"kind": "do", "event": {"type": "add", "scores": {"Ann": n % 7, "Bob": 1}}, "at": now()}
                      for n in range(1, events + 1)}
    from companion.core.store import SCHEMA_KEY, schema_version

    atomic_write_text(path, dumps_compact({SCHEMA_KEY: {"kind": "session", "version": schema_version("session")},
                                           **doc}))
    return s.id


def trans(home: Path, pairs: int) -> tuple[str, str]:
    """The 80-rail round (bench_shell.table_with_80_rails), with ``pairs`` build/undo pairs after
    it; returns (session id, the build line typed)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_shell import table_with_80_rails

    from companion.core import session as sessions
    from companion.core.store import (SCHEMA_KEY, Store, atomic_write_text, dumps_compact, now, read_json_file,
                                      schema_version)
    from companion.games.trans.track import trans_board

    sid = table_with_80_rails(home)
    store = Store(home)
    store.set_current(sid)
    s = sessions.load(store, sid)
    replay = s.replay()
    board = trans_board(replay.data, "trans-amerika")
    track = replay.state["track"]
    built = {tuple(r["line"]) for r in track["rails"]}
    player = s.players[0]
    marker = track["markers"][player][0]
    net = board.network(marker, built)
    a, b = next((a, b) for a in sorted(net) for b in board.adj[a]
                if ((a, b) if a < b else (b, a)) not in built and board.cost[(a, b) if a < b else (b, a)] == 1)
    line = f"build {player} {board.coord[a]}-{board.coord[b]}"
    if pairs:
        path = store.session_path(sid)
        doc = read_json_file(path, "session")
        journal = doc["journal"]
        n = max(int(k) for k in journal)
        for _ in range(pairs):
            n += 1
            journal[str(n)] = {"kind": "do", "event": {"type": "build", "player": player,
                                                      "paths": [f"{board.name(a)}-{board.name(b)}"]}, "at": now()}
            n += 1
            journal[str(n)] = {"kind": "undo", "at": now()}
        atomic_write_text(path, dumps_compact({SCHEMA_KEY: {"kind": "session", "version": schema_version("session")},
                                               **doc}))
    return sid, line


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--only", default="", help="only the cases whose name holds this (e.g. scoresheet)")
    args = parser.parse_args()
    companion = shutil.which("companion") or sys.exit("install the project first (pip install .)")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        cases = {}
        for name, make in [("scoresheet 10 events", lambda h: (scoresheet(h, 10), "add Ann=1 Bob=2")),
                           ("scoresheet 10,000 events", lambda h: (scoresheet(h, 10_000), "add Ann=1 Bob=2")),
                           ("trans 80 rails", lambda h: trans(h, 0)),
                           ("trans 10,000 entries", lambda h: trans(h, 4_957))]:
            if args.only not in name:
                continue
            home = tmp / name.replace(" ", "_").replace(",", "")
            sid, line = make(home)
            cases[name] = (home, sid, line)
        shells = {}
        for name, (home, sid, line) in cases.items():
            env = dict(os.environ, COMPANION_HOME=str(home), TERM="xterm", COLUMNS="80", LINES="30")
            shells[name] = (Pty([companion], env, b"companion>"), line, f"session {sid}".encode())
        bare = Pty([sys.executable, "-c", BARE], dict(os.environ, TERM="xterm"), b"bare>")
        times: dict[str, list[float]] = {name: [] for name in [*shells, "bare loop with a toolbar"]}
        for _ in range(args.runs):
            for name, (shell, line, toolbar) in shells.items():
                times[name].append(shell.line(line, toolbar))
                if line.startswith("build"):
                    shell.line("undo", toolbar)
            times["bare loop with a toolbar"].append(bare.line("a line", b"session bare00"))
        for shell, _, _ in shells.values():
            shell.close()
        bare.close()
    anchor = statistics.median(times["bare loop with a toolbar"])
    out = {}
    for name, values in times.items():
        med = statistics.median(values)
        p90 = sorted(values)[int(0.9 * (len(values) - 1))]
        out[name] = {"median_ms": round(med * 1000, 1), "p90_ms": round(p90 * 1000, 1), "ratio": round(med / anchor, 2)}
        print(f"{name:<28} median {med * 1000:6.1f} ms  p90 {p90 * 1000:6.1f} ms  {med / anchor:5.2f}x the bare loop")
    print("target: a typed `build` at 10,000 entries under 30 ms")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
