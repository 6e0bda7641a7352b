"""The import decided and written: which sessions are new, the same, continued, ahead or
diverged, the aliases and titles merged with this folder's, all under the locks every writer
takes. A session already present with the same content is skipped; with different content the
file is refused (or, with --skip-conflicts, that session is)."""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.contract.language import _
from companion.contract.errors import BusyError, CompanionError, StoreError
from companion.core.store import Store, index_entry, open_db, started_order
from companion.record import import_limits as limits
from companion.record.import_checks import Bundle, read_bundle
from companion.record.import_rules import check_deals, replay_check
from companion.record.import_undo import Undo, write_files
from companion.record.import_values import refuse, size_words, too_large
from companion.record.json_export import session_document
from companion.record.players import Roster, load_aliases, same_session_clash, save_aliases


@dataclass
class Imported:
    added: list[str]
    skipped: list[str]  # already here, the same
    aliases: int
    continued: list[tuple[str, int]] = field(default_factory=list)  # (id, new entries)
    ahead: list[str] = field(default_factory=list)  # this folder's copy went further: kept
    conflicts: list[tuple[str, str]] = field(default_factory=list)  # (id, why), with --skip-conflicts
    dry_run: bool = False
    titles: int = 0  # titles added or completed (issue 29)
    title_conflicts: list[str] = field(default_factory=list)  # one line each: this folder's value kept


def _write_index(store: Store, entries: list[dict], data: dict | None = None) -> None:
    """Add ``entries`` to the index in one atomic write, keeping it ordered oldest first
    (``data``: the index as already read under the same lock, to spare a second read, with
    the sources of its entries as they will be: see :func:`_sources_after`)."""
    db = open_db(store.index_path, "index")
    data = dict(db.storage.read() or {}) if data is None else dict(data)
    table = data.get("sessions") or {}
    ids = {e["id"] for e in entries}
    rows = [v for _, v in sorted(table.items(), key=lambda kv: int(kv[0])) if v.get("id") not in ids]
    rows.extend(entries)
    rows.sort(key=started_order)
    data["sessions"] = {str(n): row for n, row in enumerate(rows, 1)}
    db.storage.write(data)


def _sources_after(store: Store, data: dict, plan: "_Plan") -> dict:
    """The index's data with the sources of the entries an import writes (issue 30): a new
    session's are its file as written (the next look at the index need not read it again); a
    continued session's are forgotten (it is read again)."""
    from companion.core.store import sources_in

    sources = sources_in(data)
    for meta, _journal, _start in plan.grown:
        sources.pop(meta["id"], None)
    for meta, _journal in plan.new:
        sources.pop(meta["id"], None)
        source = store.written_source(meta["id"])
        if source:
            sources[meta["id"]] = source
    return {**data, "sources": {"1": sources}}


def _entry_words(entry: dict) -> str:
    """A journal entry in a few words, for a refusal (never a secret: types and times only)."""
    if entry.get("kind") == "do":
        return f"{(entry.get('event') or {}).get('type')} at {entry.get('at')}"
    return f"{entry.get('kind')} at {entry.get('at')}"


def compare(here: tuple[dict, list[dict]], there: tuple[dict, list[dict]]) -> tuple[str, Any]:
    """How an imported session stands to the stored one with its id.

    ('same', None), ('continued', number of new entries), ('ahead', None) when the stored
    journal already holds the imported one and more, or ('diverged', why) naming the first
    entry that differs.
    """
    (meta_here, journal_here), (meta, journal) = here, there
    if meta_here != meta:
        keys = sorted(k for k in set(meta_here) | set(meta) if meta_here.get(k) != meta.get(k))
        return "diverged", _("its description differs ({keys})").format(keys=", ".join(keys)[:60])
    common = min(len(journal_here), len(journal))
    for i in range(common):
        if journal_here[i] != journal[i]:
            return "diverged", _("entry {n} differs (here: {here}; in the file: {there})").format(
                n=i + 1, here=_entry_words(journal_here[i]), there=_entry_words(journal[i]))
    if len(journal) == len(journal_here):
        return "same", None
    if len(journal) > len(journal_here):
        return "continued", len(journal) - len(journal_here)
    return "ahead", None


