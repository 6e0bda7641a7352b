"""What Yacht shows, as data: the companion lays it out for the terminal and the pages."""

from __future__ import annotations

from companion.contract.view import Cmd, Line, Table, winners
from companion.games.kit import said
from yacht_companion.text import _


def status_view(at) -> list:
    status, seats = at.status, at.status["players"]
    rows = [[box, *(p["sheet"].get(box, "") for p in seats)] for box in at.data["categories"]]
    return [Line(_("Session {id} · {title}").format(id=at.session.id, title=_(at.game.title))),
            Table([_("box"), *(p["name"] for p in seats)], rows + [[_("total"), *(p["score"] for p in seats)]],
                  right=range(1, 1 + len(seats))),
            *(winners(status) or [Line(*said(_("Next: {command}."), command=Cmd(f"score {status['turn']} BOX DICE")))])]


def next_action(status: dict) -> str:
    return "" if status["finished"] else f"score {status['turn']} BOX DICE"
