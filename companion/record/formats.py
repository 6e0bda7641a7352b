"""The export formats, declared once: each one's name, its line of help, what it writes (the
whole history, or one play) and its writer. `export` takes its `--format` choices and their
help from here, `exporting.export_to` its refusal, and tests/test_export_formats.py keeps
docs/history.md listing exactly these.

A new format is one :class:`Format` in :data:`FORMATS` and its writer (imported only when that
format is written, so the command's help stays quick). A history format's writer takes the
:class:`History` chosen and a text stream; a play format's takes BG Stats' play of one session
(companion.record.bgstats.play) and returns the text.
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple

HISTORY = "history"  # the sessions chosen by `--game`, `--player` or an id
PLAY = "play"  # one play, of the session given or the current one


class History(NamedTuple):
    """What a history format is written from: the sessions chosen, the whole index, the names."""

    store: Any
    entries: list[dict]
    everyone: list[dict]
    aliases: dict[str, str]
    roster: Any
    excel: bool = False


class Format(NamedTuple):
    name: str
    help: str  # one line, after "NAME: " in `export --help`
    writes: str  # HISTORY or PLAY
    write: Callable
    binary: bool = False  # writes bytes (a file, or `-o -`), never text to a terminal


def _json(chosen: History, out) -> None:
    from companion.record.json_export import write_json

    write_json(chosen.store, chosen.entries, chosen.aliases, out)


def _csv(chosen: History, out) -> None:
    from companion.record.csv_export import export_csv

    out.write(export_csv(chosen.store, chosen.entries, chosen.roster, chosen.excel))


def _xlsx(chosen: History, out) -> None:
    from companion.record.xlsx_export import write_xlsx

    write_xlsx(chosen.store, chosen.entries, chosen.roster, out)


def _bgg(chosen: History, out) -> None:
    from companion.record.bgg_export import export_bgg

    out.write(export_bgg(chosen.store, chosen.entries, chosen.roster, chosen.everyone))


def _bgstats(play: dict) -> str:
    from companion.record import bgstats

    return bgstats.text(play)


def _bgstats_link(play: dict) -> str:
    from companion.record import bgstats

    return bgstats.link(play) + "\n"


FORMATS: dict[str, Format] = {f.name: f for f in (
    Format("json", "everything, for `import`", HISTORY, _json),
    Format("csv", "one row per player per session", HISTORY, _csv),
    Format("xlsx", "the csv's rows as a spreadsheet, with typed numbers, dates and text", HISTORY, _xlsx, True),

    Format("bgg", "BoardGameGeek play XML", HISTORY, _bgg),
    Format("bgstats", "one finished play's JSON for BG Stats", PLAY, _bgstats),
    Format("bgstats-link", "the link that adds it to BG Stats", PLAY, _bgstats_link),
)}
NAMES = tuple(FORMATS)


def names(writes: str | None = None) -> tuple[str, ...]:
    """The formats' names, in their order (``writes``: only those writing HISTORY or a PLAY)."""
    return tuple(f.name for f in FORMATS.values() if writes is None or f.writes == writes)


def help_text() -> str:
    """`export --format`'s help: each format's name and its line."""
    return "; ".join(f"{f.name}: {f.help}" for f in FORMATS.values()) + "."
