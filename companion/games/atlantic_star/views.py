"""What Atlantic Star shows, as views: `status` (and the pages), `board` (the seas by class) and
the shell's "next".

Nothing is secret at this table: money, hands and places are counted in the open. So the
terminal's `status` shows everyone's; the table page shows the agency and each sea's ranking,
and each player's page adds their own money, hand and places (a Private block of theirs).
"""

from __future__ import annotations

from companion.games.atlantic_star.moves import effective_vp, next_line
from companion.games.atlantic_star.rules import GAME, OPERATOR, SHAPE, marks, place_text, points, points_of
from companion.contract.view import Cmd, Facts, Line, Name, Private, Section, Table


def status_view(at) -> list:
    status = at.status
    return [Section(_terminal(at, status), where="terminal"), *_pages(at, status)]


def _terminal(at, status: dict) -> list:
    """`status`: the players' money, hands, plaques and points, their places, the agency, the
    victory points still to read off the board, and whose turn it is."""
    vp = effective_vp(at)  # the session's, and while it is on the classes typed since
    head = f"Session {at.session.id} · Atlantic Star · round {status['round']}"
    rows, places = [], []
    for p in status["players"]:
        score = points_of(vp, p["places"])
        rows.append([p["name"], marks(p["money"]), p["hand"], p["plaques_left"], "?" if score is None else score])
        if p["places"]:  # below the table, whole: a column of 4 to 8 places was cut to "Baltic 3rd, Me…"
            places.append(Line("  ", Name(f"{p['name']}:"), " " + ", ".join(
                f"{x['sea'].title()} {place_text(x['place'])}" for x in p["places"])))
    label = "points" if status["finished"] else "points now"
    over = status["finished"] or status.get("abandoned")  # an abandoned game has no turn
    out = [Line(head, *([" · ", Name(f"{status['turn']}'s"), " turn"] if not over and status.get("turn") else [])),
           Table(["player", "money", "hand", "plaques left", label], rows, right=[1, 2, 3, 4])]
    if places:
        out += [Line("Places:"), *places]
    if any(a["card"] for a in status["agency"]):
        out.append(Line("Agency: " + " · ".join(f"{a['price']:,}: {a['card'] or '?'}" for a in status["agency"])))
    missing = sorted({x["class"] for p in status["players"] for x in p["places"] if points(vp, x["class"], 1) is None})
    if missing:
        commands: list = []
        for n, c in enumerate(missing):
            commands += (["; "] if n else []) + [Cmd(f"companion data set {GAME} vp.{c} '{SHAPE}'")]
        out.append(Line("Victory points unknown for the " + ", ".join(f"{c}-star" for c in missing) + " class"
                        + ("es" if len(missing) > 1 else "") + ": read them off the board and type ", *commands, "."))
    if not status.get("abandoned"):  # nothing comes next but `undo` (said above the view)
        out.append(next_line(status))
    return out


def _marks(n) -> str:
    return f"{n:,} marks" if isinstance(n, int) else str(n)


def _pages(at, status: dict) -> list:
    """The pages: the round and whose turn, the agency and each sea's ranking for everyone; a
    player's own money, hand and places on their page."""
    if status.get("finished") or not status.get("turn"):
        head = f"Round {status.get('round')}"
    else:
        may = ", ".join(status.get("may") or [])
        head = f"Round {status['round']} · {status['turn']}'s turn" + (f" (may: {may})" if may else "")
    out: list = [Section([Line(head)], where="page")]
    me = next((p for p in status["players"] if p["name"] == at.viewer), None)
    if me is not None:
        places = [[p["sea"].title(), p["class"], p["place"], p["value"], "yes" if p.get("loan") else "", p["points"]]
                  for p in me.get("places") or []]
        vp = points_of(effective_vp(at), me.get("places") or [])
        unknown = sorted({x["class"] for x in me.get("places") or [] if points(effective_vp(at), x["class"], 1) is None})
        said = (vp if vp is not None else
                "not known yet (the " + ", ".join(f"{c}-star" for c in unknown) + " points are not typed)")
        out.append(Private(me["name"], [
            Facts([("Money", _marks(me.get("money"))), ("Cards in hand", me.get("hand")),
                   ("Plaques left", me.get("plaques_left")),
                   ("Your victory points" if status.get("finished") else "Your victory points now", said)],
                  title="You"),
            Table(["Sea", "Class", "Place", "Value", "Loan", "VP"], places, title="Your places",
                  empty="No plaque on the board yet."),
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
        out.append(Section([Table(["Player", *(s.title() for s in seas), "VP"], rows,
                                  title="The final score, place by place", right=[len(seas) + 1])],
                           where="page", wide=True))
        return out  # the agency and the seas no longer matter: the result stands alone
    agency = [[_marks(a.get("price")), a.get("card") or "-"] for a in status.get("agency") or []]
    seas = []
    for sea, info in (status.get("seas") or {}).items():
        ranking = ", ".join(f"{n}. {x['owner']} ({x['value']})" + (" loan" if x.get("loan") else "")
                            for n, x in enumerate(info["ranking"], 1))
        seas.append([sea.title(), info.get("class"), ranking or "-"])
    out += [Section([Table(["Price", "Ship"], agency, title="The charter agency")], where="page"),
            Section([Table(["Sea", "Class", "Ranking"], seas, title="The seas", wide=True)], where="page", wide=True)]
    return out


def board_view(at) -> list:
    """`board`: the five classes as columns, each sea in its class with its plaques in order;
    on a screen too narrow for five columns, each class in turn with its places below it."""
    status = at.status
    vp = effective_vp(at)  # the session's, and while it is on the classes typed since
    classes = at.data.get("classes", 5)
    places = at.state["places"]
    by_class = {info["class"]: (sea, info) for sea, info in status["seas"].items() if info["class"]}
    headers = ["place"] + [f"{c} star{'s' if c > 1 else ''}" for c in range(classes, 0, -1)]
    rows = [[""] + [by_class[c][0].title() if c in by_class else "(empty class)" for c in range(classes, 0, -1)]]
    for n in range(1, places + 1):
        row = [place_text(n)]
        for c in range(classes, 0, -1):
            pts = points(vp, c, n)
            pts_text = f"{pts} VP" if pts is not None else "? VP"
            ranking = by_class[c][1]["ranking"] if c in by_class else []
            if n <= len(ranking):
                x = ranking[n - 1]
                owner = "operator" if x["owner"] == OPERATOR else x["owner"]
                loan_text = f" (loan {x['loan'] // 1000}k)" if x["loan"] else ""
                row.append(f"{owner} {x['value']}{loan_text} · {pts_text}")
            else:
                row.append(f"· {pts_text}" if c in by_class else "")
        rows.append(row)
    narrow = []
    for col, head in enumerate(headers[1:], 1):
        narrow.append(Line(f"{head} · {rows[0][col]}"))
        narrow += [Line(f"  {row[0]}: {row[col]}") for row in rows[1:] if row[col]]
    seas_free = [sea.title() for sea, info in status["seas"].items() if not info["class"]]
    footer = f"Seas not yet sailed: {', '.join(seas_free)}." if seas_free else "Every sea has its class."
    return [Table(headers, rows, narrow=narrow), Line(footer)]


def next_action(status: dict) -> str:
    """The shell toolbar's "next": what the player whose turn it is may do."""
    if status["finished"]:
        return ""
    may = status["may"]
    return " or ".join([", ".join(may[:-1]), may[-1]]) if len(may) > 1 else "".join(may)
