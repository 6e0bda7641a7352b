"""The one exit: everything shown to a viewer is made here, from ``view(state, viewer)`` only.

A viewer is a player's name, or None for the table (the laptop's screen, the TV's page, `status
--json`, `log`, an export of a game still in play). boardgame.io filters every state and log it
sends through one function at its transport (``src/master/filter-player-view.ts``); this module
is that function for the companion. Given a session, a replay and a viewer, :class:`Exit` gives:

- ``state``: the game's :meth:`~companion.contract.api.Game.view` of the state for the viewer;
- ``status``: the `status --json` object, the game's ``summary`` computed on that viewed state
  (a summary of the full state showed a secret bid to the table, design-review-3);
- ``event(e)`` and ``words(e)``: an event as the viewer may see it, in JSON and in words. A
  move's private parameter (``Param(private=...)``) is left out for everyone but the player who
  made the move while it is secret: until the game is over, or, when ``private`` is a rule
  ``(state, event) -> bool``, for as long as that rule says (boardgame.io's ``redact(G, ctx)``);
  a deal's shuffled deck is left out until the game is over or the seed was revealed;
- ``at(...)``: what a view is drawn from (:class:`SeenAt`, the members of
  :class:`~companion.contract.declare.At` a view reads), whose state, replay and session hold
  only what the viewer may see.

Every surface (the terminal's `status`, `log`, the line after a move, the shell's toolbar, the
pages and their live stream, the BG Stats link, an export) asks here; none reads the full state
to show it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from companion.contract.language import _
from companion.contract.api import deals_in, json_copy
from companion.contract.errors import CompanionError

if TYPE_CHECKING:  # the declarations build on this module, never the other way round
    from companion.contract.declare import Move, Param

HIDDEN = "hidden until the game is over"  # `log --json`'s word for a value secret until the end
HIDDEN_NOW = "hidden for now"  # ... and for one a rule makes public before the end (a bid)


class Exit:
    """What ``viewer`` (None: the table) may see of ``session`` at ``replay``. ``moves``: the
    game's declared moves, whose private parameters the log leaves out (default: the session's);
    made once per screen drawn, since the view and the summary are computed once here."""

    def __init__(self, session: Any, replay: Any, viewer: str | None = None, moves: Iterable[Move] | None = None):
        self.session, self.replay, self.viewer = session, replay, viewer
        self._moves = None if moves is None else tuple(moves)  # read when an event is shown: `status` never
        self._state: dict | None = None  # the view and its summary, each made once
        self._status: dict | None = None
        self._made: dict[str, Move] | None = None

    @property
    def game(self):
        return self.session.game

    @property
    def moves(self) -> tuple:
        if self._moves is None:
            self._moves = tuple(self.session.moves)
        return self._moves

    @property
    def open(self) -> bool:
        """Everything is public: the game is over, or its deal seed was revealed."""
        return bool(self.replay.finished or self.session.revealed)

    @property
    def state(self) -> dict:
        """The game's ``view(state, viewer)``: the one privacy rule, applied here and only here."""
        if self._state is None:
            self._state = self.game.view(self.replay.state, self.viewer)
        return self._state

    @property
    def status(self) -> dict:
        """`status --json` for this viewer: the session's keys and the game's summary of the
        viewed state (a view asks for it in several places; the summary of a long round walks
        the board)."""
        if self._status is None:
            self._status = self.session.status(self.replay, state=self.state)
        return self._status

    # -- events ----------------------------------------------------------------------------------
    def secrets(self, event: dict) -> list[str]:
        """The keys of ``event`` this viewer may not see now: its move's private parameters
        while secret (the move's own player sees them)."""
        if self._made is None:
            self._made = {m.records: m for m in self.moves if m.private}
        move = self._made.get(str(event.get("type")))
        if move is None:
            return []
        return secret_keys(move, self.replay.state, event, self.viewer, self.open)

    def event(self, event: dict) -> dict:
        """``event`` as `log --json` shows it to this viewer: its own keys (none starting with
        an underscore), a secret value replaced by the word saying so, a deal's deck and order
        while the game is on."""
        out = {k: v for k, v in event.items() if not k.startswith("_")}
        secret = self.secrets(event)
        dealt = not self.open and any(True for _ in deals_in(out))
        if not secret and not dealt:
            return out
        out = json_copy(out)
        move = self._made.get(str(event.get("type"))) if secret else None
        for key in secret:
            out[key] = HIDDEN_NOW if callable(move.param(key).private) else HIDDEN
        if dealt:
            for deal in deals_in(out):
                for key in ("deck", "order"):
                    deal[key] = HIDDEN
        return out

    def words(self, event: dict) -> str:
        """``event`` in words for this viewer: the framework's events in its words, every other
        by the game's ``describe``, given the event without what is secret (so a game may say
        "Ann has bid" while the bid is secret and "Ann bid 1" once it is not) and, when it
        takes it, the viewed state."""
        shown = event
        secret = self.secrets(event)
        if secret:
            shown = {k: v for k, v in event.items() if k not in secret}
        if not self.open and any(True for _ in deals_in(shown)):  # a game's default words name every key
            shown = json_copy(shown)
            for deal in deals_in(shown):
                for key in ("deck", "order"):
                    deal[key] = HIDDEN
        return self.session.describe(shown, self.state if takes_state(self.game) else None)

    # -- what a view is given --------------------------------------------------------------------
    def at(self, host: Any = None, args: dict | None = None) -> "SeenAt":
        """The ``At`` a view is drawn from: its ``state``, ``full``, ``status``, ``replay`` and
        ``session`` hold only what this viewer may see."""
        return SeenAt(self, host, args)


