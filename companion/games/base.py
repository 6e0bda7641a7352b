"""The contract every game keeps: one object declares everything the companion needs from it.

The rules: ``initial``/``apply``/``summary``/``describe``/``redact``/``words``. A game is pure
rules: it turns a setup into an initial state and folds events into new states.
It never touches the disk or the terminal, so every rule can be tested exhaustively and the
session layer can rebuild any state by replaying the event log (undo is just a shorter replay).

States and events are plain JSON values (dicts, lists, strings, numbers, booleans, None) so
they can be stored, compared and exported without conversion.
"""

from __future__ import annotations

import copy
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from companion.core.errors import MissingValue, RuleError
from companion.core.text import name_key

State = dict[str, Any]
Event = dict[str, Any]


@dataclass(frozen=True)
class Setup:
    """Everything fixed when a session starts."""

    game: str
    players: tuple[str, ...]  # seat order, clockwise
    options: dict[str, Any] = field(default_factory=dict)  # game options given to `new`


class Game:
    """Base class for a game. Subclasses define ``on_<event type>`` handlers for the rules.

    ``apply`` deep-copies the state before calling the handler, so a handler may mutate freely
    and raise :class:`RuleError` half-way: the caller's state is never touched. Replay uses
    ``advance`` instead, which mutates one working state in place: copying the whole state at
    every event made replay quadratic (issue 12), and a replay that fails is thrown away whole.

    The terminal side (commands, the ``new`` command, screens, completion) lives in a module of
    the game's own package named by :attr:`ui`, imported only when a command of the game runs,
    so the rules stay importable without Click and ``companion --version`` imports no game.
    That module defines:

    - ``COMMANDS``: top-level command name -> Click command (``round``, ``buy`` ...);
    - ``NEW``: game id -> the ``new GAME`` Click command (``companion.games.kit.new_command``
      builds one from a function returning the game's options);
    - ``render_status(app, session, replay) -> str``: what ``status`` prints;
    - optionally ``render_board(app, session, replay) -> str`` (``board``), ``MAPS`` (ids) and
      ``render_map(app, map_id) -> str`` (``board MAP`` with no session; the first id is the
      one `board` names in its list),
      ``words(session, replay) -> list[str]``: extra completion words,
      ``complete(session, replay, words, current) -> [(text, note)] | None``: what the shell
      offers for one argument, from the context (never a private card),
      ``next_action(status) -> str``: what comes next, for the shell's toolbar, and
      ``carries_private(words) -> bool``: whether a typed line names a private card (the
      shell then keeps it out of its history).

    A game may instead override the methods below directly.
    """

    # -- what the companion needs besides the rules -------------------------------------------
    ui: str = ""  # dotted module with the game's commands and screens
    # A plugin's own data pack, as "package:file.json" (importlib.resources); built-in games'
    # packs are the top-level data/<game id>.json, installed as companion.data.
    pack_file: str = ""
    section: str = ""  # the heading its commands get in `help` (default: the title)
    listing: int = 100  # where `games` lists it: lower first, then by id (plugins keep 100)

    id: str = ""
    title: str = ""
    description: str = ""  # one line, shown by `games`
    min_players: int = 1
    max_players: int = 6
    deals: bool = False  # sessions of this game get a secret dealing seed

    # -- building states -------------------------------------------------------------------
    def initial(self, setup: Setup, data: dict) -> State:
        raise NotImplementedError

    def apply(self, state: State, event: Event, data: dict) -> State:
        """Return the state after ``event``. Raises RuleError (or MissingValue) to refuse it.

        The caller's ``state`` and ``event`` are never touched, even by a refusal half-way."""
        return self.advance(copy.deepcopy(state), json_copy(event), data)

    def advance(self, state: State, event: Event, data: dict) -> State:
        """Fold ``event`` into ``state`` in place and return it (replay's fast path).

        A refusal may leave ``state`` half-changed: only callers that throw the state away on
        a refusal (replay) use this; everyone else calls :meth:`apply`. ``event`` must be the
        caller's own copy, since a handler may keep parts of it in the state.
        Games that keep something beside the rules' state override this, not ``apply``."""
        etype = event.get("type", "")
        if etype in GENERIC_EVENTS:
            return generic_apply(self, state, event)
        handler = getattr(self, "on_" + etype.replace("-", "_"), None)
        if handler is None:
            raise RuleError(f"{self.title} has no action called {etype!r}.")
        if state.get("abandoned"):
            raise RuleError("This game was abandoned: `undo` takes that back, or start another with `new`.")
        if state.get("finished"):
            raise RuleError("The game is over: only `undo` can change it now.")
        handler(state, event, data)
        return state

    # -- reading states --------------------------------------------------------------------
    def summary(self, state: State) -> dict:
        """The ``status --json`` keys this game adds to the session's own keys.

        Must include ``players`` (list of objects with at least ``name`` and ``score``, seat
        order), ``round``, ``finished`` and ``winners`` (names; empty until the game is over).
        """
        raise NotImplementedError

    # `played GAME --players Ann=52,Bob=47`: what settles a tie for first that final scores
    # alone cannot (e.g. "money"); "" when a tie is a shared win.
    tie_break: str = ""

    def played_winners(self, scores: dict[str, int], options: dict) -> list[str] | None:
        """The winners of a play logged from its final scores alone, by this game's rule; None
        when the scores tie for first and the rule needs more than scores (:attr:`tie_break`)."""
        top = best(scores, bool(options.get("lowest_wins")))
        if len(top) > 1 and self.tie_break:
            return None
        return top

    def describe(self, event: Event) -> str:
        """One line in words for `log` (games call this for the events they do not word)."""
        if event.get("type") in GENERIC_EVENTS:
            return describe_generic(event)
        fields = ", ".join(f"{k}={v}" for k, v in event.items() if k != "type")
        return f"{event.get('type')}: {fields}" if fields else str(event.get("type"))

    def redact(self, event: Event) -> Event:
        """The event as others may see it while the game is on (`log --json`).

        Games with secret cards hide them here; the default shows everything.
        """
        return event

    def deal_contexts(self, session_id: str, event: Event) -> list[tuple[dict, str | None]]:
        """Every deal recorded in ``event`` with the context it must carry, derived from the
        session id, the round and the deck (None: a deal this game never makes).

        `verify` and replay refuse a deal under any other context (issue 12): whoever holds the
        seed could otherwise try contexts until a deal suits them. Games that deal override
        this; the default knows no deal at all."""
        from companion.core import dealing

        return [(deal, None) for deal in dealing.deals_in(event)]

    def words(self, state: State, data: dict) -> list[str]:
        """Domain words the shell completes (player names, cities, ships ...)."""
        return list(state.get("players_order", []))

    # -- the terminal side ----------------------------------------------------------------------
    def ui_module(self):
        """The module named by :attr:`ui` (imported on first use)."""
        import importlib

        if not self.ui:
            return None
        return importlib.import_module(self.ui)

    def commands(self) -> dict:
        """Top-level command name -> Click command."""
        module = self.ui_module()
        return dict(getattr(module, "COMMANDS", {}) or {})

    def new_command(self):
        """The Click command ``new GAME`` runs, or None when the game has none."""
        return (getattr(self.ui_module(), "NEW", None) or {}).get(self.id)

    def render_status(self, app, session, replay) -> str:
        module = self.ui_module()
        if module is None or not hasattr(module, "render_status"):
            return "\n".join(f"{p['name']}: {p.get('score')}" for p in session.status(replay).get("players", []))
        return module.render_status(app, session, replay)

    def render_board(self, app, session, replay) -> str | None:
        """The session's board in text, or None when the game has no board."""
        module = self.ui_module()
        render = getattr(module, "render_board", None)
        return render(app, session, replay) if render else None

    def maps(self) -> list[str]:
        """Board ids `board MAP` can draw without a session."""
        return list(getattr(self.ui_module(), "MAPS", ()) or ())

    def render_map(self, app, map_id: str) -> str:
        return self.ui_module().render_map(app, map_id)

    def next_action(self, status: dict) -> str:
        """What the table types next, in a few words ('' when nothing is due): the shell's
        toolbar shows it. The ui module's ``next_action(status)`` decides; default nothing."""
        decide = getattr(self.ui_module(), "next_action", None)
        return str(decide(status) or "") if decide else ""

    def lowest_wins(self, status: dict) -> bool:
        """Whether the lowest total leads (a score sheet may say so); the toolbar names the
        leader by this rule."""
        return bool(status.get("lowest_wins"))

    def carries_private(self, words: list[str]) -> bool:
        """Whether a command line (split into words) names a private card, so the shell keeps it
        out of its history. The ui module's ``carries_private(words)`` decides; default no."""
        check = getattr(self.ui_module(), "carries_private", None)
        return bool(check(words)) if check else False

    def complete(self, session, replay, words: list[str], current: str) -> list[tuple[str, str]] | None:
        """What the shell offers for the word being typed, from the context (issue 13.4).

        ``words`` are the words typed before it, the command first (``["build", "Ann"]``),
        ``current`` the start of the word being typed. Returns ``[(text, note)]`` (the note,
        e.g. a line's cost, is shown beside it; the shell filters by ``current``), or None
        when the game has nothing particular to say (the shell then offers its general words).
        Never a private card: nothing in any hand is offered to anyone. The ui module's
        ``complete(session, replay, words, current)`` decides.
        """
        decide = getattr(self.ui_module(), "complete", None)
        return decide(session, replay, words, current) if decide else None

    def completion(self, session, replay) -> list[str]:
        """Words the shell offers in a session of this game (never a private card)."""
        words = list(self.words(replay.state, replay.data))
        extra = getattr(self.ui_module(), "words", None)
        if extra:
            words += list(extra(session, replay))
        return words

    # -- the phones' pages (`companion serve`) ------------------------------------------------
    def web_module(self):
        """The module ``web`` beside the game's :attr:`ui` module, or None when the game has none.

        It may define ``public_view(session, replay) -> blocks`` (the table page: nothing
        private), ``private_view(session, replay, player) -> blocks`` (that player's page only),
        ``choice(session, replay, player) -> dict | None`` (a city to pass or return, offered on
        the player's page) and ``choice_event(session, replay, player, value) -> event``.
        Blocks are plain data (see ``companion.web.pages``): the server escapes and draws them,
        so a game never writes HTML except its own trusted drawings (``svg`` blocks).
        Imported only when serving, so the rules and every other command stay free of it.
        """
        import importlib

        if not self.ui:
            return None
        try:
            return importlib.import_module(self.ui.rsplit(".", 1)[0] + ".web")
        except ModuleNotFoundError:
            return None

    def public_view(self, session, replay) -> list[dict]:
        view = getattr(self.web_module(), "public_view", None)
        return list(view(session, replay)) if view else []

    def private_view(self, session, replay, player: str) -> list[dict]:
        view = getattr(self.web_module(), "private_view", None)
        return list(view(session, replay, player)) if view else []

    def choice(self, session, replay, player: str) -> dict | None:
        """The choice waiting for ``player`` ({"prompt": str, "options": [str]}), or None."""
        offer = getattr(self.web_module(), "choice", None)
        return offer(session, replay, player) if offer else None

    def choice_event(self, session, replay, player: str, value: str) -> Event:
        return self.web_module().choice_event(session, replay, player, value)

    def check_values(self, values: dict, key: str) -> None:
        """Refuse at `data set` a printed value the pack's schema allows but the rules cannot
        use (a line that is not on the board), with one CompanionError saying what to type.
        ``values`` are the merged values with the new one at ``key``; most games need nothing."""

    # -- helpers shared by games -----------------------------------------------------------
    @staticmethod
    def need(data: dict, game: str, key: str, what: str = "", example: str = "...") -> Any:
        """The printed value at dotted ``key``, or MissingValue naming the command to supply it."""
        node: Any = data
        for part in key.split("."):
            if isinstance(node, dict):
                node = node.get(part)
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                node = None
            if node is None:
                if example == "...":  # the pack's template, which works once its placeholders are typed over
                    from companion.core import datapack

                    example = datapack.example(game, key) if game in datapack.pack_names() else example
                raise MissingValue(game, key, what, example)
        return node


