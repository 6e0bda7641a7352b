"""Every test gets its own data folder, so no test can touch a real user's sessions."""

from __future__ import annotations

import json
import os
import sys
import tempfile


def keep_bytecode() -> None:
    """The suite's processes write and reuse compiled modules even under PYTHONDONTWRITEBYTECODE.

    With that variable set (as it is on the machines the suite is timed on) every process the
    suite starts compiled every module of the companion again from its source, and every xdist
    worker rewrote the asserts of all 200 test files again: the collection took 5.9 s of CPU
    per worker instead of 2.3 s, a `companion status` 0.15 s instead of 0.06 s, and the suite
    starts thousands (servers, shells in a pty, plugins, scripts). The variable is dropped for
    the tests' own processes, and the compiled files go to one folder under the system's
    temporary folder (PYTHONPYCACHEPREFIX), so the source tree is not written to, as its owner
    asked. Issue 29, item 7.
    """
    if not os.environ.pop("PYTHONDONTWRITEBYTECODE", None):
        return
    prefix = os.environ.setdefault("PYTHONPYCACHEPREFIX",
                                   os.path.join(tempfile.gettempdir(), f"companion-tests-pycache-{os.getuid()}"))
    sys.dont_write_bytecode = False
    sys.pycache_prefix = prefix


keep_bytecode()


def no_hypothesis_plugins() -> None:
    """Hypothesis loads no plugins of other packages (``HYPOTHESIS_NO_PLUGINS``): the only one
    installed is trio's (trio comes with Selenium), whose import took 0.17 s of CPU in every
    worker that imported hypothesis, which every worker does as it collects the storm and
    property tests; no test runs trio under hypothesis. Issue 29, item 7."""
    os.environ.setdefault("HYPOTHESIS_NO_PLUGINS", "1")


no_hypothesis_plugins()

import pytest  # noqa: E402  (after keep_bytecode: the modules below are compiled once)
from click.testing import CliRunner  # noqa: E402

from companion.terminal.cli import cli  # noqa: E402


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    """Each test's own data folder, and English until the test chooses otherwise: an in-process
    command chooses the process's language from its own line (`--lang de`) and leaves that
    choice for whatever is translated next, in the product a process's next line, here the
    next test's (test_history_stats' refusals came out German after a German test on the same
    worker, one run in ~15)."""
    from companion.contract import language

    path = tmp_path / "home"
    monkeypatch.setenv("COMPANION_HOME", str(path))
    language._process, language.resolver = None, None
    yield path
    language._process, language.resolver = None, None
    leaked = language._viewer.get()
    if leaked is not None:  # the next test of this worker would speak it: named where it began
        language._viewer.set(None)
        pytest.fail(f"the viewer's language {leaked!r} outlived this test (a context never closed)")


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


def shared_folder(config):
    """A folder the whole run shares, its workers included (``COMPANION_TEST_SHARED``, made by
    the controller, inherited by the workers): what is made once and only read afterwards, such
    as an example game pip-installed (tests/shared_install.py). A pytest a test starts inherits
    it and uses the same; the run that made it removes it."""
    import os
    import tempfile

    if hasattr(config, "workerinput") or os.environ.get("COMPANION_TEST_SHARED"):
        return
    memory = getattr(config, "_companion_memory_tmp", None)  # beside it (pytest empties the basetemp)
    parent = os.path.dirname(memory) if memory else None
    folder = tempfile.mkdtemp(prefix="companion-shared-", dir=parent)
    os.environ["COMPANION_TEST_SHARED"] = folder
    config._companion_shared = folder


def pytest_unconfigure(config):
    import shutil

    for base in (getattr(config, "_companion_shared", None), getattr(config, "_companion_memory_tmp", None)):
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
    shared_folder(config)

    if not hasattr(config, "workerinput") and not os.environ.get("COMPANION_KILL_REPORT"):
        path = os.path.join(tempfile.gettempdir(), f"companion-kill-report-{os.getpid()}.jsonl")
        os.environ["COMPANION_KILL_REPORT"] = path
        config.companion_report_owner = True  # this run made it: only this run removes it at the end
        if os.path.exists(path):
            os.unlink(path)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    from long_mode import kill_summary, other_summaries, race_summary

    lines, races, others = kill_summary(), race_summary(), other_summaries()
    if getattr(config, "companion_report_owner", False):
        from long_mode import report_path

        # said once: the next run starts from nothing. Only by the run that made the file: a
        # pytest a test starts (the packaging test collects the suite) inherits the variable, and
        # its end removed the counts the tests before had left (a long run lost its two-laptop
        # Syncthing trials' line)
        report_path().unlink(missing_ok=True)
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
    """The browsers the tests shared (tests/browser_support.py) are quit, and the helper that
    forks the pty tests' commands ended, as this process's tests end, whether or not the process
    then runs its exit handlers (an xdist worker)."""
    import sys

    for name in ("browser_support", "tests.browser_support"):
        if name in sys.modules:
            sys.modules[name].quit_all()
    for name in ("pty_fork", "tests.pty_fork"):  # the commands' helper, reaped (tests/pty_fork.py)
        if name in sys.modules:
            sys.modules[name].close()
    getattr(sys.modules.get("warm_support"), "close_web", lambda: None)()  # the servers' warm process


