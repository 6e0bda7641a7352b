"""Pieces shared by every command module: the app decorator, `--session`, `--json`, `new`.

Kept here (not in each game's module) so the options read the same everywhere.
"""

from __future__ import annotations

import functools
import json
from typing import Any, Callable

import click

from companion.core.app import App
from companion.core.errors import CompanionError

pass_app = click.make_pass_decorator(App)


SESSION_HELP = "Act on this session (an id or its first letters) instead of the current one."

# `--session ID` is read in one place, the root group, wherever it stands on the line (it takes
# it out before the command's own options are parsed); this only lists it in a command's help.
session_option = click.option("--session", metavar="ID", expose_value=False, help=SESSION_HELP)

json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON (a stable format for scripts).")


def show(view: list) -> None:
    """Print a view (companion.games.view) through the terminal's renderer: a hand-written
    command's output, laid out like every other screen. Private blocks go to their owner's
    private screen in the shell and on a terminal."""
    from companion.terminal.render import show as draw_view

    app = click.get_current_context().find_object(App)
    draw_view(view, private=app.show_private if app is not None else None)


def screen_width() -> int:
    """The columns a screen has to fit into (the renderer's: the terminal's width, else
    $COLUMNS, else 80), for a drawing that must decide whether it fits (a board)."""
    from companion.terminal.render import screen_width as width

    return width()


def choose_private(owner: str, view: list, question: str, parse: Callable[[str], Any]) -> Any:
    """A hand-written command's private question: ``view`` (what ``owner`` may see while
    choosing, a hand) on ``owner``'s private screen, asked until ``parse`` accepts the answer;
    a refusal is said there only. None when there is no private screen (a pipe, a script)."""
    app = click.get_current_context().find_object(App)
    if app is None or app.choose_private is None:
        return None
    from companion.terminal.render import draw

    return app.choose_private(owner, draw(view), question, parse)


def private_when(check: Callable[[list[str]], bool]) -> Callable[[click.Command], click.Command]:
    """Mark a hand-written command whose typed line may name a private card (``check(words)``,
    the words after the command's name): the shell keeps such a line out of its history."""

    def mark(cmd: click.Command) -> click.Command:
        cmd.companion_private = check
        return cmd

    return mark


def echo_json(value: Any) -> None:
    click.echo(json.dumps(value, indent=2, ensure_ascii=False))


def split_names(value: str) -> list[str]:
    """`Ann,Bob, Cy` -> ['Ann', 'Bob', 'Cy'] (empty names are refused by the session layer)."""
    return [v.strip() for v in value.split(",")]


def parse_pairs(items: tuple[str, ...] | list[str], what: str = "NAME=N") -> dict[str, int]:
    """`Ann=3 Bob=-2` -> {'Ann': 3, 'Bob': -2}, refusing anything else in one clear line."""
    out: dict[str, int] = {}
    for item in items:
        name, sep, number = item.partition("=")
        if not sep or not name.strip():
            raise click.UsageError(f"{item!r} is not {what}: write it like Ann=12")
        try:
            value = int(number.strip())
        except ValueError:
            raise click.UsageError(f"{item!r}: {number!r} is not a whole number; write it like {name}=12") from None
        if name.strip() in out:
            raise CompanionError(f"{name.strip()} is given twice: give each player once.")
        out[name.strip()] = value
    return out


def ask_players(app: App, game) -> str:
    """`new GAME` without --players: the shell asks for the names (again until they fit);
    a one-off command or a script is told what to add."""
    example = ",".join(["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"][: max(2, game.min_players)])
    if not app.can_ask():
        raise click.UsageError(f"Missing option '--players': name them in seat order, e.g. "
                               f"`new {game.id} --players {example}`.")
    from companion.core import session as sessions

    def parse(text: str) -> str:
        sessions.check_players(split_names(text), game)
        return text

    span = f"{game.min_players} to {game.max_players} names" if game.min_players != game.max_players \
        else f"{game.min_players} names"
    return app.ask_until(f"Players in seat order ({span}, e.g. {example}): ", parse)


def new_command(game) -> Callable:
    """Make `new GAME` from a function returning the game's options; ``game`` is the game's
    class (its facts: id, title, players, whether it deals).

    Adds --players, --start, and --entropy for games that deal; creates the session, makes it
    current and prints its id (and the deal commitment).
    """

    def decorator(fn: Callable[..., dict]) -> click.Command:
        game_id = game.id

        @functools.wraps(fn)
        def callback(players: str | None, start: str | None, played_on: str | None, location: str | None,
                     entropy: str | None = None, **kwargs):
            app = click.get_current_context().find_object(App)
            from companion.core import session as sessions

            extra = {"played_on": sessions.parse_played_on(played_on), "location": sessions.parse_location(location)}
            options = fn(**kwargs) or {}
            if players is None:
                players = ask_players(app, game)
            if start and game.records_start:
                # the game checks a chosen start player against its rules (Transatlantic: the
                # owner of the oldest ship starts), so it must know one was chosen
                options["start"] = start.strip()
            if game.deals and entropy is None and app.can_ask():
                entropy = app.ask("Words from the players to mix into the shuffle (Enter to skip): ", "")

            s = sessions.create(app.store, game_id, split_names(players), options, start, entropy or "", extra)
            app.pin(s.id)  # a shell or a script stays on the session it started itself
            when = "".join(f" {w} {extra[k]}" for k, w in (("played_on", "played on"), ("location", "at"))
                           if extra[k])
            from companion.terminal.render import whole, wrap

            click.echo(wrap(f"New session {s.id}: {game.title} with {', '.join(whole(p) for p in s.players)} "
                            f"({whole(s.players[0])} starts){',' + when if when else ''}."))
            if s.meta.get("commitment"):  # the hash on a line of its own: 64 characters, copied whole
                click.echo(f"Deal commitment (SHA-256 of the secret seed):\n  {s.meta['commitment']}")
                click.echo(wrap("`verify` shows the seed when the game is over, so anyone can check every deal."))
            return s

        params = list(getattr(fn, "__click_params__", []))
        params.reverse()
        params = [
            click.Option(["--players"], metavar="A,B,C",
                         help=f"Names in seat order, comma-separated ({game.min_players} to {game.max_players})."),
            click.Option(["--start"], metavar="NAME", help="Who starts (default: the first named)."),
            click.Option(["--played-on"], metavar="YYYY-MM-DD[THH:MM]",
                         help="When it was played, for a game typed in later (stats order by this)."),
            click.Option(["--location"], metavar="TEXT", help="Where it is played (kept with the session)."),
            *([click.Option(["--entropy"], metavar="TEXT",
                            help="Your own words mixed into every shuffle, so nobody alone picks the cards.")]
              if game.deals else []),
            *params,
        ]
        return click.Command(
            game_id,
            callback=callback,
            params=params,
            help=f"Start a {game.title} session. {fn.__doc__ or ''}".strip(),
            short_help=game.description,
        )

    return decorator
