"""The two pages, made from the game's own views: the table page and each player's page.

The table page (a TV): the scores, large, with bars, and the game's ``status_view`` for the
table (viewer None: the game's ``view(state, None)`` holds nothing private). A player's page:
what that player may do now (the forms of the moves the game declared for the phones and
offers them now, or whose turn it is), their last move to take back while nobody has moved
since, the same status view for that player (their own private blocks included), and the
scores. The pages are the terminal's screens drawn as HTML: a game writes neither.
"""

from __future__ import annotations

from companion.contract.language import _, ngettext
from companion.web import history, pages


def _views(session):
    from companion.core import registry

    return registry.parts(session.meta["game"])


def result_lines(status: dict) -> list[str]:
    if not status.get("finished"):
        return []
    winners = status.get("winners") or []
    if not winners:
        return [_("The game is over: nobody wins.")]
    return [ngettext("The game is over: {who} wins.", "The game is over: {who} win.", len(winners))
            .format(who=pages.both(winners))]


def bgstats_section(session, replay, qr: bool, host=None) -> list[str]:
    """Once the game is over: "Add to BG Stats", a link that opens BG Stats' import dialog on
    the phone, with its QR code on the table's page (a TV: a phone scans it). Issue 23. The
    link is `report`'s own (issue 29): names as renamed and merged, the title's id as known now."""
    from html import escape

    if not replay.finished or replay.abandoned:
        return []
    from companion.contract.errors import CompanionError
    from companion.record import bgstats

    try:
        link = bgstats.session_link(host.store if host is not None else None, session, replay)
    except CompanionError:
        return []
    svg = bgstats.qr_svg(link) if qr else None
    code = f"<div class=\"qr\">{svg}</div>" if svg else ""
    if qr and svg is None:  # too long for a code: the link alone, and why (issue 29, D9)
        each = escape(_("Each player's page has it."), quote=False)
        code = f"<p class=\"sub\">{escape(bgstats.too_long(link) or '')} {each}</p>"
    heading, add = escape(_("Add to BG Stats")), escape(_("Add this play to BG Stats"))
    return [f"<section><h2>{heading}</h2><p><a href=\"{escape(link)}\">{add}</a></p>{code}</section>"]


def goal(session, status: dict):
    fn = _views(session).get("score_goal")
    return fn(status) if fn else None


def status_blocks(seen, host=None) -> list[str]:
    """The game's ``status_view`` for the viewer of ``seen`` (companion.contract.exit.Exit)."""
    view = _views(seen.session).views.status_view(seen.at(host=host))
    return pages.blocks(view, seen.viewer)


def table_page(session, replay, version: str, host=None) -> str:
    from companion.contract.exit import Exit

    seen = Exit(session, replay)  # the table's: the score bars and the game's screen alike
    status = seen.status
    game = session.game
    sections = [pages.score_bars(status, goal(session, status), session.players, big=True)]
    sections += [pages.winner(line) for line in result_lines(status)]  # first and large on a TV (issue 31)
    sections += status_blocks(seen, host)
    sections += bgstats_section(session, replay, qr=True, host=host)
    # a score sheet's own title ("Carcassonne", issue 31) is as typed; a game marks its title
    title = _("{game}: the table").format(game=own_title(status, game))
    # the result is said once, first and large (pages.winner): not again under the heading, where
    # it took a line of the TV's one screen (issue 31: a Trans end's last cities below the fold)
    return pages.page(title=title, heading=title, lines=[], version=version, sections=sections, tv=True)


def own_title(status: dict, game) -> str:
    """A score sheet's own title as typed ("Carcassonne", issue 31), else the game's, translated."""
    own = status.get("title")
    return own if own and own != game.title else _(game.title)


def player_page(session, replay, player: str, version: str, token, action: str, extra: str = "",
                view=None, host=None) -> str:
    """``token(move, own, choices)`` is the form token of each move's form (Site.move_token)."""
    from companion.contract.declare import At, last_own, own_moves
    from companion.contract.exit import Exit
    from companion.web import forms

    moves = list(_views(session).get("MOVES") or [])
    seen = Exit(session, replay, player, moves)  # everything this page shows is the player's
    status = seen.status
    game = session.game
    sections = [extra] if extra else []
    from companion.core import plugins

    parts = _views(session)
    moves = list(parts.get("MOVES") or [])
    at = At(session, replay, player, host=host)
    mine, failures = plugins.offers(parts, moves, at, lambda: At(session, replay, player, host=host), player)
    sections += [pages.message(line, "error") for line in failures]  # a plugin's check failed: named

    def form(move, choices) -> str:
        own = own_moves(moves, session.journal, player, move)
        return forms.move_form(at, move, choices, token(move.name, own, choices), action, view)

    now = [(m, c) for m, c in mine if not m.more]
    for move, choices in now:
        sections.append(form(move, choices))
    if not now and not replay.over and any(m.phone for m in moves):
        turn, failure = plugins.bounded(parts, "turn()", lambda: game.turn(replay.state), whose_turn=True)
        sections.append(pages.message(failure, "error") if failure else pages.waiting(turn, player))
    more = [form(m, c) for m, c in mine if m.more]
    if more:
        sections.append(pages.more(more))
    back = last_own(moves, replay.events, player)
    if back:
        said = seen.words(replay.events[-back]["event"])
        sections.append(forms.take_back_form(said, token(forms.TAKE_BACK, replay.count, {}), action))
    sections += status_blocks(seen, host)
    sections.append(pages.score_bars(status, goal(session, status), session.players))
    sections += bgstats_section(session, replay, qr=False, host=host)
    sections.append(history.link())  # the group's history, one tap away (issue 31)
    name = own_title(status, game)
    return pages.page(title=f"{player}: {name}", heading=f"{player} · {name}",
                      lines=result_lines(status), version=version, sections=sections,
                      colour=pages.seat_colour(session.players, player))
