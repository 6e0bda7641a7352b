"""Test values shared by the Transatlantic tests. Every ship value and surcharge here is a
TEST value (nobody here has the printed cards), except HAMMONIA's £70 from the rulebook."""

from __future__ import annotations

from companion.core import datapack
from companion.contract.api import Setup
from companion.games.transatlantic.rules import Transatlantic

GAME = Transatlantic()

SURCHARGES = [0, 10, 20, 30, 40, 50]  # TEST values

SHIPS = {  # TEST values (HAMMONIA's £70 is the rulebook's)
    "DEVONIA": {"name": "DEVONIA", "year": 1877, "flag": "red", "price": 50, "kind": "steam"},
    "NUBIAN": {"name": "NUBIAN", "year": 1875, "flag": "white", "price": 30, "kind": "steam"},
    "GERMANIC": {"name": "GERMANIC", "year": 1874, "flag": "white", "price": 40, "kind": "steam"},
    "HAMMONIA": {"name": "HAMMONIA", "year": 1882, "flag": "blue", "price": 70, "kind": "steam"},
    "ABYSSINIA": {"name": "ABYSSINIA", "year": 1870, "flag": "red", "price": 30, "kind": "steam"},
    "UMBRIA": {"name": "UMBRIA", "year": 1884, "flag": "red", "price": 90, "kind": "steam"},
    "COLUMBIA": {"name": "COLUMBIA", "year": 1889, "flag": "blue", "price": 80, "kind": "steam"},
    "CITY OF NEW YORK": {"name": "CITY OF NEW YORK", "year": 1888, "flag": "black", "price": 100,
                         "kind": "steam"},
    "ARIEL": {"name": "ARIEL", "year": 1865, "flag": None, "price": None, "kind": "sail"},
    "HQ RED": {"name": "HQ RED", "year": None, "flag": "red", "price": 60, "kind": "hq"},
    "HQ BLUE": {"name": "HQ BLUE", "year": None, "flag": "blue", "price": 60, "kind": "hq"},
}


def data(surcharges=SURCHARGES, ships=SHIPS) -> dict:
    values = datapack.pack("transatlantic")["values"]
    values["market"]["surcharges"] = surcharges
    values["ships"] = ships
    return values


def play(events, players=("Ann", "Bob", "Cy"), values=None):
    values = data() if values is None else values
    state = GAME.initial(Setup("transatlantic", tuple(players)), values)
    for event in events:
        state = GAME.apply(state, event, values)
    return state


def flat(text: str) -> str:
    """Output as one line of words: the screen wraps it at 80 columns, at spaces."""
    return " ".join(text.split())
