"""Trans, as the rulebook words it (issue 24): "The oldest player becomes the starting player"
(the shell's `new` asks who is oldest when --start is not given), and two winners in one round
recorded without the board get a confirmation naming the rulebook's only case."""

from __future__ import annotations

try:
    from shell_support import asked, drive, last_json
except ImportError:  # run from the repository root
    from tests.shell_support import asked, drive, last_json


def test_new_asks_who_is_oldest_and_seats_from_them(home, capsys):
    shown = asked(home, "new trans-amerika --players Ann,Bob,Cy --entropy x\ncy\nstatus --json\n", columns=120)
    assert ('Who is the oldest player? (rulebook: "The oldest player becomes the starting player") '
            "(Ann, Bob, Cy; Enter: Ann)") in shown
    out = capsys.readouterr().out
    assert "(Cy starts)" in out
    assert last_json(out)["start_player"] == "Cy"


def test_enter_keeps_the_first_named_and_a_typo_is_asked_again(home, capsys):
    drive(home, "new trans-europa --players Ann,Bob --entropy x\nZed\n\nstatus --json\n")
    out = capsys.readouterr().out
    assert "Zed" in out and "(Ann starts)" in out
    assert last_json(out)["start_player"] == "Ann"


def test_start_given_or_a_command_line_never_asks(home, run, capsys):
    drive(home, "new trans-amerika --players Ann,Bob --start Bob --entropy x\nstatus --json\n")
    assert last_json(capsys.readouterr().out)["start_player"] == "Bob"
    out = run(["new", "trans-amerika", "--players", "Ann,Bob", "--entropy", "x"], expect=0).stdout
    assert "(Ann starts)" in out


def round_open(run):
    run(["new", "trans-amerika", "--players", "Ann,Bob,Cy", "--entropy", "x"], expect=0)
    run(["round", "start"], expect=0)


def test_two_winners_without_a_board_are_confirmed(home, run, capsys, status):
    round_open(run)
    shown = asked(home, "round end --winner Ann --winner Bob --missing Cy=4\nn\nstatus --json\n", columns=200)
    out = " ".join(capsys.readouterr().out.split())
    assert ("Ann and Bob both win this round? That is the rulebook's only case of two winners: the first rail "
            "of a player's turn completes another player's cities") in out
    assert "Is that what happened? [y/N]" in shown
    assert status()["round_open"] is True  # `n`: nothing recorded
    drive(home, "round end --winner Ann --winner Bob --missing Cy=4\ny\n")
    assert status()["history"][-1]["winners"] == ["Ann", "Bob"]


def test_two_winners_on_the_command_line_are_taken_as_typed(run, status):
    round_open(run)
    run(["round", "end", "--winner", "Ann", "--winner", "Bob", "--missing", "Cy=4"], expect=0)
    assert status()["history"][-1]["winners"] == ["Ann", "Bob"]
