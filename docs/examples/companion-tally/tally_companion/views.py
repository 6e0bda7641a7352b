"""What Tally shows, as data: the pad, a row per category, play and final points apart."""

from __future__ import annotations

from companion.contract.view import Cmd, Line, Table, winners
from companion.games.kit import said
from tally_companion.text import _


def status_view(at) -> list:
    status, seats = at.status, at.status["players"]
    rows = [[box, *(f"{p['play'][box]} + {(p['final'] or {}).get(box, 0)}" if p["final"] else p["play"][box]
                    for p in seats)] for box in status["categories"]]
    rows.append([_("total"), *(p["score"] for p in seats)])
    due = [p["name"] for p in seats if p["final"] is None]
    final = Cmd("final NAME CATEGORY=POINTS ...")
    nxt = Line(*said(_("Next: {command} for {names}."), command=final, names=", ".join(due))) if status["final_scoring"] \
        else Line(*said(_("In play: {score}; at the end {final}."), score=Cmd("score NAME CATEGORY POINTS"), final=final))
    head = (_("Session {id} · {title} · final scoring") if status["final_scoring"] else _("Session {id} · {title}"))
    return [Line(head.format(id=at.session.id, title=_(at.game.title))),
            Table([_("category"), *(p["name"] for p in seats)], rows, right=range(1, 1 + len(seats))),
            *(winners(status) or [nxt])]


def next_action(status: dict) -> str:
    return "" if status["finished"] else ("final NAME CATEGORY=POINTS ..." if status["final_scoring"]
                                          else "score NAME CATEGORY POINTS")
