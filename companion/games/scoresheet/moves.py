"""What can be done on a score sheet, declared once: `new scoresheet`, `add`, `score`, `finish`.

The model for a game's moves: each Move names its parameters by kind, builds the event the
rules check, and says what is said once it is recorded, as a view. The terminal makes the
commands, the shell's questions and completion from these; the phones make the forms.
"""

from __future__ import annotations

import click

from companion.contract.declare import Flag, Move, Number, OneOf, Pairs, Param, Player
from companion.contract.language import N_, _
from companion.contract.written import number
from companion.games.kit import and_list, new_command, said, sheet_options
from companion.games.scoresheet.rules import ScoreSheet
from companion.contract.view import Cmd, Line, Name, joined, winners


@new_command(ScoreSheet)
@sheet_options
@click.option("--target", metavar="N", help=N_("The game ends after the round in which someone reaches N (a total "
                                               "of N or more; with --lowest-wins too)."))
@click.option("--scorekeeper", metavar="NAME",
              help=N_("On the phones (`serve`), NAME enters every round's points (default: each player their own)."))
def new(target: str | None, scorekeeper: str | None = None, **named) -> dict:
    """Rounds of points, totals and winners, for any game: `--title NAME` names it, and the
    title is remembered with its options."""
    from companion.contract.numbers import parse_points
    from companion.games.kit import sheet_setup

    options = sheet_setup(named)
    if target is not None:
        value = parse_points(target)
        if value is None:
            raise click.UsageError(_("--target {typed} is not a number: write it like --target 100").format(
                typed=repr(target)))
        if options.get("coop"):
            raise click.UsageError(_("A co-operative game is won or lost together (`finish --won` or `finish --lost`): "
                                     "no total ends it, so drop --target {target}.").format(target=target))
        if options.get("no_points"):
            raise click.UsageError(_("A game without points is won by the players named (`finish --winner NAME`): "
                                     "no total ends it, so drop --target {target}.").format(target=target))
        options["target"] = value
        options["target_rule"] = "reaches"  # the help's word, whichever total wins (issue 29)
    else:
        options["target"] = None
    if scorekeeper is not None:
        options["scorekeeper"] = scorekeeper.strip()
    return options


def _added(outcome) -> list:
    # a round in play needs the totals only: the summary of every round waits for `status`
    status = outcome.status if outcome.replay.over else outcome.at.game.totals_summary(outcome.state)
    totals = joined(Name(f"{p['name']} {number(p['score'])}") for p in status["players"])
    out = [Line(*said(_("Round {round} recorded. Totals: {totals}."), round=status["round"], totals=totals))]
    if status.get("teams"):
        teams = joined(Name(f"{'+'.join(t)} {number(v)}") for t, v in zip(status["teams"], status["team_scores"]))
        out.append(Line(*said(_("Teams: {teams}."), teams=teams)))
    if status.get("tied"):
        out.append(tied_line(status))
    return out + winners(status)


def tied_clause(status: dict) -> str:
    """A tie for first once the target is reached, naming who reached it and who ties (with
    --lowest-wins they differ: Bob reaches 100, Ann and Cy tie for the lowest total)."""
    reached = [p for side in status.get("target_reached_by") or [] for p in side.split("+")]  # teams' members
    passed = status.get("target_rule") == "passes"
    tied = and_list(status["tied"])
    if set(reached) == set(status["tied"]):
        clause = (_("{tied} passed the target tied for first") if passed
                  else _("{tied} reached the target tied for first")).format(tied=tied)
    elif status["lowest_wins"]:
        clause = (_("{reached} passed the target; {tied} tie for first (the lowest total)") if passed
                  else _("{reached} reached the target; {tied} tie for first (the lowest total)"))
    else:
        clause = (_("{reached} passed the target; {tied} tie for first") if passed
                  else _("{reached} reached the target; {tied} tie for first"))
    return clause.format(reached=and_list(reached), tied=tied)


def tied_line(status: dict) -> Line:
    """The tie said at the laptop, with the command that settles it."""
    return Line(*said(_("{clause}, which the rules settle by {rule}: {command} says who won."),
                      clause=tied_clause(status),
                      rule=status.get("tie_rule"), command=Cmd("finish --winner NAME")))


def _entered(outcome) -> list:
    status = outcome.status
    if status["entered"]:  # the round is still being entered
        waiting = [p["name"] for p in status["players"] if p["name"] not in status["entered"]]
        return [Line(*said(_("{name}'s points for round {round} are in; waiting for {waiting}."),
                           name=Name(outcome.event["player"]), round=status["round"] + 1,
                           waiting=joined((Name(w) for w in waiting), ", ", _(" and "))))]
    return _added(outcome)


