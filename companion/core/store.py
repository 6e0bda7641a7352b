"""TinyDB storage that survives crashes and shares the data folder between processes.

TinyDB's own JSONStorage rewrites the file in place, so a crash mid-write corrupts it, and it
knows nothing of other processes. Here:

* every write goes to a temporary file in the same folder, is flushed and fsynced, then
  atomically replaces the old file (and the folder is fsynced): a kill at any instant leaves
  the old or the new file, never half of one;
* writers take locks; readers need no lock, since they only ever see whole files; a writer
  re-reads under the lock, so two shells never lose each other's events. A session has its own
  lock, and the folder one short lock for the index, settings and the players' values. Every
  write that touches a session file (an action, undo, `new`, `delete`, `restore`, an `import` that
  continues it) takes that session's lock first and the folder's inside it where it touches
  the index, always in that order (several sessions: in the order of their ids), and never a
  session's lock while holding the folder's: so no two writers wait for each other, and no
  write can recreate a file that a delete moved away (issue 22);
* each session's events live in their own file, so recording an action costs the same with one
  stored session or ten thousand; a small index lists the sessions for `sessions` and stats;
* every file carries a schema version; older files are migrated in order when read; a newer
  or damaged file is refused with a message naming it, and is never overwritten.
"""

from __future__ import annotations

import contextlib
import errno
import json
from itertools import repeat
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, NamedTuple

if TYPE_CHECKING:
    from tinydb import TinyDB

from companion.contract.errors import BusyError, CompanionError, StoreError
# The files themselves (written whole, read within a bound, migrated): companion.core.files;
# their names stay importable from here.
from companion.core.files import (  # noqa: F401
    FILE_MODE, FOLDER_MODE, ID_PATTERN, MAX_FILE_BYTES, MIGRATIONS, SCHEMA_KEY, atomic_write_text,
    clean_leftovers, dumps_compact, file_signature, glob_escape, is_session_id, make_private_folder,
    now, parse_json, read_file_text, read_json_file, read_json_text, schema_version, sha256,
    without_cycle_collection,
)

# Seconds a writer waits for another one before giving up (bounded: a writer waits rather than
# fails while others write, issue 12; each holds a lock for one action, a few milliseconds).
LOCK_TIMEOUT = 30.0


# The players' alias table (see companion.record.players): its kind is ``players`` once
# MIGRATIONS lists it, ``settings`` (same version 1 layout) until then.
ALIAS_FILE = "players.json"
ALIAS_KIND = "players" if "players" in MIGRATIONS else "settings"


class Held(NamedTuple):
    """A session file as a Store last read or wrote it: its signature (see
    :func:`file_signature`), its text, its parsed contents when they were parsed (their journal
    entries are shared with the caller, who never changes them), and the number of its last
    journal entry when the journal is the file's last table (so an entry can be spliced in)."""

    sid: str
    signature: tuple | None
    text: str
    data: dict | None
    last: int | None

    @classmethod
    def parsed(cls, sid: str, signature: tuple | None, text: str, data: dict) -> "Held":
        journal = data.get("journal")
        at_end = next(reversed(data), None) == "journal" and isinstance(journal, dict)
        return cls(sid, signature, text, data, max(map(int, journal), default=0) if at_end else None)


def description_in(text: str) -> dict | None:
    """A session file's description, parsed alone from its text (without the journal), or None.

    Session files are written with ``"meta"`` right after the schema stamp, before the journal:
    this is a parse of a few kilobytes even at 10,000 events."""
    start = text.find('"meta":', 0, 1000)
    if start < 0:
        return None
    try:
        table = json.JSONDecoder().raw_decode(text, start + len('"meta":'))[0]
    except (ValueError, RecursionError):
        return None
    meta = table.get("1") if isinstance(table, dict) else None
    return meta if isinstance(meta, dict) else None


class AtomicJSONStorage:
    """A TinyDB storage with atomic writes and a schema version (see the module docstring).

    TinyDB needs only ``read``, ``write`` and ``close`` of a storage, so this class does not
    derive from ``tinydb.storages.Storage``: reading a session (``status``) then never imports
    TinyDB at all; only writes do, in :func:`open_db`.
    """

    def __init__(self, path: str | Path, kind: str = "session"):
        self.path = Path(path)
        self.kind = kind

    def read(self) -> dict | None:
        return read_json_file(self.path, self.kind)

    def write(self, data: dict) -> None:
        doc = {SCHEMA_KEY: {"kind": self.kind, "version": schema_version(self.kind)}}
        doc.update(data)
        atomic_write_text(self.path, dumps_compact(doc))

    def close(self) -> None:
        pass


