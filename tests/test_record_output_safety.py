"""Every output option (export -o, report --html, stats --html) refuses to write inside the data
folder, symlinks resolved, and refuses an existing file unless --force (issues 16.6 and 12.3)."""

from __future__ import annotations

import csv
import io
import json

import pytest

OUTPUTS = [
    ["export", "-o"],
    ["export", "--format", "csv", "-o"],
    ["export", "--format", "bgg", "-o"],
    ["report", "--html"],
    ["stats", "--html"],
]


@pytest.fixture
def finished(run):
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    run(["add", "Ann=5", "Bob=2"], expect=0)
    run(["finish"], expect=0)


@pytest.mark.parametrize("cmd", OUTPUTS, ids=lambda c: " ".join(c))
def test_an_existing_file_is_kept_without_force(run, finished, tmp_path, cmd):
    out = tmp_path / "out.txt"
    out.write_text("precious", encoding="utf-8")
    refused = run([*cmd, str(out)], expect=1).stderr
    assert "exists already" in refused and "--force" in refused
    assert out.read_text(encoding="utf-8") == "precious"
    run([*cmd, str(out), "--force"], expect=0)
    assert out.read_text(encoding="utf-8") != "precious"


@pytest.mark.parametrize("cmd", OUTPUTS, ids=lambda c: " ".join(c))
def test_never_inside_the_data_folder_even_with_force(run, finished, home, tmp_path, cmd):
    sid = json.loads(run(["sessions", "--json"], expect=0).stdout)[0]["id"]
    targets = [home / "sessions" / f"{sid}.json", home / ".local" / "settings.json", home / ".local" / "index.json",
               home / "new-file.html", home]
    link = tmp_path / "innocent.html"
    link.symlink_to(home / ".local" / "settings.json")
    folder_link = tmp_path / "elsewhere"
    folder_link.symlink_to(home / "sessions")
    targets += [link, folder_link / "x.html"]
    before = {p: p.read_bytes() for p in home.rglob("*") if p.is_file() and not p.name.endswith(".lock")}
    for target in targets:
        refused = run([*cmd, str(target), "--force"], expect=1).stderr
        assert "inside the data folder" in refused, (target, refused)
    after = {p: p.read_bytes() for p in home.rglob("*") if p.is_file() and not p.name.endswith(".lock")}
    assert after == before
    assert run(["status", "--json", "--session", sid], expect=0)


def test_a_new_file_is_written_and_said(run, finished, tmp_path):
    out = tmp_path / "all.json"
    assert "Exported 1 session as json" in run(["export", "-o", str(out)], expect=0).stdout
    assert json.loads(out.read_text(encoding="utf-8"))["sessions"]


def test_csv_cells_that_look_like_formulas_stay_text(run, tmp_path):
    run(["played", "scoresheet", "--players", "Ann=5,Bob=-3", "--location", "=HYPERLINK(\"x\")",
         "--note", "+1 for Bob"], expect=0)
    rows = list(csv.reader(io.StringIO(run(["export", "--format", "csv"], expect=0).stdout)))
    head, first, second = rows[0], dict(zip(rows[0], rows[1])), dict(zip(rows[0], rows[2]))
    assert head[9:12] == ["abandoned", "location", "notes"]
    assert first["location"] == "'=HYPERLINK(\"x\")" and first["notes"] == "'+1 for Bob"
    assert second["score"] == "-3", "a number we write is a number"
    for bad in ("+Ann", "-Ann", "@Ann", "=Ann"):
        refused = run(["new", "scoresheet", "--players", f"{bad},Bob"], expect=1).stderr
        assert "may not" in refused
    assert "may not" in run(["player", "rename", "Ann", "@nn"], expect=1).stderr
