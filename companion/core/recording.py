"""Writing to a session: creating one, and recording one action under its write lock (read
once, replayed once, refused whole or appended whole), undo, redo and the reveal of the seed."""

from __future__ import annotations

from typing import Any, Callable

from companion.contract.language import _
from companion.core import registry as games
from companion.contract.errors import CompanionError, MissingValue, RuleError, StoreError, ValueConflict
from companion.contract.numbers import check_numbers
from companion.contract.api import Event, State, json_copy
from companion.core.store import Store, now
from companion.core.framework import apply_event
from companion.core.journal import SNAPSHOT_EVERY, Replay, Session, check_deal_contexts, load, with_frozen


def create(store: Store, game_id: str, players: list[str], options: dict, start: str | None = None,
           entropy: str = "", extra: dict | None = None, events: list[Event] = (),
           make_current: bool = True) -> Session:
    """Start a new session, freeze the printed values it uses, and make it current.

    ``extra`` adds description keys (``played_on``, ``location``); ``events`` are recorded
    with the session in the same locked write (`played` logs a whole game at once), so a
    crash never leaves half of it.
    """
    from companion.core import datapack

    game = games.get(game_id)
    from companion.core.index import index_summary
    from companion.core.seating import check_players, new_id, seat_from  # (a read needs neither)

    names = seat_from(check_players(players, game), start)
    check_numbers(options)
    for event in events:
        check_numbers(event)
    created = now()
    last = _last_started(store)
    sid = new_id(set(store.session_ids()), last[1] if last and last[0] == created else None)
    with store.writing_session(sid), store.writing():  # the order of every write (companion.core.store)
        data = datapack.merged(game_id, store.user_values(game_id)) if datapack.has_pack(game_id) else {}
        meta: dict[str, Any] = {
            "id": sid,
            "game": game_id,
            "players": names,
            "options": options,
            "created": created,
            "data": data,
        }
        meta.update({k: v for k, v in (extra or {}).items() if v})
        if game.deals:
            from companion.core import dealing

            seed = dealing.new_seed()
            meta.update(seed=seed, commitment=dealing.commitment(seed), entropy=entropy or "")
        at = now()
        session = Session(meta, [{"kind": "do", "event": dict(e), "at": at} for e in events])
        replay = session.replay()  # refuse options the rules cannot start from, before writing anything
        store.create_session(meta, session.journal, index_summary(session, replay) if events else None)
        _keep_last_started(store, created, sid)
        if make_current:
            try:
                store.set_current(meta["id"])
            except StoreError as exc:
                reason = exc.message.split(": ", 1)[-1].split(". ")[0]  # (its words in any language)
                store.notes.append(_("Session {id} was created and saved, but could not be made the current "
                                     "one ({reason}): type `use {id}` once the disk has room.").format(
                    id=meta["id"], reason=reason))

    return session


def _last_started(store: Store) -> list | None:
    """[start, id] of the session this laptop started last (cache/last-started: the two on one
    line), or None."""
    try:
        found = (store.cache_dir / "last-started").read_text(encoding="utf-8").split()
    except (OSError, ValueError):
        return None
    return found if len(found) == 2 else None


def _keep_last_started(store: Store, created: str, sid: str) -> None:
    """Keep this laptop's last start, for the id of the next one started in the same second
    (a cache: lost, the next id is only random)."""
    import contextlib
    import os

    with contextlib.suppress(OSError):
        path = store.cache_dir / "last-started"
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(f"{created} {sid}\n")


MakeEvent = Callable[[Session, Replay], Event]


class Recorded:
    """What :func:`record` did: the session and its replay after the action, the event as
    recorded, and what ``before`` kept of the state just before it."""

    __slots__ = ("session", "replay", "event", "before")

    def __init__(self, session: Session, replay: Replay, event: Event, before: Any):
        self.session, self.replay, self.event, self.before = session, replay, event, before

    def __iter__(self):  # session, replay, event = record(...)
        return iter((self.session, self.replay, self.event))


def fresh(store: Store, sid: str, held: "Session | tuple[Session, Any] | None" = None,
          keep: bool = False) -> tuple[Session, Replay]:
    """Session ``sid`` and its replay as the file holds them now: ``held`` itself when the file
    is the one it was read from (the same inode, size and time: every write replaces it), held
    followed by the actions appended since when only those were added (as a page or the
    shell sees another terminal's rail), else a new read and replay. So a command, the shell's
    toolbar and the pages read a session once and replay it once, whoever asks. ``keep``: a
    read (not an action) that had the rules replay many events keeps a snapshot of them."""
    if isinstance(held, tuple):
        held = held[0]
    if held is not None:
        session = held
        if session.id == sid and session.signature is not None and store.signature(sid) == session.signature:
            return session, session.replay()
    current = load(store, sid)
    if held is not None and held.id == sid and held._replayed is not None:
        extended = _extended(held, held._replayed, current)
        if extended is not None:
            current.keep_replay(extended)
    replay = current.replay()
    if keep and replay.fresh >= READ_SNAPSHOT_AFTER:
        keep_snapshot(store, current, replay)
    return current, replay


