"""A generic score sheet for any game the companion does not know.

Rounds of points per player; optionally the lowest total wins, and optionally the game ends
by itself after the round in which someone reaches a target (with lowest-wins: exceeds it, as
in Hearts). Equal best totals all win.
"""

from __future__ import annotations

from companion.core.errors import RuleError
from companion.games.api import Game, Setup, State, best, player_name


class ScoreSheet(Game):
    moves = "companion.games.scoresheet.moves"
    views = "companion.games.scoresheet.views"
    listing = 50
    section = "Score sheet"
    id = "scoresheet"
    title = "Score sheet"
    description = "A generic score sheet for any other game: rounds of points, totals, winners."
    min_players = 1
    max_players = 6

    def initial(self, setup: Setup, data: dict) -> State:
        target = setup.options.get("target")
        if target is not None and not isinstance(target, int):
            raise RuleError("The target must be a whole number, e.g. --target 100")
        return {
            "players_order": list(setup.players),
            "lowest_wins": bool(setup.options.get("lowest_wins")),
            "target": target,
            "rounds": [],
            "totals": {p: 0 for p in setup.players},
            "finished": False,
            "winners": [],
        }

    def on_add(self, s: State, event: dict, data: dict) -> None:
        given = event.get("scores") or {}
        if not given:
            raise RuleError("Give at least one score, e.g. add Ann=12 Bob=7")
        row = {p: 0 for p in s["players_order"]}
        seen = set()
        for name, points in given.items():
            p = player_name(s["players_order"], name)
            if p in seen:
                raise RuleError(f"{p} is given twice in one round: give each player once.")
            if isinstance(points, bool) or not isinstance(points, int):
                raise RuleError(f"{p}'s score must be a whole number, not {points!r}.")
            seen.add(p)
            row[p] = points
        s["rounds"].append(row)
        for p, pts in row.items():
            s["totals"][p] += pts
        target = s["target"]
        if target is not None:
            totals = s["totals"].values()
            if (max(totals) > target) if s["lowest_wins"] else (max(totals) >= target):
                self._finish(s)

    def on_finish(self, s: State, event: dict, data: dict) -> None:
        if not s["rounds"]:
            raise RuleError("No round is recorded yet: record one with `add NAME=POINTS ...` first.")
        self._finish(s)

    def _finish(self, s: State) -> None:
        s["finished"] = True
        s["winners"] = best(s["totals"], s["lowest_wins"])

    def result(self, s: State) -> dict | None:
        return {"winners": list(s["winners"])} if s["finished"] else None

    def turn(self, s: State) -> list[str]:
        return []  # a round is typed for everyone at once

    def summary(self, s: State) -> dict:
        return {
            "players": [
                {"name": p, "score": s["totals"][p], "rounds": [r[p] for r in s["rounds"]]}
                for p in s["players_order"]
            ],
            "round": len(s["rounds"]),
            "finished": s["finished"],
            "winners": list(s["winners"]),
            "lowest_wins": s["lowest_wins"],
            "target": s["target"],
        }

    def describe(self, event: dict) -> str:
        if event.get("type") == "add":
            parts = ", ".join(f"{p} {pts:+d}" for p, pts in (event.get("scores") or {}).items())
            return f"round scored: {parts}"
        if event.get("type") == "finish":
            return "game finished"
        return super().describe(event)
