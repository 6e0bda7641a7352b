"""What can be done in Tricks, declared once: `new tricks`, a secret `bid`, then `tricks` taken.

The bid's secret is the parameter's ``private`` rule, :func:`bid_is_secret`: the companion keeps
a bid out of everything anyone but its bidder sees while the rule says so, and shows it
everywhere once it does not (boardgame.io's ``redact``, which may depend on the state).
"""

from __future__ import annotations

from companion.contract.declare import Move, Number, Param, Player
from companion.contract.view import Line, Name, winners
from companion.games.kit import new_command, said
from tricks_companion.rules import Tricks
from tricks_companion.text import N_, _


@new_command(Tricks)
def new() -> dict:
    """Secret bids, tricks taken, three rounds; the highest total wins."""
    return {}


def bid_is_secret(state: dict, event: dict) -> bool:
    """A bid is secret while its own round's bids are still coming in (``state`` is the whole
    state now: the companion asks this rule, never a view)."""
    return event.get("round") == state["round"] and Tricks.bidding(state)


class Bid(Number):
    """A bid: a whole number from 0 to the round's number of tricks, offered as buttons on the
    bidder's phone (where nobody else looks)."""

    def __init__(self):
        super().__init__(0, lambda at: at.state["round"], what=N_("a bid, a whole number of tricks"))

    def options(self, at, param):
        return [(str(n), "") for n in range(0, at.state["round"] + 1)]


def _may_bid(at, player: str) -> bool:
    return Tricks.bidding(at.full) and player not in at.full["bids"]


def _may_report(at, player: str) -> bool:
    return not at.full["over"] and not Tricks.bidding(at.full) and player not in at.full["taken"]


def _bid(outcome) -> list:
    """Said on the shared screen right after the private prompt: ``outcome.event`` holds the bid
    only once the table may see it, so this line cannot give a bid away."""
    event, status = outcome.event, outcome.status
    if "bid" in event:
        out = [Line(*said(_("{name} has bid {bid}."), name=Name(event["player"]), bid=event["bid"]))]
    else:
        out = [Line(*said(_("{name} has bid."), name=Name(event["player"])))]
    if status["bids_open"]:
        out.append(Line(_("All bids are in: {bids}.").format(
            bids=", ".join(f"{p['name']} {p['bid']}" for p in status["players"]))))
    return out


def _taken(outcome) -> list:
    status = outcome.status
    out = [Line(*said(_("{name} took {tricks}."), name=Name(outcome.event["player"]), tricks=outcome.event["tricks"]))]
    history = outcome.state["history"]
    if history and history[-1]["round"] == outcome.before["round"]:
        points = history[-1]["points"]
        out.append(Line(_("Round {round} scored: {points}.").format(
            round=outcome.before["round"], points=", ".join(f"{p} +{points[p]}" for p in points))))
    return out + winners(status)


MOVES = [
    Move("bid", [Param("player", Player(), N_("Who bids.")),
                 Param("bid", Bid(), N_("How many tricks they will take."), private=bid_is_secret)],
         lambda at: {"type": "bid", "player": at.args["player"], "bid": at.args["bid"], "round": at.full["round"]},
         help=N_("Bid secretly: in the shell `bid Ann` asks Ann on the private screen; on a phone, a button."),
         allowed=_may_bid, done=_bid, phone=N_("Your bid"), verb=N_("Bid"), examples=["bid Ann"]),
    Move("tricks", [Param("player", Player(), N_("Whose tricks.")),
                    Param("tricks", Number(0, lambda at: at.state["round"], what=N_("tricks taken")),
                          N_("How many tricks they took."))],
         lambda at: {"type": "tricks", "player": at.args["player"], "tricks": at.args["tricks"]},
         help=N_("Record the tricks a player took this round: `tricks Ann 1`."),
         allowed=_may_report, before=lambda state: {"round": state["round"]}, done=_taken, phone=N_("Tricks taken")),
]
NEW = {"tricks": new}
PLAYTHROUGH = {"tricks": ["new tricks --players Ann,Bob,Cy", "bid Ann 1", "bid Bob 0", "status", "bid Cy 0",
                          "tricks Ann 1", "tricks Bob 0", "tricks Cy 0", "status"]}
