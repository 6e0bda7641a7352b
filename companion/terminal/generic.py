"""Commands every game shares: games, new, sessions, use, status, log, undo, redo, verify, board."""

from __future__ import annotations

from companion.contract.language import N_, _, ngettext  # noqa: F401

import click

from companion.core.app import App

from companion.contract.text import safe_text, strings_in
from companion.core import registry
from companion.core import session as sessions
from companion.games.kit import completes, echo_json, json_option, pass_app, session_option
from companion.contract.errors import CompanionError
from companion.contract.exit import Exit
from companion.core.store import without_cycle_collection
from companion.terminal.status import status  # noqa: F401 (its own module: the start of a `status`)


@click.command(help=N_("List the games the companion knows, with their ids for `new`; a game that could not be\n"
    "loaded is named with its distribution and what is wrong with it."))
@click.option("--verbose", "-v", is_flag=True, help=N_("Also what each game provides: its distribution, moves, "
                                                    "screens, commands and views."))
@json_option
@pass_app
def games(app, verbose: bool, as_json: bool) -> None:
    from companion.terminal.render import wrap

    if as_json:
        echo_json(games_json(app), "games")
        return
    for gid in registry.available():
        game = registry.get(gid)
        click.echo(wrap(f"{gid:<15} {_(game.description)}", indent=" " * 16))
        if verbose:
            for line in provides(gid):
                click.echo(wrap(f"{'':<15} {line}", indent=" " * 18))
    for line in registry.problems():
        click.echo(wrap(_("Not loaded: {problem}").format(problem=line), indent="  "))


def games_json(app) -> dict:
    """`games --json`: the installed games (id, title, description, players, whether they deal,
    BoardGameGeek id), those that failed to load, and the group's own titles (issue 23)."""
    from companion.core import titles
    from companion.record.plays import pack_bgg_id

    rows = []
    for gid in registry.available():
        game = registry.get(gid)
        rows.append({"id": gid, "title": game.title, "description": game.description,
                     "min_players": game.min_players, "max_players": game.max_players, "deals": game.deals,
                     "tie_break": game.tie_break, "bgg_id": pack_bgg_id(app.store, gid)})
    named = [{"title": r["title"], "game": "scoresheet", "lowest_wins": bool(r.get("lowest_wins")),
              "coop": bool(r.get("coop")), "no_points": bool(r.get("no_points")), "tie_break": r.get("tie_break") or "",
              "bgg_id": r.get("bgg_id")}
             for r in sorted(titles.load(app.store).values(), key=lambda r: r["title"].casefold())]
    return {"games": rows, "not_loaded": registry.problems(), "titles": named}


@click.command(help=N_("Print the Tab completion script for bash, zsh or fish (README: how to install it).\n"
    "\n"
    "With it, Tab completes the commands and their options, and from your data folder the\n"
    "session ids (with their game and day), players, games and titles."))
@click.argument("shell_name", metavar="SHELL", type=click.Choice(["bash", "zsh", "fish"]))
@click.pass_context
def completion(ctx: click.Context, shell_name: str) -> None:
    from companion.terminal.login_completion import source

    click.echo(source(ctx.find_root().command, shell_name))


def provides(game_id: str) -> list[str]:
    """`games --verbose`: what one game provides of the contract, and what it leaves out."""
    from companion.contract.api import MOVES_PARTS, VIEWS_PARTS
    from companion.terminal.declared import commands_of

    found = registry.parts(game_id)
    game = found.game
    moves = [m.name for m in found.get("MOVES") or []]
    screens = [m.name for m in found.get("SCREENS") or []]
    hand = sorted(found.get("COMMANDS") or {})
    views = [v for v in VIEWS_PARTS if found.get(v) is not None]
    lacks = [v for v in [*VIEWS_PARTS, *MOVES_PARTS] if not found.get(v)]
    secrets = type(game).view is not registry_view()
    players = {"low": game.min_players, "high": game.max_players}
    if game.deals:
        count = (_("{low} to {high} players; deals cards (verifiable); hides cards (view)") if secrets else
                 _("{low} to {high} players; deals cards (verifiable); nothing secret")).format(**players)
    else:
        count = (_("{low} to {high} players; hides cards (view)") if secrets else
                 _("{low} to {high} players; nothing secret")).format(**players)
    none = _("none")
    out = [_("from {distribution} {version} ({target})").format(distribution=found.distribution, version=found.version,
                                                                target=found.target),
           count,
           _("moves: {names}").format(names=", ".join(moves) or none),
           _("screens: {names}").format(names=", ".join(screens) or none),
           _("hand-written commands: {names}").format(names=", ".join(hand) or none),
           _("views: {names}").format(names=", ".join(views)),
           _commands_in_all(game_id, commands_of)]
    if game.pack_file or game_id in __import__("companion.core.datapack", fromlist=["x"]).pack_names():
        out.append(_("printed values: {file}").format(file=game.pack_file or f"data/{game_id}.json"))
    if lacks:
        out.append(_("leaves out: {names}").format(names=", ".join(lacks)))
    if found.old_names:
        out.append(_("imports by their old names: {names}").format(names=", ".join(found.old_names)))
    return out


