"""A damaged data folder: each problem gives one line naming the file, and nothing is overwritten."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest
from warm_support import warm  # noqa: F401 - the fixture


def new(run, players="Ann,Bob") -> str:
    return run(["new", "scoresheet", "--players", players], expect=0).stdout.split()[2].rstrip(":")


def one_line_error(result, *words):
    assert result.exit_code == 1, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:"), result.stderr
    for w in words:
        assert w in lines[0], lines[0]
    assert "Traceback" not in result.stdout + result.stderr


@pytest.fixture
def two_sessions(run, home):
    damaged = new(run)
    run(["add", "Ann=1"], expect=0)
    healthy = new(run, "Cy,Dee")
    return home, damaged, healthy


def still_usable(run, sid):
    run(["add", "--session", sid, "Cy=2"], expect=0)
    status = json.loads(run(["status", "--json", "--session", sid], expect=0).stdout)
    assert status["players"][0]["score"] >= 2


CASES = {
    "truncated": lambda p: p.write_bytes(p.read_bytes()[: len(p.read_bytes()) // 2]),
    "invalid json": lambda p: p.write_text("this is not json"),
    "empty": lambda p: p.write_text(""),
    "wrong schema version": lambda p: p.write_text(json.dumps({**json.loads(p.read_text()), "_schema": {"version": 7}})),
    "no schema": lambda p: p.write_text(json.dumps({k: v for k, v in json.loads(p.read_text()).items() if k != "_schema"})),
    "not an object": lambda p: p.write_text("[1, 2, 3]"),
    "binary": lambda p: p.write_bytes(b"\xff\xfe\x00garbage"),
    "no description": lambda p: p.write_text(json.dumps({"_schema": {"version": 1}, "journal": {}})),
}


@pytest.mark.parametrize("damage", sorted(CASES))
def test_a_damaged_session_file(run, two_sessions, damage):
    home, damaged, healthy = two_sessions
    path = home / "sessions" / f"{damaged}.json"
    CASES[damage](path)
    before = path.read_bytes()
    for args in (["status", "--session", damaged], ["add", "--session", damaged, "Ann=5"],
                 ["undo", "--session", damaged], ["log", "--session", damaged]):
        one_line_error(run(args), str(path))
    assert path.read_bytes() == before, "the damaged file is never overwritten"
    still_usable(run, healthy)
    run(["sessions"], expect=0)


def test_a_folder_where_a_file_should_be(run, two_sessions):
    home, damaged, healthy = two_sessions
    path = home / "sessions" / f"{damaged}.json"
    path.unlink()
    path.mkdir()
    one_line_error(run(["status", "--session", damaged[:8]]), str(path), "is a folder")
    still_usable(run, healthy)


def test_a_damaged_index_or_settings_file(run, two_sessions):
    home, damaged, healthy = two_sessions
    (home / ".local" / "index.json").write_text("{oops")
    one_line_error(run(["sessions"]), str(home / ".local" / "index.json"), "not valid JSON")
    still_usable(run, healthy)
    (home / ".local" / "settings.json").write_text("{oops")
    one_line_error(run(["status"]), str(home / ".local" / "settings.json"))
    still_usable(run, healthy)  # --session does not need the settings file
    assert (home / ".local" / "settings.json").read_text() == "{oops"


def test_an_unreadable_file(run, two_sessions, monkeypatch):
    """Simulated: the tests run as root in CI, and root reads any file whatever its mode."""
    home, damaged, healthy = two_sessions
    target = home / "sessions" / f"{damaged}.json"
    real = os.open

    def refusing_open(path, *a, **k):
        if Path(path) == target:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        return real(path, *a, **k)

    monkeypatch.setattr(os, "open", refusing_open)
    one_line_error(run(["status", "--session", damaged]), str(target), "Permission denied", "permissions")
    still_usable(run, healthy)


def test_a_full_disk(run, two_sessions, monkeypatch):
    """Simulated: every write fails as on a full disk; nothing is lost or half-written."""
    home, damaged, healthy = two_sessions
    before = {p: p.read_bytes() for p in home.rglob("*.json")}

    def full(fd, *a, **k):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with monkeypatch.context() as m:
        m.setattr(os, "fsync", full)
        one_line_error(run(["add", "--session", damaged, "Ann=3"]), "No space left on device", "Nothing was changed")
        one_line_error(run(["new", "scoresheet", "--players", "X,Y"]), "No space left on device")
    assert {p: p.read_bytes() for p in home.rglob("*.json")} == before
    assert not list(home.rglob("*.tmp"))
    still_usable(run, healthy)


def test_a_file_where_the_data_folder_should_be(run, tmp_path):
    blocker = tmp_path / "blocker"
    blocker.write_text("x")
    result = run(["--data-dir", str(blocker), "new", "scoresheet", "--players", "A,B"])
    assert result.exit_code in (1, 2) and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


# -- issue 12: ids, paths, file kinds, shapes ------------------------------------------------


def test_a_current_session_that_is_a_path_is_refused(run, two_sessions, tmp_path):
    """`"current": "../../outside/victim"` made `status` read and `add` rewrite a file outside."""
    home, damaged, healthy = two_sessions
    outside = tmp_path / "outside"
    outside.mkdir()
    victim = outside / "victim.json"
    victim.write_bytes((home / "sessions" / f"{healthy}.json").read_bytes())
    before = victim.read_bytes()
    settings = home / ".local" / "settings.json"
    doc = json.loads(settings.read_text())
    doc["settings"]["1"]["current"] = "../../outside/victim"
    settings.write_text(json.dumps(doc))
    for args in (["status"], ["add", "Ann=1"], ["undo"]):
        one_line_error(run(args), str(settings), "not a session id")
    assert victim.read_bytes() == before
    still_usable(run, healthy)


WRONG_SHAPES = {
    "players not a list": lambda d: d["meta"]["1"].__setitem__("players", "Ann"),
    "description a string": lambda d: d["meta"].__setitem__("1", "oops"),
    "entry a number": lambda d: d.__setitem__("journal", {"1": 7}),
    "event a list": lambda d: d.__setitem__("journal", {"1": {"kind": "do", "event": [1]}}),
    "another id": lambda d: d["meta"]["1"].__setitem__("id", "../../x"),
    "game a number": lambda d: d["meta"]["1"].__setitem__("game", 3),
}


@pytest.mark.parametrize("shape", sorted(WRONG_SHAPES))
def test_a_session_file_of_the_wrong_shape(run, two_sessions, shape):
    home, damaged, healthy = two_sessions
    path = home / "sessions" / f"{damaged}.json"
    doc = json.loads(path.read_text())
    WRONG_SHAPES[shape](doc)
    path.write_text(json.dumps(doc))
    before = path.read_bytes()
    for args in (["status", "--session", damaged], ["add", "--session", damaged, "Ann=5"], ["log", "--session", damaged]):
        one_line_error(run(args), str(path), "damaged")
    assert path.read_bytes() == before
    still_usable(run, healthy)


@pytest.mark.parametrize("content", ["[" * 100_000 + "]" * 100_000, '{"_schema": {"version": 1}, "x": ' + "9" * 5000 + "}"])
def test_deep_nesting_and_huge_integers(run, two_sessions, content):
    home, damaged, healthy = two_sessions
    path = home / "sessions" / f"{damaged}.json"
    path.write_text(content)
    one_line_error(run(["status", "--session", damaged]), str(path))
    still_usable(run, healthy)


def test_a_wrong_shape_index_or_settings(run, two_sessions):
    home, damaged, healthy = two_sessions
    (home / ".local" / "index.json").write_text(json.dumps({"_schema": {"version": 1}, "sessions": {"1": "x"}}))
    one_line_error(run(["sessions"]), str(home / ".local" / "index.json"), "damaged")
    (home / ".local" / "index.json").write_text(json.dumps({"_schema": {"version": 1}, "sessions": []}))
    one_line_error(run(["stats"]), str(home / ".local" / "index.json"))
    (home / ".local" / "index.json").unlink()
    (home / ".local" / "settings.json").write_text(json.dumps({"_schema": {"version": 1}, "settings": {"1": "x"}}))
    one_line_error(run(["status"]), str(home / ".local" / "settings.json"))


def test_a_fifo_a_device_a_folder_and_a_link_to_dev_zero(run, two_sessions, tmp_path, warm):
    """A FIFO in place of a session hung `sessions`; a link to /dev/zero read until MemoryError.
    Each reading command is a process of its own (a hang is killed at its timeout, not this
    test's process), forked from a warm one (tests/warm_support.py)."""
    home, damaged, healthy = two_sessions
    path = home / "sessions" / f"{damaged}.json"
    for make in ("fifo", "zero", "folder"):
        if path.is_dir():
            path.rmdir()
        elif path.exists() or path.is_symlink():
            path.unlink()
        if make == "fifo":
            os.mkfifo(path)
        elif make == "zero":
            path.symlink_to("/dev/zero")
        else:
            path.mkdir()
        for args in (["sessions"], ["stats"], ["export"]):
            done = warm.run(*args, env={"COMPANION_HOME": str(home)}, timeout=60)
            assert done.returncode == 0, (make, args, done.stderr)
            assert "Traceback" not in done.stderr and "Something went wrong" not in done.stderr
            if args == ["sessions"]:  # the skipped file is named, in one line
                assert str(path) in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
        one_line_error(run(["status", "--session", damaged]), str(path))
        still_usable(run, healthy)


def test_a_link_out_of_the_folder_is_not_followed(run, two_sessions, tmp_path):
    home, damaged, healthy = two_sessions
    path = home / "sessions" / f"{damaged}.json"
    outside = tmp_path / "elsewhere.json"
    outside.write_bytes(path.read_bytes())
    path.unlink()
    path.symlink_to(outside)
    before = outside.read_bytes()
    one_line_error(run(["status", "--session", damaged]), str(path), "outside the data folder")
    one_line_error(run(["add", "--session", damaged, "Ann=1"]), str(path))
    assert outside.read_bytes() == before


def test_leftover_temporary_files_are_cleaned_at_the_next_write(run, two_sessions):
    home, damaged, healthy = two_sessions
    leftover = home / "sessions" / f".{healthy}.json.abc123.tmp"
    leftover.write_text("half a write")
    run(["add", "--session", healthy, "Cy=1"], expect=0)
    assert not leftover.exists()


def test_a_symlinked_lock_and_a_nul_in_the_data_folder(run, two_sessions, tmp_path):
    home, damaged, healthy = two_sessions
    lock = home / ".local" / ".lock"
    if lock.exists():
        lock.unlink()
    lock.symlink_to(tmp_path / "somewhere")
    one_line_error(run(["new", "scoresheet", "--players", "X,Y"]), str(lock))
    session_lock = home / ".local" / "locks" / f"{healthy}.lock"
    session_lock.parent.mkdir(exist_ok=True)
    if session_lock.exists():
        session_lock.unlink()
    session_lock.symlink_to(tmp_path / "elsewhere")
    one_line_error(run(["add", "--session", healthy, "Cy=1"]), str(session_lock))
    assert not (tmp_path / "somewhere").exists() and not (tmp_path / "elsewhere").exists()
    run(["status", "--session", healthy], expect=0)
    result = run(["--data-dir", "bad\x00name", "status"])
    assert result.exit_code in (1, 2) and "NUL" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_a_read_only_folder_says_so_and_still_reads(run, two_sessions, monkeypatch):
    """Simulated (the tests run as root, who writes anywhere): taking the lock fails with EROFS."""
    import filelock

    home, damaged, healthy = two_sessions

    def read_only(self, *a, **k):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(filelock.FileLock, "acquire", read_only)
    one_line_error(run(["add", "--session", healthy, "Cy=1"]), "read-only", "reading commands")
    for args in (["status", "--session", healthy], ["sessions"], ["stats"], ["log", "--session", healthy],
                 ["export"], ["players"]):
        run(args, expect=0)


def test_export_skips_a_damaged_session_and_says_which(run, two_sessions):
    home, damaged, healthy = two_sessions
    path = home / "sessions" / f"{damaged}.json"
    run(["sessions"], expect=0)
    path.write_text("this is not json")
    result = run(["export"], expect=0)
    doc = json.loads(result.stdout)
    assert [s["meta"]["id"] for s in doc["sessions"]] == [healthy]
    assert str(path) in result.stderr and len(result.stderr.strip().splitlines()) == 1
    result = run(["export", "--format", "csv"], expect=0)
    assert healthy in result.stdout and damaged not in result.stdout and str(path) in result.stderr


def test_data_files_are_owner_only(run, two_sessions):
    home, damaged, healthy = two_sessions
    run(["add", "--session", healthy, "Cy=1"], expect=0)
    for path in [home, *home.rglob("*")]:
        if path.name == "shell-history":
            continue  # the shell's own file (another part of issue 12)
        mode = path.stat().st_mode & 0o777
        assert mode & 0o077 == 0, (path, oct(mode))
