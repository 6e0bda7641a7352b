"""What Tally shows, as data: the pad, a row per category, play and final points apart."""

from __future__ import annotations

from companion.contract.view import Cmd, Line, Table, winners


def status_view(at) -> list:
    status, seats = at.status, at.status["players"]
    rows = [[box, *(f"{p['play'][box]} + {(p['final'] or {}).get(box, 0)}" if p["final"] else p["play"][box]
                    for p in seats)] for box in status["categories"]]
    rows.append(["total", *(p["score"] for p in seats)])
    due = [p["name"] for p in seats if p["final"] is None]
    nxt = Line("Next: ", Cmd("final NAME CATEGORY=POINTS ..."), f" for {', '.join(due)}.") if status["final_scoring"] \
        else Line("In play: ", Cmd("score NAME CATEGORY POINTS"), "; at the end ", Cmd("final NAME CATEGORY=POINTS ..."), ".")
    return [Line(f"Session {at.session.id} · {at.game.title}" + (" · final scoring" if status["final_scoring"] else "")),
            Table(["category", *(p["name"] for p in seats)], rows, right=range(1, 1 + len(seats))),
            *(winners(status) or [nxt])]


def next_action(status: dict) -> str:
    return "" if status["finished"] else ("final NAME CATEGORY=POINTS ..." if status["final_scoring"]
                                          else "score NAME CATEGORY POINTS")
