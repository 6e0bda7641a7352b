"""The contract a game keeps, declared in one place and checked when the game is loaded.

A game is one object, a subclass of :class:`Game`: its facts are class attributes
(:data:`FACTS`), its rules are methods (``initial``, ``summary`` and ``result`` are required:
abstract), and its other parts live in two modules it names, whose names are listed in
:data:`MOVES_PARTS` and :data:`VIEWS_PARTS`. The registry (``companion.core.registry``) checks
all of it when it loads a game: a missing part, a module that does not import, or a name that
looks like part of the contract but is not in it is one line in `games`, naming the game and
its distribution, never a silent default.

The rules are pure: a game turns a setup into an initial state and folds events into it. It
never touches the disk or the terminal, so every rule can be tested exhaustively and the session
layer rebuilds any state by replaying the event log (undo is a shorter replay). States and
events are plain JSON values.

What the framework knows of a session (finished, winners, abandoned, played, notes) is its own
(``companion.core.session.Context``): a game reports its result once, through :meth:`result`,
and its state never holds a framework key. What one player may see is one rule, :meth:`view`:
the table's screens, completion, the phones' pages and the shell's history are made from it.
"""

from __future__ import annotations

import abc
from contextvars import ContextVar
from typing import Any, Iterator

from companion.contract.language import _
from companion.contract.errors import MissingValue, RuleError
from companion.contract.text import name_key

State = dict[str, Any]
Event = dict[str, Any]


class Setup:
    """Everything fixed when a session starts: the game, the seats (clockwise) and the options
    given to `new`."""

    __slots__ = ("game", "players", "options")

    def __init__(self, game: str, players: tuple[str, ...], options: dict[str, Any] | None = None):
        self.game, self.players, self.options = game, tuple(players), dict(options or {})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Setup) and (self.game, self.players, self.options) == (
            other.game, other.players, other.options)

    def __repr__(self) -> str:
        return f"Setup({self.game!r}, {self.players!r}, {self.options!r})"


# -- the contract, as lists the registry checks and the docs are made from ---------------------

# fact -> (type, what it is). Class attributes of the game; `id` and `title` must be given.
FACTS: dict[str, tuple[type, str]] = {
    "id": (str, "the game id people type after `new`; equal to its entry point's name"),
    "title": (str, "the game's name on every screen"),
    "description": (str, "one line, shown by `games`"),
    "min_players": (int, "the fewest players"),
    "max_players": (int, "the most players"),
    "deals": (bool, "sessions get a secret dealing seed (deals are stored in the events and verifiable)"),
    "records_start": (bool, "`new --start NAME` is checked by the rules (the game decides who starts)"),
    "tie_break": (str, "what settles a tie for first that final scores alone cannot ('' : a shared win)"),
    "start_rule": (str, "who starts when `new` is given no --start and the rules decide later, as `new` says it "
                        "('' : the first named starts)"),
    "start_question": (str, "what the shell's `new` asks to learn who starts when --start is not given, the "
                            "rulebook's words ('' : nobody is asked)"),
    "listing": (int, "where `games` lists it: lower first, then by id"),
    "section": (str, "the heading of its commands in `help` (default: the title)"),
    "moves": (str, "dotted name of the module holding its moves (MOVES_PARTS)"),
    "views": (str, "dotted name of the module holding its screens (VIEWS_PARTS)"),
    "pack_file": (str, "its data pack of printed values, as 'package:file.json' ('' : none)"),
    "player_fields": (tuple, "event keys holding a player's name, or a list of them, that the core "
                             "writes as seated"),
    "player_keys": (tuple, "event keys holding a dict keyed by players' names (scores), likewise"),
}
REQUIRED_FACTS = ("id", "title", "moves", "views")

# method -> what it does. The first three are abstract: a game without one is not loaded.
RULES: dict[str, str] = {
    "initial": "(setup, data) -> state: the state before anything happened",
    "summary": "(state) -> dict: the `status --json` keys of the game; at least `players` "
               "([{name, score}], seat order) and `round`; given a viewer's view of the state",
    "result": "(state) -> {'winners': [...]} once the game is over, None while it is on",
    "on_<event type>": "(state, event, data): one handler per event type; changes the state in place or "
                       "raises RuleError (a dash in the type is an underscore here)",
    "describe": "(event) -> str: the event in words, for `log`, the reports and the exports, without the "
                "values still secret to its reader; `(event, state)` gets the reader's view too",
    "view": "(state, player) -> state: what `player` may see (None: the table); the one privacy rule",
    "turn": "(state) -> [names]: who is to act now ([] when nobody in particular)",
    "deal_contexts": "(session id, event) -> [(deal, context)]: the deals an event records (dealing games)",
    "played_winners": "(scores, options) -> winners | None: a play logged from its final scores",
    "check_values": "(values, key) -> None: refuse at `data set` a printed value the rules cannot use",
}
REQUIRED_RULES = ("initial", "summary", "result")

