"""`companion sync`: a data folder shared by several laptops through a sync engine (issue 30).

The group holds the commands about the folder's laptops and what they wrote: ``resolve`` here
(a session two laptops continued from the same point: companion.core.forks) and the folder's
layout (``status``, ``setup``: companion.terminal.sync_folder).
"""

from __future__ import annotations

import click

from companion.games.kit import completes, pass_app
from companion.terminal.sync_folder import setup, status


@click.group()
def sync() -> None:
    """A data folder shared by several laptops (Syncthing, Nextcloud, Dropbox): forks and layout."""


sync.add_command(status)
sync.add_command(setup)


@sync.command()
@click.argument("session_id", metavar="ID", shell_complete=completes("sessions"))
@click.option("--keep", metavar="LAPTOP", help="Keep this laptop's branch (its name or id, as `status` names it, or "
                                              "the branch's number there); the others are set aside, never deleted.")
@click.option("--both", is_flag=True, help="Play both branches, the earlier first, where the rules accept it "
                                           "(a score sheet's rounds).")
@pass_app
def resolve(app, session_id: str, keep: str | None, both: bool) -> None:
    """Choose what a forked session keeps: two laptops continued it from the same point."""
    from companion.core import forks

    sid = app.store.resolve(session_id)
    _session, said = forks.resolve(app.store, sid, keep=keep, both=both)
    click.echo(said)
