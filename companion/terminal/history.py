"""Commands over the whole history: players, player rename/merge, stats, export, import, report.

Thin over the library modules: ``companion.record.stats`` computes, ``companion.record.players`` keeps the
alias table, ``companion.record.exporting`` writes the exports (their formats: ``companion.record.formats``),
``companion.record.import_merge`` imports one, ``companion.record.report`` draws pages.
Everything here reads the index (one small file), never every session file, except `export`
and `report`, which need the sessions they contain.
"""

from __future__ import annotations

from companion.contract.language import N_, _, ngettext  # noqa: F401

import json
from pathlib import Path

import click

from companion.core import session as sessions
from companion.games.kit import completes, echo_json, json_option, parse_roles, pass_app, sheet_options
from companion.contract.errors import CompanionError
from companion.core.store import without_cycle_collection
from companion.record import formats
from companion.terminal.render import _width, points, table, wrap

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
        raise CompanionError(_("Cannot use {path} as an output file ({error}): write elsewhere.").format(
            path=path, error=exc)) from None
    if any(t == root or root in t.parents for t in (target, named)):
        raise CompanionError(_("{path} is inside the data folder {folder}: the companion never writes over its "
                               "own files. Write elsewhere, e.g. your home folder.").format(path=path, folder=root))
    if target.is_dir():
        raise CompanionError(_("{path} is a folder: give a file name, e.g. {example}").format(
            path=path, example=path / "out.html"))
    if target.exists() and not target.is_file():  # a pipe or a device: never replace it
        raise CompanionError(_("{path} is not a regular file: give the name of a file to write.").format(path=path))
    if target.exists() and not force:
        raise CompanionError(_("{path} exists already: add --force to replace it, or give another name.").format(
            path=path))
    if not named.parent.is_dir():
        raise CompanionError(_("The folder {folder} does not exist: create it first or write elsewhere.").format(
            folder=path.parent))
    return named


def write_output(app, path: Path, text: str, force: bool) -> None:
    """Write a file the user asked for, whole or not at all (checked again at the last moment:
    without --force an existing file is never replaced, even one made meanwhile)."""
    write_output_stream(app, path, lambda fh: fh.write(text), force)


force_option = click.option("--force", is_flag=True, help=N_("Replace the output file if it exists."))


def to_standard_output(path: Path | None) -> bool:
    """Whether an output file named ``-`` means standard output, as everywhere on the command
    line (`export -o -`, `report --html - | less`)."""
    return path is not None and str(path) == "-"


def _store_roster(app):
    from companion.record import players

    entries = sessions.index(app.store)
    return entries, players.roster(app.store, entries)


# -- players -----------------------------------------------------------------------------------


@click.command(help=N_("List every player with their sessions and wins (renames and merges applied)."))
@json_option
@pass_app
@without_cycle_collection()
def players(app, as_json: bool) -> None:
    from companion.record import stats as history

    entries, roster = _store_roster(app)
    rows = history.players_table(entries, roster)
    if as_json:
        echo_json(rows, "players")
        return
    if not rows:
        click.echo(_("No players yet: start a session with `new GAME --players Ann,Bob`."))
        return
    from companion.record.shown import day

    # "also recorded as" only once a rename or merge gave it something to say: empty, it cut
    # the other headers and long names at 80 columns ("first pla…", "Bartholom…")
    aliases = any(r["recorded_as"] for r in rows)
    click.echo(table(
        [_("player"), _("sessions"), _("finished"), _("wins"), _("first played"), _("last played")]
        + ([_("also recorded as")] if aliases else []),
        [[r["name"], r["sessions"], r["finished"], r["wins"], day(r["first"]), day(r["last"])]
         + ([", ".join(r["recorded_as"])] if aliases else []) for r in rows],
        right=(1, 2, 3),
    ))


@click.group("player", help=N_("Fix names across the whole history: `player rename OLD NEW`, `player merge A B`."))
def player_group() -> None:
    pass


@player_group.command("rename", help=N_("Show player OLD as NEW in every session (the recorded events keep their names)."))
@click.argument("old", shell_complete=completes("players"))
@click.argument("new")
@pass_app
def player_rename(app, old: str, new: str) -> None:
    from companion.record import players as registry

    shown_old, new, count = registry.rename(app.store, old, new)
    click.echo(ngettext("{old} is now shown as {new} in {n} session; the recorded events are unchanged.",
                        "{old} is now shown as {new} in {n} sessions; the recorded events are unchanged.",
                        count).format(old=shown_old, new=new, n=count))


@player_group.command("merge", help=N_("Join A's history to B's: A's sessions count as B's from now on."))
@click.argument("a", metavar="A", shell_complete=completes("players"))
@click.argument("b", metavar="B", shell_complete=completes("players"))
@pass_app
def player_merge(app, a: str, b: str) -> None:
    from companion.record import players as registry

    shown_a, shown_b, moved = registry.merge(app.store, a, b)
    click.echo(ngettext("Merged {a} into {b}: {n} session now counts as {b}'s; the recorded events are unchanged.",
                        "Merged {a} into {b}: {n} sessions now count as {b}'s; the recorded events are unchanged.",
                        moved).format(a=shown_a, b=shown_b, n=moved))


# -- stats -------------------------------------------------------------------------------------


def _pct(rate: float) -> str:
    from companion.record.shown import percent

    return percent(rate)


def _num(value) -> str:
    """A number of the tables (an average: 68.5 / 68,5), "" for none."""
    from companion.record.shown import short as written

    return written(value)


def render_stats(stats: dict) -> str:
    """`stats` in the terminal: tables, win-rate bars and recent-score sparklines, a section
    each (players, co-operative games, head to head, games, in play, abandoned)."""
    scope, out = _stats_head(stats)
    everyone = stats["players"]
    for section in (_stats_players, _stats_coop, _stats_head_to_head, _stats_games, _stats_left):
        out += section(stats)
    if not everyone and not stats["unfinished"] and not stats["abandoned"]:
        out = [_("No sessions yet: start one with `new GAME --players Ann,Bob`.")] if not scope else \
              [_("No sessions match ({scope}).").format(scope=scope)]
    return "\n".join(out)


