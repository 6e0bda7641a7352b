"""A replay snapshot's long lists kept apart from it, and read only when something reads them.

Why (issue 30, item 5): a score sheet's state keeps every round, so at 50,000 rounds its replay
snapshot was 2 MB of JSON, parsed (and its SHA-256 taken) at every action, although an `add`
only appends a round and reads the totals. Now any list at the top of a state that holds at
least ``APART_MIN`` items is written beside the snapshot (``cache/replay/ID.TOKEN.part``: one
item a line), and the snapshot holds where it is: its file, its item count, its bytes and their
CRC-32. A replay from the snapshot gets an :class:`Apart` list in its place: ``len``, truth and
``append`` work without reading the file, and anything else reads it first (checked by its
CRC-32), after which the list is an ordinary list. The next snapshot of a list only appended to
appends its new items to the same file (a reader of an older snapshot reads only the bytes its
snapshot names); a list read, or changed otherwise, is written whole under a new name.

A part that is gone or damaged when it is read is made again by replaying the session's events
up to the snapshot (``fallback``): a cache never decides what the state is. The game's rules
see a list and stay pure; what a rule does to the list beyond ``len``, truth and ``append``
reads it first.
"""

from __future__ import annotations

import zlib
from typing import Any, Callable

from companion.core.json_read import loads

APART_MIN = 512  # a list shorter than this is kept in the snapshot itself


class Apart(list):
    """A list whose first ``count`` items live in a snapshot's part file (see the module
    docstring): its own storage holds the items appended since, until it is read."""

    __slots__ = ("_count", "_load", "_spec")

    def __init__(self, spec: dict, load: Callable[[dict], list]):
        super().__init__()
        self._count, self._load, self._spec = int(spec["count"]), load, spec

    @property
    def unread(self) -> bool:
        """True while the part's items were never read (only counted and appended to)."""
        return self._load is not None

    def spec(self) -> dict:
        """The part file the unread items are in."""
        return self._spec

    def appended(self) -> list:
        """The items appended since the part was written (while unread)."""
        return list(list.__iter__(self))  # its own storage: what was appended

    def rebase(self, spec: dict) -> None:
        """The items appended are now in the part file too (``spec``: the file grown)."""
        if self._load is not None:
            list.clear(self)
            self._count, self._spec = int(spec["count"]), spec

    def _read(self) -> "Apart":
        load = self._load
        if load is not None:
            head = load(self._spec)
            if len(head) != self._count:
                raise ValueError("a snapshot part holds another number of items")
            self._load = None
            list.__setitem__(self, slice(0, 0), head)
        return self

    # what works without reading the part
    def __len__(self) -> int:
        return list.__len__(self) + (self._count if self._load is not None else 0)

    def __bool__(self) -> bool:
        return len(self) > 0

    def append(self, item: Any) -> None:
        list.append(self, item)

    # everything else reads it first, then is the list's own
    def __iter__(self):
        return list.__iter__(self._read())

    def __reversed__(self):
        return list.__reversed__(self._read())

    def __getitem__(self, index):
        return list.__getitem__(self._read(), index)

    def __setitem__(self, index, value) -> None:
        list.__setitem__(self._read(), index, value)

    def __delitem__(self, index) -> None:
        list.__delitem__(self._read(), index)

    def __contains__(self, item) -> bool:
        return list.__contains__(self._read(), item)

    def __eq__(self, other) -> bool:
        return list.__eq__(self._read(), other._read() if isinstance(other, Apart) else other)

    def __ne__(self, other) -> bool:
        return not self == other

    def __lt__(self, other):
        return list.__lt__(self._read(), other._read() if isinstance(other, Apart) else other)

    def __le__(self, other):
        return list.__le__(self._read(), other._read() if isinstance(other, Apart) else other)

    def __gt__(self, other):
        return list.__gt__(self._read(), other._read() if isinstance(other, Apart) else other)

    def __ge__(self, other):
        return list.__ge__(self._read(), other._read() if isinstance(other, Apart) else other)

    __hash__ = None  # type: ignore[assignment]

    def __add__(self, other):
        return list(self) + list(other)

    def __radd__(self, other):
        return list(other) + list(self)

    def __iadd__(self, other):
        list.extend(self._read(), other)
        return self

    def __mul__(self, n):
        return list(self) * n

    __rmul__ = __mul__

    def __imul__(self, n):
        list.__imul__(self._read(), n)
        return self

    def __repr__(self) -> str:
        return list.__repr__(self._read())

    def __reduce_ex__(self, protocol):  # copy, deepcopy, pickle: a plain list
        return (list, (list(self),))

    def __copy__(self):
        return list(self)

    def __deepcopy__(self, memo):
        import copy

        return copy.deepcopy(list(self), memo)

    def copy(self):
        return list(self)


