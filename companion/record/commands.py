"""Commands over the whole history: players, player rename/merge, stats, export, import, report.

Thin over the library modules: ``companion.record.stats`` computes, ``companion.record.players`` keeps the
alias table, ``companion.record.exchange`` reads and writes files, ``companion.record.report`` draws pages.
Everything here reads the index (one small file), never every session file, except `export`
and `report`, which need the sessions they contain.
"""

from __future__ import annotations

from pathlib import Path

import click

from companion.core import session as sessions
from companion.games.kit import echo_json, json_option, pass_app
from companion.core.errors import CompanionError
from companion.terminal.render import table

# -- output helpers ----------------------------------------------------------------------------


def check_output(app, path: Path, force: bool) -> Path:
    """Refuse an output file before any work is done: never inside the data folder (symlinks
    resolved: `report --html DATA/sessions/ID.json` would destroy a session), never over an
    existing file without --force, never a folder, a pipe or a device."""
    try:
        path = path.expanduser()
        target = path.resolve()
        # the name itself is what gets written (a symlink is replaced, never followed)
        named = path.parent.resolve() / path.name
        root = app.store.root.expanduser().resolve()
    except (OSError, RuntimeError) as exc:  # a symlink loop
        raise CompanionError(f"Cannot use {path} as an output file ({exc}): write elsewhere.") from None
    if any(t == root or root in t.parents for t in (target, named)):
        raise CompanionError(f"{path} is inside the data folder {root}: the companion never writes over its "
                             "own files. Write elsewhere, e.g. your home folder.")
    if target.is_dir():
        raise CompanionError(f"{path} is a folder: give a file name, e.g. {path / 'out.html'}")
    if target.exists() and not target.is_file():  # a pipe or a device: never replace it
        raise CompanionError(f"{path} is not a regular file: give the name of a file to write.")
    if target.exists() and not force:
        raise CompanionError(f"{path} exists already: add --force to replace it, or give another name.")
    if not named.parent.is_dir():
        raise CompanionError(f"The folder {path.parent} does not exist: create it first or write elsewhere.")
    return named


def write_output(app, path: Path, text: str, force: bool) -> None:
    """Write a file the user asked for, whole or not at all (checked again at the last moment:
    without --force an existing file is never replaced, even one made meanwhile)."""
    import contextlib
    import os
    import tempfile

    from companion.core.errors import StoreError

    target = check_output(app, path, force)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        if force:
            os.replace(tmp, target)
        else:
            os.link(tmp, target)  # fails if the name exists: no-clobber, atomically
    except FileExistsError:
        raise CompanionError(f"{path} exists already: add --force to replace it, or give another name.") from None
    except OSError as exc:
        raise StoreError(f"Could not write {path}: {exc.strerror or exc}. Nothing was written.") from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


force_option = click.option("--force", is_flag=True, help="Replace the output file if it exists.")


def _store_roster(app):
    from companion.record import players

    entries = sessions.index(app.store)
    return entries, players.roster(app.store, entries)


# -- players -----------------------------------------------------------------------------------


@click.command()
@json_option
@pass_app
def players(app, as_json: bool) -> None:
    """List every player with their sessions and wins (renames and merges applied)."""
    from companion.record import stats as history

    entries, roster = _store_roster(app)
    rows = history.players_table(entries, roster)
    if as_json:
        echo_json(rows)
        return
    if not rows:
        click.echo("No players yet: start a session with `new GAME --players Ann,Bob`.")
        return
    # "also recorded as" only once a rename or merge gave it something to say: empty, it cut
    # the other headers and long names at 80 columns ("first pla…", "Bartholom…")
    aliases = any(r["recorded_as"] for r in rows)
    click.echo(table(
        ["player", "sessions", "finished", "wins", "first played", "last played"] + (["also recorded as"] if aliases else []),
        [[r["name"], r["sessions"], r["finished"], r["wins"], r["first"], r["last"]]
         + ([", ".join(r["recorded_as"])] if aliases else []) for r in rows],
        right=(1, 2, 3),
    ))


@click.group("player")
def player_group() -> None:
    """Fix names across the whole history: `player rename OLD NEW`, `player merge A B`."""


@player_group.command("rename")
@click.argument("old")
@click.argument("new")
@pass_app
def player_rename(app, old: str, new: str) -> None:
    """Show player OLD as NEW in every session (the recorded events keep their names)."""
    from companion.record import players as registry

    shown_old, new, count = registry.rename(app.store, old, new)
    click.echo(f"{shown_old} is now shown as {new} in {count} session{'s' if count != 1 else ''}; "
               "the recorded events are unchanged.")


