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


def keeps(new, old, where="") -> None:
    """``new`` says everything ``old`` said: `--json` is a contract, keys may be added, never
    renamed or changed."""
    if isinstance(old, dict):
        assert isinstance(new, dict), where
        for key, value in old.items():
            assert key in new, f"{where}.{key} is gone"
            keeps(new[key], value, f"{where}.{key}")
    elif isinstance(old, list):
        assert isinstance(new, list) and len(new) == len(old), where
        for i, (a, b) in enumerate(zip(new, old)):
            keeps(a, b, f"{where}[{i}]")
    else:
        assert new == old, f"{where}: {new!r} != {old!r}"


def test_sessions_list_the_same(old_home, run):
    home, expected = old_home
    keeps(json.loads(run(["sessions", "--json"], expect=0).stdout), expected["sessions"])


def test_every_session_replays_to_the_same_status_and_log(old_home, run):
    home, expected = old_home
    for sid, status in expected["status"].items():
        keeps(json.loads(run(["--session", sid, "status", "--json"], expect=0).stdout), status, sid)
        keeps(json.loads(run(["--session", sid, "log", "--json"], expect=0).stdout), expected["log"][sid], sid)
        # the screens may be laid out anew (to fit the terminal), but say the same scores
        text = run(["--session", sid, "status"], expect=0).stdout
        for player in status["players"]:
            assert player["name"] in text and str(player["score"]) in text


def test_an_old_session_takes_new_actions_and_undo(old_home, run):
    home, expected = old_home
    sid = expected["sessions"][-1]["id"]
    before = json.loads(run(["--session", sid, "status", "--json"], expect=0).stdout)
    run(["--session", sid, "undo"], expect=0)
    run(["--session", sid, "redo"], expect=0)
    assert json.loads(run(["--session", sid, "status", "--json"], expect=0).stdout) == before
