"""Commands of the generic score sheet: `new scoresheet`, `add`, `finish`, and its status screen.

This module is the model for a game's commands: a `new` built with new_command, thin commands
that build an event and call app.record, and render_status for `status`.
"""

from __future__ import annotations

import click

from companion.core.errors import CompanionError
from companion.games.base import player_name
from companion.games.kit import new_command, parse_pairs, pass_app, session_option
from companion.terminal.render import table, whole, winners_line, wrap

GAME = ("scoresheet",)
SHOWN_ROUNDS = 40  # more than any terminal fits; the table then leaves out what does not fit


@new_command("scoresheet")
@click.option("--lowest-wins", is_flag=True, help="The lowest total wins (as in golf or Hearts).")
@click.option("--target", type=int, metavar="N", help="The game ends after the round in which someone reaches N.")
def new(lowest_wins: bool, target: int | None) -> dict:
    """Rounds of points, totals and winners, for any game."""
    return {"lowest_wins": lowest_wins, "target": target}


@click.command()
@click.argument("scores", nargs=-1, metavar="NAME=POINTS...")
@session_option
@pass_app
def add(app, scores: tuple[str, ...]) -> None:
    """Record a round: `add Ann=12 Bob=7 Cy=9` (players left out score 0)."""
    if not scores:
        raise click.UsageError("Give the round's points, e.g. add Ann=12 Bob=7")
    given = parse_pairs(scores, "NAME=POINTS")
    s, replay, event = app.record(seated(given), GAME, "add")
    status = s.status(replay)
    click.echo(wrap(f"Round {status['round']} recorded. Totals: " +
                    ", ".join(f"{whole(p['name'])} {p['score']}" for p in status["players"]) + "."))
    if status["finished"]:
        click.echo(winners_line(status))


def seated(given: dict):
    """The round as a function for app.record, each name written as seated (`ann=4` is
    recorded as Ann), so the log and the report name the players as the table does. A name
    that is not a player, or one given twice, is left as typed for the rules to refuse."""

    def make(session, replay) -> dict:
        out: dict = {}
        for name, points in given.items():
            try:
                player = player_name(replay.state["players_order"], name)
            except CompanionError:
                return {"type": "add", "scores": given}
            if player in out:
                return {"type": "add", "scores": given}
            out[player] = points
        return {"type": "add", "scores": out}

    return make


@click.command()
@session_option
@pass_app
def finish(app) -> None:
    """End the game now; the best total wins (all of them on a tie)."""
    s, replay, _ = app.record({"type": "finish"}, GAME, "finish")
    click.echo(winners_line(s.status(replay)))


def render_status(app, session, replay) -> str:
    status = session.status(replay)
    rounds = status["round"]
    # The last SHOWN_ROUNDS rounds at most: a table of hundreds of columns helps nobody (and cost
    # most of `status` in a long session); `log` and `report` have every round. The table then
    # leaves out the earliest of those that do not fit the screen, saying so.
    first = max(1, rounds - SHOWN_ROUNDS + 1)
    headers = ["player"] + [f"R{i}" for i in range(first, rounds + 1)] + ["total"]
    rows = [[p["name"], *p["rounds"][first - 1:], p["score"]] for p in status["players"]]
    rule = "lowest total wins" if status["lowest_wins"] else "highest total wins"
    if status["target"] is not None:
        rule += f", ends at {status['target']}"
    out = [f"Session {session.id} · Score sheet · {rule} · {rounds} round{'s' if rounds != 1 else ''}",
           table(headers, rows, right=range(1, len(headers)), droppable=range(1, len(headers) - 1))]
    if first > 1:
        out.append(f"Rounds 1 to {first - 1} are not shown: `log` lists every round.")
    out.append(winners_line(status) or "In play: `add NAME=POINTS ...` records a round, `finish` ends the game.")
    return "\n".join(out)


# -- what the game declares (companion.games.base.Game) ------------------------------------------
def complete(session, replay, words: list[str], current: str) -> list[tuple[str, str]] | None:
    """`add` offers NAME= for every player not yet given in this line."""
    if words[0] != "add":
        return None if words[0] != "finish" else []
    given = {w.partition("=")[0].casefold() for w in words[1:]}
    return [(f"{p}=", "points") for p in session.players if p.casefold() not in given]


def next_action(status: dict) -> str:
    """The shell toolbar's "next", as `status` says it."""
    return "" if status["finished"] else "add NAME=POINTS ... or finish"


COMMANDS = {"add": add, "finish": finish}
NEW = {"scoresheet": new}
