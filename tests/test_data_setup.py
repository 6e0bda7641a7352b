"""The first evening with a new box (issue 24): `data setup GAME` walks through every printed
value still unknown, and in the shell a value a command needs is asked for at that moment and
the command goes on; on the command line it is refused with the `data set` and `data setup`
lines. A printed value is never invented: a suggestion becomes one only when confirmed."""

from __future__ import annotations

import json

from companion.core import datapack

try:
    from shell_support import Screen, drive, last_json
except ImportError:  # run from the repository root
    from tests.shell_support import Screen, drive, last_json


def shown(home, text: str, columns: int = 100) -> str:
    """What the shell wrote to a terminal of ``columns`` (the questions included)."""
    screen = Screen()
    drive(home, text, output=screen.output(columns=columns))
    return screen.getvalue()


def value(run, game: str, key: str):
    out = run(["data", "show", game, key], expect=0).stdout
    return None if out.startswith("unknown") else json.loads(out.split("\nsource:")[0])


# -- data setup -----------------------------------------------------------------------------------

def test_setup_walks_every_value_with_progress_hint_and_where(home, capsys, run):
    drive(home, "data setup trans-amerika\n" + "\n" * 3 + "\x03")
    out = " ".join(capsys.readouterr().out.split())
    assert "28 printed values of trans-amerika are not known yet." in out  # double_kinds asked whole
    # 11 questions: the 18 special cards' counts are one (issue 31)
    assert "1 of 11 · trans-amerika colour_aliases.brown" in out
    assert "Where: the special cards that name a colour" in out
    assert "2 of 11 · trans-amerika colour_aliases.white" in out
    assert "Skipped: it is asked again when it is needed." in out
    assert "Set-up stopped after 0 values kept" in out
    assert value(run, "trans-amerika", "colour_aliases.brown") is None


def test_a_suggestion_is_the_default_and_says_where_it_comes_from(home, capsys, run):
    skip_before = "skip\n" * 10  # the colours, charts and card copies (one question) come first
    drive(home, "data setup trans-amerika\n" + skip_before + "\n\x03")
    out = " ".join(capsys.readouterr().out.split())
    assert "11 of 11 · trans-amerika double_kinds" in out
    assert "Suggested: water: 63 lines, mountain: 46 lines. From: Which double lines of the classic " \
           "TransAmerica board" in out
    assert "Kept: double_kinds = water: 63 lines, mountain: 46 lines" in out
    kept = value(run, "trans-amerika", "double_kinds")
    assert kept == datapack.pack("trans-amerika")["suggestions"]["double_kinds"]["value"]


def test_an_answer_is_checked_as_data_set_checks_it_and_asked_again(home, capsys, run):
    drive(home, "data setup atlantic-star\n14 12 10 8 6 5\n14,12,10,8,6,4\nskip\n\x03")
    out = " ".join(capsys.readouterr().out.split())
    assert "1 of 5 · atlantic-star vp.1" in out
    assert "The rulebook states the 6th (lowest) place of the 1-star class: 4." in out
    assert "is 4, not 5" in out  # the rulebook's stated value, quoted, and the question again
    assert value(run, "atlantic-star", "vp.1") == [14, 12, 10, 8, 6, 4]
    assert value(run, "atlantic-star", "vp.2") is None  # `skip` left the suggestion unconfirmed


def test_a_partial_suggestion_is_a_hint_never_a_default(home, capsys, run):
    drive(home, "data setup atlantic-star\nskip\nskip\nskip\nskip\n\n\x03")
    out = " ".join(capsys.readouterr().out.split())
    assert "Suggested in part: ?, ?, ?, ?, ?, 0" in out
    assert value(run, "atlantic-star", "vp.5") is None  # Enter skipped: nothing filled in


def test_transatlantic_setup_takes_the_surcharges_then_the_ship_cards(home, capsys, run):
    drive(home, "data setup transatlantic\n0 10 20 30 40 50\nNubian\nsail\n1860\nwhite\n\n"
                "sirius\nsteam\n1838\nred\n90\nnubian\n\nexit\n")
    out = " ".join(capsys.readouterr().out.split())
    assert "1 of 1 · transatlantic market.surcharges" in out
    assert "Where: the game board: the surcharge printed under each of the 6 market positions" in out
    assert "Added NUBIAN: sail, white, 1860, no price." in out and "Added SIRIUS: steam, red, 1838, £90." in out
    assert "NUBIAN is in your catalogue already" in out
    assert "2 ship cards added; 2 in your catalogue" in out
    assert "Every printed value is known now." in out
    assert value(run, "transatlantic", "market.surcharges") == [0, 10, 20, 30, 40, 50]