# The module named by `moves`: name -> (required, what it is).
MOVES_PARTS: dict[str, tuple[bool, str]] = {
    "NEW": (True, "{game id: the `new GAME` Click command}, made with companion.games.kit.new_command"),
    "MOVES": (False, "[Move]: the recorded actions; each becomes a command, a shell question, completion, "
                     "a phone form and a line in the docs (companion.contract.declare)"),
    "SCREENS": (False, "[Screen]: read-only commands that draw a view (`market`, `agency`)"),
    "COMMANDS": (False, "{name: Click command}: hand-written commands, where a declaration cannot say it"),
    "GROUPS": (False, "{group: help}: the help of a command group whose moves are named 'group sub'"),
    "PLAYTHROUGH": (False, "{game id: [command line, ...]}: a short game the conformance test plays"),
    "SETUP": (False, "(at) -> None: what `data setup GAME` asks after the pack's unknown values, the game's own "
                     "way (Transatlantic: the ship cards, one after another)"),
}
# The module named by `views`: name -> (required, what it is).
VIEWS_PARTS: dict[str, tuple[bool, str]] = {
    "status_view": (True, "(at) -> View: what `status` shows, the table page and each player's page"),
    "board_view": (False, "(at) -> View: what `board` shows in a session (None: the game has no board)"),
    "MAPS": (False, "(map id, ...): the boards `board MAP` draws without a session"),
    "map_view": (False, "(at, map id) -> View: one of MAPS"),
    "next_action": (False, "(status) -> str: what the table types next, for the shell's toolbar"),
    "score_goal": (False, "(status) -> number | None: what the score bars on the pages fill toward"),
}
# Names of the contract before it was declared: a module still using one is told what replaced it.
RENAMED = {
    "render_status": "status_view", "render_board": "board_view", "render_map": "map_view",
    "public_view": "status_view", "private_view": "status_view (a Private block)",
    "choice": "a Move (its phone form is made from its declaration)", "choice_event": "a Move",
    "revealed_view": "status_view", "headline": "status_view", "words": "the kinds of the moves' parameters",
    "complete": "the kinds of the moves' parameters (Kind.options)", "carries_private": "Param(private=True)",
    "redact": "view (and Param(private=True))", "ui": "moves and views", "web": "views",
}


class Game(abc.ABC):
    """A game: its facts (class attributes, see :data:`FACTS`) and its rules (methods, see
    :data:`RULES`). Subclasses define ``on_<event type>`` handlers."""

    id: str = ""
    title: str = ""
    description: str = ""
    min_players: int = 1
    max_players: int = 6
    deals: bool = False
    records_start: bool = False
    tie_break: str = ""
    start_rule: str = ""
    start_question: str = ""
    listing: int = 100
    section: str = ""
    moves: str = ""
    views: str = ""
    pack_file: str = ""
    player_fields: tuple = ("player", "players", "winners")
    player_keys: tuple = ("scores",)

    # -- required rules --------------------------------------------------------------------------
    @abc.abstractmethod
    def initial(self, setup: Setup, data: dict) -> State:
        """The state before anything happened."""

    @abc.abstractmethod
    def summary(self, state: State) -> dict:
        """The `status --json` keys this game adds to the session's own keys: at least
        ``players`` (objects with ``name`` and ``score``, seat order) and ``round``. A contract
        for other programs: add keys in later versions, never rename them."""

    @abc.abstractmethod
    def result(self, state: State) -> dict | None:
        """``{"winners": [names]}`` once the game is over (all of them on a shared win; none
        when nobody wins), None while it is on. The framework refuses every action but `undo`
        afterwards and the history counts the play."""

    # -- optional rules ----------------------------------------------------------------------------
    def apply(self, state: State, event: Event, data: dict) -> State:
        """The state after ``event``, leaving ``state`` and ``event`` untouched even by a refusal
        half-way (a dry run). The session layer uses :meth:`advance`."""
        return self.advance(state_copy(state), json_copy(event), data)

    def advance(self, state: State, event: Event, data: dict) -> State:
        """Fold ``event`` into ``state`` in place and return it (replay's fast path: a replay that
        fails is thrown away whole). ``event`` is the caller's own copy."""
        etype = event.get("type", "")
        handler = getattr(self, "on_" + str(etype).replace("-", "_"), None)
        if handler is None:
            raise RuleError(_("{title} has no action called {etype}.").format(title=_(self.title), etype=repr(etype)))
        handler(state, event, data)
        return state

    def describe(self, event: Event) -> str:
        """One line in words for `log` (the default names the fields)."""
        fields = ", ".join(f"{k}={v}" for k, v in event.items() if k != "type" and not str(k).startswith("_"))
        return f"{event.get('type')}: {fields}" if fields else str(event.get("type"))

    def view(self, state: State, player: str | None) -> State:
        """What ``player`` may see of ``state`` (None: the table, everyone at once). The default
        hides nothing; a game with secret cards hides them here, and every screen made for a
        viewer is made from this view only."""
        return state

    def turn(self, state: State) -> list[str]:
        """Who is to act now, in order ([] when nobody in particular, or the game is over)."""
        return []

    def deal_contexts(self, session_id: str, event: Event) -> list[tuple[dict, str | None]]:
        """Every deal recorded in ``event`` with the context it must carry (None: a deal this
        game never makes). `verify` and replay refuse a deal under any other context: whoever
        holds the seed could otherwise try contexts until a deal suits them."""
        return [(deal, None) for deal in deals_in(event)]

    def played_winners(self, scores: dict[str, int | float], options: dict) -> list[str] | None:
        """The winners of a play logged from its final scores alone, by this game's rule; None
        when the scores tie for first and the rule needs more than scores (:attr:`tie_break`)."""
        top = best(scores, bool(options.get("lowest_wins")))
        if len(top) > 1 and self.tie_break:
            return None
        return top

    def check_values(self, values: dict, key: str) -> None:
        """Refuse at `data set` a printed value the pack's schema allows but the rules cannot
        use; most games need nothing."""

    def lowest_wins(self, status: dict) -> bool:
        """Whether the lowest total leads (a score sheet may say so)."""
        return bool(status.get("lowest_wins"))

    # -- helpers shared by games -------------------------------------------------------------------
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
            if node is None:  # the example is the pack's template (see MissingValue.template)
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
    if isinstance(value, list):  # a snapshot's list kept apart (companion.core.snapshot_parts)
        return [json_copy(v) for v in value]
    return value