def open_db(path: Path, kind: str) -> TinyDB:
    from tinydb import TinyDB

    return TinyDB(path, storage=AtomicJSONStorage, kind=kind)


def query():
    """TinyDB's ``Query`` (imported when a write needs it)."""
    from tinydb import Query

    return Query()


class Store:
    """The data folder: one file per session, an index, settings and the players' own values."""

    def __init__(self, root: str | Path):
        if "\x00" in str(root):
            raise StoreError("The data folder's name contains a NUL character: give another folder.")
        self.root = Path(root).expanduser()
        self._locks: dict[Path, Any] = {}
        # Things a command should tell the user besides its answer: a file skipped, a cache that
        # could not be updated (printed by the terminal layer after the command, one line each).
        self.notes: list[str] = []
        # The session file last read or written (one only: `stats` reads thousands).
        self._held: Held | None = None
        self._swept = False  # leftovers of killed writes looked for (sweep_leftovers)
        self._local: bool | None = None  # .local/ is where this machine's files are (issue 30)

    # -- paths -----------------------------------------------------------------------------
    @property
    def sessions_dir(self) -> Path:
        return self.root / "sessions"

    def session_path(self, sid: str) -> Path:
        if not is_session_id(sid):
            raise StoreError(f"{str(sid)[:40]!r} is not a session id (8 letters and digits): `sessions` lists them.")
        return self.sessions_dir / f"{sid}.json"

    def check_inside(self, path: Path) -> None:
        """Refuse a data file that is a link leading out of the data folder."""
        if not path.is_symlink():
            return
        try:
            path.resolve().relative_to(self.root.resolve())
        except (ValueError, OSError, RuntimeError):
            raise StoreError(f"{path} is a link to outside the data folder: move it away; it was not read.") from None

    def local_path(self, name: str) -> Path:
        """Where this machine's own file or folder ``name`` is (companion.core.layout): under
        ``.local/``, which the sync ignores. A folder from before issue 30 has its files moved
        there the first time one is asked for (once per Store)."""
        if self._local is None:
            from companion.core import layout

            if layout.old_names(self.root):
                layout.migrate(self.root)
                self._local = (self.root / layout.LOCAL).is_dir()
            else:
                self._local = True
        if self._local:
            return self.root / ".local" / name
        from companion.core.layout import place

        return place(self.root, name)

    @property
    def local_dir(self) -> Path:
        """This machine's own folder in the data folder (never synced: see companion.core.layout)."""
        return self.root / ".local"

    @property
    def cache_dir(self) -> Path:
        """The caches: made again from the record when absent (this machine's own)."""
        return self.local_path("cache")

    @property
    def index_path(self) -> Path:
        return self.local_path("index.json")

    @property
    def settings_path(self) -> Path:
        return self.local_path("settings.json")

    @property
    def userdata_path(self) -> Path:
        return self.root / "userdata.json"

    @property
    def history_path(self) -> Path:
        return self.local_path("shell-history")

    @property
    def error_log_path(self) -> Path:
        return self.local_path("errors.log")

    def ensure(self) -> None:
        try:
            make_private_folder(self.root)
            make_private_folder(self.sessions_dir)
            if not self.local_dir.is_dir():  # the folder's layout written: .stignore with it
                self.local_path("index.json")  # (an old folder's files are moved first)
                make_private_folder(self.local_dir)
                from companion.core.layout import write_stignore

                write_stignore(self.root)
            for folder in (self.root, self.sessions_dir, self.local_dir):  # folders made before issue 12
                if folder.stat().st_mode & 0o077:
                    with contextlib.suppress(OSError):
                        folder.chmod(FOLDER_MODE)
        except FileExistsError:
            raise StoreError(f"{self.root} must be a folder, but a file is in the way.") from None
        except OSError as exc:
            if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM) and self.sessions_dir.is_dir():
                raise StoreError(f"The data folder {self.root} is read-only ({exc.strerror}): reading commands "
                                 "work, but nothing can be recorded. Nothing was changed.") from None
            raise StoreError(f"Cannot create the data folder {self.root}: {exc.strerror or exc}.") from None

    # -- locking ---------------------------------------------------------------------------
    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        """Hold the folder's short lock: the index, settings, the players' values and aliases,
        creating and importing sessions (re-entrant within one Store)."""
        with self._locked(self.local_path(".lock"), "the list of sessions"):
            yield

    @contextlib.contextmanager
    def writing_session(self, sid: str) -> Iterator[None]:
        """Hold session ``sid``'s own lock (issue 12): writers of different sessions never wait
        for each other; they share only the folder's short lock, and only to update the index."""
        self.session_path(sid)  # an id, not a path
        with self._locked(self.local_path("locks") / f"{sid}.lock", f"session {sid}"):
            yield

    @contextlib.contextmanager
    def writing_sessions(self, sids: "list[str] | set[str]") -> Iterator[None]:
        """Hold the locks of several sessions, taken in the order of their ids (the one order
        every writer uses, so two writers of the same sessions never wait for each other); the
        caller takes the folder's lock inside, if it needs it (issue 22)."""
        ids = sorted(set(sids))
        _room_for_locks(len(ids))
        with contextlib.ExitStack() as stack:
            for sid in ids:
                stack.enter_context(self.writing_session(sid))
            yield

    @contextlib.contextmanager
    def _locked(self, lock_path: Path, what: str) -> Iterator[None]:
        from filelock import FileLock, Timeout

        self.ensure()
        if not self._swept:  # this process's first write: what killed writes left goes first
            self.sweep_leftovers()
        lock = self._locks.get(lock_path)
        if lock is None:
            if lock_path.parent not in (self.root, self.local_dir):
                try:
                    make_private_folder(lock_path.parent)
                except OSError as exc:
                    raise StoreError(f"Cannot lock {what} in {self.root} ({exc.strerror or exc}): if the folder is "
                                     "read-only, reading commands still work. Nothing was changed.") from None
            if lock_path.is_symlink() or (lock_path.exists() and not lock_path.is_file()):
                raise StoreError(f"{lock_path} is not a plain file (a link or a folder): move it away; "
                                 "nothing was changed.")
            lock = self._locks[lock_path] = FileLock(str(lock_path), timeout=LOCK_TIMEOUT, mode=FILE_MODE)
        try:
            lock.acquire()
        except Timeout:
            raise BusyError(
                f"Another companion has been writing to {what} for {LOCK_TIMEOUT:.0f} seconds: "
                "try again in a moment (nothing was changed)."
            ) from None
        except OSError as exc:
            raise StoreError(f"Cannot lock {what} in {self.root} ({exc.strerror or exc}): if the folder is "
                             "read-only, reading commands still work. Nothing was changed.") from None
        try:
            yield
        finally:
            lock.release()

    def sweep_leftovers(self) -> int:
        """Remove what killed writes left in the data folder, once per Store: at its first write
        and when a shell or a script starts (companion.core.leftovers, issue 22)."""
        if self._swept:
            return 0
        self._swept = True
        from companion.core.leftovers import sweep  # (given what it needs: it imports no store)

        return sweep(self.root, is_session_id, FILE_MODE, self.local_path("index.json").parent)

    # -- sessions --------------------------------------------------------------------------
    def session_ids(self) -> list[str]:
        """The ids of the session files (names that are not session ids are not sessions), but
        those in the bin (:meth:`deleted_ids`)."""
        if not self.sessions_dir.is_dir():
            return []
        deleted = self.deleted_ids()
        return sorted(p.stem for p in self.sessions_dir.glob("*.json")
                      if ID_PATTERN.fullmatch(p.stem) and p.stem not in deleted)

    # The bin as a per-device log since issue 30 (companion.core.shared_log): ``trash/<device>.json``,
    # one entry per session, "deleted" or "restored". Merge rule: the latest by time, then device.
    # A deleted session's file stays where it is (so an action another laptop recorded on it
    # while apart is kept in it, and comes back with `restore`); a session in ``bin/`` was
    # deleted before issue 30.
    def deleted_ids(self) -> set[str]:
        """The sessions whose latest entry in the laptops' logs of the bin says deleted."""
        from companion.core import shared_log

        return {sid for sid, said in shared_log.values(self, "trash").items() if said == "deleted" and is_session_id(sid)}

    def mark_deleted(self, sids: "dict[str, bool]") -> None:
        """Add to this laptop's log of the bin: sid -> True deleted, False restored (caller
        holds the folder's lock)."""
        from companion.core import shared_log

        shared_log.write(self, "trash", {sid: "deleted" if gone else "restored" for sid, gone in sids.items()})

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
        if matches:
            deleted = self.deleted_ids()
            matches = [sid for sid in matches if sid not in deleted]
        if not matches:
            raise CompanionError(f"No session starts with {prefix!r}: `sessions` lists them.")
        if len(matches) > 1:
            shown = ", ".join(matches[:5]) + (" ..." if len(matches) > 5 else "")
            raise CompanionError(f"{prefix!r} matches several sessions ({shown}): type more of the id.")
        return matches[0]

    def signature(self, sid: str) -> tuple | None:
        """The session file's (inode, size, time) now: it changes with every write (each write
        replaces the file), so what was read under one signature is still true under it."""
        return file_signature(self.session_path(sid))

    def held_signature(self, sid: str) -> tuple | None:
        """The signature of the session file as this Store last read or wrote it."""
        held = self._held
        return held.signature if held is not None and held.sid == sid else None

    def _session_text(self, sid: str, path: Path) -> tuple[str, tuple] | None:
        """The session file's text and signature: what this Store holds of it when the file is
        still that one, else read (a session is read from disk once per action)."""
        held = self._holding(sid)
        if held is not None:
            return held.text, held.signature
        return read_file_text(path)

    def read_session(self, sid: str) -> tuple[dict, list[dict]]:
        """The session's fixed description and its journal, read without a lock.

        The file's text and parsed contents are kept (with its inode, size and time) so that
        ``append`` under the lock does not parse the file a second time, and replay can check
        its snapshot against the text (issue 12)."""
        path = self.session_path(sid)
        self.check_inside(path)
        held = self._holding(sid)
        if held is not None and held.data is not None:
            data, text, signature = held.data, held.text, held.signature
        else:
            found = self._session_text(sid, path)
            if found is None:
                raise CompanionError(f"Session {sid} does not exist: `sessions` lists them.")
            text, signature = found
            data = parse_json(path, text, "session")
        try:
            meta = data["meta"]["1"]
            journal_table = data.get("journal", {})
            journal = [journal_table[k] for k in sorted(journal_table, key=int)]
        except (KeyError, TypeError, ValueError, AttributeError):
            raise StoreError(
                f"{self.session_path(sid)} is damaged (no session description): move it away; "
                "it was not changed."
            ) from None
        problem = session_shape_problem(sid, meta, journal)
        if problem:
            raise StoreError(f"{path} is damaged ({problem}): move it away; it was not changed.")
        self._held = Held.parsed(sid, signature, text, data)
        return meta, journal

    def session_text(self, sid: str) -> str | None:
        """The text of the session file as last read or written by this Store, if the file
        is still that one (same inode, size and time); None otherwise."""
        held = self._holding(sid)
        return held.text if held else None

    def session_game(self, sid: str) -> str:
        """The game id of session ``sid`` (the root group uses it to find the game's commands).

        Only the session's description is parsed, not its journal: the file is written with
        ``"meta"`` before ``"journal"``, so at 10,000 events this costs a read of the file and
        a parse of a few kilobytes instead of the whole journal. Anything unexpected falls back
        to the full, checked read. The command itself reads the session again, checked.
        """
        path = self.session_path(sid)
        self.check_inside(path)
        found = self._session_text(sid, path)
        if found is not None and self._holding(sid) is None:
            self._held = Held(sid, found[1], found[0], None, None)  # the command reads it next
        meta = description_in(found[0]) if found is not None else None
        game = meta.get("game") if meta else None
        if isinstance(game, str) and game:
            return game
        return self.read_session(sid)[0]["game"]

    def create_session(self, meta: dict, entries: "list[dict] | tuple" = (), summary: dict | None = None) -> None:
        """Write a new session file, with its first journal ``entries``, in one write, then its
        index entry (caller holds the locks). One write: a kill or a full disk leaves no session
        or all of it (issue 22: `played` wrote the file, then each entry, and a full disk in
        between said "Nothing was changed" about a file it had written)."""
        path = self.session_path(meta["id"])
        if path.exists():
            raise StoreError(f"{path} exists already; nothing was changed.")
        doc = {SCHEMA_KEY: {"kind": "session", "version": schema_version("session")}, "meta": {"1": meta},
               "journal": {str(n): entry for n, entry in enumerate(entries, 1)}}
        atomic_write_text(path, dumps_compact(doc))
        self.index_put_or_note(index_entry(meta, summary), meta["id"])

    def index_put_or_note(self, entry: dict, sid: str) -> None:
        """Update the index after its session file was written. The index is a cache of the
        session files: when it cannot be written (a full disk), the session is saved all the
        same, and a note says exactly that (never "nothing was changed", which would be false)."""
        try:
            self.index_put(entry)
        except StoreError as exc:
            reason = exc.message.split(": ", 1)[-1].split(". Nothing was changed")[0]
            self.notes.append(f"Saved in {self.session_path(sid)}, but the index of sessions could not be updated "
                              f"({reason}); `sessions` mends it once the disk has room.")

    def read_session_after(self, sid: str, prefix_chars: int, prefix_sha256: str, last_number: int):
        """The session read without parsing the journal entries a replay snapshot covers.

        The snapshot names the first ``prefix_chars`` characters of the file's text (its
        description and the entries up to ``last_number``) by their SHA-256. When the text still
        begins with exactly those characters, only the description and the entries written
        since are parsed: at 10,000 events that is a few kilobytes instead of 1.2 MB. Returns
        (meta, the entries since, a function parsing the covered entries when something asks
        for them), or None whenever anything differs, and the caller reads the whole file."""
        path = self.session_path(sid)
        self.check_inside(path)
        found = self._session_text(sid, path)
        if found is None:
            return None
        text, signature = found
        stamp = dumps_compact({SCHEMA_KEY: {"kind": "session", "version": schema_version("session")}})[:-1]
        if (not 0 < prefix_chars <= len(text) - 2 or not text.startswith(stamp + ',"meta":')
                or sha256(text[:prefix_chars]) != prefix_sha256):
            return None
        rest = text[prefix_chars:]
        meta = description_in(text)
        if meta is None:
            return None
        try:
            if rest == "}}":
                tail: dict = {}
            elif rest.startswith(',"') and rest.endswith("}}"):
                tail = json.loads("{" + rest[1:-2] + "}")
            else:
                return None
            numbers = [int(k) for k in tail]
        except (ValueError, KeyError, TypeError, RecursionError):
            return None
        if numbers != sorted(numbers) or (numbers and numbers[0] <= last_number) or not all(map(str.isdigit, tail)):
            return None
        entries = list(tail.values())
        if session_shape_problem(sid, meta, entries):
            return None  # the full read names the problem
        head_text = text[:prefix_chars] + "}}"

        def head() -> list[dict]:
            table = parse_json(path, head_text, "session")["journal"]
            return [table[k] for k in sorted(table, key=int)]

        self._held = Held(sid, signature, text, None, numbers[-1] if numbers else last_number)
        return meta, entries, head

    def last_number(self, sid: str) -> int | None:
        """The number of the last journal entry of the session file as last read or written,
        if it is still that file and its journal is its last table."""
        held = self._holding(sid)
        return held.last if held else None

    def _holding(self, sid: str) -> Held | None:
        """What this Store holds of session ``sid``'s file, if the file is still that one (same
        inode, size and time: every write replaces the file)."""
        held = self._held
        if held is None or held.sid != sid or held.signature != file_signature(self.session_path(sid)):
            return None
        return held

    def append(self, sid: str, entry: dict) -> int:
        """Append one journal entry to a session file (caller holds the lock).

        Writes what TinyDB's insert would write, byte for byte. Since the journal is the file's
        last table, the new entry is spliced into the text read under the same lock, instead of
        parsing the file again and encoding the whole session (at 10,000 events that encoding
        alone was 16 ms of every action). The file is still replaced whole and atomically: a kill
        leaves the old or the new file."""
        path = self.session_path(sid)
        if not path.exists() or sid in self.deleted_ids():  # (a delete came first: the file stays, issue 30)
            raise CompanionError(f"Session {sid} does not exist: `sessions` lists them.")
        held = self._holding(sid)
        data = held.data if held else None
        if (held and held.last is not None
                and held.text.endswith('"journal":{}}' if held.last == 0 else "}}}")):  # as written compact
            number, text = held.last + 1, held.text
            text = f'{text[:-2]}{"" if number == 1 else ","}"{number}":{dumps_compact(entry)}}}}}'
            if data is not None:
                data["journal"][str(number)] = entry
        else:
            if data is None:
                data = read_json_file(path, "session") or {}
            journal = data.setdefault("journal", {})
            if not isinstance(journal, dict):
                raise StoreError(f"{path} is damaged (its journal is not a table): move it away; it was not changed.")
            number = max((int(k) for k in journal), default=0) + 1
            journal[str(number)] = entry
            doc = {SCHEMA_KEY: {"kind": "session", "version": schema_version("session")}}
            doc.update(data)
            text = dumps_compact(doc)
        atomic_write_text(path, text)
        self._held = Held(sid, file_signature(path), text, data, number)
        return number

    # -- replay snapshots (a cache: deleting the folder loses nothing) ---------------------
    def snapshot_path(self, sid: str) -> Path:
        return self.cache_dir / "replay" / f"{sid}.snapshot"

    def read_snapshot(self, sid: str) -> dict | None:
        """The replay snapshot kept for session ``sid``, or None if absent, unreadable, or not
        what was written: its contents must match the SHA-256 it carries (issue 22: a state
        changed by hand was believed). This catches damage and careless edits; whoever can
        write the folder can recompute the hash (SECURITY.md), as they can edit the journal."""
        path = self.snapshot_path(sid)
        try:
            if not path.is_file() or path.is_symlink() or path.stat().st_size > SNAPSHOT_MAX_BYTES:
                return None
            text = path.read_text(encoding="utf-8")
            head = len(SNAPSHOT_CHECK) + 64 + 2
            if (not text.startswith(SNAPSHOT_CHECK) or text[head - 2:head] != '",'
                    or sha256("{" + text[head:]) != text[len(SNAPSHOT_CHECK):head - 2]):
                return None
            snap = json.loads(text)
        except (OSError, ValueError, RecursionError):
            return None
        if not isinstance(snap, dict):
            return None
        snap["_text"] = text  # a second replay of the same session parses its state afresh
        return snap

    def drop_snapshot(self, sid: str) -> None:
        """Remove session ``sid``'s replay snapshot (its session left the record: `delete`)."""
        with contextlib.suppress(OSError):
            self.snapshot_path(sid).unlink()

    def write_snapshot(self, sid: str, snap: dict) -> None:
        """Keep a replay snapshot, led by the SHA-256 of the rest of its text (see
        :meth:`read_snapshot`); a failure to write it is not an error (it is only a cache)."""
        body = dumps_compact({k: v for k, v in snap.items() if k != "check"})
        if body == "{}":
            return
        with contextlib.suppress(CompanionError, OSError):
            atomic_write_text(self.snapshot_path(sid), f'{SNAPSHOT_CHECK}{sha256(body)}",{body[1:]}')

    # -- index -----------------------------------------------------------------------------
    def index(self) -> list[dict]:
        """Every session's entry in the index, oldest first, as written (no healing here:
        ``companion.core.session.index`` adds the files a crash left unlisted, since their
        summaries need the game's rules)."""
        self.check_inside(self.index_path)
        data = read_json_file(self.index_path, "index") or {}
        table = data.get("sessions", {})
        try:
            entries = [table[k] for k in sorted(table, key=int)]
        except (TypeError, ValueError, AttributeError):
            entries = None
        if entries is None or not all(isinstance(e, dict) and is_session_id(e.get("id")) for e in entries):
            raise StoreError(f"{self.index_path} is damaged (its entries are not session entries): move it away "
                             "and `sessions` rebuilds it from the session files; it was not changed.")
        # by start: the index is this laptop's own and lists sessions in the order they reached
        # it, which a sync makes different on each laptop (issue 30). Stable, so sessions started
        # in the same second keep the order this laptop gave them (already in order but for
        # synced ones, so the sort is a single pass)
        entries.sort(key=_started)
        return entries

    def index_remove(self, ids: list[str]) -> None:
        """Drop the index entries of sessions whose files are gone (caller holds the lock)."""
        table = open_db(self.index_path, "index").table("sessions", cache_size=0)
        table.remove(query().id.one_of(list(ids)))

    def index_put(self, entry: dict) -> None:
        """Insert or replace the index entry of ``entry['id']`` (caller holds the lock); a
        session in the bin is never listed again (issue 30)."""
        if entry["id"] in self.deleted_ids():
            return
        table = open_db(self.index_path, "index").table("sessions", cache_size=0)
        table.upsert(entry, query().id == entry["id"])

    # -- settings --------------------------------------------------------------------------
    def current(self) -> str | None:
        self.check_inside(self.settings_path)
        data = read_json_file(self.settings_path, "settings") or {}
        table = data.get("settings") or {}
        doc = table.get("1") if isinstance(table, dict) else None
        if doc is None:
            return None
        sid = doc.get("current") if isinstance(doc, dict) else "?"
        if sid is not None and not is_session_id(sid):
            raise StoreError(f"{self.settings_path} is damaged (its current session {str(sid)[:40]!r} is not a "
                             "session id): pick a session with `use ID`, or move the file away.")
        return sid

    def set_current(self, sid: str | None) -> None:
        table = open_db(self.settings_path, "settings").table("settings")
        if table.get(doc_id=1) is None:
            table.insert({"current": sid})
        else:
            table.update({"current": sid}, doc_ids=[1])

    # -- player aliases (written by companion.record.players: `player rename`/`merge`) -------
    # A per-device log since issue 30 (companion.core.shared_log): ``players/<device>.json``.
    # Merge rule: per recorded name, the latest rename by time, then device; then a chain of
    # renames (a -> B on one laptop, b -> C on another) is followed to its end, and a cycle
    # (a -> B and b -> A at once) settles on the name that comes first in the alphabet.
    @property
    def aliases_path(self) -> Path:
        """This laptop's own log of renames (the only file of them it writes)."""
        from companion.core import shared_log

        return shared_log.own_path(self, "players")

    def aliases(self) -> dict[str, str]:
        """recorded name (case-folded) -> shown name; empty when nobody renamed anyone."""
        from companion.core import shared_log

        return resolve_renames(shared_log.values(self, "players", ALIAS_FILE, _legacy_aliases))

    # -- the players' own printed values ---------------------------------------------------
    # A per-device log since issue 30: ``values/<device>.json``, key [game, key], value
    # {"value": ..., "set_at": ...} or None when unset. Merge rule: the latest by time, then device.
    @property
    def userdata_path(self) -> Path:
        """The file of printed values before issue 30 (read as one laptop's log, never written)."""
        return self.root / "userdata.json"

    def user_values(self, game: str) -> dict[str, Any]:
        return {k: v["value"] for k, v in self.user_entries(game).items()}

    def _all_user_values(self) -> dict:
        from companion.core import shared_log

        return shared_log.values(self, "values", "userdata.json", _legacy_values)

    def user_entries(self, game: str) -> dict[str, dict]:
        out = {}
        for (of, key), doc in sorted(self._all_user_values().items(), key=lambda kv: str(kv[0])):
            if of == game and isinstance(doc, dict) and "value" in doc and isinstance(key, str):
                out[key] = {"key": key, "value": doc["value"], "set_at": doc.get("set_at")}
        return out

    def set_user_value(self, game: str, key: str, value: Any) -> None:
        self.change_user_values(game, {key: value})

    def unset_user_value(self, game: str, key: str) -> bool:
        return bool(self.change_user_values(game, unset=[key]))

    def change_user_values(self, game: str, values: dict[str, Any] | None = None, unset: Any = ()) -> int:
        """Set ``values`` (key -> value) and forget the keys in ``unset`` of ``game``, in one
        write of this laptop's log of values (caller holds the lock); returns how many were
        forgotten. One write, so a full disk leaves the file as it was (issue 22)."""
        from companion.contract.numbers import check_numbers
        from companion.core import shared_log

        values = values or {}
        check_numbers(values)  # the bound `import` applies too: what is set can be exported
        known = self.user_entries(game)
        gone = [key for key in set(unset) - set(values) if key in known]
        if not values and not gone:
            return 0
        changes: dict[Any, Any] = {(game, key): None for key in sorted(gone)}
        at = now()
        for key, value in values.items():
            changes[(game, key)] = {"value": value, "set_at": at}
        shared_log.write(self, "values", changes, "userdata.json", _legacy_values)
        return len(gone)


