"""Atlantic Star's start player as the rulebook words it (issue 29, item 5): seed 003, "Get
Ready, let the game start": "I'm the one who was last on a ship, so I get to start the game.
The other players will follow me in a clockwise order." The shell's `new` asks it when --start
is not given, as Trans asks who is oldest."""

from __future__ import annotations

try:
    from shell_support import asked, last_json
except ImportError:  # run from the repository root
    from tests.shell_support import asked, last_json

VALUES = "".join(f"data set atlantic-star vp.{c} '[{20 - c}, 9, 7, 5, 3, { {1: 4, 5: 0}.get(c, 1)}]'\n"
                 for c in range(1, 6))  # test rows; the 6th places of classes 1 and 5 are the seed's 4 and 0


def test_new_asks_who_was_last_on_a_ship_and_seats_from_them(home, capsys):
    shown = asked(home, VALUES + "new atlantic-star --players Ann,Bob,Cy\nbob\nstatus --json\n")
    assert ("Who was last on a ship? (rulebook: \"I'm the one who was last on a ship, so I get to start the "
            "game.\") (Ann, Bob, Cy; Enter: Ann)") in shown
    out = capsys.readouterr().out
    assert "(Bob starts)" in out
    assert last_json(out)["turn"] == "Bob"


def test_start_given_or_a_command_line_never_asks(home, run, capsys):
    import shlex

    assert "Who was last on a ship" not in asked(home, VALUES + "new atlantic-star --players Ann,Bob --start Bob\n"
                                                "status --json\n")
    assert last_json(capsys.readouterr().out)["turn"] == "Bob"
    for line in VALUES.strip().split("\n"):
        run(shlex.split(line), expect=0)
    assert "(Ann starts)" in run(["new", "atlantic-star", "--players", "Ann,Bob"], expect=0).stdout
