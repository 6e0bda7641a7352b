"""The record's numbers and dates as the viewer writes them (issue 28): the tables of `stats`,
`players` and `report`, and their pages.

English keeps the forms it always printed (2026-12-04, 68.5, 25.0), so its output is unchanged;
German writes 4. Dezember 2026 and 68,5 (through :mod:`companion.contract.written`). Imports
nothing of the record, so any of its modules can use it.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from companion.contract.language import _, language
from companion.contract.written import long_date, number


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def day(text: Any) -> str:
    """A stored calendar date (YYYY-MM-DD, perhaps with a time) as the viewer writes it:
    unchanged in English, 4. Dezember 2026 in German; anything else as it is."""
    if language() == "en" or not isinstance(text, str):
        return "" if text is None else str(text)
    try:
        return long_date(date.fromisoformat(text[:10])) + text[10:].replace("T", " ")
    except ValueError:
        return text


def day_and_time(moment) -> str:
    """A moment as the viewer writes it: 2026-12-04 20:15 in English (as it always was),
    4. Dezember 2026, 20:15 in German."""
    if language() == "en":
        return moment.strftime("%Y-%m-%d %H:%M")
    return _("{date}, {time}").format(date=long_date(moment.date()), time=moment.strftime("%H:%M"))


def as_written(value: Any) -> Any:
    """A stored number as the viewer writes it (German: 68,5), anything else as it is; English
    unchanged (its tables printed the stored value)."""
    return number(value) if language() != "en" and is_number(value) else value


def short(value: Any) -> str:
    """A number of the tables (an average, a tick) in at most six figures, as ``:g`` wrote it
    (68.5 / 68,5); "" for none."""
    if value is None:
        return ""
    if language() == "en" or not is_number(value):
        return f"{value:g}" if isinstance(value, float) else str(value)
    text = f"{value:g}" if isinstance(value, float) else str(value)
    return number(float(text)) if "e" not in text else number(value)


def percent(rate: float) -> str:
    """A win rate as a percentage: 68% / 68 %."""
    return _("{percent}%").format(percent=round(100 * rate))


def one_decimal(value: float) -> str:
    """A rating with one decimal always (25.0 / 25,0)."""
    return f"{value:.1f}".replace(".", number(0.5)[1])
