"""Where the suite's time goes, per test: its wall time beside the CPU it spent (issue 29, item 7).

A test whose wall time is far above its CPU waits (a server's clock, a browser, a sleep); one
whose CPU is near its wall time computes. ``COMPANION_TEST_TIMES=FILE pytest ...`` appends one
JSON line per test to FILE (each xdist worker its own lines); ``benchmarks/suite_times.py FILE``
sums them by file. The CPU counts this process (all its threads) and the children it reaped
during the test (a companion started as a command, a shell in a pty); "kept" counts the
processes this one started and still runs (a Chromium kept for the next test, the helper that
forks the tests' commands, with the children they reaped), which the other two columns miss.
"""

from __future__ import annotations

import json
import os
import resource
import time


def _kept() -> float:
    """CPU seconds of this process's live descendants, with the children they reaped."""
    tick = os.sysconf("SC_CLK_TCK")
    parents, cpu = {}, {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(pid)] = int(fields[1])
        cpu[int(pid)] = sum(int(f) for f in fields[11:15]) / tick
    mine, total, seen = {os.getpid()}, 0.0, True
    while seen:
        seen = False
        for pid, parent in parents.items():
            if parent in mine and pid not in mine:
                mine.add(pid)
                total += cpu[pid]
                seen = True
    return total


def _children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class Recorder:
    def __init__(self, path: str):
        self.path = path

    def measure(self, nodeid: str):
        """A context for one test's setup, call and teardown; writes its line when it ends."""
        recorder = self

        class _Measure:
            def __enter__(self):
                self.wall, self.cpu, self.kids, self.kept = time.perf_counter(), time.process_time(), _children(), _kept()

            def __exit__(self, *exc):
                row = {"test": nodeid, "wall": round(time.perf_counter() - self.wall, 4),
                       "cpu": round(time.process_time() - self.cpu, 4),
                       "children": round(_children() - self.kids, 4), "kept": round(_kept() - self.kept, 4),
                       "ended": round(time.time(), 3), "worker": os.environ.get("PYTEST_XDIST_WORKER", "")}
                with open(recorder.path, "a", encoding="utf-8") as fh:
                    fh.write(json.dumps(row) + "\n")

        return _Measure()


def recorder() -> Recorder | None:
    path = os.environ.get("COMPANION_TEST_TIMES")
    return Recorder(path) if path else None
