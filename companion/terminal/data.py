"""`data ...`: the printed values the rules need, from the shipped packs and from the players."""

from __future__ import annotations

from companion.contract.language import N_, _, ngettext  # noqa: F401

import json

import click

from companion.core import datapack
from companion.games.kit import pass_app
from companion.contract.errors import CompanionError


def _game(game: str) -> str:
    names = datapack.pack_names()
    if game not in names:
        raise CompanionError(_("There is no printed data for {game}: the games with data are {names}.").format(
            game=repr(game), names=", ".join(names)))
    return game


def _short(value, width: int = 60) -> str:
    text = _("unknown") if value is None else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= width else text[: width - 3] + "..."


@click.group(help=N_("Printed game values: show them, supply the ones nobody knows, check what is missing."))
def data() -> None:
    pass


@data.command("show", help=N_("Show GAME's printed values (or the one at KEY, a dotted path) and where each came from."))
@click.argument("game")
@click.argument("key", required=False)
@pass_app
def show(app, game: str, key: str | None) -> None:
    _game(game)
    entries = datapack.by_current_keys(game, app.store.user_entries(game))  # a renamed key reads on
    values = datapack.merged(game, {k: e["value"] for k, e in entries.items()})
    key = datapack.current_key(game, key) if key else key

    def origin(k: str) -> str:
        if k in entries:
            return _("supplied by you on {date}").format(date=entries[k]["set_at"][:10])
        outer = [u for u in entries if k.startswith(u + ".")]
        if outer:
            return _("supplied by you on {date}").format(date=entries[outer[0]]["set_at"][:10])
        inner = [u for u in entries if u.startswith(k + ".")]
        src = datapack.source_text(game, k)
        if inner:
            yours = _("partly yours: {keys}").format(keys=", ".join(sorted(inner)))
            return (src + "; " if src else "") + yours
        return src or _("the game's pack")

    if key:
        try:
            value = datapack.get_path(values, key)
        except KeyError:
            if not datapack.known_key(game, key):
                raise CompanionError(_("{game} has no printed value {key}: `data show {game}` lists them.").format(
                    game=game, key=repr(key))) from None
            value = None
        click.echo(json.dumps(value, indent=2, ensure_ascii=False) if value is not None else _("unknown"))
        from companion.terminal.render import wrap

        click.echo(wrap(_("source: {source}").format(source=origin(key))))  # a quoted rule is long: at word boundaries
        if value is None:
            click.echo(_("supply it with: {command}").format(command=datapack.set_command(game, key)))
        return
    from companion.terminal.render import table

    rows = [[k, _short(v), origin(k)] for k, v in values.items()]
    click.echo(table([_("key"), _("value"), _("source")], rows, title=_("Printed values of {game}").format(game=game)))


@data.command("set", help=N_("Supply a printed value read off your own copy (KEY is a dotted path, VALUE is JSON)."))
@click.argument("game")
@click.argument("key")
@click.argument("value", metavar="JSON-VALUE")
@pass_app
def set_value(app, game: str, key: str, value: str) -> None:
    _game(game)
    try:
        parsed = json.loads(value)
    except (ValueError, RecursionError):  # not JSON, or an integer of thousands of digits
        raise CompanionError(
            _("{typed} is not a JSON value companion takes: write a number as 3, a list as '[1, 2]', "
              "text as '\"text\"'.").format(typed=repr(value[:40]))
        ) from None
    from companion.contract.numbers import check_numbers

    check_numbers(parsed)  # the bound `import` applies: a value set here can be exported and imported
    old, key = key, datapack.current_key(game, key)
    with app.store.writing():
        datapack.validate(game, key, parsed, app.store.user_values(game))
        # (in one write: the value under its old name would only hide behind the new one)
        app.store.change_user_values(game, {key: parsed}, unset=[old] if old != key else [])
    if old != key:
        click.echo(_("Set {game} {key} = {value}. ({old} is now called {key}.)").format(
            game=game, key=key, value=_short(parsed, 200), old=old))
    else:
        click.echo(_("Set {game} {key} = {value}.").format(game=game, key=key, value=_short(parsed, 200)))
    click.echo(_("New sessions use it, and so do sessions still waiting for it; finished scores never change."))


