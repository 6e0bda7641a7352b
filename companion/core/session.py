"""A session: a game, its options and players, the printed values it froze, and an event log.

The state is never stored: it is the replay of the log through the game's pure rules. The
journal on disk is append-only (``do``, ``undo``, ``redo`` and ``reveal`` entries), so nothing
recorded is ever lost; the *effective* event list is the fold of that journal, which is what
undo and redo move along. A new action after an undo drops the undone events from the effective
list (they stay in the journal).
"""

from __future__ import annotations

import json
import string
from datetime import date, datetime, timedelta
from dataclasses import dataclass, field
from typing import Any, Callable

from companion.core import registry as games
from companion.core.errors import CompanionError, MissingValue, RuleError, StoreError
# One bound for every number on every way in (LARGEST stays importable from here).
from companion.core.numbers import LARGEST, check_numbers  # noqa: F401
from companion.core.text import has_unsafe_chars, name_key, normal_name, safe_text
from companion.games.base import Event, Setup, State, json_copy
from companion.core.store import Store, index_entry, now

ID_ALPHABET = string.ascii_lowercase + string.digits
ID_LENGTH = 8
NAME_MAX = 20
# A name starting with one of these is a formula in a spreadsheet (the CSV export) or an option
# on a command line; '=' is refused anywhere in a name already.
NAME_BAD_STARTS = ("+", "-", "@")


def new_id(existing: set[str]) -> str:
    while True:
        import secrets  # imported here: `status` never makes an id, and secrets pulls in random

        sid = "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))
        if sid not in existing:
            return sid


def check_players(names: list[str], game) -> list[str]:
    """Player names as given, or a refusal saying what is wrong with them."""
    names = [normal_name(n.strip()) for n in names]  # NFC: "Zoë" in one character or two is one name
    if any(not n for n in names):
        raise CompanionError("A player name is empty: write the names as --players Ann,Bob,Cy")
    for n in names:
        if len(n) > NAME_MAX:
            raise CompanionError(f"The name '{safe_text(n)}' is longer than {NAME_MAX} characters: shorten it.")
        if any(c in n for c in ",=\n\t") or not n.isprintable() or has_unsafe_chars(n):
            raise CompanionError(f"The name '{safe_text(n)}' may not contain commas, '=' or control characters "
                                 "(such as ESC or a right-to-left override).")
        if n.startswith(NAME_BAD_STARTS):
            raise CompanionError(f"The name '{safe_text(n)}' starts with {n[0]!r}, which a command line reads as an "
                                 "option or a spreadsheet as a formula: names may not start with '+', '-' or '@'; "
                                 "start it with a letter or a digit.")
    seen: set[str] = set()
    for n in names:
        if name_key(n) in seen:
            raise CompanionError(f"The name {n!r} is given twice: every player needs a different name.")
        seen.add(name_key(n))
    if not game.min_players <= len(names) <= game.max_players:
        raise CompanionError(
            f"{game.title} takes {game.min_players} to {game.max_players} players, not {len(names)}."
        )
    return names


LOCATION_MAX = 100


def parse_played_on(text: str | None) -> str | None:
    """`--played-on` as YYYY-MM-DD or YYYY-MM-DDTHH:MM (a play can't be in the future), or a
    refusal showing how to write it."""
    if text is None:
        return None
    raw = text.strip().replace(" ", "T")
    how = "write it as YYYY-MM-DD or YYYY-MM-DDTHH:MM, e.g. 2026-03-01 or 2026-03-01T19:30"
    try:
        if len(raw) == 10:
            day = date.fromisoformat(raw)
            shown = day.isoformat()
        elif len(raw) == 16 and raw[10] == "T":
            moment = datetime.fromisoformat(raw)
            day, shown = moment.date(), moment.strftime("%Y-%m-%dT%H:%M")
        else:
            raise ValueError
    except ValueError:
        raise CompanionError(f"{text!r} is not a date: {how}.") from None
    if day.year < 1900:
        raise CompanionError(f"{shown} is too long ago: check the year.")
    if day > date.today() + timedelta(days=1):  # a day of slack for time zones
        raise CompanionError(f"{shown} is in the future: --played-on is the day the game was played.")
    return shown


def parse_location(text: str | None) -> str | None:
    """`--location` as one short line, or a refusal."""
    if text is None or not text.strip():
        return None
    text = text.strip()
    if len(text) > LOCATION_MAX or not text.isprintable():
        raise CompanionError(f"A location is one line of at most {LOCATION_MAX} characters.")
    return text


