"""What can be done on a score sheet, declared once: `new scoresheet`, `add`, `score`, `finish`.

The model for a game's moves: each Move names its parameters by kind, builds the event the
rules check, and says what is said once it is recorded, as a view. The terminal makes the
commands, the shell's questions and completion from these; the phones make the forms.
"""

from __future__ import annotations

import click

from companion.contract.declare import Flag, Move, Number, OneOf, Pairs, Param, Player
from companion.contract.language import N_, _
from companion.games.kit import new_command, sheet_options
from companion.games.scoresheet.rules import ScoreSheet
from companion.contract.view import Cmd, Line, Name, joined, winners


@new_command(ScoreSheet)
@sheet_options
@click.option("--target", metavar="N", help="The game ends after the round in which someone reaches N (a total "
                                            "of N or more; with --lowest-wins too).")
@click.option("--scorekeeper", metavar="NAME",
              help="On the phones (`serve`), NAME enters every round's points (default: each player their own).")
def new(target: str | None, scorekeeper: str | None = None, **named) -> dict:
    """Rounds of points, totals and winners, for any game: `--title NAME` names it, and the
    title is remembered with its options."""
    from companion.contract.numbers import parse_points
    from companion.games.kit import sheet_setup

    options = sheet_setup(named)
    if target is not None:
        value = parse_points(target)
        if value is None:
            raise click.UsageError(f"--target {target!r} is not a number: write it like --target 100")
        if options.get("coop") or options.get("no_points"):
            kind = "A co-operative game is won or lost together (`finish --won` or `finish --lost`)" \
                if options.get("coop") else "A game without points is won by the players named (`finish --winner NAME`)"
            raise click.UsageError(f"{kind}: no total ends it, so drop --target {target}.")
        options["target"] = value
        options["target_rule"] = "reaches"  # the help's word, whichever total wins (issue 29)
    else:
        options["target"] = None
    if scorekeeper is not None:
        options["scorekeeper"] = scorekeeper.strip()
    return options


def _added(outcome) -> list:
    status = outcome.status
    totals = joined(Name(f"{p['name']} {p['score']}") for p in status["players"])
    out = [Line(f"Round {status['round']} recorded. Totals: ", *totals, ".")]
    if status.get("teams"):
        out.append(Line("Teams: ", *joined(Name(f"{'+'.join(t)} {v}")
                                           for t, v in zip(status["teams"], status["team_scores"])), "."))
    if status.get("tied"):
        out.append(tied_line(status))
    return out + winners(status)


def tied_line(status: dict) -> Line:
    """A tie for first once the target is reached, naming who reached it and who ties (with
    --lowest-wins they differ: Bob reaches 100, Ann and Cy tie for the lowest total)."""
    reached = [p for side in status.get("target_reached_by") or [] for p in side.split("+")]  # teams' members
    word = "passed" if status.get("target_rule") == "passes" else "reached"
    lowest = " (the lowest total)" if status["lowest_wins"] else ""
    tied = " and ".join(status["tied"])
    if set(reached) == set(status["tied"]):
        said = f"{tied} {word} the target tied for first"
    else:
        said = f"{' and '.join(reached)} {word} the target; {tied} tie for first{lowest}"
    return Line(f"{said}, which the rules settle by {status.get('tie_rule')}: ", Cmd("finish --winner NAME"),
                " says who won.")


def _entered(outcome) -> list:
    status = outcome.status
    if status["entered"]:  # the round is still being entered
        waiting = [p["name"] for p in status["players"] if p["name"] not in status["entered"]]
        return [Line(Name(outcome.event["player"]), f"'s points for round {status['round'] + 1} are in; waiting for ",
                     *joined((Name(w) for w in waiting), ", ", " and "), ".")]
    return _added(outcome)


def _rounds_go_on(at) -> bool:
    """No round is offered once the target ended the rounds on a tie the rules settle."""
    return not (at.full.get("waits_for_tie") and at.game.tied_at_target(at.full))


def _keeper(at, player: str) -> bool:
    """The scorekeeper's phone enters every round."""
    return at.full.get("scorekeeper") == player and not at.full.get("entered") and _rounds_go_on(at)


def _tie_why(at) -> str:
    tied = " and ".join(at.game.tied_at_target(at.full))
    return f"The target ended the rounds with {tied} tied for first: `finish --winner NAME` says who won."


def _keeper_why(at, player: str) -> str:
    if not _rounds_go_on(at):
        return _tie_why(at)
    keeper = at.full.get("scorekeeper")
    if keeper is None:
        return "Each player enters their own points on their phone."
    return f"{keeper} keeps the score: {keeper}'s phone enters every round."


def _own_entry(at, player: str) -> bool:
    """Each phone enters its own player's points, once a round (no scorekeeper)."""
    state = at.full
    return state.get("scorekeeper") is None and player not in (state.get("entered") or {}) and _rounds_go_on(at)


def _entry_why(at, player: str) -> str:
    state = at.full
    if not _rounds_go_on(at):
        return _tie_why(at)
    keeper = state.get("scorekeeper")
    if keeper is not None:
        return f"{keeper} keeps the score: {keeper}'s phone enters every round."
    waiting = [p for p in state["players_order"] if p not in (state.get("entered") or {})]
    return (f"Your points for round {len(state['rounds']) + 1} are in: waiting for {', '.join(waiting)} "
            "(the round counts once everyone's are in).")


