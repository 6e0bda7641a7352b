"""The hostile import's last check: every session it adds or continues is replayed by this
companion's rules, and every deal it records is the one its seed gives."""

from __future__ import annotations

from companion.contract.language import _
from companion.contract.errors import CompanionError
from companion.record.import_values import refuse


def replay_check(meta: dict, journal: list[dict], name: str):
    """The session and its replay, or a refusal when the rules do not accept it."""
    from companion.core import session as sessions

    s = sessions.Session(meta, journal)
    try:
        replay = s.replay()
    except CompanionError as exc:
        reason = exc.message.replace(" Its file was not changed.", "")
        reason = reason.removeprefix(f"Session {meta['id']} cannot be replayed: ").rstrip(".")
        raise refuse(name, _("session {id} cannot be replayed by this companion: {reason}").format(
            id=meta["id"], reason=reason)) from None
    except Exception:  # noqa: BLE001 - hostile events may break a rules module in any way
        raise refuse(name, _unreadable(s, journal)) from None
    try:  # what `status`, `stats` and every export ask of it (issue 22: a damaged printed value
        s.status(replay)  # in meta.data imported, then `export --format csv` failed), and what
        _table_screen(s, replay)  # `status` shows the table (a Trans board built from its data)
    except Exception:  # noqa: BLE001 - the same: hostile values may break the rules' summary
        raise refuse(name, _("session {id}'s printed values (meta.data) or events give a state the rules of "
                             "{game} cannot score: it was not made by this companion").format(
            id=meta["id"], game=meta["game"])) from None
    return s, replay


def _table_screen(s, replay) -> None:
    """Draw the table's `status` screen as data, as `status` would: a printed value only a view
    reads (the lines of a Trans board) must be refused here, not by `status` after the import."""
    from companion.contract.exit import Exit
    from companion.core import registry

    seen = Exit(s, replay)
    seen.status
    view = registry.parts(s.meta["game"]).get("status_view")
    if view is not None and not replay.played:  # a play logged whole: `status` draws no game screen
        view(seen.at())


def _unreadable(s, journal: list[dict]) -> str:
    """Which entry breaks the rules' code (found by replaying ever shorter prefixes: a few
    replays, on a refusal only), in words without Python's: the entry, its type and the game."""
    done, _rest = s.fold()
    sid, game = s.meta["id"], s.meta["game"]
    try:
        s.replay(upto=0)  # the start alone: its options and printed values
    except Exception:  # noqa: BLE001 - the same breakage, before any event
        return _("session {id} cannot be replayed by this companion: its options or printed values (meta) are "
                 "not ones the rules of {game} can start from").format(id=sid, game=game)
    low, high = 0, len(done)  # the first `low` events replay; the first `high` do not
    while high - low > 1:
        mid = (low + high) // 2
        try:
            s.replay(upto=mid)
            low = mid
        except Exception:  # noqa: BLE001 - the same breakage, earlier
            high = mid
    if not done:
        return _("session {id} cannot be replayed by this companion: the rules of {game} cannot read it").format(
            id=sid, game=game)
    entry = done[high - 1]
    number = next((n for n, e in enumerate(journal, 1) if e is entry), high)
    return _("session {id}'s journal entry {n} ({type}) holds an event whose fields the rules of {game} cannot "
             "read: it was not made by this companion").format(id=sid, n=number, type=entry["event"].get("type"),
                                                              game=game)


def check_deals(meta: dict, journal: list[dict], name: str, start: int = 0) -> None:
    """Every deal recorded from entry ``start`` on must be what the session's seed gives: a
    continued game is held to the same seed as a new one (nobody can append a chosen hand)."""
    from companion.core import dealing

    seed = meta.get("seed")
    if not seed:
        return
    for n, entry in enumerate(journal[start:], start + 1):
        if entry.get("kind") != "do":
            continue
        for deal in dealing.deals_in(entry["event"]):
            try:
                good = dealing.check(deal, seed, meta.get("entropy", ""))
            except Exception:  # noqa: BLE001 - a doctored deal may break the shuffle in any way
                good = False
            if not good:
                raise refuse(name, _("session {id} entry {n} holds a deal its seed does not give").format(
                    id=meta["id"], n=n))