def seat_from(names: list[str], start: str | None) -> list[str]:
    """Seat order starting with the start player (default: the first listed)."""
    if not start:
        return names
    from companion.games.base import player_name

    first = player_name(names, start)
    i = names.index(first)
    return names[i:] + names[:i]


@dataclass
class Replay:
    state: State
    data: dict
    events: list[dict]  # effective journal entries, in order
    undone: list[dict]  # entries redo would bring back, next first
    finished_at: str | None = None
    fresh: int = 0  # events the rules applied (the rest came from a snapshot)


@dataclass
class Session:
    meta: dict
    journal: list[dict] = field(default_factory=list)
    # The session file's text and its replay snapshot, when loaded from a store (see replay).
    text: str | None = field(default=None, repr=False, compare=False)
    snapshot: dict | None = field(default=None, repr=False, compare=False)

    @property
    def id(self) -> str:
        return self.meta["id"]

    @property
    def game(self):
        return games.get(self.meta["game"])

    @property
    def players(self) -> list[str]:
        return list(self.meta["players"])

    @property
    def setup(self) -> Setup:
        return Setup(self.meta["game"], tuple(self.meta["players"]), dict(self.meta.get("options") or {}))

    @property
    def revealed(self) -> bool:
        return any(e.get("kind") == "reveal" for e in self.journal)

    def fold(self) -> tuple[list[dict], list[dict]]:
        done: list[dict] = []
        undone: list[dict] = []
        for entry in self.journal:
            kind = entry.get("kind")
            if kind == "do":
                done.append(entry)
                undone.clear()
            elif kind == "undo" and done:
                undone.append(done.pop())
            elif kind == "redo" and undone:
                done.append(undone.pop())
        return done, list(reversed(undone))

    def replay(self, upto: int | None = None) -> Replay:
        """The state after the effective events (the first ``upto`` of them if given)."""
        done, undone = self.fold()
        if upto is not None:
            done = done[:upto]
        game = self.game
        data = dict(self.meta.get("data") or {})
        start = self._snapshot_start(done)
        if start is not None:
            skip, state, finished_at = start
            for entry in done[:skip]:
                data = with_frozen(data, entry["event"])
        else:
            # One working state, changed in place by each event (Game.advance): linear in the
            # number of events. It is copied once from the start, and each event is copied as it
            # is handed over, so the state shares nothing with the printed values or the journal.
            skip, state, finished_at = 0, json_copy(game.initial(self.setup, data)), None
        for n, entry in enumerate(done[skip:], skip + 1):
            event = entry["event"]
            data = with_frozen(data, event)
            try:
                if game.deals:
                    check_deal_contexts(self, event)
                state = game.advance(state, json_copy(event), data)
            except CompanionError as exc:
                raise StoreError(
                    f"Session {self.id} cannot be replayed: event {n} ({event.get('type')}) is refused "
                    f"by this version's rules ({exc}). Its file was not changed."
                ) from None
            if state.get("finished") and finished_at is None:
                finished_at = entry.get("at")
            elif not state.get("finished"):
                finished_at = None
        return Replay(state, data, done, undone, finished_at, len(done) - skip)

    def _snapshot_start(self, done: list[dict]) -> tuple[int, State, str | None] | None:
        """(events covered, state, finished_at) from the session's snapshot, when it is still
        true of this journal: same companion and rules, the file's text up to the snapshot
        unchanged (its SHA-256), and only new actions since (no undo or redo)."""
        snap, text = self.snapshot, self.text
        if not snap or text is None:
            return None
        try:
            length, covered, prefix = int(snap["journal_length"]), int(snap["done"]), int(snap["prefix_chars"])
            if (snap.get("format") != SNAPSHOT_FORMAT or snap.get("rules") != rules_version(self.game)
                    or snap.get("game") != self.meta["game"] or not 0 < covered <= len(done)
                    or not 0 < length <= len(self.journal) or not 0 < prefix <= len(text)
                    or any(e.get("kind") not in ("do", "reveal") for e in self.journal[length:])
                    or sha256(text[:prefix]) != snap["prefix_sha256"]
                    or not isinstance(snap["state"], dict)):
                return None
            if snap.get("_taken"):  # a second replay of this Session: the first one changed it
                return covered, json_copy(snap["state"]), snap.get("finished_at")
            # The snapshot was parsed from its file for this Session alone: the first replay may
            # take its state as the working state, without copying a state as long as the session.
            snap["_taken"] = True
            return covered, snap["state"], snap.get("finished_at")
        except (KeyError, TypeError, ValueError, AttributeError):
            return None

    def snapshot_of(self, replay: Replay) -> dict | None:
        """A snapshot of ``replay`` (the whole journal replayed) for the file text it came from,
        or None when the state would not come back identical from JSON."""
        text = self.text
        if text is None or not text.endswith("}}") or replay.undone:
            return None
        body = json.dumps(replay.state, ensure_ascii=False, separators=(",", ":"))
        if json.loads(body) != replay.state:  # a tuple or a number key: no snapshot, replay instead
            return None
        prefix = len(text) - 2  # all but the closing of the journal and of the file
        return {
            "format": SNAPSHOT_FORMAT,
            "game": self.meta["game"],
            "rules": rules_version(self.game),
            "journal_length": len(self.journal),
            "done": len(replay.events),
            "prefix_chars": prefix,
            "prefix_sha256": sha256(text[:prefix]),
            "finished_at": replay.finished_at,
            "state": json.loads(body),
        }

    def status(self, replay: Replay | None = None) -> dict:
        """The ``status --json`` object: the session's keys and the game's."""
        r = replay or self.replay()
        out = {"session": self.id, "game": self.meta["game"], "title": self.game.title}
        out.update(self.game.summary(r.state))
        played = r.state.get("played")
        if played:  # logged from its final scores (`played`): the scores are the result
            out["players"] = [{"name": p, "score": v} for p, v in played["scores"].items()]
            out["winners"] = list(played["winners"])
            out["finished"] = True
            out["played"] = True
            out["round"] = None  # the rounds were not typed in
        abandoned = r.state.get("abandoned")
        out["abandoned"] = bool(abandoned)
        if abandoned:
            out["abandon_reason"] = abandoned.get("reason") or ""
        out["created"] = self.meta.get("created")
        for key in ("played_on", "location"):
            if self.meta.get(key):
                out[key] = self.meta[key]
        out["finished_at"] = r.finished_at if out.get("finished") else None
        if self.meta.get("commitment"):
            out["commitment"] = self.meta["commitment"]
            out["seed_revealed"] = self.revealed
        return out


