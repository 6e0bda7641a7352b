"""Pieces shared by every command module: the app decorator, `--session`, `--json`, `new`.

Kept here (not in each game's module) so the options read the same everywhere.
"""

from __future__ import annotations

import functools
import weakref
from typing import Any, Callable

import click

from companion.core.app import App
from companion.contract.errors import CompanionError
from companion.contract.language import N_, _, ngettext

pass_app = click.make_pass_decorator(App)


def completes(what: str) -> Callable:
    """A Click ``shell_complete`` for a parameter naming a session, a player, a game or a title:
    what the login shell's Tab offers, from the data folder (companion.core.completion)."""

    def complete(ctx: click.Context, param: click.Parameter, incomplete: str) -> list:
        from click.shell_completion import CompletionItem

        from companion.core import completion

        store = completion_store(ctx)
        if store is None:
            return []
        found = getattr(completion, what)(store, incomplete)
        return [CompletionItem(value, help=note) for value, note in found]

    return complete


def completion_store(ctx: click.Context):
    """The data folder a command line names (`--data-dir`, else the usual one), for completion."""
    from pathlib import Path

    from companion.core.app import default_data_dir
    from companion.core.store import Store

    try:
        root = ctx.find_root()
        app = root.obj if isinstance(root.obj, App) else None
        if app is not None:
            return app.store
        given = root.params.get("data_dir")
        return Store(Path(given) if given else default_data_dir())
    except Exception:  # noqa: BLE001 - completion never fails
        return None


SESSION_HELP = N_("Act on this session (an id or its first letters) instead of the current one.")

# `--session ID` is read in one place, the root group, wherever it stands on the line (it takes
# it out before the command's own options are parsed); this only lists it in a command's help.
session_option = click.option("--session", metavar="ID", expose_value=False, help=SESSION_HELP,
                              shell_complete=completes("sessions"))

def english_for_json(ctx, param, value):
    """`--json` is read by programs: its words (a log's lines, a refusal's reason) are made in
    English whatever the viewer's language, for the rest of the command (issue 28)."""
    if value:
        from companion.contract.language import for_the_rest

        for_the_rest("en")
    return value


json_option = click.option("--json", "as_json", is_flag=True, help=N_("Print JSON (a stable format for scripts)."),
                           callback=english_for_json)


def _screen() -> Any:
    """The surface drawing this command's views (App.screen: the terminal's renderer, set by the
    root group), or None outside a command line. A game never imports the terminal itself."""
    ctx = click.get_current_context(silent=True)
    app = ctx.find_object(App) if ctx is not None else None
    return app.screen if app is not None else None


def show(view: list) -> None:
    """Print a view (companion.contract.view) through the surface's renderer: a hand-written
    command's output, laid out like every other screen. Private blocks go to their owner's
    private screen in the shell and on a terminal."""
    screen = _screen()
    if screen is None:  # no surface (a library call): the words, without layout
        from companion.contract.view import plain

        click.echo(plain(view))
        return
    app = click.get_current_context().find_object(App)
    screen.show(view, private=app.show_private)


def screen_width() -> int:
    """The columns a screen has to fit into (the renderer's: the terminal's width, else
    $COLUMNS, else 80), for a drawing that must decide whether it fits (a board)."""
    screen = _screen()
    if screen is None:
        import shutil

        return shutil.get_terminal_size((80, 24)).columns
    return screen.screen_width()


def choose_private(owner: str, view: list, question: str, parse: Callable[[str], Any]) -> Any:
    """A hand-written command's private question: ``view`` (what ``owner`` may see while
    choosing, a hand) on ``owner``'s private screen, asked until ``parse`` accepts the answer;
    a refusal is said there only. None when there is no private screen (a pipe, a script)."""
    app = click.get_current_context().find_object(App)
    if app is None or app.choose_private is None:
        return None
    return app.choose_private(owner, app.screen.draw(view), question, parse)


# What the shell needs to know of a game's hand-written commands, kept here by command rather
# than hung on the Click objects (issue 27): whether a typed line names a private card, and
# the command's own completion.
_PRIVATE: "weakref.WeakKeyDictionary[click.Command, Callable[[list[str]], bool]]" = weakref.WeakKeyDictionary()
_COMPLETES: "weakref.WeakKeyDictionary[click.Command, Callable]" = weakref.WeakKeyDictionary()


