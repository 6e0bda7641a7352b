"""The board on a real terminal (a pseudo-terminal read by a terminal emulator).

The board once printed its colour codes as text (`\\x1b[2mA\\x1b[0m`) on every real terminal,
with or without NO_COLOR, while every piped test passed: the filter that makes names safe
turned the board's own codes into visible text. Here each drawing runs in a pty at 80 and 60
columns, in colour and with NO_COLOR, and the screen a person sees is checked.
"""

from __future__ import annotations

import pytest

from pty_support import SGR, Shell, run_command

SETUP = (
    'new trans-amerika --players Ann,Bob,Cy,Dee --entropy "x"\n'
    "round start --physical\n"
    'hand Ann --set "San Diego,Dallas,St. Louis,Cincinnati,Washington"\n'
    "start Ann San Diego\nstart Bob Los Angeles\nstart Cy Portland\nstart Dee Omaha\n"
    "build Ann San Diego-D11-E11\n"
)
DRAWINGS = [
    ["board", "europa"],
    ["board", "trans-amerika"],
    ["board"],
    ["rails", "amerika", "--hand", "Dallas,Omaha,Boston,Seattle,New York", "--draw"],
    ["rails", "Ann", "--draw", "--print"],
]
NAMES = ("San Diego", "St. Louis", "Los Angeles", "New York", "Salt Lake City", "Kansas City")


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    """The table of SETUP, played once for the module."""
    from shared_install import typed

    return typed(tmp_path_factory.mktemp("table") / "home", script=SETUP)


@pytest.fixture
def table(prepared, home):
    """The test's own copy of the prepared table (a drawing may keep a cache, the shell its history)."""
    import shutil

    shutil.copytree(prepared, home)
    return home


@pytest.mark.parametrize("columns", [80, 60])
@pytest.mark.parametrize("args", DRAWINGS, ids=" ".join)
def test_a_drawing_in_colour_shows_colours_and_no_code_as_text(table, args, columns):
    shown = run_command(args, table, columns=columns, colour=True)
    assert shown.problems(NAMES) == [], shown.text()
    assert shown.coloured_cells() > 20, shown.text()  # the lines and cities are in colour


@pytest.mark.parametrize("columns", [80, 60])
@pytest.mark.parametrize("args", DRAWINGS, ids=" ".join)
def test_with_no_color_a_drawing_is_plain_text(table, args, columns):
    shown = run_command(args, table, columns=columns, colour=False)
    assert shown.problems(NAMES) == [], shown.text()
    assert not SGR.search(shown.raw), shown.raw[:200]
    assert shown.coloured_cells() == 0


def test_the_map_itself_is_drawn_at_80_columns(table):
    shown = run_command(["board", "amerika"], table, columns=80, colour=True)
    assert "Sea══•" in shown.text() and "SDi" in shown.text()
    assert "widen the window" not in shown.text()


def board_typed(shell) -> None:
    """`board amerika` typed, and the screen once the whole board is on it with the prompt
    below it (the prompt's own redraw as Enter is pressed comes first: on a busy machine the
    board came later than the fixed wait after it)."""
    import time

    shell.type("board amerika")
    end = time.monotonic() + 30
    while time.monotonic() < end:
        lines = shell.text().splitlines()
        board = [n for n, line in enumerate(lines) if "Sea══•" in line]
        if board and any(line.startswith("companion>") for line in lines[board[0]:]):
            return
        shell.wait_for("companion>", timeout=1)
    raise AssertionError(f"the board never appeared:\n{shell.text()}")


def test_in_the_shell_the_board_is_in_colour_with_no_code_as_text(table):
    with Shell(table, columns=80, rows=60) as shell:
        board_typed(shell)
        assert "Sea══•" in shell.text()
        assert "\\x1b" not in shell.text()
        assert shell.coloured_rows("═══") > 5  # the lines and cities reached the terminal in colour


def test_in_the_shell_with_no_color_the_board_is_plain(table):
    with Shell(table, columns=80, rows=60, colour=False) as shell:
        board_typed(shell)
        assert "Sea══•" in shell.text()
        assert "\\x1b" not in shell.text()
        assert shell.coloured_rows("═══") == 0
