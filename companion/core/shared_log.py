"""The group's shared lists as per-device logs: one writer per file (issue 30).

Titles, player renames and the printed values a group sets were single files (titles.json,
players.json, userdata.json) that either laptop rewrote whole: with the data folder in a synced
folder, whichever laptop wrote last decided what the other saw. Now each list is a folder
(``titles/``, ``players/``, ``values/``) holding one file per laptop, ``<device id>.json``,
which only that laptop ever writes (companion.core.device gives the id). Every laptop reads all
of them and merges them the same way, so every laptop that has the same files shows the same
list, whatever order the sync brought them in.

The merge rule of a value: the entry with the latest time wins, then the higher device id,
then the later entry of one device (``(at, device, seq)``, compared as written). An entry whose
value is None says the key was removed (a tombstone), so a removal syncs like a change. Each
list states what it does with the merged values (companion.core.titles, record.players and the
store's printed values).

A laptop's own file keeps the latest entry of each key only: the merge never needs an older
one of the same device (it would lose to the latest), so the file stays as small as the list.

An old single file is read as the log of a device named "" (older than every laptop in a tie),
and is never written again. A conflict copy made by a sync engine of one of these files
(Syncthing's ``NAME.sync-conflict-DATE-TIME-DEVICE.json``, Dropbox's and Nextcloud's
``NAME (... conflicted copy ...).json``) is read as a log too; this laptop's next write of that
list takes its entries into its own file and removes it (:func:`absorb`).
"""

from __future__ import annotations

import contextlib
import os
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, NamedTuple

from companion.contract.text import Pattern

KIND = "log"
DEVICE_FILE = Pattern(r"[0-9a-f]{10}\.json")
CONFLICT = Pattern(r".*(?:\.sync-conflict-|conflicted copy|'s conflicting copy).*\.json", re.IGNORECASE)
LEGACY_DEVICE = ""


class Entry(NamedTuple):
    # the fields' types as objects, not as annotations: this module's annotations are strings,
    # and NamedTuple compiles each string at import (every start paid for them, issue 27)
    __annotations__ = {"key": Any, "value": Any, "at": str, "device": str, "seq": int}  # value None: removed

    def order(self) -> tuple:
        return (self.at, self.device, self.seq)


def stamp() -> str:
    """Now, in UTC to the microsecond (the times of every laptop compare as text)."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f+00:00")


def normal_time(value: Any) -> str:
    """An old file's time (seconds, any offset) written as :func:`stamp` writes it."""
    try:
        when = datetime.fromisoformat(str(value))
        if when.tzinfo is None:
            when = when.replace(tzinfo=timezone.utc)
        return when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f+00:00")
    except ValueError:
        return ""


def folder(store, name: str) -> Path:
    return Path(store.root) / name


def own_path(store, name: str) -> Path:
    """This laptop's log of ``name`` (the only file of it this laptop writes)."""
    from companion.core.device import device_id

    return folder(store, name) / f"{device_id(store)}.json"


def _parse(path: Path) -> tuple[str, list[Entry]]:
    """(device, entries) of one log file; a damaged one is refused naming it."""
    from companion.contract.errors import StoreError
    from companion.core.files import read_json_file

    data = read_json_file(path, KIND) or {}
    about = (data.get("device") or {}).get("1") or {}
    device = about.get("id") if isinstance(about.get("id"), str) else path.name.split(".")[0]
    out = []
    for n, doc in (data.get("entries") or {}).items():
        if not isinstance(doc, dict) or "key" not in doc or not isinstance(doc.get("at"), str):
            from companion.contract.language import _

            raise StoreError(_("{path} is damaged (entry {n} is not an entry): move it away; it was not changed.")
                             .format(path=path, n=n))
        by = doc.get("by") if isinstance(doc.get("by"), str) else device
        out.append(Entry(_hashable(doc["key"]), doc.get("value"), doc["at"], by, int(n)))
    return device, out


def _hashable(key: Any) -> Any:
    return tuple(key) if isinstance(key, list) else key


def files(store, name: str) -> tuple[list[Path], list[Path]]:
    """(the laptops' logs of ``name``, the conflict copies waiting), each sorted by name."""
    logs, copies = [], []
    try:
        with os.scandir(folder(store, name)) as found:
            for item in found:
                if item.name.startswith(".") or not item.is_file(follow_symlinks=False):
                    continue
                if DEVICE_FILE.fullmatch(item.name):
                    logs.append(Path(item.path))
                elif CONFLICT.fullmatch(item.name):
                    copies.append(Path(item.path))
    except OSError:
        pass
    return sorted(logs), sorted(copies)


def legacy_copies(store, legacy: str | None) -> list[Path]:
    """Conflict copies of an old single file (``players.sync-conflict-...json``)."""
    if not legacy:
        return []
    stem = legacy.rsplit(".", 1)[0]
    try:
        names = os.listdir(store.root)
    except OSError:
        return []
    return sorted(Path(store.root) / n for n in names if n.startswith(stem) and n != legacy and CONFLICT.fullmatch(n))


