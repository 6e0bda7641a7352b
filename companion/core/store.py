"""TinyDB storage that survives crashes and shares the data folder between processes.

TinyDB's own JSONStorage rewrites the file in place, so a crash mid-write corrupts it, and it
knows nothing of other processes. Here:

* every write goes to a temporary file in the same folder, is flushed and fsynced, then
  atomically replaces the old file (and the folder is fsynced): a kill at any instant leaves
  the old or the new file, never half of one;
* writers take one lock file per data folder; readers need no lock, since they only ever see
  whole files; a writer re-reads under the lock, so two shells never lose each other's events;
* each session's events live in their own file, so recording an action costs the same with one
  stored session or ten thousand; a small index lists the sessions for `sessions` and stats;
* every file carries a schema version; older files are migrated in order when read; a newer
  or damaged file is refused with a message naming it, and is never overwritten.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterator

from tinydb import Query, TinyDB
from tinydb.storages import Storage

from companion.core.errors import BusyError, CompanionError, StoreError

LOCK_TIMEOUT = 5.0  # seconds a writer waits for another one before giving up

# Migrations per kind of file: MIGRATIONS[kind][i] upgrades version i+1 to i+2. A file's
# current version is len(MIGRATIONS[kind]) + 1. Append, never edit: old files depend on them.
MIGRATIONS: dict[str, list[Callable[[dict], dict]]] = {
    "index": [],
    "session": [],
    "settings": [],
    "userdata": [],
    "players": [],
}

SCHEMA_KEY = "_schema"


def schema_version(kind: str) -> int:
    return len(MIGRATIONS[kind]) + 1


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that a crash leaves either the old or the new file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    import tempfile  # only writes need it

    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise StoreError(f"Could not write {path}: {exc.strerror or exc}. Nothing was changed.") from exc
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
        raise StoreError(f"{path} is a folder, but a data file belongs there: move it away.") from None
    except OSError as exc:
        if exc.errno == errno.ENOENT or exc.errno == errno.ENOTDIR:
            return None
        raise StoreError(f"Cannot read {path}: {exc.strerror or exc}. Check its permissions; it was not changed.") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise StoreError(f"{path} is a folder, but a data file belongs there: move it away.")
        if not stat.S_ISREG(st.st_mode):
            raise StoreError(f"{path} is not a regular file (a device, pipe or socket): move it away; it was not read.")
        if st.st_size > limit:
            raise StoreError(f"{path} is too large ({st.st_size:,} bytes, at most {limit:,}): move it away; "
                             "it was not read.")
        chunks, size = [], 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            size += len(chunk)
            if size > limit:
                raise StoreError(f"{path} is too large (over {limit:,} bytes): move it away; it was not read.")
            chunks.append(chunk)
    except OSError as exc:
        raise StoreError(f"Cannot read {path}: {exc.strerror or exc}. Check its permissions; it was not changed.") from None
    finally:
        os.close(fd)
    try:
        text = b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError:
        raise StoreError(f"{path} is not UTF-8 text (damaged): restore it from a backup or move it away; "
                         "it was not changed.") from None
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
        raise StoreError(f"{path} is empty (damaged): restore it from a backup or move it away; it was not changed.")
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise StoreError(
            f"{path} is not valid JSON (line {exc.lineno}): restore it from a backup or move it away; "
            "it was not changed."
        ) from None
    except RecursionError:
        raise StoreError(f"{path} is nested too deeply to be companion data (damaged): move it away; "
                         "it was not changed.") from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        raise StoreError(f"{path} holds a value companion cannot read ({exc}): move it away; "
                         "it was not changed.") from None
    if not isinstance(data, dict):
        raise StoreError(f"{path} does not hold companion data: move it away; it was not changed.")
    meta = data.pop(SCHEMA_KEY, None)
    version = meta.get("version") if isinstance(meta, dict) else None
    if not isinstance(version, int) or version < 1:
        raise StoreError(f"{path} has no valid schema version: move it away; it was not changed.")
    current = schema_version(kind)
    if version > current:
        raise StoreError(
            f"{path} was written by a newer companion (schema {version}, this one reads up to "
            f"{current}): upgrade companion; the file was not changed."
        )
    for migrate in MIGRATIONS[kind][version - 1 :]:
        data = migrate(data)
    return data


class AtomicJSONStorage(Storage):
    """A TinyDB storage with atomic writes and a schema version (see the module docstring)."""

    def __init__(self, path: str | Path, kind: str = "session"):
        self.path = Path(path)
        self.kind = kind

    def read(self) -> dict | None:
        return read_json_file(self.path, self.kind)

    def write(self, data: dict) -> None:
        doc = {SCHEMA_KEY: {"kind": self.kind, "version": schema_version(self.kind)}}
        doc.update(data)
        atomic_write_text(self.path, json.dumps(doc, ensure_ascii=False, separators=(",", ":")))

    def close(self) -> None:
        pass


def open_db(path: Path, kind: str) -> TinyDB:
    return TinyDB(path, storage=AtomicJSONStorage, kind=kind)


class Store:
    """The data folder: one file per session, an index, settings and the players' own values."""

    def __init__(self, root: str | Path):
        self.root = Path(root).expanduser()
        self._lock = None
        # session id -> (file signature, parsed contents / text) of the last read or write
        self._docs: dict[str, tuple[tuple, dict]] = {}
        self._texts: dict[str, tuple[tuple, str]] = {}

    # -- paths -----------------------------------------------------------------------------
    @property
    def sessions_dir(self) -> Path:
        return self.root / "sessions"

    def session_path(self, sid: str) -> Path:
        return self.sessions_dir / f"{sid}.json"

    @property
    def index_path(self) -> Path:
        return self.root / "index.json"

    @property
    def settings_path(self) -> Path:
        return self.root / "settings.json"

    @property
    def userdata_path(self) -> Path:
        return self.root / "userdata.json"

    @property
    def history_path(self) -> Path:
        return self.root / "shell-history"

    @property
    def error_log_path(self) -> Path:
        return self.root / "errors.log"

    def ensure(self) -> None:
        try:
            self.sessions_dir.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise StoreError(f"{self.root} must be a folder, but a file is in the way.") from None
        except OSError as exc:
            raise StoreError(f"Cannot create the data folder {self.root}: {exc.strerror or exc}.") from None

    # -- locking ---------------------------------------------------------------------------
    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        """Hold the data folder's write lock (re-entrant within one Store)."""
        from filelock import FileLock, Timeout

        self.ensure()
        if self._lock is None:
            self._lock = FileLock(str(self.root / ".lock"), timeout=LOCK_TIMEOUT)
        try:
            self._lock.acquire()
        except Timeout:
            raise BusyError(
                f"Another companion has been writing to {self.root} for {LOCK_TIMEOUT:.0f} seconds: "
                "try again in a moment (nothing was changed)."
            ) from None
        try:
            yield
        finally:
            self._lock.release()

    # -- sessions --------------------------------------------------------------------------
    def session_ids(self) -> list[str]:
        if not self.sessions_dir.is_dir():
            return []
        return sorted(p.stem for p in self.sessions_dir.glob("*.json"))

    def resolve(self, prefix: str) -> str:
        """The one session id that starts with ``prefix``, or a clear refusal."""
        prefix = prefix.strip().lower()
        if not prefix:
            raise CompanionError("Give a session id (or the first letters of one): `sessions` lists them.")
        if "/" in prefix or "\\" in prefix or prefix.startswith("."):
            raise CompanionError(f"{prefix!r} is not a session id: `sessions` lists them.")
        matches = (
            sorted(p.stem for p in self.sessions_dir.glob(f"{glob_escape(prefix)}*.json"))
            if self.sessions_dir.is_dir()
            else []
        )
        if not matches:
            raise CompanionError(f"No session starts with {prefix!r}: `sessions` lists them.")
        if len(matches) > 1:
            shown = ", ".join(matches[:5]) + (" ..." if len(matches) > 5 else "")
            raise CompanionError(f"{prefix!r} matches several sessions ({shown}): type more of the id.")
        return matches[0]

    def read_session(self, sid: str) -> tuple[dict, list[dict]]:
        """The session's fixed description and its journal, read without a lock.

        The file's text and parsed contents are kept (with its inode, size and time) so that
        ``append`` under the lock does not parse the file a second time, and replay can check
        its snapshot against the text (issue 12)."""
        path = self.session_path(sid)
        found = read_json_text(path, "session")
        if found is None:
            raise CompanionError(f"Session {sid} does not exist: `sessions` lists them.")
        data, text, signature = found
        self._remember(sid, signature, data, text)
        try:
            meta = data["meta"]["1"]
            journal_table = data.get("journal", {})
            journal = [journal_table[k] for k in sorted(journal_table, key=int)]
        except (KeyError, TypeError, ValueError, AttributeError):
            raise StoreError(
                f"{self.session_path(sid)} is damaged (no session description): move it away; "
                "it was not changed."
            ) from None
        return meta, journal

    def session_text(self, sid: str) -> str | None:
        """The text of the session file as last read or written by this Store, if the file
        is still that one (same inode, size and time); None otherwise."""
        cached = self._texts.get(sid)
        if cached is None or cached[0] != file_signature(self.session_path(sid)):
            return None
        return cached[1]

    def session_game(self, sid: str) -> str:
        """The game id of session ``sid`` (the root group uses it to find the game's commands)."""
        return self.read_session(sid)[0]["game"]

    def create_session(self, meta: dict) -> None:
        """Write a new session file and its index entry (caller holds the lock)."""
        path = self.session_path(meta["id"])
        if path.exists():
            raise StoreError(f"{path} exists already; nothing was changed.")
        db = open_db(path, "session")
        db.table("meta").insert(meta)
        db.table("journal")  # created empty on the first append
        self.index_put(index_entry(meta))

    def append(self, sid: str, entry: dict) -> int:
        """Append one journal entry to a session file (caller holds the lock).

        Writes what TinyDB's insert would write, byte for byte, but reuses the contents read
        under the same lock instead of parsing the file again."""
        path = self.session_path(sid)
        if not path.exists():
            raise CompanionError(f"Session {sid} does not exist: `sessions` lists them.")
        cached = self._docs.get(sid)
        if cached is not None and cached[0] == file_signature(path):
            data = cached[1]
        else:
            data = read_json_file(path, "session") or {}
        journal = data.setdefault("journal", {})
        if not isinstance(journal, dict):
            raise StoreError(f"{path} is damaged (its journal is not a table): move it away; it was not changed.")
        number = max((int(k) for k in journal), default=0) + 1
        journal[str(number)] = entry
        doc = {SCHEMA_KEY: {"kind": "session", "version": schema_version("session")}}
        doc.update(data)
        text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
        atomic_write_text(path, text)
        self._remember(sid, file_signature(path), data, text)
        return number

    def _remember(self, sid: str, signature: tuple | None, data: dict, text: str) -> None:
        """Keep the last session read or written (one only: `stats` reads thousands). Its
        journal entries are shared with the caller, who never changes them."""
        self._docs = {sid: (signature, data)}
        self._texts = {sid: (signature, text)}

    # -- replay snapshots (a cache: deleting the folder loses nothing) ---------------------
    def snapshot_path(self, sid: str) -> Path:
        return self.root / "cache" / "replay" / f"{sid}.snapshot"

    def read_snapshot(self, sid: str) -> dict | None:
        """The replay snapshot kept for session ``sid``, or None if absent or unreadable."""
        path = self.snapshot_path(sid)
        try:
            if not path.is_file() or path.is_symlink() or path.stat().st_size > SNAPSHOT_MAX_BYTES:
                return None
            snap = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):
            return None
        return snap if isinstance(snap, dict) else None

    def write_snapshot(self, sid: str, snap: dict) -> None:
        """Keep a replay snapshot; a failure to write it is not an error (it is only a cache)."""
        with contextlib.suppress(CompanionError, OSError):
            atomic_write_text(self.snapshot_path(sid), json.dumps(snap, ensure_ascii=False, separators=(",", ":")))

    # -- index -----------------------------------------------------------------------------
    def index(self) -> list[dict]:
        """Every session's entry in the index, oldest first, as written (no healing here:
        ``companion.core.session.index`` adds the files a crash left unlisted, since their
        summaries need the game's rules)."""
        data = read_json_file(self.index_path, "index") or {}
        table = data.get("sessions", {})
        return [table[k] for k in sorted(table, key=int)]

    def index_put(self, entry: dict) -> None:
        """Insert or replace the index entry of ``entry['id']`` (caller holds the lock)."""
        table = open_db(self.index_path, "index").table("sessions", cache_size=0)
        table.upsert(entry, Query().id == entry["id"])

    # -- settings --------------------------------------------------------------------------
    def current(self) -> str | None:
        data = read_json_file(self.settings_path, "settings") or {}
        doc = (data.get("settings") or {}).get("1") or {}
        return doc.get("current")

    def set_current(self, sid: str | None) -> None:
        table = open_db(self.settings_path, "settings").table("settings")
        if table.get(doc_id=1) is None:
            table.insert({"current": sid})
        else:
            table.update({"current": sid}, doc_ids=[1])

    # -- the players' own printed values ---------------------------------------------------
    def user_values(self, game: str) -> dict[str, Any]:
        return {k: v["value"] for k, v in self.user_entries(game).items()}

    def user_entries(self, game: str) -> dict[str, dict]:
        data = read_json_file(self.userdata_path, "userdata") or {}
        table = data.get(game) or {}
        return {doc["key"]: doc for doc in table.values() if isinstance(doc, dict) and "key" in doc}

    def set_user_value(self, game: str, key: str, value: Any) -> None:
        table = open_db(self.userdata_path, "userdata").table(game, cache_size=0)
        table.upsert({"key": key, "value": value, "set_at": now()}, Query().key == key)

    def unset_user_value(self, game: str, key: str) -> bool:
        table = open_db(self.userdata_path, "userdata").table(game, cache_size=0)
        return bool(table.remove(Query().key == key))


SNAPSHOT_MAX_BYTES = 64 * 1024 * 1024


def file_signature(path: Path) -> tuple | None:
    """What tells one version of a file from the next: inode, size and modification time
    (every write replaces the file, so a new version always has a new inode)."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def glob_escape(text: str) -> str:
    return "".join(f"[{c}]" if c in "*?[]" else c for c in text)


def index_entry(meta: dict, summary: dict | None = None) -> dict:
    """What `sessions` and the statistics need of a session, without opening its file."""
    return {
        "id": meta["id"],
        "game": meta["game"],
        "players": list(meta["players"]),
        "created": meta["created"],
        "finished": (summary or {}).get("finished_at"),
        "summary": summary,
        # a game logged after the fact, or its place: stats order and filter by when it was played
        **{k: meta[k] for k in ("played_on", "location") if meta.get(k)},
    }
