"""Where the suite's time goes, per test: its wall time beside the CPU it spent (issue 29, item 7).

A test whose wall time is far above its CPU waits (a server's clock, a browser, a sleep); one
whose CPU is near its wall time computes. ``COMPANION_TEST_TIMES=FILE pytest ...`` appends one
JSON line per test to FILE (each xdist worker its own lines); ``benchmarks/suite_times.py FILE``
sums them by file. The CPU counts this process (all its threads) and the children it reaped
during the test (a companion started as a command, a shell in a pty); a browser kept for the
next test is counted when it is quit.
"""

from __future__ import annotations

import json
import os
import resource
import time


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
                self.wall, self.cpu, self.kids = time.perf_counter(), time.process_time(), _children()

            def __exit__(self, *exc):
                row = {"test": nodeid, "wall": round(time.perf_counter() - self.wall, 4),
                       "cpu": round(time.process_time() - self.cpu, 4),
                       "children": round(_children() - self.kids, 4)}
                with open(recorder.path, "a", encoding="utf-8") as fh:
                    fh.write(json.dumps(row) + "\n")

        return _Measure()


def recorder() -> Recorder | None:
    path = os.environ.get("COMPANION_TEST_TIMES")
    return Recorder(path) if path else None
