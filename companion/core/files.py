"""Files of the data folder one at a time: written whole or not at all (a temporary file, fsync,
rename), read within a bound, parsed with their schema version checked and migrated, and kept
owner-only. The store (companion.core.store) builds sessions, the index and the settings on these."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from itertools import repeat
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from companion.contract.language import _
from companion.contract.errors import StoreError
from companion.contract.text import Pattern
from companion.core.json_read import loads


# Migrations per kind of file: MIGRATIONS[kind][i] upgrades version i+1 to i+2. A file's
# current version is len(MIGRATIONS[kind]) + 1. Append, never edit: old files depend on them.
MIGRATIONS: dict[str, list[Callable[[dict], dict]]] = {
    "index": [],
    "session": [],
    "settings": [],
    "userdata": [],
    "players": [],
    "titles": [],
    "device": [],  # issue 30: <data>/.local/device.json, this laptop's id and name
    "journal": [],  # issue 30: a device's journal of a session (its header line carries the stamp)
    "log": [],  # a laptop's log of a shared list (companion.core.shared_log, issue 30)
}


SCHEMA_KEY = "_schema"


def schema_version(kind: str) -> int:
    return len(MIGRATIONS[kind]) + 1


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


# A session id: what `new` makes and `import` accepts. Every id read from a file (settings'
# `current`, an index entry, a session's own description) must match it before it becomes a
# path (issue 12: `"current": "../../outside/victim"` made `status` read outside the folder).
ID_PATTERN = Pattern(r"[a-z0-9]{8}")  # compiled when a listing first asks (issue 27: not at every start)
ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


FILE_MODE = 0o600  # every file of the data folder: owner only (issue 12)


FOLDER_MODE = 0o700


def is_session_id(value: Any) -> bool:
    """What ``ID_PATTERN.fullmatch`` says, without compiling it (every `status` asks, once)."""
    return isinstance(value, str) and len(value) == 8 and ID_CHARS.issuperset(value)


def make_private_folder(path: Path) -> None:
    """Create ``path`` (and its parents) readable by its owner only. A folder already there is
    told by one stat (every write asks: a mkdir refused cost a stat more and an exception)."""
    if path.is_dir():
        return
    path.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)


def clean_leftovers(path: Path) -> None:
    """Remove the temporary files a killed write of ``path`` left behind (the writer of a file
    holds its lock, so no other process is writing one of them): the names
    ``.NAME.*.tmp`` (:func:`_written_aside`), told by their ends, not by a glob pattern (a
    pattern compiled for each file's name cost every write more than the write: issue 29)."""
    prefix = f".{path.name}."
    folder = path.parent
    with contextlib.suppress(OSError):
        with os.scandir(folder) as found:
            leftovers = [e.name for e in found if len(e.name) >= len(prefix) + 4
                         and e.name.startswith(prefix) and e.name.endswith(".tmp")]
        for name in leftovers:
            with contextlib.suppress(OSError):
                os.unlink(folder / name)


def _cannot_write(path: Path, exc: OSError) -> StoreError:
    return StoreError(_("Could not write {path}: {reason}. Nothing was changed.").format(
        path=path, reason=exc.strerror or exc))


def _written_aside(path: Path, prefix: str, text: str) -> str:
    """``text`` written whole and flushed to a new temporary file beside ``path`` (its name
    starting with ``prefix``): the file's name, or a StoreError (nothing left behind)."""
    import tempfile  # only writes need it

    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=prefix, suffix=".tmp")
    except OSError as exc:
        raise _cannot_write(path, exc) from exc
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise _cannot_write(path, exc) from exc
    return tmp


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that a crash leaves either the old or the new file.

    The file is owner-only (0600), and leftovers of killed writes of it are removed first."""
    try:
        make_private_folder(path.parent)
    except OSError as exc:
        raise _cannot_write(path, exc) from exc
    clean_leftovers(path)
    tmp = _written_aside(path, f".{path.name}.", text)
    try:
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise _cannot_write(path, exc) from exc
    _sync_folder(path)


def create_text(path: Path, text: str) -> bool:
    """Write ``text`` to ``path`` only if no file is there: True if this call made it, False
    if one was there already (left as it was). The file appears whole or not at all (written
    aside, then linked into place), so several processes making it at once agree on one: the
    first. Its temporary name is not one :func:`clean_leftovers` removes, so another process's
    write of ``path`` never deletes it midway. A file system without hard links gets the file
    as :func:`atomic_write_text` writes it."""
    try:
        make_private_folder(path.parent)
    except OSError as exc:
        raise _cannot_write(path, exc) from exc
    tmp = _written_aside(path, f".{path.name}-new.", text)
    try:
        os.link(tmp, path)
    except FileExistsError:
        return False
    except OSError:  # no hard links here: renamed into place instead
        try:
            os.replace(tmp, path)
        except OSError as exc:
            raise _cannot_write(path, exc) from exc
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    _sync_folder(path)
    return True


def _sync_folder(path: Path) -> None:
    """The folder's entry for ``path`` flushed too (a rename or link survives a power cut)."""
    if hasattr(os, "O_DIRECTORY"):
        with contextlib.suppress(OSError):
            dfd = os.open(path.parent, os.O_DIRECTORY)
            try:
                os.fsync(dfd)
            finally:
                os.close(dfd)


