"""What Atlantic Star shows, as views: `status` (and the pages), `board` (the seas by class) and
the shell's "next".

Nothing is secret at this table: money, hands and places are counted in the open. So the
terminal's `status` shows everyone's; the table page shows the agency and each sea's ranking,
and each player's page adds their own money, hand and places (a Private block of theirs).
"""

from __future__ import annotations

from companion.games.atlantic_star.moves import effective_vp, next_line
from companion.games.atlantic_star.rules import (GAME, OPERATOR, SHAPE, marks, place_text, points, points_of,
                                                star_class, thousands)
from companion.contract.language import _, ngettext
from companion.contract.view import Cmd, Facts, Line, Name, Private, Section, Table
from companion.games.kit import said


def status_view(at) -> list:
    status = at.status
    return [Section(_terminal(at, status), where="terminal"), *_pages(at, status)]


def _terminal(at, status: dict) -> list:
    """`status`: the players' money, hands, plaques and points, their places, the agency, the
    victory points still to read off the board, and whose turn it is."""
    vp = effective_vp(at)  # the session's, and while it is on the classes typed since
    head = _("Session {id} · Atlantic Star · round {round}").format(id=at.session.id, round=status["round"])
    rows, places = [], []
    for p in status["players"]:
        score = points_of(vp, p["places"])
        rows.append([p["name"], marks(p["money"]), p["hand"], p["plaques_left"], "?" if score is None else score])
        if p["places"]:  # below the table, whole: a column of 4 to 8 places was cut to "Baltic 3rd, Me…"
            places.append(Line("  ", Name(f"{p['name']}:"), " " + ", ".join(
                f"{x['sea'].title()} {place_text(x['place'])}" for x in p["places"])))
    label = _("points") if status["finished"] else _("points now")
    over = status["finished"] or status.get("abandoned")  # an abandoned game has no turn
    if not over and status.get("turn"):
        first = Line(*said(_("{head} · {name}'s turn"), head=head, name=Name(status["turn"])))
    else:
        first = Line(head)
    out = [first,
           Table([_("player"), _("money"), _("hand"), _("plaques left"), label], rows, right=[1, 2, 3, 4])]
    if places:
        out += [Line(_("Places:")), *places]
    if any(a["card"] for a in status["agency"]):
        out.append(Line(_("Agency: {spaces}").format(spaces=" · ".join(
            f"{thousands(a['price'])}: {a['card'] or '?'}" for a in status["agency"]))))
    missing = sorted({x["class"] for p in status["players"] for x in p["places"] if points(vp, x["class"], 1) is None})
    if missing:
        commands: list = []
        for n, c in enumerate(missing):
            commands += (["; "] if n else []) + [Cmd(f"companion data set {GAME} vp.{c} '{SHAPE}'")]
        out.append(Line(*said(ngettext("Victory points unknown for the {classes} class: read them off the board and "
                                       "type {commands}.", "Victory points unknown for the {classes} classes: read "
                                       "them off the board and type {commands}.", len(missing)),
                              classes=", ".join(star_class(c) for c in missing), commands=commands)))
    if not status.get("abandoned"):  # nothing comes next but `undo` (said above the view)
        out.append(next_line(status))
    return out


def _marks(n) -> str:
    return marks(n) if isinstance(n, int) else str(n)