def render_ratings(ratings: dict) -> str:
    """`stats --ratings` in the terminal: overall, then one table per game."""
    from companion.record import stats as history

    from companion.contract.written import number
    from companion.record.shown import one_decimal as one


    def block(rows: list[dict]) -> str:
        return table([_("player"), _("rating"), _("skill ± uncertainty"), _("plays")],
                     [[r["name"], f"{one(r['rating'])}", _("{skill} ± {uncertainty}").format(
                         skill=one(r["mu"]), uncertainty=one(r["sigma"])), r["plays"]] for r in rows],
                     right=(1, 3))

    if not ratings["overall"]:
        return _("No finished plays of two or more players to rate yet.")
    out = [_("Ratings (openskill): rating = skill − 3 × uncertainty, a cautious estimate; "
             "each player starts at {mu} ± {sigma} (rating 0).").format(mu=number(25), sigma=number(8.3)),
           "", _("All games:"), block(ratings["overall"])]
    for gid, rows in ratings["games"].items():
        out += ["", _("{title}:").format(title=history.shown_title(gid)), block(rows)]
    return "\n".join(out)


def _stats_head(stats: dict) -> tuple[str, list[str]]:
    """The filters in words, and the first line: how many sessions count, and which do not."""
    from companion.terminal.render import wrap

    from companion.record.report import scope_words

    scope = scope_words(stats["filters"])
    n = stats["sessions"]
    if scope:
        head = ngettext("Statistics: {n} finished session ({scope})", "Statistics: {n} finished sessions ({scope})",
                        n).format(n=n, scope=scope)
    else:
        head = ngettext("Statistics: {n} finished session", "Statistics: {n} finished sessions", n).format(n=n)
    if stats["unfinished"]:
        head += "; " + _("{n} in play, not counted").format(n=len(stats["unfinished"]))
    if stats["abandoned"]:
        head += "; " + _("{n} abandoned, not counted").format(n=len(stats["abandoned"]))
    if stats.get("coop_sessions"):
        head += "; " + _("{n} co-operative, counted apart").format(n=stats["coop_sessions"])
    return scope, [wrap(head + ".")]


def _stats_players(stats: dict) -> list[str]:
    """Each player's wins and streaks, per game, and their recent scores as sparklines."""
    from companion.record import stats as history
    from companion.terminal.render import bar, scale_words, sparkline, wrap

    f = stats["filters"]
    players = [p for p in stats["players"] if p["sessions"]]
    if not players:
        return []
    from companion.record.shown import as_written

    out = ["", table(
        [_("player"), _("sessions"), _("wins"), _("win rate (bar: 0 … 100%)"), "", _("streak now"), _("longest")],
        [[p["name"], p["sessions"], p["wins"], bar(p["win_rate"], 1, width=20), _pct(p["win_rate"]),
          p["current_streak"], p["longest_streak"]] for p in players],
        right=(1, 2, 4, 5, 6))]
    rows = [[p["name"], history.shown_title(g), v["sessions"], v["wins"],
             "" if v["average"] is None else _num(v["average"]),
             "" if v["best"] is None else as_written(v["best"])] for p in players for g, v in p["games"].items()]
    out += ["", _("Per game:"), table([_("player"), _("game"), _("sessions"), _("wins"), _("average"), _("best")],
                                      rows, right=(2, 3, 4, 5))]
    charts = history.recent_by_game(players, f["game"])
    if charts:
        out += ["", wrap(_("Recent scores per game, oldest first (last {n} at most; one scale per "
                           "game):").format(n=history.RECENT))]
        for c in charts:
            out.append(f"  {history.shown_title(c['game'])} ({scale_words(c['lo'], c['hi'])})")
            width = max(_width(name) for name, _w in c["rows"])
            out += [f"    {name}{' ' * (width - _width(name))}  {sparkline(vs, c['lo'], c['hi'])}  "
                    + " ".join(_num(float(v)) for v in vs) for name, vs in c["rows"]]
    return out


def _stats_coop(stats: dict) -> list[str]:
    together = [p for p in stats["players"] if p.get("coop")]
    if not together:
        return []
    return ["", _("Co-operative games (won or lost together, not in the win rates above):"), table(
        [_("player"), _("sessions"), _("won"), _("win rate")],
        [[p["name"], p["coop"]["sessions"], p["coop"]["wins"], _pct(p["coop"]["win_rate"])]
         for p in sorted(together, key=lambda p: (-p["coop"]["win_rate"], p["name"].casefold()))],
        right=(1, 2, 3))]


def _stats_head_to_head(stats: dict) -> list[str]:
    """A grid of wins-losses-draws for a few players, else one row per pair."""
    from companion.terminal.render import wrap

    h2h = stats["head_to_head"]
    if not h2h:
        return []
    out = ["", wrap(_("Head to head (wins-losses-draws of the left player against the other):"))]
    names = sorted({b for row in h2h.values() for b in row}, key=str.casefold)
    if len(names) <= 8 and not stats["filters"]["player"]:
        rows = [[a] + ["-" if a == b else ("{wins}-{losses}-{draws}".format(**h2h[a][b]) if b in h2h[a] else "")
                       for b in names] for a in h2h]
        out.append(table(["", *names], rows, right=range(1, len(names) + 1)))
    else:
        rows = [[a, b, c["wins"], c["losses"], c["draws"]] for a, row in h2h.items() for b, c in row.items()]
        out.append(table([_("player"), _("against"), _("wins"), _("losses"), _("draws")], rows, right=(2, 3, 4)))
    return out


def _stats_games(stats: dict) -> list[str]:
    """Per game: sessions, average rounds and minutes, and its record score."""
    from companion.record import stats as history

    if not stats["games"]:
        return []
    rows = []
    for g in stats["games"]:
        rec = g["record"]
        coop = g.get("coop")
        if rec:
            from companion.record.report import record_words

            best = record_words(rec)
        else:
            best = _("co-op: won {wins} of {n}").format(wins=coop["wins"], n=coop["sessions"]) if coop else ""
        rows.append([history.shown_title(g["game"]), g["sessions"] + (coop["sessions"] if coop else 0),
                     "" if g["average_rounds"] is None else _num(g["average_rounds"]),
                     "" if g["average_minutes"] is None else _num(g["average_minutes"]), best])
    return ["", _("Games:"), table([_("game"), _("sessions"), _("avg rounds"), _("avg minutes"), _("record score")],
                                   rows, right=(1, 2, 3))]