@player_group.command("merge")
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@pass_app
def player_merge(app, a: str, b: str) -> None:
    """Join A's history to B's: A's sessions count as B's from now on."""
    from companion.record import players as registry

    shown_a, shown_b, moved = registry.merge(app.store, a, b)
    click.echo(f"Merged {shown_a} into {shown_b}: {moved} session{'s' if moved != 1 else ''} now count{'' if moved != 1 else 's'} as "
               f"{shown_b}'s; the recorded events are unchanged.")


# -- stats -------------------------------------------------------------------------------------


def _pct(rate: float) -> str:
    return f"{round(100 * rate)}%"


def render_stats(stats: dict) -> str:
    """`stats` in the terminal: tables, win-rate bars and recent-score sparklines."""
    from companion.record import stats as history
    from companion.terminal.render import bar, scale_words, sparkline, wrap

    f = stats["filters"]
    scope = ", ".join(s for s in (f"player {f['player']}" if f["player"] else "", f"game {f['game']}" if f["game"] else "",
                                  f"since {f['since']}" if f["since"] else "") if s)
    n = stats["sessions"]
    head = f"Statistics: {n} finished session{'s' if n != 1 else ''}" + (f" ({scope})" if scope else "")
    if stats["unfinished"]:
        head += f"; {len(stats['unfinished'])} in play, not counted"
    if stats["abandoned"]:
        head += f"; {len(stats['abandoned'])} abandoned, not counted"
    out = [wrap(head + ".")]
    players = stats["players"]
    if players:
        out += ["", table(
            ["player", "sessions", "wins", "win rate (bar: 0 … 100%)", "", "streak now", "longest"],
            [[p["name"], p["sessions"], p["wins"], bar(p["win_rate"], 1, width=20), _pct(p["win_rate"]),
              p["current_streak"], p["longest_streak"]] for p in players],
            right=(1, 2, 4, 5, 6))]
        rows = [[p["name"], g, v["sessions"], v["wins"], "" if v["average"] is None else f"{v['average']:g}",
                 "" if v["best"] is None else v["best"]] for p in players for g, v in p["games"].items()]
        out += ["", "Per game:", table(["player", "game", "sessions", "wins", "average", "best"], rows,
                                            right=(2, 3, 4, 5))]
        charts = history.recent_by_game(players, f["game"])
        if charts:
            out += ["", wrap(f"Recent scores per game, oldest first (last {history.RECENT} at most; one scale per "
                             "game):")]
            for c in charts:
                out.append(f"  {c['title']} ({scale_words(c['lo'], c['hi'])})")
                width = max(len(name) for name, _ in c["rows"])
                out += [f"    {name:<{width}}  {sparkline(vs, c['lo'], c['hi'])}  " + " ".join(f"{v:g}" for v in vs)
                        for name, vs in c["rows"]]
    h2h = stats["head_to_head"]
    if h2h:
        out += ["", wrap("Head to head (wins-losses-draws of the left player against the other):")]
        names = sorted({b for row in h2h.values() for b in row}, key=str.casefold)
        if len(names) <= 8 and not f["player"]:
            rows = [[a] + ["-" if a == b else ("{wins}-{losses}-{draws}".format(**h2h[a][b]) if b in h2h[a] else "")
                           for b in names] for a in h2h]
            out.append(table(["", *names], rows, right=range(1, len(names) + 1)))
        else:
            rows = [[a, b, c["wins"], c["losses"], c["draws"]] for a, row in h2h.items() for b, c in row.items()]
            out.append(table(["player", "against", "wins", "losses", "draws"], rows, right=(2, 3, 4)))
    if stats["games"]:
        rows = []
        for g in stats["games"]:
            rec = g["record"]
            rows.append([g["game"], g["sessions"], "" if g["average_rounds"] is None else f"{g['average_rounds']:g}",
                         "" if g["average_minutes"] is None else f"{g['average_minutes']:g}",
                         f"{rec['score']} by {rec['player']} ({rec['date']}, {rec['session']})" if rec else ""])
        out += ["", "Games:", table(["game", "sessions", "avg rounds", "avg minutes", "record score"], rows,
                                         right=(1, 2, 3))]
    if stats["unfinished"]:
        rows = [[u["id"], u["game"], ", ".join(u["players"]), history.local_date(u["created"])]
                for u in stats["unfinished"]]
        out += ["", "In play (not counted):", table(["id", "game", "players", "started"], rows)]
    if stats["abandoned"]:
        rows = [[u["id"], u["game"], ", ".join(u["players"]), history.local_date(u["created"]), u["reason"]]
                for u in stats["abandoned"]]
        out += ["", "Abandoned (no result, not counted):", table(["id", "game", "players", "started", "reason"], rows)]
    if not players and not stats["unfinished"] and not stats["abandoned"]:
        out = ["No sessions yet: start one with `new GAME --players Ann,Bob`."] if not scope else \
              [f"No sessions match ({scope})."]
    return "\n".join(out)