# The largest data file read (a session of 100,000 events is about 12 MB): a link to
# /dev/zero or a runaway file is refused instead of read until memory runs out (issue 12).
MAX_FILE_BYTES = 256 * 1024 * 1024


def read_file_text(path: Path, limit: int = MAX_FILE_BYTES) -> tuple[str, tuple] | None:
    """The text of a regular file and its signature (see :func:`file_signature`), or None if
    it is absent. A FIFO, a device or a folder is refused without waiting on it; so is a file
    over ``limit`` bytes or one that is not UTF-8."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise StoreError(_("{path} is a folder, but a data file belongs there: move it away.")
                           .format(path=path)) from None
    except OSError as exc:
        if exc.errno == errno.ENOENT or exc.errno == errno.ENOTDIR:
            return None
        raise StoreError(_("Cannot read {path}: {reason}. Check its permissions; it was not changed.")
                           .format(path=path, reason=exc.strerror or exc)) from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise StoreError(_("{path} is a folder, but a data file belongs there: move it away.")
                               .format(path=path))
        if not stat.S_ISREG(st.st_mode):
            raise StoreError(_("{path} is not a regular file (a device, pipe or socket): move it away; it was not read.")
                               .format(path=path))
        if st.st_size > limit:
            raise StoreError(_("{path} is too large ({st_size:,} bytes, at most {limit:,}): move it away; it was not read.")
                               .format(path=path, st_size=st.st_size, limit=limit))
        chunks, size = [], 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            size += len(chunk)
            if size > limit:
                raise StoreError(_("{path} is too large (over {limit:,} bytes): move it away; it was not read.")
                                   .format(path=path, limit=limit))
            chunks.append(chunk)
    except OSError as exc:
        raise StoreError(_("Cannot read {path}: {reason}. Check its permissions; it was not changed.")
                           .format(path=path, reason=exc.strerror or exc)) from None
    finally:
        os.close(fd)
    try:
        text = b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError:
        raise StoreError(_("{path} is not UTF-8 text (damaged): restore it from a backup or move it away; it was not changed.")
                           .format(path=path)) from None
    return text, (st.st_ino, st.st_size, st.st_mtime_ns)


def read_json_file(path: Path, kind: str) -> dict | None:
    """The tables stored in ``path`` (migrated to the current schema), or None if it is absent.

    Damaged, unreadable or newer files raise StoreError naming the file; they are not touched.
    """
    found = read_json_text(path, kind)
    return None if found is None else found[0]


def read_json_text(path: Path, kind: str) -> tuple[dict, str, tuple] | None:
    """Like :func:`read_json_file`, with the file's text and signature as well."""
    found = read_file_text(path)
    if found is None:
        return None
    raw, signature = found
    data = parse_json(path, raw, kind)
    return data, raw, signature