def _commands_in_all(game_id: str, commands_of) -> str:
    """How many commands a game makes; a plugin whose commands cannot be made is named, and
    the other games are still listed."""
    try:
        return _("commands in all: {count}").format(count=len(commands_of(game_id)))
    except Exception as exc:  # noqa: BLE001 - told apart: a plugin's failure is said, the companion's raised
        from companion.core import plugins

        parts = plugins.at_fault(exc, game_id)
        if parts is None:
            raise
        return _("commands: none could be made: {problem}").format(problem=plugins.failed(parts, exc))


def registry_view():
    from companion.contract.api import Game

    return Game.view


class NewGroup(click.Group):
    """`new GAME`: one subcommand per installed game, each declared by the game itself."""

    def list_commands(self, ctx):
        return [gid for gid in registry.available() if self.get_command(ctx, gid) is not None]

    def get_command(self, ctx, name):
        cmd = super().get_command(ctx, name)
        if cmd is not None:
            return cmd
        try:
            cmd = (registry.parts(name).get("NEW") or {}).get(name)
        except CompanionError as exc:
            if name in registry.known():  # installed, but it did not load: say why, by its name
                raise click.UsageError(exc.message, ctx=ctx) from None
            return None
        if cmd is not None:
            self.add_command(cmd, name)
        return cmd


@click.group(cls=NewGroup, help=N_("Start a session: `new GAME --players Ann,Bob,Cy` (see `new GAME --help`)."))
def new() -> None:
    pass


def _current_or_none(app) -> str | None:
    """The current session, to mark it in the list; a damaged settings file marks none (the
    list needs no current session) and says so on stderr, once."""
    try:
        return app.store.current()
    except CompanionError as exc:
        click.echo(_("Note: {note} (no session is marked current below)").format(note=exc.message), err=True)
        return None


@click.command("sessions", help=N_("List the stored sessions by the day they were played, newest last; * marks the current one."))
@json_option
@click.option("--game", metavar="GAME", help=N_("Only sessions of this game (an id from `games`, or a title)."),
              shell_complete=completes("games"))
