"""Atlantic Star on the phones (`companion serve`): the agency and each sea's ranking for the
table; each player's money, hand size, plaques left and places on their own page."""

from __future__ import annotations


def headline(session, replay, status: dict) -> list[str]:
    if status.get("finished") or not status.get("turn"):
        return [f"Round {status.get('round')}"]
    may = ", ".join(status.get("may") or [])
    return [f"Round {status['round']} · {status['turn']}'s turn" + (f" (may: {may})" if may else "")]


def _marks(n) -> str:
    return f"{n:,} marks" if isinstance(n, int) else str(n)


def public_view(session, replay) -> list[dict]:
    status = session.status(replay)
    agency = [[_marks(a.get("price")), a.get("card") or "-"] for a in status.get("agency") or []]
    seas = []
    for sea, info in (status.get("seas") or {}).items():
        ranking = ", ".join(f"{n}. {x['owner']} ({x['value']})" + (" loan" if x.get("loan") else "")
                            for n, x in enumerate(info["ranking"], 1))
        seas.append([sea.title(), info.get("class"), ranking or "-"])
    return [
        {"kind": "table", "title": "The charter agency", "head": ["Price", "Ship"], "rows": agency},
        {"kind": "table", "title": "The seas", "head": ["Sea", "Class", "Ranking"], "rows": seas, "wide": True},
    ]


def private_view(session, replay, player: str) -> list[dict]:
    status = session.status(replay)
    me = next(p for p in status["players"] if p["name"] == player)
    places = [[p["sea"].title(), p["class"], p["place"], p["value"], "yes" if p.get("loan") else "", p["points"]]
              for p in me.get("places") or []]
    return [
        {"kind": "facts", "title": "You", "items": [["Money", _marks(me.get("money"))], ["Cards in hand", me.get("hand")],
                                                    ["Plaques left", me.get("plaques_left")]]},
        {"kind": "table", "title": "Your places", "head": ["Sea", "Class", "Place", "Value", "Loan", "Points"],
         "rows": places, "empty": "No plaque on the board yet."},
    ]
