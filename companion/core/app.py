"""The application object every command receives (``ctx.obj``).

It bundles what differs between a one-off command, script mode and the interactive shell:
the data folder, the session a command targets, and whether the user can be asked for a
value that was left out. Commands never reach for globals, so every path is testable.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Callable, Iterable

from companion.core.errors import CompanionError

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

    def __repr__(self) -> str:
        return f"App({str(self.data_dir)!r}, session_override={self.session_override!r})"

    @property
    def store(self) -> "Store":
        if self._store is None:
            from companion.core import registry
            from companion.core.store import Store

            self._store = Store(self.data_dir)
            registry.use_cache_file(self._store.root / "cache" / "games.json")
        return self._store

    # -- choosing the session ----------------------------------------------------------------
    def pin_session(self) -> str | None:
        """Fix this process's session: the folder's current one now, or none.

        Called once when a shell or a script starts; from then on only :meth:`pin` (run by
        `new` and `use` in this process) changes it.
        """
        self.pinning = True
        try:
            sid = self.store.current()
            self.pinned = sid if sid and self.store.session_path(sid).exists() else None
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
        return self._existing(self.store.current(), "No current session", "The current session {} is gone")

    def _pinned_id(self) -> str:
        return self._existing(self.pinned, "No session here yet", "This session ({}) is gone")

    def _existing(self, sid: str | None, none: str, gone: str) -> str:
        """``sid`` if its file is there, else a refusal saying how to start or pick one."""
        if not sid:
            raise CompanionError(f"{none}: start one with `new GAME --players Ann,Bob` or pick one with "
                                 "`use ID` (`sessions` lists them).")
        if not self.store.session_path(sid).exists():
            raise CompanionError(f"{gone.format(sid)}: pick another with `use ID`.")
        return sid

    def session(self, games: Iterable[str] | None = None, command: str = "") -> "sessions.Session":
        """The targeted session, refused when a command of another game is used on it."""
        from companion.core import session as sessions

        s = sessions.load(self.store, self.session_id())
        check_game(s, games, command)
        self.use_seat_aliases(s)
        return s

    def use_seat_aliases(self, s: "sessions.Session") -> dict[str, str]:
        """Let the names `player rename` gave this session's seats name them too (issue 12)."""
        from companion.core.text import seat_aliases
        from companion.games.base import SEAT_ALIASES

        try:
            mapping = seat_aliases(s.players, self.store.aliases())
        except CompanionError:  # a damaged alias table: the seated names still work
            mapping = {}
        SEAT_ALIASES.set(mapping)
        return mapping

    def record(self, event: Any, games: Iterable[str] | None = None, command: str = ""):
        """Validate and record one action on the targeted session: (session, replay, event).

        The game check runs inside the locked write, on the session read there: the file is
        read once per action, not twice.
        """
        from companion.core import session as sessions

        def build(s, replay):
            check_game(s, games, command)
            mapping = self.use_seat_aliases(s)
            made = event(s, replay) if callable(event) else dict(event)
            return seated_names(made, mapping) if mapping else made

        return sessions.record(self.store, self.session_id(), build)

    def can_ask(self) -> bool:
        return self.ask is not None

    def ask_until(self, question: str, parse: Callable[[str], Any], default: str = "") -> Any:
        """Ask ``question`` again and again until ``parse`` accepts the answer; return its value.

        A question never loses the command it belongs to: a typo is answered in one line and
        the same question comes back. Only Ctrl-C (or Ctrl-D) leaves, as KeyboardInterrupt or
        EOFError, which cancels the whole command before anything is recorded. ``parse`` gets
        the answer stripped and refuses it with CompanionError or ValueError (or a Click
        error: anything with ``format_message``), whose text is shown.
        """
        if self.ask is None:
            raise CompanionError("Nobody can be asked here: give the value on the command line.")
        while True:
            answer = self.ask(question, default).strip()
            try:
                return parse(answer)
            except (CompanionError, ValueError) as exc:
                message = getattr(exc, "message", None) or str(exc)
            except Exception as exc:  # click.BadParameter/UsageError: the core does not import Click
                if not hasattr(exc, "format_message"):
                    raise
                message = exc.format_message()
            (self.say or print)(f"{message} (Ctrl-C stops without recording anything.)")


def seated_names(value: Any, mapping: dict[str, str]) -> Any:
    """``value`` with every name a rename gave a seat (a text, or a key such as a score's)
    replaced by the seated name, so the event keeps its meaning whatever is renamed later."""
    from companion.core.text import name_key

    if isinstance(value, dict):
        return {mapping.get(name_key(k), k) if isinstance(k, str) else k: seated_names(v, mapping)
                for k, v in value.items()}
    if isinstance(value, list):
        return [seated_names(v, mapping) for v in value]
    if isinstance(value, str):
        return mapping.get(name_key(value.strip()), value)
    return value


def check_game(s: "sessions.Session", games: Iterable[str] | None, command: str) -> None:
    """Refuse a command of one game used on a session of another, saying how to switch."""
    if games is None:
        return
    games = tuple(games)
    if s.meta["game"] not in games:
        from companion.core import registry

        owner = registry.get(games[0]).title
        article = "an" if owner[:1].lower() in "aeiou" else "a"
        raise CompanionError(
            f"`{command or 'this command'}` is {article} {owner} command, but session {s.id} is "
            f"{s.game.title}: switch with `use ID` or start one with `new {games[0]} ...`."
        )
