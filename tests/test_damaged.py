"""A damaged data folder: each problem gives one line naming the file, and nothing is overwritten."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest


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
    (home / "index.json").write_text("{oops")
    one_line_error(run(["sessions"]), str(home / "index.json"), "not valid JSON")
    still_usable(run, healthy)
    (home / "settings.json").write_text("{oops")
    one_line_error(run(["status"]), str(home / "settings.json"))
    still_usable(run, healthy)  # --session does not need the settings file
    assert (home / "settings.json").read_text() == "{oops"


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
