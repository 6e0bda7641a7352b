"""Terminal tables, bars and charts, as text, so commands print them with click.echo."""

from __future__ import annotations

from companion.contract.language import N_, _, ngettext  # noqa: F401

import re
from typing import Any, Callable, Iterable, Sequence

from companion.contract.text import Pattern


class Drawn(str):
    """Text the renderer laid out and coloured itself (a board): it is printed as it is, its
    own colour codes included, by :func:`echo_drawn`; never wrapped again (its widths are the
    screen's already) and never taken apart by the filter that makes data safe."""


def colour_wanted(interactive: bool = False, stream=None) -> bool:
    """Whether to colour what is drawn: on a terminal (or in the shell), unless ``NO_COLOR`` is
    set (https://no-color.org) or the terminal is ``dumb``; ``FORCE_COLOR`` colours anyway."""
    import os
    import sys

    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    stream = stream if stream is not None else sys.stdout
    try:
        return bool(interactive) or bool(stream.isatty())
    except (AttributeError, ValueError):
        return bool(interactive)


def echo_drawn(text: str) -> None:
    """Print a drawing: its colour codes reach the terminal, every other control character is
    shown as an escape (:func:`companion.contract.text.safe_drawing`). Plain text goes through
    ``click.echo`` as usual."""
    import sys

    import click

    from companion.contract.text import safe_drawing

    stream = sys.stdout
    write = getattr(stream, "write_drawn", None)
    if write is None:
        click.echo(safe_drawing(text))
        return
    write(safe_drawing(text) + "\n")
    stream.flush()


def terminal_width(stream) -> int | None:
    """The width of the terminal ``stream`` writes to (at least 20), or None when it is not a
    terminal, or one that reports no size (0 columns)."""
    import os

    try:
        if stream is not None and stream.isatty():
            columns = os.get_terminal_size(stream.fileno()).columns
            if columns > 0:
                return max(columns, 20)
    except (OSError, ValueError, AttributeError):
        pass
    return None


def screen_width() -> int:
    """Columns to fit output into: the terminal's width on a terminal; elsewhere (a pipe, a
    file, tests, a terminal that reports no size) the ``COLUMNS`` environment variable when it
    is set, else 80."""
    import os
    import sys

    width = terminal_width(sys.stdout)
    if width is not None:
        return width
    try:
        return max(int(os.environ.get("COLUMNS", "")), 20)
    except ValueError:
        return 80


# Letters that take one column each and never join another: printable Latin (Zoë, Bjørn, Łukasz),
# Greek and Cyrillic (but the Cyrillic combining signs U+0483-U+0489), and the punctuation,
# arrows, signs, lines and blocks the screens draw with (— … → ≈ ━ ═ █ ◆: without them a
# screen holding one imported wcwidth, 15 ms, issue 27), as wcwidth counts them
# (tests/test_name_width.py checks every one). Compiled on first use (see __getattr__): the
# pattern costs a twentieth of a `status`, whose texts are mostly printable Latin, which
# _width counts without it.
_ONE_COLUMN_EACH = ("[ -~\u00a0-\u02ff\u0370-\u0482\u048a-\u052f"
                    "\u2010-\u2027\u2030-\u205f\u2100-\u2319\u2500-\u25fc]*")


def __getattr__(name: str):
    """``ONE_COLUMN_EACH``, compiled on first use (PEP 562)."""
    if name == "ONE_COLUMN_EACH":
        pattern = globals()[name] = re.compile(_ONE_COLUMN_EACH)
        return pattern
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _width(text: str) -> int:
    """Columns a string takes on a terminal, as wcwidth counts them (issue 29): a wide East
    Asian character two, a combining accent or an Indic vowel sign none (`अंजलि` is 4), a family
    emoji joined by zero-width joiners 2. A control character counts as the escape that
    :func:`companion.contract.text.safe_text` shows for it."""
    # nearly every cell: one column a character (printable and below U+0300, the combining
    # accents, is within ONE_COLUMN_EACH without asking it)
    if text.isascii() or (max(text) < "\u0300" and text.isprintable()):
        return len(text)
    if (globals().get("ONE_COLUMN_EACH") or __getattr__("ONE_COLUMN_EACH")).fullmatch(text):
        return len(text)
    from wcwidth import wcswidth  # 15 ms to import (80 under load): only for the other scripts

    width = wcswidth(text)
    if width < 0:  # a control character: wcwidth has no width for it
        from companion.contract.text import safe_text

        width = wcswidth(safe_text(text))
    if width < 0:
        from wcwidth import wcwidth

        width = sum(max(wcwidth(c), 0) for c in text)
    return width


