"""The printed values the board needs from the players: Europa's disputed double lines, the
water and mountain lines as junction paths, and examples that can never pass for real values."""

from __future__ import annotations

import json

import pytest

from companion.core import datapack
from companion.contract.errors import CompanionError, MissingValue
from companion.contract.api import Setup
from companion.games.trans.rules import TransAmerika, make_round_start

GAMES = ("trans-amerika", "trans-europa")


def rails_json(run, *args) -> dict:
    return json.loads(run(["rails", *args, "--json"], expect=0).stdout)


def test_players_settle_europa_s_disputed_lines(run):
    assert rails_json(run, "europa", "--hand", "Brest,Madrid")["rails_if_disputed_single"] == 6
    assert "single_lines.others" in run(["data", "check", "trans-europa"], expect=0).stdout
    run(["data", "set", "trans-europa", "single_lines.others", '["Brest-B7"]'], expect=0)
    settled = run(["rails", "europa", "--hand", "Brest,Madrid"], expect=0).stdout
    assert settled.startswith("6 rails connect Brest and Madrid") and "public boards differ" not in settled
    drawing = run(["board", "europa"], expect=0).stdout
    assert "=?=" not in drawing and "disputed" not in drawing
    run(["data", "set", "trans-europa", "single_lines.others", "[]"], expect=0)  # both double on this board
    both = run(["rails", "europa", "--hand", "Brest,Madrid"], expect=0).stdout
    assert both.startswith("7 rails") and "public boards differ" not in both


def test_only_lines_drawn_double_can_be_listed_single(run):
    # corrected (issue 15, item 7): single_lines.others, which replaced disputed_single, takes
    # any double line, not only the disputed ones; a line drawn single is refused at `data set`
    message = run(["data", "set", "trans-europa", "single_lines.others", '["Paris-E7"]'], expect=1).stderr
    assert ("single_lines.others lists E7-Paris, which the board draws single already: "
            "correct it with `companion data set trans-europa single_lines.others '[\"JUNCTION-JUNCTION\"]'`") in message
    assert "no printed value 'single_lines'" in run(
        ["data", "set", "trans-amerika", "single_lines", "{}"], expect=1).stderr
    assert "no printed value 'disputed_single'" in run(
        ["data", "set", "trans-amerika", "disputed_single", "[]"], expect=1).stderr


def test_a_europa_session_counts_with_the_settled_lines(script, run):
    hand = "Brest,Glasgow,Paris,Marseille,Kyiv"
    unsettled = rails_json(run, "europa", "--hand", hand, "--start", "B8")
    assert unsettled["rails_if_disputed_single"] == unsettled["rails"] - 1  # the count goes through Brest-B7
    code, out, err = script(
        "data set trans-europa single_lines.others '[\"Brest-B7\"]'\n"
        'new trans-europa --players Ann,Bob,Cy,Dee --entropy "x"\nround start --physical\n'
        f'hand Ann --set "{hand}"\nstart Ann B8\n'
    )
    assert code == 0, err
    assert rails_json(run, "Ann")["rails"] == unsettled["rails"] - 1
    # the session froze the value: the players changing their mind later does not rescore it
    run(["data", "unset", "trans-europa", "single_lines.others"], expect=0)
    assert rails_json(run, "Ann")["rails"] == unsettled["rails"] - 1


def test_double_kinds_may_be_written_as_junction_paths(run):
    # test values, not the printed ones
    run(["data", "set", "trans-amerika", "double_kinds", '{"water": ["Seattle-C1", "Seattle-B2"], "mountain": []}'],
        expect=0)
    run(["data", "set", "trans-amerika", "double_kinds.mountain", '[[[2, 0], [2, 1]], "Portland-B2"]'], expect=0)
    usual = rails_json(run, "amerika", "--hand", "Seattle,Helena")
    assert rails_json(run, "amerika", "--hand", "Seattle,Helena", "--single", "water")["rails"] == usual["rails"] - 1
    assert "does not fit" in run(["data", "set", "trans-amerika", "double_kinds.water", "[3]"], expect=1).stderr


@pytest.mark.parametrize("game", GAMES)
def test_examples_of_unknown_values_are_templates_never_values(game):
    """Someone copying an example from `data check` must get a refusal, never a fake value."""
    examples = datapack.pack(game)["examples"]
    keys = ["charts.generous", "charts.demanding", "charts.generous.winner", "charts.demanding.missing",
            *[k for k in examples if k.startswith("special_cards.") and k.endswith(".copies")]]
    for key in keys:
        with pytest.raises((CompanionError, json.JSONDecodeError)):  # `data set` refuses both
            datapack.validate(game, key, json.loads(examples[key]), {})
    # placeholders for numbers are bare, so a template works once they are typed over (issue 15)
    assert examples["charts.generous"] == '{"winner": W, "missing": [P1, P2, P3, P4, P5]}'
    assert examples["special_cards.swap-hands.copies"] == 'N'


def test_the_chart_the_rules_ask_for_shows_the_template():
    g = TransAmerika()
    data = datapack.pack(g.id)["values"]
    s = g.initial(Setup(g.id, ("Ann", "Bob", "Cy", "Dee"), {}), data)
    s = g.apply(s, make_round_start(s, data, "5e" * 32, "", "sess", special="generous"), data)
    with pytest.raises(MissingValue) as caught:
        g.apply(s, {"type": "round-end", "winners": ["Ann"], "missing": {"Bob": 1, "Cy": 2, "Dee": 3}}, data)
    assert "'{\"winner\": W, \"missing\": [P1, P2, P3, P4, P5]}'" in str(caught.value)
