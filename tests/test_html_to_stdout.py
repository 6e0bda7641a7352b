"""`-` means standard output wherever a file is written (issue 29): `report --html -` and
`stats --html -` print the page, as `export -o -` prints the export, and write no file named `-`."""

from __future__ import annotations

import json


def one_play(run) -> str:
    run(["played", "Carcassonne", "--players", "Ann=52,Bob=47"], expect=0)
    return json.loads(run(["sessions", "--json"], expect=0).stdout)[0]["id"]


def test_report_html_dash_prints_the_page(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sid = one_play(run)
    out = run(["report", sid, "--html", "-"], expect=0).stdout
    assert out.startswith("<!DOCTYPE html>") and out.rstrip().endswith("</html>")
    assert "Carcassonne" in out and "Wrote" not in out
    assert not (tmp_path / "-").exists()
    assert run(["report", sid, "--html", "-"], expect=0).stdout == out  # and again: nothing "exists already"


def test_stats_html_dash_prints_the_page_instead_of_the_table(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    one_play(run)
    out = run(["stats", "--html", "-"], expect=0).stdout
    assert out.startswith("<!DOCTYPE html>") and out.rstrip().endswith("</html>")
    assert not (tmp_path / "-").exists()
    err = run(["stats", "--html", "-", "--json"], expect=1).stderr
    assert err.startswith("Error: --html - and --json both write to standard output")
    assert not (tmp_path / "-").exists()


def test_the_help_says_so(run):
    assert "`-`: to standard output" in " ".join(run(["report", "--help"], expect=0).stdout.split())
    assert "`-`: to standard output" in " ".join(run(["stats", "--help"], expect=0).stdout.split())