def private_when(check: Callable[[list[str]], bool]) -> Callable[[click.Command], click.Command]:
    """Mark a hand-written command whose typed line may name a private card (``check(words)``,
    the words after the command's name): the shell keeps such a line out of its history."""

    def mark(cmd: click.Command) -> click.Command:
        _PRIVATE[cmd] = check
        return cmd

    return mark


def completes_with(offer: Callable) -> Callable[[click.Command], click.Command]:
    """Give a hand-written command its own completion in the shell: ``offer(session, replay,
    words, current) -> [(value, note)]`` (the words typed after its name, the one being typed)."""

    def mark(cmd: click.Command) -> click.Command:
        _COMPLETES[cmd] = offer
        return cmd

    return mark


def private_check(cmd: click.Command) -> Callable[[list[str]], bool] | None:
    """What :func:`private_when` said of ``cmd``, if anything."""
    return _PRIVATE.get(cmd)


def own_completion(cmd: click.Command) -> Callable | None:
    """What :func:`completes_with` gave ``cmd``, if anything."""
    return _COMPLETES.get(cmd)


# The `--json` outputs, each with its format's version (docs/json.md describes them, and
# tests/test_json_contract.py keeps the page in step): add keys freely; a version goes up only
# when a key changes its meaning or goes, which the contract forbids but a major release.
JSON_FORMATS = {
    "status": 1, "log": 1, "sessions": 1, "games": 1, "players": 1, "stats": 1, "ratings": 1, "played": 1,
    "sync-status": 1,
}


def with_format(value: Any, name: str, keyed: bool = False) -> Any:
    """``value`` carrying ``"format": "NAME/VERSION"``: an object gets the key last (its own keys
    keep their places); a list's objects each get it (a list has no keys of its own, and turning
    it into an object would break every script that reads it)."""
    tag = f"{name}/{JSON_FORMATS.get(name, 1)}"
    if isinstance(value, dict) and keyed:  # keyed by names (a ship's): each object, as a list's
        return {k: with_format(v, name) if isinstance(v, dict) else v for k, v in value.items()}
    if isinstance(value, dict):
        return {**{k: v for k, v in value.items() if k != "format"}, "format": tag}
    if isinstance(value, list):
        return [with_format(item, name) if isinstance(item, dict) else item for item in value]
    return value


def echo_json(value: Any, name: str | None = None, keyed: bool = False) -> None:
    """Print a `--json` output with its ``format`` (``name``: its format in :data:`JSON_FORMATS`;
    by default the command's own words joined by dashes, so a game's screens and hand-written
    commands carry one too: `market --json` is ``market/1``, `ship show --json` ``ship-show/1``).
    ``keyed``: an object keyed by names (a catalogue), whose values each carry the format."""
    if name is None:
        ctx = click.get_current_context(silent=True)
        words = ctx.command_path.split()[1:] if ctx is not None else []
        name = "-".join(words) or "output"
    import json  # (only for `--json`: a `status` imports no json, companion.core.json_read)

    click.echo(json.dumps(with_format(value, name, keyed), indent=2, ensure_ascii=False))


def split_names(value: str) -> list[str]:
    """`Ann,Bob, Cy` -> ['Ann', 'Bob', 'Cy'] (empty names are refused by the session layer)."""
    return [v.strip() for v in value.split(",")]


def parse_pairs(items: tuple[str, ...] | list[str], what: str = "NAME=N") -> dict[str, int]:
    """`Ann=3 Bob=-2` -> {'Ann': 3, 'Bob': -2}, refusing anything else in one clear line."""
    out: dict[str, int] = {}
    for item in items:
        name, sep, number = item.partition("=")
        if not sep or not name.strip():
            raise click.UsageError(_("{item!r} is not {what}: write it like Ann=12").format(item=item, what=what))
        try:
            value = int(number.strip())
        except ValueError:
            raise click.UsageError(_("{item!r}: {number!r} is not a whole number; write it like "
                                     "{name}=12").format(item=item, number=number, name=name)) from None
        if name.strip() in out:
            raise CompanionError(_("{name} is given twice: give each player once.").format(name=name.strip()))
        out[name.strip()] = value
    return out


