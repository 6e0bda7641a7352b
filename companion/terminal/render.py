"""Terminal tables, bars and charts, as text, so commands print them with click.echo."""

from __future__ import annotations

import io
from typing import Any, Iterable, Sequence


def to_text(renderable: Any, width: int = 100, color: bool = False) -> str:
    """Render a rich renderable to a string (ANSI colours only when ``color``)."""
    from rich.console import Console

    buf = io.StringIO()
    console = Console(file=buf, width=width, force_terminal=color, color_system="standard" if color else None,
                      highlight=False, emoji=False)
    console.print(renderable)
    return "\n".join(line.rstrip() for line in buf.getvalue().rstrip("\n").split("\n"))


def screen_width() -> int:
    """Columns to fit output into: the terminal's width on a terminal; elsewhere (a pipe, a
    file, tests) the ``COLUMNS`` environment variable when it is set, else 80."""
    import os
    import sys

    try:
        if sys.stdout is not None and sys.stdout.isatty():
            return max(os.get_terminal_size(sys.stdout.fileno()).columns, 20)
    except (OSError, ValueError, AttributeError):
        pass
    try:
        return max(int(os.environ.get("COLUMNS", "")), 20)
    except ValueError:
        return 80


def _width(text: str) -> int:
    """Columns a string takes on a terminal (wide East Asian characters take two)."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def table(headers: Sequence[str], rows: Iterable[Sequence[Any]], title: str | None = None,
          right: Iterable[int] = ()) -> str:
    """A plain table: a header, a rule, aligned columns; columns in ``right`` right-aligned.

    Built by hand rather than with rich: listings can hold thousands of rows (10,000
    sessions), where rich spends about a millisecond per row; this costs microseconds.
    """
    right = set(right)
    cells = [[str(h) for h in headers]] + [["" if c is None else str(c) for c in row] for row in rows]
    widths = [max(_width(r[i]) for r in cells) for i in range(len(headers))]

    def line(row: list[str]) -> str:
        out = []
        for i, (cell, w) in enumerate(zip(row, widths)):
            pad = " " * (w - _width(cell))
            out.append(pad + cell if i in right else cell + pad)
        return "   ".join(out).rstrip()

    total = sum(widths) + 3 * (len(widths) - 1)
    body = [line(cells[0]), "─" * total] + [line(r) for r in cells[1:]]
    return "\n".join(([title] if title else []) + body)


def bar(value: float, target: float, width: int = 26, full: str = "█", empty: str = "·") -> str:
    """A bar of ``value`` toward ``target`` (clipped to the width)."""
    if target <= 0:
        return ""
    filled = max(0, min(width, round(width * value / target)))
    return full * filled + empty * (width - filled)


def sparkline(values: Sequence[float]) -> str:
    """A one-line chart of a series (empty for no values)."""
    ticks = "▁▂▃▄▅▆▇█"
    if not values:
        return ""
    lo, hi = min(values), max(values)
    if hi == lo:
        return ticks[3] * len(values)
    return "".join(ticks[round((v - lo) * (len(ticks) - 1) / (hi - lo))] for v in values)


def players_line(status: dict) -> str:
    """`Ann 12 · Bob 7 · Cy 9`: the scores in seat order."""
    return " · ".join(f"{p['name']} {p.get('score', 0)}" for p in status.get("players", []))


def winners_line(status: dict) -> str:
    winners = status.get("winners") or []
    if not status.get("finished"):
        return ""
    if len(winners) == 1:
        return f"Game over: {winners[0]} wins."
    return f"Game over: shared win for {', '.join(winners)}."
