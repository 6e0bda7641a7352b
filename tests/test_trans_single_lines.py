"""Europa's single lines (issue 15, item 7): the ferry and the tunnel the rulebook counts single.

Seed 000, Building Track: "Clarification: on the Trans Europa board, both the ferry crossing
(through the English Channel) and the tunnel (through the Swiss Alps) count as a single line."
The bundled board is the classic one, which draws every line across the Channel and the Alps
double; which lines are the ferry and the tunnel is the players' to say. The lines used here
(E5-E6 on the route London-E5-E6-Paris) are test values, never printed facts.
"""

from __future__ import annotations

import json

from companion.core import datapack
from companion.core.app import App
from companion.games.trans.track import trans_board

CLARIFICATION = ("Clarification: on the Trans Europa board, both the ferry crossing (through the English "
                 "Channel) and the tunnel (through the Swiss Alps) count as a single line.")
HANDS = {"Bob": "London,Paris,Oslo,Riga,Roma", "Cy": "Madrid,Zürich,Malmö,Odessa,Firenze",
         "Dee": "Plymouth,Amsterdam,Moskva,Minsk,Tirana"}
MARKERS = {"Ann": "Wien", "Bob": "London", "Cy": "Dublin", "Dee": "Plymouth"}


def flat(text: str) -> str:
    """Output as one line of words (the screen wraps it at 80 columns)."""
    return " ".join(text.split())


def rails_json(run, *args) -> dict:
    return json.loads(run(["rails", *args, "--json"], expect=0).stdout)


def europa_round(run) -> None:
    """A Europa round with every marker down and three hands on record, nothing built."""
    run(["new", "trans-europa", "--players", "Ann,Bob,Cy,Dee", "--entropy", "x"], expect=0)
    run(["round", "start", "--physical"], expect=0)
    for name, hand in HANDS.items():
        run(["hand", name, "--set", hand], expect=0)
    for name, junction in MARKERS.items():
        run(["start", name, junction], expect=0)


def counts_as(run) -> dict[str, int]:
    """Every hand's count from its marker on the empty board, as `rails MAP` gives it."""
    return {p: rails_json(run, "europa", "--hand", HANDS[p], "--start", MARKERS[p])["rails"] for p in HANDS}


def test_the_pack_names_the_lines_and_cites_the_rulebook(run):
    """Seed 000: "both the ferry crossing (through the English Channel) and the tunnel (through
    the Swiss Alps) count as a single line": one entry each, by its rulebook name, unknown."""
    pack = datapack.pack("trans-europa")
    assert pack["values"]["single_lines"] == {"ferry": None, "tunnel": None, "others": None}
    assert "disputed_single" not in pack["values"]
    assert datapack.title("trans-europa", "single_lines.ferry") == "the ferry through the English Channel"
    assert datapack.title("trans-europa", "single_lines.tunnel") == "the tunnel through the Swiss Alps"
    for key in ("single_lines.ferry", "single_lines.tunnel"):
        shown = flat(run(["data", "show", "trans-europa", key], expect=0).stdout)
        assert CLARIFICATION in shown and "unknown" in shown
        assert f"supply it with: companion data set trans-europa {key} '\"JUNCTION-JUNCTION\"'" in shown
    check = run(["data", "check", "trans-europa"], expect=0).stdout
    assert "trans-europa single_lines.ferry: unknown" in check and '"none" if your board has no such ferry' in check
    assert "single_lines" not in datapack.pack("trans-amerika")["values"]  # the rulebook names Europa's only