def _pages(at, status: dict) -> list:
    """The pages: the round and whose turn, the agency and each sea's ranking for everyone; a
    player's own money, hand and places on their page."""
    if status.get("finished") or not status.get("turn"):
        head = _("Round {round}").format(round=status.get("round"))
    else:
        may = ", ".join(status.get("may") or [])
        head = (_("Round {round} · {name}'s turn (may: {moves})") if may else _("Round {round} · {name}'s turn")).format(
            round=status["round"], name=status["turn"], moves=may)
    out: list = [Section([Line(head)], where="page")]
    me = next((p for p in status["players"] if p["name"] == at.viewer), None)
    if me is not None:
        places = [[p["sea"].title(), p["class"], p["place"], p["value"], _("yes") if p.get("loan") else "", p["points"]]
                  for p in me.get("places") or []]
        vp = points_of(effective_vp(at), me.get("places") or [])
        unknown = sorted({x["class"] for x in me.get("places") or [] if points(effective_vp(at), x["class"], 1) is None})
        known = (vp if vp is not None else
                 _("not known yet (the {classes} points are not typed)").format(
                     classes=", ".join(star_class(c) for c in unknown)))
        out.append(Private(me["name"], [
            Facts([(_("Money"), _marks(me.get("money"))), (_("Cards in hand"), me.get("hand")),
                   (_("Plaques left"), me.get("plaques_left")),
                   (_("Your victory points") if status.get("finished") else _("Your victory points now"), known)],
                  title=_("You")),
            Table([_("Sea"), _("Class"), _("Place"), _("Value"), _("Loan"), _("VP")], places, title=_("Your places"),
                  empty=_("No plaque on the board yet.")),
        ]))
    if status.get("finished"):
        # one row a player, one column a sea: the whole result fits a TV's one screen (issue 31)
        vp = effective_vp(at)
        seas = list(dict.fromkeys(x["sea"] for p in status["players"] for x in p["places"]))
        rows = []
        for p in status["players"]:
            cells = []
            for sea in seas:
                mine = [x for x in p["places"] if x["sea"] == sea]
                cells.append(", ".join(f"{place_text(x['place'])}: {'?' if x['points'] is None else x['points']}"
                                       for x in mine) or "-")
            rows.append([Name(p["name"]), *cells, p["score"] if p["score"] is not None else points_of(vp, p["places"])])
        out.append(Section([Table([_("Player"), *(s.title() for s in seas), _("VP")], rows,
                                  title=_("The final score, place by place"), right=[len(seas) + 1])],
                           where="page", wide=True))
        return out  # the agency and the seas no longer matter: the result stands alone
    agency = [[_marks(a.get("price")), a.get("card") or "-"] for a in status.get("agency") or []]
    seas = []
    for sea, info in (status.get("seas") or {}).items():
        ranking = ", ".join(f"{n}. {_owner(x['owner'])} ({x['value']})" + (" " + _("loan") if x.get("loan") else "")
                            for n, x in enumerate(info["ranking"], 1))
        seas.append([sea.title(), info.get("class"), ranking or "-"])
    out += [Section([Table([_("Price"), _("Ship")], agency, title=_("The charter agency"))], where="page"),
            Section([Table([_("Sea"), _("Class"), _("Ranking")], seas, title=_("The seas"), wide=True)], where="page",
                    wide=True)]
    return out


def board_view(at) -> list:
    """`board`: the five classes as columns, each sea in its class with its plaques in order;
    on a screen too narrow for five columns, each class in turn with its places below it."""
    status = at.status
    vp = effective_vp(at)  # the session's, and while it is on the classes typed since
    classes = at.data.get("classes", 5)
    places = at.state["places"]
    by_class = {info["class"]: (sea, info) for sea, info in status["seas"].items() if info["class"]}
    headers = [_("place")] + [ngettext("{n} star", "{n} stars", c).format(n=c) for c in range(classes, 0, -1)]
    rows = [[""] + [by_class[c][0].title() if c in by_class else _("(empty class)") for c in range(classes, 0, -1)]]
    for n in range(1, places + 1):
        row = [place_text(n)]
        for c in range(classes, 0, -1):
            pts = points(vp, c, n)
            pts_text = _("{points} VP").format(points=pts if pts is not None else "?")
            ranking = by_class[c][1]["ranking"] if c in by_class else []
            if n <= len(ranking):
                x = ranking[n - 1]
                owner = _owner(x["owner"])
                loan_text = " " + _("(loan {k}k)").format(k=x["loan"] // 1000) if x["loan"] else ""
                row.append(f"{owner} {x['value']}{loan_text} · {pts_text}")
            else:
                row.append(f"· {pts_text}" if c in by_class else "")
        rows.append(row)
    narrow = []
    for col, head in enumerate(headers[1:], 1):
        narrow.append(Line(f"{head} · {rows[0][col]}"))
        narrow += [Line(f"  {row[0]}: {row[col]}") for row in rows[1:] if row[col]]
    seas_free = [sea.title() for sea, info in status["seas"].items() if not info["class"]]
    footer = (_("Seas not yet sailed: {seas}.").format(seas=", ".join(seas_free)) if seas_free
              else _("Every sea has its class."))
    return [Table(headers, rows, narrow=narrow), Line(footer)]


def next_action(status: dict) -> str:
    """The shell toolbar's "next": what the player whose turn it is may do."""
    if status["finished"]:
        return ""
    may = status["may"]
    return _(" or ").join([", ".join(may[:-1]), may[-1]]) if len(may) > 1 else "".join(may)


def _owner(owner: str) -> str:
    """A plaque's owner: a player's name, or the operator (the game's own plaques)."""
    return _("operator") if owner == OPERATOR else owner
