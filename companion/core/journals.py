"""A session written by several laptops (issue 30): one journal per device, and their merge.

Layout, in the data folder's ``sessions/``:

* ``ID.json``: the session's TinyDB file, as before: its description (``meta``) and the journal
  entries written with it (`played`), or, for a session recorded before issue 30, its whole
  journal then. Written once by the laptop that created it; never rewritten by an action.
* ``ID.DEVICE.jsonl``: what laptop DEVICE (companion.core.device) recorded in session ID, one
  JSON object a line: a header line (the schema, the device's id and name), then one entry a
  line, ``{"id": "DEVICE:N", "parent": ID, "kind": ..., "event": ..., "at": ...}``. Only that
  laptop writes it, and only at its end.

Why JSON lines beside TinyDB: TinyDB's JSON storage rewrites its whole file at each write, so an
action in a session of 50,000 events rewrote and fsynced megabytes, and two laptops writing one
file overwrite each other under any sync engine (the trial of issue 30 lost three acknowledged
rounds that way). A line appended and fsynced costs the same at 10 events as at 50,000, and a
file with one writer is never in conflict. The description, written once, stays TinyDB's.

An old session (only ``ID.json``) is read exactly as before, as the journal of one device
("base"); nothing is migrated: its first new action goes to this laptop's journal, whose first
entry names the old file's last entry as its parent.

The merge (the same on every laptop, whatever order the files arrived in): every entry names the
entry it followed (its parent; the old file's entries follow each other). From the start, the
line follows the one child of each entry; where an entry has two children (two laptops continued
the same point) the session has a **fork**: the line stops there, both branches are shown, and
nothing more is recorded until someone resolves it (``companion sync resolve ID``). A resolution
is itself an entry (kind ``resolve``, appended by the laptop that chose, its parent the fork's
point) naming the branches kept, in order, and those set aside; the line then runs through the
kept branches and goes on from the resolution. Entries whose parent has not arrived yet wait
(they are neither in the line nor a branch). Two resolutions of one fork: the earliest (by time,
then id) counts, and whatever followed the other is a new fork, never silently replayed.
Undo and redo are entries of the line like any other, folded as before.

A conflict copy of a journal made by a sync engine (``ID.DEVICE.sync-conflict-....jsonl``,
Dropbox's ``ID.DEVICE (... conflicted copy ...).jsonl``, Nextcloud's ``(conflicted copy ...)``)
holds entries of that device: they are read as more entries of it (an id seen twice counts
once), and the device itself merges them into its journal and removes the copy at its next
write.
"""

from __future__ import annotations

import contextlib
import os
import zlib
from pathlib import Path
from typing import Any, NamedTuple

from companion.contract.language import _
from companion.contract.errors import StoreError
from companion.core.json_read import loads
from companion.core.files import ID_CHARS, SCHEMA_KEY, atomic_write_text, dumps_compact, file_signature

JOURNAL_KIND = "journal"
JOURNAL_VERSION = 1  # = companion.core.files.schema_version("journal")
SUFFIX = ".jsonl"
HEX_DIGITS = frozenset("0123456789abcdef")


def journal_name(name: str) -> dict[str, str] | None:
    """{"sid", "dev", "copy"} of a journal's file name, ID.DEVICE.jsonl, or of a conflict copy
    a sync engine made of it (``copy``: what it put between the two); None for any other name.
    What ``(?P<sid>[a-z0-9]{8})\\.(?P<dev>[0-9a-f]{10})(?P<copy>.*)\\.jsonl`` would match whole,
    read with str methods: every `status` lists the folder, and compiling the pattern cost
    it 0.4 M instructions (issue 27)."""
    if (len(name) < 25 or name[8] != "." or not name.endswith(".jsonl") or "\n" in name
            or not ID_CHARS.issuperset(name[:8]) or not HEX_DIGITS.issuperset(name[9:19])):
        return None
    return {"sid": name[:8], "dev": name[9:19], "copy": name[19:-6]}
CONFLICT_MARKS = ("sync-conflict", "conflicted copy", "conflict")
BASE = "base"  # the entries of the session's own file
RESOLVE = "resolve"


