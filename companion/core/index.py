"""The index of sessions: one summary per session for `sessions`, `stats` and the reports,
checked against the files it summarises and healed or rebuilt from them."""

from __future__ import annotations

import contextlib
import json
from datetime import datetime

from companion.contract.language import _
from companion.contract.errors import CompanionError, StoreError
from companion.core.store import Store, index_entry, started_order
from companion.core.journal import Replay, Session, load


def index(store: Store) -> list[dict]:
    """Every session's entry in the index, oldest first: the index as a cache of the session files
    that heals itself (issue 12).

    Checked at every read against the files: a session file the index does not list (a crash
    between the two writes), an entry whose file is gone, and every session whose files (its
    description and its laptops' journals) are not those its entry was derived from are derived
    again from the files. Issue 30: the index keeps, beside each entry, the signature of those
    files taken before they were read (inode, size, modification and change times of each:
    ``Store.index_and_sources``), so a journal a sync brings or a laptop appends is seen
    whatever times its files carry, and a session is read again once per change, not at every
    command. Differences are written back under the lock when the folder can be written; the
    answer is right either way. A file that cannot be read is skipped, with one note naming it.

    A session a sync brings, a new journal and a file a write replaces change the sessions
    folder's own time. A check that found everything in step keeps that time and the index's
    signature in ``cache/index-checked.json``; while both are unchanged, the files are not
    looked at again (issue 23: at 50,000 sessions the look took 0.2-0.3 s of every `sessions`,
    `stats` and `players`). An entry appended to a journal in place changes neither: an action
    whose entry may change the session's index entry writes the index first
    (:func:`before_append`), so a kill between its journal and its index is seen.
    """
    stamp = _index_stamp(store)  # before the index is read: a write after it voids the stamp
    if stamp is not None and stamp == _read_index_stamp(store):
        return store.index()
    entries, sources = store.index_and_sources()
    return _checked_index(store, entries, stamp, sources)


INDEX_STAMP_VERSION = 2  # 2: the index keeps its entries' sources (issue 30)
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


def _stamp_path(store: Store):
    return store.cache_dir / "index-checked.json"


def _read_index_stamp(store: Store) -> list | None:
    try:
        path = _stamp_path(store)
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
        atomic_write_text(_stamp_path(store), json.dumps(stamp))


def before_append(store: Store, sid: str) -> None:
    """Before an action appends what may change session ``sid``'s index entry (its end, its
    undo, a fork's resolution, an import continuing it): forget the entry's sources first, so
    whatever stops the action between its journal and its index (a kill -9, a full disk)
    leaves an entry the next look derives again (issue 30). The write changes the index's
    signature, so no stamp of a check made before vouches for it. Forgetting a check is no
    change of the record (nothing a person sees differs). When the index cannot be written,
    the stamp is removed at least."""
    try:
        with store.writing():  # the folder's short lock, inside the session's: always in this order
            store.index_forget([sid])
    except StoreError:
        with contextlib.suppress(OSError):
            _stamp_path(store).unlink()


def _scan(store: Store) -> tuple[dict[str, list], set[str]]:
    """({session id: the :func:`stat_row` of each of its files}, the ids whose session file
    is there), from one listing of ``sessions/`` and one ``lstat`` a file (a ``stat`` more for
    a link): a session's description and its laptops' journals, conflict copies included."""
    import os
    import time

    from companion.core.store import ID_PATTERN, stat_row

    rows: dict[str, list] = {}
    described: set[str] = set()
    try:
        with os.scandir(store.sessions_dir) as found:
            for item in found:
                name = item.name
                if name.endswith(".json"):
                    sid = name[:-5]
                    if not ID_PATTERN.fullmatch(sid):
                        continue
                    described.add(sid)
                elif name.endswith(".jsonl") and name[8:9] == "." and ID_PATTERN.fullmatch(name[:8]):
                    sid = name[:8]  # a laptop's journal (issue 30), or a sync's conflict copy of one
                else:
                    continue
                try:
                    st = item.stat(follow_symlinks=False)
                    row = [stat_row(name, st)]
                    if item.is_symlink():  # a link put in place is new, and so is its target changed
                        row.append(stat_row(name + " ->", os.stat(item.path)))
                except OSError:  # cannot be looked at: never in step (the read says why)
                    row = [(name, time.time_ns())]
                rows.setdefault(sid, []).extend(row)
    except (FileNotFoundError, NotADirectoryError):
        return {}, set()
    return rows, described


