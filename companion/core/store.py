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

from companion.contract.language import _
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
            raise StoreError(_("The data folder's name contains a NUL character: give another folder."))
        self.root = Path(root).expanduser()
        self._locks: dict[Path, Any] = {}
        # Things a command should tell the user besides its answer: a file skipped, a cache that
        # could not be updated (printed by the terminal layer after the command, one line each).
        self.notes: list[str] = []
        # The session file last read or written (one only: `stats` reads thousands).
        self._held: Held | None = None
        self._swept = False  # leftovers of killed writes looked for (sweep_leftovers)

    # -- paths -----------------------------------------------------------------------------
    @property
    def sessions_dir(self) -> Path:
        return self.root / "sessions"

    def session_path(self, sid: str) -> Path:
        if not is_session_id(sid):
            raise StoreError(_("{id} is not a session id (8 letters and digits): `sessions` lists them.")
                               .format(id=repr(str(sid)[:40])))
        return self.sessions_dir / f"{sid}.json"

    def check_inside(self, path: Path) -> None:
        """Refuse a data file that is a link leading out of the data folder."""
        if not path.is_symlink():
            return
        try:
            path.resolve().relative_to(self.root.resolve())
        except (ValueError, OSError, RuntimeError):
            raise StoreError(_("{path} is a link to outside the data folder: move it away; it was not read.")
                               .format(path=path)) from None

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
            make_private_folder(self.root)
            make_private_folder(self.sessions_dir)
            for folder in (self.root, self.sessions_dir):  # folders made before issue 12
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
        with self._locked(self.root / ".lock", _("the list of sessions")):
            yield

    @contextlib.contextmanager
    def writing_session(self, sid: str) -> Iterator[None]:
        """Hold session ``sid``'s own lock (issue 12): writers of different sessions never wait
        for each other; they share only the folder's short lock, and only to update the index."""
        self.session_path(sid)  # an id, not a path
        with self._locked(self.root / "locks" / f"{sid}.lock", _("session {id}").format(id=sid)):
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
            if lock_path.parent != self.root:
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

        return sweep(self.root, is_session_id, FILE_MODE)

    # -- sessions --------------------------------------------------------------------------
    def session_ids(self) -> list[str]:
        """The ids of the session files (names that are not session ids are not sessions)."""
        if not self.sessions_dir.is_dir():
            return []
        return sorted(p.stem for p in self.sessions_dir.glob("*.json") if ID_PATTERN.fullmatch(p.stem))

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
        if not matches:
            raise CompanionError(_("No session starts with {prefix}: `sessions` lists them.").format(prefix=repr(prefix)))
        if len(matches) > 1:
            shown = ", ".join(matches[:5]) + (" ..." if len(matches) > 5 else "")
            raise CompanionError(_("{prefix} matches several sessions ({shown}): type more of the id.")
                                   .format(prefix=repr(prefix), shown=shown))
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
            raise StoreError(_("{path} exists already; nothing was changed.").format(path=path))
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
        if not path.exists():
            raise CompanionError(_("Session {id} does not exist: `sessions` lists them.").format(id=sid))
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
                raise StoreError(_("{path} is damaged (its journal is not a table): move it away; it was not changed.")
                                   .format(path=path))
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
        return self.root / "cache" / "replay" / f"{sid}.snapshot"

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
            raise StoreError(_("{index_path} is damaged (its entries are not session entries): move it away and "
                               "`sessions` rebuilds it from the session files; it was not changed.")
                               .format(index_path=self.index_path))
        return entries

    def index_remove(self, ids: list[str]) -> None:
        """Drop the index entries of sessions whose files are gone (caller holds the lock)."""
        table = open_db(self.index_path, "index").table("sessions", cache_size=0)
        table.remove(query().id.one_of(list(ids)))

    def index_put(self, entry: dict) -> None:
        """Insert or replace the index entry of ``entry['id']`` (caller holds the lock)."""
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
    @property
    def aliases_path(self) -> Path:
        return self.root / ALIAS_FILE

    def aliases(self) -> dict[str, str]:
        """recorded name (case-folded) -> shown name; empty when nobody renamed anyone."""
        self.check_inside(self.aliases_path)
        data = read_json_file(self.aliases_path, ALIAS_KIND) or {}
        table = data.get("aliases") or {}
        out: dict[str, str] = {}
        for doc in table.values():
            if isinstance(doc, dict) and isinstance(doc.get("recorded"), str) and isinstance(doc.get("shown"), str):
                out[doc["recorded"].casefold()] = doc["shown"]
        return out

    # -- the players' own printed values ---------------------------------------------------
    def user_values(self, game: str) -> dict[str, Any]:
        return {k: v["value"] for k, v in self.user_entries(game).items()}

    def _user_table(self, game: str) -> tuple[dict, dict]:
        """(the whole of userdata.json, ``game``'s table in it), or a refusal naming the damage."""
        self.check_inside(self.userdata_path)
        data = read_json_file(self.userdata_path, "userdata") or {}
        table = data.get(game) or {}
        if not isinstance(table, dict):
            raise StoreError(_("{userdata_path} is damaged (its {game} values are not a table): move it away; it was not changed.")
                               .format(userdata_path=self.userdata_path, game=game))
        return data, table

    def user_entries(self, game: str) -> dict[str, dict]:
        _data, table = self._user_table(game)
        return {doc["key"]: doc for doc in table.values() if isinstance(doc, dict) and isinstance(doc.get("key"), str)
                and "value" in doc}

    def set_user_value(self, game: str, key: str, value: Any) -> None:
        self.change_user_values(game, {key: value})

    def unset_user_value(self, game: str, key: str) -> bool:
        return bool(self.change_user_values(game, unset=[key]))

    def change_user_values(self, game: str, values: dict[str, Any] | None = None, unset: Any = ()) -> int:
        """Set ``values`` (key -> value) and forget the keys in ``unset`` of ``game``, in one
        write of userdata.json (caller holds the lock); returns how many were forgotten. One
        write, so a full disk leaves the file as it was (issue 22: TinyDB's upsert wrote the
        game's table empty first, then failed on the value, and "Nothing was changed" was
        false)."""
        from companion.contract.numbers import check_numbers

        values = values or {}
        check_numbers(values)  # the bound `import` applies too: what is set can be exported
        data, table = self._user_table(game)
        gone = set(unset) - set(values)
        removed = [n for n, doc in table.items() if isinstance(doc, dict) and doc.get("key") in gone]
        for n in removed:
            del table[n]
        for key, value in values.items():
            doc = {"key": key, "value": value, "set_at": now()}
            found = [n for n, old in table.items() if isinstance(old, dict) and old.get("key") == key]
            for n in found:
                table[n] = doc
            if not found:
                table[str(max(map(int, table), default=0) + 1)] = doc
        if not values and not removed:
            return 0
        data[game] = table
        AtomicJSONStorage(self.userdata_path, "userdata").write(data)
        return len(removed)


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