def is_conflict_copy(rest: str) -> bool:
    low = rest.lower()
    return any(mark in low for mark in CONFLICT_MARKS)


class Fork(NamedTuple):
    """Where a session's line stops: the entry two laptops continued (``at``, None: the very
    start), the number of moves in effect there (``moves``), and its branches, each a dict with
    ``first`` (the first entry's id), ``device``, ``name``, ``moves`` (do entries in it) and
    ``tip`` (the id of its last entry along its first children)."""

    # the fields' types as objects, not as annotations: this module's annotations are strings,
    # and NamedTuple compiles each string at import (every start paid for them, issue 27)
    __annotations__ = {"at": str | None, "moves": int, "branches": list[dict]}


class Merged(NamedTuple):
    """A session merged from its file and its devices' journals: the line of entries (base
    entries as they are, journal entries with their ``id`` and ``parent``), the id of the last
    (None: empty), the fork where the line stops (or None), the devices' names, the entries
    set aside by resolutions and those waiting for their parent."""

    # the fields' types as objects (see Fork)
    __annotations__ = {"line": list[dict], "head": str | None, "fork": Fork | None, "names": dict[str, str],
                       "aside": int, "waiting": int, "nodes": dict, "parents": dict}
    nodes = {}  # every entry by id (what a resolution plays or sets aside)
    parents = {}  # id -> the id of the entry it followed

    def branch_entries(self, branch: dict) -> list[dict]:
        """The entries of a fork's branch, from its first to its tip."""
        return [self.nodes[n] for n in _path(branch["first"], branch["tip"], self.parents)]


def branch_names(fork: Fork) -> dict[str, str]:
    """first entry id -> how a branch is named: its laptop's name, with the laptop's id when
    two branches' laptops share a name (two laptops both called after their host)."""
    names = [b["name"] for b in fork.branches]
    return {b["first"]: (f"{b['name']} ({b['device']})" if names.count(b["name"]) > 1 else b["name"])
            for b in fork.branches}


def summary(fork: Fork | None) -> dict | None:
    """The fork as `status --json` and `sessions --json` give it (None: no fork)."""
    if fork is None:
        return None
    named = branch_names(fork)
    return {"after_moves": fork.moves,
            "branches": [{"device": b["device"], "name": named[b["first"]], "moves": b["moves"]}
                         for b in fork.branches]}


def device_of(nid: str | None) -> str:
    return (nid or BASE).split(":", 1)[0]