@click.command()
@click.option("--player", metavar="NAME", help="One player's statistics and head-to-head.")
@click.option("--game", metavar="GAME", help="Only sessions of this game (an id from `games`).")
@click.option("--since", metavar="DATE", help="Only sessions started on or after DATE (YYYY-MM-DD).")
@click.option("--html", "html_file", type=click.Path(path_type=Path), metavar="FILE",
              help="Also write the statistics as one self-contained HTML page.")
@force_option
@click.option("--ratings", is_flag=True, help="Skill ratings per player, per game and overall (openskill).")
@json_option
@pass_app
def stats(app, player: str | None, game: str | None, since: str | None, html_file: Path | None, force: bool,
          ratings: bool, as_json: bool) -> None:
    """Wins, win rates, streaks, scores, head-to-head and records (finished sessions only)."""
    from companion.record import stats as history

    if html_file is not None:
        check_output(app, html_file, force)
    entries, roster = _store_roster(app)
    if ratings:
        from companion.record import ratings as skill

        if html_file is not None:
            raise CompanionError("`stats --ratings` prints to the screen: leave out --html.")
        result = skill.compute(entries, roster, game=game, player=player, since=since,
                               cache=app.store.root / "cache" / "ratings.json")
        if as_json:
            echo_json(result)
        else:
            click.echo(skill.render(result))
        return
    result = history.compute(entries, roster, player=player, game=game, since=since)
    if html_file is not None:
        from companion.record import report as pages

        write_output(app, html_file, pages.stats_html(result), force)
    if as_json:
        echo_json(result)
    elif html_file is not None:
        click.echo(f"Wrote the statistics of {result['sessions']} finished sessions to {html_file}.")
    else:
        click.echo(render_stats(result))


# -- export and import -------------------------------------------------------------------------


@click.command()
@click.option("--format", "fmt", type=click.Choice(["json", "csv", "bgg"]), default="json", show_default=True,
              help="json: everything, for `import`; csv: one row per player per session; bgg: BoardGameGeek play XML.")
@click.option("--game", metavar="GAME", help="Only sessions of this game.")
@click.option("--player", metavar="NAME", help="Only sessions this player sat in.")
@click.option("-o", "--output", type=click.Path(path_type=Path), metavar="FILE",
              help="Write to FILE instead of printing.")
@force_option
@pass_app
def export(app, fmt: str, game: str | None, player: str | None, output: Path | None, force: bool) -> None:
    """Export sessions: json (to import elsewhere), csv, or BoardGameGeek play XML."""
    from companion.record import exchange

    if output is not None:
        check_output(app, output, force)
    text, entries = exchange.export(app.store, fmt, game, player)
    secret = exchange.unfinished_dealt(app.store, entries) if fmt == "json" else []
    put_away = {e["id"] for e in entries if "abandoned_at" in (e.get("summary") or {})}
    playing = [sid for sid in secret if sid not in put_away]
    stopped = [sid for sid in secret if sid in put_away]
    if playing:
        click.echo(f"Note: {', '.join(playing)} still in play: the file holds their secret deal seeds, which show "
                   "every hand. Keep it from the players until those games are over.", err=True)
    if stopped:  # abandoned: over, but `undo` there would bring the game back with the same seed
        click.echo(f"Note: {', '.join(stopped)} {'was' if len(stopped) == 1 else 'were'} abandoned: the file holds "
                   f"{'its' if len(stopped) == 1 else 'their'} deal seed, which shows the hands dealt (and would "
                   "deal on if `undo` took the abandon back).", err=True)
    if output is None:
        click.echo(text, nl=False)
        return
    write_output(app, output, text, force)
    n = len(entries)
    click.echo(f"Exported {n} session{'s' if n != 1 else ''} as {fmt} to {output}.")


@click.command("import")
@click.argument("file", type=click.Path(path_type=Path), metavar="FILE")
@click.option("--skip-conflicts", is_flag=True,
              help="Import everything else when a session has diverged, and list what was skipped.")
