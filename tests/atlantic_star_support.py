"""Shared helpers for the Atlantic Star tests (no tests here).

The victory-point table below is INVENTED FOR THE TESTS: nobody knows the printed one, so the
pack keeps it null. Tests that need final scores pass it in explicitly.
"""

from __future__ import annotations

import copy

from companion.core.datapack import pack
from companion.games.atlantic_star.rules import AtlanticStar
from companion.contract.api import Setup

GAME = AtlanticStar()

# A test value, not the board's: distinct numbers per class so a wrong lookup shows.
TEST_VP = {
    "1": [11, 9, 7, 5, 3, 1],
    "2": [12, 10, 8, 6, 4, 2],
    "3": [13, 11, 9, 7, 5, 3],
    "4": [16, 13, 10, 7, 4, 1],
    "5": [20, 15, 10, 6, 2, 0],
}


def values(vp=None) -> dict:
    """The shipped pack's values, with a test-only `vp` table when given."""
    data = copy.deepcopy(pack("atlantic-star")["values"])
    data["vp"] = copy.deepcopy(vp)
    return data


class Table:
    """A game in progress at a test's table: apply events by name, read the state back."""

    def __init__(self, *players: str, vp=None, options=None):
        self.data = values(vp)
        self.state = GAME.initial(Setup(GAME.id, tuple(players), dict(options or {})), self.data)

    def do(self, **event) -> "Table":
        self.state = GAME.apply(self.state, event, self.data)
        return self

    def charter(self, player: str, space: int = 0, **extra) -> "Table":
        return self.do(type="charter", player=player, space=space, **extra)

    def refresh(self, player: str, **extra) -> "Table":
        return self.do(type="refresh", player=player, **extra)

    def voyage(self, player: str, sea: str, value=None, cls=None, cards=None) -> "Table":
        event = {"type": "voyage", "player": player, "sea": sea}
        if value is not None:
            event["value"] = value
        if cards is not None:
            event["cards"] = cards
        if cls is not None:
            event["class"] = cls
        return self.do(**event)

    def loan(self, player: str, sea: str, amount: int, voyage=None) -> "Table":
        event = {"type": "loan", "player": player, "sea": sea, "amount": amount}
        if voyage is not None:
            event["voyage"] = voyage
        return self.do(**event)

    def fill_hands(self, cards: int) -> "Table":
        """Every player charters the free space ``cards`` times, in turn order."""
        for _ in range(cards * len(self.state["players_order"])):
            self.charter(self.turn)
        return self

    def stage(self, player: str, sea: str, value: int) -> "Table":
        """A voyage, choosing the lowest free class when it is the sea's first."""
        cls = None
        if self.state["seas"][sea]["class"] is None:
            used = {v["class"] for v in self.state["seas"].values()}
            cls = min(c for c in range(1, 6) if c not in used)
        return self.voyage(player, sea, value=value, cls=cls)

    def legs(self, sea: str) -> int:
        return self.data["seas"][sea]["legs"]

    def auto(self) -> "Table":
        """One plain turn for whoever is to play: the longest voyage the hand allows, else a
        free charter. Values vary with the voyage count so rankings are not all ties."""
        p = self.turn
        hand = self.state["hand"][p]
        seas = [s for s, left in self.state["plaques"][p].items()
                if left and self.legs(s) <= hand and hand - self.legs(s) <= 2]
        if seas:
            sea = max(seas, key=self.legs)
            staged = sum(len(info["ranking"]) for info in self.state["seas"].values())
            return self.stage(p, sea, 8 + (staged * 7) % 19)
        return self.charter(p)

    @property
    def turn(self) -> str:
        return self.state["turn"]["player"]

    def ranking(self, sea: str) -> list[tuple[str, int]]:
        return [(x["owner"], x["value"]) for x in self.state["seas"][sea]["ranking"]]

    @property
    def summary(self) -> dict:
        return GAME.summary(self.state)


def flat(text: str) -> str:
    """Output as one line of words: the screen wraps it at 80 columns, at spaces."""
    return " ".join(text.split())


def unwrap(text: str) -> list[str]:
    """The lines a command printed, each wrapped line joined again (a continuation is indented)."""
    out: list[str] = []
    for line in text.splitlines():
        if line.startswith("  ") and out:
            out[-1] += " " + line.strip()
        else:
            out.append(line)
    return out
