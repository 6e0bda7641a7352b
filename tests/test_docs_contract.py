"""The guide for game authors lists the contract from the very lists the registry checks
(as Datasette's docs tests iterate its hookspecs): a part added to the contract and left out of
docs/writing-a-game.md fails here, and so does a row naming something that is not a part."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.contract import api, declare, view

GUIDE = (Path(__file__).resolve().parent.parent / "docs" / "writing-a-game.md").read_text(encoding="utf-8")


def table_rows(heading: str) -> list[str]:
    """The names in the first column of the table under ``heading``."""
    part = GUIDE.split(heading, 1)[1]
    rows = []
    for line in part.splitlines()[1:]:
        if line.startswith("#"):
            break
        m = re.match(r"\| `([^`]+)` \|", line)
        if m:
            rows.append(m.group(1))
        elif rows and not line.startswith("|"):
            break
    return rows


@pytest.mark.parametrize("heading, names", [
    ("### The facts", list(api.FACTS)),
    ("### The rules", list(api.RULES)),
    ("### The moves module", list(api.MOVES_PARTS)),
    ("### The views module", list(api.VIEWS_PARTS)),
])
def test_every_part_of_the_contract_is_in_the_guide_and_nothing_else(heading, names):
    assert table_rows(heading) == names


def test_every_kind_and_every_block_is_in_the_guide():
    kinds = [name for name, value in vars(declare).items()
             if isinstance(value, type) and issubclass(value, declare.Kind) and value is not declare.Kind]
    assert sorted(table_rows("| kind | what it reads |")) == sorted(kinds)
    blocks = [b.__name__ for b in view.BLOCKS]
    assert table_rows("| block | what it is |") == blocks


def test_the_examples_the_guide_names_exist():
    root = Path(__file__).resolve().parent.parent / "docs"
    for link in re.findall(r"\]\((examples/[^)]+)\)", GUIDE):
        assert (root / link).is_dir(), link