# A read that had the rules replay at least this many events keeps a snapshot of its replay
# (a write keeps one every SNAPSHOT_EVERY): the next `status` of a Trans round with 80 rails
# starts from it instead of building the board and replaying the rails again (issue 27).
READ_SNAPSHOT_AFTER = 16


def keep_snapshot(store: Store, session: Session, replay: Replay) -> None:
    """Keep a replay snapshot of ``replay`` (the whole line of ``session`` replayed), if one
    can stand for it: a cache in the machine's own folder, its failure to write no error."""
    if replay.undone or not session.length:
        return
    last = session.entries_from(session.length - 1)[0]
    if "id" in last:
        # A read holds no lock: another process may have appended since. The basis is taken
        # from the journals as they are now, so it stands for this replay only when they are
        # still the ones read (checked after: an append changes a journal's size); else a
        # later start would take an entry it never replayed as covered, and fork the line.
        basis = store.journal_basis(session.id, last["id"], session.length, (session.snapshot or {}).get("journals"))
        if basis is None or session.signature is None or store.signature(session.id) != session.signature:
            return
        # (no lock: its long lists are written as new parts, never grown in place)
        snap = session.journaled_snapshot_of(replay, basis, store, appending=False)
    else:
        snap = session.snapshot_of(replay, store.last_number(session.id), store, appending=False)
    if snap is not None:
        store.write_snapshot(session.id, snap)
        replay.fresh = 0  # the snapshot stands for these now


def _extended(before: Session, replay: Replay, current: Session) -> Replay | None:
    """``replay`` followed by the actions ``current`` appended to ``before``'s journal, or None
    when anything else changed (an undo, another description): the caller replays anew."""
    n, old, new = before.length, before.text, current.text
    # only appended: the file's text up to its closing brackets is the old text's (every
    # append splices one entry there; anything else rewrote the file)
    if (old is None or new is None or before.meta != current.meta or current.length < n
            or not old.endswith("}}") or not new.startswith(old[:-2])):
        return None
    added = current.entries_from(n)
    if any(e.get("kind") not in ("do", "reveal") for e in added):
        return None
    game = current.game
    state, data, out = replay.state, replay.data, replay
    try:
        for entry in added:
            if entry.get("kind") != "do":
                continue
            event = entry["event"]
            data = with_frozen(data, event)
            if game.deals:
                check_deal_contexts(current, event)
            state = apply_event(game, current.players, state, out.ctx, json_copy(event), data)
            out = out.then(entry, state, data)
    except CompanionError:
        return None  # the full replay says what is wrong, properly
    return out


def record(store: Store, sid: str, make_event: Event | MakeEvent, held: tuple[Session, Replay] | None = None,
           before: Callable[[State], Any] | None = None) -> Recorded:
    """Validate and append one action, under the lock, against the freshest state on disk.

    ``make_event`` is an event, or a function building it from the current session and replay
    (for deals, which must see the state as it is under the lock). ``held`` is what the caller
    read already: used as it is when the file did not change since (the file is read once per
    action). ``before(state)`` keeps what the caller needs of the state before the action. A
    refused event changes nothing on disk (the working state it changed is thrown away, and
    ``held`` with it). A printed value that was unknown when the session started is frozen into
    the event once the players have supplied it.
    """
    with store.writing_session(sid):
        session, replay = fresh(store, sid, held)
        refuse_forked(session)
        try:
            return _record(store, sid, session, replay, make_event, before)
        except BaseException:
            session.forget_replay()  # the working state may be half-changed: nobody reuses it
            raise


