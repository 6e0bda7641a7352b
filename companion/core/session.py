"""A session: a game, its options and players, the printed values it froze, and an event log.

The state is never stored: it is the replay of the log through the game's pure rules. The
journal on disk is append-only (``do``, ``undo``, ``redo`` and ``reveal`` entries), so nothing
recorded is ever lost; the *effective* event list is the fold of that journal, which is what
undo and redo move along. A new action after an undo drops the undone events from the effective
list (they stay in the journal).
"""

from __future__ import annotations

import contextlib
import json
import string
from datetime import date, datetime, timedelta
from typing import Any, Callable

from companion.core import registry as games
from companion.contract.errors import CompanionError, MissingValue, RuleError, StoreError
# One bound for every number on every way in (LARGEST stays importable from here).
from companion.contract.numbers import LARGEST, check_numbers  # noqa: F401
from companion.contract.text import has_unsafe_chars, name_key, normal_name, safe_text
from companion.contract.api import Event, Setup, State, json_copy
from companion.core.store import Store, index_entry, now, sha256

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
    from companion.contract.api import player_name

    first = player_name(names, start)
    i = names.index(first)
    return names[i:] + names[:i]


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
            raise StoreError("A session's journal changed while it was read: try again.")
        return head + self.tail


# -- the framework's own facts of a session ------------------------------------------------------
#
# Whether a game is over and who won, whether it was abandoned or logged from its final scores
# (`played`), and its notes, are the session's, not the game's: they live in a context beside
# the game's state (boardgame.io's ctx beside G), so a game reports its result once
# (Game.result) and its state never has to avoid a framework key.

GENERIC_EVENTS = ("note", "abandon", "played")
NOTE_MAX = 500


def new_context() -> dict:
    """The context before anything happened: ``result`` is the game's own (``{"winners"}`` once it
    is over), ``abandoned`` ``{"reason"}``, ``played`` ``{"scores", "winners"}``."""
    return {"result": None, "abandoned": None, "played": None, "notes": 0}


def context_finished(ctx: dict) -> bool:
    return ctx.get("result") is not None or ctx.get("played") is not None


def apply_event(game, seats: list[str] | tuple[str, ...], state: State, ctx: dict, event: Event, data: dict) -> State:
    """One event folded into ``state`` and ``ctx`` in place: a note, an abandon or a played game
    by the framework, anything else by the game's rules. The one step every replay, every
    recorded action and every page uses. Refusals raise RuleError (the caller throws the
    working state away)."""
    etype = event.get("type")
    if etype in GENERIC_EVENTS:
        _apply_generic(seats, ctx, event)
        return state
    if ctx.get("abandoned"):
        raise RuleError("This game was abandoned: `undo` takes that back, or start another with `new`.")
    if context_finished(ctx):
        raise RuleError("The game is over: only `undo` can change it now.")
    state = game.advance(state, event, data)
    result = game.result(state)
    ctx["result"] = None if result is None else {"winners": [w for w in (result.get("winners") or [])]}
    return state


def _apply_generic(seats, ctx: dict, event: Event) -> None:
    etype = event["type"]
    if etype == "note":
        text = event.get("text")
        if not isinstance(text, str) or not text.strip():
            raise RuleError("A note needs some words: note \"Bob had to leave early\"")
        if len(text) > NOTE_MAX:
            raise RuleError(f"A note is one line of at most {NOTE_MAX} characters: this one has {len(text)}.")
        if not text.isprintable():
            at = next(i for i, c in enumerate(text) if not c.isprintable())
            what = {"\x1b": "an escape (ESC)", "\n": "a line break", "\r": "a line break", "\t": "a tab"}.get(
                text[at], f"the control character U+{ord(text[at]):04X}")
            raise RuleError(f"A note is one line of plain text: character {at + 1} is {what}. "
                            "Type it again without it.")
        ctx["notes"] = ctx.get("notes", 0) + 1  # the journal keeps the words
        return
    if ctx.get("abandoned"):
        raise RuleError("This game was abandoned already: `undo` takes that back.")
    if context_finished(ctx):
        raise RuleError("The game is over: there is nothing to abandon or to log here.")
    reason = event.get("reason")
    if etype == "abandon":
        if reason is not None and (not isinstance(reason, str) or len(reason) > NOTE_MAX or not reason.isprintable()):
            raise RuleError(f"The reason is one line of at most {NOTE_MAX} characters.")
        ctx["abandoned"] = {"reason": reason or ""}
        return
    # played: the final result of a game played away from the companion
    ctx["played"] = check_played(seats, event)


