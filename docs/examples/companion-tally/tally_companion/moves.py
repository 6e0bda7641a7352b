"""What can be done in Tally, declared once: `new tally`, `score` during play, `final` at the end."""

from __future__ import annotations

from companion.contract.declare import Move, Number, OneOf, Pairs, Param, Player
from companion.games.kit import new_command, said
from companion.contract.view import Line, Name, winners
from tally_companion.rules import Tally
from tally_companion.text import N_, _


@new_command(Tally)
def new() -> dict:
    """Points in categories during play, then everyone's final sheet; the highest total wins."""
    return {}


def _total(outcome) -> list:
    me = next(p for p in outcome.status["players"] if p["name"] == outcome.event["player"])
    return [Line(*said(_("{name} has {total} in all."), name=Name(me["name"]), total=me["score"])),
            *winners(outcome.status)]


CATEGORY = OneOf(lambda at: at.state["boxes"], "CATEGORY", what=N_("a category"))
MOVES = [
    Move("score", [Param("player", Player(), N_("Who completed a feature.")),
                   Param("category", CATEGORY, N_("Its category.")),
                   Param("points", Number(0, what=N_("points, a whole number")), N_("The points it scores."))],
         lambda at: {"type": "score", **at.args}, help=N_("Score a feature as it is completed: `score Ann cities 8`."),
         done=_total, phone=True),
    Move("final", [Param("player", Player(), N_("Whose sheet.")),
                   Param("sheet", Pairs("POINTS", players=False), N_("Points per category, e.g. fields=9 roads=2."),
                         metavar="CATEGORY=POINTS", many=True)],
         lambda at: {"type": "final", **at.args}, done=_total, phone=True,
         help=N_("Enter a player's final scoring sheet: `final Ann fields=9 roads=2` (categories left out score 0).")),
]
NEW = {"tally": new}
PLAYTHROUGH = {"tally": ["new tally --players Ann,Bob", "score Ann cities 8", "score Bob roads 3",
                         "final Ann fields=9 roads=2", "final Bob fields=12", "status"]}
