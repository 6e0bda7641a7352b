"""The pseudo-language's check (issue 28): English that bypassed the catalogue.

Under ``LANGUAGE=xx`` (or ``language.using("xx")``) every message is accented and made 40%
longer (``rails`` → ``ŕàîlš··``). A plain English word left in what a surface shows is a text
that never passed the catalogue. :func:`leaks` lists them: ASCII words of three letters or more
with a letter the pseudo-language accents, outside backquotes (commands), skipping the names
the test itself typed (players, cities, titles) and words that are values (ids, options).
"""

from __future__ import annotations

import re

_WORD = re.compile(r"(?<![\w\-./@:=#{])[A-Za-z]{3,}(?![\w\-/@:=(}])")
_COMMAND = re.compile(r"`[^`]*`|\{[^}]*\}|https?://\S+|--[a-z-]+")
# words that are values on every surface, never messages
VALUES = {"companion", "json", "csv", "bgg", "xlsx", "html", "http", "https", "utf", "UTF", "ESC", "TinyDB",
          "BGG", "BoardGameGeek", "Syncthing", "Chromium", "stats", "Stats"}


def leaks(text: str, allowed=()) -> list[str]:
    """The plain English words in ``text`` (see the module's docstring)."""
    keep = set(VALUES) | {w for name in allowed for w in re.findall(r"[A-Za-z]+", str(name))}
    stripped = _COMMAND.sub(" ", text)
    return [w for w in _WORD.findall(stripped)
            if w not in keep and re.search("[aceinorsuyACEINORSUY]", w)]
