"""The commands and screens of Yacht (example): thin over the rules, as every game's are."""

from __future__ import annotations

import click

from companion.games.kit import new_command, pass_app, session_option
from companion.terminal.render import table, winners_line

GAME = ("yacht",)


@new_command("yacht")
def new() -> dict:
    """Five dice, nine boxes each; the highest total wins."""
    return {}


def parse_dice(text: str) -> list[int]:
    try:
        return [int(d) for d in text.replace(" ", "").split(",")]
    except ValueError:
        raise click.UsageError(f"{text!r} is not five dice: write them like 3,3,3,5,5") from None


@click.command()
@click.argument("player")
@click.argument("category")
@click.argument("dice")
@session_option
@pass_app
def score(app, player: str, category: str, dice: str) -> None:
    """Fill a box: `score Ann full-house 3,3,3,5,5`."""
    event = {"type": "score", "player": player, "category": category.lower(), "dice": parse_dice(dice)}
    s, replay, event = app.record(event, GAME, "score")
    status = s.status(replay)
    mine = next(p for p in status["players"] if p["name"].casefold() == player.casefold())
    click.echo(f"{mine['name']}: {mine['sheet'][event['category']]} in {event['category']}, {mine['score']} in all.")
    click.echo(winners_line(status) if status["finished"] else f"Next: {status['turn']}.")


def render_status(app, session, replay) -> str:
    status = session.status(replay)
    boxes = replay.data.get("categories") or []
    rows = [[box] + [str(p["sheet"].get(box, "")) for p in status["players"]] for box in boxes]
    rows.append(["total"] + [str(p["score"]) for p in status["players"]])
    head = f"Session {session.id} · {session.game.title}"
    tail = winners_line(status) if status["finished"] else f"Next: `score {status['turn']} BOX DICE`."
    return "\n".join([head, table(["box"] + [p["name"] for p in status["players"]], rows), tail])


COMMANDS = {"score": score}
NEW = {"yacht": new}