def test_until_supplied_rails_counts_the_board_as_drawn_and_says_so(run):
    """Issue 15: "Until they are supplied, `rails` and the round's scoring still count the board
    as drawn, and a count whose route uses such a line says so in one extra line." """
    out = run(["rails", "europa", "--hand", "London,Paris"], expect=0).stdout
    assert out.startswith("4 rails connect London and Paris")
    assert "London-E5, E5-E6 (double), E6-Paris" in out
    note = out[out.index("Note:"):]
    assert note.replace("\n  ", " ").strip() == (
        "Note: the rulebook counts the ferry through the English Channel and the tunnel through the Swiss "
        "Alps as single lines. Which lines they are is not known, so the double lines on this "
        "route count 2: 3 rails if one is on it. Say which: companion data set trans-europa "
        "single_lines.ferry '\"JUNCTION-JUNCTION\"', then single_lines.tunnel ('\"none\"' if there is none).")
    assert out.count("Note:") == 1
    report = rails_json(run, "europa", "--hand", "London,Paris")
    assert report["rails"] == 4 and report["rails_if_single_lines"] == 3
    assert report["single_lines_unknown"] == ["the ferry through the English Channel",
                                              "the tunnel through the Swiss Alps"]
    assert report["single_lines"] == [] and report["rails_if_disputed_single"] is None  # added, not renamed
    # a route on single lines only could not go through them: no note
    plain = run(["rails", "europa", "--hand", "Paris,Amsterdam"], expect=0).stdout
    assert "(double)" not in plain and "Note:" not in plain
    assert rails_json(run, "europa", "--hand", "Paris,Amsterdam")["single_lines_unknown"] == []


def test_once_named_the_ferry_counts_single(run):
    """Seed 000: the ferry "count[s] as a single line": 1 rail, not 2, once the players say which."""
    run(["data", "set", "trans-europa", "single_lines.ferry", '"E5-E6"'], expect=0)
    run(["data", "set", "trans-europa", "single_lines.tunnel", '"none"'], expect=0)
    out = run(["rails", "europa", "--hand", "London,Paris"], expect=0).stdout
    assert out.startswith("3 rails connect London and Paris")
    assert "Counted single (rulebook): the ferry through the English Channel (E5-E6)." in out
    assert "Note:" not in out
    report = rails_json(run, "europa", "--hand", "London,Paris")
    assert report["single_lines"] == [{"name": "the ferry through the English Channel", "line": "E5-E6"}]
    assert report["single_lines_unknown"] == [] and report["rails_if_single_lines"] is None
    assert "single_lines" not in run(["data", "check", "trans-europa"], expect=0).stdout.replace(
        "single_lines.others", "")
    drawing = flat(run(["board", "europa"], expect=0).stdout)
    assert "Drawn single, as your board counts them: E5-E6 (the ferry through the English Channel)." in drawing


def test_a_line_that_cannot_be_the_ferry_is_refused_and_changes_nothing(run, status):
    """Issue 15: "a refusal changes nothing: `status --json` the same before and after"."""
    europa_round(run)
    before = status()
    for value, says in (('"Lodnon-E5"', "There is no junction called 'Lodnon' on the Europa board. "
                                        "Did you mean London?"),
                        ('"London-E5"', "single_lines.ferry lists London-E5, which the board draws single "
                                        "already: correct it with `companion data set trans-europa "
                                        "single_lines.ferry '\"JUNCTION-JUNCTION\"'`."),
                        ('"London-E5-E6"', "single_lines.ferry gives 2 lines, but the ferry through the English "
                                           "Channel is one line")):
        err = run(["data", "set", "trans-europa", "single_lines.ferry", value], expect=1).stderr
        assert says in err and err.count("\n") == 1
    assert status() == before
    assert "unknown" in run(["data", "show", "trans-europa", "single_lines.ferry"], expect=0).stdout


def test_the_round_s_scoring_counts_as_drawn_and_says_so_in_one_line(run, status):
    """Issue 15: "`rails` and the round's scoring still count the board as drawn, and a count
    whose route uses such a line says so in one extra line." """
    drawn = counts_as(run)
    europa_round(run)
    out = run(["round", "end", "--auto", "--winner", "Ann"], expect=0).stdout
    assert status()["history"][-1]["missing"] == drawn
    notes = out.split("\nTotals:")[0].split("\nMissing rails counted")[1].split("\n")[1:]  # after the count's line
    note = " ".join(line.strip() for line in notes)
    assert note.startswith("Note: the rulebook counts the ferry through the English Channel and the tunnel "
                           "through the Swiss Alps as single lines.")
    assert "so the double lines on Bob's, Cy's and Dee's routes count 2: " in note
    assert f"Bob {drawn['Bob'] - 2}, Cy {drawn['Cy'] - 2} and Dee {drawn['Dee'] - 2} rails if they are on them" in note
    assert "companion data set trans-europa single_lines.ferry '\"JUNCTION-JUNCTION\"'" in note


