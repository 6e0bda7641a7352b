"""Transatlantic on the phones (`companion serve`): the market and docks for the table, each
player's ships, docks bonus and final-scoring lines on their own page.

Fleets are public at the table (the ships lie open in front of their owners), so nothing here
is secret; the player's page gathers what concerns that player.
"""

from __future__ import annotations

from companion.core.errors import CompanionError


def headline(session, replay, status: dict) -> list[str]:
    if status.get("finished"):
        return []
    lines = [f"Round {status['round']} · {status['current']}'s turn" if status.get("current")
             else f"Round {status['round']}"]
    end = status.get("end")
    if end:
        lines.append(f"The end is triggered (by {end['by']}): {end['turns_left']} turns left, then final scoring.")
    return lines


def public_view(session, replay) -> list[dict]:
    state, data = replay.state, replay.data
    game = session.game
    try:
        rows = game.market_rows(state, data)
    except CompanionError:
        rows = []
    market = []
    for r in rows:
        total = r.get("total")
        market.append([r.get("position"), r.get("ship") or "-", r.get("kind") or "", r.get("flag") or "",
                       r.get("year") or "", "?" if total is None else f"£{total}"])
    status = session.status(replay)
    docks_value = status.get("docks_value") or {}
    return [
        {"kind": "table", "title": "The market", "head": ["#", "Ship", "Kind", "Flag", "Year", "Price"],
         "rows": market, "empty": "The market is empty."},
        {"kind": "table", "title": "The docks", "head": ["Ship"], "rows": [[d] for d in status.get("docks") or []],
         "empty": "No ship in the docks yet."},
        {"kind": "facts", "title": "Docks bonus per flag",
         "items": [[flag, f"+{n} VP per ship"] for flag, n in docks_value.items()] or [["-", "none yet"]]},
        {"kind": "facts", "title": "The stack", "items": [["Left", status.get("stack")]]},
    ]


def private_view(session, replay, player: str) -> list[dict]:
    status = session.status(replay)
    me = next(p for p in status["players"] if p["name"] == player)
    state = replay.state
    docks = status.get("docks_value") or {}
    ships = []
    for name in me.get("ships") or []:
        flag = (state["ships"].get(name) or {}).get("flag")
        ships.append([name, flag or "", f"+{docks.get(flag, 0)}" if flag else ""])
    blocks = [
        {"kind": "table", "title": "Your ships", "head": ["Ship", "Flag", "Docks bonus"], "rows": ships,
         "empty": "No ships yet."},
        {"kind": "facts", "title": "You", "items": [["VP during play", me.get("play_vp")],
                                                    ["Scrapped", ", ".join(me.get("scrapped") or []) or "none"]]},
    ]
    final = me.get("final")
    if final:
        lines = [[k.replace("_", " "), v] for k, v in final.items() if not isinstance(v, (list, dict))]
        blocks.append({"kind": "facts", "title": "Your final scoring", "items": lines})
    return blocks


def revealed_view(session, replay) -> list[dict]:
    return []
