"""The two pages, made from the game's own views: the table page and each player's page.

The table page: the scores with bars, and the game's ``status_view`` for the table (viewer
None: the game's ``view(state, None)`` holds nothing private). A player's page: the moves that
player may make now (their forms, from the game's declared moves), the same status view for
that player (their own private blocks included), and the scores. The pages are the terminal's
screens drawn as HTML: a game writes neither.
"""

from __future__ import annotations

from companion.web import pages


def _views(session):
    from companion.core import registry

    return registry.parts(session.meta["game"])


def result_lines(status: dict) -> list[str]:
    if not status.get("finished"):
        return []
    winners = status.get("winners") or []
    who = " and ".join(winners) if winners else "nobody"
    return [f"The game is over: {who} {'win' if len(winners) > 1 else 'wins'}."]


def bgstats_section(session, replay, qr: bool) -> list[str]:
    """Once the game is over: "Add to BG Stats", a link that opens BG Stats' import dialog on
    the phone, with its QR code on the table's page (a TV: a phone scans it). Issue 23."""
    from html import escape

    if not replay.finished or replay.abandoned:
        return []
    from companion.core.errors import CompanionError
    from companion.record import bgstats

    try:
        link = bgstats.link(bgstats.play(session, replay))
    except CompanionError:
        return []
    code = f"<div class=\"qr\">{bgstats.qr_svg(link)}</div>" if qr else ""
    return [f"<section><h2>Add to BG Stats</h2><p><a href=\"{escape(link)}\">Add this play to BG Stats</a></p>"
            f"{code}</section>"]


def goal(session, status: dict):
    fn = _views(session).get("score_goal")
    return fn(status) if fn else None


def status_blocks(session, replay, viewer: str | None, host=None) -> list[str]:
    from companion.games.declare import At

    view = _views(session).views.status_view(At(session, replay, viewer, host=host))
    return pages.blocks(view, viewer)


def table_page(session, replay, version: str) -> str:
    status = session.status(replay)
    game = session.game
    sections = [pages.score_bars(status, goal(session, status))]
    sections += status_blocks(session, replay, None)
    sections += bgstats_section(session, replay, qr=True)
    return pages.page(title=f"{game.title}: the table", heading=f"{game.title}: the table",
                      lines=result_lines(status), version=version, sections=sections)


def player_page(session, replay, player: str, version: str, form_token: str, action: str,
                extra: str = "") -> str:
    from companion.games.declare import At, offers

    status = session.status(replay)
    game = session.game
    sections = [extra] if extra else []
    moves = _views(session).get("MOVES") or []
    for move, choices in offers(moves, At(session, replay, player), player):
        sections.append(pages.move_form(action, form_token, move, choices))
    sections += status_blocks(session, replay, player)
    sections.append(pages.score_bars(status, goal(session, status)))
    sections += bgstats_section(session, replay, qr=False)
    return pages.page(title=f"{player}: {game.title}", heading=f"{player} · {game.title}",
                      lines=result_lines(status), version=version, sections=sections)
