"""What Tricks shows, as data. Everything here reads ``at.status`` and ``at.state``, which the
companion makes from the viewer's own view: on the table's screen a bid still secret is None,
on its bidder's page it is there. Nothing here has to remember which bid may be shown."""

from __future__ import annotations

from companion.contract.view import Cmd, Line, Table, winners
from companion.games.kit import said
from tricks_companion.text import _


def status_view(at) -> list:
    status = at.status
    seats = status["players"]
    head = Line(_("Session {id} · {title} · round {round} of {rounds}").format(
        id=at.session.id, title=_(at.game.title), round=status["round"], rounds=status["rounds"]))
    rows = [[p["name"], "-" if p["bid"] is None else p["bid"], "-" if p["tricks"] is None else p["tricks"], p["score"]]
            for p in seats]
    out = [head, Table([_("player"), _("bid"), _("tricks"), _("score")], rows, right=(1, 2, 3))]
    if status["finished"]:
        return out + winners(status)
    if not status["bids_open"]:
        bid = {p["name"]: p["bid"] for p in seats}
        shown = [_("{name} ({bid} tricks)").format(name=name, bid=bid[name]) if bid[name] is not None else name
                 for name in status["bid_in"]]
        waiting = [p["name"] for p in seats if p["name"] not in status["bid_in"]]
        out.append(Line(_("Bids in: {bids}; waiting for {waiting}.").format(bids=", ".join(shown) or _("none"),
                                                                             waiting=", ".join(waiting))))
        out.append(Line(*said(_("Next: {command} (asked on the private screen)."), command=Cmd("bid NAME"))))
    else:
        out.append(Line(*said(_("Next: {command} for each player once the round is played."),
                              command=Cmd("tricks NAME N"))))
    return out


def next_action(status: dict) -> str:
    if status["finished"]:
        return ""
    return "tricks NAME N" if status["bids_open"] else "bid NAME"
