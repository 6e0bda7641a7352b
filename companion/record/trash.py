"""The data folder's bin: `delete` puts a session in it, `restore` brings it back whole.

Since issue 30 the bin is a per-device log (``trash/<device>.json``, see Store.deleted_ids): a
deletion or a restore is an entry in this laptop's own file, merged with the other laptops' by
the latest time, then device. The session's file is never moved or rewritten: a laptop that
went on playing it while apart from the one that deleted it keeps its actions in it, and
`restore` brings them all back. A session deleted before issue 30 sits in ``bin/``, moved there
whole; `restore` moves it back (``os.replace``, the same bytes).

Deleted sessions leave the index, which is all `sessions`, `stats`, the exports and the reports
read, so they stop counting at once. Order for crashes: `delete` writes its entry first, then
drops the index entry (a crash between: the next read of the index leaves the session out, as
it does for a deletion another laptop made); `restore` writes its entry first, then lists it
(a crash between: the next read lists it again).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from companion.contract.language import _
from companion.core import session as sessions
from companion.contract.errors import CompanionError, StoreError
from companion.core.store import Store, index_entry, is_session_id, read_json_file, started_order


def bin_dir(store: Store) -> Path:
    return store.root / "bin"


def legacy_path(store: Store, sid: str) -> Path:
    """Where a session deleted before issue 30 is (moved into ``bin/``)."""
    return bin_dir(store) / f"{sid}.json"


def binned_path(store: Store, sid: str) -> Path:
    """The file of deleted session ``sid``: in ``bin/`` if deleted before issue 30, else its own."""
    old = legacy_path(store, sid)
    return old if old.exists() else store.session_path(sid)


def _legacy_ids(store: Store) -> list[str]:
    folder = bin_dir(store)
    return sorted(p.stem for p in folder.glob("*.json") if is_session_id(p.stem)) if folder.is_dir() else []


def binned_ids(store: Store) -> list[str]:
    """Every deleted session whose file is here (a deletion synced before its session's file
    waits for the file)."""
    marked = {sid for sid in store.deleted_ids() if store.session_path(sid).exists()}
    return sorted(marked | set(_legacy_ids(store)))


def resolve_binned(store: Store, prefix: str) -> str:
    """The one deleted session whose id starts with ``prefix``, or a clear refusal."""
    prefix = prefix.strip().lower()
    if not prefix or "/" in prefix or "\\" in prefix or prefix.startswith("."):
        raise CompanionError(_("{id} is not a session id: `sessions --deleted` lists the bin.").format(id=repr(prefix)))
    matches = [sid for sid in binned_ids(store) if sid.startswith(prefix)]
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
    hand of a dealt round), goes with it: it is only a cache, made again from the journal; so do
    the json export's kept items (issue 30)."""
    with store.writing_session(sid), store.writing():
        s = sessions.load(store, sid)
        if legacy_path(store, sid).exists():
            raise CompanionError(_("The bin already holds a session {id}: `restore {id}` it first, or "
                                   "move {file} away.").format(id=sid, file=legacy_path(store, sid)))
        store.mark_deleted({sid: True})  # the deletion itself: a full disk stops it here, nothing changed
        try:
            _drop_from_index(store, sid)
        except StoreError:  # the index is a cache: the next read leaves the deleted session out
            store.notes.append(_("Session {id} is in the bin; the list of sessions is brought up to date at the "
                                 "next command.").format(id=sid))
        store.drop_snapshot(sid)
        from companion.record import export_cache

        export_cache.forget(store)  # its export's item (every hand dealt) goes with it
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
        old = legacy_path(store, sid)
        if old.exists() and store.session_path(sid).exists() and sid not in store.deleted_ids():
            raise CompanionError(_("Session {id} is in the record already (an import brought it back?): "
                                   "the copy in the bin stays at {file}.").format(id=sid, file=old))
        data = read_json_file(binned_path(store, sid), "session") or {}
        try:
            meta = data["meta"]["1"]
            table = data.get("journal", {})
            s = sessions.Session(meta, [table[k] for k in sorted(table, key=int)])
            replay = s.replay()
        except (KeyError, TypeError, ValueError, AttributeError):
            raise StoreError(_("{file} is damaged: it stays in the bin.").format(file=binned_path(store, sid))) from None
        if old.exists():
            if store.session_path(sid).exists():  # deleted twice: the file in bin/ is the older
                raise CompanionError(_("Session {id} was deleted twice, and both copies are here: "
                                       "move {file} away, then `restore {id}`.").format(id=sid, file=old))
            _move(old, store.session_path(sid))
        store.mark_deleted({sid: False})
        with contextlib.suppress(CompanionError):  # with its devices' journals, which never moved (issue 30)
            s = sessions.load(store, sid)
            replay = s.replay()
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
    out.sort(key=started_order)  # by start, then id: alike on every laptop (issue 30)
    return out
