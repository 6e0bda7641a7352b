"""The application object every command receives (``ctx.obj``).

It bundles what differs between a one-off command, script mode and the interactive shell:
the data folder, the session a command targets, and whether the user can be asked for a
value that was left out. Commands never reach for globals, so every path is testable.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Callable, Iterable

from companion.contract.language import _
from companion.contract.errors import CompanionError

if TYPE_CHECKING:  # imported lazily: `companion --version` must not pay for TinyDB (or pathlib)
    from pathlib import Path

    from companion.core import session as sessions
    from companion.core.store import Store

ENV_HOME = "COMPANION_HOME"


def default_data_dir() -> Path:
    """``COMPANION_HOME`` if set, else the platform's user data folder."""
    from pathlib import Path

    env = os.environ.get(ENV_HOME)
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("companion", appauthor=False))


class App:
    """(A plain class rather than a dataclass: `companion --version` builds none, and importing
    dataclasses alone is a noticeable part of its start-up.)"""

    def __init__(self, data_dir: Path, session_override: str | None = None, *,
                 ask: Callable[..., str] | None = None, show_private: Callable[[str, str], None] | None = None,
                 say: Callable[[str], None] | None = None, choose_private: Callable[..., Any] | None = None,
                 interactive: bool = False, pinning: bool = False, pinned: str | None = None):
        self.data_dir = data_dir
        self.session_override = session_override
        # Set by the interactive shell: ask(question, default) -> answer, or None when nobody can
        # answer (one-off commands and script mode never prompt).
        self.ask = ask
        # Set by the shell: show a private text (a hand) so that it leaves nothing in the scrollback.
        self.show_private = show_private
        # Set by the shell: say one line to the people at the table (a refused answer to a question).
        self.say = say
        # Set by the shell on a terminal: choose_private(owner, text, question, parse) asks one
        # player on the private screen until parse accepts the answer (a city to pass, say).
        self.choose_private = choose_private
        self.interactive = interactive
        # A long-lived process (the shell, a script on standard input) fixes its session when it
        # starts and when it runs `new` or `use` itself: the folder's "current session" is shared
        # by every process, so another terminal's `new` must never redirect it (issues 12 and 13).
        self.pinning = pinning
        self.pinned = pinned
        self._store: Store | None = None
        self._held: sessions.Session | None = None  # the session last read, with its replay
        # (the games whose command runs, its name): set by the root group when it dispatches a
        # game's command, so the command need not name its game (companion.terminal.cli)
        self.expects: tuple | None = None
        self.tell: Callable[[list], None] | None = None  # shows a view at once (the terminal)
        # The surface that draws views (set by the terminal's root group: its renderer, with
        # show, draw, screen_width, whole and wrap), so a game's hand-written command prints a
        # view without importing the terminal: a game stands on the contract and the core only.
        self.screen: Any = None
        self.one_off = False  # made by the root group for one command line (not the shell's)
        # True while an optional question is asked (Enter skips it): a command line typed there
        # skips it and runs after the command (the shell's ask)
        self.optional_question = False
        # Set by the shell: offer_setup(game id) offers `data setup` after `new` when printed values
        # are missing; ask_value(game id, key) -> bool asks one the rules need now (kept if given)
        self.offer_setup: Callable[[str], None] | None = None
        self.ask_value: Callable[[str, str], bool] | None = None

    def __repr__(self) -> str:
        return f"App({str(self.data_dir)!r}, session_override={self.session_override!r})"

    @property
    def store(self) -> "Store":
        if self._store is None:
            from companion.core import registry
            from companion.core.store import Store

            self._store = Store(self.data_dir)
            registry.use_cache_file(self._store.cache_dir / "games.json")
        return self._store

    # -- choosing the session ----------------------------------------------------------------
    def pin_session(self) -> str | None:
        """Fix this process's session: the folder's current one now, or none.

        Called once when a shell or a script starts; from then on only :meth:`pin` (run by
        `new` and `use` in this process) changes it.
        """
        self.pinning = True
        try:  # a shell or a script starting: what killed writes left goes (issue 22)
            self.store.sweep_leftovers()
        except (CompanionError, OSError):
            pass
        try:
            sid = self.store.current()
            self.pinned = sid if sid and self.store.session_path(sid).exists() and sid not in self.store.deleted_ids() \
                else None
        except (CompanionError, OSError):
            self.pinned = None
        return self.pinned

    def pinned_id(self) -> str | None:
        """The session a line without `--session` acts on, or None (no exception)."""
        try:
            return self.session_id() if not self.session_override else None
        except (CompanionError, OSError):
            return None

    def pin(self, sid: str) -> None:
        """`new` or `use` in this process chose ``sid``: a long-lived process now stays on it."""
        self.pinned = sid

    def session_id(self) -> str:
        if self.session_override:
            return self.store.resolve(self.session_override)
        if self.pinning:
            return self._pinned_id()
        return self._existing(self.store.current(), pinned=False)

    def _pinned_id(self) -> str:
        return self._existing(self.pinned, pinned=True)

    def _existing(self, sid: str | None, pinned: bool) -> str:
        """``sid`` if its file is there, else a refusal saying how to start or pick one."""
        if not sid:
            raise CompanionError(
                (_("No session here yet: start one with `new GAME --players Ann,Bob` or pick one with `use ID` "
                   "(`sessions` lists them).") if pinned else
                 _("No current session: start one with `new GAME --players Ann,Bob` or pick one with `use ID` "
                   "(`sessions` lists them).")))
        if not self.store.session_path(sid).exists() or sid in self.store.deleted_ids():  # (another laptop's delete)
            raise CompanionError((_("This session ({id}) is gone: pick another with `use ID`.") if pinned else
                                  _("The current session {id} is gone: pick another with `use ID`.")).format(id=sid))
        return sid


    # -- the session at hand, read once -----------------------------------------------------------
    def loaded(self, sid: str | None = None) -> tuple["sessions.Session", "sessions.Replay"]:
        """Session ``sid`` (default: the one a command targets) and its replay.

        Kept for as long as the file does not change (the same inode, size and time: every
        write replaces it) and extended by the actions another process appended: the command,
        the root group choosing it, the shell's toolbar and its "Meanwhile" line read the file
        once and replay it once between them."""
        from companion.core import session as sessions

        sid = sid or self.session_id()
        held = self._held if self._held is not None and self._held.id == sid else None
        s, replay = sessions.fresh(self.store, sid, held, keep=True)
        self._held = s
        return s, replay

    def session(self, games: Iterable[str] | None = None, command: str = "") -> "sessions.Session":
        """The targeted session, refused when the command at hand belongs to another game
        (:attr:`expects`, set by the root group when it dispatched the command)."""
        s, _ = self.loaded()
        check_game(s, *self._expected(games, command))
        self.use_seat_aliases(s)
        return s

    def _expected(self, games, command) -> tuple:
        """(moves module, game ids, command name, owner id) a command expects of its session."""
        if games is not None:
            games = tuple(games)
            return None, games, command, games[0] if games else None
        return self.expects if self.expects is not None else (None, None, "", None)

    def use_seat_aliases(self, s: "sessions.Session") -> dict[str, str]:
        """Let the names `player rename` gave this session's seats name them too (issue 12)."""
        from companion.contract.text import seat_aliases
        from companion.contract.api import SEAT_ALIASES

        try:
            mapping = seat_aliases(s.players, self.store.aliases())
        except CompanionError:  # a damaged alias table: the seated names still work
            mapping = {}
        SEAT_ALIASES.set(mapping)
        return mapping

    def record(self, event: Any, games: Iterable[str] | None = None, command: str = "",
               before: Callable[[dict], Any] | None = None) -> "sessions.Recorded":
        """Validate and record one action on the targeted session.

        The game check runs inside the locked write, on the session read there, and the core
        writes every player's name in the event as seated (``Game.player_fields``). The file is
        read once per action: what this App holds is used when the file did not change."""
        from companion.core import session as sessions

        expected = self._expected(games, command)

        def build(s, replay):
            check_game(s, *expected)
            self.use_seat_aliases(s)
            made = event(s, replay) if callable(event) else dict(event)
            return seated_event(s.game, s.players, made)

        sid = self.session_id()
        held = self._held if self._held is not None and self._held.id == sid else None
        try:
            done = sessions.record(self.store, sid, build, held=held, before=before)
        except BaseException:
            self._held = None
            raise
        self._held = done.session
        return done

    def step(self, kind: str) -> tuple:
        """Undo or redo on the targeted session: (session, replay, the entry moved)."""
        from companion.core import session as sessions

        sid = self.session_id()
        held = self._held if self._held is not None and self._held.id == sid else None
        try:
            s, replay, moved = sessions.step(self.store, sid, kind, held=held)
        except BaseException:
            self._held = None
            raise
        self._held = s
        return s, replay, moved

    def can_ask(self) -> bool:
        return self.ask is not None

    def ask_optional(self, question: str) -> str:
        """Ask a question Enter skips (the shuffle's words): a command line typed there skips
        it instead of being taken as the answer."""
        self.optional_question = True
        try:
            return self.ask(question, "")
        finally:
            self.optional_question = False

    def ask_until(self, question: str, parse: Callable[[str], Any], default: str = "", optional: bool = False) -> Any:
        """Ask ``question`` again and again until ``parse`` accepts the answer; return its value.

        A question never loses the command it belongs to: a typo is answered in one line and
        the same question comes back. Only Ctrl-C (or Ctrl-D) leaves, as KeyboardInterrupt or
        EOFError, which cancels the whole command before anything is recorded. ``parse`` gets
        the answer stripped and refuses it with CompanionError or ValueError (or a Click
        error: anything with ``format_message``), whose text is shown.
        """
        if self.ask is None:
            raise CompanionError(_("Nobody can be asked here: give the value on the command line."))
        while True:
            if optional:  # Enter skips it: a command typed there skips it too (the shell's ask)
                self.optional_question = True
            try:
                answer = self.ask(question, default).strip()
            finally:
                self.optional_question = False
            try:
                return parse(answer)
            except (CompanionError, ValueError) as exc:
                message = getattr(exc, "message", None) or str(exc)
            except Exception as exc:  # click.BadParameter/UsageError: the core does not import Click
                if not hasattr(exc, "format_message"):
                    raise
                message = exc.format_message()
            (self.say or print)(_("{message} (Ctrl-C stops without recording anything.)").format(message=message))



