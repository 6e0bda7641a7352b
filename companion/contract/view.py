"""Screens as data: what a game shows, never how a terminal or a page draws it.

A view is a list of blocks. A game builds its screens (``status``, the board, the market ...)
from these and nothing else; the terminal's renderer (``companion.terminal.render.draw``) lays
them out to the screen's width, wraps them between words, colours them and makes every name
from data safe, and the web (``companion.web.pages``) draws the same blocks as HTML. So no game
writes a terminal code, wraps a line or escapes a name itself.

Blocks:

- :class:`Line`: a paragraph of parts, wrapped between words. A part is a plain ``str`` (it
  may break at its spaces), a :class:`Name` (a player, a city, a ship: never broken), a
  :class:`Cmd` (a command to type: kept whole, shown between backquotes) or an :class:`Em`
  (text with a style);
- :class:`Table`: a header and rows; cells are values, parts, or :class:`Bar` (a score bar);
- :class:`Facts`: label and value pairs; :class:`Items`: a list;
- :class:`Art`: a drawing, rows of (text, style) runs (the Trans board);
- :class:`Svg`: a drawing for pages only (trusted markup the game built from its board);
- :class:`Tap`: a drawing a page lets its viewer tap to choose a move's value (a board);
- :class:`Section`: blocks under a title (a card on a page);
- :class:`Private`: blocks only ``owner`` may see: a page that is not the owner's leaves them
  out, and the terminal shows them on the private screen.

Styles are names, not codes: ``strong``, ``muted``, ``warn``, ``error``, ``good``, ``code``,
``player:N`` (the player in seat N, 0-based), ``colour:NAME`` (a colour of :data:`COLOURS`), the
board's ``line``, ``double``, ``disputed``, ``water``, ``mountain``, ``route``, ``built``,
``dim``, ``reverse``; several join with ``+`` (``strong+colour:red``).

Plain classes (no dataclasses): ``status`` imports this, and start-up counts.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

# Colours a view may name (the cities' and flags' colours), as RGB: the terminal takes the
# nearest of its 256 colours, pages use them as they are.
COLOURS = {
    "yellow": "#e8c220", "red": "#d33a2c", "orange": "#f08a24", "green": "#3f9a3f", "blue": "#2f6fd0",
    "white": "#f4f4f4", "pink": "#e879b5", "brown": "#8a5a35", "turquoise": "#2bb5b0", "grey": "#888888",
    "black": "#222222", "purple": "#8048c0",
}
# The players' colours by seat: the same on every page, in the terminal and in reports.
PLAYER_COLOURS = ("#e6194b", "#4363d8", "#3cb44b", "#f58231", "#911eb4", "#42d4f4")


def player_colour(seat: int) -> str:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


class Name(str):
    """A name kept whole when a line wraps (``St. Louis``, ``CITY OF NEW YORK``)."""

    __slots__ = ()


class Cmd(str):
    """A command to type (``round start``): kept whole when it fits a line, shown between
    backquotes on a terminal and as code on a page."""

    __slots__ = ()


class Em(str):
    """Text in a style (see the module's docstring), kept whole when ``whole``."""

    __slots__ = ("style", "whole")

    def __new__(cls, text: Any, style: str = "strong", whole: bool = False):
        obj = super().__new__(cls, str(text))
        obj.style, obj.whole = style, whole
        return obj


class Line:
    """A paragraph. ``indent`` is what its continuation lines start with, after the line's own
    leading spaces."""

    __slots__ = ("parts", "style", "indent")
    kind = "line"

    def __init__(self, *parts: Any, style: str = "", indent: str = "  "):
        self.parts = tuple(p if isinstance(p, str) else str(p) for p in parts if p is not None and p != "")
        self.style, self.indent = style, indent

    @property
    def text(self) -> str:
        """The paragraph as plain text, commands between backquotes."""
        return "".join(f"`{p}`" if isinstance(p, Cmd) else p for p in self.parts)

    def __repr__(self) -> str:
        return f"Line({self.text!r})"


class Bar:
    """A value toward a goal, drawn as a bar (``goal`` None: toward the largest in its column)."""

    __slots__ = ("value", "goal", "width", "style")

    def __init__(self, value: float, goal: float | None = None, width: int = 13, style: str = ""):
        self.value, self.goal, self.width, self.style = value, goal, width, style


class Table:
    """Columns in ``right`` are right-aligned; ``droppable`` ones (a score sheet's rounds) may be
    left out, the earliest first, when the screen is too narrow. ``narrow``: blocks a terminal
    draws instead when the whole table is wider than the screen (a board's columns, one below
    the other); pages keep the table."""

    __slots__ = ("head", "rows", "title", "right", "droppable", "empty", "wide", "narrow")
    kind = "table"

    def __init__(self, head: Sequence[Any], rows: Iterable[Sequence[Any]], title: str | None = None,
                 right: Iterable[int] = (), droppable: Iterable[int] = (), empty: str | None = None,
                 wide: bool = False, narrow: Iterable[Any] | None = None):
        self.head, self.rows, self.title = list(head), [list(r) for r in rows], title
        self.right, self.droppable = tuple(right), tuple(droppable)
        self.empty, self.wide = empty, wide
        self.narrow = None if narrow is None else list(narrow)


class Facts:
    __slots__ = ("items", "title")
    kind = "facts"

    def __init__(self, items: Iterable[tuple[Any, Any]], title: str | None = None):
        self.items, self.title = [tuple(i) for i in items], title


class Items:
    __slots__ = ("items", "title", "empty")
    kind = "items"

    def __init__(self, items: Iterable[Any], title: str | None = None, empty: str | None = None):
        self.items, self.title, self.empty = list(items), title, empty


class Art:
    """A drawing: ``rows`` of runs ``(text, style)``, already laid out by the game (a board
    keeps its shape: it is never wrapped)."""

    __slots__ = ("rows", "title")
    kind = "art"

    def __init__(self, rows: Sequence[Sequence[tuple[str, str]]], title: str | None = None):
        self.rows, self.title = [list(r) for r in rows], title

    @property
    def text(self) -> str:
        return "\n".join("".join(t for t, _ in row).rstrip() for row in self.rows)


class Svg:
    """A drawing for pages only: markup the game built and escaped itself."""

    __slots__ = ("markup", "title")
    kind = "svg"

    def __init__(self, markup: str, title: str | None = None):
        self.markup, self.title = markup, title


TAP_ZOOMS = (1, 2, 4, 8)  # how close a page may show a Tap: the whole drawing, then 2, 4, 8 times closer
TAP_SHAPE = 320 / 336  # a zoomed Tap's height per width on a phone's page (the whole one keeps its own)


def tap_fits(zoom: int, width: float, height: float, w: float, h: float) -> bool:
    """Whether a part ``w`` by ``h`` of a Tap ``width`` by ``height`` fits on a phone at ``zoom``."""
    vw = width / zoom
    return w <= vw and h <= min(height, vw * TAP_SHAPE)


class Tap:
    """A drawing a page lets its viewer tap to choose a value of a move (the Trans board): pages
    only, made by the parameter's kind (``Kind.tap``).

    ``markup`` is the drawing's SVG elements (trusted: the game escaped it) in its own units, 0
    to ``width`` by 0 to ``height``; ``targets`` are what may be tapped: ``(value, note, where)``
    with ``where`` a point ``(x, y)`` (a junction) or a segment ``(x1, y1, x2, y2)`` (a line);
    ``quick`` are values worth a button of their own beside it (a player's own cities for the
    start marker). The page fits the drawing to a phone, zooms and pans it (``focus``: the
    point to zoom around first, ``zoom``: how close to start), and posts the point tapped: the
    one target within reach is the value chosen, else the nearest few are offered to pick
    from. ``label`` says what is drawn, for those who cannot see it. Pages draw it; a terminal
    never does."""

    __slots__ = ("markup", "width", "height", "targets", "focus", "zoom", "title", "label", "quick")
    kind = "tap"

    def __init__(self, markup: Any, width: float, height: float, targets: Sequence[tuple[str, str, tuple]],
                 focus: tuple[float, float] | None = None, zoom: int = 1, title: str | None = None,
                 label: str = "the board", quick: Sequence[str] = ()):
        self.markup, self.width, self.height = markup, width, height
        self.targets, self.focus, self.zoom, self.title, self.label = list(targets), focus, zoom, title, label
        self.quick = list(quick)


class Section:
    """Blocks under a title: a paragraph group on a terminal, a card on a page. ``where``:
    ``both``, ``page`` (pages only) or ``terminal``; ``wide``: the whole width of a page."""

    __slots__ = ("blocks", "title", "where", "wide")
    kind = "section"

    def __init__(self, blocks: Iterable[Any], title: str | None = None, where: str = "both", wide: bool = False):
        self.blocks, self.title, self.where, self.wide = list(blocks), title, where, wide


class Private:
    """Blocks only ``owner`` may see (a hand, a route naming its cities); ``shows`` names them
    for the hand-over ("the cards", "the route": "Pass the laptop to Ann, then press Enter to
    show the route")."""

    __slots__ = ("owner", "blocks", "shows")
    kind = "private"

    def __init__(self, owner: str, blocks: Iterable[Any], shows: str = ""):
        self.owner, self.blocks, self.shows = owner, list(blocks), shows


View = list  # a list of blocks
BLOCKS = (Line, Table, Facts, Items, Art, Svg, Tap, Section, Private)


def lines(*texts: Any) -> list[Line]:
    """Several one-part paragraphs (plain text that may break at spaces)."""
    return [t if isinstance(t, Line) else Line(t) for t in texts if t]


def _fields(text: str) -> list[str]:
    """``re.split(r"\\{(\\w+)((?:![rs])?(?::[^{}]*)?)\\}", text)``: the text between the
    placeholders, each placeholder's name and its conversion and format spec, in turn; read
    with str methods, as a `status` would otherwise compile that pattern at every start (0.4 M
    instructions, issue 27). What is not a placeholder (``{}``, ``{a.b}``) stays text."""
    out: list[str] = []
    start, end = 0, len(text)
    at = text.find("{")
    while at != -1:
        k = at + 1
        while k < end and (text[k].isalnum() or text[k] == "_"):  # \w+
            k += 1
        name_end = k
        if k > at + 1:
            if text.startswith(("!r", "!s"), k):
                k += 2
            if k < end and text[k] == ":":
                k += 1
                while k < end and text[k] not in "{}":
                    k += 1
            if k < end and text[k] == "}":
                out += [text[start:at], text[at + 1:name_end], text[name_end:k]]
                start = k + 1
                at = text.find("{", start)
                continue
        at = text.find("{", at + 1)
    out.append(text[start:])
    return out


def message(template: str, **values: Any) -> list[Any]:
    """A translated sentence as a line's parts, its values where the translation puts them
    (issue 28): ``Line(*message(_("{name} builds next."), name=Name("Ann")))``. A value keeps its
    type (a Name stays whole, an Em keeps its style; a list's parts go in as they are); a
    ``{count:+d}`` is formatted as ``str.format`` would; a `command` between backquotes becomes
    a :class:`Cmd`, its placeholders filled in (`build {name} ...`). So no sentence is glued
    from pieces a translation could not reorder."""
    out: list[Any] = []
    for j, text in enumerate(template.split("`")):
        if j % 2:
            out.append(Cmd(text.format(**values)))
            continue
        pieces = _fields(text)
        for i in range(0, len(pieces), 3):
            if pieces[i]:
                out.append(pieces[i])
            if i + 1 < len(pieces):
                value, spec = values[pieces[i + 1]], pieces[i + 2]
                if isinstance(value, (list, tuple)):
                    out += [v for v in value if v is not None and v != ""]
                elif spec or not isinstance(value, str):
                    out.append(("{0" + spec + "}").format(value))
                else:
                    out.append(value)
    return out


def joined(items: Iterable[Any], sep: str = ", ", last: str | None = None) -> list[Any]:
    """Parts of a list in words: ``joined([Name("Ann"), Name("Bob")], last=" and ")``."""
    items = list(items)
    out: list[Any] = []
    for i, item in enumerate(items):
        if i:
            out.append(last if last is not None and i == len(items) - 1 else sep)
        out.append(item)
    return out


def names(items: Iterable[str], sep: str = ", ", last: str | None = None) -> list[Any]:
    """``joined`` of names, each kept whole."""
    return joined((Name(i) for i in items), sep, last)


def winners(status: dict) -> list[Line]:
    """`Game over: Ann wins.` (or a shared win) once the game is over, else nothing."""
    won = status.get("winners") or []
    if not status.get("finished"):
        return []
    if status.get("coop"):  # everyone together (issue 23)
        return [Line("Game over: won together." if status.get("won") else "Game over: lost together.")]
    team = next((t for t in status.get("teams") or [] if set(t) == set(won)), None)
    if team is not None:
        return [Line("Game over: the team of ", *names(team), " wins.")]
    if not won:
        return [Line("Game over: nobody wins.")]
    if len(won) == 1:
        return [Line("Game over: ", Name(won[0]), " wins.")]
    return [Line("Game over: shared win for ", *names(won), ".")]


def plain(view: Iterable[Any]) -> str:
    """A view's words without layout (for a test or a search of what a screen says)."""
    out: list[str] = []
    for block in view:
        kind = getattr(block, "kind", None)
        if kind == "line":
            out.append(block.text)
        elif kind in ("table",):
            out += [" ".join(str(c) for c in row) for row in [block.head, *block.rows]]
        elif kind == "facts":
            out += [f"{k}: {v}" for k, v in block.items]
        elif kind == "items":
            out += [str(getattr(i, "text", i)) for i in block.items]
        elif kind == "art":
            out.append(block.text)
        elif kind in ("section", "private"):
            out.append(plain(block.blocks))
        elif isinstance(block, str):
            out.append(block)
    return "\n".join(out)


def without_private(view: Iterable[Any], viewer: str | None) -> list[Any]:
    """The view as ``viewer`` may see it (None: the table): every other player's private
    blocks left out, sections kept with what remains."""
    out = []
    for block in view:
        kind = getattr(block, "kind", None)
        if kind == "private":
            if viewer is not None and block.owner == viewer:
                out.append(Private(block.owner, without_private(block.blocks, viewer)))
        elif kind == "section":
            out.append(Section(without_private(block.blocks, viewer), block.title, block.where, block.wide))
        else:
            out.append(block)
    return out
