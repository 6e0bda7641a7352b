"""What a score sheet shows, as views: the table of rounds, the totals and what comes next.

The same view is `status` in the terminal, the table page on a TV and every player's page.
"""

from __future__ import annotations

from companion.contract.language import _, ngettext
from companion.contract.view import Cmd, Line, Name, Private, Section, Table, names, winners
from companion.contract.written import number
from companion.games.kit import said

SHOWN_ROUNDS = 40  # more than any terminal fits; the table then leaves out what does not fit


def status_view(at) -> list:
    status = at.status
    rounds = status["round"]
    # The last SHOWN_ROUNDS rounds at most: a table of hundreds of columns helps nobody (and cost
    # most of `status` in a long session); `log` and `report` have every round. The table then
    # leaves out the earliest of those that do not fit the screen, saying so.
    first = max(1, rounds - SHOWN_ROUNDS + 1)
    headers = [_("player")] + [_("R{round}").format(round=i) for i in range(first, rounds + 1)] + [_("total")]
    rows = [[p["name"], *map(_points, p["rounds"][first - 1:]), _points(p["score"])] for p in status["players"]]
    rule = _("lowest total wins") if status["lowest_wins"] else _("highest total wins")
    if status.get("coop"):
        rule = _("co-operative: won or lost together")
    elif status.get("no_points"):
        rule = _("no points: the winners are named")
    if status.get("target_rule"):  # never on a co-operative sheet or one without points
        rule = (_("{rule}, ends past {target}") if status["target_rule"] == "passes"
                else _("{rule}, ends at {target}")).format(rule=rule, target=number(status["target"]))
    if status.get("tie_rule"):
        rule = _("{rule}, ties settled by {tie_rule}").format(rule=rule, tie_rule=status["tie_rule"])
    players = status["players"]
    # a page is narrow and tall (a phone): the rounds go down, the players across
    sheet = [[n + 1, *(_points(p["rounds"][n]) for p in players)] for n in range(rounds)]
    title = status.get("title") or "Score sheet"
    title = _(title) if title == "Score sheet" else title  # the game's own name, not one a group gave it
    out = [Line(ngettext("Session {id} · {title} · {rule} · {count} round",
                         "Session {id} · {title} · {rule} · {count} rounds", rounds).format(
                id=at.session.id, title=title, rule=rule, count=rounds)),
           Section([Table(headers, rows, right=range(1, len(headers)), droppable=range(1, len(headers) - 1))],
                   where="terminal"),
           Section([Table([_("Round"), *(p["name"] for p in players)],
                          sheet + [[_("Total"), *(_points(p["score"]) for p in players)]],
                          title=_("The score sheet"), right=range(1, len(players) + 1))], where="page", wide=True)]
    if first > 1:
        out.append(Line(*said(_("Rounds 1 to {last} are not shown: {log} lists every round."), last=first - 1,
                              log=Cmd("log"))))
    entered = status.get("entered") or []
    if entered and not status["finished"]:
        waiting = [p["name"] for p in players if p["name"] not in entered]
        out.append(Line(*said(ngettext("Round {round} is being entered: {entered} entered their points; waiting for "
                                        "{waiting}.", "Round {round} is being entered: {entered} entered their "
                                        "points; waiting for {waiting}.", len(entered)), round=rounds + 1, entered=names(entered, last=_(" and ")),
                              waiting=names(waiting, last=_(" and ")))))
        mine = (at.state.get("entered") or {}).get(at.viewer) if at.viewer else None
        if mine is not None:
            out.append(Private(at.viewer, [Section([Line(_("You entered {points} for round {round}.").format(
                points=number(mine), round=rounds + 1))], title=_("Your points"), where="page")]))
    keeper = status.get("scorekeeper")
    on_phones = ([Line(*said(_("{name} keeps the score on the phones."), name=Name(keeper)))]
                 if keeper and not status["finished"] else [])
    if status.get("teams"):
        out.append(Line(_("Teams: {teams}").format(teams=", ".join(
            f"{'+'.join(t)} {number(v)}" for t, v in zip(status["teams"], status["team_scores"])))))
    if status.get("tied"):
        from companion.games.scoresheet.moves import tied_clause, tied_line

        out.append(Section([tied_line(status)], where="terminal"))
        # a page names no laptop command (issue 31): the finisher's phone offers "Who won the tie?"
        out.append(Section([Line(_("{clause}, which the rules settle by {rule}.").format(
            clause=tied_clause(status), rule=status.get("tie_rule")))], where="page"))
    laptop: list = []  # what to type at the laptop: the terminal's only (issue 31: pages print no command)
    if not status.get("abandoned"):  # an abandoned sheet takes no more rounds (said above the view)
        if entered and not status["finished"]:
            laptop.append(Line(*said(_("In play: {score} enters the others' points ({undo} takes an entry back); the "
                                       "round counts once everyone's are in."), score=Cmd("score NAME POINTS"),
                                     undo=Cmd("undo"))))
            out += on_phones
        elif status.get("tied") and status.get("waits_for_tie"):
            laptop.append(Line(*said(_("The rounds are over: {finish} ends the game ({undo} takes the last round back)."),
                                     finish=Cmd("finish --winner NAME"), undo=Cmd("undo"))))
        elif status["finished"] and status.get("coop"):
            out.append(Line(_("Won together.") if status.get("won") else _("Lost together.")))
        elif status["finished"] or not status.get("coop") and not status.get("no_points"):
            won = winners(status)
            if won:
                out += won
            else:
                laptop.append(Line(*said(_("In play: {add} records a round, {finish} ends the game."),
                                         add=Cmd("add NAME=POINTS ..."), finish=Cmd("finish"))))
                out += on_phones
        elif status.get("coop"):
            laptop.append(Line(*said(_("In play: {add} records a round, {won} or {lost} ends the game."),
                                     add=Cmd("add NAME=POINTS ..."), won=Cmd("finish --won"), lost=Cmd("finish --lost"))))
        else:
            laptop.append(Line(*said(_("In play: {finish} ends the game."), finish=Cmd("finish --winner NAME"))))
    if laptop:
        out.append(Section(laptop, where="terminal"))
    return out


def next_action(status: dict) -> str:
    """The shell toolbar's "next", as `status` says it."""
    if status["finished"]:
        return ""
    entered = status.get("entered") or []
    if status.get("tied") and status.get("waits_for_tie"):
        return "finish --winner NAME"
    if entered:  # a round half entered on the phones: the others' points come next
        waiting = [p["name"] for p in status["players"] if p["name"] not in entered]
        return _("{command} for {names}").format(command="score NAME POINTS", names=_(" and ").join(waiting))
    if status.get("coop"):
        return _("{add}, or {won} / {lost}").format(add="add NAME=POINTS ...", won="finish --won", lost="--lost")
    if status.get("no_points"):
        return "finish --winner NAME"
    return _("{add} or {finish}").format(add="add NAME=POINTS ...", finish="finish")


def _points(value):
    """Points in a cell: a number as the viewer writes it (68,5 in German), kept as it is in
    English (the cell is the number itself: pages and terminals alike)."""
    return number(value) if isinstance(value, float) else value


def score_goal(status: dict):
    """What the score bars on the pages fill toward: the target, where the highest wins."""
    return None if status.get("lowest_wins") else status.get("target")