def _reading(name: str):
    def method(self, *args, **kwargs):
        return getattr(list, name)(self._read(), *args, **kwargs)

    method.__name__ = name
    return method


for _name in ("extend", "insert", "pop", "remove", "clear", "index", "count", "sort", "reverse"):
    setattr(Apart, _name, _reading(_name))


def encoded(items: list) -> str | None:
    """The part file's text of ``items`` (one compact line each), or None when an item would
    not come back equal from JSON (a tuple, a number key: the snapshot keeps the list)."""
    import json  # (json only where JSON is written: a `status` reads it by companion.core.json_read)

    lines = [json.dumps(item, ensure_ascii=False, separators=(",", ":")) for item in items]
    text = "".join(line + "\n" for line in lines)
    if "\n" in "".join(lines) or json.loads("[" + ",".join(lines) + "]") != list(items):
        return None
    return text


def decoded(data: bytes, count: int) -> list:
    """The items of a part file's bytes (``count`` of them, one a line)."""
    if not data:
        items: list = []
    else:
        items = loads(b"[" + data[:-1].replace(b"\n", b",") + b"]")
    if not isinstance(items, list) or len(items) != count:
        raise ValueError("a snapshot part holds another number of items")
    return items


def split(state: dict, write_whole: Callable[[str], dict | None],
          append_to: Callable[[dict, str], dict | None]) -> tuple[dict, dict] | None:
    """(the state as the snapshot keeps it, {key: part spec}) for ``state``: its long lists at
    the top written apart, by ``write_whole(text)`` (a new part file) or, for an :class:`Apart`
    list only appended to, ``append_to(spec, text)`` (the same file, grown); each returns the
    new spec, or None (then the list stays in the snapshot). None: the state cannot be kept."""
    kept: dict = {}
    parts: dict = {}
    for key, value in state.items():
        if isinstance(value, Apart) and value.unread:
            text = encoded(value.appended())
            spec = append_to(value.spec(), text) if text is not None else None
            if spec is None:
                value = list(value)
            else:
                value.rebase(spec)
                kept[key], parts[key] = [], spec
                continue
        if isinstance(value, list) and len(value) >= APART_MIN:
            text = encoded(value)
            spec = write_whole(text) if text is not None else None
            if spec is not None:
                kept[key], parts[key] = [], spec
                continue
        kept[key] = list(value) if isinstance(value, Apart) else value
    return kept, parts


def made(state: dict, parts: Any, load: Callable[[str, dict], list]) -> dict:
    """``state`` as a snapshot keeps it, with each part (``parts``: {key: spec}) in its place as
    an :class:`Apart` list read by ``load(key, spec)``."""
    from functools import partial

    if not parts:
        return state
    if not isinstance(parts, dict) or not all(isinstance(k, str) and isinstance(v, dict) for k, v in parts.items()):
        raise ValueError("a snapshot's parts are not parts")
    for key, spec in parts.items():
        if state.get(key) != [] or not isinstance(spec.get("count"), int):
            raise ValueError("a snapshot's part has no place in its state")
        state[key] = Apart(spec, partial(load, key))
    return state


def crc_of(data: bytes, start: int = 0) -> int:
    return zlib.crc32(data, start)