PLAYED_KEYS = ("scores", "winners", "ranks", "teams", "team_scores", "coop", "won", "minutes", "tie_break")
TIE_BREAK_MAX = 100


def is_points(value: Any) -> bool:
    """A score as people write it: a whole or a decimal number, negative too (never a bool,
    NaN or an infinity)."""
    return (isinstance(value, int) and not isinstance(value, bool)) or (
        isinstance(value, float) and value == value and abs(value) != float("inf"))


def check_played(seats, event: Event) -> dict:
    """The result a `played` event logs, checked: the context's ``played``.

    The event of release 0.1 holds ``scores`` (whole numbers, every seat) and ``winners``,
    and still means exactly that. Since issue 23 it may also hold decimal and negative
    scores, ``ranks`` (a rank-only play, or the order beyond the winners), ``teams`` (lists of
    names, each seat in one; a team shares its result) with ``team_scores``, ``coop`` with
    ``won`` (everyone wins or loses together), ``minutes`` (its length) and ``tie_break``
    (what settled a tie for first)."""
    seats = list(seats)
    names = seats or list(event.get("scores") or event.get("ranks") or ())
    scores = event.get("scores")
    ranks = event.get("ranks")
    winners = event.get("winners")
    out: dict = {}
    if scores is not None:
        if not isinstance(scores, dict) or not all(is_points(v) for v in scores.values()):
            raise RuleError("A played game needs every player's final score as a number: --players Ann=52,Bob=47.5")
        if seats and list(scores) != seats:
            raise RuleError(f"A played game needs the final score of each player: {', '.join(seats)}.")
    if ranks is not None:
        if (not isinstance(ranks, dict) or (seats and list(ranks) != seats)
                or not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= len(names)
                           for v in ranks.values())):
            raise RuleError(f"A rank-only play needs each player's place, 1 to {len(names)}: --ranks Ann=1,Bob=2")
        if 1 not in ranks.values():
            raise RuleError("Someone has to finish first: give rank 1 to the winners, e.g. --ranks Ann=1,Bob=2")
    coop = event.get("coop")
    if coop is not None and not isinstance(coop, bool):
        raise RuleError("A co-operative play says whether the players won together: --won or --lost.")
    if not isinstance(winners, list) or any(w not in names for w in winners) or len(set(winners)) != len(winners):
        raise RuleError("A played game needs its winners among its players.")
    if coop:
        won = event.get("won")
        if not isinstance(won, bool):
            raise RuleError("A co-operative play needs its result: --won or --lost.")
        if winners != (names if won else []):
            raise RuleError("In a co-operative play everyone wins or loses together.")
        out.update(coop=True, won=won)
    elif not winners:
        raise RuleError("A played game needs its winners among its players.")
    teams = event.get("teams")
    if teams is not None:
        if (not isinstance(teams, list) or len(teams) < 2 and not coop
                or not all(isinstance(t, list) and t and all(isinstance(p, str) for p in t) for t in teams)
                or sorted(p for t in teams for p in t) != sorted(names)):
            raise RuleError("Teams name every player once, in two teams or more: --teams \"Ann+Bob,Cy+Dee\"")
        for team in teams:  # a team shares its result: all its members win, or none
            if len({p in winners for p in team}) > 1:
                raise RuleError(f"{' and '.join(team)} are one team: they win or lose together.")
            if ranks is not None and len({ranks[p] for p in team}) > 1:
                raise RuleError(f"{' and '.join(team)} are one team: they share one rank.")
        team_scores = event.get("team_scores")
        if team_scores is not None:
            if not isinstance(team_scores, list) or len(team_scores) != len(teams) \
                    or not all(is_points(v) or v is None for v in team_scores):
                raise RuleError("A team's score is a number: --teams \"Ann+Bob=52,Cy+Dee=47\"")
            out["team_scores"] = list(team_scores)
        out["teams"] = [list(t) for t in teams]
    minutes = event.get("minutes")
    if minutes is not None:
        if not isinstance(minutes, int) or isinstance(minutes, bool) or not 0 <= minutes <= 100_000:
            raise RuleError("A play's length is whole minutes: --length 45m or --length 1h30m")
        out["minutes"] = minutes
    tie = event.get("tie_break")
    if tie is not None:
        if not isinstance(tie, str) or not tie.strip() or len(tie) > TIE_BREAK_MAX or not tie.isprintable():
            raise RuleError(f"The tie-breaker is one line of at most {TIE_BREAK_MAX} characters.")
        out["tie_break"] = tie
    played = {"scores": dict(scores) if scores is not None else {}, "winners": list(winners)}
    if ranks is not None:
        played["ranks"] = dict(ranks)
    played.update(out)
    return played


