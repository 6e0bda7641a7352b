"""The two pages: what every page shows (the public state) and what each adds.

The table page: scores with bars, the round, whose turn and what comes next, and the game's
public view. A player's page: the same public state, the choice waiting for the player (if
any), and the game's private view of that player. Which private view goes on which page is
decided here and only here: the table page never asks a game for a private view.
"""

from __future__ import annotations

from companion.web import pages


def _module(session):
    return session.game.web_module()


def headline(session, replay, status: dict) -> list[str]:
    """One or two lines under the heading: the round, whose turn, what comes next."""
    module = _module(session)
    lines = getattr(module, "headline", None)
    if lines:
        return list(lines(session, replay, status))
    return [f"Round {status.get('round')}"]


def result_lines(status: dict) -> list[str]:
    if not status.get("finished"):
        return []
    winners = status.get("winners") or []
    who = " and ".join(winners) if winners else "nobody"
    return [f"The game is over: {who} {'win' if len(winners) > 1 else 'wins'}."]


def goal(session, status: dict):
    fn = getattr(_module(session), "score_goal", None)
    return fn(status) if fn else None


def revealed_hands(session, replay, status: dict) -> list[str]:
    """At the end of a game with secrets, every hand, shown on every page."""
    fn = getattr(_module(session), "revealed_view", None)
    if not status.get("finished") or not fn:
        return []
    return [pages.block(b) for b in fn(session, replay)]


def table_page(session, replay, version: str) -> str:
    status = session.status(replay)
    game = session.game
    sections = [pages.score_bars(status, goal(session, status))]
    sections += revealed_hands(session, replay, status)
    sections += [pages.block(b) for b in game.public_view(session, replay)]
    lines = result_lines(status) + headline(session, replay, status)
    return pages.page(title=f"{game.title}: the table", heading=f"{game.title}: the table", lines=lines,
                      version=version, sections=sections)


def player_page(session, replay, player: str, version: str, form_token: str, action: str,
                extra: str = "") -> str:
    status = session.status(replay)
    game = session.game
    sections = [extra] if extra else []
    offer = None if status.get("finished") else game.choice(session, replay, player)
    if offer:
        sections.append(pages.choice_form(action, form_token, offer))
    sections += [pages.block(b) for b in game.private_view(session, replay, player)]
    sections.append(pages.score_bars(status, goal(session, status)))
    sections += revealed_hands(session, replay, status)
    sections += [pages.block(b) for b in game.public_view(session, replay) if not b.get("table_only")]
    lines = result_lines(status) + headline(session, replay, status)
    return pages.page(title=f"{player}: {game.title}", heading=f"{player} · {game.title}", lines=lines,
                      version=version, sections=sections)