def still_secret(param: "Param", state: dict, event: dict) -> bool:
    """Whether ``param``'s value in ``event`` is still secret now: ``private=True`` keeps it
    until the game is over; a rule ``private(state, event) -> bool`` decides from the state now
    (the whole state: the rule is the filter's own, as boardgame.io's ``redact(G, ctx)``)."""
    rule = param.private
    return bool(rule(state, event)) if callable(rule) else bool(rule)


def secret_keys(move: "Move", state: dict, event: dict, viewer: str | None, over: bool) -> list[str]:
    """The keys of ``event`` (recorded by ``move``) that ``viewer`` may not see now: the move's
    private parameters while still secret, except to the player who made it."""
    if over or (move.actor and viewer is not None and event.get(move.actor) == viewer):
        return []
    return [p.name for p in move.params if p.private and p.name in event and still_secret(p, state, event)]


_TAKES: dict[type, bool] = {}


def takes_state(game: Any) -> bool:
    """Whether the game's ``describe`` takes the viewed state as a second argument."""
    kind = type(game)
    if kind not in _TAKES:
        import inspect  # only when a log is said: not on every start

        try:
            params = list(inspect.signature(game.describe).parameters.values())
        except (TypeError, ValueError):
            params = []
        _TAKES[kind] = len(params) >= 2 or any(p.kind is p.VAR_POSITIONAL for p in params)
    return _TAKES[kind]


class SeenReplay:
    """A replay as one viewer sees it: the viewed state, the events as the viewer may see them;
    the rest (the count, over, the printed values) as the replay has it."""

    def __init__(self, exit: Exit):
        self._exit = exit
        self._events: list[dict] | None = None

    @property
    def state(self) -> dict:
        return self._exit.state

    @property
    def events(self) -> list[dict]:
        if self._events is None:
            self._events = [dict(e, event=self._exit.event(e["event"])) for e in self._exit.replay.events]
        return self._events

    @property
    def undone(self) -> list[dict]:
        return [dict(e, event=self._exit.event(e["event"])) for e in self._exit.replay.undone]

    def __getattr__(self, name: str) -> Any:
        if name in ("count", "data", "over", "finished", "abandoned", "played", "winners", "finished_at", "ctx",
                    "frozen"):
            return getattr(self._exit.replay, name)
        raise AttributeError(f"a view sees the viewed replay only: {name!r} is not part of it")


class SeenSession:
    """A session as a view sees it: its facts (id, game, players, title, setup, options, meta
    without the deal seed) and ``status()`` for this viewer; never its journal nor a replay."""

    def __init__(self, exit: Exit):
        self._exit = exit
        session = exit.session
        self.meta = {k: v for k, v in session.meta.items() if k != "seed"}

    id = property(lambda self: self._exit.session.id)
    game = property(lambda self: self._exit.session.game)
    players = property(lambda self: self._exit.session.players)
    title = property(lambda self: self._exit.session.title)
    setup = property(lambda self: self._exit.session.setup)
    revealed = property(lambda self: self._exit.session.revealed)

    def status(self, replay: Any = None, state: Any = None) -> dict:
        return self._exit.status

    def describe(self, event: dict, state: Any = None) -> str:
        return self._exit.words(event)


class SeenAt:
    """What a view is given (the members of :class:`companion.contract.declare.At` a view
    reads): ``state`` and ``full`` are the viewer's view, ``status`` its summary, ``replay``
    and ``session`` the viewed ones (:class:`SeenReplay`, :class:`SeenSession`); ``host`` for
    the data folder. A view asks nobody."""

    def __init__(self, exit: Exit, host: Any = None, args: dict | None = None):
        self.exit, self.host, self.viewer = exit, host, exit.viewer
        self.session, self.replay = SeenSession(exit), SeenReplay(exit)
        self.args = dict(args or {})

    state = full = property(lambda self: self.exit.state)
    status = property(lambda self: self.exit.status)
    game = property(lambda self: self.exit.game)
    data = property(lambda self: self.exit.replay.data)
    players = property(lambda self: list(self.exit.session.players))

    def seat(self, player: str) -> int:
        return self.players.index(player)

    def can_ask(self) -> bool:
        return False

    def ask_until(self, question: str, parse: Any, default: str = "", optional: bool = False) -> Any:
        raise CompanionError(_("Nobody can be asked here: give the value on the command line."))

    def tell(self, view: list) -> None:
        """A view says what it says by being drawn."""
