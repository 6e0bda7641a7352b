"""The application object every command receives (``ctx.obj``).

It bundles what differs between a one-off command, script mode and the interactive shell:
the data folder, the session a command targets, and whether the user can be asked for a
value that was left out. Commands never reach for globals, so every path is testable.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable

from companion.core.errors import CompanionError

if TYPE_CHECKING:  # imported lazily: `companion --version` must not pay for TinyDB
    from companion.core import session as sessions
    from companion.core.store import Store

ENV_HOME = "COMPANION_HOME"


def default_data_dir() -> Path:
    """``COMPANION_HOME`` if set, else the platform's user data folder."""
    env = os.environ.get(ENV_HOME)
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("companion", appauthor=False))


@dataclass
class App:
    data_dir: Path
    session_override: str | None = None
    # Set by the interactive shell: ask(question, default) -> answer, or None when nobody can
    # answer (one-off commands and script mode never prompt).
    ask: Callable[..., str] | None = None
    # Set by the shell: show a private text (a hand) so that it leaves nothing in the scrollback.
    show_private: Callable[[str, str], None] | None = None
    interactive: bool = False
    _store: "Store | None" = field(default=None, repr=False)

    @property
    def store(self) -> "Store":
        if self._store is None:
            from companion.core import registry
            from companion.core.store import Store

            self._store = Store(self.data_dir)
            registry.use_cache_file(self._store.root / "cache" / "games.json")
        return self._store

    # -- choosing the session ----------------------------------------------------------------
    def session_id(self) -> str:
        if self.session_override:
            return self.store.resolve(self.session_override)
        sid = self.store.current()
        if not sid:
            raise CompanionError(
                "No current session: start one with `new GAME --players Ann,Bob` or pick one with "
                "`use ID` (`sessions` lists them)."
            )
        if not self.store.session_path(sid).exists():
            raise CompanionError(f"The current session {sid} is gone: pick another with `use ID`.")
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