def _record(store: Store, sid: str, session: Session, replay: Replay, make_event, before) -> "Recorded":
    if True:  # (under the session's lock, held by record)
        event = make_event(session, replay) if callable(make_event) else dict(make_event)
        event = json_copy(event)  # the event shares nothing with the state it was built from
        check_numbers(event)
        game = session.game
        if game.deals and _deals(event):
            check_deal_contexts(session, event)
            if session.revealed:
                raise RuleError(
                    _("The deal seed of session {id} was shown (`verify`), so anyone may know the cards it "
                      "deals: no new deal comes from it. Deal at the table with `round start --physical`.")
                      .format(id=session.id)
                )
        data = with_frozen(replay.data, event)  # as replay will read it: the values it froze count
        from companion.core.index import _sync_index, before_append, changes_entry, ended

        was = ended(replay)
        kept = before(replay.state) if before is not None else None
        for _try in range(20):
            try:
                # The replay is this call's own: the event changes it in place (no copy of the
                # whole state per action). A refusal throws it away with everything else.
                state = apply_event(game, session.players, replay.state, replay.ctx, json_copy(event), data)
                break
            except MissingValue as missing:
                value = supplied_value(store, session.meta["game"], missing.key)
                if value is None:
                    raise
                event.setdefault("_data", {})[missing.key] = value
                replay = session.replay(again=True)  # the refused try may have changed the working state
                data = with_frozen(replay.data, event)
            except ValueConflict as clash:
                # a value given again since the session froze it (`data set`, a phone's question:
                # issue 31) counts from this event on, frozen into it as a missing one would be
                value = supplied_value(store, session.meta["game"], clash.key)
                if value is None or value == _value_at(data, clash.key):
                    raise
                event.setdefault("_data", {})[clash.key] = value
                replay = session.replay(again=True)
                data = with_frozen(replay.data, event)
        else:  # pragma: no cover - a game asking for ever more values
            raise RuleError(_("Too many printed values are missing for this action."))
        entry = {"kind": "do", "event": event, "at": now()}
        after = replay.then(entry, state, data)
        if changes_entry(was, after):  # the index first: a kill after the journal leaves it to be read again
            before_append(store, sid)
        store.append(sid, entry)
        session.add(entry)
        session.text, session.signature = store.session_text(sid), store.held_signature(sid)
        session.keep_replay(after)
        if after.fresh >= SNAPSHOT_EVERY:
            basis = (store.journal_basis(sid, entry.get("id"), session.length, (session.snapshot or {}).get("journals"))
                     if "id" in entry else None)
            snap = (session.journaled_snapshot_of(after, basis, store) if basis is not None
                    else session.snapshot_of(after, store.last_number(sid), store))
            if snap is not None:
                store.write_snapshot(sid, snap)
                after.fresh = 0  # the snapshot stands for these now: the next one after as many again
        _sync_index(store, session, was, after)
        store.keep_listing()  # (a cache of the folder's journals, kept once the action is saved)
    return Recorded(session, after, event, kept)


def refuse_forked(session: Session) -> None:
    """Nothing more is recorded in a session whose line forked (issue 30) until someone chooses
    what to keep: a move on one branch would make the choice for the table."""
    if session.fork is not None:
        from companion.contract.language import _

        raise CompanionError(_("Session {id} forked: two laptops continued it from the same point. Choose what to "
                               "keep first: `companion sync resolve {id}`.").format(id=session.id))


def _deals(event: Event) -> bool:
    """Whether ``event`` carries a deal (dealing is imported only for games that deal)."""
    from companion.core import dealing

    return any(True for _ in dealing.deals_in(event))


def _value_at(data: dict, key: str) -> Any:
    """The printed value at dotted ``key`` of ``data`` (None if it has none)."""
    from companion.core import datapack

    try:
        return datapack.get_path(data, key)
    except (KeyError, TypeError, CompanionError):
        return None


def supplied_value(store: Store, game_id: str, key: str) -> Any:
    """The value the players supplied (or the pack holds) at dotted ``key``, None if unknown."""
    from companion.core import datapack

    try:
        values = datapack.merged(game_id, store.user_values(game_id))
        return datapack.get_path(values, key)
    except (KeyError, CompanionError):
        return None


def step(store: Store, sid: str, kind: str, held: tuple[Session, Replay] | None = None) -> tuple[Session, Replay, dict]:
    """Undo or redo one event; returns the session, the new replay and the entry moved
    (``held``: what the caller read already, see :func:`fresh`)."""
    with store.writing_session(sid):
        session, before = fresh(store, sid, held)
        refuse_forked(session)
        if kind == "undo" and not before.count:
            raise CompanionError(_("Nothing to undo: the session is at its start."))
        if kind == "redo" and not before.undone:
            raise CompanionError(_("Nothing to redo: no undone event is waiting."))
        moved = before.events[-1] if kind == "undo" else before.undone[0]
        from companion.core.index import _sync_index, before_append, ended

        was = ended(before)
        entry = {"kind": kind, "at": now()}
        if any(was) or kind == "redo":  # may change its entry: the index first (see before_append)
            before_append(store, sid)
        store.append(sid, entry)
        session.add(entry)
        session.text, session.signature = store.session_text(sid), store.held_signature(sid)
        after = session.replay(again=True)
        _sync_index(store, session, was, after)
    return session, after, moved


def reveal(store: Store, sid: str) -> Session:
    """Record that the dealing seed was shown before the end of the game."""
    with store.writing_session(sid):
        session = load(store, sid)
        entry = {"kind": "reveal", "at": now()}
        store.append(sid, entry)
        session.add(entry)
    return session
