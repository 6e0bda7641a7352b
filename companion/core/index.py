"""The index of sessions: one summary per session for `sessions`, `stats` and the reports,
checked against the files it summarises and healed or rebuilt from them."""

from __future__ import annotations

import contextlib
import json
from datetime import datetime

from companion.contract.language import _
from companion.contract.errors import CompanionError, StoreError
from companion.core.store import Store, index_entry
from companion.core.journal import Replay, Session, load


def index(store: Store) -> list[dict]:
    """Every session's index entry, oldest first: the index as a cache of the session files
    that heals itself (issue 12).

    Checked cheaply at every read: a session file the index does not list (a crash between
    the two writes), an entry whose file is gone, and every session file changed since the
    index was last written (a `finish` whose index update a kill or a full disk stopped) are
    re-derived from the files. Differences are written back under the lock when the folder
    can be written; the answer is right either way. A file that cannot be read is skipped,
    with one note naming it.

    Every write of a session file replaces it (a rename in ``sessions/``), so the folder's own
    time changes with each one. A check that found everything in step keeps that time and the
    index's signature in ``cache/index-checked.json``; while both are unchanged, nothing was
    written since and the files are not looked at again (issue 23: at 50,000 sessions the
    look took 0.2-0.3 s of every `sessions`, `stats` and `players`).
    """
    entries = store.index()
    stamp = _index_stamp(store)
    if stamp is not None and stamp == _read_index_stamp(store):
        return entries
    return _checked_index(store, entries, stamp)


INDEX_STAMP_VERSION = 1
CLOCK_SLACK_NS = 100_000_000  # files' times may run a clock tick (up to 10 ms) out of order: ample margin
QUIET_NS = 2_000_000_000  # a folder changed in the last two seconds may change again within its clock's tick


def _index_stamp(store: Store) -> list | None:
    """[version, the sessions folder's (inode, time), the index's signature, the bin's logs'
    signature], or None."""
    import os

    from companion.core.store import file_signature

    try:
        st = os.stat(store.sessions_dir)
    except OSError:
        return None
    sig = file_signature(store.index_path)
    from companion.core import shared_log

    # the change time: a sync may set the folder's modification time back; and the laptops'
    # logs of the bin, which a sync brings without touching sessions/ (issue 30)
    return [INDEX_STAMP_VERSION, [st.st_ino, max(st.st_mtime_ns, st.st_ctime_ns)], list(sig) if sig else None,
            shared_log.signature(store, "trash")]


def _read_index_stamp(store: Store) -> list | None:
    try:
        path = store.cache_dir / "index-checked.json"
        if path.is_symlink():
            return None
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _write_index_stamp(store: Store, stamp: list | None) -> None:
    """Keep the stamp of a check that found the index and the files in step (best effort: it is
    a cache), unless the folder changed so recently that a write may share its clock tick."""
    import time

    if stamp is None or stamp[2] is None or time.time_ns() - stamp[1][1] < QUIET_NS:
        return
    from companion.core.store import atomic_write_text

    with contextlib.suppress(CompanionError, OSError):
        atomic_write_text(store.cache_dir / "index-checked.json", json.dumps(stamp))


def _checked_index(store: Store, entries: list[dict], stamp: list | None) -> list[dict]:
    """:func:`index`'s look at every session file (one listing of the folder, one ``lstat``
    each, a ``stat`` more for a link)."""
    import os

    from companion.core.store import ID_PATTERN, file_signature

    listed = {e["id"]: e for e in entries}
    index_sig = file_signature(store.index_path)
    index_time = index_sig[2] if index_sig else -1
    files: list[str] = []
    suspects: list[str] = []
    journaled: list[str] = []
    deleted = store.deleted_ids()  # in the bin: no longer listed (issue 30)
    try:
        with os.scandir(store.sessions_dir) as found:
            for item in found:
                name = item.name
                if name.endswith(".jsonl") and ID_PATTERN.fullmatch(name[:8]) and name[8:9] == ".":
                    # a device's journal (issue 30): entries synced from another laptop. A file's
                    # time may be a clock tick behind one written just before it (the system
                    # keeps times coarse unless they were looked at): a margin of CLOCK_SLACK_NS
                    # and its change time: a sync gives the file it brings the other laptop's
                    # modification time, older than this index
                    with contextlib.suppress(OSError):
                        st = item.stat(follow_symlinks=False)
                        if max(st.st_mtime_ns, st.st_ctime_ns) >= index_time - CLOCK_SLACK_NS:
                            journaled.append(name[:8])
                    continue
                if not name.endswith(".json") or not ID_PATTERN.fullmatch(name[:-5]):
                    continue
                sid = name[:-5]
                if sid in deleted:
                    continue
                files.append(sid)
                if sid not in listed:
                    suspects.append(sid)
                    continue
                try:
                    # the change time too: a sync (Syncthing, Dropbox) gives a file it brings the
                    # other laptop's modification time, older than this index (issue 30)
                    st = item.stat(follow_symlinks=False)
                    link_time = max(st.st_mtime_ns, st.st_ctime_ns)  # a link put in place is new too
                    if item.is_symlink():
                        st = item.stat()
                        link_time = max(link_time, st.st_mtime_ns, st.st_ctime_ns)
                except OSError:
                    link_time = index_time  # cannot be looked at: the read says why
                if link_time >= index_time:
                    suspects.append(sid)
    except (FileNotFoundError, NotADirectoryError):
        files = []
    files.sort()
    present_files = set(files)
    suspects = sorted(set(suspects) | {sid for sid in journaled if sid in present_files})
    from companion.core.plugins import skipping

    fixed: dict[str, dict] = {}
    skipped = False
    for sid in suspects:
        try:  # a plugin's rules that raise skip their session alone, named (issue 22)
            ok, entry = skipping(store, sid, lambda: _entry_of(load(store, sid)))
        except CompanionError as exc:  # listed or not, say which file was skipped (one line)
            store.notes.append(_("Skipped: {message}").format(message=exc.message))
            skipped = True
            continue
        if not ok:
            skipped = True  # looked at again next time (the plugin may be mended)
            continue
        if listed.get(sid) != entry:
            fixed[sid] = entry
    present = set(files)
    gone = [sid for sid in listed if sid not in present]
    if not fixed and not gone:
        if not skipped and not [sid for sid in suspects if sid not in listed]:
            _write_index_stamp(store, stamp)
        return entries

    with contextlib.suppress(CompanionError):  # a read-only folder: the answer is still right
        with store.writing():
            for entry in fixed.values():
                store.index_put(entry)
            if gone:
                store.index_remove(gone)
    out = [fixed.pop(e["id"], e) for e in entries if e["id"] not in gone]
    out += fixed.values()
    out.sort(key=lambda e: str(e.get("created") or ""))  # as Store.index orders them (issue 30)
    return out