@click.option("--dry-run", is_flag=True, help="Say what the import would do, changing nothing.")
@pass_app
def import_cmd(app, file: Path, skip_conflicts: bool, dry_run: bool) -> None:
    """Add the sessions of a json export (from another laptop) to this data folder; games
    continued there are brought up to date."""
    from companion.record import exchange

    done = exchange.import_file(app.store, file, skip_conflicts=skip_conflicts, dry_run=dry_run)
    added, skipped = len(done.added), len(done.skipped)
    verb = "Would import" if dry_run else "Imported"
    parts = [f"{verb} {added} session{'s' if added != 1 else ''} from {file.name}"]
    if skipped:
        parts.append(f"{skipped} {'was' if skipped == 1 else 'were'} already here")
    if done.continued:
        parts.append(f"{len(done.continued)} continued")
    if done.aliases:
        parts.append(f"{done.aliases} player name{'s' if done.aliases != 1 else ''} added")
    lines = [parts[0] + (f" ({'; '.join(parts[1:])})" if len(parts) > 1 else "") + "."]
    would = "would be " if dry_run else ""
    for sid, n in done.continued:
        lines.append(f"{'would be ' if dry_run else ''}continued: {sid}, {n} new event{'s' if n != 1 else ''}")
    for sid in done.ahead:
        lines.append(f"kept: {sid} went further here than in the file")
    for sid, why in done.conflicts:
        lines.append(f"{would}skipped: {sid} has diverged: {why}")
    if dry_run:
        lines.append("Dry run: nothing was changed.")
    click.echo("\n".join(lines))


# -- report ------------------------------------------------------------------------------------


def render_report(facts: dict) -> str:
    """A session's report in the terminal: result, scores, score lines and the log."""
    from companion.record import report as pages
    from companion.terminal.render import scale_words, sparkline, wrap

    when = f"started {facts['started']}"
    if facts["finished"]:
        when += f", finished {facts['ended']}" + (f" ({facts['minutes']} min)" if facts["minutes"] is not None else "")
    if pages.where_words(facts):
        when += f" · {pages.where_words(facts)}"
    rounds = f" · round {facts['round']}" if facts["round"] is not None else ""  # a game may have no rounds
    out = [wrap(f"Session {facts['id']} · {facts['title']} · {when}{rounds}"),
           wrap(pages.result_words(facts)), ""]
    rows = []
    series = dict(zip(facts["seats"], (vs for _, vs in facts["series"])))
    every = [v for vs in series.values() for v in vs if isinstance(v, (int, float)) and not isinstance(v, bool)]
    lo, hi = (min(every), max(every)) if every else (0, 0)
    for seat, name in enumerate(facts["seats"], 1):
        shown = facts["shown"][name]
        values = [v for v in series.get(name, []) if isinstance(v, (int, float))]
        rows.append([seat, shown + (f" (recorded as {name})" if shown != name else ""), facts["scores"].get(name),
                     facts["ranks"].get(name, ""), "winner" if name in facts["winners"] else "",
                     sparkline(values, lo, hi)])
    axis = f"by {facts['axis']}" + (f" ({scale_words(lo, hi)})" if every else "")
    out.append(table(["seat", "player", "score", "rank", "", axis], rows, right=(0, 2, 3)))
    out += ["", "Log:"]
    # a long note continues under its own words, not under the event's number
    out += [wrap(f"{n:>3}. {t:<5}  {words}", indent=" " * (12 - len(f"{n:>3}") + len(str(n))))
            for n, t, words in facts["log"]] or ["  nothing recorded yet"]
    return "\n".join(out)


@click.command()
@click.argument("session_id", metavar="[ID]", required=False)
@click.option("--html", "html_file", type=click.Path(path_type=Path), metavar="FILE",
              help="Write the report as one self-contained HTML page (with a chart) instead.")
@force_option
@pass_app
def report(app, session_id: str | None, html_file: Path | None, force: bool) -> None:
    """A session's report: players, scores, winners, a score chart and the log in words."""
    from companion.record import players as registry
    from companion.record import report as pages

    if session_id:
        app.session_override = session_id
    if html_file is not None:
        check_output(app, html_file, force)
    s = app.session()
    facts = pages.session_facts(s, s.replay(), registry.roster(app.store))
    if html_file is None:
        click.echo(render_report(facts))
        return
    write_output(app, html_file, pages.session_html(facts), force)
    click.echo(f"Wrote the report of session {s.id} ({facts['title']}) to {html_file}.")


# -- delete and restore ------------------------------------------------------------------------