def describe_event(game, event: Event, state: State | None = None) -> str:
    """An event in words, for `log`, the shell's "Meanwhile" line and the reports: the
    framework's own events in its words, every other by the game's rules (given ``state``, a
    viewer's view, when the game's ``describe`` takes it: companion.contract.exit)."""
    etype = event.get("type")
    if etype == "note":
        return f"Note: {event.get('text', '')}"
    if etype == "abandon":
        reason = event.get("reason")
        return "Abandoned" + (f": {reason}" if reason else " (no result)")
    if etype == "played":
        scores = event.get("scores") or {}
        ranks = event.get("ranks") or {}
        won = event.get("winners") or []
        teams = event.get("teams") or []
        if scores:
            parts = [f"{p} {v}" for p, v in scores.items()]
        elif ranks:
            parts = [f"{p} #{r}" for p, r in ranks.items()]
        else:
            parts = [str(p) for p in won or []]
        words = "Played: " + ", ".join(parts)
        if teams:
            words += "; teams " + ", ".join("+".join(t) for t in teams)
        if event.get("coop"):
            return words + ("; won together" if event.get("won") else "; lost together")
        if won and (scores or ranks):
            words += f"; won by {', '.join(won)}"
        elif won:
            words = f"Played: won by {', '.join(won)}"
        if event.get("tie_break"):
            words += f" (tie settled by {event['tie_break']})"
        return words
    return game.describe(event) if state is None else game.describe(event, state)


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
                raise StoreError(
                    f"Session {self.id} cannot be replayed: event {n} ({event.get('type')}) is refused "
                    f"by this version's rules ({exc}). Its file was not changed."
                ) from None
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

    @staticmethod
    def _take_state(snap: dict) -> tuple[State, dict]:
        """The snapshot's state and context as a replay's working ones.

        The snapshot was parsed from its file for this Session alone: the first replay takes
        its state as it is, without copying a state as long as the session, and changes it in
        place. A second replay of the same Session must not start from that changed state: it
        parses the snapshot's text again."""
        if not snap.get("_taken"):
            snap["_taken"] = True
            found = snap
        elif "_text" in snap:
            found = json.loads(snap["_text"])
        else:
            raise ValueError("a snapshot without its text was taken twice")  # the callers replay from the start
        ctx = found["ctx"]
        if not isinstance(ctx, dict) or not isinstance(found["state"], dict):
            raise ValueError("a snapshot's state is not a state")
        return found["state"], dict(ctx)

    def snapshot_of(self, replay: Replay, last_number: int | None) -> dict | None:
        """A snapshot of ``replay`` (the whole journal replayed) for the file text it came from,
        whose last journal entry is number ``last_number``, or None when the state would not
        come back identical from JSON (or the text is not one a snapshot can stand for)."""
        text = self.text
        if text is None or last_number is None or not text.endswith("}}}") or replay.undone:
            return None
        body = json.dumps(replay.state, ensure_ascii=False, separators=(",", ":"))
        if json.loads(body) != replay.state:  # a tuple or a number key: no snapshot, replay instead
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
            "state": json.loads(body),
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
    return with_pairs(data, list((event.get("_data") or {}).items()))


def with_pairs(data: dict, pairs: list) -> dict:
    """The printed values after setting each (key, value) of ``pairs``, in order (a copy)."""
    if not pairs:
        return data
    from companion.core.datapack import set_path

    import copy

    data = copy.deepcopy(data)
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
SNAPSHOT_FORMAT = 4


