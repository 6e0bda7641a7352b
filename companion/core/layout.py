"""The data folder's layout: what the group shares, and what belongs to one machine (issue 30).

A group puts its data folder in the folder it already syncs (Syncthing, Nextcloud, Dropbox,
iCloud Drive). Whatever belongs to one machine must then never travel: the current session
(laptop B's new game became laptop A's current game), the index and the caches (made again
from the sessions on each laptop), the locks (a file lock orders two shells on one laptop and
means nothing across laptops), the server's tokens and notes, the logs and the shell's history.
All of it lives under one folder, :data:`LOCAL` (``<data>/.local/``), which the sync is told to
ignore (:func:`write_stignore` writes Syncthing's ``.stignore``; docs/club-record.md says what
to exclude in the others).

Why inside the data folder rather than platformdirs' user_state_dir: a data folder stays one
folder that can be backed up, moved or given with ``--data-dir``/``COMPANION_HOME`` (the tests
run hundreds of them side by side), and two data folders on one laptop never share a current
session or an index. The price is one ignore rule, which :func:`write_stignore` writes.

A data folder written before issue 30 kept these at its top: :func:`migrate` moves them into
``.local/`` once, by renames (nothing is copied, nothing rewritten), the first time a companion
opens the folder. What cannot be moved (a read-only folder) is read where it is.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

LOCAL = ".local"

# What moved from the top of the data folder into .local/ (issue 30), as files and folders.
MOVED = ("settings.json", "index.json", "cache", "locks", ".lock", "web", "errors.log", "errors.log.1",
         "shell-history")
# Of these, what is only a cache or a lock: when both the old and the new exist, the old goes.
DISPOSABLE = ("cache", "locks", ".lock")

# The rules between these two lines of .stignore are the companion's; lines outside are kept.
STIGNORE_BEGIN = "// Tabletop Companion: what stays on each laptop (issue 30; do not edit between these lines)"
STIGNORE_END = "// end of Tabletop Companion's rules"
STIGNORE_RULES = (
    "/.local",  # the current session, the index, caches, locks, the server's notes, logs
    "/.lock",  # the lock files of a companion from before issue 30
    "/locks",
    "(?d).*.tmp",  # a write in progress (a temporary file renamed over its file when whole)
    "(?d).*.old",  # an import's copy of a file it replaces, until it is done
)


def local_dir(root: Path) -> Path:
    """The folder of what belongs to this machine alone."""
    return Path(root) / LOCAL


def stignore_text(existing: str | None) -> str:
    """``.stignore`` with the companion's rules, the user's own lines kept as they were."""
    block = "\n".join((STIGNORE_BEGIN, *STIGNORE_RULES, STIGNORE_END))
    if not existing:
        return block + "\n"
    lines = existing.splitlines()
    if STIGNORE_BEGIN in lines and STIGNORE_END in lines[lines.index(STIGNORE_BEGIN):]:
        start = lines.index(STIGNORE_BEGIN)
        end = lines.index(STIGNORE_END, start)
        kept = lines[:start] + [block] + lines[end + 1:]
    else:
        kept = lines + [block]
    return "\n".join(kept) + "\n"


def write_stignore(root: Path) -> bool:
    """Write or bring up to date the companion's rules in ``<root>/.stignore`` (Syncthing's
    list of what not to sync, which Syncthing itself never syncs). True when it was written."""
    path = Path(root) / ".stignore"
    try:
        existing = path.read_text(encoding="utf-8") if path.is_file() and not path.is_symlink() else None
    except (OSError, UnicodeDecodeError):
        return False
    if path.is_symlink():
        return False
    wanted = stignore_text(existing)
    if existing == wanted:
        return False
    from companion.core.files import atomic_write_text
    from companion.contract.errors import CompanionError

    try:
        atomic_write_text(path, wanted)
    except (CompanionError, OSError):
        return False
    return True


def old_names(root: Path) -> list[str]:
    """The machine's own files still at the top of a data folder from before issue 30."""
    try:
        with os.scandir(root) as found:
            names = {entry.name for entry in found}
    except OSError:
        return []
    return [name for name in MOVED if name in names]


def migrate(root: Path) -> list[str]:
    """Move what belongs to this machine from the top of ``root`` into ``.local/`` (renames
    only: nothing is copied or rewritten, so nothing can be half moved). Returns the names
    moved. An old name whose new place is taken stays where it is (it is named by `sync
    status`), unless it is only a cache or a lock. Best effort: a folder that cannot be
    written is read where it is (see :func:`place`)."""
    root = Path(root)
    names = old_names(root)
    if not names:
        return []
    from companion.core.files import make_private_folder

    local = local_dir(root)
    try:
        made = not local.is_dir()
        make_private_folder(local)
    except OSError:
        return []
    moved = []
    for name in names:
        old, new = root / name, local / name
        if old.is_symlink():
            continue  # a link is the user's doing: left alone, and refused where it is read
        if new.exists() or new.is_symlink():
            if name in DISPOSABLE:
                _remove(old)
            continue
        with contextlib.suppress(OSError):
            os.rename(old, new)
            moved.append(name)
    if made or moved:
        write_stignore(root)
    return moved


def _remove(path: Path) -> None:
    """Remove an old cache or lock file or folder (nothing in it is a record)."""
    import shutil

    with contextlib.suppress(OSError):
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink()


def place(root: Path, name: str) -> Path:
    """Where the machine's file ``name`` is: in ``.local/``, or at the top of the folder when
    an old folder's file could not be moved there (a read-only folder)."""
    new = local_dir(root) / name
    if new.exists() or new.is_symlink():
        return new
    old = Path(root) / name
    if old.exists() and not local_dir(root).is_dir():
        return old
    return new
