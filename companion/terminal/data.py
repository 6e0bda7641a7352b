"""`data ...`: the printed values the rules need, from the shipped packs and from the players."""

from __future__ import annotations

import json

import click

from companion.core import datapack
from companion.games.kit import pass_app
from companion.contract.errors import CompanionError


def _game(game: str) -> str:
    names = datapack.pack_names()
    if game not in names:
        raise CompanionError(f"There is no printed data for {game!r}: the games with data are {', '.join(names)}.")
    return game


def _short(value, width: int = 60) -> str:
    text = "unknown" if value is None else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= width else text[: width - 3] + "..."


@click.group()
def data() -> None:
    """Printed game values: show them, supply the ones nobody knows, check what is missing."""


@data.command("show")
@click.argument("game")
@click.argument("key", required=False)
@pass_app
def show(app, game: str, key: str | None) -> None:
    """Show GAME's printed values (or the one at KEY, a dotted path) and where each came from."""
    _game(game)
    entries = datapack.by_current_keys(game, app.store.user_entries(game))  # a renamed key reads on
    values = datapack.merged(game, {k: e["value"] for k, e in entries.items()})
    key = datapack.current_key(game, key) if key else key

    def origin(k: str) -> str:
        if k in entries:
            return f"supplied by you on {entries[k]['set_at'][:10]}"
        outer = [u for u in entries if k.startswith(u + ".")]
        if outer:
            return f"supplied by you on {entries[outer[0]]['set_at'][:10]}"
        inner = [u for u in entries if u.startswith(k + ".")]
        src = datapack.source_text(game, k)
        if inner:
            return (src + "; " if src else "") + "partly yours: " + ", ".join(sorted(inner))
        return src or "the game's pack"

    if key:
        try:
            value = datapack.get_path(values, key)
        except KeyError:
            if not datapack.known_key(game, key):
                raise CompanionError(f"{game} has no printed value {key!r}: `data show {game}` lists them.") from None
            value = None
        click.echo(json.dumps(value, indent=2, ensure_ascii=False) if value is not None else "unknown")
        from companion.terminal.render import wrap

        click.echo(wrap(f"source: {origin(key)}"))  # a quoted rule is long: at word boundaries
        if value is None:
            click.echo(f"supply it with: {datapack.set_command(game, key)}")
        return
    from companion.terminal.render import table

    rows = [[k, _short(v), origin(k)] for k, v in values.items()]
    click.echo(table(["key", "value", "source"], rows, title=f"Printed values of {game}"))


@data.command("set")
@click.argument("game")
@click.argument("key")
@click.argument("value", metavar="JSON-VALUE")
@pass_app
def set_value(app, game: str, key: str, value: str) -> None:
    """Supply a printed value read off your own copy (KEY is a dotted path, VALUE is JSON)."""
    _game(game)
    try:
        parsed = json.loads(value)
    except (ValueError, RecursionError):  # not JSON, or an integer of thousands of digits
        raise CompanionError(
            f"{value[:40]!r} is not a JSON value companion takes: write a number as 3, a list as '[1, 2]', "
            "text as '\"text\"'."
        ) from None
    from companion.contract.numbers import check_numbers

    check_numbers(parsed)  # the bound `import` applies: a value set here can be exported and imported
    old, key = key, datapack.current_key(game, key)
    with app.store.writing():
        datapack.validate(game, key, parsed, app.store.user_values(game))
        # (in one write: the value under its old name would only hide behind the new one)
        app.store.change_user_values(game, {key: parsed}, unset=[old] if old != key else [])
    click.echo(f"Set {game} {key} = {_short(parsed, 200)}." + (f" ({old} is now called {key}.)" if old != key else ""))
    click.echo("New sessions use it, and so do sessions still waiting for it; finished scores never change.")


@data.command("accept")
@click.argument("game")
@click.argument("key")
@pass_app
def accept(app, game: str, key: str) -> None:
    """Confirm the suggestion the pack offers for KEY (checked against your own board first).

    A suggestion comes from a public source, never from the printed game: it becomes a value
    only when the players confirm it, and is kept as theirs (`data unset` forgets it)."""
    _game(game)
    hint = (datapack.pack(game).get("suggestions") or {}).get(key)
    if not hint or hint.get("value") is None or _has_unknown(hint["value"]):
        offered = [k for k, h in (datapack.pack(game).get("suggestions") or {}).items()
                   if h.get("value") is not None and not _has_unknown(h["value"])]
        raise CompanionError(f"{game} offers no whole suggestion for {key!r}"
                             + (f": the ones to confirm are {', '.join(offered)}." if offered else "."))
    with app.store.writing():
        datapack.validate(game, key, hint["value"], app.store.user_values(game))
        app.store.set_user_value(game, key, hint["value"])
    click.echo(f"Confirmed the suggested {game} {key}.")
    if hint.get("source"):
        click.echo(f"Source: {hint['source']}")
    click.echo(f"Kept as your value (`data show {game} {key}`); `data unset {game} {key}` forgets it.")


def _has_unknown(value) -> bool:
    """A suggestion with a gap (None) is a hint to read, not a value to confirm."""
    if value is None:
        return True
    if isinstance(value, list):
        return any(_has_unknown(v) for v in value)
    if isinstance(value, dict):
        return any(_has_unknown(v) for v in value.values())
    return False


@data.command("unset")
@click.argument("game")
@click.argument("key")
@pass_app
def unset(app, game: str, key: str) -> None:
    """Forget your own value at KEY (the game's pack value, or unknown, applies again)."""
    _game(game)
    with app.store.writing():
        names = [key] + [old if new == key else new for old, new in datapack.renamed(game).items()
                         if new == key or old == key]  # the same value under its old name
        removed = app.store.change_user_values(game, unset=names)  # one write
    if not removed:
        raise CompanionError(f"You have no value of your own at {game} {key}: `data show {game}` lists them.")
    click.echo(f"Forgot your value of {game} {key}.")


@data.command("setup")
@click.argument("game")
@pass_app
def setup_cmd(app, game: str) -> None:
    """Go through every printed value GAME still lacks, one question at a time (in the shell).

    Each question says what needs the value and where on the box, the cards or the board it is
    printed, with the public suggestion (when there is one) as the default to confirm. Enter
    skips a question: it is asked again when a command needs it."""
    _game(game)
    from companion.terminal import setup

    if not app.can_ask():
        keys = setup.pending(app, game)
        if not keys:
            click.echo(f"Every printed value of {game} is known: nothing to set up (`data show {game}`).")
            return
        raise CompanionError(f"`data setup` asks its questions in the shell: type `companion` and then "
                             f"`data setup {game}` ({len(keys)} value{'s' if len(keys) != 1 else ''} unknown; "
                             f"`data check {game}` lists them with the `data set` line of each).")
    setup.run(app, game)


@data.command("check")
@click.argument("game", required=False)
@pass_app
def check(app, game: str | None) -> None:
    """List every printed value still unknown, and what needs it."""
    from companion.terminal.render import wrap

    names = [_game(game)] if game else datapack.pack_names()
    missing = 0
    for g in names:
        values = datapack.merged(g, app.store.user_values(g))
        for key in datapack.missing(g, values):
            missing += 1
            need = datapack.need_text(g, key)
            click.echo(wrap(f"{g} {key}: unknown{' — ' + need if need else ''}"))
            # the command stays on one line, to be copied whole
            click.echo(f"    {datapack.set_command(g, key)}")
    if not missing:
        click.echo("Every printed value is known." if not game else f"Every printed value of {game} is known.")