IMPORT_TRIES = 5  # looks at the folder while other writers keep changing the sessions it continues


def import_bundle(store: Store, bundle: Bundle, skip_conflicts: bool = False, dry_run: bool = False) -> Imported:
    """Add the bundle's new sessions and aliases, append to the sessions it continues, or
    refuse all of it (see the module docstring). ``dry_run`` checks everything and writes nothing.

    Whether a session is continued (a fast-forward) is decided under that session's own lock,
    then the folder's, the order every writer takes them (companion.core.store): an action
    recorded here meanwhile is either before the import, and then the histories differ and the
    import refuses them as a conflict, or after it, and comes after the imported entries. Never
    is one side's acknowledged write lost (issue 22). A first look without the locks finds the
    sessions to lock; the decision is the second look, under them (files unchanged since are
    not read again)."""
    seen: dict[str, tuple] = {}
    checked: dict[tuple[str, int], dict] = {}
    for _try in range(IMPORT_TRIES):
        found = _compare_all(store, bundle, seen)
        if not skip_conflicts:
            _refuse_diverged(bundle.name, found)
        _check_rules(bundle, found, checked)  # the rules replay them before any lock is taken
        locked = sorted(sid for sid, (how, _d) in found.items() if how == "continued")
        with store.writing_sessions(locked), store.writing():
            found = _compare_all(store, bundle, seen)
            if all(how != "continued" or sid in locked for sid, (how, _d) in found.items()):
                return _import_locked(store, bundle, found, checked, skip_conflicts, dry_run)
        # a session became one this import continues between the two looks: lock it too
    raise BusyError(_("Import of {file}: the sessions it continues kept changing while it looked at them: "
                      "try again in a moment (nothing was imported).").format(file=bundle.name))


def _compare_all(store: Store, bundle: Bundle, seen: dict[str, tuple]) -> dict[str, tuple[str, Any]]:
    """Each imported session's id -> (how it stands to this folder's, detail), see
    :func:`compare`; ``new`` when this folder has no such session. ``seen`` keeps what was
    found per file version, so an unchanged file is not read and compared twice."""
    from companion.core.store import file_signature

    out: dict[str, tuple[str, Any]] = {}
    for meta, journal in bundle.sessions:
        sid = meta["id"]
        signature = store.signature(sid) if file_signature(store.session_path(sid)) else None  # with its journals
        if signature is None:
            out[sid] = ("new", None)
            continue
        known = seen.get(sid)
        if known is None or known[0] != signature:
            known = seen[sid] = (signature, compare(store.read_session(sid), (meta, journal)))
        out[sid] = known[1]
    return out


def _refuse_diverged(name: str, found: dict[str, tuple[str, Any]]) -> None:
    for sid, (how, detail) in found.items():
        if how == "diverged":
            raise refuse(name, _("session {id} has diverged from the one in this data folder: {why} "
                                 "(`report {id}` shows this folder's; --skip-conflicts imports the others)").format(
                id=sid, why=detail))


def _check_rules(bundle: Bundle, found: dict[str, tuple[str, Any]], checked: dict[tuple[str, int], dict]) -> None:
    """Replay every session the import adds or continues (its deals from the first new entry
    checked against its seed), keeping its index entry in ``checked`` by (id, first new entry)."""
    from companion.core import session as sessions

    for meta, journal in bundle.sessions:
        how, detail = found[meta["id"]]
        if how not in ("new", "continued"):
            continue
        start = 0 if how == "new" else len(journal) - detail
        if (meta["id"], start) in checked:
            continue
        check_deals(meta, journal, bundle.name, start)
        s, replay = replay_check(meta, journal, bundle.name)
        checked[(meta["id"], start)] = index_entry(meta, sessions.index_summary(s, replay))


@dataclass
class _Plan:
    """What an import will write: the sessions it adds and continues (with the first new entry
    of each), their index entries, and the names and titles as they will be."""

    new: list[tuple[dict, list[dict]]]
    grown: list[tuple[dict, list[dict], int]]
    entries: list[dict]
    aliases: dict[str, str]  # this folder's
    merged: dict[str, str]  # this folder's with the file's
    index_data: dict
    titles_here: dict
    titles_now: dict


