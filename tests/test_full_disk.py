"""On a full disk, a refusal that says "Nothing was changed" is true (issue 22, D3).

On a 2 MB tmpfs with 4 KiB free, `data set atlantic-star vp.1 '[9,8,7,6,5,4]'` said "Could not
write .../userdata.json: No space left on device. Nothing was changed." but the file now held
an empty `atlantic-star` table: TinyDB's upsert writes the file twice (an update that finds
nothing, then the insert), and only the second write failed.

Here the disk fills after a given number of writes (each write ends with an fsync: the first N
succeed, every later one fails with ENOSPC, as on a real full disk), for every write command
and every N until the command needs no more. Whatever a command then says: when it says nothing
was changed, every file of the data folder is byte for byte as before; when it changed
something, it says what (as `new` does: "Saved ..., but the index of sessions could not be
updated").
"""

from __future__ import annotations

import errno
import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from journal_support import record_bytes
from long_mode import report_line

from companion.terminal.cli import cli


# A read of the index that finds it in step with the files stamps ``cache/index-checked.json``
# (companion/core/index.py): a record of a check, true whatever the command does next, so it
# is no change of the folder's contents.
# This laptop's id (.local/device.json, issue 30) is made by its first write of a shared list: a
# fact about the machine, made once, not a change of the record.
NOT_CONTENTS = ("errors.log", "index-checked.json", "device.json")


def folder_bytes(root: Path) -> dict:
    return {str(p.relative_to(root)): record_bytes(p) for p in root.rglob("*")
            if p.is_file() and not p.name.endswith(".lock") and p.name not in NOT_CONTENTS}


def cli_run(home: Path, *args: str, input: str | None = None):
    result = CliRunner().invoke(cli, ["--data-dir", str(home), *args], input=input, catch_exceptions=False)
    return result


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> tuple[Path, dict]:
    """A data folder with a score sheet in play (current), a finished one, one in the bin, and
    an export that continues the one in play."""
    home = tmp_path_factory.mktemp("full") / "home"
    ids = {}
    assert cli_run(home, "new", "scoresheet", "--players", "Ann,Bob").exit_code == 0
    cli_run(home, "add", "Ann=1", "Bob=2")
    cli_run(home, "finish")
    ids["finished"] = json.loads(cli_run(home, "status", "--json").stdout)["session"]
    cli_run(home, "new", "scoresheet", "--players", "Cy,Dee")
    ids["binned"] = json.loads(cli_run(home, "status", "--json").stdout)["session"]
    cli_run(home, "delete", ids["binned"], "--yes")
    cli_run(home, "new", "scoresheet", "--players", "Ann,Eve")
    cli_run(home, "add", "Ann=3", "Eve=1")
    ids["in play"] = json.loads(cli_run(home, "status", "--json").stdout)["session"]
    other = home.parent / "other"
    shutil.copytree(home, other)
    cli_run(other, "add", "Ann=1", "Eve=1")
    export = home.parent / "continued.json"
    assert cli_run(other, "export", "-o", str(export)).exit_code == 0
    ids["export"] = str(export)
    assert cli_run(home, "status").exit_code == 0  # the game cache, written once
    # the sessions folder last changed a minute ago, on a quiet machine as on a busy one: the
    # index's check is then stamped in every run (a folder changed within two seconds is not)
    old = os.stat(home / "sessions").st_mtime_ns - 60_000_000_000
    os.utime(home / "sessions", ns=(old, old))
    return home, ids


COMMANDS = {
    "data set, a game's first value": lambda ids: ["data", "set", "atlantic-star", "vp.1", "[9, 8, 7, 6, 5, 4]"],
    "data set, then another": lambda ids: ["data", "set", "atlantic-star", "vp.2", "[9, 8, 7, 6, 5, 4]"],
    "data unset": lambda ids: ["data", "unset", "atlantic-star", "vp.1"],
    "add": lambda ids: ["add", "Ann=2", "Eve=2"],
    "note": lambda ids: ["note", "a note"],
    "undo": lambda ids: ["undo"],
    "finish": lambda ids: ["finish"],
    "new": lambda ids: ["new", "scoresheet", "--players", "Xi,Yu"],
    "use": lambda ids: ["use", ids["finished"]],
    "delete": lambda ids: ["delete", ids["in play"], "--yes"],
    "restore": lambda ids: ["restore", ids["binned"]],
    "player rename": lambda ids: ["player", "rename", "Eve", "Evelyn"],
    "import": lambda ids: ["import", ids["export"]],
    "played": lambda ids: ["played", "scoresheet", "--players", "Ann=5,Bob=3"],
}
PREPARE = {"data set, then another": ["data", "set", "atlantic-star", "vp.1", "[9, 8, 7, 6, 5, 4]"],
           "data unset": ["data", "set", "atlantic-star", "vp.1", "[9, 8, 7, 6, 5, 4]"]}


class FullAfter:
    """os.fsync that succeeds ``budget`` times, then fails as on a full disk."""

    def __init__(self, budget: int):
        self.budget, self.calls = budget, 0
        self.real = os.fsync

    def __call__(self, fd):
        self.calls += 1
        if self.calls > self.budget:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return self.real(fd)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_full_disk_never_says_nothing_changed_when_something_did(base, tmp_path, monkeypatch, command):
    source, ids = base
    checked = refused = noted = 0
    for budget in range(12):
        home = tmp_path / f"try{budget}"
        shutil.copytree(source, home)
        if command in PREPARE:
            assert cli_run(home, *PREPARE[command]).exit_code == 0
        before = folder_bytes(home)
        full = FullAfter(budget)
        with monkeypatch.context() as m:
            m.setattr(os, "fsync", full)
            result = cli_run(home, *COMMANDS[command](ids))
        said = " ".join(result.stderr.split())
        assert "Traceback" not in said and "inside companion" not in said, said
        if result.exit_code:
            assert result.exit_code == 1 and said.startswith("Error:"), said
            lines = [line for line in result.stderr.splitlines() if not line.startswith("Note:")]
            assert len(lines) == 1, result.stderr
            if "othing was changed" in said or "othing was imported" in said or "othing was recorded" in said:
                assert folder_bytes(home) == before, f"{command}, disk full after {budget} writes: {said}"
                refused += 1
        elif "Note:" in result.stderr:
            noted += 1
        checked += 1
        if full.calls <= budget:  # the command wrote all it needed: no fuller disk changes anything
            assert result.exit_code == 0, said
            break
        shutil.rmtree(home)
    assert checked >= 2
    report_line("full disk: runs, and what each said", f"{command}: {checked} runs (the disk full after 0 to "
                f"{checked - 1} writes): {refused} refused, nothing changed (byte for byte); {noted} done, with a "
                f"note saying what could not be written; {checked - refused - noted} done")


def test_the_reports_case_data_set_on_a_full_disk(tmp_path, monkeypatch):
    """No atlantic-star values yet, the disk full: refused, and userdata.json as it was (absent)."""
    home = tmp_path / "home"
    assert cli_run(home, "new", "scoresheet", "--players", "Ann,Bob").exit_code == 0
    before = folder_bytes(home)
    with monkeypatch.context() as m:
        m.setattr(os, "fsync", FullAfter(1))  # room for exactly one write
        result = cli_run(home, "data", "set", "atlantic-star", "vp.1", "[9, 8, 7, 6, 5, 4]")
    assert result.exit_code in (0, 1), result.stderr
    if result.exit_code:
        assert "Nothing was changed" in result.stderr
        assert folder_bytes(home) == before
    else:
        assert "[9, 8, 7, 6, 5, 4]" in cli_run(home, "data", "show", "atlantic-star").stdout