def _joins_previous(c: str) -> bool:
    """A character drawn together with the one before it (a combining mark, a vowel sign, a
    zero-width joiner or a variation selector): a cut never falls just before it."""
    from wcwidth import wcwidth

    return not c.isascii() and wcwidth(c) == 0


def cut(text: str, width: int) -> str:
    """``text`` in at most ``width`` columns, cut with "…" when longer (a cell never wraps),
    never between a letter and its accent, nor inside an emoji joined by zero-width joiners."""
    if _width(text) <= width:
        return text
    low, high = 0, len(text)  # the longest start that fits beside the "…" (widths grow with it)
    while low < high:
        mid = (low + high + 1) // 2
        if _width(text[:mid]) <= width - 1:
            low = mid
        else:
            high = mid - 1
    while 0 < low < len(text) and (_joins_previous(text[low]) or text[low - 1] == "\u200d"):
        low -= 1
    return text[:low] + "…"


def wrap(text: str, width: int | None = None, indent: str = "  ") -> str:
    """Every line longer than ``width`` broken at spaces or after a hyphen (between the
    junctions of a path), never inside a name: a junction like C11-Madrid breaks only as
    "C11-" / "Madrid", and :func:`whole` keeps a city like St. Louis on one line. The
    continuation is indented under the line's own start plus ``indent``. A command to type,
    between backquotes, moves to the next line whole when it fits on one, so it can be copied
    as it is. Lines that fit are left as they are."""
    width = width or screen_width()
    out = []
    for line in text.split("\n"):
        if _width(line) <= width:
            out.append(line)
            continue
        lead = line[: len(line) - len(line.lstrip(" "))]
        pad = lead + indent
        current = lead
        gap = ""
        for word in _words(line[len(lead):], width - _width(pad)):
            if word.startswith(" "):
                gap = word  # kept as typed inside a line, dropped where the line breaks
                continue
            # a word too long for a line of its own (a path of junctions) breaks after hyphens
            pieces = _HYPHENS.findall(word) if _width(pad + word) > width else [word]
            for n, piece in enumerate(pieces):
                sep = gap if n == 0 and current.strip() else ""
                if current.strip() and _width(current + sep + piece) > width:
                    out.append(current.rstrip())
                    current, sep = pad, ""
                current += sep + piece
            gap = ""
        if current.strip():
            out.append(current.rstrip())
    return "\n".join(out).replace(KEEP, " ")


_HYPHENS = Pattern(r"[^-]+-*|-+")  # a path's junctions, each with the hyphen after it
_WORDS = Pattern(r"(?:[^ `]|`[^`]*`)+|[^ ]+| +")  # a `command to type` counts as one word


def _words(text: str, room: int) -> list[str]:
    """The words and runs of spaces of ``text``: a backquoted command is one word when it fits
    in ``room`` columns, else its words are (it cannot be kept whole anyway)."""
    out = []
    for word in _WORDS.findall(text):
        if "`" in word and " " in word and _width(word) > room:
            out += _runs(word)
        else:
            out.append(word)
    return out


KEEP = "\u00a0"  # a space that never breaks a line: inside a city's name, or `R3 12` in a list


def whole(name: str) -> str:
    """A name that :func:`wrap` never breaks (its spaces become no-break spaces until then)."""
    return name.replace(" ", KEEP)


def keep_whole(text: str, names: Iterable[str]) -> str:
    """``text`` with each of ``names`` (a city, a ship, a player) kept whole by :func:`wrap`;
    the longest first, so "CITY OF NEW YORK" wins over "NEW YORK"."""
    for name in sorted({n for n in names if " " in n}, key=len, reverse=True):
        if name in text:
            text = text.replace(name, whole(name))
    return text


GAP = 3  # spaces between table columns
NARROW = 40  # below this many columns a table becomes a plain list


