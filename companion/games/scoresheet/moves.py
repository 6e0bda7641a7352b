"""What can be done on a score sheet, declared once: `new scoresheet`, `add`, `finish`.

The model for a game's moves: each Move names its parameters by kind, builds the event the
rules check, and says what is said once it is recorded, as a view. The terminal makes the
commands, the shell's questions and completion from these; the phones make the forms.
"""

from __future__ import annotations

import click

from companion.games.declare import Flag, Pairs, Param, Player
from companion.games.declare import Move
from companion.games.kit import new_command, sheet_options
from companion.games.scoresheet.rules import ScoreSheet
from companion.games.view import Line, Name, joined, winners


@new_command(ScoreSheet)
@sheet_options
@click.option("--target", metavar="N", help="The game ends after the round in which someone reaches N.")
def new(target: str | None, **named) -> dict:
    """Rounds of points, totals and winners, for any game: `--title NAME` names it, and the
    title is remembered with its options."""
    from companion.core.numbers import parse_points
    from companion.games.kit import sheet_setup

    options = sheet_setup(named)
    if target is not None:
        value = parse_points(target)
        if value is None:
            raise click.UsageError(f"--target {target!r} is not a number: write it like --target 100")
        options["target"] = value
    else:
        options["target"] = None
    return options


def _added(outcome) -> list:
    status = outcome.status
    totals = joined(Name(f"{p['name']} {p['score']}") for p in status["players"])
    out = [Line(f"Round {status['round']} recorded. Totals: ", *totals, ".")]
    if status.get("teams"):
        out.append(Line("Teams: ", *joined(Name(f"{'+'.join(t)} {v}")
                                           for t, v in zip(status["teams"], status["team_scores"])), "."))
    if status.get("tied"):
        out.append(Line(f"{' and '.join(status['tied'])} tie past the target: the rules settle it by "
                        f"{status.get('tie_rule')}; `finish --winner NAME` says who won."))
    return out + winners(status)


def _finish_event(at) -> dict:
    event: dict = {"type": "finish"}
    if at.args.get("won") and at.args.get("lost"):
        raise click.UsageError("Give --won or --lost, not both.")
    if at.args.get("won") or at.args.get("lost"):
        event["won"] = bool(at.args.get("won"))
    if at.args.get("winner"):
        event["winners"] = list(at.args["winner"])
    return event


MOVES = [
    Move("add", [Param("scores", Pairs("POINTS", decimals=True), "Each player's points, e.g. Ann=12 Bob=7.5.",
                       metavar="NAME=POINTS", many=True, label="the round's points (e.g. Ann=12 Bob=7)",
                       missing="Give the round's points, e.g. add Ann=12 Bob=7")],
         lambda at: {"type": "add", "scores": at.args["scores"]},
         help="Record a round: `add Ann=12 Bob=7.5 Cy=-2` (players left out score 0).",
         actor=None, done=_added, examples=["add Ann=12 Bob=7"]),
    Move("finish", [Param("winner", Player(), "Who won: a tie the rules settle, or a game without points "
                                              "(repeat for a shared win).", option=True, required=False, many=True,
                          ask=False),
                    Param("won", Flag(), "A co-operative game: the players won together."),
                    Param("lost", Flag(), "A co-operative game: the players lost together.")],
         _finish_event,
         help="End the game now; the best total wins (all of them on a tie).",
         actor=None, done=lambda outcome: winners(outcome.status)),
]
NEW = {"scoresheet": new}
PLAYTHROUGH = {"scoresheet": ["new scoresheet --players Ann,Bob,Cy --target 30", "add Ann=12 Bob=7 Cy=9",
                              "add ann=3 Bob=20", "status", "add Cy=30"]}
