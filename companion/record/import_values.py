"""The hostile import's checks of JSON values of any kind: the strict parse, sizes, depth and
numbers, kinds and times, and the one-line refusal that names the file and the field.

An import file comes from elsewhere and is treated as hostile: it is validated completely
(types, keys, sizes, ids, names, games, every session replayed by the rules) before anything is
written, and a single problem refuses the whole file in one line.
"""

from __future__ import annotations

import json
import re
from typing import Any

from companion.contract.language import _, N_, ngettext
from companion.contract.errors import CompanionError
from companion.record import import_limits as limits
from companion.record import stats as history


class Refused(CompanionError):
    """An import file refused whole; the message names the file and what is wrong."""


def size_words(n: int) -> str:
    if n >= 1024 * 1024:
        return _("{n} MB").format(n=n // (1024 * 1024))
    return ngettext("{n} byte", "{n} bytes", n).format(n=n)


def refuse(name: str, what: str) -> Refused:
    return Refused(_("{file}: {what}; nothing was imported.").format(file=name, what=what))


def too_large() -> str:
    """The refusal of a file over the limit (its reason, for :func:`refuse`)."""
    return _("the file is larger than {size}").format(size=size_words(limits.MAX_FILE_BYTES))


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict:
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(_("the key {key} appears twice in one object").format(key=repr(key)))
        out[key] = value
    return out


def _no_constants(text: str) -> Any:
    raise ValueError(_("{text} is not a number JSON allows").format(text=text))


def parse(raw: bytes, name: str) -> Any:
    """The JSON value of an import file, refusing anything a strict reader would not accept."""
    if len(raw) > limits.MAX_FILE_BYTES:
        raise refuse(name, too_large())
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise refuse(name, _("it is not UTF-8 text (an export from `export --format json` is)")) from None
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constants)
    except json.JSONDecodeError as exc:
        raise refuse(name, _("it is not valid JSON (line {line}, column {column}): "
                             "an export from `export --format json` is expected").format(line=exc.lineno,
                                                                                         column=exc.colno)) from None

    except (ValueError, RecursionError) as exc:
        long = re.search(r"\d{4301,}", text) if isinstance(exc, ValueError) else None
        if long is not None:  # Python's own limit on reading integers: said in our words (issue 22)
            line = text.count("\n", 0, long.start()) + 1
            raise refuse(name, _("line {line} holds a number of {count:,} digits, beyond what any game counts (at most "
                                 "{MAX_INT:,} either way)")
                                 .format(line=line, count=len(long.group()), MAX_INT=limits.MAX_INT)) from None
        reason = str(exc) if isinstance(exc, ValueError) and str(exc) else "it is nested too deeply"
        raise refuse(name, reason) from None


def walk(value: Any, where: str, name: str) -> None:
    """Sizes, depth and numbers of any JSON value, checked without recursion; a refusal names
    the field (found again by :func:`_path_to`, only when something is wrong)."""
    stack = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > limits.MAX_DEPTH:
            raise refuse(name, _("{at} is nested more than {MAX_DEPTH} levels deep").format(at=_at(where, _path_to(value, node)[:4]), MAX_DEPTH=limits.MAX_DEPTH))
        if isinstance(node, str):
            if len(node) > limits.MAX_STRING:
                raise refuse(name, _("{at} is a text of {count:,} characters (at most {MAX_STRING:,})")
                                     .format(at=_at(where, _path_to(value, node)), count=len(node), MAX_STRING=limits.MAX_STRING))
        elif isinstance(node, bool) or node is None:
            pass
        elif isinstance(node, int):
            if abs(node) > limits.MAX_INT:
                shown = str(node) if abs(node) < 10**20 else f"{str(node)[:20]}..."
                raise refuse(name, _("{at} holds the number {shown}, beyond what any game counts (at most {MAX_INT:,} either way)")
                                     .format(at=_at(where, _path_to(value, node)), shown=shown, MAX_INT=limits.MAX_INT))
        elif isinstance(node, float):
            if node != node or abs(node) > limits.MAX_INT:
                raise refuse(name, _("{at} holds the number {node:g}, beyond what any game counts (at most {MAX_INT:,} either way)")
                                     .format(at=_at(where, _path_to(value, node)), node=node, MAX_INT=limits.MAX_INT))
        elif isinstance(node, dict):
            for k, v in node.items():
                if len(k) > limits.MAX_STRING:
                    raise refuse(name, _("{at} has a key of {count:,} characters (at most {MAX_STRING:,})")
                                         .format(at=_at(where, _path_to(value, node)), count=len(k), MAX_STRING=limits.MAX_STRING))
                stack.append((v, depth + 1))
        elif isinstance(node, list):
            stack.extend((v, depth + 1) for v in node)


