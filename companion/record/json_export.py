"""The json export's file format: every chosen session's description and journal as the store
wrote them, the alias table and the titles, read back by `import` (companion.record.import_checks).

The json export is the whole record of each session (its fixed description with the printed
values it froze, and its append-only journal, undone entries included), plus the alias table,
so `import` into another data folder rebuilds every session exactly: `status` replays the same
journal through the same rules. Two laptops merge by exporting from one and importing into
the other.
"""

from __future__ import annotations

import io
import json
import os

from companion.contract.language import _
from companion.contract.errors import CompanionError
from companion.core.store import SCHEMA_KEY, Store, now, schema_version
from companion.record import import_limits as limits

FORMAT = "tabletop-companion"
VERSION = 1


def export_json(store: Store, entries: list[dict], aliases: dict[str, str]) -> str:
    """Every chosen session's description and journal, with the aliases of its players."""
    buf = io.StringIO()
    write_json(store, entries, aliases, buf)
    return buf.getvalue()


_DECODE = json.JSONDecoder().raw_decode
_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def _session_item(store: Store, sid: str, folder: str, journals: tuple = ()) -> str | None:
    """One session as the export's item, ``{"meta": ..., "journal": [...]}``, as JSON text.

    Taken from the file's own text (issue 23): each value is parsed once, to check it, and
    written as the very text it was read from, so nothing is encoded again. A file of another
    shape than the store writes takes the store's own read (which names any problem).

    ``journals``: the names of its devices' journals (issue 30). A session played on one laptop
    (one journal, each entry following the one before) is its file's entries and then its
    journal's, read here; any other (several laptops, a fork, a conflict copy) is merged by the
    store's read."""
    import os

    import stat

    path = os.path.join(folder, sid + ".json")
    if len(journals) > 1:  # its devices' journals merged, by the store's read
        path = ""
    try:  # never waits on a pipe or a device put in a session's place: the checked read refuses it
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
                     | getattr(os, "O_NOCTTY", 0))
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or st.st_size > limits.MAX_SESSION_CHARS * 4:
                raise ValueError("not a plain file of a session: the checked read says why")
            with os.fdopen(fd, "rb", closefd=False) as fh:
                text = fh.read().decode("utf-8")
        finally:
            os.close(fd)
        found = _split_session(sid, text, os.path.join(folder, journals[0]) if journals else None)
        if found is not None:
            return found
    except (OSError, ValueError, UnicodeDecodeError):
        pass
    try:
        meta, journal = store.read_session(sid)
    except CompanionError as exc:  # one damaged session does not stop the others (issue 12)
        store.notes.append(_("Skipped: {message}").format(message=exc.message))  # the same line `sessions` gives: said once
        return None
    return _ENCODE({"meta": meta, "journal": journal})


SESSION_HEAD = '{"' + SCHEMA_KEY + '":{"kind":"session","version":'


def _split_session(sid: str, text: str, journal_path: str | None = None) -> str | None:
    """The export's item of a session file written by the store (compact: its schema, then
    ``"meta":{"1":...}``, then ``"journal":{"1":...,"2":...}``), followed by the entries of its
    one device's journal at ``journal_path`` if given, or None for any other text."""
    from companion.core.store import session_shape_problem

    head = f'{SESSION_HEAD}{schema_version("session")}}},"meta":{{"1":'
    if not text.startswith(head) or not text.endswith("}}"):
        return None
    try:
        meta, end = _DECODE(text, len(head))
        meta_text = text[len(head):end]
        if not text.startswith('},"journal":{', end):
            return None
        at = end + len('},"journal":{')
        pieces, journal, last = [], [], 0
        while text[at] != "}":
            colon = text.index('":', at)
            if text[at] != '"':
                return None
            number = int(text[at + 1:colon])
            if number <= last:
                return None
            entry, stop = _DECODE(text, colon + 2)
            pieces.append(text[colon + 2:stop])
            journal.append(entry)
            last = number
            at = stop + 1 if text[stop] == "," else stop
        if text[at:] != "}}":
            return None
    except (ValueError, IndexError, RecursionError):
        return None
    if not isinstance(meta, dict) or meta.get("id") != sid or session_shape_problem(sid, meta, journal):
        return None
    if journal_path is not None:
        more = _one_journal(sid, journal_path, len(journal))
        if more is None or session_shape_problem(sid, meta, more[0]):
            return None
        pieces += more[1]
    return '{"meta":' + meta_text + ',"journal":[' + ",".join(pieces) + "]}"


