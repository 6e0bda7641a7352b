"""Data folders written by release 0.1 load and replay unchanged (tests/fixtures/README.md).

The files are copied first: the fixtures themselves are never written to.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures" / "v0.1"
FOLDERS = sorted(p.name for p in FIXTURES.iterdir() if p.is_dir())


@pytest.fixture(params=FOLDERS)
def old_home(request, home):
    shutil.copytree(FIXTURES / request.param, home)
    expected = json.loads((FIXTURES / f"{request.param}.expected.json").read_text(encoding="utf-8"))
    return home, expected


def test_there_are_folders_of_every_game():
    assert set(FOLDERS) == {"atlantic-star", "scoresheet", "trans-amerika", "transatlantic"}


def test_sessions_list_the_same(old_home, run):
    home, expected = old_home
    assert json.loads(run(["sessions", "--json"], expect=0).stdout) == expected["sessions"]


def test_every_session_replays_to_the_same_status_and_log(old_home, run):
    home, expected = old_home
    for sid, status in expected["status"].items():
        assert json.loads(run(["--session", sid, "status", "--json"], expect=0).stdout) == status
        assert json.loads(run(["--session", sid, "log", "--json"], expect=0).stdout) == expected["log"][sid]
        assert run(["--session", sid, "status"], expect=0).stdout == expected["status_text"][sid]


def test_an_old_session_takes_new_actions_and_undo(old_home, run):
    home, expected = old_home
    sid = expected["sessions"][-1]["id"]
    before = json.loads(run(["--session", sid, "status", "--json"], expect=0).stdout)
    run(["--session", sid, "undo"], expect=0)
    run(["--session", sid, "redo"], expect=0)
    assert json.loads(run(["--session", sid, "status", "--json"], expect=0).stdout) == before
