"""The xlsx export (issue 28): the csv export's rows as a spreadsheet whose cells carry their
types, so a German or an English Excel or LibreOffice opens it without an import dialog and
reads 47.5 as a number, 2026-03-01 as a date and a name as text, whatever its language.

Text cells are written as text (never a formula, whatever they start with), so no formula
guard is needed, unlike the csv's leading '. openpyxl is imported only here, when an xlsx is
written (it is a dependency of the package: `pip install tabletop-companion` brings it).
"""

from __future__ import annotations

import datetime
from typing import Any

from companion.core.store import Store
from companion.record.csv_export import CSV_COLUMNS, _game_ids
from companion.record.players import Roster
from companion.record.plays import plays

SHEET = "plays"  # the sheet's name, like the columns: read by programs, never translated
WIDTHS = {"session": 10, "game": 14, "date": 12, "player": 16, "location": 18, "notes": 30, "title": 20}


def rows(store: Store, entries: list[dict], roster: Roster):
    """The csv export's rows with typed values: numbers as numbers, the date as a date, None
    for an empty cell; one row per player per session."""
    games = _game_ids()
    for play in plays(store, entries, roster):
        for seat, name in enumerate(play.seats, 1):
            score = play.scores.get(name)
            yield [play.id, play.game if play.game in games else "scoresheet", _date(play.date), name, seat,
                   score, play.ranks.get(name) if play.finished else None,
                   int(name in play.winners) if play.finished else None, int(play.finished),
                   int(play.abandoned is not None), play.location or None, " | ".join(play.notes) or None,
                   play.title or None, play.bgg_id or None, play.team_of(name) or None,
                   play.roles.get(name) or None, int(name == play.start), play.minutes, int(play.coop)]


def _date(text: str) -> Any:
    try:
        return datetime.date.fromisoformat(text[:10])
    except (TypeError, ValueError):
        return text or None


def write_xlsx(store: Store, entries: list[dict], roster: Roster, out) -> None:
    """Write the workbook to the binary stream ``out`` (one sheet, its header row frozen)."""
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
    from openpyxl.utils import get_column_letter

    book = Workbook(write_only=True)
    sheet = book.create_sheet(SHEET)
    sheet.freeze_panes = "A2"
    for n, column in enumerate(CSV_COLUMNS, 1):
        sheet.column_dimensions[get_column_letter(n)].width = WIDTHS.get(column, 9)

    def cell(value: Any):
        if isinstance(value, str):
            value = ILLEGAL_CHARACTERS_RE.sub("", value)
            if not value.startswith("="):
                return value  # text as it is (openpyxl reads only "=..." as a formula)
            c = WriteOnlyCell(sheet, value=value)
            c.data_type = "s"  # text, even "=1+1": never a formula
            return c
        if isinstance(value, datetime.date):
            c = WriteOnlyCell(sheet, value=value)
            c.number_format = "yyyy-mm-dd"
            return c
        return value  # a number or None (an empty cell)


    sheet.append([cell(c) for c in CSV_COLUMNS])
    for row in rows(store, entries, roster):
        sheet.append([cell(v) for v in row])
    book.save(out)