def test_a_game_waiting_for_the_lines_counts_with_them_once_said_and_keeps_them(run, status):
    """RULES.md: "a finished session keeps the values it was scored with"; `data set`: "New
    sessions use it, and so do sessions still waiting for it"."""
    europa_round(run)
    run(["data", "set", "trans-europa", "single_lines.ferry", '"E5-E6"'], expect=0)
    run(["data", "set", "trans-europa", "single_lines.tunnel", '"none"'], expect=0)
    said = counts_as(run)
    assert rails_json(run, "Bob")["rails"] == said["Bob"]
    out = run(["round", "end", "--auto", "--winner", "Ann"], expect=0).stdout
    assert "Note:" not in out
    scored = status()
    assert scored["history"][-1]["missing"] == said
    run(["data", "unset", "trans-europa", "single_lines.ferry"], expect=0)
    assert status() == scored  # frozen into the round's event: replays the same


def test_the_ferry_is_a_single_line_to_build_too(run, status):
    """Seed 000, Building Track: "up to two rails on free single lines (= flat terrain), or one
    rail on a free double line", and the ferry "count[s] as a single line"."""
    europa_round(run)
    warned = run(["build", "Bob", "London-E5-E6"], expect=0).stdout
    assert "that makes 3 rails' worth in Bob's turn" in warned
    run(["undo"], expect=0)
    run(["data", "set", "trans-europa", "single_lines.ferry", '"E5-E6"'], expect=0)
    out = run(["build", "Bob", "London-E5-E6"], expect=0).stdout
    assert "Warning" not in out and status()["turn"]["used"] == 2


def test_the_shell_asks_once_by_name_and_again_on_a_typo(home, run, status, capsys):
    """Issue 15: "players supply those two lines once, asked for by name when a count could pass
    through them"; the house rules: "A question in the shell is asked again, never dropped"."""
    from companion.terminal.cli import run_line

    drawn = counts_as(run)
    europa_round(run)
    asked: list[str] = []
    answers = iter(["", "London-E5", "E5-E6", "E5-E6", "none"])

    def ask(question, default=""):
        asked.append(question)
        return next(answers)

    said: list[str] = []
    app = App(home, ask=ask, say=said.append, interactive=True)
    capsys.readouterr()
    assert run_line(app, "round end --auto --winner Ann") == (0, None)
    assert asked == ["The ferry through the English Channel (JUNCTION-JUNCTION or none): "] * 3 + [
        "The tunnel through the Swiss Alps (JUNCTION-JUNCTION or none): "] * 2
    assert said[0].startswith("Type the ferry through the English Channel as two junctions joined by '-'")
    assert said[1].startswith("London-E5 is a single line on this board already")
    assert said[2].startswith("E5-E6 is the ferry through the English Channel: name another line")
    out = flat(capsys.readouterr().out)
    assert "Kept: the ferry through the English Channel: E5-E6; the tunnel through the Swiss Alps: none" in out
    assert "Note:" not in out
    missing = status()["history"][-1]["missing"]
    assert missing["Bob"] == drawn["Bob"] - 1  # Bob's route crosses at E5-E6
    shown = run(["data", "show", "trans-europa", "single_lines"], expect=0).stdout
    assert '"ferry": "E5-E6"' in shown and '"tunnel": "none"' in shown
    # once said, never asked again
    assert run_line(app, "rails europa --hand London,Paris") == (0, None)
    assert len(asked) == 5


def test_stopping_the_question_keeps_nothing(home, run, status):
    """The house rules: "Errors are for people: bad input ... changes nothing"; Ctrl-C at a
    question stops the command without recording anything."""
    from companion.terminal.cli import run_line

    europa_round(run)
    before = status()

    def ask(question, default=""):
        raise KeyboardInterrupt

    app = App(home, ask=ask, interactive=True)
    assert run_line(app, "round end --auto --winner Ann") == (1, "Stopped; nothing was recorded.")
    assert status() == before
    assert "unknown" in run(["data", "show", "trans-europa", "single_lines.ferry"], expect=0).stdout