def check_deal_contexts(session: Session, event: Event) -> None:
    """Refuse a deal whose context is not the one its session, round and deck give."""
    for deal, expected in session.game.deal_contexts(session.id, event):
        if deal.get("context") != expected:
            raise RuleError(
                f"A deal in this action carries the context {str(deal.get('context'))[:80]!r}, but its session, "
                f"round and deck give {expected!r}: the deal was not made by this session."
                if expected else
                f"A deal in this action ({str(deal.get('context'))[:80]!r}) is not one {session.game.title} makes."
            )


def with_frozen(data: dict, event: Event) -> dict:
    """The printed values after the ones an event froze when it was recorded."""
    frozen = event.get("_data")
    if not frozen:
        return data
    from companion.core.datapack import set_path

    import copy

    data = copy.deepcopy(data)
    for key, value in frozen.items():
        set_path(data, key, value)
    return data


# -- operations on the store ---------------------------------------------------------------


# Replay snapshots (issue 12): after at least this many events were replayed by the rules, a
# write keeps the state beside the journal (DATA/cache/replay/ID.json), with the SHA-256 of the
# session file's text it stands for. Replay starts from it while that text is unchanged.
SNAPSHOT_EVERY = 200
SNAPSHOT_FORMAT = 1


def rules_version(game) -> str:
    """What changes when a game's rules may have changed: companion's version, and the size and
    time of the module holding the game's rules (a plugin upgraded in place)."""
    import inspect
    import os

    from companion import __version__

    try:
        st = os.stat(inspect.getfile(type(game)))
        where = f"{st.st_size}:{st.st_mtime_ns}"
    except (OSError, TypeError):
        where = "?"
    return f"{__version__}:{type(game).__module__}.{type(game).__qualname__}:{where}"


