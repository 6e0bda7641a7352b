"""A plugin's failure is its own: which installed game's code raised, said in one line.

A game installed from another distribution may raise anything from its rules or views. The
root group names such a game when a command fails (companion.terminal.cli); the history
commands (`sessions`, `stats`, `players`, `export`, ratings), which read every session of the
folder, skip a session whose game raised, with one line naming the game and the session, and
go on with the others (issue 22: one plugin session made them all fail for the whole folder).
A failure in the companion's own code is not a plugin's: it is raised as before.

On `serve`'s pages a plugin's check of a move (its ``allowed``, ``turn``, what its kinds offer)
runs under a time bound (:func:`bounded`): one that raises or never returns refuses that move,
named on the page, and never holds the server (issue 27).
"""

from __future__ import annotations

import contextvars
import threading
from typing import Callable, TypeVar

from companion.contract.language import _
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
    if mine is not None and (found is None or found.packages & mine.packages):
        return mine
    return found


def frame(exc: BaseException) -> str:
    """`module line N` of the innermost frame in a plugin's code, or "its code"."""
    where = _("its code")
    tb = exc.__traceback__
    while tb is not None:
        name = tb.tb_frame.f_globals.get("__name__")
        if registry.owner_of(name) is not None:
            where = _("{module} line {line}").format(module=name, line=tb.tb_lineno)
        tb = tb.tb_next
    return where


def failed(parts: registry.Parts, exc: BaseException) -> str:
    """`the game ID (DISTRIBUTION VERSION) failed (ERROR in MODULE line N)`."""
    return _("the game {game} ({distribution} {version}) failed ({error} in {place})").format(
        game=parts.game.id, distribution=parts.distribution, version=parts.version, error=type(exc).__name__,
        place=frame(exc))


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
        store.notes.append(_("Skipped session {id}: {failed}; the others are shown: tell the game's author.")
                             .format(id=sid, failed=failed(parts, exc)))
        return False, None


# -- a plugin's checks on the phones' pages, under a time bound -------------------------------------

CHECK_SECONDS = 2.0  # how long a plugin's check may take before its move is not offered
CHECK_SECONDS_SETTING = "COMPANION_PLUGIN_CHECK_SECONDS"  # may shorten it, down to 0.5 s (core/bounds.py)
_late: dict[tuple[str, str], int] = {}  # (game id, move) -> its checks still running past the bound
_late_lock = threading.Lock()


def bounded(parts: registry.Parts, move: str, work: Callable[[], T],
            whose_turn: bool = False) -> tuple[T | None, str | None]:
    """``(work(), None)``, or ``(None, a line naming the plugin)`` when ``work``, a plugin's
    check of whether ``move`` may be made (its ``allowed``, ``turn``, what its kinds offer),
    raised or took longer than :data:`CHECK_SECONDS` (or the shorter time
    :data:`CHECK_SECONDS_SETTING` sets). The line says what the plugin was asked (whether ``move`` may be
    made, or with ``whose_turn`` whose turn it is) and what the page does without it, each a
    whole sentence in the catalogue.

    A Python thread cannot be stopped, so the check runs in a thread of its own and the page
    stops waiting for it at the bound; while one check of that move is still running past the
    bound, the next is refused at once instead of starting another, so a check that never
    returns holds one thread, not every thread of the server (issue 27: 45 requests of one
    player's page held them all, and the table page timed out). The companion's own games are
    run as they are: only a plugin's code is bounded."""
    if not parts.plugin:
        return work(), None
    from companion.core.bounds import shortened

    bound = shortened(CHECK_SECONDS_SETTING, CHECK_SECONDS, 0.5)
    key = (parts.game.id, move)
    named = dict(game=parts.game.id, distribution=parts.distribution, version=parts.version, move=move,
                 seconds=f"{bound:g}")
    if whose_turn:
        slow = _("The game {game} ({distribution} {version}) took more than {seconds} s to say whose turn it is: "
                 "the page does not say; tell the game's author.").format(**named)
    else:
        slow = _("The game {game} ({distribution} {version}) took more than {seconds} s to check whether {move} "
                 "may be made: not offered; tell the game's author.").format(**named)
    with _late_lock:
        if _late.get(key):
            return None, slow
    box: dict = {}
    done = threading.Event()
    context = contextvars.copy_context()

    def run() -> None:
        try:
            box["value"] = context.run(work)
        except BaseException as exc:  # noqa: BLE001 - the plugin's failure, named on the page
            box["error"] = exc
        with _late_lock:
            box["done"] = True
            if box.get("late"):
                _late[key] -= 1
        done.set()

    threading.Thread(target=run, name=f"companion check {key[0]} {move}", daemon=True).start()
    if not done.wait(bound):
        with _late_lock:
            if not box.get("done"):
                box["late"] = True
                _late[key] = _late.get(key, 0) + 1
                return None, slow
    if "error" in box:
        exc = box["error"]
        if isinstance(exc, Exception):
            from companion.contract.errors import CompanionError

            if isinstance(exc, CompanionError):  # a refusal in the game's words is no failure
                return None, exc.message
            said = failed(parts, exc)
            said = said[:1].upper() + said[1:]
            if whose_turn:
                return None, _("{failure} when asked to say whose turn it is: the page does not say; tell the "
                               "game's author.").format(failure=said)
            return None, _("{failure} when asked to check whether {move} may be made: not offered; tell the "
                           "game's author.").format(failure=said, move=move)
        raise exc
    return box.get("value"), None


def offers(parts: registry.Parts, moves, at, fresh: Callable[[], object], player: str) -> tuple[list, list[str]]:
    """``declare.offers(moves, at, player)`` of a player's page, each move's check bounded
    (:func:`bounded`): (the moves offered with their choices, a line for each check that
    failed). A plugin's checks each read an ``At`` of their own (``fresh()``), which one still
    running past the bound keeps to itself."""
    from companion.contract.declare import offers as offered_now

    if not parts.plugin:
        return offered_now(moves, at, player), []
    out, failures = [], []
    for move in moves:
        if not move.phone:
            continue
        found, failure = bounded(parts, move.name, lambda m=move: offered_now([m], fresh(), player))
        if failure is not None:
            failures.append(failure)
        out += found or []
    return out, failures
