"""`sessions` to pick from (issue 23): at 80 columns each line shows the id, the day played,
the game's title, the players and the result, long cells cut first; at 60 columns the players
go before any cell is cut; filters; a game logged later is listed on the day it was played."""

from __future__ import annotations

import json

from pty_support import run_command


def evening(run):
    run(["played", "Carcassonne", "--players", "Bartholomew Jones=52,Ann=47", "--played-on", "2026-03-05"], expect=0)
    run(["played", "Twilight Imperium: Fourth Edition", "--players", "Ann=10,Bob=8,Cy=7,Dee=9,Eve=3,Fay=1",
         "--played-on", "2026-03-01"], expect=0)
    run(["played", "Pandemic", "--coop", "--players", "Ann,Bob", "--lost", "--played-on", "2026-03-03"], expect=0)
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    run(["add", "Ann=1"], expect=0)


def ids(run, *args) -> list[str]:
    return [r["id"] for r in json.loads(run(["sessions", "--json", *args], expect=0).stdout)]


def test_sessions_are_listed_on_the_day_they_were_played(run):
    evening(run)
    rows = json.loads(run(["sessions", "--json"], expect=0).stdout)
    assert [r["title"] for r in rows] == ["Twilight Imperium: Fourth Edition", "Pandemic", "Carcassonne",
                                          "Score sheet"]
    assert [r["date"] for r in rows][:3] == ["2026-03-01", "2026-03-03", "2026-03-05"]


def test_filters(run):
    evening(run)
    everyone = ids(run)
    assert ids(run, "--game", "carcassonne") == [everyone[2]]
    assert ids(run, "--game", "scoresheet") == [everyone[3]]
    assert ids(run, "--player", "bartholomew jones") == [everyone[2]]
    assert ids(run, "--since", "2026-03-02", "--until", "2026-03-04") == [everyone[1]]
    assert ids(run, "--finished") == everyone[:3]
    assert ids(run, "--in-play") == everyone[3:]
    assert "No sessions match." in run(["sessions", "--game", "Pandemic", "--in-play"], expect=0).stdout
    assert "There is no game 'Chess'" in run(["sessions", "--game", "Chess"], expect=1).stderr
    assert "is not a date" in run(["sessions", "--since", "March"], expect=1).stderr


def test_at_80_columns_every_column_is_there_and_only_long_cells_are_cut(run, home):
    evening(run)
    screen = run_command(["sessions"], home, columns=80)
    lines = [line for line in screen.lines if line.strip()]
    assert lines[0].split() == ["id", "played", "game", "players", "result"]
    assert all(len(line) <= 80 for line in lines)
    body = lines[2:]
    assert len(body) == 4
    for sid, line in zip(ids(run), body):
        assert sid in line and "2026-" in line, "the id and the whole day, never cut"
    assert "won by Ann" in body[0] and "lost together" in body[1] and "won by Barthol" in body[2] and "in play" in body[3]
    assert "Pandemic" in body[1] and "Ann, Bob" in body[1], "short cells are never cut"
    assert "…" in body[0], "the long game and the six players are cut"


def test_at_60_columns_the_players_go_first_and_the_rest_stays_readable(run, home):
    evening(run)
    screen = run_command(["sessions"], home, columns=60)
    lines = [line for line in screen.lines if line.strip()]
    assert lines[0].split() == ["id", "played", "game", "result"]
    assert all(len(line) <= 60 for line in lines)
    assert "2026-03-03   Pandemic" in lines[3] and "lost together" in lines[3]
    assert "Bob" not in lines[3]
    narrow = run_command(["sessions"], home, columns=36).lines
    assert any(line.startswith(ids(run)[-1] + " *:") for line in narrow), "a plain list, led by the id"