def table(headers: Sequence[str], rows: Iterable[Sequence[Any]], title: str | None = None,
          right: Iterable[int] = (), width: int | None = None, droppable: Iterable[int] = ()) -> str:
    """A plain table: a header, a rule, aligned columns; columns in ``right`` right-aligned.

    It fits ``width`` (default: :func:`screen_width`): first the ``droppable`` columns (say, a
    score sheet's rounds) are left out from the earliest on, a "…" column saying so, so the
    latest rounds and the totals stay; then the widest text columns are narrowed, their long
    cells cut with "…" (never wrapped); below 40 columns it is a plain list, one row a line.

    Built by hand: listings can hold thousands of rows (10,000 sessions), where a layout
    library spent about a millisecond per row; this costs microseconds.
    """
    width = width or screen_width()
    right = set(right)
    text = {str}
    cells = [[str(h) for h in headers]] + [
        row if type(row) is list and set(map(type, row)) <= text else ["" if c is None else str(c) for c in row]
        for row in rows]  # rows of text already (a listing of 50,000) are taken as they are
    if width < NARROW:
        return _plain_list(cells, title, width)
    # nearly every listing is plain ASCII: then a column is as wide as its longest text, and a
    # row is laid out with str methods (50,000 sessions: 0.5 s less)
    plain = all(map(str.isascii, (c for r in cells for c in r)))
    measure = len if plain else _width
    widths = {i: max(map(measure, (r[i] for r in cells))) for i in range(len(headers))}
    cells, keep, fits = _fit_columns(cells, widths, len(headers),
                                     [i for i in range(len(headers)) if i in set(droppable)], right, width)
    if not fits:
        return _plain_list([[r[i] for i in keep] for r in cells], title, width)
    line = _ascii_row(keep, widths, right) if plain else _row(keep, widths, right)
    body = [line(cells[0]), "─" * _span(keep, widths)] + [line(r) for r in cells[1:]]
    return "\n".join(([wrap(title, width)] if title else []) + body)


def _span(cols: list[int], widths: dict[int, int]) -> int:
    return sum(widths[i] for i in cols) + GAP * (len(cols) - 1)


def _fit_columns(cells: list[list[str]], widths: dict[int, int], count: int, drop: list[int], right: set[int],
                 width: int) -> tuple[list[list[str]], list[int], bool]:
    """The cells, the columns kept so that a table fits ``width`` (``widths`` narrowed in
    place), and whether a table fits at all (else a plain list of the kept columns): the
    droppable columns go first, the earliest first, behind a "…" column; then the text columns
    share what is left."""
    keep = list(range(count))
    dropped = False
    if drop and _span(keep, widths) > width:
        while drop and _span(keep, widths) + 1 + GAP > width:
            keep.remove(drop.pop(0))  # the earliest first: the last rounds stay in view
            dropped = True
    if dropped:
        at = keep.index(drop[0]) if drop else len(keep)
        cells = [r + ["…" if n == 0 else ""] for n, r in enumerate(cells)]
        widths[count] = 1
        keep.insert(at, count)
    if _span(keep, widths) > width:
        # the text columns share what is left, the widest giving way first (a common cap),
        # so a long value and a long source both stay readable
        narrowable = [i for i in keep if i not in right]
        fixed = _span(keep, widths) - sum(widths[i] for i in narrowable)
        room = width - fixed
        if not narrowable or room < 6 * len(narrowable):
            return cells, keep, False
        cap = max(widths[i] for i in narrowable)
        while sum(min(widths[i], cap) for i in narrowable) > room:
            cap -= 1
        for i in narrowable:
            widths[i] = min(widths[i], cap)
    return cells, keep, True


def _row(keep: list[int], widths: dict[int, int], right: set[int]) -> Callable[[list[str]], str]:
    def line(row: list[str]) -> str:
        out = []
        for i in keep:
            cell = cut(row[i], widths[i])
            pad = " " * (widths[i] - _width(cell))
            out.append(pad + cell if i in right else cell + pad)
        return (" " * GAP).join(out).rstrip()

    return line


