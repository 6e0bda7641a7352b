"""What can be done in Yacht, declared once: `new yacht` and `score`. The companion makes the
command, its help, the shell's questions, completion and a phone's form from these."""

from __future__ import annotations

from companion.contract.declare import Move, Numbers, OneOf, Param, Player
from companion.games.kit import new_command, said
from companion.contract.view import Line, Name, winners
from yacht_companion.rules import Yacht
from yacht_companion.text import N_, _


@new_command(Yacht)
def new() -> dict:
    """Five dice, nine boxes each; the highest total wins."""
    return {}


def scored(outcome) -> list:
    me = next(p for p in outcome.status["players"] if p["name"] == outcome.event["player"])
    box = outcome.event["category"]
    return [Line(*said(_("{name}: {points} in {box}, {total} in all."), name=Name(me["name"]),
                       points=me["sheet"][box], box=box, total=me["score"])),
            *(winners(outcome.status) or [Line(_("Next: {name}.").format(name=outcome.status["turn"]))])]


# the boxes still empty on the sheet of the player named first
EMPTY = OneOf(lambda at: [b for b in at.data["categories"] if b not in at.state["sheets"].get(at.args.get("player"), {})],
              "BOX", what=N_("a box"))
MOVES = [Move("score", [Param("player", Player(), N_("Who filled a box.")),
                        Param("category", EMPTY, N_("The box to fill.")),
                        Param("dice", Numbers(5, 1, 6, "3,3,3,5,5", N_("five dice")), N_("The five dice."),
                              metavar="DICE")],
              lambda at: {"type": "score", **at.args}, help=N_("Fill a box: `score Ann full-house 3,3,3,5,5`."),
              done=scored, phone=True)]
NEW = {"yacht": new}
PLAYTHROUGH = {"yacht": ["new yacht --players Ann,Bob", "score Ann full-house 3,3,3,5,5", "score Bob yacht 6,6,6,6,6",
                         "status"]}
