"""What a score sheet shows, as views: the table of rounds, the totals and what comes next.

The same view is `status` in the terminal, the table page on a TV and every player's page.
"""

from __future__ import annotations

from companion.contract.view import Cmd, Line, Name, Private, Section, Table, names, winners

SHOWN_ROUNDS = 40  # more than any terminal fits; the table then leaves out what does not fit


def status_view(at) -> list:
    status = at.status
    rounds = status["round"]
    # The last SHOWN_ROUNDS rounds at most: a table of hundreds of columns helps nobody (and cost
    # most of `status` in a long session); `log` and `report` have every round. The table then
    # leaves out the earliest of those that do not fit the screen, saying so.
    first = max(1, rounds - SHOWN_ROUNDS + 1)
    headers = ["player"] + [f"R{i}" for i in range(first, rounds + 1)] + ["total"]
    rows = [[p["name"], *p["rounds"][first - 1:], p["score"]] for p in status["players"]]
    rule = "lowest total wins" if status["lowest_wins"] else "highest total wins"
    if status.get("coop"):
        rule = "co-operative: won or lost together"
    elif status.get("no_points"):
        rule = "no points: the winners are named"
    if status.get("target_rule"):  # never on a co-operative sheet or one without points
        rule += f", ends {'past' if status['target_rule'] == 'passes' else 'at'} {status['target']}"
    if status.get("tie_rule"):
        rule += f", ties settled by {status['tie_rule']}"
    players = status["players"]
    # a page is narrow and tall (a phone): the rounds go down, the players across
    sheet = [[n + 1, *(p["rounds"][n] for p in players)] for n in range(rounds)]
    out = [Line(f"Session {at.session.id} · {status.get('title') or 'Score sheet'} · {rule} · "
                f"{rounds} round{'s' if rounds != 1 else ''}"),
           Section([Table(headers, rows, right=range(1, len(headers)), droppable=range(1, len(headers) - 1))],
                   where="terminal"),
           Section([Table(["Round", *(p["name"] for p in players)], sheet + [["Total", *(p["score"] for p in players)]],
                          title="The score sheet", right=range(1, len(players) + 1))], where="page", wide=True)]
    if first > 1:
        out.append(Line(f"Rounds 1 to {first - 1} are not shown: ", Cmd("log"), " lists every round."))
    entered = status.get("entered") or []
    if entered and not status["finished"]:
        waiting = [p["name"] for p in players if p["name"] not in entered]
        out.append(Line(f"Round {rounds + 1} is being entered: ", *names(entered, last=" and "),
                        " entered their points; waiting for ", *names(waiting, last=" and "), "."))
        mine = (at.state.get("entered") or {}).get(at.viewer) if at.viewer else None
        if mine is not None:
            out.append(Private(at.viewer, [Section([Line(f"You entered {mine} for round {rounds + 1}.")],
                                                   title="Your points", where="page")]))
    keeper = status.get("scorekeeper")
    on_phones = [Line(Name(keeper), " keeps the score on the phones.")] if keeper and not status["finished"] else []
    if status.get("teams"):
        out.append(Line("Teams: " + ", ".join(f"{'+'.join(t)} {v}"
                                              for t, v in zip(status["teams"], status["team_scores"]))))
    if status.get("tied"):
        from companion.games.scoresheet.moves import tied_line

        said = tied_line(status)
        out.append(Section([said], where="terminal"))
        # a page names no laptop command (issue 31): the finisher's phone offers "Who won the tie?"
        out.append(Section([Line("".join(str(p) for p in said.parts[:1]).rstrip(": ") + ".")], where="page"))
    laptop: list = []  # what to type at the laptop: the terminal's only (issue 31: pages print no command)
    if not status.get("abandoned"):  # an abandoned sheet takes no more rounds (said above the view)
        if entered and not status["finished"]:
            laptop.append(Line("In play: ", Cmd("score NAME POINTS"), " enters the others' points (",
                               Cmd("undo"), " takes an entry back); the round counts once everyone's are in."))
            out += on_phones
        elif status.get("tied") and status.get("waits_for_tie"):
            laptop.append(Line("The rounds are over: ", Cmd("finish --winner NAME"), " ends the game (", Cmd("undo"),
                               " takes the last round back)."))
        elif status["finished"] and status.get("coop"):
            out.append(Line("Won together." if status.get("won") else "Lost together."))
        elif status["finished"] or not status.get("coop") and not status.get("no_points"):
            said = winners(status)
            if said:
                out += said
            else:
                laptop.append(Line("In play: ", Cmd("add NAME=POINTS ..."), " records a round, ", Cmd("finish"),
                                   " ends the game."))
                out += on_phones
        elif status.get("coop"):
            laptop.append(Line("In play: ", Cmd("add NAME=POINTS ..."), " records a round, ", Cmd("finish --won"),
                               " or ", Cmd("finish --lost"), " ends the game."))
        else:
            laptop.append(Line("In play: ", Cmd("finish --winner NAME"), " ends the game."))
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
        return f"score NAME POINTS for {' and '.join(waiting)}"
    if status.get("coop"):
        return "add NAME=POINTS ..., or finish --won / --lost"
    if status.get("no_points"):
        return "finish --winner NAME"
    return "add NAME=POINTS ... or finish"


def score_goal(status: dict):
    """What the score bars on the pages fill toward: the target, where the highest wins."""
    return None if status.get("lowest_wins") else status.get("target")