def test_setup_outside_the_shell_says_to_use_the_shell(run):
    result = run(["data", "setup", "atlantic-star"], expect=1)
    assert "`data setup` asks its questions in the shell" in result.stderr
    assert "`data check atlantic-star` lists them" in result.stderr
    assert run(["data", "setup", "scoresheet"], expect=1).stderr.startswith("Error: There is no printed data")


def test_new_offers_the_setup_when_values_are_missing(home, capsys):
    text = shown(home, "new atlantic-star --players Ann,Bob\n\ny\n\x03")  # Enter: Ann was last on a ship
    flat = " ".join(text.split())
    assert "5 printed values are not known yet: set them up now? [y/N]" in flat
    assert "1 of 5 · atlantic-star vp.1" in " ".join(capsys.readouterr().out.split())


def test_new_says_which_values_the_phones_will_ask_and_when(home, capsys):
    """Issue 31: a "no" to the set-up stops nobody later, and `new` says so before asking."""
    drive(home, "new atlantic-star --players Ann,Bob\n\n\n")
    flat = " ".join(capsys.readouterr().out.split())
    assert ("5 printed values of atlantic-star are not known yet: the phone whose move first needs one asks for it "
            "then (the shell asks at the laptop).") in flat
    assert "vp (5): needed for victory points of the 1-star class" in flat


def test_declining_the_offer_asks_nothing_more(home, capsys, status):
    drive(home, "new atlantic-star --players Ann,Bob\n\n\nstatus --json\n")  # Enter: Ann starts; Enter: no
    out = capsys.readouterr().out
    assert "1 of 5" not in out and last_json(out)["players"][0]["name"] == "Ann"


# -- asked when needed, refused on the command line -----------------------------------------------

def test_a_purchase_asks_for_the_surcharges_and_goes_on(home, capsys, run, status):
    run(["new", "transatlantic", "--players", "Ann,Bob"], expect=0)
    run(["ship", "add", "NUBIAN", "--year", "1860", "--flag", "white", "--kind", "sail", "--price", "100"], expect=0)
    run(["reveal", "NUBIAN"], expect=0)
    drive(home, "buy Ann NUBIAN\n0 10 20 30 40 50\nstatus --json\n")
    out, err = capsys.readouterr()
    assert "Error" not in err
    flat = " ".join(out.split())
    assert "transatlantic market.surcharges" in flat and "(this command needs it)" in flat
    assert "NUBIAN" in last_json(out)["players"][0]["ships"]


def test_a_purchase_given_in_full_on_the_command_line_still_refuses(run):
    run(["new", "transatlantic", "--players", "Ann,Bob"], expect=0)
    run(["ship", "add", "NUBIAN", "--year", "1860", "--flag", "white", "--kind", "sail", "--price", "100"], expect=0)
    run(["reveal", "NUBIAN"], expect=0)
    err = " ".join(run(["buy", "Ann", "NUBIAN"], expect=1).stderr.split())
    assert "companion data set transatlantic market.surcharges '[S1, S2, S3, S4, S5, S6]'" in err
    assert "`companion data setup transatlantic`" in err


def test_rails_under_water_single_asks_to_confirm_the_suggestion(home, capsys, run):
    run(["new", "trans-amerika", "--players", "Ann,Bob", "--entropy", "x"], expect=0)
    run(["round", "start", "--special", "water-single"], expect=0)
    err = " ".join(run(["rails", "Ann", "--print"], expect=1).stderr.split())
    assert "confirm the public suggestion with `companion data accept trans-amerika double_kinds`" in err
    drive(home, "rails Ann --print\n\nexit\n")
    out, err = capsys.readouterr()
    assert "Error" not in err
    flat = " ".join(out.split())
    assert "Suggested: water: 63 lines, mountain: 46 lines." in flat
    assert "Ann's cities:" in flat  # the command went on once the value was confirmed


def test_two_player_europa_names_physical_and_setup(run):
    run(["new", "trans-europa", "--players", "Ann,Bob", "--entropy", "x"], expect=0)
    err = " ".join(run(["round", "start"], expect=1).stderr.split())
    assert "`round start --physical`" in err and "`companion data setup trans-europa`" in err


def test_two_player_europa_asks_for_the_dashed_cards_and_deals(home, capsys, status):
    cities = datapack.pack("trans-europa")["values"]["cities"]
    by_colour: dict = {}
    for c in cities:
        by_colour.setdefault(c["colour"], []).append(c["name"])
    dashed = [name for names in by_colour.values() for name in sorted(names)[:2]]  # any two of each colour
    drive(home, "new trans-europa --players Ann,Bob --start Ann --entropy x\n\nround start\n"
                + ", ".join(dashed) + "\nstatus --json\n")
    out, err = capsys.readouterr()
    assert "Error" not in err, err
    assert last_json(out)["round"] == 1