class _NotPlain(Exception):
    """A value :func:`state_copy` leaves to ``copy.deepcopy``."""


_ATOMS = frozenset({str, int, float, bool, type(None)})


def _plain_copy(value: Any) -> Any:
    kind = type(value)
    if kind is dict:
        return {k: _plain_copy(v) for k, v in value.items()}
    if kind is list:
        return [_plain_copy(v) for v in value]
    if kind in _ATOMS:
        return value
    raise _NotPlain


def state_copy(state: Any) -> Any:
    """A deep copy of a game's state for a dry run (:meth:`Game.apply`, issue 29): a state of
    plain JSON values (what replay and its snapshots already hold, see ``json_copy``) is copied
    by a walk over its dicts and lists, about five times faster than ``copy.deepcopy``, which
    checking a typed value on a long Trans round paid at every answer; a state holding
    anything else (a set, a tuple, an object of the game's) is still copied by deepcopy."""
    try:
        return _plain_copy(state)
    except (_NotPlain, RecursionError):
        import copy  # only here: a `status` replays with advance and never imports it (issue 27)

        return copy.deepcopy(state)


# Names shown for seats after `player rename` (name key -> seated name), set by the session
# layer for the session at hand (companion.core.app). Events are recorded with the seated name.
SEAT_ALIASES: ContextVar[dict[str, str]] = ContextVar("SEAT_ALIASES", default={})


def player_name(players: list[str] | tuple[str, ...], name: str) -> str:
    """The seated player's name matching ``name`` case-insensitively and whatever its Unicode
    normalization ("Zoë" typed as one character or two), or the new name `player rename`
    gave that seat; else a refusal listing them."""
    wanted = name_key(str(name).strip())
    for p in players:
        if name_key(p) == wanted:
            return p
    seat = SEAT_ALIASES.get().get(wanted)
    if seat in players:
        return seat
    raise RuleError(_("There is no player called {name}: the players are {join}.").format(name=repr(name), join=', '.join(players)))


def seated_name(players: list[str] | tuple[str, ...], name: Any) -> Any:
    """``name`` written as seated when it names a seat, else as given (the rules refuse it)."""
    if not isinstance(name, str):
        return name
    try:
        return player_name(players, name)
    except RuleError:
        return name


def best(scores: dict[str, int | float], lowest_wins: bool = False) -> list[str]:
    """Every player with the best total (all of them on a tie), in seat order."""
    if not scores:
        return []
    target = min(scores.values()) if lowest_wins else max(scores.values())
    return [p for p, s in scores.items() if s == target]


def deals_in(event: Any) -> Iterator[dict]:
    """Every recorded deal inside an event (any dict with context, deck and order keys): the
    contract's, since a game's ``deal_contexts`` and the core's `verify` read deals alike."""
    if isinstance(event, dict):
        if {"context", "deck", "order"} <= event.keys():
            yield event
        else:
            for value in event.values():
                yield from deals_in(value)
    elif isinstance(event, list):
        for value in event:
            yield from deals_in(value)