@click.option("--player", metavar="NAME", help=N_("Only sessions this player sat in."), shell_complete=completes("players"))
@click.option("--since", metavar="DATE", help=N_("Only sessions played on or after DATE (YYYY-MM-DD)."))
@click.option("--until", metavar="DATE", help=N_("Only sessions played on or before DATE (YYYY-MM-DD)."))
@click.option("--finished", "state", flag_value="finished", help=N_("Only finished sessions."))
@click.option("--in-play", "state", flag_value="in-play", help=N_("Only sessions still in play."))
@click.option("--deleted", is_flag=True, help=N_("List the bin instead: sessions `delete` moved out (`restore ID`)."))
@pass_app
@without_cycle_collection()
def sessions_cmd(app, as_json: bool, game: str | None, player: str | None, since: str | None, until: str | None,
                 state: str | None, deleted: bool) -> None:
    from companion.record import players as registry
    from companion.record import stats as history

    if deleted:
        from companion.record import trash

        entries = trash.listing(app.store)
    else:
        entries = sessions.index(app.store)
    roster = history.ShowOnce(registry.roster(app.store, entries))  # names as renamed and merged by `player`
    if game:
        key = history.check_game(game, entries)
        entries = [e for e in entries if history.game_key(e) == key]
    if player:
        wanted = roster.key(player.strip())
        entries = [e for e in entries if wanted in {roster.key(p) for p in e["players"]}]
    first, last = history.parse_since(since), history.parse_since(until)
    if first or last:
        entries = [e for e in entries if (not first or history.played_date(e) >= first)
                   and (not last or history.played_date(e) <= last)]
    if state == "finished":
        entries = [e for e in entries if history.finished(e)]
    elif state == "in-play":
        entries = [e for e in entries if not e.get("finished") and not history.abandoned(e)]
    # by the day played (a game typed in later with --played-on takes its place), then as typed
    days = {e["id"]: history.played_date(e) for e in entries}
    entries = sorted(entries, key=lambda e: days[e["id"]])  # stable: the index's order within a day
    current = app.pinned if app.pinning else _current_or_none(app)  # a shell marks its own
    if as_json:
        echo_json([dict(e, current=e["id"] == current, date=days[e["id"]], title=history.title(history.game_key(e)),
                        fork=e.get("fork"))  # issue 30: two laptops continued it (null: no fork)
                   for e in entries], "sessions")
        return
    if not entries:
        filtered = game or player or since or until or state
        click.echo(_("The bin is empty: `delete ID` moves a session there.") if deleted else
                   _("No sessions match.") if filtered else
                   _("No sessions yet: start one with `new GAME --players Ann,Bob`."))
        return
    from companion.terminal.render import screen_width, table

    width = screen_width()
    rows = []
    titles: dict[str, str] = {}
    for e in entries:
        key = history.game_key(e)
        if key not in titles:
            titles[key] = history.shown_title(key)
        result = _("deleted: `restore {id}`").format(id=e["id"]) if deleted else session_state(e, roster)
        if e.get("fork") and not deleted:  # issue 30: shown on every laptop until someone chooses
            from companion.contract.language import pgettext

            result = pgettext("sessions", "fork")
        rows.append(["*" if e["id"] == current else "", e["id"], days[e["id"]], titles[key],
                     ", ".join(roster.show(p) for p in e["players"]), result])
    headers = ["", _("id"), _("played"), _("game"), _("players"), _("result")]
    if width < 40:  # a plain list, one session a line, led by its id (and * for the current one)
        headers, rows = headers[1:], [[r[1] + (" *" if r[0] else "")] + r[2:] for r in rows]
    elif width < 70:  # a narrow screen drops the players (the result names the winners) before cutting cells
        headers, rows = headers[:4] + headers[5:], [r[:4] + r[5:] for r in rows]
    click.echo(table(headers, rows, width=width))


def session_state(entry: dict, roster) -> str:
    """`sessions`' result column: who won (a team, everyone together), abandoned (and why), or
    in play."""
    summary = entry.get("summary") or {}
    if entry.get("finished"):
        if summary.get("coop"):
            return _("won together") if summary.get("won") else _("lost together")
        won = [roster.show(w) for w in summary.get("winners") or []]
        teams = summary.get("teams") or []
        team = next((t for t in teams if set(t) == set(summary.get("winners") or [])), None)
        if team is not None:
            return _("won by {names}").format(names="+".join(roster.show(p) for p in team))
        return _("won by {names}").format(names=", ".join(won)) if won else _("finished, no winner")
    if "abandoned_at" in summary:
        if summary.get("reason"):
            return _("abandoned: {reason}").format(reason=summary["reason"])
        return _("abandoned")
    return _("in play")


@click.command(help=N_("Make session ID (or the first letters of its id) the current one."))
@click.argument("session_id", metavar="ID", shell_complete=completes("sessions"))
@pass_app
def use(app, session_id: str) -> None:
    sid = app.store.resolve(session_id)
    s, _replay = app.loaded(sid)
    with app.store.writing():
        app.store.set_current(sid)
    app.pin(sid)  # a shell or a script stays here, whatever another terminal does
    click.echo(_("Now using session {id}: {game} with {players}.").format(id=sid, game=_(s.game.title),
                                                                          players=", ".join(s.players)))


