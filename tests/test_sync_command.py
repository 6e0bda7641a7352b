"""`companion sync status` and `sync setup` (issue 30, item 3)."""

from __future__ import annotations

import json
import shutil

from test_folder_layout import OLD, contents, copy_shared
from test_json_contract import check, keys, section


def status(run):
    return json.loads(run(["sync", "status", "--json"], expect=0).stdout)


def test_status_names_this_laptop_and_the_others_with_when_each_wrote(run, tmp_path, monkeypatch):
    a, b = tmp_path / "a", tmp_path / "b"
    monkeypatch.setenv("COMPANION_HOME", str(b))
    run(["played", "scoresheet", "--players", "Ann=3,Bob=5", "--title", "Azul"], expect=0)
    run(["player", "rename", "Bob", "Robert"], expect=0)
    theirs = status(run)["device"]
    monkeypatch.setenv("COMPANION_HOME", str(a))
    mine = status(run)
    assert mine["laptops"] == [] and mine["device"]["id"] != theirs["id"]
    copy_shared(b, a)
    found = status(run)
    check(found, keys(section("`sync status --json`")), where="sync status")
    assert found["format"] == "sync-status/1"
    [other] = found["laptops"]
    assert other["id"] == theirs["id"] and other["name"] == theirs["name"] and other["last_wrote"].startswith("20")
    text = run(["sync", "status"], expect=0).stdout
    assert f"This laptop: {mine['device']['name']} ({mine['device']['id']})" in text
    assert f"{theirs['name']} ({theirs['id']}): last wrote" in text and "Nothing waits" in text


def test_status_lists_conflict_copies_and_what_is_not_in_the_layout(run, home):
    run(["played", "scoresheet", "--players", "Ann=3,Bob=5", "--title", "Azul"], expect=0)
    [log] = (home / "titles").glob("*.json")
    copy = log.with_name(f"{log.stem}.sync-conflict-20261204-230618-ABCDEFG.json")
    shutil.copy(log, copy)
    (home / "notes.txt").write_text("mine")
    found = status(run)
    assert found["conflict_copies"] == [f"titles/{copy.name}"] and found["not_in_layout"] == ["notes.txt"]
    text = run(["sync", "status"], expect=0).stdout
    assert "1 conflict copy made by the sync engine" in text and "notes.txt" in text
    run(["sync", "setup"], expect=0)
    assert not copy.exists() and status(run)["conflict_copies"] == []
    assert (home / "notes.txt").read_text() == "mine"


def test_setup_prepares_an_old_folder_without_losing_anything(run, tmp_path):
    folder = tmp_path / "club"
    shutil.copytree(OLD, folder)
    before = contents(folder)
    out = run(["sync", "setup", str(folder)], expect=0).stdout
    assert "Moved this laptop's own files into" in out and "settings.json" in out and "is ready to share" in out
    after = contents(folder)
    for name, data in before.items():
        moved = name if name in after else f".local/{name}"
        if name.split("/")[0] in ("locks",) or name == ".lock":
            continue  # lock files: made again in .local/
        assert after[moved] == data, name
    assert "/.local" in (folder / ".stignore").read_text() and (folder / ".local" / "device.json").is_file()
    again = run(["sync", "setup", str(folder)], expect=0).stdout
    assert "Moved" not in again and "holds Syncthing's rules" in again  # already prepared: nothing moves
    assert contents(folder) == {**after, ".stignore": after[".stignore"]}


def test_a_folder_on_one_laptop_reports_nothing_waiting(run, home):
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    found = status(run)
    assert (found["laptops"], found["forks"], found["conflict_copies"], found["not_in_layout"], found["stignore"]) == \
        ([], [], [], [], True)


def test_setup_refuses_a_file_in_one_line(run, tmp_path):
    path = tmp_path / "file"
    path.write_text("x")
    err = run(["sync", "setup", str(path)], expect=2).stderr
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