def _import_locked(store: Store, bundle: Bundle, found: dict[str, tuple[str, Any]],
                   checked: dict[tuple[str, int], dict], skip_conflicts: bool, dry_run: bool) -> Imported:
    """The import decided and written (the caller holds the locks of the sessions it continues,
    then the folder's)."""
    from companion.core import titles
    from companion.core.store import read_json_file

    done = Imported([], [], 0, dry_run=dry_run)
    new, grown = _sort_sessions(bundle, found, skip_conflicts, done)
    _check_rules(bundle, found, checked)  # (only what changed since the first look)
    entries = [checked[(m["id"], 0)] for m, _ in new] + [checked[(m["id"], start)] for m, _, start in grown]
    aliases = load_aliases(store)
    merged = _merged_aliases(bundle, aliases)
    index_data = read_json_file(store.index_path, "index") or {}
    _refuse_clash(bundle.name, entries, aliases, merged, index_data)
    done.added = [m["id"] for m, _ in new]
    done.continued = [(m["id"], len(j) - start) for m, j, start in grown]
    done.aliases = len(set(merged.items()) - set(aliases.items()))
    titles_here = titles.load(store)
    titles_now, done.titles, done.title_conflicts = titles.merge_in(titles_here, incoming_titles(bundle))
    if not dry_run:
        _write(store, bundle.name, _Plan(new, grown, entries, aliases, merged, index_data, titles_here, titles_now))
    return done


def _sort_sessions(bundle: Bundle, found: dict[str, tuple[str, Any]], skip_conflicts: bool,
                   done: Imported) -> tuple[list[tuple[dict, list[dict]]], list[tuple[dict, list[dict], int]]]:
    """The sessions to add and those to continue (with the first new entry of each); the ones
    already here, further here, or diverged (with --skip-conflicts) counted in ``done``."""
    new: list[tuple[dict, list[dict]]] = []
    grown: list[tuple[dict, list[dict], int]] = []
    for meta, journal in bundle.sessions:
        sid = meta["id"]
        how, detail = found[sid]
        if how == "new":
            new.append((meta, journal))
        elif how == "same":
            done.skipped.append(sid)
        elif how == "ahead":
            done.ahead.append(sid)
        elif how == "continued":
            grown.append((meta, journal, len(journal) - detail))
        elif skip_conflicts:
            done.conflicts.append((sid, detail))
        else:
            _refuse_diverged(bundle.name, {sid: ("diverged", detail)})
    return new, grown


def _merged_aliases(bundle: Bundle, aliases: dict[str, str]) -> dict[str, str]:
    """This folder's aliases with the file's, refusing a player the two sides name differently."""
    merged = dict(aliases)
    for recorded, shown in bundle.aliases.items():
        if recorded in aliases and aliases[recorded] != shown:
            raise refuse(bundle.name, _("it shows {recorded} as {shown}, but this data folder shows them as "
                                        "{here} (rename one side first with `player rename`)").format(
                recorded=repr(recorded), shown=shown, here=aliases[recorded]))
        merged[recorded] = shown
    return merged


def _refuse_clash(name: str, entries: list[dict], aliases: dict[str, str], merged: dict[str, str],
                  index_data: dict) -> None:
    """Refuse names that would make two players of one session one player."""
    table = index_data.get("sessions") or {}
    if merged == aliases:  # no name changes: only the sessions brought in can clash
        clash = same_session_clash(entries, Roster(merged, entries))
    else:
        everyone = [table[k] for k in sorted(table, key=int)] + entries
        clash = same_session_clash(everyone, Roster(merged, everyone))
    if clash:
        entry, names = clash
        raise refuse(name, _("its names would make {a} and {b} of session {id} one player").format(
            a=names[0], b=names[1], id=entry["id"]))