@click.command(help=N_("List the session's events, numbered, in words."))
@json_option
@session_option
@pass_app
def log(app, as_json: bool) -> None:
    s = app.session()
    replay = s.replay()  # one replay: its events and undone ones are the journal's fold
    done, undone = replay.events, replay.undone
    seen = Exit(s, replay)  # the table's: a secret is left out of the words and the JSON alike
    rows = [
        {"n": n, "at": e.get("at"), "type": e["event"].get("type"), "words": seen.words(e["event"]),
         "event": seen.event(e["event"])}
        for n, e in enumerate(done, 1)
    ]
    if as_json:
        echo_json(rows, "log")
        return
    if not rows:
        click.echo(_("Session {id}: nothing recorded yet.").format(id=s.id))
    from companion.terminal.render import keep_whole, wrap

    names = long_names(s, replay)
    for r in rows:
        r = dict(r, words=keep_whole(r["words"], names))
        head = f"{r['n']:>3}. {sessions.clock(s.meta, r['at']) or '     '}  "
        lead = len(head) - len(head.lstrip(" "))
        click.echo(wrap(head + r["words"], indent=" " * (len(head) - lead)))  # continued under the words
    if undone:
        click.echo(wrap(ngettext("({n} undone event: `redo` brings back {words})",
                                 "({n} undone events: `redo` brings back {words})", len(undone)).format(
            n=len(undone), words=seen.words(undone[0]["event"]))))


def long_names(s, replay) -> list[str]:
    """The session's names with a space in them (players, and every name the table's view of
    the state holds: cities, ships), longest first: a line wraps between words, never inside
    one of these (see render.keep_whole)."""
    found = set(s.players)
    try:
        strings_in(s.game.view(replay.state, None), found)
        strings_in(replay.data.get("cities") or [], found)
    except Exception:  # noqa: BLE001 - a nicety: the line still wraps
        pass
    return sorted({w for w in found if " " in w and len(w) <= 40}, key=len, reverse=True)


def _step(app, kind: str) -> None:
    app.session()
    s, replay, moved = app.step(kind)
    said = _("Undid: {words}.") if kind == "undo" else _("Redid: {words}.")
    from companion.terminal.render import keep_whole, wrap

    seen = Exit(s, replay)  # said on the shared screen: the table's words
    # at spaces, never mid-word nor inside a name (St. Louis in a path of rails)
    click.echo(wrap(keep_whole(said.format(words=seen.words(moved["event"])), long_names(s, replay))))
    if kind == "redo" and replay.finished:  # the event brought back ends the game: said, as when recorded
        from companion.contract.view import winners
        from companion.terminal.declared import show

        show(app, winners(seen.status))


@click.command(help=N_("Take back the last event (works on a finished game too)."))
@session_option
@pass_app
def undo(app) -> None:
    _step(app, "undo")


@click.command(help=N_("Bring back the event `undo` took back last."))
@session_option
@pass_app
def redo(app) -> None:
    _step(app, "redo")


@click.command(help=N_("Show the deal seed and re-derive every recorded deal from it.\n"
    "\n"
    "On a finished or abandoned game anyone may check; before the end, `--reveal` is needed and\n"
    "is recorded, because the seed lets anyone work out every hand."))
