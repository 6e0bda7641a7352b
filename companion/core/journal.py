"""A session as its file holds it: the journal of do/undo/redo entries, its effective events,
and the replay of those events through the game's rules (with the snapshot that spares replaying
a long journal from its start)."""

from __future__ import annotations

import contextlib
from typing import Callable

from companion.contract.language import _
from companion.core import registry as games
from companion.contract.errors import CompanionError, RuleError, StoreError
from companion.contract.api import Event, Setup, State, json_copy
from companion.core import snapshot_parts
from companion.core.json_read import loads
from companion.core.store import Store, sha256
from companion.core.framework import apply_event, context_finished, describe_event, new_context


class Later:
    """Journal entries of which the first ``count`` are parsed from the session file only if
    something asks for them (issue 12: an action at 10,000 events should not parse 10,000
    entries that a replay snapshot already stands for). ``load`` parses them; ``tail`` holds
    the entries that follow, already parsed."""

    def __init__(self, count: int, load: Callable[[], list[dict]], tail: list[dict]):
        self.count, self.load, self.tail = count, load, tail

    def __len__(self) -> int:
        return self.count + len(self.tail)

    def resolve(self) -> list[dict]:
        head = self.load()
        if len(head) != self.count:  # pragma: no cover - the snapshot's checksum rules this out
            raise StoreError(_("A session's journal changed while it was read: try again."))
        return head + self.tail


# -- the framework's own facts of a session ------------------------------------------------------
#
# Whether a game is over and who won, whether it was abandoned or logged from its final scores
# (`played`), and its notes, are the session's, not the game's: they live in a context beside
# the game's state (boardgame.io's ctx beside G), so a game reports its result once
# (Game.result) and its state never has to avoid a framework key.


class Replay:
    """The state after a session's effective events, with those events (``events``), the
    undone ones redo would bring back (``undone``, next first), and the framework's context
    (``ctx``: result, abandoned, played)."""

    def __init__(self, state: State, data: dict, events: list[dict] | Later, undone: list[dict],
                 finished_at: str | None = None, fresh: int = 0, frozen: list | None = None,
                 ctx: dict | None = None):
        self.state, self.data, self._events, self.undone = state, data, events, undone
        self.finished_at = finished_at
        self.fresh = fresh  # events the rules applied (the rest came from a snapshot)
        # the printed values the events froze, in order ([key, value] pairs): kept by snapshots
        self.frozen = frozen if frozen is not None else []
        self.ctx = ctx if ctx is not None else new_context()

    @property
    def events(self) -> list[dict]:
        if isinstance(self._events, Later):
            self._events = self._events.resolve()
        return self._events

    @property
    def count(self) -> int:
        """How many events are in effect (without parsing any the snapshot stands for)."""
        return len(self._events)

    @property
    def finished(self) -> bool:
        """Over: the game reported its result, or it was logged from its final scores."""
        return context_finished(self.ctx)

    @property
    def abandoned(self) -> dict | None:
        return self.ctx.get("abandoned")

    @property
    def played(self) -> dict | None:
        return self.ctx.get("played")

    @property
    def winners(self) -> list[str]:
        played = self.ctx.get("played")
        if played:
            return list(played["winners"])
        result = self.ctx.get("result")
        return list(result["winners"]) if result else []

    @property
    def over(self) -> bool:
        """Finished or abandoned: nothing more is played (`verify` may show the seed)."""
        return self.finished or bool(self.abandoned)

    def then(self, entry: dict, state: State, data: dict) -> "Replay":
        """This replay followed by one more recorded action (``entry``), now in ``state`` (and
        this replay's context, changed in place by the same step)."""
        events = (Later(self._events.count, self._events.load, self._events.tail + [entry])
                  if isinstance(self._events, Later) else self._events + [entry])
        finished_at = (self.finished_at or entry["at"]) if context_finished(self.ctx) else None
        return Replay(state, data, events, [], finished_at, self.fresh + 1,
                      self.frozen + [[k, v] for k, v in (entry["event"].get("_data") or {}).items()], self.ctx)


