"""What can be done on a score sheet, declared once: `new scoresheet`, `add`, `finish`.

The model for a game's moves: each Move names its parameters by kind, builds the event the
rules check, and says what is said once it is recorded, as a view. The terminal makes the
commands, the shell's questions and completion from these; the phones make the forms.
"""

from __future__ import annotations

import click

from companion.games.declare import Move, Pairs, Param
from companion.games.kit import new_command
from companion.games.scoresheet.rules import ScoreSheet
from companion.games.view import Line, Name, joined, winners


@new_command(ScoreSheet)
@click.option("--lowest-wins", is_flag=True, help="The lowest total wins (as in golf or Hearts).")
@click.option("--target", type=int, metavar="N", help="The game ends after the round in which someone reaches N.")
def new(lowest_wins: bool, target: int | None) -> dict:
    """Rounds of points, totals and winners, for any game."""
    return {"lowest_wins": lowest_wins, "target": target}


def _added(outcome) -> list:
    status = outcome.status
    totals = joined(Name(f"{p['name']} {p['score']}") for p in status["players"])
    return [Line(f"Round {status['round']} recorded. Totals: ", *totals, "."), *winners(status)]


MOVES = [
    Move("add", [Param("scores", Pairs("POINTS"), "Each player's points, e.g. Ann=12 Bob=7.", metavar="NAME=POINTS",
                       many=True, label="the round's points (e.g. Ann=12 Bob=7)",
                       missing="Give the round's points, e.g. add Ann=12 Bob=7")],
         lambda at: {"type": "add", "scores": at.args["scores"]},
         help="Record a round: `add Ann=12 Bob=7 Cy=9` (players left out score 0).",
         actor=None, done=_added, examples=["add Ann=12 Bob=7"]),
    Move("finish", [], lambda at: {"type": "finish"},
         help="End the game now; the best total wins (all of them on a tie).",
         actor=None, done=lambda outcome: winners(outcome.status)),
]
NEW = {"scoresheet": new}
PLAYTHROUGH = {"scoresheet": ["new scoresheet --players Ann,Bob,Cy --target 30", "add Ann=12 Bob=7 Cy=9",
                              "add ann=3 Bob=20", "status", "add Cy=30"]}