def ask_players(app: App, game) -> str:
    """`new GAME` without --players: the shell asks for the names (again until they fit);
    a one-off command or a script is told what to add."""
    example = ",".join(["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"][: max(2, game.min_players)])
    if not app.can_ask():
        raise click.UsageError(_("Missing option '--players': name them in seat order, e.g. `new "
                                 "{id} --players {example}`.").format(id=game.id, example=example))
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

    if game.min_players != game.max_players:
        question = _("Players in seat order, separated by commas ({least} to {most} names, e.g. {example}): ")
    else:
        question = ngettext("Players in seat order, separated by commas ({least} name, e.g. {example}): ",
                            "Players in seat order, separated by commas ({least} names, e.g. {example}): ",
                            game.min_players)
    while True:
        text = app.ask_until(question.format(least=game.min_players, most=game.max_players, example=example), parse)
        words = spaced(text)
        if words is None:
            return text
        one = True
        try:
            sessions.check_players([text.strip()], game)
        except CompanionError:
            one = False  # one name would be too few players: only the spaces can be meant
        listed = ", ".join(words)
        asked = _("{n} players: {names}? [Y/n] (n: one player called '{name}') ") if one else \
            _("{n} players: {names}? [Y/n] (n: type the names again) ")
        asked = asked.format(n=len(words), names=listed, name=text.strip())

        def yes_no(answer: str) -> bool:
            if answer.casefold() in ("", "y", "yes"):
                return True
            if answer.casefold() in ("n", "no"):
                return False
            raise ValueError(_("Type y or n."))

        if app.ask_until(asked, yes_no):
            return ",".join(words)
        if one:
            return text


def ask_start(app: App, game, players: list[str]) -> str | None:
    """`new GAME` in the shell without --start: the rulebook's question for who starts (Trans:
    the oldest player), asked until it names a player; Enter keeps the first named."""
    if not game.start_question or not app.can_ask():
        return None
    from companion.contract.api import player_name

    def parse(text: str) -> str:
        return player_name(players, text) if text else players[0]

    return app.ask_until(_("{question} ({names}; Enter: {first}): ").format(
        question=_(game.start_question), names=", ".join(players), first=players[0]), parse, optional=True)


def parse_roles(text: str | None, names: list[str]) -> dict[str, str] | None:
    """`--roles Ann=red,Bob=Mayor` -> {seated name: colour or role}: what each player played as."""
    from companion.contract.api import player_name

    if text is None:
        return None
    out: dict[str, str] = {}
    for part in (p.strip() for p in text.split(",") if p.strip()):
        name, sep, role = part.partition("=")
        role = " ".join(role.split())
        if not sep or not name.strip() or not role:
            raise click.UsageError(_("--roles: {part!r} is not NAME=ROLE: write it like --roles "
                                     "Ann=red,Bob=Mayor").format(part=part))
        if len(role) > ROLE_MAX or not role.isprintable():
            raise CompanionError(_("A colour or role is one line of at most {ROLE_MAX} "
                                   "characters.").format(ROLE_MAX=ROLE_MAX))
        out[player_name(names, name)] = role
    return {p: out[p] for p in names if p in out} or None


ROLE_MAX = 40


def _new_options(game, params: list) -> list:
    """The options every `new GAME` has, then the game's own: --players, --start, --played-on,
    --location, --roles, and --entropy for a game that deals."""
    players = click.Option(["--players"], metavar="A,B,C",
                           help=N_("Names in seat order, comma-separated ({low} to {high})."))
    players.help_values = {"low": game.min_players, "high": game.max_players}  # filled in once translated
    return [
        players,
        click.Option(["--start"], metavar="NAME", help=N_("Who starts (default: the first named).")),
        click.Option(["--played-on"], metavar="YYYY-MM-DD[THH:MM]",
                     help=N_("When it was played, for a game typed in later (stats order by this).")),
        click.Option(["--location"], metavar="TEXT", help=N_("Where it is played (kept with the session).")),
        click.Option(["--roles"], metavar="Ann=red,Bob=Mayor", help=N_("Each player's colour or role (kept with "
                                                                     "the session, and in the exports).")),
        *([click.Option(["--entropy"], metavar="TEXT",
                        help=N_("Your own words mixed into every shuffle, so nobody alone picks the cards."))]
          if game.deals else []),
        *params,
    ]