def test_a_command_given_in_full_never_asks(run, script, status):
    """Issue 15: "A question is asked only in the shell; a command given in full never asks." """
    out = run(["rails", "europa", "--hand", "London,Paris"], input="E5-E6\nnone\n", expect=0).stdout
    assert "Which lines are they" not in out and "Note:" in out
    code, out, err = script('new trans-europa --players Ann,Bob,Cy,Dee --entropy "x"\nround start --physical\n'
                            + "".join(f'hand {p} --set "{h}"\n' for p, h in HANDS.items())
                            + "".join(f"start {p} {j}\n" for p, j in MARKERS.items())
                            + "round end --auto --winner Ann\nE5-E6\nnone\n")
    assert code != 0 and "Which lines are they" not in out  # the answers were read as commands
    assert "No such command 'E5-E6'" in err
    assert status()["history"][-1]["missing"]["Bob"] == counts_as(run)["Bob"]
    assert "unknown" in run(["data", "show", "trans-europa", "single_lines.ferry"], expect=0).stdout


def test_the_old_disputed_single_still_reads(home, run, status):
    """Issue 15: "Replace today's narrower `disputed_single` with it, and keep reading old packs";
    the house rules: "Old session files (journals) must still replay unchanged"."""
    # a data folder that still holds the old key
    App(home).store.set_user_value("trans-europa", "disputed_single", ["Brest-B7"])
    assert rails_json(run, "europa", "--hand", "Brest,Madrid")["rails"] == 6
    assert "supplied by you on" in run(["data", "show", "trans-europa", "single_lines.others"], expect=0).stdout
    # typed under the old name, it is kept under the new one
    out = run(["data", "set", "trans-europa", "disputed_single", "[]"], expect=0).stdout
    assert out.startswith("Set trans-europa single_lines.others = [].") and "disputed_single is now called" in out
    assert rails_json(run, "europa", "--hand", "Brest,Madrid")["rails"] == 7
    assert App(home).store.user_values("trans-europa") == {"single_lines.others": []}
    # an old pack (or a session frozen with it): disputed_single without single_lines
    values = datapack.pack("trans-europa")["values"]
    del values["single_lines"]
    values["disputed_single"] = ["Brest-B7"]
    board = trans_board(values, "trans-europa")
    assert not board.disputed and board.cost[board.parse_path("Brest-B7")[0]] == 1
    assert "Oslo-I2" not in [board.edge_name(e) for e in board.counted_single]


def test_an_old_game_recorded_with_disputed_single_replays_unchanged(home, run, status):
    """The house rules: "Old session files (journals) must still replay unchanged"."""
    run(["data", "set", "trans-europa", "single_lines.others", '["Brest-B7"]'], expect=0)
    run(["new", "trans-europa", "--players", "Ann,Bob,Cy,Dee", "--entropy", "x"], expect=0)
    run(["round", "start", "--physical"], expect=0)
    run(["hand", "Bob", "--set", "Brest,Glasgow,Paris,Marseille,Kyiv"], expect=0)
    for name, junction in (("Ann", "Wien"), ("Bob", "B8"), ("Cy", "Dublin"), ("Dee", "Oslo")):
        run(["start", name, junction], expect=0)
    scored = rails_json(run, "Bob")["rails"]
    store = App(home).store
    sid = status()["session"]
    path = store.session_path(sid)
    text = json.loads(path.read_text(encoding="utf-8"))
    data = text["meta"]["1"]["data"]
    del data["single_lines"]  # as a session recorded before single_lines froze it
    data["disputed_single"] = ["Brest-B7"]
    path.write_text(json.dumps(text), encoding="utf-8")
    before = status()
    assert rails_json(run, "Bob")["rails"] == scored
    out = run(["rails", "Bob"], expect=0).stdout
    assert "Note:" not in out  # an old game knows nothing of the ferry and the tunnel: unchanged
    assert status() == before
