"""The csv export: one row per player per session, safe to open in a spreadsheet."""

from __future__ import annotations

import csv
import io
from typing import Any

from companion.core.store import Store
from companion.record.players import Roster
from companion.record.plays import plays

# the columns of release 0.1 first, in their order; issue 23's after them
CSV_COLUMNS = ["session", "game", "date", "player", "seat", "score", "rank", "winner", "finished",
               "abandoned", "location", "notes", "title", "bgg_id", "team", "role", "start_player", "minutes",
               "coop"]
# A spreadsheet runs a cell starting with one of these as a formula (CSV injection): such text
# cells are written with a leading ' so they stay text. Numbers we write ourselves are numbers.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """A CSV cell a spreadsheet shows as text: text starting like a formula gets a leading '."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def export_csv(store: Store, entries: list[dict], roster: Roster, excel: bool = False) -> str:
    """session, game, date, player, seat, score, rank, winner, finished, ...: one row per player.

    ``excel``: UTF-8 with a byte order mark and CRLF line ends (RFC 4180), so Excel and
    LibreOffice open it with every name intact without asking for the character set."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n" if excel else "\n")
    writer.writerow(CSV_COLUMNS)
    for play in plays(store, entries, roster):
        for seat, name in enumerate(play.seats, 1):
            score = play.scores.get(name)
            writer.writerow([safe_cell(c) for c in (
                play.id, play.game if play.game in _game_ids() else "scoresheet", play.date, name, seat,
                "" if score is None else score,
                play.ranks.get(name, "") if play.finished else "",
                int(name in play.winners) if play.finished else "", int(play.finished),
                int(play.abandoned is not None), play.location, " | ".join(play.notes),
                play.title, play.bgg_id or "", play.team_of(name), play.roles.get(name, ""),
                int(name == play.start), "" if play.minutes is None else play.minutes, int(play.coop))])
    return ("\ufeff" if excel else "") + buf.getvalue()


def _game_ids() -> set[str]:
    from companion.core import registry

    return set(registry.known())