def json_copy(value: Any) -> Any:
    """A deep copy of a plain JSON value, several times faster than ``copy.deepcopy`` (no memo:
    JSON values share nothing), so replay can give every handler its own copy of an event."""
    kind = type(value)
    if kind is dict:
        return {k: json_copy(v) for k, v in value.items()}
    if kind is list:
        return [json_copy(v) for v in value]
    if kind is tuple:
        return tuple(json_copy(v) for v in value)
    return value


# Names shown for seats after `player rename` (name key -> seated name), set by the session
# layer for the session at hand (companion.core.app). Events are recorded with the seated name.
SEAT_ALIASES: ContextVar[dict[str, str]] = ContextVar("SEAT_ALIASES", default={})


def player_name(players: list[str] | tuple[str, ...], name: str) -> str:
    """The seated player's name matching ``name`` case-insensitively and whatever its Unicode
    normalization ("Zoë" typed as one character or two), or the new name `player rename`
    gave that seat; else a refusal listing them."""
    wanted = name_key(name.strip())
    for p in players:
        if name_key(p) == wanted:
            return p
    seat = SEAT_ALIASES.get().get(wanted)
    if seat in players:
        return seat
    raise RuleError(f"There is no player called {name!r}: the players are {', '.join(players)}.")


def best(scores: dict[str, int | float], lowest_wins: bool = False) -> list[str]:
    """Every player with the best total (all of them on a tie), in seat order."""
    if not scores:
        return []
    target = min(scores.values()) if lowest_wins else max(scores.values())
    return [p for p, s in scores.items() if s == target]