def _stats_left(stats: dict) -> list[str]:
    """The sessions not counted: in play, and abandoned."""
    from companion.record import stats as history
    from companion.record.shown import day

    out: list[str] = []
    if stats["unfinished"]:
        rows = [[u["id"], u["game"], ", ".join(u["players"]), day(history.local_date(u["created"]))]
                for u in stats["unfinished"]]
        out += ["", _("In play (not counted):"), table([_("id"), _("game"), _("players"), _("started")], rows)]
    if stats["abandoned"]:
        rows = [[u["id"], u["game"], ", ".join(u["players"]), day(history.local_date(u["created"])), u["reason"]]
                for u in stats["abandoned"]]
        out += ["", _("Abandoned (no result, not counted):"),
                table([_("id"), _("game"), _("players"), _("started"), _("reason")], rows)]
    return out


@click.command(help=N_("Wins, win rates, streaks, scores, head-to-head and records (finished sessions only)."))
@click.option("--player", metavar="NAME", help=N_("One player's statistics and head-to-head."),
              shell_complete=completes("players"))
@click.option("--game", metavar="GAME", help=N_("Only sessions of this game (an id from `games`, or a title)."),
              shell_complete=completes("games"))
@click.option("--since", metavar="DATE", help=N_("Only sessions started on or after DATE (YYYY-MM-DD)."))
@click.option("--html", "html_file", type=click.Path(path_type=Path, allow_dash=True), metavar="FILE",
              help=N_("Also write the statistics as one self-contained HTML page (FILE `-`: to standard output, "
                   "instead of the table)."))
@force_option
@click.option("--ratings", is_flag=True, help=N_("Skill ratings per player, per game and overall (openskill)."))
@json_option
@pass_app
@without_cycle_collection()
def stats(app, player: str | None, game: str | None, since: str | None, html_file: Path | None, force: bool,
          ratings: bool, as_json: bool) -> None:
    from companion.record import stats as history

    if to_standard_output(html_file) and as_json:
        raise CompanionError(_("--html - and --json both write to standard output: give one of them, or a file name "
                               "after --html."))
    if html_file is not None and not to_standard_output(html_file):
        check_output(app, html_file, force)
    entries, roster = _store_roster(app)
    if ratings:
        from companion.record import ratings as skill

        if html_file is not None:
            raise CompanionError(_("`stats --ratings` prints to the screen: leave out --html."))
        from companion.core import shared_log
        from companion.core.store import file_signature

        fingerprint = json.dumps([file_signature(app.store.index_path),
                                  shared_log.signature(app.store, "players", "players.json")])
        result = skill.compute(entries, roster, game=game, player=player, since=since,
                               cache=app.store.cache_dir / "ratings.json", fingerprint=fingerprint)
        if as_json:
            echo_json(result, "ratings")
        else:
            click.echo(render_ratings(result))
        return
    result = history.compute(entries, roster, player=player, game=game, since=since)
    if html_file is not None:
        from companion.record import report as pages

        if to_standard_output(html_file):
            click.echo(pages.stats_html(result), nl=False)
            return
        write_output(app, html_file, pages.stats_html(result), force)
    if as_json:
        echo_json(result, "stats")
    elif html_file is not None:
        click.echo(ngettext("Wrote the statistics of {n} finished session to {file}.",
                            "Wrote the statistics of {n} finished sessions to {file}.",
                            result["sessions"]).format(n=result["sessions"], file=html_file))

    else:
        click.echo(render_stats(result))


# -- export and import -------------------------------------------------------------------------


