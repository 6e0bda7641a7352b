"""Text that came from data and goes to a terminal, and names people type (issue 12).

A name or a file may hold control characters (ESC starts a terminal escape sequence, BEL rings,
U+202E turns the rest of a line around). Names with them are refused on every way in, and
whatever is printed from data goes through :func:`safe_text`, so no such character reaches a
terminal even from a file edited by hand.
"""

from __future__ import annotations

import re
import unicodedata

# Bidirectional embeddings, overrides and isolates: they reorder what a terminal shows.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


class Pattern:
    """A regular expression compiled when it is first used, not when its module is imported:
    compiling one costs a start some 400,000 instructions, and a `status` used none of the seven
    its modules compiled at import (issue 27). Offers what the companion calls of re.Pattern."""

    __slots__ = ("source", "flags", "_compiled")

    def __init__(self, source: str, flags: int = 0):
        self.source, self.flags, self._compiled = source, flags, None

    def compiled(self) -> re.Pattern:
        if self._compiled is None:
            self._compiled = re.compile(self.source, self.flags)
        return self._compiled

    def fullmatch(self, text: str):
        return self.compiled().fullmatch(text)

    def search(self, text: str):
        return self.compiled().search(text)

    def findall(self, text: str) -> list:
        return self.compiled().findall(text)

    def finditer(self, text: str):
        return self.compiled().finditer(text)

    def sub(self, repl, text: str) -> str:
        return self.compiled().sub(repl, text)


def is_unsafe_char(c: str) -> bool:
    """A character that does something on a terminal instead of showing itself."""
    return c in BIDI_CONTROLS or unicodedata.category(c) in ("Cc", "Zl", "Zp")


def has_unsafe_chars(text: str) -> bool:
    return any(is_unsafe_char(c) for c in text)


# The same characters as is_unsafe_char (categories Cc, Zl, Zp and the bidi controls), as one
# pattern: a long output (10,000 rows of `sessions`) is checked in one pass, not char by char.
# Compiled when first needed (see __getattr__): the two cost a tenth of a `status` (issue 27),
# whose texts are printable and never need them.
_PATTERNS = {
    "UNSAFE": "[\x00-\x1f\x7f-\x9f\u2028\u2029" + "".join(sorted(BIDI_CONTROLS)) + "]",
    "UNSAFE_KEEPING_LINES": "[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029" + "".join(sorted(BIDI_CONTROLS)) + "]",
}


def __getattr__(name: str):
    """``UNSAFE`` and ``UNSAFE_KEEPING_LINES``, compiled on first use (PEP 562)."""
    if name in _PATTERNS:
        pattern = globals()[name] = re.compile(_PATTERNS[name])
        return pattern
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def safe_text(text: str, keep_newlines: bool = False) -> str:
    """``text`` with every control character shown as a visible escape (``\\x1b``, ``\\u202e``)."""
    # every unsafe character is one str.isprintable refuses (Cc, Cf, Zl, Zp): a printable text,
    # nearly every one (a screen's lines, once their line breaks are set aside), is safe
    # without the pattern
    name = "UNSAFE_KEEPING_LINES" if keep_newlines else "UNSAFE"
    printable = (text.replace("\n", "").replace("\t", "") if keep_newlines else text).isprintable()
    if printable or not (globals().get(name) or __getattr__(name)).search(text):
        return text
    out = []
    for c in text:
        if keep_newlines and c in "\n\t":
            out.append(c)
        elif is_unsafe_char(c):
            out.append(f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")
        else:
            out.append(c)
    return "".join(out)


LONGEST_ECHO = 200  # characters of one unbroken word a refusal repeats (a path fits; 6,000 digits do not)
_LONG_WORD = Pattern(r"\S{%d,}" % (LONGEST_ECHO + 1))


def clip_echoes(message: str) -> str:
    """A refusal that repeats what was typed stays one short line (issue 29, U1): a word longer
    than :data:`LONGEST_ECHO` (6,000 digits, a pasted file) is shown by its start and its
    length, however many times the message names it."""
    if len(message) <= LONGEST_ECHO:
        return message
    return _LONG_WORD.sub(lambda m: f"{m.group()[:24]}… ({len(m.group()):,} characters)", message)


def normal_name(name: str) -> str:
    """The form names are compared and stored in: NFC, so "Zoë" typed as one character or as
    "o" and a combining diaeresis is the same name."""
    return unicodedata.normalize("NFC", name)


def name_key(name: str) -> str:
    """What two names must share to be the same name: NFC, then case-folded."""
    return unicodedata.normalize("NFC", name).casefold()


def seat_aliases(players: list[str], aliases: dict[str, str]) -> dict[str, str]:
    """name_key(a name shown for a seat after `player rename`) -> the seated name, for the
    names that are not seated themselves (issue 12: after `player rename Dee Deb` a session in
    play accepts either name for that seat)."""
    seated = {name_key(p) for p in players}
    out: dict[str, str] = {}
    for p in players:
        shown = aliases.get(p.casefold())
        if shown and name_key(shown) not in seated:
            out[name_key(shown)] = p
    return out


# The only escape codes a drawing may carry: Select Graphic Rendition (colour, bold, reverse),
# written by the companion's own renderer, never taken from data.
SGR = Pattern("\x1b\\[[0-9;]*m")


def safe_drawing(text: str) -> str:
    """A drawing the renderer coloured, for a terminal: its own colour codes (SGR) pass, every
    other control character is shown as a visible escape, as :func:`safe_text` does. Names
    inside a drawing are made safe before the drawing is coloured, so no code in it came from
    data."""
    out, at = [], 0
    for m in SGR.finditer(text):
        out += [safe_text(text[at:m.start()], keep_newlines=True), m.group()]
        at = m.end()
    out.append(safe_text(text[at:], keep_newlines=True))
    return "".join(out)


def strings_in(value, found: set) -> None:
    """Every string in a plain JSON value (keys too) added to ``found``: the names a state or a
    view holds (a line wraps around them; the shell completes them)."""
    if isinstance(value, str):
        found.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            if isinstance(k, str):
                found.add(k)
            strings_in(v, found)
    elif isinstance(value, (list, tuple)):
        for v in value:
            strings_in(v, found)
