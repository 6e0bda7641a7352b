"""`companion sync`: a data folder shared by several laptops through a sync engine (issue 30).

The group holds the commands about the folder's laptops and what they wrote: the folder's layout
(``status``, ``setup``: companion.terminal.sync_folder) and, with the session half, ``resolve``.
"""

from __future__ import annotations

import click

from companion.terminal.sync_folder import setup, status


@click.group()
def sync() -> None:
    """A data folder shared by several laptops (Syncthing, Nextcloud, Dropbox): forks and layout."""


sync.add_command(status)
sync.add_command(setup)