def merge(base: list[dict], journals: dict[str, list[dict]], names: dict[str, str] | None = None) -> Merged:
    """The line of a session from its file's entries and its devices' journals (see the module
    docstring): deterministic, whatever order the journals are given in."""
    names = dict(names or {})
    nodes: dict[str, dict] = {}
    parent: dict[str, str | None] = {}
    prev = None
    for n, entry in enumerate(base, 1):
        nid = f"{BASE}:{n}"
        nodes[nid], parent[nid], prev = entry, prev, nid
    for dev in sorted(journals):
        for entry in journals[dev]:
            nid = entry.get("id")
            if not isinstance(nid, str) or nid in nodes or device_of(nid) != dev:
                continue
            nodes[nid] = entry
            p = entry.get("parent")
            parent[nid] = p if isinstance(p, str) else None
    children: dict[str | None, list[str]] = {}
    for nid, p in parent.items():
        children.setdefault(p, []).append(nid)

    def when(nid: str) -> tuple:
        return (str(nodes[nid].get("at") or ""), nid)

    for kids in children.values():
        kids.sort(key=when)
    placed: set[str] = set()
    line: list[dict] = []
    line_ids: list[str] = []
    node: str | None = None
    carried: list[str] = []  # entries that followed a resolved branch's tip: they go on from the resolution
    forced: list[str] = []  # entries that cannot simply go on (after a branch set aside, or a second resolution)
    fork = None
    moves = 0
    while True:
        own = children.get(node, [])
        resolves = [c for c in own if nodes[c].get("kind") == RESOLVE and _valid_resolve(nodes[c], nodes)]
        kids = [c for c in own if c not in resolves and c not in placed]
        if resolves:
            chosen = resolves[0]
            res = nodes[chosen]
            keep, aside = list(res.get("keep") or []), list(res.get("aside") or [])
            tips = res.get("tips") or {}
            new_carried: list[str] = []
            new_forced: list[str] = []
            for first in keep + aside:
                path = _path(first, tips.get(first), parent)
                on_path = set(path)
                for step in path:
                    for c in children.get(step, []):
                        if c not in on_path and nodes[c].get("kind") != RESOLVE:
                            (new_carried if first == keep[-1] and step == path[-1] else new_forced).append(c)
                if first in keep:
                    line.extend(nodes[s] for s in path)
                    line_ids.extend(path)
                    placed.update(path)
                    moves += sum(1 for s in path if nodes[s].get("kind") == "do")
                else:
                    placed.update(path)
            for other in resolves[1:]:
                new_forced.extend(children.get(other, []))
                placed.add(other)
            # whatever waited here that this resolution did not name (a branch it had not seen yet)
            # goes on as a branch after it: never dropped, never replayed as if chosen
            waiting_here = kids + [c for c in carried + forced if c not in placed]
            new_forced.extend(c for c in waiting_here if c not in keep and c not in aside)
            line.append(res)
            line_ids.append(chosen)
            placed.add(chosen)
            node, carried, forced = chosen, new_carried, new_forced
            continue
        candidates = kids + [c for c in carried if c not in placed] + [c for c in forced if c not in placed]
        if not candidates:
            break
        if len(candidates) == 1 and not [c for c in forced if c not in placed]:
            nxt = candidates[0]
            line.append(nodes[nxt])
            line_ids.append(nxt)
            placed.add(nxt)
            moves += nodes[nxt].get("kind") == "do"
            node, carried, forced = nxt, [], []
            continue
        branches = []
        for first in sorted(set(candidates), key=when):
            tip, count, size = _branch(first, children, nodes)
            dev = device_of(first)
            branches.append({"first": first, "device": dev, "name": names.get(dev, dev), "moves": count,
                             "entries": size, "tip": tip})
        fork = Fork(node, moves, branches)
        break
    head = line_ids[-1] if line_ids else None
    reachable = _reachable(children, nodes)
    # Never lost: an entry neither on the line, nor on a branch shown, nor set aside by a
    # resolution (a fork inside a branch that one laptop resolved before the branch itself was
    # chosen, say) is shown as one more branch where the line stops.
    covered = set(placed) | set(line_ids)
    for b in fork.branches if fork else ():
        covered |= _subtree(b["first"], children)
    left = {n for n in reachable if n not in covered}
    tops = sorted((n for n in left if parent.get(n) not in left), key=when)
    if tops:
        extra = []
        for first in tops:
            tip, count, size = _branch(first, children, nodes)
            dev = device_of(first)
            extra.append({"first": first, "device": dev, "name": names.get(dev, dev), "moves": count,
                          "entries": size, "tip": tip})
        fork = Fork(fork.at, fork.moves, fork.branches + extra) if fork else Fork(head, moves, extra)
    in_branches = sum(b["entries"] for b in fork.branches) if fork else 0
    waiting = len(nodes) - len(reachable)
    aside_count = max(0, len(reachable) - len(line_ids) - in_branches)
    return Merged(line, head, fork, names, aside_count, waiting, nodes, parent)


def _valid_resolve(entry: dict, nodes: dict) -> bool:
    keep = entry.get("keep")
    return isinstance(keep, list) and bool(keep) and all(isinstance(k, str) and k in nodes for k in keep)


def _path(first: str, tip: Any, parent: dict) -> list[str]:
    """The entries from ``first`` to ``tip`` (its descendant), or [first] when ``tip`` is not one."""
    if not isinstance(tip, str) or tip not in parent:
        return [first]
    out = [tip]
    seen = {tip}
    while out[-1] != first:
        p = parent.get(out[-1])
        if p is None or p in seen:
            return [first]
        out.append(p)
        seen.add(p)
    return out[::-1]