def parse_json(path: Path, raw: str, kind: str) -> dict:
    if not raw.strip():
        raise StoreError(_("{path} is empty (damaged): restore it from a backup or move it away; it was not changed.")
                           .format(path=path))
    try:
        data = loads(raw)
    except RecursionError:
        raise StoreError(_("{path} is nested too deeply to be companion data (damaged): move it away; it was not changed.")
                           .format(path=path)) from None
    except ValueError as exc:
        from json import JSONDecodeError  # (json imported only now: companion.core.json_read)

        if isinstance(exc, JSONDecodeError):
            raise StoreError(
                _("{path} is not valid JSON (line {lineno}): restore it from a backup or move it away; it "
                  "was not changed.")
                .format(path=path, lineno=exc.lineno)
            ) from None
        # an integer of more than 4,300 digits: Python's words advise a Python call
        what = "a number thousands of digits long" if "digits" in str(exc) else "a value companion cannot read"
        raise StoreError(_("{path} holds {what}, which no companion file does (damaged): restore it from a backup "
                           "or move it away; it was not changed.")
                           .format(path=path, what=what)) from None
    if not isinstance(data, dict):
        raise StoreError(_("{path} does not hold companion data: move it away; it was not changed.")
                           .format(path=path))
    meta = data.pop(SCHEMA_KEY, None)
    version = meta.get("version") if isinstance(meta, dict) else None
    if not isinstance(version, int) or version < 1:
        raise StoreError(_("{path} has no valid schema version: move it away; it was not changed.")
                           .format(path=path))
    current = schema_version(kind)
    if version > current:
        raise StoreError(
            _("{path} was written by a newer companion (schema {version}, this one reads up to "
              "{current}): upgrade companion; the file was not changed.")
              .format(path=path, version=version, current=current)
        )
    for migrate in MIGRATIONS[kind][version - 1 :]:
        data = migrate(data)
    for name, table in data.items():  # TinyDB's shape: tables of numbered documents
        # (keys from JSON are always strings; map/isinstance keep this at C speed: a session of
        # 10,000 events is checked at every action)
        if not isinstance(table, dict) or not (all(map(str.isdigit, table))
                                               and all(map(isinstance, table.values(), repeat(dict)))):
            raise StoreError(_("{path} is damaged (its {name} table is not a table of entries): move it away; it was not changed.")
                               .format(path=path, name=repr(str(name)[:40])))
    return data


def file_signature(path: Path) -> tuple | None:
    """What tells one version of a file from the next: inode, size and modification time
    (every write replaces the file, so a new version always has a new inode)."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def sha256(text: str) -> str:
    """The SHA-256 of ``text``.

    A start that reads a replay snapshot checks it with this: CPython's own SHA-256 module is
    used where it has one, since hashlib starts OpenSSL first, which costs a `status` more
    than its whole replay (12 M instructions, issue 27). Both give the same digest."""
    return _sha256_of(text.encode("utf-8")).hexdigest()


def _sha256_of(data: bytes):
    global _sha256_of
    try:
        from _sha256 import sha256 as found  # Python 3.11
    except ImportError:
        try:
            from _sha2 import sha256 as found  # Python 3.12 and later
        except ImportError:  # a build without them: OpenSSL's
            from hashlib import sha256 as found
    _sha256_of = found
    return found(data)


def dumps_compact(value: Any) -> str:
    """JSON as every data file is written (TinyDB's layout without spaces, UTF-8 kept)."""
    import json  # (only where a file is written: a `status` reads, companion.core.json_read)

    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def glob_escape(text: str) -> str:
    return "".join(f"[{c}]" if c in "*?[]" else c for c in text)


class without_cycle_collection:
    """Python's cycle collector off while a command reads a whole history (a decorator or a
    context; issue 23). Reading 50,000 index entries makes millions of objects, and the
    collector walked them all again and again: half the time of `stats` at 50,000 sessions.
    Nothing these commands make holds a cycle; reference counting frees it all as usual, and
    the collector is back on afterwards (the shell runs on)."""

    def __enter__(self):
        import gc

        self._was = gc.isenabled()
        gc.disable()
        return self

    def __exit__(self, *exc):
        import gc

        if self._was:
            gc.enable()
        return False

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def inner(*args, **kwargs):
            with without_cycle_collection():
                return fn(*args, **kwargs)

        return inner
