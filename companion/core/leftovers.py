"""What killed writes leave in the data folder, removed at the next start (issue 22).

Every write goes to a temporary file beside its file (`.NAME.RANDOM.tmp`, see
companion.core.store.atomic_write_text) and is renamed over it; an import keeps each file it
replaces under a second name (`.NAME.import-PID.old`) until it is done. A process killed in
between leaves them behind. They are never read as data, but they pile up: the first write of a
process, and a shell or a script starting, remove them (Store.sweep_leftovers).

A leftover is removed only under the locks its writer would hold, taken without waiting: the
folder's for the folder's own files, a session's and the folder's for a session's file or its
snapshot (an import writes a new session under the folder's lock alone). So a write in progress
in another process keeps its file, and the sweep never waits for anyone.
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path
from typing import Callable

# NAME is group 1
LEFTOVER = re.compile(r"\.(.+?)\.(?:[A-Za-z0-9_]+\.tmp|import-\d+\.old)")
# written under the folder's lock
FOLDER_FILES = ("index.json", "settings.json", "userdata.json", "players.json")
# the shared lists' folders of per-device logs (companion.core.shared_log), written under it too
SHARED_LOGS = ("players", "titles", "values", "trash")


def sweep(root: Path, is_session_id: Callable[[str], bool], mode: int, local: Path | None = None) -> int:
    """Remove every leftover no writer holds in the data folder ``root`` and in its machine's
    own folder ``local`` (``root/.local`` since issue 30; lock files are made with ``mode`` and
    live there); returns how many were removed."""
    from filelock import FileLock, Timeout

    local = root if local is None else local
    removed = 0
    places = ((root, None), (local, None), (root / "sessions", ".json"), (local / "cache" / "replay", ".snapshot"))
    places += tuple((root / name, "log") for name in SHARED_LOGS)
    places = tuple(dict.fromkeys(places))
    for folder, suffix in places:
        try:
            names = [e.name for e in os.scandir(folder) if e.name.startswith(".")
                     and e.name.endswith((".tmp", ".old")) and e.is_file(follow_symlinks=False)]
        except OSError:
            continue
        for name in names:
            found = LEFTOVER.fullmatch(name)
            if found is None:
                continue
            stem = found.group(1)
            if suffix == "log":  # a laptop's log of a shared list (issue 30): the folder's lock
                if not re.fullmatch(r"[0-9a-f]{10}\.json", stem):
                    continue
                locks = [local / ".lock"]
            elif suffix is None:
                if stem not in FOLDER_FILES:
                    continue
                locks = [local / ".lock"]
            elif stem.endswith(suffix) and is_session_id(stem[:-len(suffix)]):
                locks = [local / "locks" / f"{stem[:-len(suffix)]}.lock", local / ".lock"]
            else:
                continue
            if any(path.is_symlink() for path in locks):
                continue
            with contextlib.ExitStack() as held:
                try:
                    for path in locks:  # the order of every writer: the session's, then the folder's
                        lock = FileLock(str(path), timeout=0, mode=mode)
                        lock.acquire()
                        held.callback(lock.release)
                except (Timeout, OSError):
                    continue  # its writer is at work (or the folder is read-only)
                with contextlib.suppress(OSError):
                    (folder / name).unlink()
                    removed += 1
    return removed