def _ascii_row(keep: list[int], widths: dict[int, int], right: set[int]) -> Callable[[list[str]], str]:
    """The same layout as :func:`_row`, with str methods, for ASCII cells."""
    columns = [(i, widths[i], i in right) for i in keep]
    gap = " " * GAP

    def line(row: list[str]) -> str:
        out = []
        for i, w, r in columns:
            cell = row[i]
            if len(cell) > w:
                out.append(cell[:w - 1] + "…")
            else:
                out.append(cell.rjust(w) if r else cell.ljust(w))
        return gap.join(out).rstrip()

    return line


def _plain_list(cells: list[list[str]], title: str | None, width: int) -> str:
    """A table as a list for a narrow screen: each row its first cell, then `header value`."""
    headers, rows = cells[0], cells[1:]
    out = [wrap(title, width)] if title else []
    for row in rows:
        first = row[0] or "·"
        # a no-break space holds each header to its value; plain spaces come back after wrapping
        rest = [f"{h}{KEEP}{v}".strip() if h else v for h, v in zip(headers[1:], row[1:]) if v]
        out.append(wrap(f"{first}: " + ", ".join(rest) if rest else first, width))
    return "\n".join(out)


def bar(value: float, target: float, width: int = 26, full: str = "█", empty: str = "·") -> str:
    """A bar of ``value`` toward ``target`` (clipped to the width)."""
    if target <= 0:
        return ""
    filled = max(0, min(width, round(width * value / target)))
    return full * filled + empty * (width - filled)


def sparkline(values: Sequence[float], lo: float | None = None, hi: float | None = None) -> str:
    """A one-line chart of a series (empty for no values).

    ``lo``/``hi`` give the chart's scale: every line of one chart must share it, or 7 and 14
    both reach the top. Without them the series' own range is used (one series alone).
    """
    ticks = "▁▂▃▄▅▆▇█"
    if not values:
        return ""
    lo = min(values) if lo is None else lo
    hi = max(values) if hi is None else hi
    if hi == lo:
        return ticks[3] * len(values)
    return "".join(ticks[max(0, min(7, round((v - lo) * (len(ticks) - 1) / (hi - lo))))] for v in values)


def scale_words(lo: float, hi: float) -> str:
    """How a chart's scale is printed beside it: `▁ = 0 … █ = 52`."""
    from companion.contract.written import number

    return f"▁ = {number(float(f'{lo:g}'))} … █ = {number(float(f'{hi:g}'))}"


def points(value) -> str:
    """Points as the viewer writes them: 68,5 in German; whole numbers as they are kept."""
    if isinstance(value, float) and not value.is_integer():
        from companion.contract.written import number

        return number(value)
    return str(value)


def players_line(status: dict) -> str:
    """`Ann 12 · Bob 7 · Cy 9`: the scores in seat order."""
    return " · ".join(p["name"] if p.get("score") is None and "rank" not in p else
                      f"{p['name']} #{p['rank']}" if p.get("score") is None else f"{p['name']} {points(p.get('score', 0))}"
                      for p in status.get("players", []))


def winners_line(status: dict) -> str:
    winners = status.get("winners") or []
    if not status.get("finished"):
        return ""
    if status.get("coop"):
        return _("Game over: won together.") if status.get("won") else _("Game over: lost together.")
    team = next((t for t in status.get("teams") or [] if set(t) == set(winners)), None)
    if team is not None:
        return _("Game over: the team of {names} wins.").format(names=", ".join(team))
    if not winners:
        return _("Game over: nobody wins.")
    if len(winners) == 1:
        return _("Game over: {name} wins.").format(name=winners[0])
    return _("Game over: shared win for {names}.").format(names=", ".join(winners))


# -- drawing view models (companion.contract.view) ------------------------------------------------------
#
# The one place a screen becomes terminal text: its width, wrapping between words (never inside a
# name or a command that fits a line), colour (or none: NO_COLOR, a pipe), and every name from data
# made safe. Games build views; nothing else here knows a game.

