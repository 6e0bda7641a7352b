"""A generic score sheet for any game the companion does not know.

Rounds of points per player; optionally the lowest total wins, and optionally the game ends
by itself after the round in which someone reaches a target (with lowest-wins: exceeds it, as
in Hearts). Equal best totals all win.

A round is recorded whole (`add Ann=12 Bob=7`), or each player enters their own points, from
their phone or as `score NAME N` (issue 21): the round is complete, and counts, once everyone
has entered theirs; until then the others' entries are theirs alone (``view``). A session
started with `--scorekeeper NAME` has that player enter every round on their phone instead.
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
        keeper = setup.options.get("scorekeeper")
        if keeper is not None:
            keeper = player_name(list(setup.players), str(keeper))
        return {
            "players_order": list(setup.players),
            "lowest_wins": bool(setup.options.get("lowest_wins")),
            "target": target,
            "rounds": [],
            "totals": {p: 0 for p in setup.players},
            "finished": False,
            "winners": [],
            "scorekeeper": keeper,  # who enters every round on their phone (None: each their own)
            "entered": {},  # the round being entered player by player: {player: points}
        }

    def _entering(self, s: State) -> list[str]:
        return [p for p in s["players_order"] if p in (s.get("entered") or {})]

    def on_score(self, s: State, event: dict, data: dict) -> None:
        """One player's own points for the round being entered; the round counts once everyone
        has entered theirs."""
        player = player_name(s["players_order"], str(event.get("player", "")))
        points = event.get("points")
        if isinstance(points, bool) or not isinstance(points, int):
            raise RuleError(f"{player}'s score must be a whole number, not {points!r}.")
        entered = s.setdefault("entered", {})
        if player in entered:
            raise RuleError(f"{player} has entered {entered[player]} for round {len(s['rounds']) + 1} already: "
                            "`undo` takes it back.")
        entered[player] = points
        if len(entered) == len(s["players_order"]):
            s["entered"] = {}
            self.on_add(s, {"scores": entered}, data)

    def on_add(self, s: State, event: dict, data: dict) -> None:
        if s.get("entered"):
            raise RuleError(self._half_entered(s) + ": enter the others' with `score NAME POINTS`, or `undo` "
                            "the entries.")
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

    def _half_entered(self, s: State) -> str:
        who = self._entering(s)
        names = ", ".join(who[:-1]) + " and " + who[-1] if len(who) > 1 else who[0]
        return f"Round {len(s['rounds']) + 1} is being entered player by player ({names} so far)"

    def on_finish(self, s: State, event: dict, data: dict) -> None:
        if s.get("entered"):
            raise RuleError(self._half_entered(s) + ": enter the others' first, or `undo` the entries.")
        if not s["rounds"]:
            raise RuleError("No round is recorded yet: record one with `add NAME=POINTS ...` first.")
        self._finish(s)

    def _finish(self, s: State) -> None:
        s["finished"] = True
        s["winners"] = best(s["totals"], s["lowest_wins"])

    def result(self, s: State) -> dict | None:
        return {"winners": list(s["winners"])} if s["finished"] else None

    def turn(self, s: State) -> list[str]:
        """Nobody in particular: a round is typed for everyone at once, or entered by each."""
        return []

    def view(self, s: State, player: str | None) -> State:
        """A round being entered: each player sees their own entry, nobody another's (the table
        sees who has entered, not what)."""
        entered = s.get("entered") or {}
        if not entered:
            return s
        out = dict(s)
        out["entered"] = {p: (v if p == player else None) for p, v in entered.items()}
        return out

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
            "scorekeeper": s.get("scorekeeper"),
            "entered": self._entering(s),  # who has entered their points for the round being entered
        }

    def describe(self, event: dict) -> str:
        if event.get("type") == "add":
            parts = ", ".join(f"{p} {pts:+d}" for p, pts in (event.get("scores") or {}).items())
            return f"round scored: {parts}"
        if event.get("type") == "finish":
            return "game finished"
        if event.get("type") == "score":
            return f"{event.get('player')} entered their points"
        return super().describe(event)
