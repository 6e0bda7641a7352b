"""Click's own messages print as Click writes them (issue 29): the filter that shows control
characters from data as escapes keeps Click's line breaks and tabs (``Choose from:`` and one
line per choice), while a control character the user typed is still shown as an escape."""

from __future__ import annotations

import io

from prompt_toolkit.output import DummyOutput

from shell_support import drive

CHOICES = "Choose from:\n\tbash,\n\tzsh,\n\tfish"


def test_a_missing_choice_lists_the_choices_on_their_own_lines(run):
    err = run(["completion"], expect=2).stderr
    assert err.startswith("Error: Missing argument 'SHELL'. " + CHOICES)
    assert "\\x0a" not in err and "\\x09" not in err


def test_a_control_character_typed_is_still_shown_as_an_escape(run):
    err = run(["completion", "\x1b[31mbash"], expect=2).stderr
    assert "\x1b" not in err and "\\x1b" in err
    err = run(["--x\ny"], expect=2).stderr  # a line break typed: every one in the message is escaped
    assert err.count("\n") == 1 and ("--x\\ny" in err or "--x\\x0ay" in err)


def test_the_shell_prints_clicks_message_as_click_writes_it(home, capsys):
    drive(home, "completion\n", output=DummyOutput())
    err = capsys.readouterr().err
    assert "Error: Missing argument 'SHELL'. " + CHOICES in err
    assert "\\x0a" not in err


def test_a_script_keeps_clicks_message_on_its_line(script):
    code, _, err = script("completion\n")
    assert code == 1 and err.startswith("line 1: Missing argument 'SHELL'. Choose from: bash, zsh, fish")
    assert err.count("\n") == 1 and "\\x0a" not in err