def _style_words(style: str) -> str:
    """A view's style names (see companion.contract.view) as words: ``bold yellow``, ``bold #e6194b``."""
    from companion.contract.view import COLOURS, player_colour

    out = []
    for part in style.split("+"):
        part = part.strip()
        if not part:
            continue
        kind, _colon, value = part.partition(":")
        if kind == "player" and value.isdigit():
            out.append(f"bold {player_colour(int(value))}")
        elif kind == "colour":
            out.append(f"bold {COLOURS.get(value, value) if not value.startswith('#') else value}")
        else:
            out.append(STYLE_NAMES.get(part, ""))
    return " ".join(o for o in out if o)


STYLE_NAMES = {
    "strong": "bold", "muted": "dim", "dim": "dim", "warn": "bold yellow", "error": "bold red", "good": "green",
    "code": "cyan", "title": "bold", "reverse": "reverse", "line": "grey50", "double": "bold",
    "disputed": "bold", "water": "bold bright_cyan", "mountain": "bold grey70", "route": "bold magenta",
    "built": "bold white",
}

# The Select Graphic Rendition codes of those words, written here (issue 29): rich, with
# Pygments and markdown-it-py (13 MB of the install), was a dependency for this table alone.
SGR_ATTRIBUTES = {"bold": "1", "dim": "2", "reverse": "7"}  # in this order, then the colour
SGR_COLOURS = {"red": "31", "green": "32", "yellow": "33", "magenta": "35", "cyan": "36", "white": "37",
               "bright_cyan": "96", "grey50": "38;5;244", "grey70": "38;5;249"}


def colour_256(hex_colour: str) -> str:
    """``#rrggbb`` as the nearest of a terminal's 256 colours (``38;5;N``): a grey (saturation
    under 15%) on the 24-step grey ramp, any other colour in the 6x6x6 cube."""
    import colorsys

    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    _hue, light, saturation = colorsys.rgb_to_hls(r / 255, g / 255, b / 255)
    if saturation < 0.15:
        grey = round(light * 25.0)
        return f"38;5;{16 if grey == 0 else 231 if grey == 25 else 231 + grey}"

    def six(v: int) -> int:
        return round(v / 95 if v < 95 else 1 + (v - 95) / 40)

    return f"38;5;{16 + 36 * six(r) + 6 * six(g) + six(b)}"


HEX = Pattern("#[0-9a-fA-F]{6}")


def sgr(style: str) -> str:
    """A view's style as SGR parameters (``1;38;5;161``), or "" for none: the attributes in a
    fixed order, then the last colour named."""
    words = _style_words(style).split()
    attributes = [code for word, code in SGR_ATTRIBUTES.items() if word in words]
    colours = [SGR_COLOURS[w] if w in SGR_COLOURS else colour_256(w) for w in words
               if w in SGR_COLOURS or HEX.fullmatch(w)]
    return ";".join(attributes + colours[-1:])


class _Painter:
    """Turns (text, style) runs into text with colour codes, or plain when colour is off."""

    def __init__(self, colour: bool):
        self.colour = colour
        self._cache: dict[str, tuple[str, str]] = {}

    def paint(self, text: str, style: str) -> str:
        from companion.contract.text import safe_text

        text = safe_text(text)
        if not self.colour or not style or not text:
            return text
        codes = self._cache.get(style)
        if codes is None:
            parameters = sgr(style)
            codes = (f"\x1b[{parameters}m", "\x1b[0m") if parameters else ("", "")
            self._cache[style] = codes
        return f"{codes[0]}{text}{codes[1]}" if codes[0] else text


def _runs(text: str) -> list[str]:
    """``re.findall(r" +|[^ ]+", text)``: the words of ``text`` and the runs of spaces between
    them, without a pattern compiled at every `status` (0.4 M instructions, issue 27)."""
    out: list[str] = []
    gap = ""
    for n, word in enumerate(text.split(" ")):
        if n:
            gap += " "
        if word:
            if gap:
                out.append(gap)
                gap = ""
            out.append(word)
    if gap:
        out.append(gap)
    return out


def _tokens(line) -> list[tuple[str, str, bool]]:
    """A Line as (text, style, whole) tokens: plain parts split at spaces (the spaces kept as
    their own tokens), names and commands whole."""
    from companion.contract.view import Cmd, Em, Name

    out: list[tuple[str, str, bool]] = []
    base = line.style
    for part in line.parts:
        if isinstance(part, Name):
            out.append((str(part), base, True))
        elif isinstance(part, Cmd):
            out.append((f"`{part}`", "+".join(s for s in (base, "code") if s), True))
        elif isinstance(part, Em):
            style = "+".join(s for s in (base, part.style) if s)
            if part.whole:
                out.append((str(part), style, True))
            else:
                out += [(w, style, False) for w in _runs(str(part))]
        else:
            out += [(w, base, False) for w in _runs(str(part))]
    return out


