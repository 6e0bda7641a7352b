"""The rules of Yacht (example): pure, so every rule can be tested without a terminal or a disk.

Each player in turn rolls five real dice at the table (up to three times), then fills one empty
box of their sheet with what the dice are worth there. The companion checks whose turn it is,
that the box is empty and that the dice are dice, and adds up. When every sheet is full, the
highest total wins (all of them on a tie).
"""

from __future__ import annotations

from collections import Counter

from companion.contract.errors import RuleError
from companion.contract.api import Game, Setup, State, best
from yacht_companion.text import N_, _

FACES = {"ones": 1, "twos": 2, "threes": 3, "fours": 4, "fives": 5, "sixes": 6}


class Yacht(Game):
    id = "yacht"
    title = N_("Yacht (example)")
    description = N_("Five dice, nine boxes each: the example game of docs/writing-a-game.md.")
    moves = "yacht_companion.moves"  # what can be done: imported only when used
    views = "yacht_companion.views"  # what is shown
    pack_file = "yacht_companion:yacht.json"  # the printed values, with their sources

    def initial(self, setup: Setup, data: dict) -> State:
        boxes = len(self.need(data, self.id, "categories", _("the boxes of a sheet")))
        return {"players": list(setup.players), "turn": 0, "sheets": {p: {} for p in setup.players}, "boxes": boxes}

    def on_score(self, s: State, event: dict, data: dict) -> None:
        player, box, dice = event.get("player"), event.get("category"), event.get("dice")
        due = s["players"][s["turn"]]
        if player != due:
            raise RuleError(_("It is {turn}'s turn, not {name}'s.").format(turn=due, name=player))
        boxes = self.need(data, self.id, "categories", _("the boxes of a sheet"))
        if box not in boxes:
            raise RuleError(_("There is no box {typed}: the boxes are {boxes}.").format(typed=repr(box),
                                                                                       boxes=", ".join(boxes)))
        if box in s["sheets"][player]:
            raise RuleError(_("{name} has filled {box} already (with {points}): choose an empty box.").format(
                name=player, box=box, points=s["sheets"][player][box]))
        s["sheets"][player][box] = self.points(box, dice, data)
        s["turn"] = (s["turn"] + 1) % len(s["players"])

    def points(self, box: str, dice: list[int], data: dict) -> int:
        counts = sorted(Counter(dice).values())
        if box in FACES:
            return FACES[box] * dice.count(FACES[box])
        if box == "chance":
            return sum(dice)
        wanted = {"full-house": ([2, 3], "full_house", N_("the points of a full house")),
                  "yacht": ([5], "yacht", N_("the points of five of a kind"))}[box]
        return self.need(data, self.id, wanted[1], _(wanted[2])) if counts == wanted[0] else 0

    def totals(self, s: State) -> dict[str, int]:
        return {p: sum(s["sheets"][p].values()) for p in s["players"]}

    def result(self, s: State) -> dict | None:
        """Over when every sheet is full (nine boxes): the best total wins."""
        full = all(len(sheet) == s["boxes"] for sheet in s["sheets"].values())
        return {"winners": best(self.totals(s))} if full else None

    def turn(self, s: State) -> list[str]:
        return [] if self.result(s) else [s["players"][s["turn"]]]

    def summary(self, s: State) -> dict:
        totals = self.totals(s)
        over = self.result(s) is not None
        return {"players": [{"name": p, "score": totals[p], "sheet": dict(s["sheets"][p])} for p in s["players"]],
                "round": min(len(sheet) for sheet in s["sheets"].values()) + (0 if over else 1),
                "turn": None if over else s["players"][s["turn"]]}

    def describe(self, event: dict) -> str:
        if event.get("type") == "score":
            dice = ",".join(str(d) for d in event.get("dice", []))
            return _("{name} filled {box} with {dice}").format(name=event.get("player"), box=event.get("category"),
                                                               dice=dice)
        return super().describe(event)
