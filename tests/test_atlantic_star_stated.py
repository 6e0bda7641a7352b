"""Atlantic Star to the letter (issue 15): the two victory points the rulebook states, and no
cap of 9 points per card the rulebook does not state.
"""

from __future__ import annotations

import json

import pytest

from companion.core import datapack

ONE_STAR = "However, if you end up with the lowest ranking, you\u2019ll earn 4 points."
FIVE_STAR = "But if you end up with the lowest ranking, you won\u2019t earn any points."


def test_the_stated_places_are_printed_facts_with_their_source():
    """Seed 003: "Now, let's talk about the ?-class. ... However, if you end up with the lowest
    ranking, you'll earn 4 points." and of the ?????-class "if you end up with the lowest
    ranking, you won't earn any points"."""
    stated = datapack.stated("atlantic-star")
    assert stated["vp.1.5"]["value"] == 4 and ONE_STAR in stated["vp.1.5"]["source"]
    assert stated["vp.5.5"]["value"] == 0 and FIVE_STAR in stated["vp.5.5"]["source"]
    assert "seed 003" in stated["vp.1.5"]["source"]
    suggestions = datapack.pack("atlantic-star")["suggestions"]
    assert suggestions["vp.1"]["value"][5] == 4 and suggestions["vp.5"]["value"][5] == 0


@pytest.mark.parametrize("key, row, quote", [
    ("vp.1", [14, 12, 10, 8, 6, 3], ONE_STAR),
    ("vp.5", [20, 15, 10, 6, 2, 1], FIVE_STAR),
])
def test_a_different_sixth_place_is_refused_quoting_the_rule(run, key, row, quote):
    """Seed 003 states the 1-star class's 6th place (4) and the 5-star class's (0)."""
    before = run(["data", "show", "atlantic-star", key], expect=0).stdout
    result = run(["data", "set", "atlantic-star", key, json.dumps(row)], expect=1)
    assert quote in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert run(["data", "show", "atlantic-star", key], expect=0).stdout == before
    whole = {"1": [14, 12, 10, 8, 6, 3]}
    assert ONE_STAR in run(["data", "set", "atlantic-star", "vp", json.dumps(whole)], expect=1).stderr


def test_the_stated_sixth_places_are_taken(run):
    run(["data", "set", "atlantic-star", "vp.1", "[14, 12, 10, 8, 6, 4]"], expect=0)
    run(["data", "set", "atlantic-star", "vp.5", "[20, 15, 10, 6, 2, 0]"], expect=0)  # a test row but its 6th


def test_no_cap_of_nine_per_card_only_a_note(run):
    """Seed 003 states no largest number of points per leg: "add up the points for each ship
    played during each leg". Above 9 is only noted as unusual."""
    run(["new", "atlantic-star", "--players", "Ann,Bob"], expect=0)
    for _ in range(3):
        run(["charter", "Ann", "0"], expect=0)
        run(["charter", "Bob", "0"], expect=0)
    out = run(["voyage", "Ann", "baltic", "--cards", "3,12,2", "--class", "1"], expect=0).stdout
    assert "worth 20" in out and "above 9 points per leg is unusual" in out
    pack = datapack.pack("atlantic-star")
    assert "card_points_max" not in pack["values"] and "card_points_max" not in json.dumps(pack["sources"])
    assert "issue" not in json.dumps(pack["sources"])


def test_the_shell_question_shows_the_stated_place(home, capsys, run):
    """The shell's question offers the suggested rows with the stated places filled in."""
    from companion.core.app import App
    from companion.games.atlantic_star.moves import ask_vp  # issue 20: moved from .commands; it takes an At
    from companion.contract.declare import At
    from companion.terminal.cli import cli, tell  # noqa: F401  (the commands registered)

    answers = iter(["20 15 10 6 2 1", "20 15 10 6 2 0"])
    app = App(home, ask=lambda question, default="": next(answers))
    app.tell = lambda view: tell(app, view)  # issue 20: as the terminal sets it for At.tell
    ask_vp(At(host=app), "vp.5")
    out = capsys.readouterr().out
    assert "Suggested: ?, ?, ?, ?, ?, 0" in out
    assert FIVE_STAR in out  # the wrong 6th place was refused with the rule, and asked again
    assert json.loads(run(["data", "show", "atlantic-star", "vp.5"], expect=0).stdout.split("\nsource")[0]) == \
        [20, 15, 10, 6, 2, 0]