def snapshot_fits(snap: dict, game_id: str) -> bool:
    """Whether a snapshot was taken by this companion, of this game, under these rules."""
    return (snap.get("format") == SNAPSHOT_FORMAT and snap.get("game") == game_id
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
    recording one action costs about the same at 10,000 events as at 10 (issue 12)."""
    snapshot = store.read_snapshot(sid)
    if snapshot is not None:
        with contextlib.suppress(KeyError, TypeError, ValueError, CompanionError):
            if snapshot_fits(snapshot, str(snapshot.get("game"))) and isinstance(snapshot.get("frozen"), list):
                found = store.read_session_after(sid, int(snapshot["prefix_chars"]), str(snapshot["prefix_sha256"]),
                                                 int(snapshot["last_number"]))
                if found is not None and found[0]["game"] == snapshot["game"]:
                    meta, tail, head = found
                    return Session(meta, Later(int(snapshot["journal_length"]), head, tail),
                                   store.session_text(sid), snapshot, store.held_signature(sid))
    meta, journal = store.read_session(sid)
    return Session(meta, journal, store.session_text(sid), snapshot, store.held_signature(sid))


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
    sid = new_id(set(store.session_ids()))
    with store.writing_session(sid), store.writing():  # the order of every write (companion.core.store)
        data = datapack.merged(game_id, store.user_values(game_id)) if datapack.has_pack(game_id) else {}
        meta: dict[str, Any] = {
            "id": sid,
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
        store.create_session(meta, session.journal, index_summary(session, replay) if events else None)
        if make_current:
            try:
                store.set_current(meta["id"])
            except StoreError as exc:
                reason = exc.message.split(": ", 1)[-1].split(". Nothing was changed")[0]
                store.notes.append(f"Session {meta['id']} was created and saved, but could not be made the current "
                                   f"one ({reason}): type `use {meta['id']}` once the disk has room.")
    return session


MakeEvent = Callable[[Session, Replay], Event]


class Recorded:
    """What :func:`record` did: the session and its replay after the action, the event as
    recorded, and what ``before`` kept of the state just before it."""

    __slots__ = ("session", "replay", "event", "before")

    def __init__(self, session: Session, replay: Replay, event: Event, before: Any):
        self.session, self.replay, self.event, self.before = session, replay, event, before

    def __iter__(self):  # session, replay, event = record(...)
        return iter((self.session, self.replay, self.event))


def fresh(store: Store, sid: str, held: "Session | tuple[Session, Any] | None" = None) -> tuple[Session, Replay]:
    """Session ``sid`` and its replay as the file holds them now: ``held`` itself when the file
    is the one it was read from (the same inode, size and time: every write replaces it), held
    followed by the actions appended since when only those were added (as a page or the
    shell sees another terminal's rail), else a new read and replay. So a command, the shell's
    toolbar and the pages read a session once and replay it once, whoever asks."""
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
    return current, current.replay()


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
                    f"The deal seed of session {session.id} was shown (`verify`), so anyone may know the cards "
                    "it deals: no new deal comes from it. Deal at the table with `round start --physical`."
                )
        data = with_frozen(replay.data, event)  # as replay will read it: the values it froze count
        was = ended(replay)
        kept = before(replay.state) if before is not None else None
        for _ in range(20):
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
        else:  # pragma: no cover - a game asking for ever more values
            raise RuleError("Too many printed values are missing for this action.")
        entry = {"kind": "do", "event": event, "at": now()}
        store.append(sid, entry)
        session.add(entry)
        session.text, session.signature = store.session_text(sid), store.held_signature(sid)
        after = replay.then(entry, state, data)
        session.keep_replay(after)
        if after.fresh >= SNAPSHOT_EVERY:
            snap = session.snapshot_of(after, store.last_number(sid))
            if snap is not None:
                store.write_snapshot(sid, snap)
                after.fresh = 0  # the snapshot stands for these now: the next one after as many again
        _sync_index(store, session, was, after)
    return Recorded(session, after, event, kept)


def _deals(event: Event) -> bool:
    """Whether ``event`` carries a deal (dealing is imported only for games that deal)."""
    from companion.core import dealing

    return any(True for _ in dealing.deals_in(event))


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
        if kind == "undo" and not before.count:
            raise CompanionError("Nothing to undo: the session is at its start.")
        if kind == "redo" and not before.undone:
            raise CompanionError("Nothing to redo: no undone event is waiting.")
        moved = before.events[-1] if kind == "undo" else before.undone[0]
        was = ended(before)
        entry = {"kind": kind, "at": now()}
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


def index(store: Store) -> list[dict]:
    """Every session's index entry, oldest first: the index as a cache of the session files
    that heals itself (issue 12).

    Checked cheaply at every read: a session file the index does not list (a crash between
    the two writes), an entry whose file is gone, and every session file changed since the
    index was last written (a `finish` whose index update a kill or a full disk stopped) are
    re-derived from the files. Differences are written back under the lock when the folder
    can be written; the answer is right either way. A file that cannot be read is skipped,
    with one note naming it.

    Every write of a session file replaces it (a rename in ``sessions/``), so the folder's own
    time changes with each one. A check that found everything in step keeps that time and the
    index's signature in ``cache/index-checked.json``; while both are unchanged, nothing was
    written since and the files are not looked at again (issue 23: at 50,000 sessions the
    look took 0.2-0.3 s of every `sessions`, `stats` and `players`).
    """
    entries = store.index()
    stamp = _index_stamp(store)
    if stamp is not None and stamp == _read_index_stamp(store):
        return entries
    return _checked_index(store, entries, stamp)


INDEX_STAMP_VERSION = 1
QUIET_NS = 2_000_000_000  # a folder changed in the last two seconds may change again within its clock's tick


def _index_stamp(store: Store) -> list | None:
    """[version, the sessions folder's (inode, time), the index's signature], or None."""
    import os

    from companion.core.store import file_signature

    try:
        st = os.stat(store.sessions_dir)
    except OSError:
        return None
    sig = file_signature(store.index_path)
    return [INDEX_STAMP_VERSION, [st.st_ino, st.st_mtime_ns], list(sig) if sig else None]


def _read_index_stamp(store: Store) -> list | None:
    try:
        path = store.root / "cache" / "index-checked.json"
        if path.is_symlink():
            return None
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _write_index_stamp(store: Store, stamp: list | None) -> None:
    """Keep the stamp of a check that found the index and the files in step (best effort: it is
    a cache), unless the folder changed so recently that a write may share its clock tick."""
    import time

    if stamp is None or stamp[2] is None or time.time_ns() - stamp[1][1] < QUIET_NS:
        return
    from companion.core.store import atomic_write_text

    with contextlib.suppress(CompanionError, OSError):
        atomic_write_text(store.root / "cache" / "index-checked.json", json.dumps(stamp))


def _checked_index(store: Store, entries: list[dict], stamp: list | None) -> list[dict]:
    """:func:`index`'s look at every session file (one listing of the folder, one ``lstat``
    each, a ``stat`` more for a link)."""
    import os

    from companion.core.store import ID_PATTERN, file_signature

    listed = {e["id"]: e for e in entries}
    index_sig = file_signature(store.index_path)
    index_time = index_sig[2] if index_sig else -1
    files: list[str] = []
    suspects: list[str] = []
    try:
        with os.scandir(store.sessions_dir) as found:
            for item in found:
                name = item.name
                if not name.endswith(".json") or not ID_PATTERN.fullmatch(name[:-5]):
                    continue
                sid = name[:-5]
                files.append(sid)
                if sid not in listed:
                    suspects.append(sid)
                    continue
                try:
                    link_time = item.stat(follow_symlinks=False).st_mtime_ns  # a link put in place is new too
                    if item.is_symlink():
                        link_time = max(link_time, item.stat().st_mtime_ns)
                except OSError:
                    link_time = index_time  # cannot be looked at: the read says why
                if link_time >= index_time:
                    suspects.append(sid)
    except (FileNotFoundError, NotADirectoryError):
        files = []
    files.sort()
    suspects.sort()
    from companion.core.plugins import skipping

    fixed: dict[str, dict] = {}
    skipped = False
    for sid in suspects:
        try:  # a plugin's rules that raise skip their session alone, named (issue 22)
            ok, entry = skipping(store, sid, lambda: _entry_of(load(store, sid)))
        except CompanionError as exc:  # listed or not, say which file was skipped (one line)
            store.notes.append(f"Skipped: {exc.message}")
            skipped = True
            continue
        if not ok:
            skipped = True  # looked at again next time (the plugin may be mended)
            continue
        if listed.get(sid) != entry:
            fixed[sid] = entry
    present = set(files)
    gone = [sid for sid in listed if sid not in present]
    if not fixed and not gone:
        if not skipped and not [sid for sid in suspects if sid not in listed]:
            _write_index_stamp(store, stamp)
        return entries

    with contextlib.suppress(CompanionError):  # a read-only folder: the answer is still right
        with store.writing():
            for entry in fixed.values():
                store.index_put(entry)
            if gone:
                store.index_remove(gone)
    out = [fixed.pop(e["id"], e) for e in entries if e["id"] not in gone]
    out += sorted(fixed.values(), key=lambda e: (str(e.get("created")), e["id"]))
    return out


def _entry_of(s: Session) -> dict:
    return index_entry(s.meta, index_summary(s, s.replay()))


def heal_index(store: Store) -> None:
    """Bring the index in step with the session files (see :func:`index`)."""
    index(store)


def rebuild_index(store: Store) -> int:
    """Rebuild the index from the session files (caller holds the lock)."""
    from companion.core.store import open_db

    db = open_db(store.index_path, "index")
    entries = []
    from companion.core.plugins import skipping

    for sid in store.session_ids():
        with contextlib.suppress(CompanionError):
            ok, entry = skipping(store, sid, lambda: _entry_of(load(store, sid)))
            if ok:
                entries.append(entry)
    db.drop_table("sessions")
    db.table("sessions").insert_multiple(entries)
    return len(entries)


def index_summary(session: Session, replay: Replay) -> dict | None:
    """The index's summary of a session: None until it is finished or abandoned (record,
    step, import). An abandoned game has no result: its summary says when and why only."""
    abandoned = replay.abandoned
    if abandoned:
        at = next((e.get("at") for e in reversed(replay.events) if e["event"].get("type") == "abandon"), None)
        return {"abandoned_at": at, "reason": abandoned.get("reason") or ""}
    if not replay.finished:
        return None
    status = session.status(replay)
    out = {
        "finished_at": replay.finished_at,
        "round": status.get("round"),
        "scores": {p["name"]: p.get("score") for p in status.get("players", [])},
        "winners": status.get("winners", []),
        **({"played": True} if status.get("played") else {}),
    }
    # issue 23: what the history needs of teams, co-op plays, ranks and the play's length
    ranks = {p["name"]: p["rank"] for p in status.get("players", []) if isinstance(p.get("rank"), int)}
    if ranks:
        out["ranks"] = ranks
    for key in SUMMARY_KEYS:
        if status.get(key) is not None:
            out[key] = status[key]
    if "minutes" not in out and not status.get("played"):
        first = next((e.get("at") for e in replay.events), None)
        minutes = minutes_between(first, replay.finished_at)
        if minutes is not None:
            out["minutes"] = minutes
    return out


# status keys the index keeps of a finished session (beside its scores and winners)
SUMMARY_KEYS = ("teams", "team_scores", "coop", "won", "minutes", "tie_break", "no_points")


def minutes_between(start: str | None, end: str | None) -> int | None:
    """Whole minutes from ``start`` to ``end`` (stored times), or None when either is unknown:
    a live game's length runs from its first action to its last (issue 23)."""
    if not start or not end:
        return None
    try:
        seconds = (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()
    except (TypeError, ValueError):
        return None
    return round(seconds / 60) if seconds >= 0 else None


def ended(replay: Replay) -> tuple[bool, bool]:
    """(finished, abandoned): what the index keeps in step. Taken before an action, since the
    action changes the working state and context in place."""
    return replay.finished, bool(replay.abandoned)


def _sync_index(store: Store, session: Session, was: tuple[bool, bool], after: Replay) -> None:
    """Keep the index's finished or abandoned flag and summary in step (only when they change)."""
    if was == ended(after):
        return
    entry = index_entry(session.meta, index_summary(session, after))
    try:
        with store.writing():  # the folder's short lock, inside the session's: always in this order
            store.index_put_or_note(entry, session.id)
    except StoreError as exc:
        store.notes.append(f"Saved in {store.session_path(session.id)}, but the index of sessions could not be "
                           f"updated ({exc.message}); `sessions` mends it.")