class Session:
    """A session as read from its file: its description (``meta``) and its journal.

    ``text`` is the file's text and ``snapshot`` its replay snapshot, when loaded from a store
    (see :meth:`replay`). The journal may come as :class:`Later` (see :func:`load`): it is
    parsed in full the first time ``journal`` is asked for."""

    def __init__(self, meta: dict, journal: list[dict] | Later | None = None, text: str | None = None,
                 snapshot: dict | None = None, signature: tuple | None = None):
        self.meta = meta
        self._journal = journal if journal is not None else []
        self.text = text
        self.snapshot = snapshot
        self.signature = signature  # the file's (inode, size, time) when it was read or written
        self._replayed: Replay | None = None
        # issue 30: the fork where the merged line of its devices' journals stops (or None), and
        # the devices' names (companion.core.journals)
        self.fork = None
        self.names: dict[str, str] = {}
        self.store = None  # the Store it was loaded from: a snapshot's parts are read there (load)

    def __repr__(self) -> str:
        return f"Session({self.meta.get('id')!r}, {self.meta.get('game')!r}, {len(self._journal)} entries)"

    @property
    def journal(self) -> list[dict]:
        if isinstance(self._journal, Later):
            self._journal = self._journal.resolve()
        return self._journal

    @journal.setter
    def journal(self, entries: list[dict]) -> None:
        self._journal = entries

    @property
    def length(self) -> int:
        """The number of journal entries (without parsing any the snapshot stands for)."""
        return len(self._journal)

    def entries_from(self, n: int) -> list[dict]:
        """The journal entries after the first ``n`` (parsing the covered ones only if needed)."""
        later = self._journal
        if isinstance(later, Later) and n >= later.count:
            return later.tail[n - later.count:]
        return self.journal[n:]

    def add(self, entry: dict) -> None:
        """Keep an entry just appended to the file (without parsing the covered ones)."""
        if isinstance(self._journal, Later):
            self._journal.tail.append(entry)
        else:
            self._journal.append(entry)

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
    def moves(self) -> list:
        """The game's declared moves (their private parameters are what the exit hides)."""
        return list(games.parts(self.meta["game"]).get("MOVES") or [])

    @property
    def title(self) -> str:
        """The game's name: the title a score sheet was given (`--title Carcassonne`, issue 23),
        else the game's own."""
        named = (self.meta.get("options") or {}).get("title")
        return named if isinstance(named, str) and named else self.game.title

    @property
    def setup(self) -> Setup:
        return Setup(self.meta["game"], tuple(self.meta["players"]), dict(self.meta.get("options") or {}))

    @property
    def revealed(self) -> bool:
        if isinstance(self._journal, Later):  # the snapshot says whether its entries held a reveal
            return bool((self.snapshot or {}).get("revealed")) or any(
                e.get("kind") == "reveal" for e in self._journal.tail)
        return any(e.get("kind") == "reveal" for e in self.journal)

    def describe(self, event: Event, state: State | None = None) -> str:
        """``event`` in words (:func:`describe_event`); ``state``: the viewer's view, given to
        a game's ``describe`` that takes it (companion.contract.exit decides)."""
        return describe_event(self.game, event, state)

    def fold(self) -> tuple[list[dict], list[dict]]:
        """(effective entries in order, entries redo would bring back, next first)."""
        kinds = [entry.get("kind") for entry in self.journal]
        if "undo" not in kinds and "redo" not in kinds:  # most sessions: one pass at C speed
            return [entry for entry, kind in zip(self.journal, kinds) if kind == "do"], []
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

    def replay(self, upto: int | None = None, *, again: bool = False) -> Replay:
        """The state after the effective events (the first ``upto`` of them if given).

        The whole replay is made once per Session and kept: a command, its checks and the
        shell's toolbar all ask for it, and the rules run once. ``again`` makes it anew (a
        refused action changed the kept one's working state in place)."""
        if upto is None and not again and self._replayed is not None:
            return self._replayed
        made = self._replay(upto)
        if upto is None:
            self._replayed = made
        return made

    def forget_replay(self) -> None:
        """Drop the kept replay (an action refused half-way changed its state)."""
        self._replayed = None

    def keep_replay(self, replay: Replay) -> None:
        """The replay after an action recorded on this Session (its state changed in place)."""
        self._replayed = replay

    def _replay(self, upto: int | None) -> Replay:
        game = self.game
        data = dict(self.meta.get("data") or {})
        lazy = self._journal if isinstance(self._journal, Later) and upto is None else None
        start = self._lazy_start(lazy) if lazy is not None else None
        if start is not None:  # the snapshot stands for the entries not parsed
            state, ctx, finished_at, frozen = start
            snap = self.snapshot
            head = self._journal
            done = Later(int(snap["done"]), lambda: Session(self.meta, head.load()).fold()[0],
                         [e for e in head.tail if e.get("kind") == "do"])
            todo, skip, undone = done.tail, int(snap["done"]), []
            data = with_pairs(data, frozen)
        else:
            done, undone = self.fold()
            if upto is not None:
                done = done[:upto]
            begun = self._snapshot_start(done)
            frozen = []
            if begun is not None:
                skip, state, ctx, finished_at = begun
                for entry in done[:skip]:
                    if entry["event"].get("_data"):
                        frozen += entry["event"]["_data"].items()
                data = with_pairs(data, frozen)
            else:
                # One working state, changed in place by each event (Game.advance): linear in
                # the number of events. It is copied once from the start, and each event is
                # copied as it is handed over, so the state shares nothing with the printed
                # values or the journal.
                skip, state, finished_at = 0, json_copy(game.initial(self.setup, data)), None
                ctx = new_context()
            todo = done[skip:]
        frozen = [list(pair) for pair in frozen]
        seats = self.players
        for n, entry in enumerate(todo, skip + 1):
            event = entry["event"]
            if event.get("_data"):
                frozen += [[k, v] for k, v in event["_data"].items()]
                data = with_frozen(data, event)
            try:
                if game.deals:
                    check_deal_contexts(self, event)
                state = apply_event(game, seats, state, ctx, json_copy(event), data)
            except CompanionError as exc:
                raise StoreError(_(
                    "Session {id} cannot be replayed: event {n} ({type}) is refused by this version's rules "
                    "({reason}). Its file was not changed.").format(id=self.id, n=n, type=event.get("type"),
                                                                    reason=exc)) from None
            if not context_finished(ctx):
                finished_at = None
            elif finished_at is None:
                finished_at = entry.get("at")
        return Replay(state, data, done, undone, finished_at, len(todo), frozen, ctx)

    def _lazy_start(self, lazy: Later) -> tuple[State, dict, str | None, list] | None:
        """(state, context, finished_at, frozen values) from the snapshot whose entries were
        left unparsed (see :func:`load`), when only new actions (or a reveal) followed them."""
        snap = self.snapshot
        if any(e.get("kind") not in ("do", "reveal") for e in lazy.tail):
            return None
        try:
            state, ctx = self._take_state(snap)
            return state, ctx, snap.get("finished_at"), snap["frozen"]
        except (KeyError, TypeError, ValueError):
            return None

    def _snapshot_start(self, done: list[dict]) -> tuple[int, State, dict, str | None] | None:
        """(events covered, state, context, finished_at) from the session's snapshot, when it is still
        true of this journal: same companion and rules, the file's text up to the snapshot
        unchanged (its SHA-256), and only new actions since (no undo or redo)."""
        snap, text = self.snapshot, self.text
        if not snap or text is None:
            return None
        try:
            length, covered, prefix = int(snap["journal_length"]), int(snap["done"]), int(snap["prefix_chars"])
            if (not snapshot_fits(snap, self.meta["game"]) or not 0 < covered <= len(done)
                    or not 0 < length <= len(self.journal) or not 0 < prefix <= len(text)
                    or any(e.get("kind") not in ("do", "reveal") for e in self.journal[length:])
                    or sha256(text[:prefix]) != snap["prefix_sha256"]):
                return None
            state, ctx = self._take_state(snap)
            return covered, state, ctx, snap.get("finished_at")
        except (KeyError, TypeError, ValueError, AttributeError):
            return None

    def _take_state(self, snap: dict) -> tuple[State, dict]:
        """The snapshot's state and context as a replay's working ones.

        The snapshot was parsed from its file for this Session alone: the first replay takes
        its state as it is, without copying a state as long as the session, and changes it in
        place. A second replay of the same Session must not start from that changed state: it
        parses the snapshot's text again."""
        if not snap.get("_taken"):
            snap["_taken"] = True
            found = snap
        elif "_text" in snap:
            found = loads(snap["_text"])
        else:
            raise ValueError("a snapshot without its text was taken twice")  # the callers replay from the start
        ctx = found["ctx"]
        if not isinstance(ctx, dict) or not isinstance(found["state"], dict):
            raise ValueError("a snapshot's state is not a state")
        if found.get("apart") and self.store is None:
            raise ValueError("a snapshot's parts are read from its store")
        return snapshot_parts.made(found["state"], found.get("apart"), self._read_part), dict(ctx)

    def _read_part(self, key: str, spec: dict) -> list:
        """The items a snapshot's part holds (companion.core.snapshot_parts), or, when its file
        is gone or damaged, the same list from a replay of the events from the first: the
        snapshot is dropped (the next action writes one again) and the state stays true."""
        store = self.store
        with contextlib.suppress(OSError, ValueError, KeyError, TypeError, RecursionError):
            return store.read_snapshot_part(self.id, spec)
        store.drop_snapshot(self.id)
        whole = Session(self.meta, list(self.journal)).replay().state.get(key)
        count = int(spec["count"])
        if not isinstance(whole, list) or len(whole) < count:
            raise StoreError(_("A session's journal changed while it was read: try again."))
        return whole[:count]

    def _kept_state(self, state: State, store, appending: bool = True) -> tuple[dict, dict] | None:
        """(the state as a snapshot keeps it, its parts) when it comes back identical from
        JSON, its long lists written apart in ``store`` (companion.core.snapshot_parts).
        ``appending``: a part may grow in place, which only the holder of the session's write
        lock may do (a read without it writes its parts as new files)."""
        import json  # (json only where JSON is written: a `status` reads it by companion.core.json_read)

        parts: dict = {}
        if store is not None:
            sid = self.id
            grow = ((lambda spec, text: store.append_snapshot_part(sid, spec, text)) if appending
                    else (lambda spec, text: None))
            state, parts = snapshot_parts.split(state, lambda text: store.write_snapshot_part(sid, text), grow)
        body = json.dumps(state, ensure_ascii=False, separators=(",", ":"))
        if json.loads(body) != state:  # a tuple or a number key: no snapshot, replay instead
            return None
        return json.loads(body), parts

    def snapshot_of(self, replay: Replay, last_number: int | None, store=None, appending: bool = True) -> dict | None:
        """A snapshot of ``replay`` (the whole journal replayed) for the file text it came from,
        whose last journal entry is number ``last_number``, or None when the state would not
        come back identical from JSON (or the text is not one a snapshot can stand for)."""
        import json

        text = self.text
        if text is None or last_number is None or not text.endswith("}}}") or replay.undone:
            return None
        kept = self._kept_state(replay.state, store, appending)
        if kept is None:
            return None
        prefix = len(text) - 2  # all but the closing of the journal and of the file
        return {
            "format": SNAPSHOT_FORMAT,
            "game": self.meta["game"],
            "rules": rules_version(self.game),
            "journal_length": self.length,
            "last_number": last_number,
            "done": replay.count,
            "prefix_chars": prefix,
            "prefix_sha256": sha256(text[:prefix]),
            "finished_at": replay.finished_at,
            "revealed": self.revealed,
            "frozen": replay.frozen,
            "ctx": json.loads(json.dumps(replay.ctx)),
            "state": kept[0],
            "apart": kept[1],
        }

    def journaled_snapshot_of(self, replay: Replay, basis: dict, store=None, appending: bool = True) -> dict | None:
        """A snapshot of ``replay`` (the whole merged line replayed) for a session kept in its
        devices' journals (issue 30): what it stands for is ``basis`` (Store.journal_basis)."""
        import json

        if replay.undone or self.fork is not None or basis.get("line_length") != self.length:
            return None
        kept = self._kept_state(replay.state, store, appending)
        if kept is None:
            return None
        return {
            "format": SNAPSHOT_FORMAT,
            "game": self.meta["game"],
            "rules": rules_version(self.game),
            "journals": basis,
            "journal_length": self.length,
            "done": replay.count,
            "finished_at": replay.finished_at,
            "revealed": self.revealed,
            "frozen": replay.frozen,
            "ctx": json.loads(json.dumps(replay.ctx)),
            "state": kept[0],
            "apart": kept[1],
        }

    def status(self, replay: Replay | None = None, state: State | None = None) -> dict:
        """The ``status --json`` object: the session's keys and the game's summary of ``state``
        (a viewer's view of the replay's state: companion.contract.exit; else the whole state,
        for the index's record of a finished game)."""
        r = replay or self.replay()
        out = {"session": self.id, "game": self.meta["game"], "title": self.title}
        out.update(self.game.summary(r.state if state is None else state))
        out["finished"] = r.finished  # the framework's, from the game's result
        out["winners"] = r.winners
        played = r.played
        if played:  # logged from its final scores (`played`): the scores are the result
            scores = played["scores"]
            out["players"] = [{"name": p, "score": scores.get(p)} for p in (list(scores) or self.players)]
            if played.get("ranks"):
                for p in out["players"]:
                    p["rank"] = played["ranks"].get(p["name"])
            out["played"] = True
            out["round"] = None  # the rounds were not typed in
            for key in ("teams", "team_scores", "coop", "won", "minutes", "tie_break"):
                if key in played:
                    out[key] = played[key]
        abandoned = r.abandoned
        out["abandoned"] = bool(abandoned)
        if abandoned:
            out["abandon_reason"] = abandoned.get("reason") or ""
        out["created"] = self.meta.get("created")
        for key in ("played_on", "location", "roles", "bgg_id"):
            if self.meta.get(key):
                out[key] = self.meta[key]
        out["finished_at"] = r.finished_at if out.get("finished") else None
        if self.meta.get("commitment"):
            out["commitment"] = self.meta["commitment"]
            out["seed_revealed"] = self.revealed
        if self.fork is not None:  # issue 30: two laptops continued it from one point
            from companion.core.journals import summary

            out["fork"] = summary(self.fork)
        return out