def _wrap_tokens(tokens: list[tuple[str, str, bool]], width: int, indent: str) -> list[list[tuple[str, str]]]:
    """Lines of (text, style) runs no wider than ``width``: breaks at spaces only (tokens with
    no space between them are one word); a whole token longer than a line is broken at its
    spaces, a plain word longer than a line after its hyphens (a path of junctions)."""
    # leading spaces of the line stay (an indented list item), and continuations go under them
    lead = ""
    while tokens and tokens[0][0].isspace() and not tokens[0][2]:
        lead += tokens.pop(0)[0]
    pad = lead + indent
    rows: list[list[tuple[str, str]]] = [[(lead, "")] if lead else []]
    used = _width(lead)
    gap: tuple[str, str] | None = None

    def new_row():
        nonlocal used
        rows.append([(pad, "")])
        used = _width(pad)

    items: list[tuple[str, str]] = []
    for text, style, keep in tokens:
        if text.isspace() and not keep:
            items.append(("\0" + text, style))  # a gap: kept inside a line, dropped at a break
            continue
        room = width - _width(pad)
        if _width(text) > room:
            pieces = re.findall(r"[^ ]+ *", text) if keep else _HYPHENS.findall(text)
            pieces = [p for p in pieces if p]
            if keep and len(pieces) > 1:
                for n, piece in enumerate(pieces):
                    stripped = piece.rstrip(" ")
                    items.append((stripped, style))
                    if n < len(pieces) - 1:
                        items.append(("\0 ", style))
                continue
            items += [(p, style) for p in (pieces if not keep else [text])]
            continue
        items.append((text, style))
    # tokens with no gap between them are one word ("(`build Ann ...`),", a name and its comma,
    # a path of names): it moves to the next line whole, and only a word longer than a line is
    # broken, between its tokens (after a hyphen, at a name's spaces)
    words: list[tuple[tuple[str, str] | None, list[tuple[str, str]]]] = []
    for text, style in items:
        if text.startswith("\0"):
            gap = (text[1:], style)
            continue
        if words and gap is None:
            words[-1][1].append((text, style))
        else:
            words.append((gap, [(text, style)]))
        gap = None
    for gap, pieces in words:
        w = sum(_width(t) for t, _ in pieces)
        has_words = any(t.strip() for t, _ in rows[-1])
        sep = gap if (gap and has_words) else None
        first = w if w <= width - _width(pad) else _width(pieces[0][0])
        if has_words and used + (_width(sep[0]) if sep else 0) + first > width:
            new_row()
            sep = None
        if sep:
            rows[-1].append(sep)
            used += _width(sep[0])
        for n, (text, style) in enumerate(pieces):
            tw = _width(text)
            if n and used + tw > width and any(t.strip() for t, _ in rows[-1]):
                new_row()
            rows[-1].append((text, style))
            used += tw
    return [r for r in rows if any(t.strip() for t, _ in r)] or [[]]