def _branch(first: str, children: dict, nodes: dict) -> tuple[str, int, int]:
    """(tip along first children, do entries in the whole branch, entries in it)."""
    tip, node = first, first
    while True:
        kids = [c for c in children.get(node, []) if nodes[c].get("kind") != RESOLVE]
        if not kids:
            break
        node = tip = kids[0]
    count = size = 0
    stack = [first]
    while stack:
        n = stack.pop()
        size += 1
        count += nodes[n].get("kind") == "do"
        stack.extend(children.get(n, []))
    return tip, count, size


def _subtree(first: str, children: dict) -> set[str]:
    out: set[str] = set()
    stack = [first]
    while stack:
        n = stack.pop()
        if n not in out:
            out.add(n)
            stack.extend(children.get(n, []))
    return out


def _reachable(children: dict, nodes: dict) -> set[str]:
    out: set[str] = set()
    stack = list(children.get(None, []))
    while stack:
        n = stack.pop()
        if n in out:
            continue
        out.add(n)
        stack.extend(children.get(n, []))
    return out


# -- the files ---------------------------------------------------------------------------------

def journal_path(sessions_dir: Path, sid: str, dev: str) -> Path:
    return sessions_dir / f"{sid}.{dev}{SUFFIX}"


def header(dev: str, name: str, sid: str) -> dict:
    return {SCHEMA_KEY: {"kind": JOURNAL_KIND, "version": JOURNAL_VERSION}, "session": sid, "device": dev,
            "name": name}


def read_journal(path: Path) -> tuple[dict, list[dict], int]:
    """(header, entries, bytes of whole lines) of one journal file. A last line without its end
    (a write killed half-way) is not an entry: it was never acknowledged."""
    from companion.core.files import read_file_text

    found = read_file_text(path)
    if found is None:
        return {}, [], 0
    text = found[0]
    end = text.rfind("\n") + 1
    whole = text[:end]
    if not whole:
        return {}, [], 0
    try:
        rows = loads("[" + whole[:-1].replace("\n", ",") + "]")
    except (ValueError, RecursionError):
        rows = None
    if rows is None or not all(isinstance(r, dict) for r in rows):
        raise StoreError(_("{path} is damaged (a line is not a journal entry): move it away; it was not changed.")
                         .format(path=path))
    head = rows[0] if rows and SCHEMA_KEY in rows[0] else {}
    schema = head.get(SCHEMA_KEY) if head else None
    if head and (not isinstance(schema, dict) or schema.get("kind") != JOURNAL_KIND):
        raise StoreError(_("{path} is not a session journal: move it away; it was not changed.").format(path=path))
    if head and isinstance(schema.get("version"), int) and schema["version"] > JOURNAL_VERSION:
        raise StoreError(_("{path} was written by a newer companion (journal version {version}): upgrade the "
                           "companion on this laptop; it was not changed.").format(path=path, version=schema["version"]))
    entries = rows[1:] if head else rows
    return head, [e for e in entries if isinstance(e.get("id"), str) and isinstance(e.get("kind"), str)], len(whole.encode("utf-8"))


def number_of(entry: dict) -> int:
    """The number N of an entry ``DEVICE:N`` (0 for anything else)."""
    tail = str(entry.get("id", "")).rpartition(":")[2]
    return int(tail) if tail.isdigit() else 0


def last_number(path: Path) -> int:
    """The number of the last whole entry of a journal (0: none), read from its end only: an
    action at 50,000 events reads a few kilobytes, not the journal."""
    try:
        with open(path, "rb") as fh:
            size = fh.seek(0, os.SEEK_END)
            step = 4096
            while True:
                start = max(0, size - step)
                fh.seek(start)
                chunk = fh.read(size - start)
                end = chunk.rfind(b"\n")
                begin = chunk.rfind(b"\n", 0, end) if end > 0 else -1
                if begin >= 0 or start == 0:
                    break
                step *= 4
    except FileNotFoundError:
        return 0
    except OSError as exc:
        raise StoreError(_("Cannot read {path}: {reason}. It was not changed.").format(
            path=path, reason=exc.strerror or exc)) from None
    if end < 0:
        return 0
    try:
        last = loads(chunk[begin + 1:end])
    except ValueError:
        raise StoreError(_("{path} is damaged (its last line is not a journal entry): move it away; it was not "
                           "changed.").format(path=path)) from None
    return number_of(last) if isinstance(last, dict) else 0


