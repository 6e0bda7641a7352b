"""Printed-value hints that work when typed (issue 15): every `companion data set` template that
`data check`, `data show` and the refusals print works once its placeholders are replaced by
real values of their type; `data show` cites sources, never a ticket number.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from companion.core import datapack
from companion.games.trans.board import Board

ROOT = Path(__file__).resolve().parent.parent
LITERAL = re.compile(r"`(companion data set [^`{}]+)`")


def refusal_templates() -> list[str]:
    """Templates written out in the code's refusals (the others are built by set_command)."""
    found = set()
    for path in (ROOT / "companion").rglob("*.py"):
        found.update(LITERAL.findall(path.read_text(encoding="utf-8")))
    return sorted(found)


def every_template() -> list[str]:
    out = set(refusal_templates())
    for game in datapack.pack_names():
        for key in datapack.pack(game).get("examples", {}):
            out.add(datapack.set_command(game, key))
    return sorted(out)


def board_of(game: str) -> Board:
    return Board.from_values(datapack.pack(game)["values"], game)


def fill(command: str) -> list[str]:
    """The command as a player would type it, every placeholder replaced by a valid value."""
    args = shlex.split(command)[1:]  # without `companion`
    game, key, text = args[2], args[3], args[4]
    if game.startswith("trans-"):
        board = board_of(game)
        cities = iter([c.name for colour in board.colours for c in [x for x in board.cities if x.colour == colour][:2]])
        text = re.sub(r'"CITY"', lambda m: json.dumps(next(cities)), text)
        line = board.edge_name(sorted(e for e, c in board.cost.items() if c == 2)[0])
        text = text.replace("JUNCTION-JUNCTION", line).replace('"COLOUR"', json.dumps(board.colours[0]))
    stated = datapack.stated(game)
    places = [20, 15, 10, 6, 2, 0]

    def row(cls: str) -> str:
        last = stated.get(f"vp.{cls}.5", {}).get("value", 0)
        return json.dumps(places[:5] + [last])

    text = re.sub(r'"(\d)": \[1st, 2nd, 3rd, 4th, 5th, 6th\]', lambda m: f'"{m.group(1)}": {row(m.group(1))}', text)
    if "1st" in text:
        text = text.replace("[1st, 2nd, 3rd, 4th, 5th, 6th]", row(key.split(".")[1]))
    for name, value in (("W", "4"), ("P1", "3"), ("P2", "2"), ("P3", "1"), ("P4", "1"), ("P5", "0"),
                        ("S1", "0"), ("S2", "10"), ("S3", "20"), ("S4", "30"), ("S5", "40"), ("S6", "50"),
                        ("N", "2"), ("YEAR", "1880"), ("PRICE", "50")):
        text = re.sub(rf"\b{name}\b", value, text)
    text = text.replace('"COLOUR"', '"purple"').replace('"NAME"', '"TEST SHIP"')
    return [*args[:4], text]


@pytest.mark.parametrize("command", every_template())
def test_every_template_works_once_its_placeholders_are_filled(run, command):
    """Issue 15: "Every command template shown by `data check`, `data show` and refusals works
    when typed as shown once the placeholders are replaced by real values." """
    args = fill(command)
    result = run(args, expect=0)
    assert result.stdout.startswith(f"Set {args[2]} {args[3]} = ")


def test_data_check_and_data_show_print_only_these_templates(run):
    templates = set(every_template())
    out = run(["data", "check"], expect=0).stdout
    shown = [line.strip() for line in out.splitlines() if line.strip().startswith("companion data set")]
    assert shown and set(shown) <= templates
    for game in datapack.pack_names():
        for key in datapack.missing(game, datapack.merged(game, {})):
            text = run(["data", "show", game, key], expect=0).stdout
            line = text.split("supply it with: ")[1].strip()
            assert line in templates


@pytest.mark.parametrize("game", datapack.pack_names())
def test_data_show_cites_sources_never_a_ticket(run, game):
    """Issue 15: "`data show` cites the source of every value: a rulebook passage, a public
    encoding, or "supplied by you on DATE". It never cites a ticket number." """
    out = run(["data", "show", game], expect=0).stdout
    assert not re.search(r"\bissue\b|#\d|ticket", out, re.I), out
    assert "the game's pack" not in out  # every value has a source of its own
    for key in datapack.pack(game)["values"]:
        assert not re.search(r"\bissue\b|#\d|ticket", datapack.source_text(game, key), re.I)


def test_a_supplied_value_says_who_and_when(run):
    run(["data", "set", "transatlantic", "market.surcharges", "[0, 10, 20, 30, 40, 50]"], expect=0)
    out = run(["data", "show", "transatlantic", "market.surcharges"], expect=0).stdout
    assert re.search(r"source: supplied by you on \d{4}-\d{2}-\d{2}", out)
