"""Pieces shared by every command module: the app decorator, `--session`, `--json`, `new`.

Kept here (not in each game's module) so the options read the same everywhere.
"""

from __future__ import annotations

import functools
import json
from typing import Any, Callable, Iterable

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


def say(text: str, names: Iterable[str] = ()) -> None:
    """A message wrapped to the screen at spaces, never inside one of ``names`` (a ship, a
    player: CITY OF NEW YORK, Bartholomew Jones) nor inside a command to type that fits on a
    line: 80 columns would cut it mid-word otherwise."""
    from companion.terminal.render import keep_whole, wrap

    click.echo(wrap(keep_whole(text, names)))


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

    def spaced(text: str) -> list[str] | None:
        """`Ann Bob Cy Dee` (no comma): the names the spaces would give, when they fit."""
        words = text.split()
        if "," in text or len(words) < 2:
            return None
        try:
            sessions.check_players(words, game)
        except CompanionError:
            return None
        return words

    def parse(text: str) -> str:
        if spaced(text) is None:
            sessions.check_players(split_names(text), game)
        return text

    span = f"{game.min_players} to {game.max_players} names" if game.min_players != game.max_players \
        else f"{game.min_players} names"
    while True:
        text = app.ask_until(f"Players in seat order, separated by commas ({span}, e.g. {example}): ", parse)
        words = spaced(text)
        if words is None:
            return text
        one = True
        try:
            sessions.check_players([text.strip()], game)
        except CompanionError:
            one = False  # one name would be too few players: only the spaces can be meant
        listed = ", ".join(words)
        question = (f"{len(words)} players: {listed}? [Y/n]" + (f" (n: one player called '{text.strip()}')" if one
                                                                else " (n: type the names again)") + " ")

        def yes_no(answer: str) -> bool:
            if answer.casefold() in ("", "y", "yes"):
                return True
            if answer.casefold() in ("n", "no"):
                return False
            raise ValueError("Type y or n.")

        if app.ask_until(question, yes_no):
            return ",".join(words)
        if one:
            return text


def ask_start(app: App, game, players: list[str]) -> str | None:
    """`new GAME` in the shell without --start: the rulebook's question for who starts (Trans:
    the oldest player), asked until it names a player; Enter keeps the first named."""
    if not game.start_question or not app.can_ask():
        return None
    from companion.games.api import player_name

    def parse(text: str) -> str:
        return player_name(players, text) if text else players[0]

    return app.ask_until(f"{game.start_question} ({', '.join(players)}; Enter: {players[0]}): ", parse,
                         optional=True)


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
            if start is None:
                start = ask_start(app, game, split_names(players))
            if start and game.records_start:
                # the game checks a chosen start player against its rules (Transatlantic: the
                # owner of the oldest ship starts), so it must know one was chosen
                options["start"] = start.strip()
            if game.deals and entropy is None and app.can_ask():
                entropy = app.ask_optional("Words from the players to mix into the shuffle (Enter to skip): ")

            s = sessions.create(app.store, game_id, split_names(players), options, start, entropy or "", extra)
            app.pin(s.id)  # a shell or a script stays on the session it started itself
            when = "".join(f" {w} {extra[k]}" for k, w in (("played_on", "played on"), ("location", "at"))
                           if extra[k])
            from companion.terminal.render import whole, wrap

            # who starts, once it is known: a game whose rules decide it later says how
            starts = game.start_rule if game.start_rule and not start else f"{whole(s.players[0])} starts"
            click.echo(wrap(f"New session {s.id}: {game.title} with {', '.join(whole(p) for p in s.players)} "
                            f"({starts}){',' + when if when else ''}."))
            if s.meta.get("commitment"):  # the hash on a line of its own: 64 characters, copied whole
                click.echo(f"Deal commitment (SHA-256 of the secret seed):\n  {s.meta['commitment']}")
                click.echo(wrap("`verify` shows the seed when the game is over, so anyone can check every deal."))
            if app.offer_setup is not None:  # the shell: "5 printed values are not known yet: set them up now?"
                app.offer_setup(game_id)
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
