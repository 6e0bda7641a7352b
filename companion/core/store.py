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
import os
from itertools import repeat
from stat import S_ISDIR
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, NamedTuple

if TYPE_CHECKING:
    from tinydb import TinyDB

from companion.contract.language import _
from companion.contract.errors import BusyError, CompanionError, StoreError
# The files themselves (written whole, read within a bound, migrated): companion.core.files;
# their names stay importable from here.
from companion.core.json_read import loads, raw_decode
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

    # the fields' types as objects, not as annotations: this module's annotations are strings,
    # and NamedTuple compiles each string at import (every start paid for them, issue 27)
    __annotations__ = {"sid": str, "signature": tuple | None, "text": str, "data": dict | None, "last": int | None}

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
        table = raw_decode(text, start + len('"meta":'))[0]
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
            raise StoreError(_("The data folder's name contains a NUL character: give another folder."))
        self.root = Path(root).expanduser()
        self._locks: dict[Path, Any] = {}
        # Things a command should tell the user besides its answer: a file skipped, a cache that
        # could not be updated (printed by the terminal layer after the command, one line each).
        self.notes: list[str] = []
        # The session file last read or written (one only: `stats` reads thousands).
        self._held: Held | None = None
        self._swept = False  # leftovers of killed writes looked for (sweep_leftovers)
        # the devices' journals (issue 30): the folder's listing of them, and the last merge read
        self._listing: tuple | None = None
        self._merged: tuple | None = None  # (sid, signature, meta, Merged)
        self._tip: tuple | None = None  # (sid, signature, head id, names): a read from a snapshot
        self._local: bool | None = None  # .local/ is where this machine's files are (issue 30)
        # paths made once (issue 29): an action asked for the same few paths dozens of times,
        # and each new Path is parsed again and turned into text again for each stat
        self._paths: tuple | None = None  # (root, sessions dir, {sid: session file}, .local, {name: path})
        self._journal_paths: tuple | None = None  # (listing, {sid: journal files})

    # -- paths -----------------------------------------------------------------------------
    def _made_paths(self) -> tuple:
        """(root, sessions dir, {sid: session file}, .local dir, {name: its file in .local}) for the
        root as it is now."""
        kept = self._paths
        if kept is None or kept[0] is not self.root:
            kept = self._paths = (self.root, self.root / "sessions", {}, self.root / ".local", {})
        return kept

    @property
    def sessions_dir(self) -> Path:
        return self._made_paths()[1]

    def session_path(self, sid: str) -> Path:
        _root, folder, made = self._made_paths()[:3]
        path = made.get(sid)
        if path is not None:
            return path
        if not is_session_id(sid):
            raise StoreError(_("{id} is not a session id (8 letters and digits): `sessions` lists them.")
                               .format(id=repr(str(sid)[:40])))
        if len(made) >= 64:  # `stats` reads thousands of sessions: only the last few are kept
            made.clear()
        path = made[sid] = folder / f"{sid}.json"
        return path

    def check_inside(self, path: Path) -> None:
        """Refuse a data file that is a link leading out of the data folder."""
        if not path.is_symlink():
            return
        try:
            path.resolve().relative_to(self.root.resolve())
        except (ValueError, OSError, RuntimeError):
            raise StoreError(_("{path} is a link to outside the data folder: move it away; it was not read.")
                               .format(path=path)) from None

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
            made = self._made_paths()[4]
            path = made.get(name)
            if path is None:
                path = made[name] = self.local_dir / name  # (a dozen names at most)
            return path
        from companion.core.layout import place

        return place(self.root, name)

    @property
    def local_dir(self) -> Path:
        """This machine's own folder in the data folder (never synced: see companion.core.layout)."""
        return self._made_paths()[3]

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

    def _ready(self) -> bool:
        """Whether the data folder, ``sessions/`` and ``.local/`` are folders already, the
        owner's only: what :meth:`ensure` would then leave as it is, told by three stats (every
        lock taken asks, and making them again cost two mkdirs refused and six stats: issue 29)."""
        try:
            return all(S_ISDIR(st.st_mode) and not st.st_mode & 0o077
                       for st in map(os.stat, (self.root, self.sessions_dir, self.local_dir)))
        except (OSError, ValueError):
            return False

    def ensure(self) -> None:
        if self._ready():
            return
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
            raise StoreError(_("{folder} must be a folder, but a file is in the way.").format(folder=self.root)) from None
        except OSError as exc:
            if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM) and self.sessions_dir.is_dir():
                raise StoreError(_("The data folder {folder} is read-only ({reason}): reading commands work, but nothing "
                                   "can be recorded. Nothing was changed.")
                                   .format(folder=self.root, reason=exc.strerror)) from None
            raise StoreError(_("Cannot create the data folder {folder}: {reason}.").format(folder=self.root, reason=exc.strerror or exc)) from None

    # -- locking ---------------------------------------------------------------------------
    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        """Hold the folder's short lock: the index, settings, the players' values and aliases,
        creating and importing sessions (re-entrant within one Store)."""
        with self._locked(self.local_path(".lock"), _("the list of sessions")):
            yield

    @contextlib.contextmanager
    def writing_session(self, sid: str) -> Iterator[None]:
        """Hold session ``sid``'s own lock (issue 12): writers of different sessions never wait
        for each other; they share only the folder's short lock, and only to update the index."""
        self.session_path(sid)  # an id, not a path
        with self._locked(self.local_path("locks") / f"{sid}.lock", _("session {id}").format(id=sid)):
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
                    raise StoreError(_("Cannot lock {what} in {folder} ({reason}): if the folder is read-only, reading commands "
                                       "still work. Nothing was changed.")
                                       .format(what=what, folder=self.root, reason=exc.strerror or exc)) from None
            if lock_path.is_symlink() or (lock_path.exists() and not lock_path.is_file()):
                raise StoreError(_("{file} is not a plain file (a link or a folder): move it away; nothing was changed.")
                                   .format(file=lock_path))
            lock = self._locks[lock_path] = FileLock(str(lock_path), timeout=LOCK_TIMEOUT, mode=FILE_MODE)
        try:
            lock.acquire()
        except Timeout:
            raise BusyError(
                _("Another companion has been writing to {what} for {LOCK_TIMEOUT:.0f} seconds: try again "
                  "in a moment (nothing was changed).")
                  .format(what=what, LOCK_TIMEOUT=LOCK_TIMEOUT)
            ) from None
        except OSError as exc:
            raise StoreError(_("Cannot lock {what} in {folder} ({reason}): if the folder is read-only, reading commands "
                               "still work. Nothing was changed.")
                               .format(what=what, folder=self.root, reason=exc.strerror or exc)) from None
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
            raise CompanionError(_("Give a session id (or the first letters of one): `sessions` lists them."))
        if "/" in prefix or "\\" in prefix or prefix.startswith("."):
            raise CompanionError(_("{prefix} is not a session id: `sessions` lists them.").format(prefix=repr(prefix)))
        matches = (
            sorted(p.stem for p in self.sessions_dir.glob(f"{glob_escape(prefix)}*.json"))
            if self.sessions_dir.is_dir()
            else []
        )
        if matches:
            deleted = self.deleted_ids()
            matches = [sid for sid in matches if sid not in deleted]
        if not matches:
            raise CompanionError(_("No session starts with {prefix}: `sessions` lists them.").format(prefix=repr(prefix)))
        if len(matches) > 1:
            shown = ", ".join(matches[:5]) + (" ..." if len(matches) > 5 else "")
            raise CompanionError(_("{prefix} matches several sessions ({shown}): type more of the id.")
                                   .format(prefix=repr(prefix), shown=shown))
        return matches[0]

    def signature(self, sid: str) -> tuple | None:
        """The session file's (inode, size, time) now, and each of its devices' journals' (issue
        30): it changes with every write (each write replaces the file or appends to a
        journal), so what was read under one signature is still true under it."""
        base = file_signature(self.session_path(sid))
        paths = self.journal_paths(sid)
        if not paths:
            return base
        from companion.core.journals import signature_of

        return (base, signature_of(paths))

    def held_signature(self, sid: str) -> tuple | None:
        """The signature of the session as this Store last read or wrote it."""
        merged = self._merged
        if merged is not None and merged[0] == sid:
            return merged[1]
        tip = self._tip
        if tip is not None and tip[0] == sid:
            return tip[1]
        held = self._held
        return held.signature if held is not None and held.sid == sid else None

    # -- the devices' journals of a session (issue 30: companion.core.journals) ---------------
    def _journal_listing(self) -> dict:
        """{session id: [names of its journal files, conflict copies included]}, from one
        listing of ``sessions/``, kept (in memory and in cache/journals.listing) while the folder's
        inode and time are unchanged: a new journal or copy arriving changes them, an entry
        appended to a journal does not need to."""
        import os

        try:
            st = os.stat(self.sessions_dir)
        except OSError:
            return {}
        stamp = [st.st_ino, st.st_mtime_ns]
        if self._listing is not None and self._listing[0] == stamp:
            return self._listing[1]
        cache = self.cache_dir / "journals.listing"
        try:
            kept = loads(cache.read_text(encoding="utf-8")) if not cache.is_symlink() else None
        except (OSError, ValueError):
            kept = None
        if isinstance(kept, dict) and kept.get("stamp") == stamp and isinstance(kept.get("files"), dict):
            self._listing = (stamp, kept["files"])
            return kept["files"]
        from companion.core.journals import journal_name

        files: dict[str, list[str]] = {}
        try:
            with os.scandir(self.sessions_dir) as found:
                for item in found:
                    name = item.name
                    if name.endswith(".jsonl") and not name.startswith("."):
                        m = journal_name(name)
                        if m:
                            files.setdefault(m["sid"], []).append(name)
        except OSError:
            return {}
        for names in files.values():
            names.sort()
        self._listing = (stamp, files)
        self._listing_unsaved = True
        return files

    def keep_listing(self) -> None:
        """Keep the listing of the journals in cache/journals.listing (at the end of an action
        recorded: a reading command, or a refused one, writes nothing), unless the folder changed so recently that a write may share
        its clock's tick."""
        import time

        listing = self._listing
        if listing is None or not getattr(self, "_listing_unsaved", False):
            return
        if time.time_ns() - listing[0][1] > 2_000_000_000:
            import json  # (only here, where the listing is written: companion.core.json_read)

            with contextlib.suppress(CompanionError, OSError):
                atomic_write_text(self.cache_dir / "journals.listing",
                                  json.dumps({"stamp": listing[0], "files": listing[1]}))
                self._listing_unsaved = False

    def journal_listing(self) -> dict[str, list[str]]:
        """{session id: the names of its journal files} for every session, from one look at
        the folder (what reads every session asks once, not once per session)."""
        return self._journal_listing()

    def journal_paths(self, sid: str) -> list[Path]:
        """Session ``sid``'s journal files (its devices' and their conflict copies), by name."""
        listing = self._journal_listing()
        kept = self._journal_paths
        if kept is None or kept[0] is not listing or kept[1] is not self.sessions_dir:
            kept = self._journal_paths = (listing, self.sessions_dir, {})
        paths = kept[2].get(sid)
        if paths is None:
            if len(kept[2]) >= 64:
                kept[2].clear()
            folder = kept[1]
            paths = kept[2][sid] = tuple(folder / name for name in listing.get(sid, ()))
        return list(paths)

    def forget_listing(self) -> None:
        """Look at ``sessions/`` again (after this Store made or removed a journal file)."""
        self._listing = None
        with contextlib.suppress(OSError):
            (self.cache_dir / "journals.listing").unlink()

    def read_merged(self, sid: str):
        """(meta, Merged) of session ``sid``: its file's description and entries merged with its
        devices' journals (companion.core.journals), kept while nothing changed."""
        from companion.core import journals as jn

        signature = self.signature(sid)
        kept = self._merged
        if kept is not None and kept[0] == sid and kept[1] == signature:
            return kept[2], kept[3]
        paths = self.journal_paths(sid)
        meta, base = self._read_base(sid)
        per_device: dict[str, list[dict]] = {}
        names: dict[str, str] = {}
        for path in paths:
            m = jn.journal_name(path.name)
            if not m or m["sid"] != sid:
                continue
            if m["copy"] and not jn.is_conflict_copy(m["copy"]):
                continue
            self.check_inside(path)
            head, entries, _size = jn.read_journal(path)
            dev = m["dev"]
            if not m["copy"] and isinstance(head.get("name"), str):
                names[dev] = head["name"][:60]
            elif dev not in names and isinstance(head.get("name"), str):
                names[dev] = head["name"][:60]
            per_device.setdefault(dev, []).extend(entries)
        for dev, entries in per_device.items():
            problem = session_shape_problem(sid, meta, entries)
            if problem:
                raise StoreError(_("{path} is damaged ({problem}): move it away; it was not changed.").format(
                    path=self.sessions_dir / f"{sid}.{dev}.jsonl", problem=problem))
        merged = jn.merge(base, per_device, names)
        self._merged = (sid, signature, meta, merged)
        self._tip = (sid, signature, merged.head, names) if merged.fork is None else None
        return meta, merged

    def journal_basis(self, sid: str, head: str | None, length: int, before: dict | None = None) -> dict | None:
        """What a replay snapshot of a journaled session stands for (issue 30): the SHA-256 of
        the session file, and of each journal's bytes with its size and inode, the line's last
        entry and length. None when there is nothing to stand for or a conflict copy waits.

        ``before``: what the snapshot the action started from stood for. An action checks a
        journal still in its file at the ends it covers only; here, where every byte is read,
        a covered byte changed in place since (a same-size edit in the middle) is seen: the
        old snapshot is dropped and nothing is returned (the next read replays the journal)."""
        from companion.core import journals as jn
        from companion.core.files import read_file_text
        import zlib

        paths = self.journal_paths(sid)
        if not paths or any(jn.journal_name(p.name)["copy"] for p in paths):
            return None
        found = read_file_text(self.session_path(sid))
        if found is None:
            return None
        files = {}
        for path in paths:
            try:
                with open(path, "rb") as fh:
                    ino = os.fstat(fh.fileno()).st_ino
                    data = fh.read()
            except OSError:
                return None
            whole = data[: data.rfind(b"\n") + 1]
            was = ((before or {}).get("files") or {}).get(path.name)
            if isinstance(was, list) and len(was) >= 2 and (len(whole) < was[0] or zlib.crc32(whole[: was[0]]) != was[1]):
                self.drop_snapshot(sid)
                return None
            files[path.name] = [len(whole), zlib.crc32(whole), ino, *jn.edge_crcs(whole)]
        return {"base_sha256": sha256(found[0]), "files": files, "head": head, "line_length": length}

    def read_merged_after(self, sid: str, basis: dict):
        """(meta, the entries after the snapshot's line in order, a function reading the line it
        covers) when the session's files are still those the snapshot stood for, only grown at
        their ends by entries that follow its last one in a single line; else None (the caller
        merges the whole). An action at 50,000 events reads the ends of the journals and the
        session's description, not 50,000 entries."""
        from companion.core import journals as jn
        from companion.core.files import read_file_text
        import zlib

        try:
            files, head, length = dict(basis["files"]), basis["head"], int(basis["line_length"])
            signature = self.signature(sid)
            paths = self.journal_paths(sid)
            if any(jn.journal_name(p.name)["copy"] for p in paths):
                return None
            found = read_file_text(self.session_path(sid))
            if found is None or sha256(found[0]) != basis["base_sha256"]:
                return None
            meta = description_in(found[0])
            if meta is None or meta.get("id") != sid:
                return None
            tail: list[dict] = []
            names: dict[str, str] = {}
            for path in paths:
                covered, check, *same = files.pop(path.name, (0, 0))
                with open(path, "rb") as fh:
                    rest = jn.read_after(fh, covered, check, same)
                if rest is None:
                    return None
                data = rest if not covered else b""
                first = data[: data.find(b"\n")] if not covered else None
                rest = rest[: rest.rfind(b"\n") + 1]
                rows = loads(b"[" + rest[:-1].replace(b"\n", b",") + b"]") if rest else []
                if rows and not covered and SCHEMA_KEY in rows[0]:
                    rows = rows[1:]
                elif first and not covered:
                    return None
                dev = path.name.split(".")[1]
                if not all(isinstance(r, dict) and isinstance(r.get("id"), str) and jn.device_of(r["id"]) == dev
                           for r in rows):
                    return None
                tail += rows
            if files:  # a journal the snapshot stood for is gone
                return None
        except (OSError, ValueError, KeyError, TypeError, RecursionError):
            return None
        by_parent = {}
        for entry in tail:
            if entry.get("kind") not in ("do", "reveal") or entry.get("parent") in by_parent:
                return None
            by_parent[entry.get("parent")] = entry
        ordered, at = [], head
        while at in by_parent:
            ordered.append(by_parent.pop(at))
            at = ordered[-1]["id"]
        if by_parent or session_shape_problem(sid, meta, ordered):
            return None
        def line() -> list[dict]:
            return list(self.read_merged(sid)[1].line[:length])

        self._tip = (sid, signature, at, names or {})
        return meta, ordered, line

    def _read_base(self, sid: str) -> tuple[dict, list[dict]]:
        """The session file's description and own entries (without its devices' journals)."""
        merged, self._merged = self._merged, None
        try:
            return self._read_session_file(sid)
        finally:
            self._merged = merged

    def _session_text(self, sid: str, path: Path) -> tuple[str, tuple] | None:
        """The session file's text and signature: what this Store holds of it when the file is
        still that one, else read (a session is read from disk once per action)."""
        held = self._holding(sid)
        if held is not None:
            return held.text, held.signature
        return read_file_text(path)

    def read_session(self, sid: str) -> tuple[dict, list[dict]]:
        """The session's fixed description and its journal, read without a lock: the journal
        merged from its devices' (issue 30) as a file of one journal holds it (the line, without
        the entries' ids and parents, nor resolutions), which is what exports and imports see."""
        if self.journal_paths(sid):
            meta, merged = self.read_merged(sid)
            return meta, plain_line(merged.line)
        return self._read_session_file(sid)

    def _read_session_file(self, sid: str) -> tuple[dict, list[dict]]:
        """The session file's fixed description and its journal, read without a lock.

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
                raise CompanionError(_("Session {id} does not exist: `sessions` lists them.").format(id=sid))
            text, signature = found
            data = parse_json(path, text, "session")
        try:
            meta = data["meta"]["1"]
            journal_table = data.get("journal", {})
            journal = [journal_table[k] for k in sorted(journal_table, key=int)]
        except (KeyError, TypeError, ValueError, AttributeError):
            raise StoreError(
                _("{session_path} is damaged (no session description): move it away; it was not changed.")
                  .format(session_path=self.session_path(sid))
            ) from None
        problem = session_shape_problem(sid, meta, journal)
        if problem:
            raise StoreError(_("{path} is damaged ({problem}): move it away; it was not changed.")
                               .format(path=path, problem=problem))
        self._held = Held.parsed(sid, signature, text, data)
        return meta, journal

    def session_text(self, sid: str) -> str | None:
        """The text of the session file as last read or written by this Store, if the file
        is still that one (same inode, size and time) and the session has no devices'
        journals (issue 30); None otherwise."""
        if self.journal_paths(sid):
            return None
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
            raise StoreError(_("{path} exists already; nothing was changed.").format(path=path))
        doc = {SCHEMA_KEY: {"kind": "session", "version": schema_version("session")}, "meta": {"1": meta},
               "journal": {str(n): entry for n, entry in enumerate(entries, 1)}}
        atomic_write_text(path, dumps_compact(doc))
        # its entry is what the file written says: the next look at the index need not read it
        self.index_put_or_note(index_entry(meta, summary), meta["id"], self.written_source(meta["id"]))

    def index_put_or_note(self, entry: dict, sid: str, source: str | None = None) -> None:
        """Update the index after its session file was written. The index is a cache of the
        session files: when it cannot be written (a full disk), the session is saved all the
        same, and a note says exactly that (never "nothing was changed", which would be false)."""
        try:
            self.index_put(entry, source) if source else self.index_put(entry)
        except StoreError as exc:
            reason = exc.message.split(": ", 1)[-1].split(". ")[0]  # (its words in any language)
            self.notes.append(_("Saved in {session_path}, but the index of sessions could not be updated ({reason}); "
                                "`sessions` mends it once the disk has room.")
                                .format(session_path=self.session_path(sid), reason=reason))

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
                tail = loads("{" + rest[1:-2] + "}")
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
        """Append one journal entry to this laptop's journal of session ``sid`` (caller holds
        the lock), following the entry last in the session's line (issue 30: one writer per
        file, a line appended and fsynced instead of the whole file rewritten). Returns the
        entry's number in this device's journal; ``entry`` gets its ``id`` and ``parent``."""
        return self.append_many(sid, [entry])[-1]

    def append_many(self, sid: str, entries: list[dict]) -> list[int]:
        """Append entries, each following the one before (the first the session's last), in one
        write and one fsync (an import continuing a session: see :meth:`append`)."""
        from companion.core import journals as jn
        from companion.core.device import device

        path = self.session_path(sid)
        if not path.exists() or sid in self.deleted_ids():  # (a delete came first: the file stays, issue 30)
            raise CompanionError(_("Session {id} does not exist: `sessions` lists them.").format(id=sid))
        me = device(self)
        dev = me["id"]
        mine = jn.journal_path(self.sessions_dir, sid, dev)
        tip = self._tip
        if tip is not None and tip[0] == sid and tip[1] == self.signature(sid) and self._merged is None:
            merged = jn.Merged([], tip[2], None, dict(tip[3]), 0, 0)  # read from a snapshot: the line stays unread
            meta = None
        elif self.journal_paths(sid):
            meta, merged = self.read_merged(sid)
        else:
            meta, base = self._read_session_file(sid)
            merged = jn.merge(base, {})
        if merged.fork is not None and any(e.get("kind") != jn.RESOLVE for e in entries):
            # (an action checks this before: here for any other writer, `import` among them)
            raise CompanionError(_("Session {id} forked: two laptops continued it from the same point. Choose what "
                                   "to keep first: `companion sync resolve {id}`.").format(id=sid))
        copies = [p for p in self.journal_paths(sid) if p != mine and p.name.startswith(f"{sid}.{dev}")]
        if copies:  # conflict copies of this device's own journal: merged into it, then removed
            own = jn.read_journal(mine)[1] if mine.exists() else []
            seen = {e["id"] for e in own}
            for copy in copies:
                for e in jn.read_journal(copy)[1]:
                    if e["id"] not in seen and jn.device_of(e["id"]) == dev:
                        own.append(e)
                        seen.add(e["id"])
            own.sort(key=jn.number_of)
            jn.rewrite(mine, jn.header(dev, me["name"], sid), own)
            for copy in copies:
                with contextlib.suppress(OSError):
                    copy.unlink()
            self.forget_listing()
        number = jn.last_number(mine)
        lines, parent = [], merged.head
        for entry in entries:
            number += 1
            line = {"id": f"{dev}:{number}", "parent": entry.get("parent") if entry.get("kind") == jn.RESOLVE else parent,
                    **{k: v for k, v in entry.items() if k not in ("id", "parent")}}
            lines.append(line)
            parent = line["id"]
        new = not mine.exists()
        jn.append_lines(mine, jn.header(dev, me["name"], sid) if new else None, lines)
        if new:
            self.forget_listing()
        self._merged = self._tip = None
        self._held = None
        if merged.fork is None and all(e.get("kind") != jn.RESOLVE for e in entries):  # what a read would merge now
            names = dict(merged.names, **{dev: me["name"]})
            signature = self.signature(sid)
            if meta is not None:
                self._merged = (sid, signature, meta,
                                merged._replace(line=merged.line + lines, head=lines[-1]["id"], names=names))
            self._tip = (sid, signature, lines[-1]["id"], names)
        for entry, line in zip(entries, lines):
            entry["id"], entry["parent"] = line["id"], line["parent"]
        return [jn.number_of(line) for line in lines]

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
            snap = loads(text)
        except (OSError, ValueError, RecursionError):
            return None
        if not isinstance(snap, dict):
            return None
        snap["_text"] = text  # a second replay of the same session parses its state afresh
        return snap

    def drop_snapshot(self, sid: str) -> None:
        """Remove session ``sid``'s replay snapshot and its parts (its session left the record:
        `delete`; a snapshot holds every hand of a dealt round)."""
        with contextlib.suppress(OSError):
            self.snapshot_path(sid).unlink()
        with contextlib.suppress(OSError):
            for part in self.snapshot_path(sid).parent.glob(f"{sid}.*.part"):
                with contextlib.suppress(OSError):
                    part.unlink()

    def write_snapshot(self, sid: str, snap: dict) -> None:
        """Keep a replay snapshot, led by the SHA-256 of the rest of its text (see
        :meth:`read_snapshot`); a failure to write it is not an error (it is only a cache).
        The parts of the snapshot it replaces that it does not name are removed."""
        body = dumps_compact({k: v for k, v in snap.items() if k != "check"})
        if body == "{}":
            return
        before = self.read_snapshot(sid)
        with contextlib.suppress(CompanionError, OSError):
            atomic_write_text(self.snapshot_path(sid), f'{SNAPSHOT_CHECK}{sha256(body)}",{body[1:]}')
            kept = {spec.get("file") for spec in (snap.get("apart") or {}).values()}
            for spec in ((before or {}).get("apart") or {}).values():
                name = spec.get("file") if isinstance(spec, dict) else None
                if name not in kept and self._part_name_ok(sid, name):
                    with contextlib.suppress(OSError):
                        self.snapshot_path(sid).with_name(name).unlink()

    # -- a snapshot's long lists, kept apart (companion.core.snapshot_parts) --------------------
    @staticmethod
    def _part_name_ok(sid: str, name: Any) -> bool:
        import re

        return isinstance(name, str) and re.fullmatch(re.escape(sid) + r"\.[0-9a-f]{16}\.part", name) is not None

    def read_snapshot_part(self, sid: str, spec: dict) -> list:
        """The items of a snapshot's part: the first ``bytes`` bytes of its file, checked by
        their CRC-32 (a reader of an older snapshot reads what it names, whatever came after)."""
        from companion.core import snapshot_parts as parts

        name, size = spec.get("file"), spec.get("bytes")
        if not self._part_name_ok(sid, name) or not isinstance(size, int) or size < 0:
            raise ValueError("not a part of this session's snapshot")
        path = self.snapshot_path(sid).with_name(name)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        try:
            if size > os.fstat(fd).st_size:  # (never a read of more than the file holds)
                raise ValueError("a snapshot part was cut")
            data = os.pread(fd, size, 0) if size else b""
        finally:
            os.close(fd)
        if len(data) != size or parts.crc_of(data) != spec.get("crc"):
            raise ValueError("a snapshot part was changed")
        return parts.decoded(data, int(spec["count"]))

    def write_snapshot_part(self, sid: str, text: str) -> dict | None:
        """A new part file holding ``text`` (a snapshot's long list, one item a line)."""
        import secrets

        from companion.core import snapshot_parts as parts

        name = f"{sid}.{secrets.token_hex(8)}.part"
        data = text.encode("utf-8")
        try:
            atomic_write_text(self.snapshot_path(sid).with_name(name), text)
        except CompanionError:
            return None
        return {"file": name, "count": text.count("\n"), "bytes": len(data), "crc": parts.crc_of(data)}

    def append_snapshot_part(self, sid: str, spec: dict, text: str) -> dict | None:
        """The part ``spec`` names grown by ``text`` (items appended to its list since), in
        place: cut to the bytes it names (a write killed before its snapshot left more), checked,
        appended, fsynced. None when the file is not the one named (the caller writes anew)."""
        from companion.core import snapshot_parts as parts

        name, size = spec.get("file"), spec.get("bytes")
        if not self._part_name_ok(sid, name) or not isinstance(size, int) or not isinstance(spec.get("count"), int):
            return None
        data = text.encode("utf-8")
        try:
            fd = os.open(self.snapshot_path(sid).with_name(name), os.O_RDWR | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            return None
        try:
            if size > os.fstat(fd).st_size:
                return None
            head = os.pread(fd, size, 0) if size else b""
            if len(head) != size or parts.crc_of(head) != spec.get("crc"):
                return None
            os.ftruncate(fd, size)
            os.lseek(fd, size, os.SEEK_SET)
            if data and os.write(fd, data) != len(data):
                return None
            os.fsync(fd)
        except OSError:
            return None
        finally:
            os.close(fd)
        return {"file": name, "count": spec["count"] + text.count("\n"), "bytes": size + len(data),
                "crc": parts.crc_of(data, spec["crc"])}

    # -- index -----------------------------------------------------------------------------
    # index.json holds two tables: "sessions" (the entries `sessions --json` lists) and
    # "sources", one document {session id: the signature of the files its entry was derived
    # from} kept by companion.core.index (issue 30), never shown
    def index(self) -> list[dict]:
        """Every session's entry in the index, oldest first, as written (no healing here:
        ``companion.core.session.index`` adds the files a crash left unlisted, since their
        summaries need the game's rules)."""
        return self.index_and_sources()[0]

    def index_and_sources(self) -> tuple[list[dict], dict[str, str]]:
        """The index's entries (as :meth:`index`) and the signatures of the files each was
        derived from (issue 30: an entry without one is derived again at the next check)."""
        self.check_inside(self.index_path)
        data = read_json_file(self.index_path, "index") or {}
        table = data.get("sessions", {})
        try:
            entries = [table[k] for k in sorted(table, key=int)]
        except (TypeError, ValueError, AttributeError):
            entries = None
        if entries is None or not all(isinstance(e, dict) and is_session_id(e.get("id")) for e in entries):
            raise StoreError(_("{index_path} is damaged (its entries are not session entries): move it away and "
                               "`sessions` rebuilds it from the session files; it was not changed.")
                               .format(index_path=self.index_path))
        # by start, then id: the index is this laptop's own and lists sessions in the order they
        # reached it, which a sync makes different on each laptop (issue 30); two sessions
        # started in the same second are listed alike everywhere by their ids
        entries.sort(key=started_order)
        return entries, sources_in(data)

    def index_write(self, put: "list[dict] | tuple" = (), remove: "list[str] | set[str] | tuple" = (),
                    sources: "dict[str, str | None] | None" = None) -> None:
        """Change the index in one write (caller holds the lock): entries ``put`` (replacing
        the entry of the same id), ids ``remove``d, and ``sources``, the signatures of the
        files an entry was derived from (None forgets one). An entry put without its sources
        forgets them: the next check derives it again from the files (an action writes what it
        holds in memory, not what the files say). A session in the bin is never listed again
        (issue 30). Always writes, so the index's signature changes even when its content
        does not (companion.core.index: a check of the files started before it never vouches
        for it)."""
        data = dict(read_json_file(self.index_path, "index") or {})
        table = data.get("sessions")
        table = dict(table) if isinstance(table, dict) else {}
        known = sources_in(data)
        deleted = self.deleted_ids() if put else set()
        where = {row.get("id"): key for key, row in table.items() if isinstance(row, dict)}
        try:
            last = max(map(int, table), default=0)
        except ValueError:
            last = len(table)
        for entry in put:
            sid = entry["id"]
            if sid in deleted:
                continue
            key = where.get(sid)
            if key is None:
                last += 1
                key = where[sid] = str(last)
            table[key] = entry
            known.pop(sid, None)
        for sid in remove:
            key = where.pop(sid, None)
            if key is not None:
                del table[key]
            known.pop(sid, None)
        for sid, signature in (sources or {}).items():
            if signature is None:
                known.pop(sid, None)
            elif sid in where:
                known[sid] = signature
        data["sessions"], data["sources"] = table, {"1": known}
        AtomicJSONStorage(self.index_path, "index").write(data)

    def index_remove(self, ids: list[str]) -> None:
        """Drop the index entries of sessions whose files are gone (caller holds the lock)."""
        self.index_write(remove=ids)

    def index_put(self, entry: dict, source: str | None = None) -> None:
        """Insert or replace the index entry of ``entry['id']`` (caller holds the lock), with
        the signature of the files it was derived from when the caller knows it (see
        :meth:`index_write`)."""
        self.index_write(put=[entry], sources={entry["id"]: source} if source else None)

    def index_forget(self, ids: "list[str] | set[str]") -> None:
        """Forget the sources of these sessions' entries before an action changes what the
        entries say (caller holds the lock; see companion.core.index.before_append)."""
        self.index_write(sources={sid: None for sid in ids})

    def written_source(self, sid: str) -> str | None:
        """The sources of an entry made with the session file this process has just written:
        that file alone (a journal of the session arriving makes them differ)."""
        import os

        try:
            return source_signature([stat_row(self.session_path(sid).name, os.lstat(self.session_path(sid)))])
        except OSError:
            return None

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
            raise StoreError(_("{settings_path} is damaged (its current session {id} is not a session id): pick a "
                               "session with `use ID`, or move the file away.")
                               .format(settings_path=self.settings_path, id=repr(str(sid)[:40])))
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
            raise StoreError(_("{userdata_path} is damaged (its {game} values are not a table): move it away; it was "
                               "not changed.").format(userdata_path=path, game=game))
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


def sources_in(data: dict) -> dict[str, str]:
    """The index's sources (see ``Store.index_and_sources``) as its file's data holds them."""
    table = data.get("sources")
    found = table.get("1") if isinstance(table, dict) else None
    return dict(found) if isinstance(found, dict) else {}


def started_order(entry: dict) -> tuple[str, str]:
    """The order of the history: by start, then by id (issue 30: sessions started in the same
    second, on two laptops, are listed in the same order on every laptop)."""
    return str(entry.get("created") or ""), str(entry.get("id") or "")


def stat_row(name: str, st) -> tuple:
    """One file's part of a signature: its name, inode, size, modification and change times."""
    return (name, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def source_signature(rows: list[tuple]) -> str:
    """The signature of the files an index entry was derived from (issue 30): a digest of
    the :func:`stat_row` of each in name order. Every write of a session's files changes one: a
    journal is appended (its size), a file a sync brings or a write replaces is a new inode
    (with its change time, whatever modification time it was given)."""
    import hashlib

    return hashlib.blake2b(repr(sorted(rows)).encode(), digest_size=8).hexdigest()


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
        raise StoreError(_("This would lock {count:,} sessions at once, but the system lets one process open only "
                           "{soft:,} files: raise the limit (`ulimit -n {wanted}`) or do it in parts (an export of "
                           "one game or one player: `export --game GAME`). Nothing was changed.")
                           .format(count=count, soft=soft, wanted=wanted))


def session_shape_problem(sid: str, meta: Any, journal: list) -> str | None:
    """What is wrong with the shape of a session file's contents, or None (one reason only)."""
    if not isinstance(meta, dict):
        return _("its description is not a table")
    if meta.get("id") != sid:
        return _("its description names the session {named}, not {id}").format(named=repr(str(meta.get("id"))[:40]),
                                                                               id=sid)
    if not isinstance(meta.get("game"), str):
        return _("it names no game")
    players = meta.get("players")
    if not isinstance(players, list) or not players or not all(isinstance(p, str) for p in players):
        return _("its players are not a list of names")
    for key in ("options", "data"):
        if meta.get(key) is not None and not isinstance(meta.get(key), dict):
            return _("its {key} are not a table").format(key=key)
    if all(map(isinstance, journal, repeat(dict))):  # the common case, checked at C speed
        kinds = list(map(dict.get, journal, repeat("kind")))
        if all(map(isinstance, kinds, repeat(str))):
            actions = [entry for entry, kind in zip(journal, kinds) if kind == "do"]
            if all(map(isinstance, map(dict.get, actions, repeat("event")), repeat(dict))):
                return None
    for n, entry in enumerate(journal, 1):
        if not isinstance(entry, dict) or not isinstance(entry.get("kind"), str):
            return _("journal entry {n} is not an entry").format(n=n)
        if entry["kind"] == "do" and not isinstance(entry.get("event"), dict):
            return _("journal entry {n} holds no action").format(n=n)

    return None


def plain_line(line: list[dict]) -> list[dict]:
    """A merged session's line as one journal in a file holds it (what exports write and
    imports read): no ids, no parents, no resolutions."""
    out = []
    for entry in line:
        kind = entry.get("kind")
        if kind == "resolve":
            continue
        out.append({k: v for k, v in entry.items() if k not in ("id", "parent")} if "id" in entry else entry)
    return out


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


