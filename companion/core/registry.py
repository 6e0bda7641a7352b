"""The games the companion knows, found through the entry point group ``companion.games``.

Built-in games and plugins register the same way: a distribution names, in its metadata, a
game id and the ``module:attribute`` of a :class:`companion.games.base.Game` subclass (or
instance). The core never names a game; it only reads that group.

Scanning entry points means reading every installed distribution's metadata, and importing
``importlib.metadata`` alone costs more than a whole ``companion --version``. So the scan is
done only when a game is needed, and its result is kept in a small cache file keyed by the
modification times of the folders on ``sys.path``: installing or removing a distribution
changes its folder, so the cache can never name a game that is gone or miss a new one. Only
the game asked for is imported.

A plugin that fails to import or breaks the contract never stops start-up or the other games:
it is left out of :func:`available` and reported in one line by :func:`problems`.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from pathlib import Path
from typing import Any

from companion.core.errors import CompanionError

GROUP = "companion.games"
CACHE_VERSION = 1

# What the contract requires of a game object: attribute -> what it must be.
REQUIRED = ("id", "title", "initial", "apply", "summary", "describe", "redact", "words")

_cache_path: Path | None = None
_targets: dict[str, tuple[str, str]] | None = None  # game id -> ("module:attr", distribution)
_games: dict[str, Any] = {}
_broken: dict[str, str] = {}  # game id -> one line saying what is wrong


def use_cache_file(path: Path | None) -> None:
    """Where the entry-point scan is remembered between runs (None: scan every run)."""
    global _cache_path
    _cache_path = path


def _fingerprint() -> list[list]:
    """The folders distributions live in, with their modification times.

    The folder Python put first on the path for this run is left out: the working folder for
    ``python -m companion`` (it changes whenever a file is written there), the script's folder
    for the ``companion`` command. Nobody installs a distribution there, and leaving it out
    lets both ways of starting share the cache.
    """
    skip = {"", ".", os.getcwd()}
    if sys.argv and sys.argv[0]:
        skip.add(os.path.dirname(os.path.abspath(sys.argv[0])))
    out = []
    for entry in sys.path:
        if entry in skip:
            continue
        try:
            out.append([entry, os.stat(entry).st_mtime_ns])
        except OSError:
            continue
    return out


def _scan() -> dict[str, tuple[str, str]]:
    from importlib.metadata import entry_points

    found: dict[str, tuple[str, str]] = {}
    for ep in entry_points(group=GROUP):
        dist = getattr(getattr(ep, "dist", None), "name", None) or "?"
        found.setdefault(ep.name, (ep.value, dist))
    return found


def targets() -> dict[str, tuple[str, str]]:
    """Every registered game id -> (``module:attribute``, distribution), built-ins first."""
    global _targets
    if _targets is not None:
        return _targets
    key = _fingerprint()
    if _cache_path is not None:
        try:
            cached = json.loads(_read_small_file(_cache_path))
            if cached.get("version") == CACHE_VERSION and cached.get("key") == key:
                _targets = {k: (v[0], v[1]) for k, v in cached["games"].items()}
                return _targets
        except (OSError, ValueError, TypeError, KeyError, AttributeError, IndexError):
            pass
    found = _scan()
    # the built-in games in the order pyproject.toml names them, then plugins by id
    builtin = [k for k, v in found.items() if v[0].startswith("companion.games.")]
    _targets = {k: found[k] for k in builtin + sorted(k for k in found if k not in builtin)}
    if _cache_path is not None:
        try:
            _cache_path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            tmp = _cache_path.with_name(_cache_path.name + f".{os.getpid()}.tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # owner only (issue 12)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(json.dumps({"version": CACHE_VERSION, "key": key,
                                     "games": {k: list(v) for k, v in _targets.items()}}))
            os.replace(tmp, _cache_path)
        except OSError:
            pass  # a read-only data folder: scan again next time
    return _targets


def _read_small_file(path: Path, limit: int = 1 << 20) -> str:
    """A regular file's text, at most ``limit`` bytes; OSError for anything else (a FIFO in
    its place must not hang start-up)."""
    import stat

    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
            raise OSError(f"{path} is not a small regular file")
        return os.read(fd, limit + 1).decode("utf-8")
    finally:
        os.close(fd)


def forget() -> None:
    """Drop what was scanned and loaded (tests install and remove plugins)."""
    global _targets
    _targets = None
    _games.clear()
    _broken.clear()


def _load(game_id: str) -> Any | None:
    if game_id in _games:
        return _games[game_id]
    if game_id in _broken:
        return None
    target, dist = targets()[game_id]
    try:
        module, _, attr = target.partition(":")
        obj = importlib.import_module(module)
        for part in attr.split(".") if attr else []:
            obj = getattr(obj, part)
        game = obj() if isinstance(obj, type) else obj
        missing = [name for name in REQUIRED if not hasattr(game, name)]
        if missing:
            raise TypeError(f"it has no {', '.join(missing)}")
        if getattr(game, "id", None) != game_id:
            raise TypeError(f"its id is {getattr(game, 'id', None)!r}, not {game_id!r}")
    except Exception as exc:  # noqa: BLE001 - a broken plugin is reported, never fatal
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        _broken[game_id] = f"{game_id}: not loaded from {dist} ({target}): {reason}"
        return None
    _games[game_id] = game
    return game


def known() -> list[str]:
    """Every registered id, loaded or not."""
    return list(targets())


def available() -> list[str]:
    """Ids of the games that load and keep the contract, in their listing order (this
    imports every game)."""
    ids = [gid for gid in targets() if _load(gid) is not None]
    return sorted(ids, key=lambda gid: (getattr(_games[gid], "listing", 100), gid))


def problems() -> list[str]:
    """One line for every registered game that could not be loaded."""
    available()
    return [_broken[gid] for gid in targets() if gid in _broken]


def get(game_id: str):
    """The game object of ``game_id``, or a refusal listing the games."""
    game = _games.get(game_id)
    if game is not None:
        return game
    if game_id in targets():
        game = _load(game_id)
        if game is not None:
            return game
        raise CompanionError(f"The game {game_id!r} is installed but could not be loaded: {_broken[game_id]}.")
    raise CompanionError(f"There is no game {game_id!r}: the games are {', '.join(available())}.")