def _announce(app: App, game, s, start: str | None, extra: dict) -> None:
    """`New session ID: TITLE with Ann, Bob (Ann starts), played on ...`, and the deal's
    commitment on a line of its own (64 characters, copied whole)."""
    whole, wrap = app.screen.whole, app.screen.wrap
    # who starts, once it is known: a game whose rules decide it later says how
    starts = _(game.start_rule) if game.start_rule and not start else \
        _("{name} starts").format(name=whole(s.players[0]))
    values = dict(id=s.id, title=_(s.title), names=", ".join(whole(p) for p in s.players), starts=starts,
                  on=extra["played_on"], where=extra["location"])
    if extra["played_on"] and extra["location"]:
        said = _("New session {id}: {title} with {names} ({starts}), played on {on} at {where}.")
    elif extra["played_on"]:
        said = _("New session {id}: {title} with {names} ({starts}), played on {on}.")
    elif extra["location"]:
        said = _("New session {id}: {title} with {names} ({starts}), at {where}.")
    else:
        said = _("New session {id}: {title} with {names} ({starts}).")
    click.echo(wrap(said.format(**values)))
    if s.meta.get("commitment"):
        click.echo(_("Deal commitment (SHA-256 of the secret seed):") + f"\n  {s.meta['commitment']}")
        click.echo(wrap(_("`verify` shows the seed when the game is over, so anyone can check every deal.")))


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
                     roles: str | None = None, entropy: str | None = None, **kwargs):
            app = click.get_current_context().find_object(App)
            from companion.core import session as sessions

            extra = {"played_on": sessions.parse_played_on(played_on), "location": sessions.parse_location(location)}
            options = fn(**kwargs) or {}
            members = options.pop("_players", None)  # a score sheet's teams name its players
            if players is None and members:
                players = ",".join(members)
            if players is None:
                players = ask_players(app, game)
            if start is None:
                start = ask_start(app, game, split_names(players))
            if start and game.records_start:
                # the game checks a chosen start player against its rules (Transatlantic: the
                # owner of the oldest ship starts), so it must know one was chosen
                options["start"] = start.strip()
            if game.deals and entropy is None and app.can_ask():
                entropy = app.ask_optional(_("Words from the players to mix into the shuffle (Enter to skip): "))

            if roles is not None:  # each player's colour or role (issue 23), by the names as typed
                typed = sessions.check_players(split_names(players), game)
                extra["roles"] = parse_roles(roles, typed)
            remember = options.pop("_remember", None)
            s = sessions.create(app.store, game_id, split_names(players), options, start, entropy or "", extra)
            if remember is not None:
                from companion.core import titles

                titles.remember(app.store, *remember)
            app.pin(s.id)  # a shell or a script stays on the session it started itself
            _announce(app, game, s, start, extra)
            if app.offer_setup is not None:  # the shell: "5 printed values are not known yet: set them up now?"
                app.offer_setup(game_id)
            return s

        params = list(getattr(fn, "__click_params__", []))
        params.reverse()
        return click.Command(
            game_id,
            callback=callback,
            params=_new_options(game, params),
            help=f"Start a {game.title} session. {fn.__doc__ or ''}".strip(),
            short_help=game.description,
        )

    return decorator


# -- a score sheet's game: its title and how it is played (issue 23) ----------------------------

def sheet_options(fn: Callable) -> Callable:
    """The options naming a game without rules of its own (`new scoresheet`, `played`): its
    title, how it is won, teams, co-op, no points, its tie-breaker and its BoardGameGeek id.
    The flags default to None: a title remembers what was said of it until it is said again."""
    for option in reversed([
        click.option("--title", metavar="NAME", help=N_("The game's name (Carcassonne): remembered with the options "
                                                     "below, and counted as its own game in the history."),
                     shell_complete=completes("titles")),
        click.option("--lowest-wins/--highest-wins", "lowest_wins", default=None,
                     help=N_("The lowest total wins (as in golf or Hearts); --highest-wins undoes a remembered one.")),
        click.option("--teams", metavar='"Ann+Bob,Cy+Dee"',
                     help=N_("Teams: a team's points add up and its members win or lose together.")),
        click.option("--coop/--competitive", "coop", default=None,
                     help=N_("A co-operative game: everyone wins or loses together.")),
        click.option("--no-points/--points", "no_points", default=None,
                     help=N_("A game without points: the winners are named.")),
        click.option("--tie-breaker", "tie_break", metavar="TEXT",
                     help=N_("What the rules settle a tie for first by (most money): the winner is then named.")),
        click.option("--bgg-id", "bgg_id", metavar="N",
                     help=N_("The game's BoardGameGeek id (the number in its address), for the exports.")),
    ]):
        fn = option(fn)
    return fn


