"""What Tricks shows, as data. Everything here reads ``at.status`` and ``at.state``, which the
companion makes from the viewer's own view: on the table's screen a bid still secret is None,
on its bidder's page it is there. Nothing here has to remember which bid may be shown."""

from __future__ import annotations

from companion.contract.view import Cmd, Line, Table, winners


def status_view(at) -> list:
    status = at.status
    seats = status["players"]
    head = Line(f"Session {at.session.id} · {at.game.title} · round {status['round']} of {status['rounds']}")
    rows = [[p["name"], "-" if p["bid"] is None else p["bid"], "-" if p["tricks"] is None else p["tricks"], p["score"]]
            for p in seats]
    out = [head, Table(["player", "bid", "tricks", "score"], rows, right=(1, 2, 3))]
    if status["finished"]:
        return out + winners(status)
    if not status["bids_open"]:
        bid = {p["name"]: p["bid"] for p in seats}
        shown = [f"{name} ({bid[name]} tricks)" if bid[name] is not None else name for name in status["bid_in"]]
        waiting = [p["name"] for p in seats if p["name"] not in status["bid_in"]]
        out.append(Line(f"Bids in: {', '.join(shown) or 'none'}; waiting for {', '.join(waiting)}."))
        out.append(Line("Next: ", Cmd("bid NAME"), " (asked on the private screen)."))
    else:
        out.append(Line("Next: ", Cmd("tricks NAME N"), " for each player once the round is played."))
    return out


def next_action(status: dict) -> str:
    if status["finished"]:
        return ""
    return "tricks NAME N" if status["bids_open"] else "bid NAME"
