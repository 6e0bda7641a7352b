"""Every screen fits the terminal (issue 13.6): at 40, 60, 80 and 120 columns no line is longer
than the width. Outside a terminal the width is $COLUMNS, else 80."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from companion.terminal.cli import cli

try:
    from test_trans_rails_script import setup as trans_board_setup
except ImportError:  # tests/ imported as a package
    from tests.test_trans_rails_script import setup as trans_board_setup

WIDTHS = (40, 60, 80, 120)
LONG = "Maximiliane,Bartholomew,Cunegonde,Desideria,Evangeline,Florentine"  # 6 long names


def say(home, args, width: int, input: str | None = None) -> str:
    result = CliRunner().invoke(cli, list(args), input=input, env={"COLUMNS": str(width),
                                                                      "COMPANION_HOME": str(home)})
    assert result.exit_code == 0, (args, result.output, result.stderr)
    assert "Traceback" not in result.output
    return result.stdout


def too_long(text: str, width: int) -> list[str]:
    return [line for line in text.splitlines() if len(line) > width]


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """One data folder with a session of every game, each with enough in it to fill a screen."""
    home = tmp_path_factory.mktemp("screens") / "home"
    lines = [f"new scoresheet --players {LONG}"]
    lines += [" ".join(f"{n}={(r * 7 + i * 13) % 120}" for i, n in enumerate(LONG.split(","))) for r in range(20)]
    lines = [lines[0]] + ["add " + line for line in lines[1:]]
    CliRunner().invoke(cli, [], input="\n".join(lines) + "\n", env={"COMPANION_HOME": str(home)})
    sessions = {"scoresheet": current(home)}
    out = CliRunner().invoke(cli, [], input=trans_board_setup(), env={"COMPANION_HOME": str(home)})
    assert out.exit_code == 0, out.stderr
    sessions["trans"] = current(home)
    for args in (["ship", "add", "CITY OF NEW YORK", "--year", "1888", "--flag", "black", "--price", "100",
                  "--tonnage", "11000", "--passengers", "1700"],  # TEST values
                 ["new", "transatlantic", "--players", "Maximiliane,Bartholomew,Cunegonde,Desideria"],
                 ["reveal", "CITY OF NEW YORK"]):
        assert CliRunner().invoke(cli, args, env={"COMPANION_HOME": str(home)}).exit_code == 0
    sessions["transatlantic"] = current(home)
    CliRunner().invoke(cli, ["new", "atlantic-star", "--players", LONG], env={"COMPANION_HOME": str(home)})
    sessions["atlantic-star"] = current(home)
    return home, sessions


def current(home) -> str:
    from companion.core.store import Store

    return Store(home).current()


SCREENS = {
    "scoresheet": [["status"], ["log"]],
    "trans": [["status"], ["log"], ["board"], ["rails", "Ann", "--print"], ["rails", "Ann", "--draw", "--print"],
              ["hand", "Ann", "--print"]],
    "transatlantic": [["status"], ["board"]],
    "atlantic-star": [["status"], ["board"]],
    None: [["sessions"], ["games"], ["ships"], ["data", "show", "trans-amerika"], ["data", "show", "transatlantic"],
           ["data", "show", "atlantic-star"], ["help"], ["board", "amerika"], ["board", "europa"]],
}


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("game,args", [(g, a) for g, screens in SCREENS.items() for a in screens],
                         ids=lambda v: v if isinstance(v, str) else " ".join(v) if v else "any")
def test_every_screen_fits_the_width(tables, game, args, width):
    home, sessions = tables
    extra = ["--session", sessions[game]] if game else []
    out = say(home, [*args, *extra] if args[0] not in ("help",) else args, width)
    assert out.strip()
    assert too_long(out, width) == []


def test_a_twenty_round_sheet_at_80_columns_shows_the_last_rounds_and_the_totals(tables):
    home, sessions = tables
    out = say(home, ["status", "--session", sessions["scoresheet"]], 80)
    header = next(line for line in out.splitlines() if line.startswith("player"))
    assert "R20" in header and "total" in header and "R1 " not in header
    assert "…" in header  # the earlier rounds are left out, and it says so


def test_long_cells_are_cut_and_never_wrap(tables):
    home, _ = tables
    out = say(home, ["data", "show", "trans-amerika"], 80)
    assert "…" in out and too_long(out, 80) == []


def test_outside_a_terminal_the_width_is_80_without_columns(tables, monkeypatch):
    from companion.terminal.render import screen_width

    monkeypatch.delenv("COLUMNS", raising=False)
    assert screen_width() == 80
    monkeypatch.setenv("COLUMNS", "57")
    assert screen_width() == 57


@pytest.mark.parametrize("width", WIDTHS)
def test_help_in_the_shell_fits(home, capsys, monkeypatch, width):
    try:
        from shell_support import drive
    except ImportError:
        from tests.shell_support import drive
    monkeypatch.setenv("COLUMNS", str(width))
    drive(home, "help\n")
    assert too_long(capsys.readouterr().out, width) == []


def test_junction_and_city_names_never_break():
    from companion.terminal.render import whole, wrap

    rails = ", ".join(["C11-Madrid", "Madrid-C12", whole("St. Petersburg") + "-R1"] * 6)
    for width in WIDTHS:
        text = wrap("  " + rails, width)
        assert too_long(text, width) == []
        pieces = [p.strip() for line in text.splitlines() for p in line.split(",") if p.strip()]
        assert set(pieces) == {"C11-Madrid", "Madrid-C12", "St. Petersburg-R1"}  # each rail whole


def test_below_40_columns_a_table_is_a_plain_list():
    from companion.terminal.render import table

    text = table(["player", "R1", "R2", "total"], [["Ann", 3, 4, 7], ["Bob", 1, 2, 3]], width=30)
    assert text.splitlines() == ["Ann: R1 3, R2 4, total 7", "Bob: R1 1, R2 2, total 3"]


def test_a_command_to_type_moves_to_the_next_line_whole():
    """A refusal names the command to type between backquotes: people copy it, so it is not
    broken across lines when it fits on one; one too long for a line still fits the screen."""
    from companion.terminal.render import wrap

    command = "`companion data set trans-europa colour_aliases.turquoise '\"COLOUR\"'`"
    text = wrap("Error: the colour is not known yet: type " + command + " to go on (`undo` takes it back).", 80)
    assert any(line.strip().startswith(command) for line in text.splitlines()), text
    assert too_long(text, 80) == []
    narrow = wrap("type " + command + " to go on", 40)
    assert too_long(narrow, 40) == [] and " ".join(narrow.split()) == "type " + command + " to go on"


def test_a_terminal_that_reports_no_width_goes_by_columns(monkeypatch):
    """Some terminals (a serial console, `script` without a size) report 0 columns: the screen
    is then as wide as COLUMNS says (else 80), not 20."""
    import os
    import sys

    from companion.terminal import render

    class Tty:
        def isatty(self):
            return True

        def fileno(self):
            return 1

    monkeypatch.setattr(sys, "stdout", Tty())
    monkeypatch.setattr(os, "get_terminal_size", lambda fd=None: os.terminal_size((0, 0)))
    monkeypatch.setenv("COLUMNS", "100")
    assert render.screen_width() == 100
    monkeypatch.delenv("COLUMNS")
    assert render.screen_width() == 80
    monkeypatch.setattr(os, "get_terminal_size", lambda fd=None: os.terminal_size((60, 20)))
    assert render.screen_width() == 60