# -- events every game understands -------------------------------------------------------------
#
# Kept here, not in each game's rules, so that every game (plugins too) can be abandoned, noted
# and logged after the fact the same way, and the rules modules stay about their own game.

GENERIC_EVENTS = ("note", "abandon", "played")
NOTE_MAX = 500


def generic_apply(game: Game, state: State, event: Event) -> State:
    """Apply a note, an abandon or a played event (see :data:`GENERIC_EVENTS`)."""
    etype = event["type"]
    if etype == "note":
        text = event.get("text")
        if not isinstance(text, str) or not text.strip():
            raise RuleError("A note needs some words: note \"Bob had to leave early\"")
        if len(text) > NOTE_MAX or not text.isprintable():
            raise RuleError(f"A note is one line of at most {NOTE_MAX} characters.")
        return dict(state)  # a note changes nothing in the game: the journal keeps it
    if state.get("abandoned"):
        raise RuleError("This game was abandoned already: `undo` takes that back.")
    if state.get("finished"):
        raise RuleError("The game is over: there is nothing to abandon or to log here.")
    reason = event.get("reason")
    if etype == "abandon":
        if reason is not None and (not isinstance(reason, str) or len(reason) > NOTE_MAX or not reason.isprintable()):
            raise RuleError(f"The reason is one line of at most {NOTE_MAX} characters.")
        new = dict(state)
        new["abandoned"] = {"reason": reason or ""}
        return new
    # played: the final scores of a game played away from the companion
    seats = list(state.get("players_order") or [])
    scores = event.get("scores")
    winners = event.get("winners")
    if not isinstance(scores, dict) or not all(isinstance(v, int) and not isinstance(v, bool) for v in scores.values()):
        raise RuleError("A played game needs every player's final score as a whole number: --players Ann=52,Bob=47")
    if seats and list(scores) != seats:
        raise RuleError(f"A played game needs the final score of each player: {', '.join(seats)}.")
    if not isinstance(winners, list) or not winners or any(w not in scores for w in winners):
        raise RuleError("A played game needs its winners among its players.")
    new = dict(state)
    new["finished"] = True
    new["played"] = {"scores": dict(scores), "winners": list(winners)}
    return new


def describe_generic(event: Event) -> str:
    """`log` and the report's words for a note, an abandon or a played event."""
    etype = event.get("type")
    if etype == "note":
        return f"Note: {event.get('text', '')}"
    if etype == "abandon":
        reason = event.get("reason")
        return "Abandoned" + (f": {reason}" if reason else " (no result)")
    if etype == "played":
        scores = event.get("scores") or {}
        won = event.get("winners") or []
        return ("Played: " + ", ".join(f"{p} {v}" for p, v in scores.items())
                + (f"; won by {', '.join(won)}" if won else ""))