def source_signatures(store: Store) -> dict[str, tuple[str, int]]:
    """{session id: (the signature of its files as the index keeps it, the newest change time
    of them in ns)} of every session file in ``sessions/``, from one look at the folder: what a
    cache derived from a session's files checks itself against (the json export's, issue 30)."""
    from companion.core.store import source_signature

    rows, described = _scan(store)
    return {sid: (source_signature(rows[sid]), max(r[-1] for r in rows[sid]))
            for sid in described}


def _checked_index(store: Store, entries: list[dict], stamp: list | None,
                   sources: dict[str, str] | None = None) -> list[dict]:
    """:func:`index`'s look at every session's files: each session whose files' signature is
    not the one its entry was derived from is read again (the signature taken before the
    read: whatever changes during it differs next time), and its entry and sources are
    written back in one write."""
    from companion.core.store import source_signature

    if sources is None:
        sources = store.index_and_sources()[1]
    listed = {e["id"]: e for e in entries}
    rows, described = _scan(store)
    deleted = store.deleted_ids()  # in the bin: no longer listed (issue 30)
    files = sorted(sid for sid in described if sid not in deleted)
    present = set(files)
    now = {sid: source_signature(rows[sid]) for sid in files}
    suspects = [sid for sid in files if sid not in listed or sources.get(sid) != now[sid]]
    from companion.core.plugins import skipping

    derived: dict[str, dict] = {}
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
        derived[sid] = entry
    gone = [sid for sid in listed if sid not in present]
    stale = [sid for sid in sources if sid not in present and sid not in listed]
    if not derived and not gone and not stale:
        if not skipped:
            _write_index_stamp(store, stamp)
        return entries

    with contextlib.suppress(CompanionError):  # a read-only folder: the answer is still right
        with store.writing():
            # each entry read is written with the signature it was read under, together: an
            # action's entry written meanwhile is replaced by one its files vouch for
            store.index_write(put=list(derived.values()), remove=gone,
                              sources={**{sid: now[sid] for sid in derived}, **dict.fromkeys(stale)})
    out = [derived.pop(e["id"], e) for e in entries if e["id"] not in gone]
    out += derived.values()
    out.sort(key=started_order)  # as Store.index orders them (issue 30)
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
    """Rebuild the index from the session files (caller holds the lock), each entry with the
    signature of its files taken before they were read."""
    from companion.core.plugins import skipping
    from companion.core.store import source_signature

    rows, described = _scan(store)
    deleted = store.deleted_ids()
    entries, sources = [], {}
    for sid in sorted(described - deleted):
        signature = source_signature(rows[sid])
        with contextlib.suppress(CompanionError):
            ok, entry = skipping(store, sid, lambda: _entry_of(load(store, sid)))
            if ok:
                entries.append(entry)
                sources[sid] = signature
    from companion.core.store import AtomicJSONStorage

    AtomicJSONStorage(store.index_path, "index").write(
        {"sessions": {str(n): e for n, e in enumerate(entries, 1)}, "sources": {"1": sources}})
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


def changes_entry(was: tuple[bool, bool], after: Replay) -> bool:
    """Whether an action may have changed its session's index entry: it ended the game or took
    its end back, or it was made on a game already over (its summary)."""
    return was != ended(after) or any(was)


def _sync_index(store: Store, session: Session, was: tuple[bool, bool], after: Replay) -> None:
    """Keep the index's finished or abandoned flag and summary in step (only when they change)."""
    if not changes_entry(was, after):
        return
    entry = session_entry(session, after)
    try:
        with store.writing():  # the folder's short lock, inside the session's: always in this order
            store.index_put_or_note(entry, session.id)
    except StoreError as exc:
        store.notes.append(_("Saved in {id}, but the index of sessions could not be updated ({message}); `sessions` mends it.")
                             .format(id=store.session_path(session.id), message=exc.message))
