"""What Trans Europa and Trans Amerika show, as views: `status` (the same view makes the table
page and each player's page), `board`, and the printed maps (`board MAP`).

`status` in the terminal is the round in words and the score table; a page shows the round's
headline, the markers and rails, and the board drawn as SVG (the table page), never a city of
a hand. A player's page adds that player's Private part: their cities, their marker and
network, the exact missing-rail count (unless the group turned it off at `new` with
--no-rail-count), the choice a pass or return card waits for, and their cities ringed on the
board. Every secret part is made from the viewer's view of the state (``at.state``).
"""

from __future__ import annotations

from companion.games.trans import screens
from companion.games.trans.rules import PRESTIGE_GOAL
from companion.contract.language import ENGLISH, _, language, ngettext
from companion.contract.view import Line, Name, Private, Section, Table, message, winners

MAPS = ("europa", "amerika", "america", "usa", "trans-amerika", "transamerica", "europe", "trans-europa")


def status_view(at) -> list:
    status = at.status
    out: list = [Section(_terminal(at, status), where="terminal")]
    out.append(Section(screens.headline(status, at.game, at.state), where="page", wide=True))
    if status["history"]:
        from companion.contract.language import _

        legend = Line(_("✓: connected all their cities; “3 missing”: the rails they still needed."))
        out.append(Section([rounds_table(status), legend], where="page", wide=status["finished"]))
    if status["finished"]:
        out.append(Section(screens.revealed_blocks(at.game, at.state), where="page", wide=True))
    if at.viewer is None:
        out.append(Section([screens.table_board(at)], where="page", wide=True))
    elif at.viewer in at.players:
        out.append(Private(at.viewer, screens.mine_blocks(at, at.viewer)))
    out.append(Section(screens.public_blocks(at), where="page"))
    return out


def rounds_table(status: dict) -> Table:
    """Each round's points on the pages (the final breakdown once the game is over): a row per
    round, a column per player, each cell the points and why (connected, or the rails missing)."""
    from companion.contract.language import _

    players = [p["name"] for p in status["players"]]
    rows = []
    for h in status["history"]:
        cells = []
        for p in players:
            # short enough for four players on a 360-pixel phone (issue 31: "+4 (conn" was cut)
            why = "✓" if p in h["winners"] else _("{n} missing").format(n=h["missing"].get(p, "?"))
            cells.append(f"{h['points'][p]:+d} {why}")
        rows.append([_("Round {n}").format(n=h["round"]), *cells])
    rows.append([_("Total"), *(p["score"] for p in status["players"])])
    title = _("The score, round by round") if status["finished"] else _("The rounds so far")
    return Table(["", *players], rows, title=title)


def _terminal(at, status: dict) -> list:
    """`status`: the round in words, the scores by round, and what comes next."""
    classic = status["scoring"] == "classic"
    rnd = status["round"]
    scoring = _("prestige scoring") if status["scoring"] == "prestige" else _("classic scoring")
    head = [_("Session {id}").format(id=at.session.id), status["title"], scoring]
    if status["variant"]:
        head.append(_("special cards"))
    if not rnd:
        head.append(_("no round yet"))
    elif status["round_open"]:
        head.append(_("round {n} (open)").format(n=rnd))
    else:
        head.append(_("round {n} (over)").format(n=rnd))
    out: list = [Line(" · ".join(head))]
    if not status["finished"]:
        said = _("Start player: {name} starts.") if status["round_open"] else \
            _("Start player: {name} starts the next round.")
        out.append(Line(*message(said, name=Name(status["start_player"]))))
    players = [p["name"] for p in status["players"]]
    pending = at.game.pending_text(at.state) if status["pending"] else ""
    if status["round_open"]:
        out += screens.special_lines(status, at.game, at.state)
        if pending:
            out.append(screens.say(_("Waiting: {what}").format(what=pending), (*screens.CHOICE_COMMANDS, *players)))
        out += screens.board_lines(status)
    headers = [_("player")] + [_("R{n}").format(n=h["round"]) for h in status["history"]] + \
        [_("total"), _("points left") if classic else _("toward {goal}").format(goal=PRESTIGE_GOAL)]
    rows = [[p["name"], *(f"{v:+d}" for v in p["rounds"]), p["score"], screens.score_track(p["score"])]
            for p in status["players"]]
    out.append(Table(headers, rows, right=range(1, len(headers) - 1), droppable=range(1, len(headers) - 2)))
    if status["finished"]:
        out += winners(status)
        out.append(screens.say(_("Every hand is public now: `hand NAME`; `verify` shows the seed and checks every "
                                 "deal.")))
    elif status.get("abandoned"):  # nothing comes next but `undo` (said above the view)
        pass
    elif status["round_open"]:
        if not status["pending"]:  # a pending choice is said above ("Waiting")
            out.append(screens.say(screens.next_text(status), players))
    else:
        out.append(screens.say(_("Next: `round start` (or `round start --physical`).") if rnd == 0
                               else _("Next: `round start`.")))
    return out


def board_view(at) -> list:
    """`board` in a session: every start marker and rail in its player's colour, the networks."""
    from companion.games.trans import boardview

    status = at.status
    board = at.game.board_of(at.data)
    track = at.state["track"]
    names = [p["name"] for p in status["players"]]
    style = {p: boardview.player_style(i) for i, p in enumerate(names)}
    rails = {tuple(r["line"]): style[r["by"]] for r in track["rails"]}
    markers = {m[0]: style[p] for p, m in track["markers"].items()}
    if status["round"]:
        notes: list = [(screens.rails_on_board(status, headed=True), ""),
                       (_("In each player's colour: ◆ the start marker (a city's letters reversed), ━━━ ╱ ╲ the "
                          "rails."), "")]
    else:
        notes = [(screens.parts(_("No round yet: `round start`, then `start NAME JUNCTION` and `build NAME "
                                  "PATH`.")), "")]
    for p in status["players"]:
        if not status["round"]:
            break
        others = [q for q in p["network"] if q != p["name"]]
        said = [_("start {junction}").format(junction=p["start"]) if p["start"] else _("no start marker"),
                ngettext("{n} rail built", "{n} rails built", p["rails"]).format(n=p["rails"]),
                _("network shared with {names}").format(names=screens.and_list(others)) if others
                else _("own network")]
        if p["connected"]:
            said.append(_("cities connected"))
        keep = [*names, *([p["start"]] if p["start"] else [])]
        notes.append((["  ◆ ━━━ ", Name(p["name"]), *screens.parts(": " + "; ".join(said), keep)], style[p["name"]]))
    return boardview.draw(board, rails=rails, markers=markers, notes=notes)


def map_view(at, map_id: str) -> list:
    """`board MAP` without a session: the printed board, its cities and double lines, with the
    players' own values over the pack's."""
    from companion.games.trans import boardview
    from companion.games.trans.counting import map_board

    return boardview.draw(map_board(at.host, map_id))


def next_action(status: dict) -> str:
    """The shell toolbar's "next": what `status` says comes next, without the backquotes."""
    if status["finished"]:
        return ""
    if not status["round_open"]:
        return "round start"
    if status["pending"]:
        due = status["pending"]  # English, as `status --json` says it: another language shows its command only
        if language() != ENGLISH:
            due = due.rpartition(": ")[2]
        return due.replace("pass NAME CITY", "pass NAME").replace(" --return CITY", " --return").replace(" CITY", "")
    return screens.next_what(status).replace("`", "").rstrip(".")


def score_goal(status: dict):
    return PRESTIGE_GOAL  # prestige climbs to 13; classic starts at 13 and runs down to 0
