"""`board` on a terminal narrower than the map (issue 31, item 9's last point): at 60 columns
it draws the part of the map around the players' markers and rails, no row wider than the
screen, and says how wide the whole map needs; with nothing of the players on the map yet, it
says how wide the map needs and draws no grid to wrap."""

from __future__ import annotations

import re

import pytest

ESC = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture
def narrow(monkeypatch):
    monkeypatch.setenv("COLUMNS", "60")


def test_at_60_columns_the_board_is_the_part_around_the_players(run, narrow):
    run(["new", "trans-amerika", "--players", "Ann,Bob,Cy,Dee"], expect=0)
    run(["round", "start"], expect=0)
    run(["start", "Ann", "Chicago"], expect=0)
    run(["start", "Bob", "Denver"], expect=0)
    out = ESC.sub("", run(["board"], expect=0).output)
    assert "The part of the map around the players: the whole map needs 80 columns and this screen has 60." \
        in " ".join(out.split())
    grid = [line for line in out.splitlines() if re.match(r"^ *\d+ ", line)]
    assert len(grid) >= 13 and all(len(line) <= 60 for line in out.splitlines())
    assert any("Chi" in line for line in grid) and any("Den" in line for line in grid)  # both markers drawn


def test_at_60_columns_with_nothing_on_the_map_it_says_how_wide_it_needs(run, narrow):
    run(["new", "trans-amerika", "--players", "Ann,Bob"], expect=0)
    run(["round", "start"], expect=0)
    out = " ".join(ESC.sub("", run(["board"], expect=0).output).split())
    assert "The map needs 80 columns and this screen has 60: widen the window to see it." in out
    assert "──•──" not in out


def test_at_80_columns_the_whole_map_is_drawn(run, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    run(["new", "trans-amerika", "--players", "Ann,Bob"], expect=0)
    run(["round", "start"], expect=0)
    run(["start", "Ann", "Chicago"], expect=0)
    out = ESC.sub("", run(["board"], expect=0).output)
    assert "The part of the map" not in out and "Sea" in out and "Bos" in out