def _rounds_go_on(at) -> bool:
    """No round is offered once the target ended the rounds on a tie the rules settle."""
    return not (at.full.get("waits_for_tie") and at.game.tied_at_target(at.full))


def _keeper(at, player: str) -> bool:
    """The scorekeeper's phone enters every round."""
    return at.full.get("scorekeeper") == player and not at.full.get("entered") and _rounds_go_on(at)


def _tie_why(at) -> str:
    tied = and_list(at.game.tied_at_target(at.full))
    return _("The target ended the rounds with {tied} tied for first: `finish --winner NAME` says who won.").format(
        tied=tied)


def _keeper_why(at, player: str) -> str:
    if not _rounds_go_on(at):
        return _tie_why(at)
    keeper = at.full.get("scorekeeper")
    if keeper is None:
        return _("Each player enters their own points on their phone.")
    return _("{keeper} keeps the score: {keeper}'s phone enters every round.").format(keeper=keeper)


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
        return _("{keeper} keeps the score: {keeper}'s phone enters every round.").format(keeper=keeper)
    waiting = [p for p in state["players_order"] if p not in (state.get("entered") or {})]
    return _("Your points for round {round} are in: waiting for {waiting} (the round counts once everyone's are "
             "in).").format(round=len(state["rounds"]) + 1, waiting=", ".join(waiting))


_POINTS = Number(what=N_("a number of points"), decimals=True)
_POINTS.signed = True  # `score Ann -3`: a number, not an option


def _finish_event(at) -> dict:
    event: dict = {"type": "finish"}
    if at.args.get("won") and at.args.get("lost"):
        raise click.UsageError(_("Give --won or --lost, not both."))
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
    return [(and_list(top), _("the best total wins"))]


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
                             N_("How the game ended."), label=N_("how it ended"))], _end_event,
                help=N_("End the game from the scorekeeper's or start player's phone (the laptop types `finish`)."),
                actor=None, done=lambda outcome: winners(outcome.status), hidden=True, records="finish",
                phone=title, allowed=allowed, why_not=_end_why, verb=verb, more=more)


MOVES = [
    Move("add", [Param("scores", Pairs("POINTS", decimals=True), N_("Each player's points, e.g. Ann=12 Bob=7.5."),
                       metavar="NAME=POINTS", many=True, label=N_("the round's points (e.g. Ann=12 Bob=7)"),
                       missing=N_("Give the round's points, e.g. add Ann=12 Bob=7"))],
         lambda at: {"type": "add", "scores": at.args["scores"]},
         help=N_("Record a round: `add Ann=12 Bob=7.5 Cy=-2` (players left out score 0)."),
         actor=None, done=_added, examples=["add Ann=12 Bob=7"],
         phone=N_("The round's points"), allowed=_keeper, why_not=_keeper_why, verb=N_("Record the round")),
    Move("score", [Param("player", Player(), N_("Whose points."), metavar="NAME"),
                   Param("points", _POINTS, N_("Your points this round."),
                         metavar="POINTS", label=N_("the points"))],
         lambda at: {"type": "score", "player": at.args["player"], "points": at.args["points"]},
         help=N_("Enter one player's own points for the round: `score Ann 12`; the round counts once every "
                 "player has entered theirs."),
         done=_entered, examples=["score Ann 12"],
         phone=N_("Your points this round"), allowed=_own_entry, why_not=_entry_why, verb=N_("Enter my points")),
    Move("finish", [Param("winner", Player(), N_("Who won: a tie the rules settle, or a game without points "
                                                 "(repeat for a shared win)."), option=True, required=False, many=True,
                          ask=False),
                    Param("won", Flag(), N_("A co-operative game: the players won together.")),
                    Param("lost", Flag(), N_("A co-operative game: the players lost together."))],
         _finish_event,
         help=N_("End the game now; the best total wins (all of them on a tie)."),
         actor=None, done=lambda outcome: winners(outcome.status)),
    _ending("end-game", N_("Finish the game"), N_("Finish the game"), _may_end_now, more=True),
    _ending("settle-tie", N_("Who won the tie?"), N_("Record the winner"), _may_settle, more=False),
]
NEW = {"scoresheet": new}
PLAYTHROUGH = {"scoresheet": ["new scoresheet --players Ann,Bob,Cy --target 30", "add Ann=12 Bob=7 Cy=9",
                              "add ann=3 Bob=20", "status", "add Cy=30"]}