@click.command()
@click.argument("session_id", metavar="ID")
@click.option("--yes", is_flag=True, help="Delete without asking (needed in script mode).")
@pass_app
def delete(app, session_id: str, yes: bool) -> None:
    """Move session ID into the data folder's bin (`restore ID` brings it back whole)."""
    from companion.record import trash

    sid = app.store.resolve(session_id)
    s = sessions.load(app.store, sid)
    what = f"session {sid} ({s.game.title} with {', '.join(s.players)}, started {s.meta['created'][:10]})"
    if not yes:
        if not app.can_ask():
            raise CompanionError(f"`delete` moves {what} to the bin: add --yes to do it here "
                                 f"(`delete {sid} --yes`).")
        answer = app.ask(f"Move {what} to the bin? `restore {sid}` brings it back. [y/N] ", "")
        if answer.strip().casefold() not in ("y", "yes"):
            click.echo(f"Kept session {sid}; nothing was changed.")
            return
    trash.delete(app.store, sid)
    from companion.terminal.render import wrap

    click.echo(wrap(f"Deleted {what}: it is in the bin, out of stats and exports. `restore {sid}` brings it back."))


@click.command()
@click.argument("session_id", metavar="ID")
@pass_app
def restore(app, session_id: str) -> None:
    """Bring a deleted session back from the bin (`sessions --deleted` lists it)."""
    from companion.record import trash

    s = trash.restore(app.store, session_id)
    from companion.terminal.render import wrap

    click.echo(wrap(f"Restored session {s.id} ({s.game.title} with {', '.join(s.players)}): it counts again."))


# -- a play logged after the fact --------------------------------------------------------------


def parse_final_scores(text: str) -> dict[str, int]:
    """`Ann=52,Bob=47` (commas or spaces between) -> {'Ann': 52, 'Bob': 47}, in seat order.

    A part between commas with one `=` is one pair, so a name with a space in it
    (`Bartholomew Jones=47`) is whole, as `new --players` takes it."""
    from companion.games.kit import parse_pairs

    items = [part for chunk in text.split(",")
             for part in ([chunk.strip()] if chunk.count("=") == 1 else chunk.split())]
    scores = parse_pairs([i for i in items if i], "NAME=SCORE")
    if not scores:
        raise click.UsageError("Give every player's final score: --players Ann=52,Bob=47")
    return scores


@click.command()
@click.argument("game_id", metavar="GAME")
@click.option("--players", "players_", required=True, metavar="Ann=52,Bob=47",
              help="Every player's final score, in seat order.")
@click.option("--winner", "winners", multiple=True, metavar="NAME",
              help="Who won (repeat for a shared win); needed only when the game's tie rule needs more than scores.")
@click.option("--played-on", metavar="YYYY-MM-DD[THH:MM]", help="When it was played (default: now).")
@click.option("--location", metavar="TEXT", help="Where it was played.")
@click.option("--note", "note_text", metavar="TEXT", help="A note kept with the play.")
@json_option
@pass_app
def played(app, game_id: str, players_: str, winners: tuple[str, ...], played_on: str | None,
           location: str | None, note_text: str | None, as_json: bool) -> None:
    """Log a finished play from its final scores alone (it counts in stats like any other).

    The winners follow the game's own rule; give --winner when scores tie and the rule needs
    more than scores (money, the youngest ship ...). The current session is left as it was.
    """
    from companion.core import registry
    from companion.games.api import player_name

    game = registry.get(game_id.strip().lower())
    scores = parse_final_scores(players_)
    names = sessions.check_players(list(scores), game)
    scores = dict(zip(names, scores.values()))
    extra = {"played_on": sessions.parse_played_on(played_on), "location": sessions.parse_location(location)}
    if winners:
        chosen: list[str] = []
        for w in winners:
            name = player_name(names, w)
            if name not in chosen:
                chosen.append(name)
    else:
        chosen = game.played_winners(scores, {})
        if chosen is None:
            top = max(scores.values())
            tied = [p for p, v in scores.items() if v == top]
            raise CompanionError(
                f"{' and '.join(tied)} tie at {top}: {game.title} settles that by {game.tie_break}, which the "
                f"scores do not show. Add --winner NAME (repeat it for a shared win).")
    events = [{"type": "played", "scores": scores, "winners": chosen}]
    if note_text is not None:
        events.append({"type": "note", "text": note_text.strip()})
    s = sessions.create(app.store, game.id, names, {}, None, "", extra, events, make_current=False)
    if as_json:
        echo_json(s.status())
        return
    when = f" on {extra['played_on']}" if extra["played_on"] else ""
    where = f" at {extra['location']}" if extra["location"] else ""
    won = f"{chosen[0]} wins" if len(chosen) == 1 else f"shared win for {', '.join(chosen)}"
    click.echo(f"Logged session {s.id}: {game.title}{when}{where}: "
               f"{', '.join(f'{p} {v}' for p, v in scores.items())}; {won}.")
