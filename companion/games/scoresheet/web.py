"""The score sheet on the phones (`companion serve`): the table of rounds, on every page."""

from __future__ import annotations


def headline(session, replay, status: dict) -> list[str]:
    target = status.get("target")
    aim = f" · {'lowest' if status.get('lowest_wins') else 'first to'} {target}" if target else ""
    return [f"After round {status['round']}{aim}"]


def score_goal(status: dict):
    return None if status.get("lowest_wins") else status.get("target")


def public_view(session, replay) -> list[dict]:
    status = session.status(replay)
    players = status["players"]
    rounds = max((len(p["rounds"]) for p in players), default=0)
    rows = [[f"Round {n + 1}", *[p["rounds"][n] for p in players]] for n in range(rounds)]
    rows.append(["Total", *[p["score"] for p in players]])
    return [{"kind": "table", "title": "The score sheet", "head": ["", *[p["name"] for p in players]],
             "rows": rows, "wide": True}]


def private_view(session, replay, player: str) -> list[dict]:
    return []