_POINTS = Number(what="a number of points", decimals=True)
_POINTS.signed = True  # `score Ann -3`: a number, not an option


def _finish_event(at) -> dict:
    event: dict = {"type": "finish"}
    if at.args.get("won") and at.args.get("lost"):
        raise click.UsageError("Give --won or --lost, not both.")
    if at.args.get("won") or at.args.get("lost"):
        event["won"] = bool(at.args.get("won"))
    if at.args.get("winner"):
        event["winners"] = list(at.args["winner"])
    return event


def finisher(state: dict) -> str:
    """Whose phone ends the game (issue 31): the scorekeeper's, else the start player's."""
    return state.get("scorekeeper") or state["players_order"][0]


def _end_choices(at) -> list[tuple[str, str]]:
    """What the finisher's phone offers to end the game with: won or lost together (co-op),
    the winner (a game without points, or a tie the rules settle), else the best total."""
    state = at.full
    if state.get("coop"):
        return [("won", _("we won together")), ("lost", _("we lost together"))]
    if state.get("no_points"):
        return [(p, _("won")) for p in state["players_order"]]
    if not state["rounds"]:
        return []
    top = at.game._best(state)
    if len(top) > 1 and state.get("tie_break"):
        return [(p, _("won the tie")) for p in top]
    return [(" and ".join(top), _("the best total wins"))]


def _may_end(at, player: str) -> bool:
    state = at.full
    return (not state["finished"] and finisher(state) == player and not state.get("entered")
            and bool(_end_choices(at)))


def _may_end_now(at, player: str) -> bool:
    """Under "More moves" while rounds go on; the tie's own move once the target ended them."""
    return _may_end(at, player) and _rounds_go_on(at)


def _may_settle(at, player: str) -> bool:
    return _may_end(at, player) and not _rounds_go_on(at)


def _end_why(at, player: str) -> str:
    state = at.full
    if state.get("entered"):
        return _("Round {n} is being entered: the game ends once everyone's points are in.").format(
            n=len(state["rounds"]) + 1)
    return _("{name}'s phone ends the game.").format(name=finisher(state))


def _end_event(at) -> dict:
    """The `finish` event of the choice tapped, read against the state under the lock."""
    state, chosen = at.full, at.args["result"]
    if state.get("coop"):
        return {"type": "finish", "won": chosen == "won"}
    if state.get("no_points") or (len(at.game._best(state)) > 1 and state.get("tie_break")):
        return {"type": "finish", "winners": [chosen]}
    return {"type": "finish"}


def _ending(name: str, title: str, verb: str, allowed, more: bool) -> Move:
    return Move(name, [Param("result", OneOf(_end_choices, metavar="RESULT", strict=True, what=N_("how it ended")),
                             "How the game ended.", label=N_("how it ended"))], _end_event,
                help="End the game from the scorekeeper's or start player's phone (the laptop types `finish`).",
                actor=None, done=lambda outcome: winners(outcome.status), hidden=True, records="finish",
                phone=title, allowed=allowed, why_not=_end_why, verb=verb, more=more)


MOVES = [
    Move("add", [Param("scores", Pairs("POINTS", decimals=True), "Each player's points, e.g. Ann=12 Bob=7.5.",
                       metavar="NAME=POINTS", many=True, label="the round's points (e.g. Ann=12 Bob=7)",
                       missing="Give the round's points, e.g. add Ann=12 Bob=7")],
         lambda at: {"type": "add", "scores": at.args["scores"]},
         help="Record a round: `add Ann=12 Bob=7.5 Cy=-2` (players left out score 0).",
         actor=None, done=_added, examples=["add Ann=12 Bob=7"],
         phone="The round's points", allowed=_keeper, why_not=_keeper_why, verb="Record the round"),
    Move("score", [Param("player", Player(), "Whose points.", metavar="NAME"),
                   Param("points", _POINTS, "Your points this round.",
                         metavar="POINTS", label="the points")],
         lambda at: {"type": "score", "player": at.args["player"], "points": at.args["points"]},
         help="Enter one player's own points for the round: `score Ann 12`; the round counts once every "
              "player has entered theirs.",
         done=_entered, examples=["score Ann 12"],
         phone="Your points this round", allowed=_own_entry, why_not=_entry_why, verb="Enter my points"),
    Move("finish", [Param("winner", Player(), "Who won: a tie the rules settle, or a game without points "
                                              "(repeat for a shared win).", option=True, required=False, many=True,
                          ask=False),
                    Param("won", Flag(), "A co-operative game: the players won together."),
                    Param("lost", Flag(), "A co-operative game: the players lost together.")],
         _finish_event,
         help="End the game now; the best total wins (all of them on a tie).",
         actor=None, done=lambda outcome: winners(outcome.status)),
    _ending("end-game", N_("Finish the game"), N_("Finish the game"), _may_end_now, more=True),
    _ending("settle-tie", N_("Who won the tie?"), N_("Record the winner"), _may_settle, more=False),
]
NEW = {"scoresheet": new}
PLAYTHROUGH = {"scoresheet": ["new scoresheet --players Ann,Bob,Cy --target 30", "add Ann=12 Bob=7 Cy=9",
                              "add ann=3 Bob=20", "status", "add Cy=30"]}