def _legacy_aliases(path: Path):
    """players.json (before issue 30) read as one laptop's log of renames."""
    from companion.core.shared_log import LEGACY_DEVICE, Entry, normal_time

    data = read_json_file(path, ALIAS_KIND) or {}
    for n, doc in (data.get("aliases") or {}).items():
        if isinstance(doc, dict) and isinstance(doc.get("recorded"), str) and isinstance(doc.get("shown"), str):
            yield Entry(doc["recorded"].casefold(), doc["shown"], normal_time(doc.get("at")), LEGACY_DEVICE, int(n))


def _legacy_values(path: Path):
    """userdata.json (before issue 30) read as one laptop's log of printed values."""
    from companion.core.shared_log import LEGACY_DEVICE, Entry, normal_time

    data = read_json_file(path, "userdata") or {}
    for game, table in data.items():
        if not isinstance(table, dict):
            raise StoreError(f"{path} is damaged (its {game} values are not a table): move it away; "
                             "it was not changed.")
        for n, doc in table.items():
            if isinstance(doc, dict) and isinstance(doc.get("key"), str) and "value" in doc:
                yield Entry((game, doc["key"]), {"value": doc["value"], "set_at": doc.get("set_at")},
                            normal_time(doc.get("set_at")), LEGACY_DEVICE, int(n))


