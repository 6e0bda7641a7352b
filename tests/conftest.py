"""Every test gets its own data folder, so no test can touch a real user's sessions."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from companion.terminal.cli import cli


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    path = tmp_path / "home"
    monkeypatch.setenv("COMPANION_HOME", str(path))
    return path


@pytest.fixture
def runner():
    return CliRunner()


@pytest.fixture
def run(runner):
    """run(["status", "--json"]) -> Result; fails the test if a Python exception escaped."""

    def _run(args, input=None, expect=None):
        result = runner.invoke(cli, list(args), input=input, catch_exceptions=True)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        assert "Traceback" not in result.output + (result.stderr or "")
        if expect is not None:
            assert result.exit_code == expect, (result.output, result.stderr)
        return result

    return _run


@pytest.fixture
def script(run):
    """script("new ...\\nadd ...") runs the lines in script mode: (exit code, stdout, stderr)."""

    def _script(text: str):
        result = run([], input=text)
        return result.exit_code, result.stdout, result.stderr

    return _script


@pytest.fixture
def status(run):
    """The current session's `status --json` as a dict."""

    def _status(*extra):
        result = run(["status", "--json", *extra], expect=0)
        return json.loads(result.stdout)

    return _status


# -- where the tests' folders live -----------------------------------------------------------------


def memory_tmp(config):
    """The tests' folders (tmp_path) go to memory, /dev/shm, when it is there and roomy.

    Every test writes a data folder, and the companion syncs each write to disk (fsync, an atomic
    rename, a lock file): on a virtual disk those calls, and pytest's removal of old runs' folders,
    took two thirds of an in-process test file's time (cProfile: 2.4 s of fsync, 3 s of unlink and
    rmdir out of 9.7 s). On tmpfs the same calls are made and their results are the same; only
    the wait for the platter goes. ``--basetemp`` given, or ``COMPANION_TEST_TMP=disk``, keeps
    them on disk. Workers (pytest-xdist) get their folders under the controller's.
    """
    import os
    import shutil
    import tempfile

    if hasattr(config, "workerinput") or config.option.basetemp is not None:
        return
    if os.environ.get("COMPANION_TEST_TMP", "memory") == "disk":
        return
    shm = "/dev/shm"
    try:
        roomy = os.path.isdir(shm) and os.access(shm, os.W_OK) and shutil.disk_usage(shm).free > 2 * 2**30
    except OSError:
        roomy = False
    if roomy:
        config.option.basetemp = tempfile.mkdtemp(prefix="companion-tests-", dir=shm)
        config._companion_memory_tmp = config.option.basetemp


def pytest_unconfigure(config):
    import shutil

    base = getattr(config, "_companion_memory_tmp", None)
    if base:
        shutil.rmtree(base, ignore_errors=True)


# -- the kill tests' counts (tests/long_mode.py) -----------------------------------------------------


@pytest.hookimpl(tryfirst=True)  # before pytest makes its tmp_path factory from --basetemp
def pytest_configure(config):
    """The tests' folders in memory (:func:`memory_tmp`); and the controller picks this run's own
    report file before any worker starts (workers inherit the variable), so parallel runs on one
    machine never mix their counts."""
    import os
    import tempfile

    memory_tmp(config)

    if not hasattr(config, "workerinput") and not os.environ.get("COMPANION_KILL_REPORT"):
        path = os.path.join(tempfile.gettempdir(), f"companion-kill-report-{os.getpid()}.jsonl")
        os.environ["COMPANION_KILL_REPORT"] = path
        if os.path.exists(path):
            os.unlink(path)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    from long_mode import kill_summary, other_summaries, race_summary

    lines, races, others = kill_summary(), race_summary(), other_summaries()
    if not hasattr(config, "workerinput"):
        from long_mode import report_path

        report_path().unlink(missing_ok=True)  # said once: the next run starts from nothing
    if lines:
        terminalreporter.section("kill -9: actions acknowledged and kept")
        for line in lines:
            terminalreporter.write_line(line)
    if races:
        terminalreporter.section("races: writes acknowledged and kept")
        for line in races:
            terminalreporter.write_line(line)
    for section, rows in others.items():
        terminalreporter.section(section)
        for line in rows:
            terminalreporter.write_line(line)


def pytest_sessionfinish(session, exitstatus):
    """The browsers the tests shared (tests/browser_support.py) are quit as this process's
    tests end, whether or not the process then runs its exit handlers (an xdist worker)."""
    import sys

    for name in ("browser_support", "tests.browser_support"):
        if name in sys.modules:
            sys.modules[name].quit_all()