class _Drawing:
    """One view being drawn: a method per kind of block, each appending rows to ``out``."""

    def __init__(self, width: int, colour: bool, viewer: str | None, private: bool):
        from companion.contract import view as v

        self.v, self.width, self.viewer, self.private = v, width, viewer, private
        self.painter = _Painter(colour)
        self.out: list[str] = []

    def line(self, line) -> None:
        for row in _wrap_tokens(_tokens(line), self.width, line.indent):
            self.out.append(self.runs(row).rstrip())

    def title(self, b) -> None:
        if b.title:
            self.line(self.v.Line(b.title))

    def runs(self, row) -> str:
        """Paint a row's runs, neighbours of one style as one."""
        merged: list[list[str]] = []
        for t, s in row:
            if merged and merged[-1][1] == s:
                merged[-1][0] += t
            else:
                merged.append([t, s])
        return "".join(self.painter.paint(t, s) for t, s in merged)

    def cell(self, value) -> str:
        if isinstance(value, self.v.Bar):
            return bar(value.value, value.goal or 1, width=value.width)
        return "" if value is None else str(value)

    def block(self, b) -> None:
        if isinstance(b, str):
            self.line(self.v.Line(b))
            return
        drawer = getattr(self, "draw_" + str(getattr(b, "kind", None)), None)
        if drawer is not None:  # svg: pages only
            drawer(b)

    def draw_line(self, b) -> None:
        self.line(b)

    def draw_table(self, b) -> None:
        from companion.contract.text import safe_text

        if not b.rows and b.empty:
            self.title(b)
            self.line(self.v.Line(b.empty))
            return
        head, rows = [safe_text(str(h)) for h in b.head], [[safe_text(self.cell(c)) for c in row] for row in b.rows]
        if b.narrow is not None and max(map(_width, table(head, rows, width=10_000).split("\n"))) > self.width:
            for sub in b.narrow:  # too wide whole: the table's other layout
                self.block(sub)
            return
        text = table(head, rows, title=safe_text(b.title) if b.title else None, right=b.right, width=self.width,
                     droppable=b.droppable)
        self.out.extend(text.split("\n"))

    def draw_facts(self, b) -> None:
        self.title(b)
        for label, value in b.items:
            self.line(self.v.Line(f"  {label}: ", *(value if isinstance(value, list) else [self.cell(value)]),
                                  indent="    "))

    def draw_items(self, b) -> None:
        self.title(b)
        if not b.items and b.empty:
            self.line(self.v.Line("  " + b.empty))
        for item in b.items:
            if isinstance(item, self.v.Line):
                self.line(self.v.Line("  ", *item.parts, style=item.style, indent="  " + item.indent))
            else:
                self.line(self.v.Line(f"  {item}"))

    def draw_art(self, b) -> None:
        self.title(b)
        for row in b.rows:
            self.out.append(self.runs(row).rstrip())

    def draw_section(self, b) -> None:
        if b.where == "page":
            return
        self.title(b)
        for sub in b.blocks:
            self.block(sub)

    def draw_private(self, b) -> None:
        if self.private and (self.viewer is None or self.viewer == b.owner):
            for sub in b.blocks:
                self.block(sub)


def draw(view, width: int | None = None, colour: bool = False, viewer: str | None = None,
         private: bool = True) -> str:
    """A view (a list of blocks, companion.contract.view) as terminal text ``width`` columns wide;
    with ``colour``, with the renderer's own colour codes (print it with :func:`echo_drawn`).
    ``private`` False leaves out every Private block (they go to the private screen)."""
    drawing = _Drawing(width or screen_width(), colour, viewer, private)
    for b in view:
        drawing.block(b)
    return "\n".join(drawing.out)


def _takes_three(fn) -> bool:
    """Whether a private-screen callable takes what it shows as a third argument (the shell's
    and a terminal's do; one written for a test or a plugin may take only owner and text)."""
    import inspect

    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return False
    return len(params) >= 3 or any(p.kind is p.VAR_POSITIONAL for p in params)


def show(view, private=None, stream=None) -> None:
    """Print a view: the shared part on the screen (in colour on a terminal, unless NO_COLOR),
    each Private part on its owner's private screen when ``private(owner, text)`` is given (the
    shell, a terminal), else printed with the rest (a pipe, `--print`)."""
    import click

    colour = colour_wanted()
    shared: list = []
    for block in view:
        if getattr(block, "kind", None) == "private" and private is not None:
            if shared:
                _print(draw(shared, colour=colour), colour)
                shared = []
            shows = getattr(block, "shows", "")
            if shows and _takes_three(private):  # what is shown, for the hand-over's words
                private(block.owner, draw(block.blocks, colour=False), shows)
            else:
                private(block.owner, draw(block.blocks, colour=False))
        else:
            shared.append(block)
    if shared:
        text = draw(shared, colour=colour)
        if text:
            _print(text, colour)
    elif not view:
        click.echo("", nl=False)


def _print(text: str, colour: bool) -> None:
    import click

    if colour and "\x1b[" in text:
        echo_drawn(text)
    else:
        click.echo(text)
