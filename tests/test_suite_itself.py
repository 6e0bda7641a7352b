"""The suite's own settings (issue 29, item 7): the files started first exist, `-n auto` starts
three workers for two cores, compiled modules are kept, and each test's time can be recorded."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import conftest
from suite_times import Recorder

TESTS = Path(__file__).parent


def test_every_file_started_first_is_a_test_file_once():
    missing = [name for name in conftest.STARTED_FIRST if not (TESTS / name).is_file()]
    assert not missing, f"STARTED_FIRST names files that are gone: {missing}"
    assert len(set(conftest.STARTED_FIRST)) == len(conftest.STARTED_FIRST)


def test_the_files_started_first_are_collected_first(request):
    """In the order of STARTED_FIRST, the other files after them (each xdist worker collects
    the whole suite, so under `pytest` this sees every file)."""
    rank = {name: n for n, name in enumerate(conftest.STARTED_FIRST)}
    ranks = [rank.get(item.path.name, len(rank)) for item in request.session.items]
    assert ranks == sorted(ranks)


def test_auto_starts_two_workers_a_core(monkeypatch):
    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    assert conftest.pytest_xdist_auto_num_workers(None) == conftest.workers_for(len(os.sched_getaffinity(0)))
    assert [conftest.workers_for(n) for n in (1, 2, 3, 4, 8)] == [2, 4, 6, 8, 16]
    monkeypatch.setenv("PYTEST_XDIST_AUTO_NUM_WORKERS", "3")
    assert conftest.pytest_xdist_auto_num_workers(None) is None  # xdist's own hook reads it: 3


def test_the_suites_processes_keep_their_compiled_modules():
    assert "PYTHONDONTWRITEBYTECODE" not in os.environ and not sys.dont_write_bytecode


def test_a_tests_wall_time_and_cpu_are_recorded(tmp_path):
    path = tmp_path / "times.jsonl"
    with Recorder(str(path)).measure("tests/test_x.py::test_waits"):
        time.sleep(0.05)  # a wait: wall time, no CPU
    with Recorder(str(path)).measure("tests/test_x.py::test_computes"):
        sum(i * i for i in range(200_000))
    waits, computes = (json.loads(line) for line in path.read_text().splitlines())
    assert waits["test"] == "tests/test_x.py::test_waits" and waits["wall"] >= 0.05 and waits["cpu"] < waits["wall"]
    assert computes["cpu"] > 0 and set(computes) == {"test", "wall", "cpu", "children", "kept", "ended", "worker"}


def test_a_pytest_started_by_a_test_leaves_the_runs_counts_alone(tmp_path):
    """The counts the long tests leave for the summary (kills, races) live in one file named by
    COMPANION_KILL_REPORT, which a pytest started by a test inherits (the packaging test collects
    the suite): its end removed the file, and the summary lost every count written before it."""
    import subprocess

    report = tmp_path / "report.jsonl"
    report.write_text(json.dumps({"section": "kept", "line": "written before"}) + "\n")
    env = dict(os.environ, COMPANION_KILL_REPORT=str(report))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider",
                           "--collect-only", str(TESTS / "test_suite_itself.py")],
                          cwd=TESTS.parent, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "written before" in report.read_text()
