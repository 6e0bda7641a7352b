"""The data folder's two logs, errors.log and web/access.log: owner-only, and bounded.

Why bounded: a server left running through an evening writes a line per request, and a bug
hit in a loop (issue 29, D7: 200 wrong links a second, each a 2.7 KB traceback) once wrote
544 KB in 1.6 s, for as long as someone kept asking. So each log is a file of at most
:data:`LIMIT` bytes and one older file beside it (``errors.log.1``): a line that would take
the file past the limit first moves it to ``.1`` (replacing the older one), then starts a new
one. The two files together never pass twice the limit, whatever is asked of the server.

Why owner-only: a traceback can name the data folder and what a page showed, and the access log
says who asked when; a log is created 0600, like the rest of the folder (issue 12), and a log
that is a symbolic link is never written through.

Why counted: the same error again (the same traceback, word for word) is not written again. The
first is written whole; then one line says how many times it came, at the 2nd, 4th, 8th...
occurrence, so a loop of a million writes twenty lines (:class:`Repeats`).
"""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path

LIMIT = 1024 * 1024  # bytes of one log file; the older file beside it holds as much again
KEPT = ".1"  # the suffix of the older file
REMEMBERED = 256  # distinct errors whose repeats are counted (past that, counting starts afresh)

_lock = threading.Lock()


def append(path: Path, text: str, limit: int = LIMIT) -> bool:
    """Add ``text`` to the log at ``path`` (created owner-only), first moving a full log to
    ``path.1``. False when it could not be written (a read-only folder, a log that is a link)."""
    data = text.encode("utf-8", "replace")
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0)
    try:
        with _lock:
            if Path(path).is_symlink():
                return False
            fd = os.open(path, flags, 0o600)
            try:
                if os.fstat(fd).st_size + len(data) > limit and os.fstat(fd).st_size > 0:
                    os.close(fd)
                    fd = -1
                    os.replace(path, f"{path}{KEPT}")
                    fd = os.open(path, flags, 0o600)
                os.write(fd, data[:limit])
            finally:
                if fd >= 0:
                    os.close(fd)
        return True
    except OSError:
        return False


class Repeats:
    """Counts errors already written, so that the same one is written once, then counted."""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}
        self.lock = threading.Lock()

    def count(self, text: str) -> int:
        """How many times ``text`` has come now, this one included."""
        key = hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()
        with self.lock:
            if key not in self.seen and len(self.seen) >= REMEMBERED:
                self.seen.clear()
            self.seen[key] = self.seen.get(key, 0) + 1
            return self.seen[key]


def error_entry(header: str, text: str, times: int) -> str | None:
    """What the log says of an error that has now come ``times`` times: the whole traceback the
    first time, one line at each power of two after, nothing otherwise."""
    if times == 1:
        return f"--- {header}\n{text}\n"
    if times & (times - 1) == 0:
        last = text.strip().splitlines()[-1] if text.strip() else "the same error"
        return f"--- {header}: the same error again ({last[:200]}), {times} times in all\n"
    return None
