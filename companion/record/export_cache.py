"""This machine's cache of the json export's items (issue 30): each finished session's item,
``{"meta": ..., "journal": [...]}`` as the export writes it, kept in one file under
``.local/cache`` with the signature of the session's files it was read under.

A club's 50,000 plays from ten laptops are 100,000 files (each session's description and its
journal): opening and checking each took 3.5 s of CPU at every `export --format json`. With the
cache an export looks at the folder once (one listing and one ``lstat`` a file, as the index's
check does) and reads one file; a session is read from its own files again whenever their
signature (inode, size, modification and change times of each, taken before they are read)
is not the one its item was kept under, so a stale item is never written. Each item carries
its CRC-32, and a damaged or foreign cache is ignored whole or line by line: it is rebuilt
from the files, never trusted. The sync ignores ``.local/`` (each laptop keeps its own).

The file: a first line ``{"kind":"export-items","version":N,"companion":"X.Y.Z"}``, then one
line a session, ``ID<TAB>SIGNATURE<TAB>CRC32<TAB>ITEM``.
"""

from __future__ import annotations

import contextlib
import json
import time
import zlib

from companion.core.store import Store

CACHE_NAME = "export-items"
CACHE_VERSION = 1
QUIET_NS = 2_000_000_000  # files changed in the last two seconds may change again within their clock's tick


def _header() -> str:
    from companion import __version__

    return json.dumps({"kind": CACHE_NAME, "version": CACHE_VERSION, "companion": __version__},
                      separators=(",", ":"))


class ExportCache:
    """The kept items checked against the files' signatures now; :meth:`item` answers from
    it or from ``read``, and :meth:`save` writes what changed. The items stay in the file (read
    back by their place in it when written out): at 50,000 sessions they are 40 MB."""

    def __init__(self, store: Store):
        from companion.core.index import source_signatures

        self.store = store
        self.path = store.cache_dir / CACHE_NAME
        self.now = source_signatures(store)  # before any file is read: a change during it differs next time
        self.kept: dict[str, tuple[int, int]] = {}  # id: (where its item starts in the file, its length in bytes)
        self.new: set[str] = set()  # the ids read from their files by this export, written to ``out``
        self.fh = None
        self.out = None  # the new cache file (None: not begun; False: it cannot be written)
        self.tmp = ""
        self.dirty = False
        self._load()

    def _load(self) -> None:
        try:
            if self.path.is_symlink():
                return
            fh = open(self.path, "rb")
        except OSError:
            return
        header = _header().encode() + b"\n"
        now = self.now
        try:
            if fh.readline() != header:
                self.dirty = True
                fh.close()
                return
            at = len(header)
            for line in fh:
                start, at = at, at + len(line)
                parts = line.split(b"\t", 3)
                if len(parts) != 4 or not line.endswith(b"\n"):
                    self.dirty = True
                    continue
                sid, signature, crc, item = parts
                sid = sid.decode("ascii", "replace")
                found = now.get(sid)
                if found is None or found[0].encode() != signature or sid in self.kept:
                    self.dirty = True  # the session changed or is gone: dropped at the next save
                    continue
                if crc != b"%08x" % zlib.crc32(item[:-1], 0) or b"\n" in item[:-1]:
                    self.dirty = True
                    continue
                self.kept[sid] = (start + len(line) - len(item), len(item) - 1)
        except (OSError, ValueError):
            self.kept.clear()
            self.dirty = True
            fh.close()
            return
        self.fh = fh

    def _kept_item(self, sid: str) -> str | None:
        where, size = self.kept[sid]
        try:
            self.fh.seek(where)
            data = self.fh.read(size)
            if len(data) == size:
                return data.decode("utf-8")
        except (OSError, UnicodeDecodeError):
            pass
        del self.kept[sid]
        self.dirty = True
        return None

    def item(self, entry: dict, read) -> str | None:
        """The export's item of the session of index entry ``entry``: kept, or ``read()`` (and
        kept when the session is finished or abandoned and its files quiet)."""
        sid = entry["id"]
        if sid in self.kept:
            item = self._kept_item(sid)
            if item is not None:
                return item
        item = read()
        found = self.now.get(sid)
        if (item is None or found is None or entry.get("summary") is None or "\n" in item
                or time.time_ns() - found[1] < QUIET_NS):
            return item
        data = item.encode("utf-8")
        out = self._out()
        if out is not None:  # written at once (at 50,000 sessions they are 40 MB: never all held)
            with contextlib.suppress(OSError):
                out.write(b"%s\t%s\t%08x\t%s\n" % (sid.encode(), found[0].encode(), zlib.crc32(data, 0), data))
                self.new.add(sid)
                self.dirty = True
        return item

    def _out(self):
        """The new cache file, begun by a temporary file beside it, or None if it cannot be."""
        import os
        import tempfile

        from companion.core.files import clean_leftovers, make_private_folder

        if self.out is None:
            self.out = False
            with contextlib.suppress(OSError):
                make_private_folder(self.path.parent)
                clean_leftovers(self.path)
                fd, self.tmp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".tmp")
                self.out = os.fdopen(fd, "wb")
                self.out.write(_header().encode() + b"\n")
        return self.out or None

    def save(self) -> None:
        """Write the kept items when they changed (a folder that cannot be written keeps none:
        the export is the same either way): the new ones were written as they were read, the
        others follow, then fsync and rename."""
        import os

        try:
            if not self.dirty:
                return
            out = self._out()
            if out is None:
                return
            try:
                for sid, (where, size) in self.kept.items():
                    if sid in self.new:
                        continue
                    self.fh.seek(where)
                    data = self.fh.read(size)
                    out.write(b"%s\t%s\t%08x\t%s\n" % (sid.encode(), self.now[sid][0].encode(),
                                                         zlib.crc32(data, 0), data))
                out.flush()
                os.fsync(out.fileno())
                out.close()
                os.replace(self.tmp, self.path)
                self.dirty = False
            except OSError:
                pass
        finally:
            if self.out:
                self.out.close()
                if self.dirty:
                    with contextlib.suppress(OSError):
                        os.unlink(self.tmp)
            if self.fh is not None:
                self.fh.close()
                self.fh = None


def forget(store: Store) -> None:
    """Remove the kept items (`delete`: a session in the bin leaves no copy of its hands in a
    cache, as its replay snapshot goes); the next export keeps them again from the files."""
    with contextlib.suppress(OSError):
        (store.cache_dir / CACHE_NAME).unlink()