def _path_to(root: Any, target: Any) -> tuple:
    """The keys and indexes from ``root`` to the value ``target`` (the same object)."""
    stack: list[tuple[Any, tuple]] = [(root, ())]
    while stack:
        node, path = stack.pop()
        if node is target:
            return path
        if isinstance(node, dict):
            stack.extend((v, path + (k,)) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((v, path + (i,)) for i, v in enumerate(node))
    return ()


def _at(where: str, path: tuple) -> str:
    """A field in words: `session ID's journal entry 3's event.scores.Ann`."""
    from companion.contract.text import safe_text

    parts = list(path)
    if parts[:1] == ["journal"] and len(parts) > 1 and isinstance(parts[1], int):
        where, parts = _("{where}'s journal entry {n}").format(where=where, n=parts[1] + 1), parts[2:]
    if not parts:
        return where
    dotted = ""
    for part in parts:
        dotted += f"[{part}]" if isinstance(part, int) else ("." if dotted else "") + safe_text(str(part)[:30])
    return _("{where}'s {field}").format(where=where, field=dotted)


KIND_NAMES = {dict: N_("an object"), list: N_("a list"), str: N_("a text"), int: N_("a whole number"),
              float: N_("a number"), bool: N_("true or false"), type(None): N_("null")}
OTHER = N_("something else")



def kind_of(value: Any) -> str:
    return _(KIND_NAMES.get(type(value), OTHER))


def check_type(value: Any, kind: type | tuple, what: str, name: str) -> Any:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        wanted = _(KIND_NAMES.get(kind, OTHER)) if not isinstance(kind, tuple) else _("a value of another kind")
        raise refuse(name, _("{what} must be {wanted}, not {kind_of}").format(what=what, wanted=wanted, kind_of=kind_of(value)))
    return value


TIME_EXAMPLE = "2026-03-01T19:30:00+00:00"


def check_time(value: Any, what: str, name: str) -> str:
    """A time as the companion writes it: ISO 8601 with its zone. A time without a zone was
    made or changed elsewhere, and guessing its zone could move a game to another day: it is
    refused, naming the entry (issue 22: one broke `export --format csv` for the whole folder)."""
    from companion.contract.text import safe_text

    check_type(value, str, what, name)
    shown = safe_text(repr(value[:40]))
    if len(value) > 40 or history.parse_time(value) is None:
        raise refuse(name, _("{what} is not a date and time ({shown}): the companion writes times as {TIME_EXAMPLE}")
                             .format(what=what, shown=shown, TIME_EXAMPLE=TIME_EXAMPLE))
    from datetime import datetime

    if datetime.fromisoformat(value).tzinfo is None:
        raise refuse(name, _("{what} ({shown}) has no time zone: the companion writes every time with one, as "
                             "{TIME_EXAMPLE} (UTC)")
                             .format(what=what, shown=shown, TIME_EXAMPLE=TIME_EXAMPLE))
    return value


def check_played_on(value: Any, what: str, name: str) -> str:
    """`--played-on` as the companion writes it: YYYY-MM-DD or YYYY-MM-DDTHH:MM."""
    from datetime import datetime

    from companion.contract.text import safe_text

    check_type(value, str, what, name)
    try:
        if len(value) not in (10, 16) or (len(value) == 16 and value[10] != "T"):
            raise ValueError
        moment = datetime.fromisoformat(value)
        if moment.year < 1900:
            raise ValueError
    except ValueError:
        raise refuse(name, _("{what} ({safe_text}) is not a day: the companion writes it as YYYY-MM-DD or "
                             "YYYY-MM-DDTHH:MM, e.g. 2026-03-01T19:30")
                             .format(what=what, safe_text=safe_text(repr(value[:40])))) from None
    return value