@click.argument("session_id", metavar="[ID]", required=False, shell_complete=completes("sessions"))
@click.option("--reveal", is_flag=True, help=N_("Show the seed before the game is over (recorded in the session)."))
@pass_app
def verify(app, session_id: str | None, reveal: bool) -> None:
    if session_id:
        app.session_override = session_id
    s = app.session()
    if not s.meta.get("seed"):
        raise CompanionError(_("Session {id} ({game}) deals no cards: there is nothing to verify.").format(
            id=s.id, game=_(s.game.title)))
    finished = s.replay().over  # an abandoned game is over too
    if not finished and not s.revealed:
        if not reveal:
            raise CompanionError(
                _("Session {id} is not over: its seed would show every hand. Type `verify {id} --reveal` "
                  "to show it anyway (this is recorded).").format(id=s.id)
            )
        s = sessions.reveal(app.store, s.id)
        click.echo(_("The seed is now revealed; `status` will say so."))
    elif not s.revealed:
        # Shown at the end, the seed is known all the same: if `undo` reopens the game, no new
        # deal may come from it, and `status` says so (issue 12).
        s = sessions.reveal(app.store, s.id)
    seed, entropy = s.meta["seed"], s.meta.get("entropy", "")
    from companion.core import dealing

    ok = dealing.commitment(seed) == s.meta.get("commitment")
    click.echo(_("Seed:       {seed}").format(seed=seed))
    # the 64-character hash, then the verdict on a line of its own (80 columns)
    click.echo((_("Commitment: {hash}\n            (matches the seed)") if ok else
                _("Commitment: {hash}\n            (DOES NOT match the seed)")).format(hash=s.meta.get("commitment")))
    click.echo(_("Entropy:    {entropy}").format(entropy=repr(entropy)))
    count = bad = 0
    for n, entry in enumerate((e for e in s.journal if e.get("kind") == "do"), 1):
        for deal, expected in s.game.deal_contexts(s.id, entry["event"]):
            count += 1
            shown = safe_text(str(deal.get("context")))[:80]
            if deal.get("context") != expected:  # the context comes from session, round and deck only
                bad += 1
                why = (_("expected {context}").format(context=expected) if expected else
                       _("{game} makes no such deal").format(game=_(s.game.title)))
                click.echo(_("  event {n} {context}: DOES NOT MATCH (wrong context: {why})").format(
                    n=f"{n:>3}", context=shown, why=why))
                continue
            good = dealing.check(deal, seed, entropy)
            bad += not good
            click.echo((_("  event {n} {context}: matches") if good else
                        _("  event {n} {context}: DOES NOT MATCH")).format(n=f"{n:>3}", context=shown))
    if not count:
        click.echo(_("No deals recorded yet."))
    if bad or not ok:
        raise CompanionError(ngettext("{bad} of {n} deal does not match the seed.",
                                      "{bad} of {n} deals do not match the seed.", count).format(bad=bad, n=count))
    click.echo(ngettext("All {n} deal matches the seed.", "All {n} deals match the seed.", count).format(n=count))


@click.command(help=N_("Draw the board: the current session's, or a map by name (e.g. `board trans-amerika`)."))
@click.argument("map_id", metavar="[MAP]", required=False)
@session_option
@pass_app
def board(app, map_id: str | None) -> None:
    from companion.contract.declare import At
    from companion.terminal.declared import show

    if map_id:
        maps: list[str] = []
        for gid in registry.available():
            found = registry.parts(gid)
            names = list(found.get("MAPS") or ())
            if map_id.casefold() in names:
                show(app, found.get("map_view")(At(host=app), map_id.casefold()))
                return
            maps += [n for n in names if n not in maps][:1]  # games sharing their views name one map each
        if maps:
            raise CompanionError(_("There is no map {map}: the maps are {names}.").format(map=repr(map_id),
                                                                                        names=", ".join(maps)))
        raise CompanionError(_("There is no map {map}.").format(map=repr(map_id)))
    s = app.session()
    replay = s.replay()
    draw = registry.parts(s.meta["game"]).get("board_view")
    view = draw(Exit(s, replay).at(host=app)) if draw is not None else None
    if view is None:
        raise CompanionError(_("{game} has no board to draw: `status` shows the scores.").format(game=_(s.game.title)))
    show(app, view)


@click.command(help=N_("Clear the screen (in the shell, as Ctrl-L does)."))
def clear() -> None:
    import sys

    stream = sys.__stdout__
    if stream is not None and stream.isatty():  # the terminal's own codes, never escaped as text
        stream.write("\x1b[H\x1b[2J\x1b[3J")
        stream.flush()


@click.command(help=N_("Start the interactive shell (also what `companion` alone does on a terminal)."))
@click.pass_context
def shell(ctx: click.Context) -> None:
    import sys

    app = ctx.find_object(App)
    if app.interactive:  # typed in the shell: a shell inside the shell would only confuse
        raise CompanionError(_("This is the shell already: type a command, or `exit` to leave."))
    if sys.stdin is None or not sys.stdin.isatty():  # a script: it would read the script's next lines
        raise CompanionError(_("The shell needs a terminal: in a script, write the commands themselves."))
    from companion.terminal.shell import run_shell

    run_shell(app, ctx.find_root().command)