def split_teams(text: str | None) -> list[list[str]] | None:
    """`Ann+Bob,Cy+Dee` -> [['Ann', 'Bob'], ['Cy', 'Dee']] (a `=POINTS` after a team is left for
    the caller: see :func:`team_points`)."""
    if text is None:
        return None
    teams = [[n.strip() for n in part.split("=", 1)[0].split("+")] for part in text.split(",") if part.strip()]
    if any(not n for t in teams for n in t) or len(teams) < 2:
        raise click.UsageError(_("--teams {text!r} is not teams: write them like --teams "
                                 "\"Ann+Bob,Cy+Dee\"").format(text=text))
    return teams


def team_points(text: str | None) -> list | None:
    """The points after each team of `Ann+Bob=52,Cy+Dee=47` ([52, 47]), None when none is given."""
    from companion.contract.numbers import parse_points

    if text is None or "=" not in text:
        return None
    out = []
    for part in (p for p in text.split(",") if p.strip()):
        team, sep, points = part.partition("=")
        value = parse_points(points) if sep else None
        if value is None:
            raise click.UsageError(_("{part!r}: give every team its points, e.g. --teams "
                                     "\"Ann+Bob=52,Cy+Dee=47\"").format(part=part.strip()))
        out.append(value)
    return out


def sheet_setup(named: dict, game_title: bool = True) -> dict:
    """A score sheet's options from :func:`sheet_options`' values: a title's remembered
    options filled in (and what was given remembered), the teams read. ``_players`` holds the
    teams' members, in order, for a `new` given no --players."""
    from companion.core import titles

    app = click.get_current_context().find_object(App)
    given = {k: named.get(k) for k in ("lowest_wins", "coop", "no_points")}
    tie = named.get("tie_break")
    if tie is not None:
        tie = " ".join(tie.split())
        if not tie or len(tie) > 100 or not tie.isprintable():
            raise CompanionError(_("The tie-breaker is one line of at most 100 characters: "
                                   "--tie-breaker \"most money\""))
        given["tie_break"] = tie
    given["bgg_id"] = titles.check_bgg_id(named.get("bgg_id"))
    options: dict[str, Any] = {}
    title = named.get("title")
    if title is not None:
        title = titles.check_title(title)
        refuse_known_game(title)
        record = titles.merged(app.store, title, given)
        options.update(titles.options_of(record))
        options["_remember"] = (title, given)  # written once the session is (a refusal changes nothing)
    else:
        if given["bgg_id"] is not None:
            raise CompanionError(_("--bgg-id names the game of a --title: add --title "
                                   "\"Carcassonne\"."))
        options.update({k: True for k in ("coop", "no_points") if given.get(k)})
        if given.get("tie_break"):
            options["tie_break"] = given["tie_break"]
    options["lowest_wins"] = bool(given["lowest_wins"]) if given["lowest_wins"] is not None \
        else bool(options.get("lowest_wins"))
    teams = split_teams(named.get("teams"))
    if teams is not None:
        options["teams"] = teams
        options["_players"] = [n for t in teams for n in t]
    return options


def refuse_known_game(title: str) -> None:
    """A title that names a game the companion has rules for is that game, never a sheet."""
    from companion.core import registry
    from companion.contract.text import name_key

    wanted = name_key(title)
    for gid in registry.available():
        shown = gid
        try:
            shown = registry.get(gid).title
        except CompanionError:
            pass
        if wanted in (name_key(gid), name_key(shown)):
            raise CompanionError(_("{title} is a game the companion knows: `new {gid}` plays it "
                                   "with its rules, and `played {gid} ...` logs it.").format(title=title, gid=gid))


def said(message: str, **values: Any) -> list:
    """The parts of a translated message for a view's ``Line`` (issue 28): the contract's
    :func:`companion.contract.view.message`, named here for the games that say it so."""
    from companion.contract.view import message as parts

    return parts(message, **values)


def and_list(items) -> str:
    """Names joined by "and" in the viewer's language (``Ann and Bob`` / ``Ann und Bob``)."""
    from companion.contract.language import _

    return _(" and ").join(str(i) for i in items)


def ask_card_name(at, n: int, key) -> str | None:
    """`data setup`'s question for the name of ship card ``n`` (Transatlantic's, Atlantic Star's):
    ``key`` makes the name a data key; a name with a dot is asked again (a dot would split the
    key); None when Enter alone says there is no card left."""
    from companion.contract.language import _

    def name_of(text: str) -> str:
        found = key(text)
        if "." in found:
            raise ValueError(_("Write the ship's name without dots (e.g. {name}).").format(name=found.replace(".", "")))
        return found

    return at.ask_until(_("Ship card {n}: its name (Enter: done): ").format(n=n), name_of, optional=True)
