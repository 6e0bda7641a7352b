"""The rules of Tally (example): points in categories, as a game like Carcassonne is scored.

During play a player scores a feature as it is completed (`score Ann cities 8`); at the end each
player's final scoring sheet is entered category by category (`final Ann fields=9 roads=2`).
The companion adds up, refuses a category the pad does not have and a second sheet, and once
every player has a final sheet the highest total wins (all of them on a tie). The points
themselves are counted at the table: the companion never knows a printed value it was not told.
"""

from __future__ import annotations

from companion.contract.errors import RuleError
from companion.contract.api import Game, Setup, State, best
from tally_companion.text import N_, _


class Tally(Game):
    id = "tally"
    title = N_("Tally (example)")
    description = N_("Points in categories during play, then a final sheet: the second example game.")
    min_players = 2
    moves = "tally_companion.moves"
    views = "tally_companion.views"
    pack_file = "tally_companion:tally.json"

    def initial(self, setup: Setup, data: dict) -> State:
        boxes = self.need(data, self.id, "categories", _("the columns of the scoring pad"))
        return {"players": list(setup.players), "boxes": list(boxes),
                "play": {p: {b: 0 for b in boxes} for p in setup.players}, "final": {}}

    def _box(self, s: State, box) -> str:
        if box not in s["boxes"]:
            raise RuleError(_("There is no category {typed}: the categories are {categories}.").format(
                typed=repr(box), categories=", ".join(s["boxes"])))
        return box

    def on_score(self, s: State, event: dict, data: dict) -> None:
        if s["final"]:
            raise RuleError(_("The final scoring has begun: enter the rest with `final NAME CATEGORY=POINTS ...`."))
        s["play"][event["player"]][self._box(s, event.get("category"))] += event["points"]

    def on_final(self, s: State, event: dict, data: dict) -> None:
        player = event["player"]
        if player in s["final"]:
            raise RuleError(_("{name}'s final sheet is in already: `undo` takes it back.").format(name=player))
        s["final"][player] = {self._box(s, box): points for box, points in event["sheet"].items()}

    def totals(self, s: State) -> dict[str, int]:
        return {p: sum(s["play"][p].values()) + sum(s["final"].get(p, {}).values()) for p in s["players"]}

    def result(self, s: State) -> dict | None:
        return {"winners": best(self.totals(s))} if len(s["final"]) == len(s["players"]) else None

    def turn(self, s: State) -> list[str]:
        return [p for p in s["players"] if p not in s["final"]] if s["final"] else []

    def summary(self, s: State) -> dict:
        totals = self.totals(s)
        return {"players": [{"name": p, "score": totals[p], "play": dict(s["play"][p]),
                             "final": s["final"].get(p)} for p in s["players"]],
                "round": None, "categories": list(s["boxes"]), "final_scoring": bool(s["final"])}

    def describe(self, event: dict) -> str:
        if event.get("type") == "score":
            return _("{name} scored {points} in {category}").format(name=event["player"], points=event["points"],
                                                                    category=event["category"])
        if event.get("type") == "final":
            return _("{name}'s final sheet: {sheet}").format(
                name=event["player"], sheet=", ".join(f"{b} {n}" for b, n in event["sheet"].items()))
        return super().describe(event)