def _entry_of(s: Session) -> dict:
    return session_entry(s, s.replay())


def session_entry(session: Session, replay: Replay) -> dict:
    """The index entry of a session: its description's, its summary, and its fork while one
    waits (issue 30: `sessions` marks it on every laptop)."""
    entry = index_entry(session.meta, index_summary(session, replay))
    fork = fork_summary(session)
    if fork is not None:
        entry["fork"] = fork
    return entry


def fork_summary(session: Session) -> dict | None:
    """{"after_moves", "branches": [{"device", "name", "moves"}]} of a session's waiting fork."""
    from companion.core.journals import summary

    return summary(session.fork)


def heal_index(store: Store) -> None:
    """Bring the index in step with the session files (see :func:`index`)."""
    index(store)


def rebuild_index(store: Store) -> int:
    """Rebuild the index from the session files (caller holds the lock)."""
    from companion.core.store import open_db

    db = open_db(store.index_path, "index")
    entries = []
    from companion.core.plugins import skipping

    for sid in store.session_ids():
        with contextlib.suppress(CompanionError):
            ok, entry = skipping(store, sid, lambda: _entry_of(load(store, sid)))
            if ok:
                entries.append(entry)
    db.drop_table("sessions")
    db.table("sessions").insert_multiple(entries)
    return len(entries)


def index_summary(session: Session, replay: Replay) -> dict | None:
    """The index's summary of a session: None until it is finished or abandoned (record,
    step, import). An abandoned game has no result: its summary says when and why only."""
    abandoned = replay.abandoned
    if abandoned:
        at = next((e.get("at") for e in reversed(replay.events) if e["event"].get("type") == "abandon"), None)
        return {"abandoned_at": at, "reason": abandoned.get("reason") or ""}
    if not replay.finished:
        return None
    status = session.status(replay)
    out = {
        "finished_at": replay.finished_at,
        "round": status.get("round"),
        "scores": {p["name"]: p.get("score") for p in status.get("players", [])},
        "winners": status.get("winners", []),
        **({"played": True} if status.get("played") else {}),
    }
    # issue 23: what the history needs of teams, co-op plays, ranks and the play's length
    ranks = {p["name"]: p["rank"] for p in status.get("players", []) if isinstance(p.get("rank"), int)}
    if ranks:
        out["ranks"] = ranks
    for key in SUMMARY_KEYS:
        if status.get(key) is not None:
            out[key] = status[key]
    if "minutes" not in out and not status.get("played"):
        first = next((e.get("at") for e in replay.events), None)
        minutes = minutes_between(first, replay.finished_at)
        if minutes is not None:
            out["minutes"] = minutes
    return out


# status keys the index keeps of a finished session (beside its scores and winners)
SUMMARY_KEYS = ("teams", "team_scores", "coop", "won", "minutes", "tie_break", "no_points")


def minutes_between(start: str | None, end: str | None) -> int | None:
    """Whole minutes from ``start`` to ``end`` (stored times), or None when either is unknown:
    a live game's length runs from its first action to its last (issue 23)."""
    if not start or not end:
        return None
    try:
        seconds = (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()
    except (TypeError, ValueError):
        return None
    return round(seconds / 60) if seconds >= 0 else None


def ended(replay: Replay) -> tuple[bool, bool]:
    """(finished, abandoned): what the index keeps in step. Taken before an action, since the
    action changes the working state and context in place."""
    return replay.finished, bool(replay.abandoned)


def _sync_index(store: Store, session: Session, was: tuple[bool, bool], after: Replay) -> None:
    """Keep the index's finished or abandoned flag and summary in step (only when they change)."""
    if was == ended(after):
        return
    entry = session_entry(session, after)
    try:
        with store.writing():  # the folder's short lock, inside the session's: always in this order
            store.index_put_or_note(entry, session.id)
    except StoreError as exc:
        store.notes.append(_("Saved in {id}, but the index of sessions could not be updated ({message}); `sessions` mends it.")
                             .format(id=store.session_path(session.id), message=exc.message))