EDGE = 65536  # the bytes at each end of what a snapshot covers that an action checks again


def edge_crcs(covered: bytes) -> list[int]:
    """The CRC-32 of the first and of the last EDGE bytes of what a snapshot covers."""
    return [zlib.crc32(covered[:EDGE]), zlib.crc32(covered[-EDGE:])]


def read_after(fh, covered: int, check: int, same: list) -> bytes | None:
    """The bytes of an open journal after the ``covered`` ones a snapshot stands for, when those
    are still the ones it was taken of (else None).

    The journal a snapshot was taken of (the same inode: this laptop appends to its own, a sync
    engine replaces a file it brings, and so does a hand edit with most editors) is checked at
    its two ends (the first and the last EDGE bytes covered, their CRC-32): an action at 50,000
    entries reads 128 KiB of it, not 8 MB. Any other file, or a snapshot written before the
    ends were kept, is checked whole (the CRC-32 of every byte covered)."""
    st = os.fstat(fh.fileno())
    if st.st_size < covered:
        return None
    if len(same) == 3 and same[0] == st.st_ino and covered > 2 * EDGE:
        fh.seek(0)
        start = fh.read(EDGE)
        fh.seek(covered - EDGE)
        end = fh.read(EDGE)
        if [zlib.crc32(start), zlib.crc32(end)] != list(same[1:]):
            return None
        return fh.read()
    fh.seek(0)
    data = fh.read()
    if len(data) < covered or (covered and zlib.crc32(memoryview(data)[:covered]) != check):
        return None
    return data[covered:]


def append_lines(path: Path, first: dict | None, entries: list[dict]) -> None:
    """Append ``entries``, a line each, to a journal this device alone writes, in one write and
    one fsync: the file is made whole (header and entries, atomically) when it is new. A line a
    killed write left unfinished is cut first (it was never acknowledged)."""
    line = "".join(dumps_compact(entry) + "\n" for entry in entries)
    if first is not None:
        atomic_write_text(path, dumps_compact(first) + "\n" + line)
        return
    try:
        fd = os.open(path, os.O_RDWR | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        raise StoreError(_("Could not write {path}: {reason}. Nothing was changed.").format(
            path=path, reason=exc.strerror or exc)) from exc
    size = None
    try:
        size = os.fstat(fd).st_size
        if size:
            os.lseek(fd, size - 1, os.SEEK_SET)
            if os.read(fd, 1) != b"\n":
                size = _cut_unfinished(fd, size)
        data = line.encode("utf-8")
        if os.write(fd, data) != len(data):
            raise OSError(28, "No space left on device")
        os.fsync(fd)
    except OSError as exc:
        if size is not None:  # what was written of the entries goes again: none was acknowledged
            with contextlib.suppress(OSError):
                os.ftruncate(fd, size)
        raise StoreError(_("Could not write {path}: {reason}. Nothing was changed.").format(
            path=path, reason=exc.strerror or exc)) from exc
    finally:
        os.close(fd)


def _cut_unfinished(fd: int, size: int) -> int:
    """Cut a last line a killed write left unfinished; returns the size now."""
    start = max(0, size - (1 << 20))
    os.lseek(fd, start, os.SEEK_SET)
    tail = os.read(fd, size - start)
    keep = start + tail.rfind(b"\n") + 1 if b"\n" in tail else start
    os.ftruncate(fd, keep)
    return keep


def rewrite(path: Path, first: dict, entries: list[dict]) -> None:
    """Write a journal whole (its device merging a conflict copy of it into it)."""
    text = "".join(dumps_compact(e) + "\n" for e in [first, *entries])
    atomic_write_text(path, text)


def signature_of(paths: list[Path]) -> tuple:
    return tuple((p.name, file_signature(p)) for p in paths)
