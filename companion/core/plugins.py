"""A plugin's failure is its own: which installed game's code raised, said in one line.

A game installed from another distribution may raise anything from its rules or views. The
root group names such a game when a command fails (companion.terminal.cli); the history
commands (`sessions`, `stats`, `players`, `export`, ratings), which read every session of the
folder, skip a session whose game raised, with one line naming the game and the session, and
go on with the others (issue 22: one plugin session made them all fail for the whole folder).
A failure in the companion's own code is not a plugin's: it is raised as before.
"""

from __future__ import annotations

from typing import Callable, TypeVar

from companion.core import registry

T = TypeVar("T")


def at_fault(exc: BaseException, game_id: str | None = None) -> registry.Parts | None:
    """The loaded plugin game (registry.Parts) whose code raised ``exc``: the innermost frame
    of its traceback in a game's own package that is not the companion's. ``game_id``, the
    game of the session at hand, is named instead when it is a plugin of that same package (one
    distribution may hold several games), or when no frame is a plugin's (its code returned
    something the companion's code then raised on)."""
    found = None
    tb = exc.__traceback__
    while tb is not None:
        owner = registry.owner_of(tb.tb_frame.f_globals.get("__name__"))
        if owner is not None:
            found = owner
        tb = tb.tb_next
    mine = None
    if game_id is not None:
        try:
            mine = registry.parts(game_id)
        except Exception:  # noqa: BLE001 - a game that does not load is not at fault here
            mine = None
        if mine is not None and registry.owner_of(type(mine.game).__module__) is None:
            mine = None  # one of the companion's own games
    if mine is not None and (found is None or found.package == mine.package):
        return mine
    return found


def frame(exc: BaseException) -> str:
    """`module line N` of the innermost frame in a plugin's code, or "its code"."""
    where = "its code"
    tb = exc.__traceback__
    while tb is not None:
        name = tb.tb_frame.f_globals.get("__name__")
        if registry.owner_of(name) is not None:
            where = f"{name} line {tb.tb_lineno}"
        tb = tb.tb_next
    return where


def failed(parts: registry.Parts, exc: BaseException) -> str:
    """`the game ID (DISTRIBUTION VERSION) failed (ERROR in MODULE line N)`."""
    return (f"the game {parts.game.id} ({parts.distribution} {parts.version}) failed "
            f"({type(exc).__name__} in {frame(exc)})")


def skipping(store, sid: str, work: Callable[[], T]) -> tuple[bool, T | None]:
    """Run ``work`` for session ``sid`` of a history command: (True, its result), or (False,
    None) with one note in ``store.notes`` naming the plugin and the session when the plugin's
    code raised. Anything else (a refusal, the companion's own failure) raises as it would have."""
    try:
        return True, work()
    except Exception as exc:  # noqa: BLE001 - told apart below: a plugin's failure, or raised again
        from companion.contract.errors import CompanionError

        if isinstance(exc, CompanionError):
            raise
        try:
            game_id = store.session_game(sid)
        except Exception:  # noqa: BLE001 - the traceback may still name the plugin
            game_id = None
        parts = at_fault(exc, game_id)
        if parts is None:
            raise
        store.notes.append(f"Skipped session {sid}: {failed(parts, exc)}; the others are shown: tell the game's "
                           "author.")
        return False, None