def entries(store, name: str, legacy: str | None = None,
            legacy_entries: Callable[[Path], Iterable[Entry]] | None = None) -> list[Entry]:
    """Every entry of every laptop's log of ``name`` (and of the old single file ``legacy``
    read by ``legacy_entries``, and of the conflict copies), in merge order."""
    out: list[Entry] = []
    logs, copies = files(store, name)
    for path in logs + copies:
        store.check_inside(path)
        out.extend(_parse(path)[1])
    if legacy and legacy_entries is not None:
        for path in [Path(store.root) / legacy, *legacy_copies(store, legacy)]:
            if path.exists() or path.is_symlink():
                store.check_inside(path)
                out.extend(legacy_entries(path))
    out.sort(key=Entry.order)
    return out


def latest(all_entries: Iterable[Entry]) -> dict[Any, Entry]:
    """key -> its winning entry (the latest by time, then device, then order); removals kept."""
    won: dict[Any, Entry] = {}
    for entry in all_entries:
        held = won.get(entry.key)
        if held is None or entry.order() >= held.order():
            won[entry.key] = entry
    return won


def values(store, name: str, legacy: str | None = None,
           legacy_entries: Callable[[Path], Iterable[Entry]] | None = None) -> dict[Any, Any]:
    """key -> value by the rule of the latest (removed keys left out)."""
    return {k: e.value for k, e in latest(entries(store, name, legacy, legacy_entries)).items()
            if e.value is not None}


def write(store, name: str, changes: dict[Any, Any], legacy: str | None = None,
          legacy_entries: Callable[[Path], Iterable[Entry]] | None = None) -> Path:
    """Add ``changes`` (key -> value, None to remove) to this laptop's log of ``name``, in one
    atomic write (caller holds the folder's lock). Conflict copies of this list are taken in
    first and removed once their entries are in this laptop's file."""
    from companion.core.device import device, device_id

    path = own_path(store, name)
    store.check_inside(path)
    mine = device_id(store)
    own: dict[Any, Entry] = {}
    if path.exists():
        own = latest(_parse(path)[1])
    copies = files(store, name)[1] + legacy_copies(store, legacy)
    for copy in copies:
        store.check_inside(copy)
        taken = _parse(copy)[1] if copy.parent == folder(store, name) else list(legacy_entries(copy))
        for entry in taken:
            held = own.get(entry.key)
            if held is None or entry.order() > held.order():
                own[entry.key] = entry
    at = stamp()
    seq = max((e.seq for e in own.values() if e.device == mine), default=0)
    for key, value in changes.items():
        seq += 1
        own[_hashable(key)] = Entry(_hashable(key), value, at, mine, seq)
    docs = {}
    for n, entry in enumerate(sorted(own.values(), key=Entry.order), 1):
        doc = {"key": list(entry.key) if isinstance(entry.key, tuple) else entry.key, "value": entry.value,
               "at": entry.at}
        if entry.device != mine:
            doc["by"] = entry.device
        docs[str(n)] = doc
    from companion.core.files import SCHEMA_KEY, atomic_write_text, dumps_compact, schema_version

    about = device(store)
    text = dumps_compact({SCHEMA_KEY: {"kind": KIND, "version": schema_version(KIND)},
                          "device": {"1": {"id": mine, "name": about.get("name", "")}}, "entries": docs})
    atomic_write_text(path, text)
    for copy in copies:  # in this laptop's file now: the copy goes
        with contextlib.suppress(OSError):
            copy.unlink()
    return path


def signature(store, name: str, legacy: str | None = None) -> list:
    """What changes whenever any laptop's log of ``name`` changes, for caches of a merged list:
    the (name, inode, size, time) of every file in its folder. Each write replaces a file by a
    new one (a new inode), so two writes within one tick of the file system's clock still
    differ, which the folder's own time would not show."""
    from companion.core.files import file_signature

    out = []
    try:
        with os.scandir(folder(store, name)) as found:
            for item in found:
                with contextlib.suppress(OSError):
                    st = item.stat(follow_symlinks=False)
                    out.append([item.name, st.st_ino, st.st_size, st.st_mtime_ns])
    except OSError:
        pass
    out.sort()
    if legacy:
        old = file_signature(Path(store.root) / legacy)
        out.append([legacy, *old] if old else [legacy])
    return out


def writers(store, names: Iterable[str]) -> dict[str, dict]:
    """device id -> {"name", "last"}: every laptop whose log of these lists is in the folder,
    with the time of its latest entry (for `sync status`)."""
    from companion.contract.errors import CompanionError

    seen: dict[str, dict] = {}
    for name in names:
        for path in files(store, name)[0]:
            try:
                from companion.core.files import read_json_file

                data = read_json_file(path, KIND) or {}
                device, found = _parse(path)
            except CompanionError:
                continue
            about = (data.get("device") or {}).get("1") or {}
            last = max((e.at for e in found if e.device == device), default="")
            held = seen.setdefault(device, {"name": about.get("name") or device, "last": ""})
            held["last"] = max(held["last"], last)
    return seen
