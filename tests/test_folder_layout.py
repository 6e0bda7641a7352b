"""What belongs to one laptop stays on it (issue 30, item 1): the current session, the index,
the caches, the locks, the server's notes and the logs live in ``<data>/.local/``, which the
sync ignores (the companion writes Syncthing's ``.stignore``); a folder from before issue 30 has
them moved there on its first run, by renames, without losing a byte."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from companion.core import layout

OLD = Path(__file__).parent / "fixtures" / "before-issue-30" / "club"
MACHINE_FILES = ["settings.json", "index.json", "errors.log", "shell-history", "web/tokens.json"]


def contents(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def old_home(home):
    shutil.copytree(OLD, home)
    return home


def test_a_new_folder_keeps_this_laptops_files_under_local(run, home):
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    run(["add", "Ann=3", "Bob=4"], expect=0)
    top = sorted(p.name for p in home.iterdir())
    assert top == [".local", ".stignore", "sessions"], top
    local = home / ".local"
    assert (local / "settings.json").is_file() and (local / "index.json").is_file() and (local / ".lock").exists()
    assert (local / "stat").exists() is False and oct(local.stat().st_mode & 0o777) == "0o700"
    rules = (home / ".stignore").read_text().splitlines()
    assert "/.local" in rules and "(?d).*.tmp" in rules


def test_an_old_folder_is_moved_on_its_first_run_without_losing_anything(run, old_home):
    before = contents(old_home)
    status = json.loads(run(["status", "--json"], expect=0).stdout)
    assert status["session"] == "078hzhnj"  # the current session, as `use` left it
    after = contents(old_home)
    for name in MACHINE_FILES:  # moved, byte for byte
        assert name not in after and after[f".local/{name}"] == before[name], name
    for name, data in before.items():  # the record itself: where it was, unchanged
        if name.split("/")[0] in ("sessions", "bin"):
            assert after[name] == data, name
    assert not (old_home / ".lock").exists() and not (old_home / "locks").exists()
    assert (old_home / ".local" / ".lock").exists() and (old_home / ".local" / "locks").is_dir()
    assert "/.local" in (old_home / ".stignore").read_text().splitlines()
    listed = json.loads(run(["sessions", "--json"], expect=0).stdout)
    assert sorted(s["id"] for s in listed) == ["078hzhnj", "l0smgs4i"]
    assert [s["id"] for s in json.loads(run(["sessions", "--deleted", "--json"], expect=0).stdout)] == ["n27ktzjv"]
    # and it goes on as before
    run(["add", "Ann=1", "Cy=2"], expect=0)
    assert json.loads(run(["status", "--json"], expect=0).stdout)["session"] == "078hzhnj"


def test_a_folder_where_both_places_exist_keeps_the_new_and_leaves_the_old_named(run, old_home):
    local = old_home / ".local"
    local.mkdir()
    (local / "settings.json").write_text(
        '{"_schema":{"kind":"settings","version":1},"settings":{"1":{"current":"l0smgs4i"}}}')
    status = json.loads(run(["status", "--json"], expect=0).stdout)
    assert status["session"] == "l0smgs4i"  # this laptop's own choice
    assert (old_home / "settings.json").is_file()  # another's: left, never deleted
    assert not (old_home / "locks").exists()  # a lock or a cache is nobody's record: gone


def test_stignore_keeps_the_users_own_lines_and_is_written_once(tmp_path):
    (tmp_path / ".stignore").write_text("// mine\n*.bak\n")
    assert layout.write_stignore(tmp_path)
    text = (tmp_path / ".stignore").read_text()
    assert text.startswith("// mine\n*.bak\n") and "/.local" in text
    assert not layout.write_stignore(tmp_path)  # already in step: not rewritten
    assert (tmp_path / ".stignore").read_text() == text


def copy_shared(src: Path, dst: Path) -> None:
    """What a sync engine that obeys .stignore carries from one laptop's folder to another's:
    each file the other has not, or has in an older version (a file changed on one side only)."""
    for path in src.rglob("*"):
        rel = path.relative_to(src)
        if rel.parts[0] in (".local", ".stignore") or path.name.endswith((".tmp", ".lock")):
            continue
        there = dst / rel
        if path.is_file() and (not there.exists() or path.stat().st_mtime_ns > there.stat().st_mtime_ns):
            (dst / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, dst / rel)


def test_another_laptops_new_game_is_not_this_laptops_current_game(run, tmp_path, monkeypatch):
    a, b = tmp_path / "a", tmp_path / "b"
    monkeypatch.setenv("COMPANION_HOME", str(a))
    mine = run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0).stdout.split()[2].rstrip(":")
    copy_shared(a, b)
    monkeypatch.setenv("COMPANION_HOME", str(b))
    theirs = run(["new", "scoresheet", "--players", "Cy,Dee"], expect=0).stdout.split()[2].rstrip(":")
    copy_shared(b, a)
    monkeypatch.setenv("COMPANION_HOME", str(a))
    assert json.loads(run(["status", "--json"], expect=0).stdout)["session"] == mine
    assert {s["id"] for s in json.loads(run(["sessions", "--json"], expect=0).stdout)} == {mine, theirs}