def check_deal_contexts(session: Session, event: Event) -> None:
    """Refuse a deal whose context is not the one its session, round and deck give."""
    for deal, expected in session.game.deal_contexts(session.id, event):
        if deal.get("context") != expected:
            raise RuleError(
                _("A deal in this action carries the context {context}, but its session, round and deck give "
                  "{expected}: the deal was not made by this session.").format(
                    context=repr(str(deal.get("context"))[:80]), expected=repr(expected))
                if expected else
                _("A deal in this action ({context}) is not one {game} makes.").format(
                    context=repr(str(deal.get("context"))[:80]), game=session.game.title)
            )



def with_frozen(data: dict, event: Event) -> dict:
    """The printed values after the ones an event froze when it was recorded."""
    return with_pairs(data, list((event.get("_data") or {}).items()))


def with_pairs(data: dict, pairs: list) -> dict:
    """The printed values after setting each (key, value) of ``pairs``, in order (a copy)."""
    if not pairs:
        return data
    from companion.core.datapack import set_path

    data = json_copy(data)  # (printed values are JSON: a plain copy, without importing copy)
    for key, value in pairs:
        set_path(data, key, value)
    return data


# -- operations on the store ---------------------------------------------------------------


# Replay snapshots (issue 12): after at least this many events were replayed by the rules, a
# write keeps the state beside the journal (DATA/cache/replay/ID.json), with the SHA-256 of the
# session file's text it stands for. Replay starts from it while that text is unchanged.
SNAPSHOT_EVERY = 200
# 2: the entries it covers need not be parsed (last_number, revealed, frozen); 3: ctx; 4: the
# SHA-256 of its own contents (issue 22: store.read_snapshot refuses one that does not match)
# 5 (issue 30): its long lists kept apart ("apart": companion.core.snapshot_parts) and each
# journal's two ends' CRC-32 beside the whole's; a snapshot of format 4 is still read
SNAPSHOT_FORMAT = 5
SNAPSHOT_FORMATS_READ = (4, 5)


