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
from dataclasses import dataclass, field
from typing import Any

from companion.core.errors import MissingValue, RuleError

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
    and raise :class:`RuleError` half-way: the caller's state is never touched.

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
        """Return the state after ``event``. Raises RuleError (or MissingValue) to refuse it."""
        etype = event.get("type", "")
        handler = getattr(self, "on_" + etype.replace("-", "_"), None)
        if handler is None:
            raise RuleError(f"{self.title} has no action called {etype!r}.")
        if state.get("finished"):
            raise RuleError("The game is over: only `undo` can change it now.")
        new = copy.deepcopy(state)
        handler(new, event, data)
        return new

    # -- reading states --------------------------------------------------------------------
    def summary(self, state: State) -> dict:
        """The ``status --json`` keys this game adds to the session's own keys.

        Must include ``players`` (list of objects with at least ``name`` and ``score``, seat
        order), ``round``, ``finished`` and ``winners`` (names; empty until the game is over).
        """
        raise NotImplementedError

    def describe(self, event: Event) -> str:
        """One line in words for `log`."""
        fields = ", ".join(f"{k}={v}" for k, v in event.items() if k != "type")
        return f"{event.get('type')}: {fields}" if fields else str(event.get("type"))

    def redact(self, event: Event) -> Event:
        """The event as others may see it while the game is on (`log --json`).

        Games with secret cards hide them here; the default shows everything.
        """
        return event

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
                raise MissingValue(game, key, what, example)
        return node


def player_name(players: list[str] | tuple[str, ...], name: str) -> str:
    """The seated player's name matching ``name`` case-insensitively, or a refusal listing them."""
    wanted = name.strip().casefold()
    for p in players:
        if p.casefold() == wanted:
            return p
    raise RuleError(f"There is no player called {name!r}: the players are {', '.join(players)}.")


def best(scores: dict[str, int | float], lowest_wins: bool = False) -> list[str]:
    """Every player with the best total (all of them on a tie), in seat order."""
    if not scores:
        return []
    target = min(scores.values()) if lowest_wins else max(scores.values())
    return [p for p, s in scores.items() if s == target]