def resolve_renames(aliases: dict[str, str]) -> dict[str, str]:
    """Renames merged from several laptops, each followed to its end (see Store.aliases): on
    one laptop every rename already points at the end of its chain, so this changes nothing."""
    folded = {k.casefold(): v for k, v in aliases.items() if isinstance(k, str) and isinstance(v, str)}
    out: dict[str, str] = {}
    for recorded, shown in folded.items():
        path = [recorded]
        while True:
            key = shown.casefold()
            if key not in folded or folded[key].casefold() == key:
                break  # the end of the chain
            if key in path:  # a cycle: the first name of it in the alphabet, on every laptop
                shown = min((folded[k] for k in path[path.index(key):]), key=lambda s: (s.casefold(), s))
                break
            path.append(key)
            shown = folded[key]
        out[recorded] = shown
    return out


def _started(entry: dict) -> str:
    return str(entry.get("created") or "")


SNAPSHOT_MAX_BYTES = 64 * 1024 * 1024
# A snapshot's text starts with the SHA-256 of the rest of it: {"check":"<64 hex>",<the rest>
SNAPSHOT_CHECK = '{"check":"'


def _room_for_locks(count: int) -> None:
    """Each lock held is an open file: let this process open ``count`` more than it would
    (an import continuing thousands of sessions holds all their locks at once), or refuse in
    one line when the system allows fewer."""
    if count < 64:
        return
    try:
        import resource
    except ImportError:  # pragma: no cover - not on a POSIX system
        return
    wanted = count + 256
    with contextlib.suppress(ValueError, OSError):
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft != resource.RLIM_INFINITY and soft < wanted:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted if hard == resource.RLIM_INFINITY
                                                        else min(wanted, hard), hard))
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raise StoreError(f"This would lock {count:,} sessions at once, but the system lets one process open only "
                         f"{soft:,} files: raise the limit (`ulimit -n {wanted}`) or do it in parts (an export of "
                         "one game or one player: `export --game GAME`). Nothing was changed.")