@click.command("help", help=N_("Show the commands, or `help CMD` for one command's options."))
@click.argument("words", nargs=-1)
@click.pass_context
def help_cmd(ctx: click.Context, words: tuple[str, ...]) -> None:
    root = ctx.find_root().command
    app = ctx.find_object(App)
    if not words and app is not None and app.interactive:
        click.echo(shell_help(ctx, root))
        return
    cmd, path = root, ["companion"]
    for word in words:
        sub = cmd.get_command(ctx, word) if isinstance(cmd, click.Group) else None
        if sub is None:
            raise click.UsageError(_("No command {words}: type `help` for the list.").format(words=repr(" ".join(words))))
        cmd, path = sub, path + [word]
    with click.Context(cmd, info_name=" ".join(path), obj=ctx.obj) as sub_ctx:
        click.echo(cmd.get_help(sub_ctx))


@click.command(help=N_("End an unfinished game with no result (`undo` takes it back).\n"
    "\n"
    "An abandoned game counts neither as played nor as in play in `stats`; it is listed apart."))
@click.argument("session_id", metavar="[ID]", required=False, shell_complete=completes("sessions"))
@click.option("--reason", metavar="TEXT", help=N_("Why the game stopped (kept with the session)."))
@pass_app
def abandon(app, session_id: str | None, reason: str | None) -> None:
    if session_id:
        app.session_override = session_id
    event = {"type": "abandon"}
    if reason and reason.strip():
        event["reason"] = reason.strip()
    s, _replay, _event = app.record(event)
    from companion.terminal.render import wrap

    if "reason" in event:
        said = _("Session {id} ({game}) is abandoned ({reason}): it has no result. `undo` takes that back.")
    else:
        said = _("Session {id} ({game}) is abandoned: it has no result. `undo` takes that back.")
    click.echo(wrap(said.format(id=s.id, game=_(s.game.title), reason=event.get("reason"))))


@click.command(help=N_("Add a note to the session (shown by `log`, `report` and the exports; `undo` takes it back)."))
@click.argument("words", nargs=-1, required=True, metavar="TEXT")
@session_option
@pass_app
def note(app, words: tuple[str, ...]) -> None:
    text = " ".join(w.strip() for w in words).strip()
    s, replay, _event = app.record({"type": "note", "text": text})
    from companion.terminal.render import wrap

    click.echo(wrap(_("Noted in session {id} (event {n}): {text}").format(id=s.id, n=replay.count, text=text)))


# Commands that make no sense typed in the shell, left out of its `help`.
COMMAND_LINE_ONLY = {"shell"}


def shell_help(ctx: click.Context, root) -> str:
    """`help` in the shell: the game at hand's commands first, then the session commands, then
    the record's and every other game's commands by name only; none of the command line's own
    options (`--data-dir`, `--version`) nor its talk of scripts."""
    from companion.terminal.render import cut, screen_width, wrap

    width = min(screen_width(), 100)
    sections = root.sections(ctx)
    here = root.game_at_hand(ctx)
    games_first = 1 if here else 0
    shown = sections[: games_first + 1]  # the game at hand, then the session commands
    record = sections[games_first + 1: games_first + 2]  # the group's record: names only
    rest = sections[games_first + 2:]
    names = [n for _t, cmds in shown for n, _c in cmds]
    pad = min(max((len(n) for n in names), default=0), 14)
    formatter = click.HelpFormatter(width=width)
    for title, cmds in shown:
        cmds = [(n, c) for n, c in cmds if n not in COMMAND_LINE_ONLY]
        if not cmds:
            continue
        heading = _("{title} (this session)").format(title=_(title)) if here and title == sections[0][0] else _(title)
        with formatter.section(cut(heading, width - 2)):
            formatter.write_dl([(n.ljust(pad), c.get_short_help_str(width - pad - 6)) for n, c in cmds])
    out = [formatter.getvalue().rstrip()]
    for title, cmds in record:
        out += ["", wrap(f"{_(title)}: {', '.join(n for n, _c in cmds)}", width, indent="  ")]
    if rest:
        out += ["", wrap(_("Other games (their commands work in their own sessions):"), width)]
        out += [wrap(f"  {_(title)}: {', '.join(n for n, _c in cmds)}", width, indent="    ")
                for title, cmds in rest if cmds]
    out += ["", wrap(_("`help CMD` shows one command's options; `exit` (or Ctrl-D) leaves the shell."), width)]
    return "\n".join(out)
