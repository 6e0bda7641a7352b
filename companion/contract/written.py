"""Numbers and dates as the viewer writes them (issue 28): 68.5 and 4 December 2026 in English,
68,5 and 4. Dezember 2026 in German.

Babel's ``format_decimal`` and ``format_date`` are the reference (tests/test_language_forms.py
checks these against them over many values); the two languages' forms are small enough to write
here, so a status line formats its points without loading Babel's locale data, and the package
needs no Babel to run.
"""

from __future__ import annotations

import datetime

from companion.contract.language import language, pgettext

# (decimal sign, group sign) per language
_SIGNS = {"en": (".", ","), "de": (",", ".")}


def number(value, grouped: bool = False) -> str:
    """``value`` (an int or a float of points) written in the viewer's language: ``68,5`` in
    German; ``grouped`` puts the group signs in (``1.234`` / ``1,234``)."""
    decimal, group = _SIGNS.get(language(), _SIGNS["en"])
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        value = int(value)
    text = f"{value:,}" if grouped else f"{value}"
    if isinstance(value, float) and "e" in text.lower():
        text = f"{value:,.6f}" if grouped else f"{value:.6f}"
        text = text.rstrip("0").rstrip(".")
    if decimal == ".":
        return text
    return text.replace(",", "\0").replace(".", decimal).replace("\0", group)


def month(n: int) -> str:
    """The name of month ``n`` (1-12) in the viewer's language."""
    return (pgettext("month", "January"), pgettext("month", "February"), pgettext("month", "March"),
            pgettext("month", "April"), pgettext("month", "May"), pgettext("month", "June"),
            pgettext("month", "July"), pgettext("month", "August"), pgettext("month", "September"),
            pgettext("month", "October"), pgettext("month", "November"),
            pgettext("month", "December"))[n - 1]


def long_date(day: datetime.date) -> str:
    """``4 December 2026`` / ``4. Dezember 2026`` (Babel's long date of en_GB and de_DE)."""
    if language() == "de":
        return f"{day.day}. {month(day.month)} {day.year}"
    return f"{day.day} {month(day.month)} {day.year}"