def write_output_stream(app, path: Path, write, force: bool, newline: str | None = None,
                        binary: bool = False) -> None:
    """:func:`write_output` for a long text written piece by piece by ``write(stream)`` (the
    json export of 50,000 sessions is never held whole in memory), or bytes (``binary``: a
    player's QR code)."""
    import contextlib
    import os
    import tempfile

    from companion.contract.errors import StoreError

    target = check_output(app, path, force)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with (os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8", newline=newline)) as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        if force:
            os.replace(tmp, target)
        else:
            os.link(tmp, target)  # fails if the name exists: no-clobber, atomically
    except FileExistsError:
        raise CompanionError(_("{path} exists already: add --force to replace it, or give another name.").format(
            path=path)) from None
    except OSError as exc:
        raise StoreError(_("Could not write {path}: {error}. Nothing was written.").format(
            path=path, error=exc.strerror or exc)) from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def to_stdout(text: str) -> None:
    """`export --excel` on standard output: its byte order mark and CRLF line ends as they
    are, every control character that came from data shown as an escape (as all output is)."""
    import sys

    from companion.contract.text import safe_text

    bom = text.startswith("\ufeff")
    lines = (text[1:] if bom else text).split("\r\n")
    safe = ("\ufeff" if bom else "") + "\r\n".join(safe_text(line) for line in lines)
    stream = sys.stdout
    inner = getattr(stream, "_stream", stream)  # the terminal's own stream under the escaping one
    buffer = getattr(inner, "buffer", None)
    if buffer is not None:
        inner.flush()
        buffer.write(safe.encode("utf-8"))
        buffer.flush()
    else:
        inner.write(safe)


@click.command(help=N_("Export sessions: json (to import elsewhere), csv, BoardGameGeek play XML, or one play for\n"
    "BG Stats (`export ID --format bgstats-link`; ID: the current session if left out)."))
@click.argument("session_id", metavar="[ID]", required=False, shell_complete=completes("sessions"))
@click.option("--format", "fmt", type=click.Choice(formats.NAMES), default="json", show_default=True,
              help=formats.help_text())
@click.option("--game", metavar="GAME", help=N_("Only sessions of this game (an id or a title)."),
              shell_complete=completes("games"))
@click.option("--player", metavar="NAME", help=N_("Only sessions this player sat in."), shell_complete=completes("players"))
@click.option("--excel", is_flag=True, help=N_("csv: UTF-8 with a byte order mark and CRLF line ends, for Excel and "
                                            "LibreOffice."))
@click.option("-o", "--output", type=click.Path(path_type=Path, allow_dash=True), metavar="FILE",
              help=N_("Write to FILE instead of printing (`-`: standard output)."))
@force_option
@pass_app
@without_cycle_collection()
def export(app, session_id: str | None, fmt: str, game: str | None, player: str | None, excel: bool,
           output: Path | None, force: bool) -> None:
    from companion.record import exporting
    from companion.record.plays import bgg_id_of

    dash = to_standard_output(output)
    if dash:
        output = None
    if formats.FORMATS[fmt].binary and output is None and not dash:
        raise CompanionError(_("--format {format} writes a file: add -o FILE (`export --format {format} -o "
                               "plays.{format}`), or -o - for standard output.").format(format=fmt))
    if excel and fmt != "csv":
        raise CompanionError(_("--excel is for the csv export: add --format csv."))
    if output is not None:
        check_output(app, output, force)
    if formats.FORMATS[fmt].writes == formats.PLAY:
        from companion.record import bgstats
        from companion.record import players as registry

        if game or player:
            raise CompanionError(_("--format {format} exports one play: give its session id (`export ID --format "
                                   "{format}`), not --game or --player.").format(format=fmt))
        if session_id:
            app.session_override = session_id
        s = app.session()
        play = bgstats.play(s, s.replay(), registry.roster(app.store), bgg_id_of(app.store, s.meta))
        text = formats.FORMATS[fmt].write(play)
        if output is None:
            click.echo(text, nl=False)
            return
        write_output(app, output, text, force)
        click.echo(_("Exported session {id} ({title}) for BG Stats to {file}.").format(id=s.id, title=_(s.title),
                                                                                     file=output))
        return
    only = app.store.resolve(session_id) if session_id else None
    if output is None:
        if formats.FORMATS[fmt].binary:
            import io
            import sys

            buffer = io.BytesIO()
            entries = exporting.export_to(app.store, fmt, buffer, game, player, only)
            stream = getattr(sys.stdout, "buffer", None)
            if stream is None:  # a stream of text only (a test's): the bytes as latin-1 text
                sys.stdout.write(buffer.getvalue().decode("latin-1"))
            else:
                sys.stdout.flush()
                stream.write(buffer.getvalue())
                stream.flush()
        elif fmt == "csv":
            text, entries = exporting.export(app.store, fmt, game, player, only, excel)
            if excel:
                to_stdout(text)
            else:
                click.echo(text, nl=False)
        else:
            import sys

            stream = sys.stdout
            entries = exporting.export_to(app.store, fmt, stream, game, player, only)
            stream.flush()
    else:
        found: list[list[dict]] = []
        write_output_stream(app, output, lambda fh: found.append(
            exporting.export_to(app.store, fmt, fh, game, player, only, excel)), force, newline="",
            binary=formats.FORMATS[fmt].binary)
        entries = found[0]
        n = len(entries)
        click.echo(ngettext("Exported {n} session as {format} to {file}.", "Exported {n} sessions as {format} to {file}.",
                            n).format(n=n, format=fmt, file=output))
    if excel:
        from companion.record.csv_export import excel_form_note

        note = excel_form_note()
        if note:
            click.echo(note, err=True)

    secret = exporting.unfinished_dealt(app.store, entries) if fmt == "json" else []
    put_away = {e["id"] for e in entries if "abandoned_at" in (e.get("summary") or {})}
    playing = [sid for sid in secret if sid not in put_away]
    stopped = [sid for sid in secret if sid in put_away]
    if playing:
        click.echo(_("Note: {ids} still in play: the file holds their secret deal seeds, which show "
                     "every hand. Keep it from the players until those games are over.").format(ids=", ".join(playing)),
                   err=True)
    if stopped:  # abandoned: over, but `undo` there would bring the game back with the same seed
        click.echo(ngettext("Note: {ids} was abandoned: the file holds its deal seed, which shows the hands dealt "
                            "(and would deal on if `undo` took the abandon back).",
                            "Note: {ids} were abandoned: the file holds their deal seed, which shows the hands dealt "
                            "(and would deal on if `undo` took the abandon back).",
                            len(stopped)).format(ids=", ".join(stopped)), err=True)


@click.command("import", help=N_("Add the sessions of a json export (from another laptop) to this data folder; games\n"
    "continued there are brought up to date."))
@click.argument("file", type=click.Path(path_type=Path, allow_dash=True), metavar="FILE")
@click.option("--skip-conflicts", is_flag=True,
              help=N_("Import everything else when a session has diverged, and list what was skipped."))
@click.option("--dry-run", is_flag=True, help=N_("Say what the import would do, changing nothing."))
@pass_app
def import_cmd(app, file: Path, skip_conflicts: bool, dry_run: bool) -> None:
    from companion.record import import_checks, import_limits, import_merge

    if str(file) == "-":  # standard input: `companion export | ssh other companion import -`
        import sys

        stream = getattr(sys.stdin, "buffer", sys.stdin)
        raw = stream.read(import_limits.MAX_FILE_BYTES + 1)
        if isinstance(raw, str):
            raw = raw.encode("utf-8")
        file = Path(_("standard input"))
        done = import_merge.import_bundle(app.store, import_checks.read_bundle_sized(raw, _("standard input")),
                                          skip_conflicts, dry_run)
    else:
        done = import_merge.import_file(app.store, file, skip_conflicts=skip_conflicts, dry_run=dry_run)
    added, skipped = len(done.added), len(done.skipped)
    name = file.name if str(file) != "standard input" else _("standard input")
    if dry_run:
        head = ngettext("Would import {n} session from {file}", "Would import {n} sessions from {file}", added)
    else:
        head = ngettext("Imported {n} session from {file}", "Imported {n} sessions from {file}", added)
    parts = [head.format(n=added, file=name)]
    if skipped:
        parts.append(ngettext("{n} was already here", "{n} were already here", skipped).format(n=skipped))
    if done.continued:
        parts.append(_("{n} continued").format(n=len(done.continued)))
    if done.aliases:
        parts.append(ngettext("{n} player name added", "{n} player names added", done.aliases).format(n=done.aliases))
    if done.titles:
        parts.append(ngettext("{n} title added or completed", "{n} titles added or completed",
                              done.titles).format(n=done.titles))
    lines = [parts[0] + (f" ({'; '.join(parts[1:])})" if len(parts) > 1 else "") + "."]
    for sid, n in done.continued:
        lines.append((ngettext("would be continued: {id}, {n} new event", "would be continued: {id}, {n} new events", n)
                      if dry_run else ngettext("continued: {id}, {n} new event", "continued: {id}, {n} new events", n))
                     .format(id=sid, n=n))
    for sid in done.ahead:
        lines.append(_("kept: {id} went further here than in the file").format(id=sid))
    for sid, why in done.conflicts:
        lines.append((_("would be skipped: {id} has diverged: {why}") if dry_run else
                      _("skipped: {id} has diverged: {why}")).format(id=sid, why=why))
    lines += [_("would be {what}").format(what=line) if dry_run else line for line in done.title_conflicts]
    if dry_run:
        lines.append(_("Dry run: nothing was changed."))
    click.echo("\n".join(lines))


# -- report ------------------------------------------------------------------------------------


def render_report(facts: dict) -> str:
    """A session's report in the terminal: result, scores, score lines and the log."""
    from companion.record import report as pages
    from companion.terminal.render import scale_words, sparkline, wrap

    when = pages.when_words(facts)
    rounds = " · " + _("round {round}").format(round=facts["round"]) if facts["round"] is not None else ""  # a game may have no rounds
    out = [wrap(_("Session {id} · {game} · {when}").format(id=facts["id"], game=_(facts["title"]), when=when) + rounds),
           wrap(pages.result_words(facts)), ""]
    rows = []
    series = dict(zip(facts["seats"], (vs for _, vs in facts["series"])))
    every = [v for vs in series.values() for v in vs if isinstance(v, (int, float)) and not isinstance(v, bool)]
    lo, hi = (min(every), max(every)) if every else (0, 0)
    for seat, name in enumerate(facts["seats"], 1):
        shown = facts["shown"][name]
        values = [v for v in series.get(name, []) if isinstance(v, (int, float))]
        extra = [x for x in (facts["roles"].get(name),
                             next((_("team {names}").format(names="+".join(t)) for t in facts.get("teams") or []
                                   if shown in t), None)) if x]
        rows.append([seat, shown + (" " + _("(recorded as {name})").format(name=name) if shown != name else "")
                     + (f" ({', '.join(extra)})" if extra else ""), pages.as_written(facts["scores"].get(name)),
                     facts["ranks"].get(name, ""), _("winner") if name in facts["winners"] else "",
                     sparkline(values, lo, hi)][:None if facts["chart"] else -1])
    by = {"round": N_("by round"), "event": N_("by event")}  # the chart's x axis (report.score_series)
    axis = (_(by[facts["axis"]]) if facts["axis"] in by else _("by {axis}").format(axis=facts["axis"])) \
        + (f" ({scale_words(lo, hi)})" if every else "")
    out.append(table([_("seat"), _("player"), _("score"), _("rank"), "", axis][:None if facts["chart"] else -1], rows,
                     right=(0, 2, 3)))
    out += ["", _("Log:")]
    # a long note continues under its own words, not under the event's number
    out += [wrap(f"{n:>3}. {t:<5}  {words}", indent=" " * (12 - len(f"{n:>3}") + len(str(n))))
            for n, t, words in facts["log"]] or ["  " + _("nothing recorded yet")]
    return "\n".join(out)


@click.command(help=N_("A session's report: players, scores, winners, a score chart and the log in words."))
@click.argument("session_id", metavar="[ID]", required=False, shell_complete=completes("sessions"))
@click.option("--html", "html_file", type=click.Path(path_type=Path, allow_dash=True), metavar="FILE",
              help=N_("Write the report as one self-contained HTML page (with a chart) instead (FILE `-`: to "
                   "standard output)."))
@force_option
@pass_app
@without_cycle_collection()
def report(app, session_id: str | None, html_file: Path | None, force: bool) -> None:
    from companion.record import players as registry
    from companion.record import report as pages

    if session_id:
        app.session_override = session_id
    if html_file is not None and not to_standard_output(html_file):
        check_output(app, html_file, force)
    s = app.session()
    replay = s.replay()
    roster = registry.session_roster(app.store, s.players)  # this session's names only: any size of store
    facts = pages.session_facts(s, replay, roster)
    if replay.finished and not replay.abandoned:
        from companion.record import bgstats

        facts["bgstats"] = bgstats.session_link(app.store, s, replay, roster)
    if html_file is None:
        click.echo(render_report(facts))
        if facts["bgstats"]:
            show_bgstats(facts["bgstats"])
        return
    if to_standard_output(html_file):
        click.echo(pages.session_html(facts), nl=False)
        return
    write_output(app, html_file, pages.session_html(facts), force)
    click.echo(_("Wrote the report of session {id} ({title}) to {file}.").format(id=s.id, title=_(facts["title"]),
                                                                               file=html_file))



def show_bgstats(link: str) -> None:
    """"Add to BG Stats" after a finished play's report: the link, and on a terminal wide
    enough its QR code (black on white, so it scans on a dark or a light terminal)."""
    from companion.record import bgstats
    import sys

    from companion.terminal.render import colour_wanted, echo_drawn, screen_width, terminal_width

    width = terminal_width(sys.stdout)

    def say(text: str) -> None:  # on a terminal at spaces (German runs longer); piped, one line
        click.echo(wrap(text, width) if width else text)

    click.echo("")
    why = bgstats.too_long(link)
    if why is not None:  # no code holds it: the link alone, the reason in one line (issue 29)
        say(_("Add to BG Stats: open this link on the phone or tablet that has BG Stats:"))
        click.echo(link)
        say(_("({reason}; `report ID --html FILE` writes it in a page to open there.)").format(
            reason=why[:1].lower() + why[1:-1]))
        return
    say(_("Add to BG Stats: open this link on the phone or tablet that has BG Stats, or scan the code:"))
    click.echo(link)
    if not colour_wanted():
        say(_("(The QR code is drawn on a terminal, in colour; `report ID --html FILE` has it too.)"))
        return
    need = bgstats.qr_width(link)
    if need > screen_width():
        say(_("(The QR code needs {n} columns: widen the terminal, or `report ID --html FILE` shows it.)").format(n=need))
        return
    rows = bgstats.qr_rows(link) or []
    echo_drawn("\n".join(rows))


# -- delete and restore ------------------------------------------------------------------------


@click.command(help=N_("Move session ID into the data folder's bin (`restore ID` brings it back whole)."))
@click.argument("session_id", metavar="ID", shell_complete=completes("sessions"))
@click.option("--yes", is_flag=True, help=N_("Delete without asking (needed in script mode)."))
@pass_app
def delete(app, session_id: str, yes: bool) -> None:
    from companion.record import trash

    sid = app.store.resolve(session_id)
    s = sessions.load(app.store, sid)
    what = _("session {id} ({game} with {players}, started {date})").format(
        id=sid, game=_(s.game.title), players=", ".join(s.players), date=s.meta["created"][:10])
    if not yes:
        if not app.can_ask():
            raise CompanionError(_("`delete` moves {what} to the bin: add --yes to do it here "
                                   "(`delete {id} --yes`).").format(what=what, id=sid))
        answer = app.ask(_("Move {what} to the bin? `restore {id}` brings it back. [y/N] ").format(what=what, id=sid),
                         "")
        from companion.terminal.groups import is_yes

        if not is_yes(answer):
            click.echo(_("Kept session {id}; nothing was changed.").format(id=sid))
            return
    trash.delete(app.store, sid)
    from companion.terminal.render import wrap

    click.echo(wrap(_("Deleted {what}: it is in the bin, out of stats and exports. `restore {id}` brings it back.").format(
        what=what, id=sid)))


@click.command(help=N_("Bring a deleted session back from the bin (`sessions --deleted` lists it)."))
@click.argument("session_id", metavar="ID", shell_complete=completes("sessions"))
@pass_app
def restore(app, session_id: str) -> None:
    from companion.record import trash

    s = trash.restore(app.store, session_id)
    from companion.terminal.render import wrap

    click.echo(wrap(_("Restored session {id} ({game} with {players}): it counts again.").format(
        id=s.id, game=_(s.game.title), players=", ".join(s.players))))


# -- a play logged after the fact --------------------------------------------------------------


def parse_final_scores(text: str) -> dict[str, int | float | None]:
    """`Ann=52,Bob=47.5` (commas or spaces between) -> {'Ann': 52, 'Bob': 47.5}, in seat order;
    `Ann,Bob,Cy` (names alone: a co-operative play, a rank-only one) -> {'Ann': None, ...}.

    A part between commas with one `=` is one pair, so a name with a space in it
    (`Bartholomew Jones=47`) is whole, as `new --players` takes it."""
    from companion.contract.numbers import parse_points
    from companion.contract.written import number as written_number

    if "=" not in text:  # names without scores
        names = [n.strip() for n in text.split(",")]
        if not any(names):
            raise click.UsageError(_("Give every player's final score: --players Ann=52,Bob=47"))
        return {n: None for n in names}
    items = [part for chunk in text.split(",")
             for part in ([chunk.strip()] if chunk.count("=") == 1 else chunk.split())]
    scores: dict[str, int | float | None] = {}
    for item in (i for i in items if i):
        name, sep, number = item.partition("=")
        if not sep or not name.strip():
            raise click.UsageError(_("{item} is not NAME=SCORE: write every player like Ann=52, or the names alone "
                                     "for a co-operative or rank-only play (--players Ann,Bob)").format(item=repr(item)))
        value = parse_points(number)
        if value is None:
            raise click.UsageError(_("{item}: {typed} is not a number; write it like {name}=52 or {name}={half}").format(
                item=repr(item), typed=repr(number.strip()), name=name.strip(), half=written_number(47.5)))
        if name.strip() in scores:
            raise CompanionError(_("{name} is given twice: give each player once.").format(name=name.strip()))
        scores[name.strip()] = value
    if not scores:
        raise click.UsageError(_("Give every player's final score: --players Ann=52,Bob=47"))
    return scores


def parse_ranks(text: str) -> dict[str, int]:
    """`Ann=1,Bob=2,Cy=2` -> {'Ann': 1, 'Bob': 2, 'Cy': 2}: a rank-only play (ties share a rank)."""
    out: dict[str, int] = {}
    for part in (p.strip() for p in text.split(",") if p.strip()):
        name, sep, rank = part.partition("=")
        try:
            value = int(rank.strip()) if sep else 0
        except ValueError:
            value = 0
        if not name.strip() or value < 1:
            raise click.UsageError(_("--ranks: {part} is not NAME=RANK: write it like --ranks Ann=1,Bob=2").format(
                part=repr(part)))
        out[name.strip()] = value
    if not out:
        raise click.UsageError(_("--ranks names every player's place: --ranks Ann=1,Bob=2"))
    return out


def parse_length(text: str | None) -> int | None:
    """`--length 45m`, `1h30m`, `1h`, `90` or `1:30` -> whole minutes."""
    import re

    if text is None:
        return None
    raw = text.strip().lower().replace(" ", "")
    found = re.fullmatch(r"(?:(\d+)h)?(?:(\d+)(?:m|min)?)?", raw) if raw else None
    if found and any(found.groups()):
        hours, minutes = (int(g) if g else 0 for g in found.groups())
    elif re.fullmatch(r"\d+:\d\d", raw):
        hours, minutes = (int(g) for g in raw.split(":"))
    else:
        raise CompanionError(_("{typed} is not a length: write it like --length 45m, --length 1h30m or --length 90.").format(
            typed=repr(text)))
    total = hours * 60 + minutes
    if total > 100_000:
        raise CompanionError(_("{typed} is longer than any game: check the length.").format(typed=repr(text)))
    return total




def resolve_game(app, name: str):
    """(game, title): the game `played GAME` means. A game id or a game's own title is that
    game; any other name is a score sheet with that title (issue 23)."""
    from companion.core import registry, titles
    from companion.contract.text import name_key

    wanted = name.strip()
    if wanted.lower() in registry.known():  # an installed game, even one that fails to load (it says why)
        return registry.get(wanted.lower()), None
    for gid in registry.available():
        try:
            game = registry.get(gid)
        except CompanionError:
            continue
        if name_key(game.title) == name_key(wanted):
            return game, None
    record = titles.find(app.store, wanted)
    if record is None:  # a new title: a typo of a game id is refused, not logged as a new game
        import difflib

        close = difflib.get_close_matches(wanted.lower(), list(registry.known()), n=1, cutoff=0.75)
        if close:
            raise CompanionError(_("There is no game {name}: did you mean {guess}? (To log another game by that "
                                   "name: `played scoresheet --title {title} ...`.)").format(
                name=repr(wanted), guess=close[0], title=shlex_quote(wanted)))
        title = titles.check_title(wanted)
    else:
        title = record["title"]
    return registry.get("scoresheet"), title


def shlex_quote(text: str) -> str:
    import shlex

    return shlex.quote(text)


@click.command(help=N_("Log a finished play from its result alone (it counts in stats like any other).\n"
    "\n"
    "GAME is a game id (`games` lists them), or the name of any other game (`played Carcassonne\n"
    "--players Ann=52,Bob=47`): the title is remembered with --lowest-wins, --coop, --no-points,\n"
    "--tie-breaker and --bgg-id. The winners follow the game's own rule; give --winner when scores\n"
    "tie and the rule needs more than scores (money, the youngest ship ...). The current session\n"
    "is left as it was."))
@click.argument("game_id", metavar="GAME", shell_complete=completes("games"))
@click.option("--players", "players_", metavar="Ann=52,Bob=47",
              help=N_("Every player's final score, in seat order (Ann,Bob alone: a co-op or rank-only play)."))
@click.option("--ranks", metavar="Ann=1,Bob=2", help=N_("Each player's place, for a game that ranks without points."))
@click.option("--winner", "winners", multiple=True, metavar="NAME", shell_complete=completes("players"),
              help=N_("Who won (repeat for a shared win): a tie the rules settle, or a game without points."))
@click.option("--won", "coop_won", flag_value="won", default=None, help=N_("A co-operative play the players won together."))
@click.option("--lost", "coop_won", flag_value="lost", help=N_("A co-operative play the players lost together."))
@click.option("--start", metavar="NAME", shell_complete=completes("players"), help=N_("Who started (default: the first named); the seats go round from there."))
@click.option("--roles", metavar="Ann=red,Bob=Mayor", help=N_("Each player's colour or role."))
@click.option("--length", metavar="45m", help=N_("How long it took: 45m, 1h30m, 90."))
@click.option("--played-on", metavar="YYYY-MM-DD[THH:MM]", help=N_("When it was played (default: now)."))
@click.option("--location", metavar="TEXT", help=N_("Where it was played."))
@click.option("--note", "--comment", "note_text", metavar="TEXT", help=N_("A comment kept with the play."))
@sheet_options
@json_option
@pass_app
def played(app, game_id: str, players_: str | None, ranks: str | None, winners: tuple[str, ...],
           coop_won: str | None, start: str | None, roles: str | None, length: str | None, played_on: str | None,
           location: str | None, note_text: str | None, as_json: bool, **named) -> None:
    from companion.games.kit import sheet_setup, split_teams, team_points

    game, title = resolve_game(app, game_id)
    sheet = game.id == "scoresheet"
    _sheet_options_only_for_a_sheet(game, named)
    if title is not None:
        named["title"] = title
    options = sheet_setup(named) if sheet else {}
    options.pop("_players", None)
    remember = options.pop("_remember", None)
    coop = bool(options.get("coop"))
    teams = split_teams(named.get("teams"))
    team_totals = team_points(named.get("teams"))
    scores = _played_players(players_, teams, ranks)
    names = sessions.check_players(list(scores), game)
    scores = dict(zip(names, scores.values()))
    seats = sessions.seat_from(names, start)
    event: dict = {"type": "played"}
    if teams is not None:
        teams, team_totals = _played_teams(event, names, scores, teams, team_totals)
    have_scores = all(v is not None for v in scores.values())
    if any(v is not None for v in scores.values()) and not have_scores:
        raise click.UsageError(_("Give every player's final score (--players Ann=52,Bob=47), or none of them."))
    if have_scores and options.get("no_points"):
        raise CompanionError(_("{game} has no points (--no-points): name the winners with --winner "
                               "or give --ranks.").format(game=_(title or game.title)))
    if coop_won is not None and not coop:
        raise CompanionError(_("--won and --lost are for a co-operative game: add --coop."))
    rank_of = _played_ranks(ranks, names)
    chosen = _played_winners(game, title, options, event, names, seats, scores, teams, team_totals, coop, coop_won,
                             winners, rank_of, have_scores)
    if have_scores:
        event["scores"] = {p: scores[p] for p in seats}
    if rank_of is not None:
        event["ranks"] = {p: rank_of[p] for p in seats}
    event["winners"] = [p for p in seats if p in chosen]
    if winners and have_scores and not coop:
        best = min(scores.values()) if options.get("lowest_wins") else max(scores.values())
        tied = [p for p in names if scores[p] == best]
        if len(tied) > 1 and set(event["winners"]) < set(tied):  # a tie the rules settled
            event["tie_break"] = named.get("tie_break") or options.get("tie_break") or game.tie_break or N_("the rules")
    minutes = parse_length(length)
    if minutes is not None:
        event["minutes"] = minutes
    if teams is not None and not sheet:
        raise CompanionError(_("--teams is for a game without rules of its own; {game} has its own.").format(
            game=_(game.title)))
    if sheet and teams is not None:
        options["teams"] = teams
    extra = {"played_on": sessions.parse_played_on(played_on), "location": sessions.parse_location(location),
             "roles": parse_roles(roles, names)}
    sessions.check_played(seats, event)  # its refusal in its own words, before anything is made
    events = [event]
    if note_text is not None:
        events.append({"type": "note", "text": note_text.strip()})
    s = sessions.create(app.store, game.id, seats, options, None, "", extra, events, make_current=False)
    if remember is not None:
        from companion.core import titles

        titles.remember(app.store, *remember)
    if as_json:
        echo_json(s.status(), "played")
        return
    click.echo(wrap(_logged_line(s, extra, event, teams, have_scores, rank_of, seats)))


def _sheet_options_only_for_a_sheet(game, named: dict) -> None:
    """A score sheet's options (--lowest-wins, --coop, --bgg-id ...) refused for a game with
    rules of its own, naming the first one given."""
    given = [k for k in ("lowest_wins", "coop", "no_points", "tie_break", "bgg_id", "teams") if named.get(k) is not None]
    if game.id != "scoresheet" and given:
        option = "--" + given[0].replace("_", "-").replace("tie-break", "tie-breaker")
        if given[0] == "bgg_id":
            raise CompanionError(_("{option} is for a game without rules of its own; {game} has its own: its "
                                   "BoardGameGeek id is set with `data set {id} bgg_id N`.").format(
                option=option, game=_(game.title), id=game.id))
        raise CompanionError(_("{option} is for a game without rules of its own; {game} has its own.").format(
            option=option, game=_(game.title)))


def _played_ranks(ranks: str | None, names: list) -> dict | None:
    """Each player's place from --ranks (every player named once), or None."""
    from companion.contract.api import player_name

    if ranks is None:
        return None
    rank_of = {player_name(names, n): r for n, r in parse_ranks(ranks).items()}
    if sorted(rank_of) != sorted(names):
        raise CompanionError(_("--ranks names every player's place: {names}.").format(names=", ".join(names)))
    return rank_of


def _played_players(players_: str | None, teams: list | None, ranks: str | None) -> dict:
    """`played`'s players and their scores (None where not given): from --players, else the
    teams' members, else the ranks' names."""
    if players_ is not None:
        return parse_final_scores(players_)
    if teams is not None:
        return {n: None for t in teams for n in t}
    if ranks is not None:
        return {n: None for n in parse_ranks(ranks)}
    raise click.UsageError(_("Give the players: --players Ann=52,Bob=47 (or --players Ann,Bob with --won, --lost, "
                             "--ranks or --winner)."))


def _played_teams(event: dict, names: list, scores: dict, teams: list, team_totals: list | None) -> tuple:
    """The teams as seated and their points (given per team, or added up from the players'),
    written into ``event``; each player's score is their team's when given per team."""
    from companion.contract.api import player_name

    teams = [[player_name(names, n) for n in t] for t in teams]
    if sorted(p for t in teams for p in t) != sorted(names):
        raise CompanionError(_("--teams names every player once (the players are {names}).").format(
            names=", ".join(names)))
    if team_totals is not None:
        if any(v is not None for v in scores.values()):
            raise CompanionError(_("Give the points once: after each team (--teams \"Ann+Bob=52,Cy+Dee=47\") or "
                                   "after each player (--players Ann=30,Bob=22,...)."))
        for team, pts in zip(teams, team_totals):
            for p in team:
                scores[p] = pts
    elif all(v is not None for v in scores.values()):
        from companion.contract.numbers import tidy

        team_totals = [tidy(sum(scores[p] for p in t)) for t in teams]
    event["teams"] = teams
    if team_totals is not None:
        event["team_scores"] = team_totals
    return teams, team_totals


def _played_winners(game, title, options: dict, event: dict, names: list, seats: list, scores: dict, teams,
                    team_totals, coop: bool, coop_won: str | None, winners: tuple, rank_of: dict | None,
                    have_scores: bool) -> list:
    """Who won a logged play: together (co-op), as named (with their teams), by rank, or by the
    game's own rule from the scores; a tie the rule cannot settle from scores is refused."""
    from companion.contract.api import player_name

    if coop:
        if coop_won is None:
            raise CompanionError(_("A co-operative play is won or lost together: add --won or --lost."))
        if winners:
            raise CompanionError(_("In a co-operative play everyone wins or loses together: leave out --winner."))
        event.update(coop=True, won=coop_won == "won")
        return list(seats) if coop_won == "won" else []
    if winners:
        chosen = []
        for w in winners:
            name = player_name(names, w)
            for member in next((t for t in teams or [] if name in t), [name]):
                if member not in chosen:
                    chosen.append(member)
        return chosen
    if rank_of is not None:
        return [p for p in seats if rank_of[p] == 1]
    if have_scores:
        sides = {"+".join(t): v for t, v in zip(teams, team_totals)} if teams and team_totals is not None \
            else dict(scores)
        top = game.played_winners(sides, options)
        if top is None:
            best = min(sides.values()) if options.get("lowest_wins") else max(sides.values())
            tied = [p for p, v in sides.items() if v == best]
            rule = _(options.get("tie_break") or game.tie_break or N_("its tie-breaker"))
            raise CompanionError(
                _("{names} tie at {points}: {game} settles that by {rule}, which the "
                  "scores do not show. Add --winner NAME (repeat it for a shared win).").format(
                    names=_(" and ").join(tied), points=points(best), game=_(title or game.title), rule=rule))
        return [p for p in seats if any(p in side.split("+") for side in top)]
    raise CompanionError(_("Say who won: --winner NAME, --ranks Ann=1,Bob=2, or the scores (--players Ann=52,Bob=47)."))


def _logged_line(s, extra: dict, event: dict, teams, have_scores: bool, rank_of: dict | None, seats: list) -> str:
    """`Logged session ID: TITLE on DAY at PLACE: Ann 52, Bob 47; Ann wins.`"""
    coop = bool(event.get("coop"))
    when = _(" on {date}").format(date=extra["played_on"]) if extra["played_on"] else ""
    where = _(" at {place}").format(place=extra["location"]) if extra["location"] else ""
    if coop:
        won = _("won together") if event["won"] else _("lost together")
    elif teams and event["winners"]:
        won = _("the team of {names} wins").format(names=", ".join(event["winners"]))
    elif len(event["winners"]) == 1:
        won = _("{name} wins").format(name=event["winners"][0])
    else:
        won = _("shared win for {names}").format(names=", ".join(event["winners"]))
    if event.get("tie_break"):
        won = _("{result} (tie settled by {rule})").format(result=won, rule=_(event["tie_break"]))
    if have_scores:
        result = ", ".join(f"{p} {points(v)}" for p, v in event["scores"].items())
    elif rank_of is not None:
        result = ", ".join(f"{p} #{r}" for p, r in event["ranks"].items())
    else:
        result = ", ".join(seats)
    return _("Logged session {id}: {title}{when}{where}: {result}; {won}.").format(
        id=s.id, title=_(s.title), when=when, where=where, result=result, won=won)
