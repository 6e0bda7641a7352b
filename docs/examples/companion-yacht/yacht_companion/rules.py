"""The rules of Yacht (example): pure, so every rule can be tested without a terminal or a disk.

Each player in turn rolls five real dice at the table (up to three times), then fills one empty
box of their sheet with what the dice are worth there. The companion checks whose turn it is,
that the box is empty and that the dice are dice, and adds up. When every sheet is full, the
highest total wins (all of them on a tie).
"""

from __future__ import annotations

from collections import Counter

from companion.core.errors import RuleError
from companion.games.api import Game, Setup, State, best, player_name

FACES = {"ones": 1, "twos": 2, "threes": 3, "fours": 4, "fives": 5, "sixes": 6}


class Yacht(Game):
    id = "yacht"
    title = "Yacht (example)"
    description = "Five dice, nine boxes each: the example game of docs/writing-a-game.md."
    min_players = 1
    max_players = 6
    ui = "yacht_companion.commands"  # commands and screens, imported only when used
    pack_file = "yacht_companion:yacht.json"  # the printed values, with their sources

    def initial(self, setup: Setup, data: dict) -> State:
        return {
            "players_order": list(setup.players),
            "turn": 0,  # index into players_order
            "sheets": {p: {} for p in setup.players},  # player -> {box: points}
            "finished": False,
            "winners": [],
        }

    def on_score(self, s: State, event: dict, data: dict) -> None:
        player = player_name(s["players_order"], event.get("player", ""))
        due = s["players_order"][s["turn"]]
        if player != due:
            raise RuleError(f"It is {due}'s turn, not {player}'s.")
        boxes = self.need(data, self.id, "categories", "the boxes of a sheet")
        box = event.get("category")
        if box not in boxes:
            raise RuleError(f"There is no box {box!r}: the boxes are {', '.join(boxes)}.")
        if box in s["sheets"][player]:
            raise RuleError(f"{player} has filled {box} already (with {s['sheets'][player][box]}): "
                            f"choose an empty box.")
        dice = event.get("dice")
        if not (isinstance(dice, list) and len(dice) == 5
                and all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)):
            raise RuleError("Give the five dice as numbers from 1 to 6, e.g. 3,3,3,5,5.")
        s["sheets"][player][box] = self.points(box, dice, data)
        s["turn"] = (s["turn"] + 1) % len(s["players_order"])
        if all(len(sheet) == len(boxes) for sheet in s["sheets"].values()):
            s["finished"] = True
            s["winners"] = best(self.totals(s))

    def points(self, box: str, dice: list[int], data: dict) -> int:
        counts = sorted(Counter(dice).values())
        if box in FACES:
            return FACES[box] * dice.count(FACES[box])
        if box == "chance":
            return sum(dice)
        if box == "full-house":
            return self.need(data, self.id, "full_house", "the points of a full house") if counts == [2, 3] else 0
        if box == "yacht":
            return self.need(data, self.id, "yacht", "the points of five of a kind") if counts == [5] else 0
        raise RuleError(f"The example knows no scoring for {box!r}.")

    @staticmethod
    def totals(s: State) -> dict[str, int]:
        return {p: sum(s["sheets"][p].values()) for p in s["players_order"]}

    def summary(self, s: State) -> dict:
        totals = self.totals(s)
        return {
            "players": [{"name": p, "score": totals[p], "sheet": dict(s["sheets"][p])} for p in s["players_order"]],
            "round": min(len(sheet) for sheet in s["sheets"].values()) + (0 if s["finished"] else 1),
            "turn": None if s["finished"] else s["players_order"][s["turn"]],
            "finished": s["finished"],
            "winners": list(s["winners"]),
        }

    def describe(self, event: dict) -> str:
        if event.get("type") == "score":
            dice = ",".join(str(d) for d in event.get("dice", []))
            return f"{event.get('player')} filled {event.get('category')} with {dice}"
        return super().describe(event)

    def words(self, state: State, data: dict) -> list[str]:
        return list(state["players_order"]) + list(data.get("categories") or [])