def load(store: Store, sid: str) -> Session:
    meta, journal = store.read_session(sid)
    text = store.session_text(sid)
    snapshot = store.read_snapshot(sid) if len(journal) >= SNAPSHOT_EVERY else None
    return Session(meta, journal, text, snapshot)


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
    names = seat_from(check_players(players, game), start)
    check_numbers(options)
    for event in events:
        check_numbers(event)
    with store.writing():
        data = datapack.merged(game_id, store.user_values(game_id)) if datapack.has_pack(game_id) else {}
        meta: dict[str, Any] = {
            "id": new_id(set(store.session_ids())),
            "game": game_id,
            "players": names,
            "options": options,
            "created": now(),
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
        store.create_session(meta)
        for entry in session.journal:
            store.append(meta["id"], entry)
        if events:
            store.index_put(index_entry(meta, index_summary(session, replay)))
        if make_current:
            try:
                store.set_current(meta["id"])
            except StoreError as exc:
                reason = exc.message.split(": ", 1)[-1].split(". Nothing was changed")[0]
                store.notes.append(f"Session {meta['id']} was created and saved, but could not be made the current "
                                   f"one ({reason}): type `use {meta['id']}` once the disk has room.")
    return session


MakeEvent = Callable[[Session, Replay], Event]

def record(store: Store, sid: str, make_event: Event | MakeEvent) -> tuple[Session, Replay, Event]:
    """Validate and append one action, under the lock, against the freshest state on disk.

    ``make_event`` is an event, or a function building it from the current session and replay
    (for deals, which must see the state as it is under the lock). A refused event changes
    nothing. A printed value that was unknown when the session started is frozen into the event
    once the players have supplied it.
    """
    with store.writing_session(sid):
        session = load(store, sid)
        before = session.replay()
        event = make_event(session, before) if callable(make_event) else dict(make_event)
        event = json_copy(event)  # the event shares nothing with the state it was built from
        check_numbers(event)
        if session.game.deals and _deals(event):
            check_deal_contexts(session, event)
            if session.revealed:
                raise RuleError(
                    f"The deal seed of session {session.id} was shown (`verify`), so anyone may know the cards "
                    "it deals: no new deal comes from it. Deal at the table with `round start --physical`."
                )
        data = with_frozen(before.data, event)  # as replay will read it: the values it froze count
        was = ended(before.state)
        for _ in range(20):
            try:
                # The replay is this call's own: the event changes it in place (no copy of the
                # whole state per action). A refusal throws it away with everything else.
                state = session.game.advance(before.state, json_copy(event), data)
                break
            except MissingValue as missing:
                value = _supplied_value(store, session.meta["game"], missing.key)
                if value is None:
                    raise
                event.setdefault("_data", {})[missing.key] = value
                before = session.replay()  # the refused try may have changed the working state
                data = with_frozen(before.data, event)
        else:  # pragma: no cover - a game asking for ever more values
            raise RuleError("Too many printed values are missing for this action.")
        entry = {"kind": "do", "event": event, "at": now()}
        store.append(sid, entry)
        session.journal.append(entry)
        session.text = store.session_text(sid)
        after = Replay(state, data, before.events + [entry], [], entry["at"] if state.get("finished") else None,
                       before.fresh + 1)
        if after.fresh >= SNAPSHOT_EVERY:
            snap = session.snapshot_of(after)
            if snap is not None:
                store.write_snapshot(sid, snap)
        _sync_index(store, session, was, after)
    return session, after, event


def _deals(event: Event) -> bool:
    """Whether ``event`` carries a deal (dealing is imported only for games that deal)."""
    from companion.core import dealing

    return any(True for _ in dealing.deals_in(event))


def _supplied_value(store: Store, game_id: str, key: str) -> Any:
    from companion.core import datapack

    try:
        values = datapack.merged(game_id, store.user_values(game_id))
        return datapack.get_path(values, key)
    except (KeyError, CompanionError):
        return None


def step(store: Store, sid: str, kind: str) -> tuple[Session, Replay, dict]:
    """Undo or redo one event; returns the session, the new replay and the entry moved."""
    with store.writing_session(sid):
        session = load(store, sid)
        before = session.replay()
        if kind == "undo" and not before.events:
            raise CompanionError("Nothing to undo: the session is at its start.")
        if kind == "redo" and not before.undone:
            raise CompanionError("Nothing to redo: no undone event is waiting.")
        moved = before.events[-1] if kind == "undo" else before.undone[0]
        was = ended(before.state)
        entry = {"kind": kind, "at": now()}
        store.append(sid, entry)
        session.journal.append(entry)
        session.text = store.session_text(sid)
        after = session.replay()
        _sync_index(store, session, was, after)
    return session, after, moved


def reveal(store: Store, sid: str) -> Session:
    """Record that the dealing seed was shown before the end of the game."""
    with store.writing_session(sid):
        session = load(store, sid)
        entry = {"kind": "reveal", "at": now()}
        store.append(sid, entry)
        session.journal.append(entry)
    return session


def sha256(text: str) -> str:
    """The SHA-256 of ``text`` (hashlib is imported only by sessions long enough for snapshots)."""
    import hashlib

    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def index(store: Store) -> list[dict]:
    """Every session's index entry, oldest first: the index as a cache of the session files
    that heals itself (issue 12).

    Checked cheaply at every read: a session file the index does not list (a crash between
    the two writes), an entry whose file is gone, and every session file changed since the
    index was last written (a `finish` whose index update a kill or a full disk stopped) are
    re-derived from the files. Differences are written back under the lock when the folder
    can be written; the answer is right either way. A file that cannot be read is skipped,
    with one note naming it.
    """
    from companion.core.store import file_signature

    entries = store.index()
    files = store.session_ids()
    listed = {e["id"]: e for e in entries}
    index_sig = file_signature(store.index_path)
    index_time = index_sig[2] if index_sig else -1
    suspects = [sid for sid in files if sid not in listed]
    for sid in files:
        if sid in listed:
            path = store.session_path(sid)
            sig = file_signature(path)
            try:
                link_time = path.lstat().st_mtime_ns  # a link put in place of the file is new too
            except OSError:
                link_time = -1
            if (sig is not None and sig[2] >= index_time) or link_time >= index_time:
                suspects.append(sid)
    fixed: dict[str, dict] = {}
    for sid in suspects:
        try:
            s = load(store, sid)
            entry = index_entry(s.meta, index_summary(s, s.replay()))
        except CompanionError as exc:  # listed or not, say which file was skipped (one line)
            store.notes.append(f"Skipped: {exc.message}")
            continue
        if listed.get(sid) != entry:
            fixed[sid] = entry
    present = set(files)
    gone = [sid for sid in listed if sid not in present]
    if not fixed and not gone:
        return entries
    import contextlib

    with contextlib.suppress(CompanionError):  # a read-only folder: the answer is still right
        with store.writing():
            for entry in fixed.values():
                store.index_put(entry)
            if gone:
                store.index_remove(gone)
    out = [fixed.pop(e["id"], e) for e in entries if e["id"] not in gone]
    out += sorted(fixed.values(), key=lambda e: (str(e.get("created")), e["id"]))
    return out


def heal_index(store: Store) -> None:
    """Bring the index in step with the session files (see :func:`index`)."""
    index(store)


def rebuild_index(store: Store) -> int:
    """Rebuild the index from the session files (caller holds the lock)."""
    import contextlib

    from companion.core.store import open_db

    db = open_db(store.index_path, "index")
    entries = []
    for sid in store.session_ids():
        with contextlib.suppress(CompanionError):
            s = load(store, sid)
            entries.append(index_entry(s.meta, index_summary(s, s.replay())))
    db.drop_table("sessions")
    db.table("sessions").insert_multiple(entries)
    return len(entries)


def index_summary(session: Session, replay: Replay) -> dict | None:
    """The index's summary of a session: None until it is finished or abandoned (record,
    step, import). An abandoned game has no result: its summary says when and why only."""
    abandoned = replay.state.get("abandoned")
    if abandoned:
        at = next((e.get("at") for e in reversed(replay.events) if e["event"].get("type") == "abandon"), None)
        return {"abandoned_at": at, "reason": abandoned.get("reason") or ""}
    if not replay.state.get("finished"):
        return None
    status = session.status(replay)
    return {
        "finished_at": replay.finished_at,
        "round": status.get("round"),
        "scores": {p["name"]: p.get("score") for p in status.get("players", [])},
        "winners": status.get("winners", []),
        **({"played": True} if status.get("played") else {}),
    }


def ended(state: State) -> tuple[bool, bool]:
    """(finished, abandoned): what the index keeps in step. Taken before an action, since the
    action changes the working state in place."""
    return bool(state.get("finished")), bool(state.get("abandoned"))


def _sync_index(store: Store, session: Session, was: tuple[bool, bool], after: Replay) -> None:
    """Keep the index's finished or abandoned flag and summary in step (only when they change)."""
    if was == ended(after.state):
        return
    entry = index_entry(session.meta, index_summary(session, after))
    try:
        with store.writing():  # the folder's short lock, inside the session's: always in this order
            store.index_put_or_note(entry, session.id)
    except StoreError as exc:
        store.notes.append(f"Saved in {store.session_path(session.id)}, but the index of sessions could not be "
                           f"updated ({exc.message}); `sessions` mends it.")
