"""What can be done on a score sheet, declared once: `new scoresheet`, `add`, `score`, `finish`.

The model for a game's moves: each Move names its parameters by kind, builds the event the
rules check, and says what is said once it is recorded, as a view. The terminal makes the
commands, the shell's questions and completion from these; the phones make the forms.
"""

from __future__ import annotations

import click

from companion.games.declare import Move, Number, Pairs, Param, Player
from companion.games.kit import new_command
from companion.games.scoresheet.rules import ScoreSheet
from companion.games.view import Line, Name, joined, winners


@new_command(ScoreSheet)
@click.option("--lowest-wins", is_flag=True, help="The lowest total wins (as in golf or Hearts).")
@click.option("--target", type=int, metavar="N", help="The game ends after the round in which someone reaches N.")
@click.option("--scorekeeper", metavar="NAME",
              help="On the phones (`serve`), NAME enters every round's points (default: each player their own).")
def new(lowest_wins: bool, target: int | None, scorekeeper: str | None) -> dict:
    """Rounds of points, totals and winners, for any game."""
    options = {"lowest_wins": lowest_wins, "target": target}
    if scorekeeper is not None:
        options["scorekeeper"] = scorekeeper.strip()
    return options


def _added(outcome) -> list:
    status = outcome.status
    totals = joined(Name(f"{p['name']} {p['score']}") for p in status["players"])
    return [Line(f"Round {status['round']} recorded. Totals: ", *totals, "."), *winners(status)]


def _entered(outcome) -> list:
    status = outcome.status
    if status["entered"]:  # the round is still being entered
        waiting = [p["name"] for p in status["players"] if p["name"] not in status["entered"]]
        return [Line(Name(outcome.event["player"]), f"'s points for round {status['round'] + 1} are in; waiting for ",
                     *joined((Name(w) for w in waiting), ", ", " and "), ".")]
    return _added(outcome)


def _keeper(at, player: str) -> bool:
    """The scorekeeper's phone enters every round."""
    return at.full.get("scorekeeper") == player and not at.full.get("entered")


def _keeper_why(at, player: str) -> str:
    keeper = at.full.get("scorekeeper")
    if keeper is None:
        return "Each player enters their own points on their phone."
    return f"{keeper} keeps the score: {keeper}'s phone enters every round."


def _own_entry(at, player: str) -> bool:
    """Each phone enters its own player's points, once a round (no scorekeeper)."""
    state = at.full
    return state.get("scorekeeper") is None and player not in (state.get("entered") or {})


def _entry_why(at, player: str) -> str:
    state = at.full
    keeper = state.get("scorekeeper")
    if keeper is not None:
        return f"{keeper} keeps the score: {keeper}'s phone enters every round."
    waiting = [p for p in state["players_order"] if p not in (state.get("entered") or {})]
    return (f"Your points for round {len(state['rounds']) + 1} are in: waiting for {', '.join(waiting)} "
            "(the round counts once everyone's are in).")


_POINTS = Number(what="a whole number of points")
_POINTS.signed = True  # `score Ann -3`: a number, not an option

MOVES = [
    Move("add", [Param("scores", Pairs("POINTS"), "Each player's points, e.g. Ann=12 Bob=7.", metavar="NAME=POINTS",
                       many=True, label="the round's points (e.g. Ann=12 Bob=7)",
                       missing="Give the round's points, e.g. add Ann=12 Bob=7")],
         lambda at: {"type": "add", "scores": at.args["scores"]},
         help="Record a round: `add Ann=12 Bob=7 Cy=9` (players left out score 0).",
         actor=None, done=_added, examples=["add Ann=12 Bob=7"],
         phone="The round's points", allowed=_keeper, why_not=_keeper_why, verb="Record the round"),
    Move("score", [Param("player", Player(), "Whose points.", metavar="NAME"),
                   Param("points", _POINTS, "Your points this round.",
                         metavar="POINTS", label="the points")],
         lambda at: {"type": "score", "player": at.args["player"], "points": at.args["points"]},
         help="Enter one player's own points for the round: `score Ann 12`; the round counts once every "
              "player has entered theirs.",
         done=_entered, examples=["score Ann 12"],
         phone="Your points this round", allowed=_own_entry, why_not=_entry_why, verb="Enter my points"),
    Move("finish", [], lambda at: {"type": "finish"},
         help="End the game now; the best total wins (all of them on a tie).",
         actor=None, done=lambda outcome: winners(outcome.status)),
]
NEW = {"scoresheet": new}
PLAYTHROUGH = {"scoresheet": ["new scoresheet --players Ann,Bob,Cy --target 30", "add Ann=12 Bob=7 Cy=9",
                              "add ann=3 Bob=20", "status", "add Cy=30"]}