def seated_event(game, players: list[str], event: Any) -> Any:
    """``event`` with every player's name written as seated (``ann`` as Ann, a name `player
    rename` gave a seat as the seat's), in the fields the game names
    (``Game.player_fields``: a name or a list of names; ``Game.player_keys``: a dict keyed by
    names), so the log and the reports name the players as the table does and the event keeps
    its meaning whatever is renamed later. A name that is no seat is left for the rules to
    refuse; nothing else in the event is touched."""
    from companion.contract.api import seated_name

    if not isinstance(event, dict):
        return event
    out = dict(event)
    for key in game.player_fields:
        value = out.get(key)
        if isinstance(value, str):
            out[key] = seated_name(players, value)
        elif isinstance(value, list):
            out[key] = [seated_name(players, v) for v in value]
    for key in game.player_keys:
        value = out.get(key)
        if isinstance(value, dict):
            named: dict = {}
            for k, v in value.items():
                seat = seated_name(players, k)
                if seat in named:  # the same player twice: left as typed for the rules to refuse
                    return out | {key: value}
                named[seat] = v
            out[key] = named
    return out


def check_game(s: "sessions.Session", module: str | None, games: tuple | None = None, command: str = "",
               owner: str | None = None) -> None:
    """Refuse a command of one game used on a session of another, saying how to switch. A
    game's command is known by the moves module that declared it (Trans Europa and Trans
    Amerika share theirs), or by the game ids a caller names."""
    if module is None and not games:
        return
    if module is not None and s.game.moves == module:
        return
    if games and s.meta["game"] in games:
        return
    from companion.core import registry

    owner = owner or (games[0] if games else s.meta["game"])
    title = registry.get(owner).title
    if title[:1].lower() in "aeiou":
        said = _("`{command}` is an {title} command, but session {id} is {current}: switch with `use ID` or start "
                 "one with `new {game} ...`.")
    else:
        said = _("`{command}` is a {title} command, but session {id} is {current}: switch with `use ID` or start "
                 "one with `new {game} ...`.")
    raise CompanionError(said.format(command=command or _("this command"), title=title, id=s.id,
                                     current=s.game.title, game=owner))