@data.command("accept", help=N_("Confirm the suggestion the pack offers for KEY (checked against your own board first).\n"
    "\n"
    "A suggestion comes from a public source, never from the printed game: it becomes a value\n"
    "only when the players confirm it, and is kept as theirs (`data unset` forgets it)."))
@click.argument("game")
@click.argument("key")
@pass_app
def accept(app, game: str, key: str) -> None:
    _game(game)
    hint = datapack.suggestions(game).get(key)
    if not hint or hint.get("value") is None or _has_unknown(hint["value"]):
        offered = [k for k, h in datapack.suggestions(game).items()
                   if h.get("value") is not None and not _has_unknown(h["value"])]
        if offered:
            raise CompanionError(_("{game} offers no whole suggestion for {key}: the ones to confirm are "
                                   "{keys}.").format(game=game, key=repr(key), keys=", ".join(offered)))
        raise CompanionError(_("{game} offers no whole suggestion for {key}.").format(game=game, key=repr(key)))
    with app.store.writing():
        datapack.validate(game, key, hint["value"], app.store.user_values(game))
        app.store.set_user_value(game, key, hint["value"])
    click.echo(_("Confirmed the suggested {game} {key}.").format(game=game, key=key))
    if hint.get("source"):
        click.echo(_("Source: {source}").format(source=hint["source"]))
    click.echo(_("Kept as your value (`data show {game} {key}`); `data unset {game} {key}` forgets it.").format(
        game=game, key=key))


def _has_unknown(value) -> bool:
    """A suggestion with a gap (None) is a hint to read, not a value to confirm."""
    if value is None:
        return True
    if isinstance(value, list):
        return any(_has_unknown(v) for v in value)
    if isinstance(value, dict):
        return any(_has_unknown(v) for v in value.values())
    return False


@data.command("unset", help=N_("Forget your own value at KEY (the game's pack value, or unknown, applies again)."))
@click.argument("game")
@click.argument("key")
@pass_app
def unset(app, game: str, key: str) -> None:
    _game(game)
    with app.store.writing():
        names = [key] + [old if new == key else new for old, new in datapack.renamed(game).items()
                         if new == key or old == key]  # the same value under its old name
        removed = app.store.change_user_values(game, unset=names)  # one write
    if not removed:
        raise CompanionError(_("You have no value of your own at {game} {key}: `data show {game}` lists them.").format(
            game=game, key=key))
    click.echo(_("Forgot your value of {game} {key}.").format(game=game, key=key))


@data.command("setup", help=N_("Go through every printed value GAME still lacks, one question at a time (in the shell).\n"
    "\n"
    "Each question says what needs the value and where on the box, the cards or the board it is\n"
    "printed, with the public suggestion (when there is one) as the default to confirm. Enter\n"
    "skips a question: it is asked again when a command needs it."))
@click.argument("game")
@pass_app
def setup_cmd(app, game: str) -> None:
    _game(game)
    from companion.terminal import setup

    if not app.can_ask():
        keys = setup.pending(app, game)
        if not keys:
            click.echo(_("Every printed value of {game} is known: nothing to set up (`data show {game}`).").format(
                game=game))
            return
        raise CompanionError(ngettext(
            "`data setup` asks its questions in the shell: type `companion` and then `data setup {game}` ({n} value "
            "unknown; `data check {game}` lists them with the `data set` line of each).",
            "`data setup` asks its questions in the shell: type `companion` and then `data setup {game}` ({n} values "
            "unknown; `data check {game}` lists them with the `data set` line of each).", len(keys)).format(
                game=game, n=len(keys)))
    setup.run(app, game)


@data.command("check", help=N_("List every printed value still unknown, and what needs it."))
@click.argument("game", required=False)
@pass_app
def check(app, game: str | None) -> None:
    from companion.terminal.render import wrap

    names = [_game(game)] if game else datapack.pack_names()
    missing = 0
    for g in names:
        values = datapack.merged(g, app.store.user_values(g))
        for key in datapack.missing(g, values):
            missing += 1
            need = datapack.need_text(g, key)
            click.echo(wrap(_("{game} {key}: unknown — {need}").format(game=g, key=key, need=need) if need else
                            _("{game} {key}: unknown").format(game=g, key=key)))
            # the command stays on one line, to be copied whole
            click.echo(f"    {datapack.set_command(g, key)}")
    if not missing:
        click.echo(_("Every printed value is known.") if not game else
                   _("Every printed value of {game} is known.").format(game=game))
