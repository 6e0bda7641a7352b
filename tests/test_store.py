"""The data folder: where it is, atomic writes, schema versions, damaged files, the lock."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from companion.core import store as store_mod
from companion.contract.errors import BusyError, StoreError
from companion.core.store import Store


def new_session(run) -> str:
    out = run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0).stdout
    return out.split()[2].rstrip(":")


def test_data_dir_option_beats_environment(run, tmp_path, home):
    other = tmp_path / "other"
    run(["--data-dir", str(other), "new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    assert list((other / "sessions").glob("*.json"))
    assert not home.exists()


def test_environment_is_used_and_folder_created_on_first_use(run, home):
    assert not home.exists()
    new_session(run)
    assert (home / ".local" / "index.json").exists() and (home / ".local" / "settings.json").exists()


def test_default_is_the_platform_user_data_folder(monkeypatch):
    from platformdirs import user_data_dir

    from companion.core.app import default_data_dir

    monkeypatch.delenv("COMPANION_HOME")
    assert str(default_data_dir()) == user_data_dir("companion", appauthor=False)


def test_every_file_carries_a_schema_version(run, home):
    sid = new_session(run)
    run(["add", "Ann=1"], expect=0)
    for path in [home / ".local" / "index.json", home / ".local" / "settings.json", home / "sessions" / f"{sid}.json"]:
        doc = json.loads(path.read_text())
        assert doc["_schema"]["version"] == store_mod.schema_version(doc["_schema"]["kind"])
    assert not list(home.rglob("*.tmp")), "no temporary file is left behind"


def test_invalid_json_is_named_and_never_overwritten(run, home):
    sid = new_session(run)
    path = home / "sessions" / f"{sid}.json"
    path.write_text('{"_schema": {"version": 1}, "meta": ')
    result = run(["add", "Ann=1"], expect=1)
    assert str(path) in result.stderr and "not valid JSON" in result.stderr
    assert path.read_text() == '{"_schema": {"version": 1}, "meta": '


def test_a_newer_file_is_refused_and_kept(run, home):
    sid = new_session(run)
    path = home / "sessions" / f"{sid}.json"
    doc = json.loads(path.read_text())
    doc["_schema"]["version"] = 99
    path.write_text(json.dumps(doc))
    before = path.read_bytes()
    result = run(["add", "Ann=1"], expect=1)
    assert "newer companion" in result.stderr and str(path) in result.stderr
    assert path.read_bytes() == before


def test_other_sessions_stay_usable_when_one_is_damaged(run, home, status):
    broken = new_session(run)
    good = new_session(run)
    (home / "sessions" / f"{broken}.json").write_text("garbage")
    run(["use", good], expect=0)
    run(["add", "Ann=2"], expect=0)
    assert status()["players"][0]["score"] == 2
    assert "not valid JSON" in run(["status", "--session", broken], expect=1).stderr


def test_migrations_run_in_order(tmp_path, monkeypatch):
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"_schema": {"kind": "settings", "version": 1}, "settings": {"1": {"cur": "a"}}}))
    steps = []

    def v1_to_v2(data):
        steps.append(1)
        data["settings"]["1"]["current"] = data["settings"]["1"].pop("cur")
        return data

    def v2_to_v3(data):
        steps.append(2)
        data["settings"]["1"]["upgraded"] = True
        return data

    monkeypatch.setitem(store_mod.MIGRATIONS, "settings", [v1_to_v2, v2_to_v3])
    data = store_mod.read_json_file(path, "settings")
    assert steps == [1, 2] and data["settings"]["1"] == {"current": "a", "upgraded": True}


def test_atomic_write_failure_keeps_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "f.json"
    store_mod.atomic_write_text(path, "old")

    def full_disk(fd, *a):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(StoreError, match="No space left on device. Nothing was changed"):
        store_mod.atomic_write_text(path, "new")
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["f.json"]


def test_session_prefixes(run, home):
    a = new_session(run)
    s = Store(home)
    assert s.resolve(a[:3]) == a
    with pytest.raises(Exception, match="No session starts with"):
        s.resolve("zzzzzzzzz")
    with pytest.raises(Exception, match="not a session id"):
        s.resolve("../x")


def test_a_held_lock_gives_a_clear_message(home, monkeypatch):
    Store(home).ensure()
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys,time; from filelock import FileLock; l=FileLock(sys.argv[1]); l.acquire(); "
         "print('held', flush=True); time.sleep(30)", str(home / ".local" / ".lock")],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        monkeypatch.setattr(store_mod, "LOCK_TIMEOUT", 0.3)
        started = time.monotonic()
        with pytest.raises(BusyError, match="Another companion has been writing"):
            with Store(home).writing():
                pass
        assert time.monotonic() - started < 5
    finally:
        holder.kill()
        holder.wait()