def snapshot_fits(snap: dict, game_id: str) -> bool:
    """Whether a snapshot was taken by this companion, of this game, under these rules."""
    return (snap.get("format") in SNAPSHOT_FORMATS_READ and snap.get("game") == game_id
            and snap.get("rules") == rules_version(games.get(game_id)) and isinstance(snap.get("state"), dict))


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
    """Session ``sid`` as its file holds it.

    With a replay snapshot that still stands for the start of the file (same text, checked by
    its SHA-256), the entries it covers are not even parsed unless something asks for them:
    recording one action costs about the same at 10,000 events as at 10 (issue 12).

    A session with its devices' journals (issue 30) is their merge (companion.core.journals):
    its journal is the merged line, and ``fork`` says where that line stops, if it does."""
    if store.journal_paths(sid):
        snapshot = store.read_snapshot(sid)
        basis = snapshot.get("journals") if snapshot is not None else None
        if isinstance(basis, dict) and isinstance(snapshot.get("frozen"), list):
            with contextlib.suppress(KeyError, TypeError, ValueError, CompanionError):
                if snapshot_fits(snapshot, str(snapshot.get("game"))):
                    found = store.read_merged_after(sid, basis)
                    if found is not None and found[0]["game"] == snapshot["game"]:
                        meta, tail, line = found
                        session = Session(meta, Later(int(basis["line_length"]), line, tail), None, snapshot,
                                          store.held_signature(sid))
                        session.store = store
                        return session
        meta, merged = store.read_merged(sid)
        session = Session(meta, list(merged.line), None, None, store.held_signature(sid))
        session.fork, session.names, session.store = merged.fork, dict(merged.names), store
        return session
    snapshot = store.read_snapshot(sid)
    if snapshot is not None:
        with contextlib.suppress(KeyError, TypeError, ValueError, CompanionError):
            if snapshot_fits(snapshot, str(snapshot.get("game"))) and isinstance(snapshot.get("frozen"), list):
                found = store.read_session_after(sid, int(snapshot["prefix_chars"]), str(snapshot["prefix_sha256"]),
                                                 int(snapshot["last_number"]))
                if found is not None and found[0]["game"] == snapshot["game"]:
                    meta, tail, head = found
                    session = Session(meta, Later(int(snapshot["journal_length"]), head, tail),
                                      store.session_text(sid), snapshot, store.held_signature(sid))
                    session.store = store
                    return session
    meta, journal = store.read_session(sid)
    session = Session(meta, journal, store.session_text(sid), snapshot, store.held_signature(sid))
    session.store = store
    return session