def test_skipping_the_question_keeps_the_refusal(home, capsys):
    drive(home, "new trans-europa --players Ann,Bob --start Ann --entropy x\n\nround start\n\nexit\n")
    err = " ".join(capsys.readouterr().err.split())
    assert "round start --physical" in err and "data setup trans-europa" in err


def test_a_chart_nobody_knows_is_asked_part_by_part_at_the_round_end(home, capsys, status):
    """The generous card's chart is printed on the card: asked when the round end needs it
    (TEST values below, never the card's), then the round is scored with it."""
    drive(home, "new trans-amerika --players Ann,Bob --start Ann --entropy x --variant special-cards\n\n"
                "round start --special generous\nround end --winner Ann --missing Bob=2\n6\n4,3,2,2,1\nexit\n")
    out = " ".join(capsys.readouterr().out.split())
    assert "1 of 2 · trans-amerika charts.generous.winner" in out
    assert "2 of 2 · trans-amerika charts.generous.missing" in out
    assert "Where: the 'generous' special card: the scoring chart printed on it." in out
    assert status()["history"][-1]["points"] == {"Ann": 6, "Bob": 3}


# -- in a real terminal ---------------------------------------------------------------------------

import pytest  # noqa: E402


@pytest.mark.parametrize("columns", [80, 60])
def test_setup_in_a_real_terminal_fits_the_screen(home, columns):
    """The questions as a terminal shows them: every line within the width, words whole."""
    try:
        from pty_support import Shell
    except ImportError:
        from tests.pty_support import Shell

    with Shell(home, columns=columns, rows=40) as shell:
        shell.type("data setup atlantic-star", until="Enter confirms the suggestion")
        screen = shell.type("", until="2 of 5")
        assert "Kept: vp.1 = 14, 12, 10, 8, 6, 4" in " ".join(screen.split())
        shell.type("skip", until="3 of 5")
        shell.type("\x03", until="companion>")
        for row in shell.text().splitlines():
            assert len(row) <= columns
        raw = shell.output_since(0)
        assert "\\x1b" not in raw  # no escape shown as text
    from companion.core.store import Store

    assert Store(home).user_values("atlantic-star") == {"vp.1": [14, 12, 10, 8, 6, 4]}


def test_the_special_cards_counts_are_one_question_enter_one_of_each(home, capsys, run):
    """`data setup` asks how many of each special card in one question (issue 31): Enter keeps
    one of each; NAME=N the ones that differ, each checked as `data set` checks it."""
    answers = "skip\n" * 9 + "\n" + "\x03"  # the colours and the charts skipped, then the counts: Enter
    drive(home, "data setup trans-amerika\n" + answers)
    out = " ".join(capsys.readouterr().out.split())
    assert "10 of 11 · trans-amerika special_cards.*.copies" in out
    assert "How many of each: one question for all 18 kinds." in out
    assert "The kinds: generous, demanding, three-rails," in out
    assert "Kept: one of each" in out
    for card in ("generous", "pass-three", "build-anywhere"):
        assert value(run, "trans-amerika", f"special_cards.{card}.copies") == 1


def test_the_counts_that_differ_are_typed_and_checked(home, capsys, run):
    answers = "skip\n" * 9 + "pass-three=two\nbogus=2\npass-three=2, build-anywhere=0\n" + "\x03"
    drive(home, "data setup trans-amerika\n" + answers)
    out = " ".join(capsys.readouterr().out.split())
    assert "'two' is not a whole number" in out  # asked again, nothing kept
    assert "'bogus=2' is not NAME=N with a NAME of those listed" in out
    assert "Kept: one of each, but pass-three=2, build-anywhere=0" in out
    assert value(run, "trans-amerika", "special_cards.pass-three.copies") == 2
    assert value(run, "trans-amerika", "special_cards.build-anywhere.copies") == 0
    assert value(run, "trans-amerika", "special_cards.swap-hands.copies") == 1


def test_a_charts_question_says_what_each_place_means(home, capsys, run):
    answers = "skip\n" * 5 + "\x03"  # the five colours, then the 'generous' chart's winner
    drive(home, "data setup trans-amerika\n" + answers)
    out = " ".join(capsys.readouterr().out.split())
    assert "6 of 11 · trans-amerika charts.generous.winner" in out
    assert "What it means: W: the points each round winner gets" in out