def _write(store: Store, name: str, plan: _Plan) -> None:
    """The session files first, then the names, then the index, which makes them count: a
    failure on the way takes back what was written before it, without writing anything (a full
    disk: issue 22), so "nothing was imported" is true."""
    from companion.core import titles

    written: list[Path] = []
    appended: list[tuple[Path, int | None]] = []  # this laptop's journals an import continued (issue 30)
    undo = Undo()
    files: list[tuple[Path, str]] = []
    try:
        files = [(store.session_path(m["id"]), session_document(m, j)) for m, j in plan.new]
        write_files(files, written)
        # a session continued: what it brings is appended to this laptop's journal of it, in one
        # write (issue 30: the session's own file is never rewritten; undone by putting the
        # journal back as it was)
        from companion.core.device import device_id
        from companion.core.journals import journal_path

        if plan.grown:  # their entries change: the index first (companion.core.index.before_append)
            undo.keep(store.index_path)
            store.index_forget([meta["id"] for meta, _journal, _start in plan.grown])
        for meta, journal, start in plan.grown:
            mine = journal_path(store.sessions_dir, meta["id"], device_id(store))
            # appended in place (a link to it would change with it): taken back by its old size
            appended.append((mine, mine.stat().st_size if mine.exists() else None))
            store.append_many(meta["id"], [dict(e) for e in journal[start:]])
        if plan.merged != plan.aliases:
            from companion.record.players import aliases_path

            undo.keep(aliases_path(store))
            save_aliases(store, plan.merged)
        if plan.titles_now != plan.titles_here:
            undo.keep(titles.path(store))
            titles.save(store, plan.titles_now)
        if plan.entries:
            _write_index(store, plan.entries, _sources_after(store, plan.index_data, plan))
    except (CompanionError, OSError) as exc:
        for path, size in reversed(appended):
            with contextlib.suppress(OSError):
                if size is None:
                    path.unlink()
                else:
                    os.truncate(path, size)
        _take_back(written, undo, dict(files))
        reason = exc.message if isinstance(exc, CompanionError) else str(exc)
        raise StoreError(_("Import of {file} stopped ({reason}); nothing was imported.").format(
            file=name, reason=reason)) from None
    finally:
        undo.forget()


def _take_back(written: list[Path], undo: Undo, texts: dict[Path, str]) -> None:
    """Remove the new session files written (unless an action was recorded in one since), and
    put back every file the import replaced."""
    kept = undo.paths()
    for path in written:
        if path not in kept:
            with contextlib.suppress(OSError):
                if path.read_text(encoding="utf-8") == texts.get(path):
                    path.unlink()
    undo.undo()


def incoming_titles(bundle: Bundle) -> list[dict]:
    """The titles an import brings: each one's record as its sessions froze it (the latest
    session's), completed by the file's own record of it (which holds what was given later,
    a BoardGameGeek id among it). A file written before titles travelled has its sessions'."""
    from companion.core import titles
    from companion.contract.text import name_key

    out: dict[str, dict] = {}
    for meta, _journal in sorted(bundle.sessions, key=lambda s: started_order(s[0])):
        record = titles.of_session(meta.get("options") or {})
        if record is not None:
            out[name_key(record["title"])] = record
    for record in bundle.titles:
        key = name_key(record["title"])
        out[key] = {**out.get(key, {}), **record}
    return list(out.values())


def import_file(store: Store, path: Path, skip_conflicts: bool = False, dry_run: bool = False) -> Imported:
    """`import FILE`: the file read within the size limit (never a pipe, a device or a folder),
    then :func:`import_bundle`."""
    import stat

    name = path.name
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(str(path))
        if not stat.S_ISREG(info.st_mode):  # a pipe or a device may never end: never read one
            raise CompanionError(_("{file} is not a regular file: give the file written by "
                                   "`export --format json -o FILE`.").format(file=path))
        if info.st_size > limits.MAX_FILE_BYTES:
            raise refuse(name, too_large())
        with path.open("rb") as fh:
            raw = fh.read(limits.MAX_FILE_BYTES + 1)  # the file may grow while it is read
        if len(raw) > limits.MAX_FILE_BYTES:
            raise refuse(name, too_large())
    except IsADirectoryError:
        raise CompanionError(_("{file} is a folder: give the file written by `export --format json -o FILE`.").format(
            file=path)) from None
    except FileNotFoundError:
        raise CompanionError(_("There is no file {file}: give the file written by `export --format json -o FILE`.")
                             .format(file=path)) from None
    except OSError as exc:
        raise CompanionError(_("Cannot read {file}: {reason}.").format(file=path, reason=exc.strerror or exc)) from None
    return import_bundle(store, read_bundle(raw, name), skip_conflicts, dry_run)
