"""The data folder's bin: `delete` moves a session file there whole, `restore` moves it back.

Nothing is destroyed: the file is renamed (``os.replace``, the same bytes), never rewritten, so
a restored session is byte for byte the one deleted. Deleted sessions leave the index, which is
all `sessions`, `stats`, the exports and the reports read, so they stop counting at once.

Order for crashes: `delete` drops the index entry first, then moves the file (a crash between
leaves the file in place, and the index heals itself by listing it again); `restore` moves the
file first, then lists it (a crash between is healed the same way).
"""

from __future__ import annotations

import os
from pathlib import Path

from companion.contract.language import _
from companion.core import session as sessions
from companion.contract.errors import CompanionError, StoreError
from companion.core.store import Store, glob_escape, index_entry, read_json_file


def bin_dir(store: Store) -> Path:
    return store.root / "bin"


def binned_path(store: Store, sid: str) -> Path:
    return bin_dir(store) / f"{sid}.json"


def binned_ids(store: Store) -> list[str]:
    folder = bin_dir(store)
    return sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []


def resolve_binned(store: Store, prefix: str) -> str:
    """The one deleted session whose id starts with ``prefix``, or a clear refusal."""
    prefix = prefix.strip().lower()
    if not prefix or "/" in prefix or "\\" in prefix or prefix.startswith("."):
        raise CompanionError(_("{id} is not a session id: `sessions --deleted` lists the bin.").format(id=repr(prefix)))
    folder = bin_dir(store)
    matches = sorted(p.stem for p in folder.glob(f"{glob_escape(prefix)}*.json")) if folder.is_dir() else []
    if not matches:
        raise CompanionError(_("No deleted session starts with {id}: `sessions --deleted` lists the bin.").format(
            id=repr(prefix)))
    if len(matches) > 1:
        raise CompanionError(_("{id} matches several deleted sessions ({ids}): type more of the id.").format(
            id=repr(prefix), ids=", ".join(matches[:5])))
    return matches[0]


def _move(src: Path, dst: Path) -> None:
    try:
        dst.parent.mkdir(parents=True, exist_ok=True)
        os.replace(src, dst)
    except OSError as exc:
        raise StoreError(_("Could not move {file} to {target}: {reason}. Nothing was changed.").format(
            file=src, target=dst, reason=exc.strerror or exc)) from None



def _drop_from_index(store: Store, sid: str) -> None:
    from tinydb import Query

    from companion.core.store import open_db

    open_db(store.index_path, "index").table("sessions", cache_size=0).remove(Query().id == sid)


def delete(store: Store, sid: str) -> sessions.Session:
    """Move session ``sid`` (a full id) into the bin; the current session is unset if it was it.

    Under the session's own lock, then the folder's (the order every writer uses, see
    companion.core.store): an action on the session waits, then finds it gone, and can never
    write it back into the record (issue 22). Its replay snapshot, which holds the state (every
    hand of a dealt round), goes with it: it is only a cache, made again from the journal."""
    with store.writing_session(sid), store.writing():
        s = sessions.load(store, sid)
        if binned_path(store, sid).exists():
            raise CompanionError(_("The bin already holds a session {id}: `restore {id}` it first, or "
                                   "move {file} away.").format(id=sid, file=binned_path(store, sid)))
        _drop_from_index(store, sid)
        _move(store.session_path(sid), binned_path(store, sid))
        store.drop_snapshot(sid)
        if store.current() == sid:
            try:
                store.set_current(None)
            except StoreError as exc:  # the session is in the bin all the same: say so (issue 22)
                reason = exc.message.split(": ", 1)[-1].split(". ")[0]  # (its words in any language)
                store.notes.append(_("Session {id} is in the bin, but it could not be unset as the current one "
                                     "({reason}): pick another with `use ID`.").format(id=sid, reason=reason))
    return s


def restore(store: Store, prefix: str) -> sessions.Session:
    """Move a deleted session back into the record (and the index), under the session's lock
    and then the folder's, as `delete`."""
    sid = resolve_binned(store, prefix)
    with store.writing_session(sid), store.writing():
        sid = resolve_binned(store, sid)  # still in the bin, now that nobody else can move it
        if store.session_path(sid).exists():
            raise CompanionError(_("Session {id} is in the record already (an import brought it back?): "
                                   "the copy in the bin stays at {file}.").format(id=sid, file=binned_path(store, sid)))
        data = read_json_file(binned_path(store, sid), "session") or {}
        try:
            meta = data["meta"]["1"]
            table = data.get("journal", {})
            s = sessions.Session(meta, [table[k] for k in sorted(table, key=int)])
            replay = s.replay()
        except (KeyError, TypeError, ValueError, AttributeError):
            raise StoreError(_("{file} is damaged: it stays in the bin.").format(file=binned_path(store, sid))) from None
        _move(binned_path(store, sid), store.session_path(sid))
        # the index is a cache of the session files: when it cannot be written the session is
        # back all the same, and a note says so (never "Nothing was changed", issue 22)
        store.index_put_or_note(index_entry(meta, sessions.index_summary(s, replay)), sid)
    return s


def listing(store: Store) -> list[dict]:
    """The bin's sessions as index entries (a damaged file is listed by its id alone)."""
    out = []
    for sid in binned_ids(store):
        try:
            data = read_json_file(binned_path(store, sid), "session") or {}
            meta = data["meta"]["1"]
            out.append(index_entry(meta))
        except (CompanionError, KeyError, TypeError):
            out.append({"id": sid, "game": "?", "players": [], "created": "", "finished": None, "summary": None})
    out.sort(key=lambda e: str(e.get("created") or ""))
    return out
