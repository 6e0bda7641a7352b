"""`help` in the shell (issue 13.7): the current game's commands first, then the session
commands, then the rest; none of the command line's own options. `help CMD` is unchanged."""

from __future__ import annotations

import re

try:
    from shell_support import drive
except ImportError:  # tests/ imported as a package
    from tests.shell_support import drive


def test_help_in_the_shell_puts_the_game_at_hand_first(home, run, capsys):
    run(["new", "transatlantic", "--players", "Ann,Bob"], expect=0)
    capsys.readouterr()
    drive(home, "help\n")
    out = capsys.readouterr().out
    assert "--data-dir" not in out and "Run it with no command" not in out and "--version" not in out
    assert "  shell " not in out  # a command-line-only command
    order = [out.index(h) for h in ("Transatlantic (this session):", "Sessions:", "History and exchange:",
                                    "Other games")]
    assert order == sorted(order)
    assert re.search(r"Atlantic Star: agency, charter, loan, refresh, voyage", out)  # the rest: names only
    assert len(out.splitlines()) < 46  # (45 lines since `sync`, issue 30)


def test_help_without_a_session_starts_with_the_session_commands(home, capsys):
    drive(home, "help\n")
    out = capsys.readouterr().out
    assert "(this session)" not in out
    assert out.index("Sessions:") < out.index("Other games")


def test_help_cmd_is_unchanged(home, capsys, run):
    drive(home, "help status\n")
    shell_out = capsys.readouterr().out
    plain = run(["help", "status"], expect=0).stdout
    assert "Usage: companion status [OPTIONS]" in shell_out and "Usage: companion status [OPTIONS]" in plain
    assert "--json" in shell_out


def test_help_on_the_command_line_is_the_full_help(run):
    out = run(["help"], expect=0).stdout
    assert "--data-dir" in out