def _one_journal(sid: str, path: str, base: int) -> tuple[list[dict], list[str]] | None:
    """The entries of a session's only journal when they follow each other from the file's
    last entry (``base`` of them), as the merge would line them up; else None (the store's
    read merges it, and names anything wrong)."""
    from companion.core import journals as jn

    m = jn.journal_name(os.path.basename(path))
    if m is None or m["sid"] != sid or m["copy"]:
        return None
    dev = m["dev"]
    with open(path, "rb") as fh:  # (the name is the listing's, inside the sessions folder)
        data = fh.read(limits.MAX_SESSION_CHARS * 4 + 1)
    if len(data) > limits.MAX_SESSION_CHARS * 4:
        return None
    lines = data.decode("utf-8").split("\n")[:-1]  # a last line without its end was never acknowledged
    if not lines:
        return [], []
    try:
        return _chained(lines, dev, base)
    except (ValueError, RecursionError):
        return None


def _chained(lines: list[str], dev: str, base: int) -> tuple[list[dict], list[str]] | None:
    """(the entries, each as the export writes it) of a journal's lines after its header."""
    from companion.core import journals as jn

    rows = json.loads("[" + ",".join(lines) + "]")  # one parse for the whole journal
    head = rows[0]
    schema = head.get(SCHEMA_KEY) if isinstance(head, dict) else None
    if (not isinstance(schema, dict) or schema.get("kind") != jn.JOURNAL_KIND
            or not isinstance(schema.get("version"), int) or schema["version"] > jn.JOURNAL_VERSION):
        return None
    out: list[dict] = []
    texts: list[str] = []
    parent = f"{jn.BASE}:{base}" if base else None
    resolve = jn.RESOLVE
    for line, entry in zip(lines[1:], rows[1:]):
        nid = f"{dev}:{len(out) + 1}"
        if type(entry) is not dict or entry.get("id") != nid or entry.get("parent") != parent:
            return None
        kind = entry.get("kind")
        if type(kind) is not str or kind == resolve:
            return None
        # the line as the store wrote it, {"id":..,"parent":.., then the entry}: its text without
        # the two (what `import` reads: one file's journal holds neither)
        lead = '{"id":"' + nid + '","parent":' + ("null" if parent is None else '"' + parent + '"') + ","
        if line.startswith(lead):
            texts.append("{" + line[len(lead):])
        else:
            texts.append(_ENCODE({k: v for k, v in entry.items() if k not in ("id", "parent")}))
        out.append(entry)
        parent = nid
    return out, texts


def write_json(store: Store, entries: list[dict], aliases: dict[str, str], out) -> int:
    """Write the json export to the text stream ``out`` session by session (issue 23: at 50,000
    sessions the whole document was built in memory and encoded by Python's pure-Python
    encoder, which ``indent`` forces: 8 s and 1 GB). One session per line, compact; `import`
    reads it exactly as before. Returns the number of sessions written."""
    from companion import __version__

    recorded = {p.casefold() for e in entries for p in e.get("players") or ()}
    head = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": now(),
        "companion": __version__,
        "aliases": {k: v for k, v in sorted(aliases.items()) if k in recorded},
        "titles": titles_of(store, entries),  # issue 29: a title's ways of play and id travel too
    }
    text = json.dumps(head, ensure_ascii=False, indent=1)
    out.write(text[:-2] + ',\n "sessions": [')
    from companion.record.export_cache import ExportCache

    folder = str(store.sessions_dir)
    cache = ExportCache(store)  # issue 30: each finished session's item, kept under its files' signature
    listing: dict | None = None  # (once: a look at the folder per session cost 0.4 s a 1,000)
    written = 0
    try:
        for e in entries:
            def read(sid=e["id"]):
                nonlocal listing
                if listing is None:
                    listing = store.journal_listing()
                return _session_item(store, sid, folder, tuple(listing.get(sid, ())))

            item = cache.item(e, read)
            if item is None:
                continue
            out.write(("\n  " if not written else ",\n  ") + item)
            written += 1
        out.write("\n ]\n}\n" if written else "]\n}\n")
    finally:
        cache.save()  # what was read is kept, whatever stopped the export
    return written


def titles_of(store: Store, entries: list[dict]) -> list[dict]:
    """The remembered records of the titles the exported sessions were played under (their
    ways of play and BoardGameGeek ids, late ids included), by title."""
    from companion.core import titles
    from companion.contract.text import name_key

    wanted = {name_key(e["title"]) for e in entries if isinstance(e.get("title"), str)}
    if not wanted:
        return []
    known = titles.load(store)
    return [known[k] for k in sorted(wanted) if k in known]


def session_document(meta: dict, journal: list[dict]) -> str:
    """A session file exactly as the store writes one (TinyDB tables with a schema version)."""
    doc = {
        SCHEMA_KEY: {"kind": "session", "version": schema_version("session")},
        "meta": {"1": meta},
        "journal": {str(n): entry for n, entry in enumerate(journal, 1)},
    }
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