def session_shape_problem(sid: str, meta: Any, journal: list) -> str | None:
    """What is wrong with the shape of a session file's contents, or None (one reason only)."""
    if not isinstance(meta, dict):
        return "its description is not a table"
    if meta.get("id") != sid:
        return f"its description names the session {str(meta.get('id'))[:40]!r}, not {sid}"
    if not isinstance(meta.get("game"), str):
        return "it names no game"
    players = meta.get("players")
    if not isinstance(players, list) or not players or not all(isinstance(p, str) for p in players):
        return "its players are not a list of names"
    for key in ("options", "data"):
        if meta.get(key) is not None and not isinstance(meta.get(key), dict):
            return f"its {key} are not a table"
    if all(map(isinstance, journal, repeat(dict))):  # the common case, checked at C speed
        kinds = list(map(dict.get, journal, repeat("kind")))
        if all(map(isinstance, kinds, repeat(str))):
            actions = [entry for entry, kind in zip(journal, kinds) if kind == "do"]
            if all(map(isinstance, map(dict.get, actions, repeat("event")), repeat(dict))):
                return None
    for n, entry in enumerate(journal, 1):
        if not isinstance(entry, dict) or not isinstance(entry.get("kind"), str):
            return f"journal entry {n} is not an entry"
        if entry["kind"] == "do" and not isinstance(entry.get("event"), dict):
            return f"journal entry {n} holds no action"
    return None


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
        # a score sheet's game (`--title Carcassonne`, issue 23): the history counts it apart
        **({"title": (meta.get("options") or {})["title"]}
           if isinstance((meta.get("options") or {}).get("title"), str) else {}),
    }


