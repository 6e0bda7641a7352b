"""`export` of the history: the sessions chosen (`--game`, `--player`, one id), written in one of
the history's formats (companion.record.formats), and the sessions in play whose secret seed
an export would carry."""

from __future__ import annotations

import io
from typing import Iterable

from companion.contract.language import _
from companion.contract.errors import CompanionError
from companion.core import session as sessions
from companion.core.store import Store
from companion.record import formats
from companion.record import stats as history
from companion.record.players import Roster, load_aliases


def selection(store: Store, roster: Roster, game: str | None = None, player: str | None = None,
              entries: list[dict] | None = None) -> list[dict]:
    """The index entries `export --game/--player` picks (refusing an unknown game or player)."""
    from companion.record.players import shown_players

    entries = sessions.index(store) if entries is None else entries
    game = history.check_game(game, entries)
    shown = roster.find(player, shown_players(entries, roster).values()) if player is not None else None
    return history.select(entries, roster, game, shown)


def export(store: Store, fmt: str, game: str | None = None, player: str | None = None,
           only: str | None = None, excel: bool = False) -> tuple[str, list[dict]]:
    """The export text in ``fmt`` and the entries it holds (``only``: one session's id); bytes
    for a format that writes a file (xlsx)."""
    found = formats.FORMATS.get(fmt)
    buf = io.BytesIO() if found is not None and found.binary else io.StringIO()
    entries = export_to(store, fmt, buf, game, player, only, excel)
    return buf.getvalue(), entries



def export_to(store: Store, fmt: str, out, game: str | None = None, player: str | None = None,
              only: str | None = None, excel: bool = False) -> list[dict]:
    """Write the export in ``fmt`` (a format of the whole history: json, csv, bgg) to the text
    stream ``out``; returns the entries it holds. The index is read once (issue 23: it was read
    twice)."""
    found = formats.FORMATS.get(fmt)
    if found is None:
        raise CompanionError(_("There is no export format {format}: choose {formats}.").format(
            format=repr(fmt), formats=", ".join(formats.NAMES)))
    if found.writes != formats.HISTORY:
        raise CompanionError(_("The export format {format} writes one play, not a history: export it with "
                               "`export ID --format {name}`, or choose {formats}.").format(
            format=repr(fmt), name=fmt, formats=", ".join(formats.names(formats.HISTORY))))

    aliases = load_aliases(store)
    everyone = sessions.index(store)
    roster = Roster(aliases, everyone)
    entries = selection(store, roster, game, player, everyone)
    if only is not None:
        entries = [e for e in entries if e["id"] == only]
    found.write(formats.History(store, entries, everyone, aliases, roster, excel), out)
    return entries


def unfinished_dealt(store: Store, entries: Iterable[dict]) -> list[str]:
    """Sessions in play whose secret seed an export carries (it would show every hand)."""
    from companion.core import registry as games

    out = []
    for e in entries:
        if history.finished(e):
            continue
        try:
            if games.get(e["game"]).deals:
                out.append(e["id"])
        except CompanionError:
            continue
    return out
