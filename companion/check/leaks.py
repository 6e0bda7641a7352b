"""Naming what a surface leaks: the first place two runs' bytes differ, and whose secret it is.

Two runs that differ only in their secrets show a viewer whose own view is the same in both
the same bytes, unless a surface shows something of the secrets. The leak is named by the
words where the two surfaces first differ (every value counts, a one-digit number too), and,
when one of the other players' private values (``view(state, p)`` minus ``view(state,
None)``) is among those words, as that player's secret.
"""

from __future__ import annotations

import difflib
import html
import re

WORDS = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*", re.UNICODE)
SHOWN = 60  # characters of a differing passage named in a failure at most


TAG = re.compile(r"<[^>]*>")
ATTRIBUTE = re.compile(r'="([^"]*)"')


def words(data: bytes) -> list[str]:
    """The words of what a surface shows: a page's text and its attributes' values (a form's
    hidden fields and buttons' values count), never the names of its tags."""
    text = TAG.sub(lambda m: " " + " ".join(ATTRIBUTE.findall(m.group())) + " ", data.decode("utf-8", "replace"))
    return WORDS.findall(html.unescape(text))


def first_difference(here: bytes, there: bytes) -> tuple[str, str, str]:
    """(what this run shows, what the twin shows, the words around it in this run) where the
    two first differ."""
    a, b = words(here), words(there)
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal":
            around = " ".join(a[max(0, i1 - 2):i2 + 1])[:SHOWN]
            return " ".join(a[i1:i2])[:SHOWN] or "(nothing)", " ".join(b[j1:j2])[:SHOWN] or "(nothing)", around
    same = "(the same words, other bytes)"
    return same, same, ""


def secrets_of(game, state: dict, players: list[str], viewer: str | None) -> dict[str, set[str]]:
    """Each other player's private values: what their view holds and the viewer's does not."""
    def held(who) -> set[str]:
        found: set[str] = set()
        values_in(game.view(state, who), found)
        return found

    seen = held(viewer)
    return {p: held(p) - seen for p in players if p != viewer}


def values_in(value, found: set[str]) -> None:
    """Every value in a plain JSON value, numbers too, as text (keys included)."""
    if isinstance(value, dict):
        for k, v in value.items():
            found.add(str(k))
            values_in(v, found)
    elif isinstance(value, (list, tuple)):
        for v in value:
            values_in(v, found)
    elif value is not None and not isinstance(value, bool):
        found.add(str(value))


def owner(value: str, secrets: dict[str, set[str]]) -> str | None:
    for player, values in secrets.items():
        if value in values or any(w in values for w in value.split()):
            return player
    return None
