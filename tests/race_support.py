"""Two commands started at the same instant, over and over, with nothing lost (issue 22).

A race is two real `companion` commands (the root Click group, as a one-off command runs it:
`--data-dir D CMD ...`) started in two processes at one instant, each after its own random
delay of a few milliseconds, on a fresh copy of one data folder. The processes stay alive
between trials (a worker reads one command line at a time, as JSON, and answers with its exit
status and output), so a trial costs the commands themselves, not two Python start-ups: that
is what lets the long run repeat a race 1,000 times. The parent then checks the folder: every
write a command acknowledged (exit status 0) is there, and a refusal is one line.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

WORKER = r"""
import json, sys, time
from click.testing import CliRunner
from companion.terminal.cli import cli

runner = CliRunner()
for line in sys.stdin:
    job = json.loads(line)
    pause = job["start"] - time.time()
    if pause > 0:
        time.sleep(pause)
    began = time.time()
    result = runner.invoke(cli, job["args"], catch_exceptions=True)
    ended = time.time()
    crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
    print(json.dumps({"code": result.exit_code, "out": result.stdout, "err": result.stderr,
                      "crashed": repr(result.exception) if crashed else None, "began": began,
                      "ended": ended}), flush=True)
"""


class Worker:
    """A process that runs one `companion` command line each time it is asked."""

    def __init__(self):
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)

    def send(self, args: list[str], start: float) -> None:
        self.proc.stdin.write(json.dumps({"args": [str(a) for a in args], "start": start}) + "\n")
        self.proc.stdin.flush()

    def answer(self) -> dict:
        line = self.proc.stdout.readline()
        assert line, "a race worker died"
        return json.loads(line)

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


class Racer:
    """Two workers; :meth:`race` starts two command lines together and returns both answers."""

    def __init__(self, seed: int, spread: float):
        self.rng = random.Random(seed)
        self.spread = spread  # each command waits 0 to `spread` seconds after the common start
        self.workers = [Worker(), Worker()]

    overlapped = 0  # trials in which the two commands ran at the same time for a while

    def race(self, first: list[str], second: list[str]) -> tuple[dict, dict]:
        start = time.time() + 0.01
        for worker, args in zip(self.workers, (first, second)):
            worker.send(args, start + self.rng.uniform(0, self.spread))
        a, b = (w.answer() for w in self.workers)
        for answer in (a, b):
            assert not answer["crashed"], answer
            assert "Traceback" not in answer["out"] + answer["err"], answer
        if a["began"] < b["ended"] and b["began"] < a["ended"]:
            self.overlapped += 1
        return a, b

    def close(self) -> None:
        for worker in self.workers:
            worker.close()

    def __enter__(self) -> "Racer":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def fresh_copy(base: Path, where: Path) -> Path:
    """A copy of the data folder ``base`` at ``where`` (a trial's own folder)."""
    if where.exists():
        shutil.rmtree(where)
    shutil.copytree(base, where)
    return where


def one_line(answer: dict) -> bool:
    """A refusal as people read it: exactly one line, an `Error:` one, nothing on stdout."""
    return answer["code"] == 1 and answer["err"].count("\n") == 1 and answer["err"].startswith("Error: ")


def journal_of(path: Path) -> list[dict]:
    """The journal entries of a session, in order ([] when its file is absent): the file's own
    and its devices' journals merged (issue 30), as the store reads them."""
    if not path.exists():
        return []
    from companion.core import journals
    from companion.core.store import Store, plain_line

    home, sid = path.parent.parent, path.stem
    if path.parent.name == "sessions":
        return Store(home).read_session(sid)[1]
    # a session file moved aside (bin/): its devices' journals stay in sessions/
    table = json.loads(path.read_text(encoding="utf-8")).get("journal") or {}
    base = [table[k] for k in sorted(table, key=int)]
    found = {}
    for journal in sorted((home / "sessions").glob(f"{sid}.*.jsonl")):
        found.setdefault(journal.name.split(".")[1], []).extend(journals.read_journal(journal)[1])
    return plain_line(journals.merge(base, found).line)
