"""Questions never lose a command (issue 13.2): a typo is answered and asked again, Ctrl-C
cancels the whole command with nothing recorded, and an answer never runs as a command."""

from __future__ import annotations

try:
    from shell_support import drive, last_json
except ImportError:  # tests/ imported as a package
    from tests.shell_support import drive, last_json

TRANS = "new trans-amerika --players Ann,Bob,Cy --entropy x\nround start\n"


def test_missing_rails_are_asked_again_until_they_fit(home, capsys):
    drive(home, TRANS + "round end --winner Ann\nx\n\n0\n99\n3\n4\nstatus --json\n")
    out, err = capsys.readouterr()
    assert "No such command" not in err and "Error" not in err
    assert "'x' is not Bob's missing rails: a whole number from 1 to 49" in out  # the board's largest count
    assert "Type Bob's missing rails: a whole number from 1 to 49" in out
    assert "'0' is not Bob's missing rails" in out and "'99' is not Bob's missing rails" in out
    assert "Round 1 scored: Ann +4 (connected), Bob +1 (3 missing), Cy +1 (4 missing)." in out
    assert last_json(out)["round_open"] is False


def test_ctrl_c_at_a_question_cancels_the_round_end(home, capsys):
    drive(home, TRANS + "round end --winner Ann\n3\n\x03status --json\n")
    out, err = capsys.readouterr()
    assert "Stopped; nothing was recorded." in err
    assert "scored" not in out
    assert last_json(out)["round_open"] is True  # Bob's 3 was never recorded, and `status` ran


def test_the_question_says_what_it_accepts(home):
    from companion.core.app import App

    asked = []

    def ask(question, default=""):
        asked.append(question)
        return "2"

    app = App(home, ask=ask, say=lambda line: None)
    from companion.terminal.cli import run_line

    # --start: the question of who is the oldest (issue 24) is not the one looked at here
    assert run_line(app, "new trans-amerika --players Ann,Bob --start Ann --entropy x") == (0, None)
    assert run_line(app, "round start") == (0, None)
    assert run_line(app, "round end --winner Ann") == (0, None)
    assert asked == ["Missing rails for Bob (1-49): "]  # at most what the TransAmerica board allows


def test_new_asks_for_the_players_until_they_fit(home, capsys):
    drive(home, "new transatlantic\nAnn\nAnn,ann\nAnn,Bob\nstatus --json\n")
    out, err = capsys.readouterr()
    assert "Error" not in err
    assert "Transatlantic takes 2 to 4 players, not 1." in out  # one name is too few: said, and asked again
    assert "is given twice" in out
    assert [p["name"] for p in last_json(out)["players"]] == ["Ann", "Bob"]


def test_new_without_players_outside_the_shell_says_what_to_add(run):
    result = run(["new", "scoresheet"], expect=2)
    assert "Missing option '--players'" in result.stderr and "--players Ann,Bob" in result.stderr


SHIPS = ("ship add NUBIAN --year 1875 --flag white --price 30\n"  # TEST values
         "ship add HAMMONIA --year 1882 --flag blue --price 70\n"
         "data set transatlantic market.surcharges '[0, 10, 20, 30, 40, 50]'\n"
         "new transatlantic --players Ann,Bob\nreveal NUBIAN HAMMONIA\nstack-empty\nbuy Bob NUBIAN HAMMONIA\n")


def test_final_names_the_players_flags_and_asks_every_value_again(home, capsys, script):
    code, _, err = script(SHIPS)
    assert code == 0, err
    capsys.readouterr()
    # cash: a typo; rows: 9 is more than a sheet has; next row; flags: one missing, then both
    drive(home, "final Bob\nlots\n250\n9\n2\n3\nwhite=7\nwhite=7,purple=2\nwhite=7,blue=3\nstatus --json\n")
    out, err = capsys.readouterr()
    assert "No such command" not in err and "Error" not in err
    assert "'lots' does not fit: type a whole number, 0 or more." in out
    assert "'9' does not fit: type a whole number, 0-4." in out
    assert "Bob owns ships of the blue flag: type blue=VP too." in out
    assert "There is no 'purple' flag" in out
    bob = last_json(out)["players"][1]
    assert bob["final"]["inputs"]["sheet"] == {"white": 7, "blue": 3} and bob["final"]["inputs"]["cash"] == 250


def test_final_ctrl_c_records_nothing(home, capsys, script, status):
    script(SHIPS)
    capsys.readouterr()
    drive(home, "final Bob\n250\n\x03status --json\n")
    assert "Stopped; nothing was recorded." in capsys.readouterr().err
    assert status()["players"][1]["final"] is None


def test_a_long_question_wraps_at_spaces(home, monkeypatch):
    """A question longer than the screen breaks between words, never inside one; the answer
    is typed after its last line."""
    try:
        from shell_support import Screen
    except ImportError:
        from tests.shell_support import Screen
    monkeypatch.setenv("COLUMNS", "40")
    screen = Screen()
    drive(home, "new trans-amerika --players Ann,Bob\n\nzebra crossing\n", output=screen.output(columns=40))
    shown = screen.getvalue()
    assert "Words from the players to mix into the" in shown
    assert "shuffle (Enter to skip):" in shown
