"""`status`: the current session, as the table sees it.

Its own module, apart from the other commands every game shares (terminal/generic.py), because
it is the command people type most and the one whose start is measured (issue 27): a `status`
imports and builds only its own command, not the dozen others.
"""

from __future__ import annotations

import click

from companion.contract.exit import Exit
from companion.contract.language import N_, _
from companion.core import registry
from companion.games.kit import echo_json, json_option, pass_app, session_option


@click.command(help=N_("Show the current session: round, scores, whose turn, and what is left to do."))
@json_option
@session_option
@pass_app
def status(app, as_json: bool) -> None:
    s = app.session()
    replay = s.replay()
    seen = Exit(s, replay)  # the table's: everything here is made from view(state, None)
    if as_json:
        echo_json(seen.status, "status")
        return
    from companion.contract.view import Line
    from companion.terminal.declared import show

    if replay.played:  # logged from final scores: the game's own screen has nothing
        from companion.terminal.render import players_line, winners_line

        info = seen.status
        show(app, [Line(_("Session {id} · {game} · logged with `played`").format(id=s.id, game=_(s.game.title))),
                   Line(players_line(info)),
                   Line(winners_line(info))])
        return
    view = []
    if s.fork is not None:  # issue 30: both branches named, on every laptop
        from companion.core.forks import describe

        view.append(Line(describe(s.id, s.fork)))
    abandoned = replay.abandoned
    if abandoned:
        reason = abandoned.get("reason")
        view.append(Line(_("Abandoned ({reason}): this game has no result (`undo` takes that back).").format(
            reason=reason) if reason else _("Abandoned: this game has no result (`undo` takes that back).")))
    view += registry.parts(s.meta["game"]).views.status_view(seen.at(host=app))
    if s.revealed and not replay.finished:
        view.append(Line(_("Note: the deal seed was revealed before the end of the game (`verify --reveal`).")))
    show(app, view)
