"""The csv export: one row per player per session, safe to open in a spreadsheet."""

from __future__ import annotations

import csv
import io
from typing import Any

from companion.contract.language import _
from companion.contract.written import number
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


def decimal_comma() -> bool:
    """Whether the viewer writes 47,5 (German): `--excel` then writes what a spreadsheet in that
    language reads without a dialog, `;` between cells and a decimal comma (issue 28)."""
    return number(0.5)[1] == ","


def excel_form_note() -> str:
    """The line after `export --excel` in a language with a decimal comma: the form written, and
    how to get the other one; "" in English."""
    if not decimal_comma():
        return ""
    return _("Note: the file has `;` between cells and a decimal comma (47,5), as a German Excel or LibreOffice "
             "reads it; `--lang en` writes commas and decimal points instead.")


def export_csv(store: Store, entries: list[dict], roster: Roster, excel: bool = False) -> str:
    """session, game, date, player, seat, score, rank, winner, finished, ...: one row per player.

    ``excel``: UTF-8 with a byte order mark and CRLF line ends (RFC 4180), so Excel and
    LibreOffice open it with every name intact without asking for the character set; in a
    language that writes 47,5 (German) with `;` between cells and the decimal comma, as a
    spreadsheet in that language reads a CSV (a comma file lands in one column there, and 47.5
    is text to it). Without ``excel`` the file is the same in every language."""
    buf = io.StringIO()
    comma = excel and decimal_comma()
    writer = csv.writer(buf, lineterminator="\r\n" if excel else "\n", delimiter=";" if comma else ",")
    writer.writerow(CSV_COLUMNS)
    for play in plays(store, entries, roster):
        for seat, name in enumerate(play.seats, 1):
            score = play.scores.get(name)
            row = [safe_cell(c) for c in (
                play.id, play.game if play.game in _game_ids() else "scoresheet", play.date, name, seat,
                "" if score is None else score,
                play.ranks.get(name, "") if play.finished else "",
                int(name in play.winners) if play.finished else "", int(play.finished),
                int(play.abandoned is not None), play.location, " | ".join(play.notes),
                play.title, play.bgg_id or "", play.team_of(name), play.roles.get(name, ""),
                int(name == play.start), "" if play.minutes is None else play.minutes, int(play.coop))]
            if comma and isinstance(score, float):
                row[5] = number(score)  # a number we write ourselves: never guarded (-3,5 stays a number)
            writer.writerow(row)
    return ("\ufeff" if excel else "") + buf.getvalue()


def _game_ids() -> set[str]:
    from companion.core import registry

    return set(registry.known())
