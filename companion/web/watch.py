"""Noticing at once that another process replaced a file: inotify, where the system has it.

The live channel (:mod:`companion.web.live`) compares the session file's signature (inode, size,
time) whenever something may have changed. What wakes it: this module's inotify watch on Linux
(the file's folder watched for a file renamed in, written, or removed, under the names watched),
which notices a write in well under a millisecond and costs nothing while nothing happens; and
always a stat poll as well, every :data:`companion.web.live.POLL` seconds where inotify is
missing (macOS, Windows, a system out of inotify watches) and every
:data:`companion.web.live.SAFETY_POLL` seconds beside it (a file system that does not report
every change, such as a network share). BENCHMARKS.md ("Live pages") has the measurements: a
50 ms poll noticed a rename after 30 ms (median) and cost 0.6 % of a core while idle; inotify
after 0.3 ms, at no cost.

Through ctypes, so nothing is installed for it; anything unexpected means no watch (the poll
then does the work), never an error.
"""

from __future__ import annotations

import contextlib
import os
import struct
import sys
from pathlib import Path

IN_MODIFY, IN_CLOSE_WRITE, IN_MOVED_FROM, IN_MOVED_TO = 0x2, 0x8, 0x40, 0x80
IN_CREATE, IN_DELETE, IN_NONBLOCK, IN_CLOEXEC = 0x100, 0x200, 0o4000, 0o2000000
MASK = IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE
HEADER = struct.Struct("iIII")  # wd, mask, cookie, len


class FolderWatch:
    """An inotify descriptor watching the folders of some files; :meth:`hit` reads what it
    reported and says whether any of those files was named."""

    def __init__(self, libc, fd: int, names: set[bytes]):
        self.libc = libc
        self.fd = fd
        self.names = names

    def hit(self) -> bool:
        found = False
        while True:
            try:
                data = os.read(self.fd, 65536)
            except (BlockingIOError, InterruptedError):
                return found
            except OSError:
                return True  # the watch broke: let the caller look (its poll goes on)
            if not data:
                return found
            offset = 0
            while offset + HEADER.size <= len(data):
                _wd, _mask, _cookie, length = HEADER.unpack_from(data, offset)
                name = data[offset + HEADER.size: offset + HEADER.size + length].rstrip(b"\0")
                offset += HEADER.size + length
                found = found or name in self.names or not name

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.fd)


def watch(files: list[Path]) -> FolderWatch | None:
    """An inotify watch on the folders of ``files`` (reporting those names), or None where
    there is no inotify (any system but Linux, or no watch to be had)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes
        import ctypes.util

        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        fd = libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
        if fd < 0:
            return None
        for folder in {Path(f).parent for f in files}:
            if libc.inotify_add_watch(fd, os.fsencode(folder), MASK) < 0:
                os.close(fd)
                return None
        return FolderWatch(libc, fd, {os.fsencode(Path(f).name) for f in files})
    except (OSError, AttributeError, ImportError, ValueError):
        return None
