"""The seats taken at the table (issue 31, item 1): one code for the table, each phone choosing
who it is from the players not yet taken.

Why a file of its own: a seat taken must stay taken when the server is restarted (a closed lid)
and must be freed from another process (`serve --free NAME` in another window, or from the
shell while its server runs on a thread). It lives beside the links' tokens, owner-only, and
holds names only, never a token. It is not the tokens file, so taking a seat does not make
every page be drawn again (the pages' cache is keyed on the tokens file).

A seat is taken when a phone chooses it on the choosing page, or when its player's own link is
opened (the per-player codes still work): from then on the choosing page no longer offers it,
so a phone cannot become another player. `serve --new-links` frees every seat, since every
link changed.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

from companion.web import tokens


def _path(root: Path) -> Path:
    return tokens.web_dir(root) / "seats.json"


@contextlib.contextmanager
def _locked(root: Path):
    """The seats file's lock: two phones choosing the same seat at once get one each, never both."""
    fd = os.open(tokens.web_dir(root) / "seats.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _read(root: Path) -> dict:
    return tokens.read_private(_path(root))


def _write(root: Path, data: dict) -> None:
    tokens.write_private(_path(root), data)


def taken(root: Path, sid: str) -> list[str]:
    """The players of session ``sid`` whose seat a phone has taken, in the order taken."""
    names = _read(root).get(sid)
    return [n for n in names if isinstance(n, str)] if isinstance(names, list) else []


def take(root: Path, sid: str, name: str) -> bool:
    """Take ``name``'s seat: True if this call took it, False if it was taken already."""
    with _locked(root):
        data = _read(root)
        names = taken(root, sid)
        if name in names:
            return False
        data[sid] = names + [name]
        _write(root, data)
        return True


def free(root: Path, sid: str, name: str | None = None) -> list[str]:
    """Free ``name``'s seat (every seat when ``name`` is None): the names freed."""
    with _locked(root):
        data = _read(root)
        names = taken(root, sid)
        gone = names if name is None else [n for n in names if n == name]
        if gone:
            data[sid] = [n for n in names if n not in gone]
            _write(root, data)
        return gone