# -- where the suite's time goes (tests/suite_times.py) ----------------------------------------------


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """With ``COMPANION_TEST_TIMES=FILE``, each test's wall time and CPU go to FILE."""
    from suite_times import recorder

    times = recorder()
    if times is None:
        yield
        return
    with times.measure(item.nodeid):
        yield


# -- how many workers, and which tests start first ---------------------------------------------------

def workers_for(cores: int) -> int:
    """Two workers a core: while one waits (a server's clocks, a browser drawing, Syncthing, a
    shell in a pty) the other computes. With three for two cores 35-40 s of the run's core time
    was idle, all three waiting at once; once the workers' cycle collector stopped walking their
    imports (pytest_collection_finish), a fourth cost less CPU than those waits: on the same tree
    (5 December 2026, quiet), 4 workers took 83-85 s of wall and 150-155 s of CPU, 3 workers
    92-93 s and 143 s, 5 workers 84 s and 159 s (BENCHMARKS.md)."""
    return max(1, 2 * cores)


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config):
    """``-n auto`` starts :func:`workers_for` the cores this process may use.
    ``PYTEST_XDIST_AUTO_NUM_WORKERS=N`` still chooses N, ``-n N`` too."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's own hook reads it
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count() or 1
    return workers_for(cores)


# Files whose tests take seconds each, mostly waiting (real browsers, real servers and their
# clocks, Syncthing, kill loops, LibreOffice, pip): started first, so that the last minute of a
# run is not one of them alone on a worker while the others are idle; those that mostly wait on
# a clock (the floods, the connections, Syncthing, the live pages, the terminals) are spread
# between those that compute, so that the workers seldom all wait at once. Measured per test with
# COMPANION_TEST_TIMES (tests/suite_times.py); a file missing here is only started later.
STARTED_FIRST = (
    "test_serve_phones.py", "test_web_floods.py", "test_serve_layout.py", "test_german_web_browser.py",
    "test_whole_night_browser.py", "test_web_connections.py", "test_live_browser.py",
    "test_german_terminal.py", "test_syncthing_trials.py", "test_check_command.py",
    "test_crash_games.py", "test_live.py", "test_report_accessibility.py", "test_serve_moves.py",
    "test_lines_between_words.py", "test_game_contract.py", "test_exports_real_clients.py",
    "test_live_taps.py", "test_storm_scoresheet.py", "test_atlantic_star_whole_game.py",
    "test_laptop_says_what_phones_do.py", "test_packaging.py", "test_storm_trans.py",
    "test_phone_in_place_browser.py", "test_board_finger.py", "test_serve_browser.py",
    "test_data_setup.py", "test_tv_end_browser.py", "test_german_trans.py", "test_syncthing_fork.py",
    "test_terminal_screens.py", "test_completion_quoting.py", "test_web_access_log.py",
    "test_storm_atlantic_star.py", "test_caches_checked.py", "test_plugin_checks_bounded.py",
    "test_races.py", "test_phone_questions.py", "test_terminal_board.py",
    "test_trans_several_specials.py", "test_web_error_pages_accessible.py",
    "test_storm_transatlantic.py", "test_plugin_shape.py", "test_plugin_game.py", "test_steiner.py",
)


def pytest_collection_modifyitems(session, config, items):
    """The tests of :data:`STARTED_FIRST` go first, in that order (the longest first), the rest
    after them as collected. With ``--dist loadfile --no-loadscope-reorder`` (pyproject.toml)
    xdist hands out whole files in this order, one to each worker and the next to whichever is
    nearly done, so the long ones run side by side from the start, and a file's module fixtures
    (a plugin installed by pip) are made once. (xdist's default, ``load``, sends each worker a
    first block of a quarter of its share: the long files would all go to the first worker.)"""
    rank = {name: n for n, name in enumerate(STARTED_FIRST)}
    last = len(STARTED_FIRST)
    items.sort(key=lambda item: rank.get(item.path.name, last))


def pytest_collection_finish(session):
    """Everything imported and collected so far lives as long as the worker: kept out of the
    cyclic collector's counts and walks (``gc.freeze``). A worker's full collections walked
    every module, function and collected test each time: 10.6 of its 80 s of CPU in a run
    (``perf record -a`` over the suite, issue 29, item 7). It also spares the pages a forked
    process shares with its worker from being written by the collector."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)
