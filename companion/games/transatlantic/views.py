"""What Transatlantic shows, as views: `status` (the table page and each player's page too), the
board, the market, the docks, the catalogue, and what each move says once it is recorded.

Nothing of Transatlantic is secret (the fleets lie open in front of their owners), so the
table's view is the whole state; a player's page gathers what concerns that player (their
ships, what the docks give them, their final scoring) in a Private block of their own.

The docks are drawn once (:func:`docks_view`), for `status`, `board`, `market` and the pages.
"""

from __future__ import annotations

from typing import Any

from companion.games.transatlantic.rules import (END_LINE, OLDEST_STARTS, SHIP_EXTRAS, Transatlantic, add_command,
                                                 opening_order)
from companion.contract.language import N_, _, ngettext, pgettext
from companion.contract.view import Cmd, Facts, Line, Name, Private, Section, Table, joined, names
from companion.games.kit import said

SURCHARGES_COMMAND = "companion data set transatlantic market.surcharges '[S1, S2, S3, S4, S5, S6]'"
FINAL_COMMAND = "final NAME --cash N --sheet FLAG=VP,... --rows R --next-row M"


# the parts of a final scoring, as a player's page names them (``next_row``: "next row")
FINAL_PARTS = {"cash": N_("cash"), "rows": N_("rows"), "next_row": N_("next row")}
# what `status` says of the stack (its --json value is the English word)
STACK = {"empty": N_("empty"), "no steamships": N_("no steamships"), "steamships": N_("steamships")}


def kind_name(kind):
    """A card's kind as the viewer says it (``steam`` stays the word typed in English)."""
    names = {"steam": pgettext("ship kind", "steam"), "sail": pgettext("ship kind", "sail"),
             "hq": pgettext("ship kind", "hq")}
    return names.get(kind, kind)


def _stack(stack) -> str:
    return _(STACK[stack]) if stack in STACK else stack


# -- pieces every screen uses ---------------------------------------------------------------------

def ship_parts(ship: dict) -> list:
    """A card's values in words, its name kept whole: `HAMMONIA: steam, blue, 1882, £70`."""
    flag = ship.get("flag") or _("no flag")
    price = f"£{ship['price']}" if ship.get("price") is not None else _("no price")
    extras = ", ".join(f"{k} {ship[k]}" for k in SHIP_EXTRAS if ship.get(k) is not None)
    values = _("{kind}, {flag}, {year}, {price}").format(kind=kind_name(ship["kind"]), flag=flag,
                                                         year=ship.get("year") or _("year unknown"), price=price)
    return [Name(ship["name"]), f": {values}" + (f" ({extras})" if extras else "")]


def market_parts(state: dict) -> list:
    """`Market: 1 DEVONIA · 2 NUBIAN · 3 -`: each position with its card kept on one line."""
    cells = [Name(f"{i} {n}" if n else f"{i} -") for i, n in enumerate(state["market"], 1)]
    return said(_("Market: {cells}"), cells=joined(cells, " · "))


def docks_view(state: dict) -> list:
    """The docks, drawn once for every screen: on a terminal one line (the ships in the order
    they came, then what each ship of a flag gains from them at scoring), on a page the ships
    with their flags and the bonus per flag."""
    docks = state["docks"]
    bonus = sorted(Transatlantic.docks_count(state).items())
    if docks:
        line = Line(*said(_("Docks: {ships} → per ship at scoring: {bonus}"), ships=names(docks),
                          bonus=", ".join(f"{f} +{n}" for f, n in bonus)))
    else:
        line = Line(_("Docks: empty"))
    flags = [[Name(d), state["ships"][d]["flag"] or _("no flag")] for d in docks]
    return [
        Section([line], where="terminal"),
        Section([Table([_("Ship"), _("Flag")], flags, empty=_("No ship in the docks yet.")),
                 Facts([(f, _("+{n} VP per ship").format(n=n)) for f, n in bonus] or [("-", _("none yet"))],
                       title=_("Docks bonus per flag"))],
                title=_("The docks"), where="page"),
    ]


def market_data(at) -> dict:
    """The session's printed values, with the surcharges the players typed after `new` (the
    next purchase freezes them into its event): the session's own are never changed."""
    data = at.data
    if (data.get("market") or {}).get("surcharges") is None and at.host is not None:
        from companion.core.session import supplied_value

        supplied = supplied_value(at.host.store, at.session.meta["game"], "market.surcharges")
        if supplied is not None:
            data = {**data, "market": {**(data.get("market") or {}), "surcharges": supplied}}
    return data


def market_rows(at) -> list[dict]:
    """Positions 1 to 6 with ship, kind, flag, year, basic price, surcharge and total
    (`market --json`)."""
    return at.game.market_rows(at.state, market_data(at))


def _money(value) -> str:
    return "?" if value is None else f"£{value}"


def _price(row: dict) -> str:
    """A ship's basic price: "none" for a sailing ship printed without one (not unknown)."""
    if row.get("price") is None and row.get("kind") == "sail":
        return _("none")
    return _money(row.get("price"))


def market_table(at, title: str | None, data: dict | None = None) -> list:
    """The market with each part of each price (``data``: the printed values to price it with,
    by default the session's and the surcharges typed since)."""
    rows = at.game.market_rows(at.state, data) if data is not None else market_rows(at)
    out: list[Any] = [Table([_("pos"), _("ship"), _("kind"), _("flag"), _("year"), _("price"), _("surcharge"),
                             _("total")],
                            [[r["position"], Name(r["ship"]) if r["ship"] else _("(empty)"), kind_name(r.get("kind")), r.get("flag"),
                              r.get("year"), _price(r) if r["ship"] else "",
                              _money(r["surcharge"]) if r["ship"] or r["surcharge"] is not None else "",
                              _money(r.get("total")) if r["ship"] else ""] for r in rows],
                            title=title, right=[0, 4, 5, 6, 7])]
    if rows[0]["surcharge"] is None:
        # the command on a line of its own: at 80 columns it fits only there, to be copied whole
        out += [Line(_("The surcharges are not known yet: read them off the board and type")),
                Line(*said(_("{command} (6 numbers, leftmost first)."), command=Cmd(SURCHARGES_COMMAND)))]
    return out


def market_page(at) -> list:
    """The market on a page, narrow enough for a phone: each position's ship, its flag and
    year, and its price with how it is made (basic price + the position's surcharge)."""
    rows = []
    for r in market_rows(at):
        if not r["ship"]:
            rows.append([r["position"], _("(empty)"), "", ""])
            continue
        parts = f" ({_money(r.get('price'))} + {_money(r['surcharge'])})" if r.get("price") is not None else ""
        rows.append([r["position"], Name(r["ship"]), f"{r.get('flag') or _('no flag')}, {r.get('year')}",
                     f"{_money(r.get('total'))}{parts}"])
    out: list[Any] = [Table(["", _("Ship"), _("Flag, year"), _("Price")], rows, right=[0])]
    if market_rows(at)[0]["surcharge"] is None:
        out.append(Line(*said(_("The surcharges are not known yet: type {command} on the laptop."),
                              command=Cmd(SURCHARGES_COMMAND))))
    return out


def end_parts(status: dict) -> list:
    end = status["end"]
    if status["finished"]:
        return [Line(*said(_("End triggered by {name} in round {round}; the game is over."), name=Name(end["by"]),
                           round=end["round"]))]
    left = end["turns_left"]
    return [Line(*said(ngettext("End triggered by {name} in round {round}: {left} turn left, the very last is {last}'s.",
                                "End triggered by {name} in round {round}: {left} turns left, the very last is "
                                "{last}'s.", left), name=Name(end["by"]), round=end["round"], left=left,
                       last=Name(end["last"])))]


def final_score(player: dict) -> list:
    """A player's score line by line, as on the table's scoring overview."""
    f = player["final"]
    if f is None:
        return [Line(*said(_("{name}: {vp} VP during play (no final entry yet)."), name=Name(player["name"]),
                           vp=player["play_vp"]))]
    rows = [[Name(x["ship"]), _("{flag}: sheet {sheet} + docks {docks}").format(
        flag=x["flag"] or _("no flag"), sheet=x["sheet"], docks=x["docks"]), x["points"]] for x in f["ships"]]
    inputs = f["inputs"]
    rows += [
        [_("cash"), _("£{cash}: 1 per full £100").format(cash=inputs["cash"]), f["cash"]],
        [_("rows"), ngettext("{n} complete row", "{n} complete rows", inputs["rows"]).format(n=inputs["rows"]),
         f["rows"]],
        [_("next row"), ngettext("{n} marker × {row}", "{n} markers × {row}", inputs["next_row"]).format(
            n=inputs["next_row"], row=inputs["rows"] + 1), f["next_row"]],
        [_("during play"), _("scrapped ships, trade houses, FLEET ..."), player["play_vp"]],
        [_("total"), "", player["score"]],
    ]
    return [Table(["", "", _("VP")], rows, title=_("{name}'s score").format(name=player["name"]), right=[2])]


def final_table(status: dict) -> Table:
    """Every player's final score in one table, one row each: their ships' points (sheet and
    docks), cash, rows, the next row, the points during play and the total."""
    rows = []
    for p in status["players"]:
        f = p["final"] or {}
        ships = ", ".join(f"{x['ship']} {x['points']}" for x in f.get("ships") or []) or "-"
        rows.append([Name(p["name"]), ships, f.get("cash", "-"), f.get("rows", "-"), f.get("next_row", "-"),
                     p["play_vp"], p["score"]])
    return Table(["Player", "Ships", "Cash", "Rows", "Next row", "During play", "Total"], rows,
                 right=[2, 3, 4, 5, 6])


def result_lines(at) -> list:
    """Who won, and how a tie was settled (the youngest ship: the rules' own tie-break)."""
    status = at.status
    if not status.get("finished"):
        return []
    won = status.get("winners") or []
    if len(won) == 1:
        parts = said(_("Game over: {name} wins."), name=Name(won[0]))
    else:
        parts = said(_("Game over: shared win for {names}."), names=names(won))
    tie = at.game.tie(at.state)
    if tie is not None:
        years = ", ".join(f"{p} {y if y is not None else _('none')}" for p, y in tie["youngest"].items())
        parts += [" " + _("({tied} tied on {score}; youngest ship: {years}.)").format(
            tied=", ".join(tie["tied"]), score=tie["score"], years=years)]
    return [Line(*parts)]


def _players_table(status: dict) -> Table:
    return Table([_("player"), _("ships"), _("scrapped"), _("VP in play"), _("score")],
                 [[Name(p["name"]), ", ".join(p["ships"]) or "-", ", ".join(p["scrapped"]) or "-", p["play_vp"],
                   p["score"]] for p in status["players"]], right=[3, 4])


def _own_page(at, player: str) -> Private:
    """What a player's own page adds: their ships with what the docks give each, their points
    during play, and their final scoring once entered."""
    state, status = at.state, at.status
    me = next(p for p in status["players"] if p["name"] == player)
    bonus = Transatlantic.docks_count(state)
    ships = []
    for name in me["ships"]:
        flag = (state["ships"].get(name) or {}).get("flag")
        ships.append([Name(name), flag or "", f"+{bonus.get(flag, 0)}" if flag else ""])
    blocks: list[Any] = [
        Table([_("Ship"), _("Flag"), _("Docks bonus")], ships, title=_("Your ships"), empty=_("No ships yet.")),
        Facts([(_("VP during play"), me["play_vp"]), (_("Scrapped"), ", ".join(me["scrapped"]) or _("none"))],
              title=_("You")),
    ]
    final = me.get("final")
    if final:
        blocks.append(Facts([(_(FINAL_PARTS[k]) if k in FINAL_PARTS else k.replace("_", " "), v) for k, v in final.items()
                             if not isinstance(v, (list, dict))], title=_("Your final scoring")))
    return Private(player, blocks)


# -- the screens ---------------------------------------------------------------------------------

def status_view(at) -> list:
    state, status = at.state, at.status
    over = status["finished"] or status.get("abandoned")  # an abandoned game has no turn
    values = {"id": at.session.id, "round": status["round"], "start": Name(status["start"])}
    if status.get("opening_due") and not over:
        head = said(_("Session {id} · Transatlantic · round {round} · {name}'s opening purchase · start player "
                      "{start}"), name=Name(status["opening_due"]), **values)
    elif status["current"] and not over:
        head = said(_("Session {id} · Transatlantic · round {round} · {name}'s turn · start player {start}"),
                    name=Name(status["current"]), **values)
    else:
        head = said(_("Session {id} · Transatlantic · round {round} · start player {start}"), **values)
    stack = _stack(status["stack"])
    out: list[Any] = [
        Line(*head),
        Section([Line(*market_parts(state), "  " + _("(stack: {stack})").format(stack=stack))], where="terminal"),
        Section(market_page(at), title=_("The market"), where="page"),
        *docks_view(state),
        Section([Facts([(_("Left"), stack)])], title=_("The stack"), where="page"),
    ]
    if status["finished"]:  # the market, docks and stack no longer matter: the result fits a TV (issue 31)
        out = [b for b in out if getattr(b, "where", "both") != "page"]
    if state["end"] is not None:
        out += end_parts(status)
    out.append(Section([_players_table(status)], where="terminal"))
    if not status["finished"]:
        out.append(Section([Table([_("Player"), _("Ships"), _("VP in play")],
                                  [[Name(p["name"]), ", ".join(p["ships"] + [_("{ship} (scrapped)").format(ship=s)
                                                                             for s in p["scrapped"]])
                                    or "-", p["play_vp"]] for p in status["players"]], right=[2])],
                           title=_("The fleets"), where="page"))
    if status["finished"]:  # one row a player on a page: the whole result fits a TV's one screen (issue 31)
        out.append(Section([final_table(status)], title=_("The final score"), where="page", wide=True))
    for p in status["players"]:
        if p["final"] is not None:
            out.append(Section(final_score(p), where="terminal") if status["finished"] else final_score(p)[0])
    out += result_lines(at)
    if at.viewer in at.players:
        out.append(_own_page(at, at.viewer))
    return out


def board_view(at) -> list:
    """`board`: the market with its prices, and the docks."""
    out: list[Any] = []
    for r in market_rows(at):
        if r["ship"]:
            total = r["total"] if r["total"] is not None else "?"
            out.append(Line(f"{r['position']}. ", Name(r["ship"]), f" {r['flag'] or _('no flag')} {r['year']} £{total}"))
        else:
            out.append(Line(f"{r['position']}. " + _("(empty)")))
    return out + docks_view(at.state)


def market_screen(at) -> list:
    """`market`: positions 1 to 6 with each part of each price, and the docks."""
    return market_table(at, _("Ship market · session {id}").format(id=at.session.id)) + docks_view(at.state)


def next_action(status: dict) -> str:
    """The shell toolbar's "next": the final scoring once the last turn is played, else the turn."""
    if status["finished"]:
        return ""
    waiting = [p["name"] for p in status["players"] if p.get("final") is None]
    end = status.get("end")
    if any(p.get("final") is not None for p in status["players"]) or (end and end.get("turns_left") == 0):
        return "final " + " / ".join(waiting)
    if not any(status["market"]) and status.get("stack") != "empty" and not end:
        return _("{command} (the market is empty)").format(command="reveal SHIP ...")
    due = status.get("opening_due")
    if due:  # `next` is refused until every opening purchase is made
        return _("{command}: {name}'s opening purchase").format(command=f"buy {due} SHIP", name=due)
    return _("`next` when {name}'s turn ends").format(name=status["current"])


# -- the catalogue --------------------------------------------------------------------------------

def ships_listing(known: dict) -> list:
    """`ships`: every card the players have typed, oldest first."""
    if not known:
        return [Line(*said(_("No ships yet: add each card once with {command}."), command=Cmd(add_command("NAME"))))]
    # the optional values only where some card has them: 80 columns then hold whole names
    extras = [k for k in SHIP_EXTRAS if any(s.get(k) is not None for s in known.values())]
    rows = [[s["name"], kind_name(s["kind"]), s.get("flag") or "-", s.get("year"), s.get("price"), *(s.get(k) for k in extras)]
            for s in sorted(known.values(), key=lambda s: (s.get("year") or 0, s["name"]))]
    return [Table([_("ship"), _("kind"), _("flag"), _("year"), _("price"), *extras], rows,
                  title=ngettext("{n} ship in the catalogue", "{n} ships in the catalogue", len(rows)).format(n=len(rows)),
                  right=range(3, 5 + len(extras)))]


def ship_card(ship: dict, typed_on: str | None) -> list:
    """`ship show`: one card, and when the players typed it."""
    return [Line(*ship_parts(ship)),
            *([Line(_("typed by the players on {day}").format(day=typed_on))] if typed_on else [])]


def card_stored(ship: dict, replaced: bool) -> list:
    """What `ship add` says."""
    out = [Line(*said(_("Updated {card}.") if replaced else _("Added {card}."), card=ship_parts(ship)))]
    if replaced:
        out.append(Line(_("Sessions already started keep the values they began with.")))
    return out


def card_questions(name: str) -> list:
    """Said before the shell asks for a card nobody has typed yet."""
    return [Line(*said(_("{name} is not in the ship catalogue yet: read its card (Ctrl-C stops, recording nothing)."),
                       name=Name(name)))]


def card_added(ship: dict) -> list:
    return [Line(*said(_("Added {card}."), card=ship_parts(ship)))]


# -- what the moves say once recorded ------------------------------------------------------------

def oldest_start(state: dict) -> list:
    """Who starts and who buys first, once every player owns a starting sailing ship."""
    seats = state["players_order"]
    start = seats[0]
    sails = [n for n in state["owned"][start] if state["ships"][n]["kind"] == "sail"]
    oldest = min(sails, key=lambda n: state["ships"][n]["year"])
    return [Line(*said(_("{name} owns the oldest ship ({ship}, {year}) and starts (\"{rule}\"). Opening purchases, "
                         "anti-clockwise: {opening}; then turns go clockwise: {seats}."), name=Name(start),
                       ship=Name(oldest), year=state["ships"][oldest]["year"], rule=_(OLDEST_STARTS),
                       opening=names(opening_order(seats)), seats=names(seats)))]


def end_news(state: dict, ended_before: bool) -> list:
    """What a move that triggered the end says of it (nothing otherwise)."""
    if ended_before or state["end"] is None:
        return []
    end = state["end"]
    left = Transatlantic.turn_info(state)["turns_left"]
    out = [Line(*said(ngettext("{name} took the last steamship off the market: the end is triggered. Round {round} is "
                               "finished and one more full round is played; the very last turn is {last}'s ({left} "
                               "turn left, this one included).",
                               "{name} took the last steamship off the market: the end is triggered. Round {round} is "
                               "finished and one more full round is played; the very last turn is {last}'s ({left} "
                               "turns left, this one included).", left),
                      name=Name(end["by"]), round=end["round"], last=Name(end["last"]), left=max(left, 0)))]
    if end.get("docked"):
        # A purchase that sends a ship to the docks always buys a steamship (the market holds
        # only steamships and headquarters, and a headquarters alone sends nothing to the
        # docks), so the steamship bought in it is the last one ever purchased: seed 002's
        # trigger, to the letter.
        last = state["last_buy"]
        bought = [p["name"] for p in last["ships"] if state["ships"][p["name"]]["kind"] == "steam"]
        out.append(Line(*said(ngettext("{ship}, the last steamship on the market, went to the docks, so {bought} was "
                                       "the last steamship purchased: \"{rule}\" (rulebook).",
                                       "{ship}, the last steamship on the market, went to the docks, so {bought} were "
                                       "the last steamships purchased: \"{rule}\" (rulebook).", len(bought)),
                              ship=Name(last["docked"]), bought=names(bought, _(" and ")), rule=_(END_LINE))))
    return out


def purchase_news(state: dict, out_of_turn: str | None) -> list:
    """What `buy` says: whose turn the record says it was (if another's), each price, the
    docks, the market, what to reveal."""
    last = state["last_buy"]
    out: list[Any] = []
    if out_of_turn:
        buyer = last["player"]
        out.append(Line(*said(_("Note: by the turns recorded with {next} it is {name}'s turn; this is taken as "
                                "{buyer}'s purchase all the same ({next} is optional). If {name} bought, {undo} and "
                                "buy again naming {name}."), next=Cmd("next"), name=Name(out_of_turn),
                              buyer=Name(buyer), undo=Cmd("undo"))))
    parts: list[Any] = []
    for i, p in enumerate(last["ships"]):
        if i:
            parts.append(_(" and "))
        parts += said(_("{ship} £{total} (£{basic} + £{surcharge} in position {position})"), ship=Name(p["name"]),
                      total=p["total"], basic=p["basic"], surcharge=p["surcharge"], position=p["position"])
    if len(last["ships"]) > 1:
        out.append(Line(*said(_("{name} buys {ships}: £{total} in all."), name=Name(last["player"]), ships=parts,
                              total=last["total"])))
    else:
        out.append(Line(*said(_("{name} buys {ships}."), name=Name(last["player"]), ships=parts)))
    out.append(Line(*said(_("{ship} goes to the docks."), ship=Name(last["docked"]))) if last["docked"]
               else Line(_("No ship goes to the docks.")))
    out.append(Line(*market_parts(state)))
    empty = state["market"].count(None)
    if empty and not state["stack_empty"]:  # the companion cannot see the stack: both ways are said
        out.append(Line(*said(ngettext("{n} position empty: turn over new cards with {reveal}, or type {stack} if the "
                                       "stack has run out.", "{n} positions empty: turn over new cards with {reveal}, "
                                       "or type {stack} if the stack has run out.", empty),
                              n=empty, reveal=Cmd("reveal SHIP ..."), stack=Cmd("stack-empty"))))
    return out


def turn_news(state: dict) -> list:
    """What `next` says: whose turn it is, and once the end is triggered the turns left."""
    info = Transatlantic.turn_info(state)
    left = info["turns_left"]
    if left is None:
        return [Line(*said(_("Round {round}: {name}'s turn."), round=info["round"], name=Name(info["current"])))]
    if left > 0:
        return [Line(*said(ngettext("Round {round}: {name}'s turn. {left} turn left, the very last is {last}'s.",
                                    "Round {round}: {name}'s turn. {left} turns left, the very last is {last}'s.", left),
                           round=info["round"], name=Name(info["current"]), left=left, last=Name(state["end"]["last"])))]
    return [Line(*said(_("That was the very last turn: enter each player's score with {command}."),
                       command=Cmd(FINAL_COMMAND)))]


def scrap_news(state: dict, name: str) -> list:
    done = state["scrapped"][name]
    flag = state["ships"][name]["flag"]
    if flag is None:
        return [Line(*said(_("{ship} is scrapped: it flies no flag, so {owner} scores {points} VP for it. It leaves "
                             "the game."), ship=Name(name), owner=Name(done["owner"]), points=done["points"]))]
    return [Line(*said(_("{ship} is scrapped: {owner} scores {sheet} + {docks} ({flag} ships in the docks) = {points} "
                         "VP. It leaves the game."), ship=Name(name), owner=Name(done["owner"]), sheet=done["sheet_vp"],
                       docks=done["docks"], flag=flag, points=done["points"]))]


def final_news(at, player: str) -> list:
    """What `final` says: a note if the record still counts turns, the player's score line
    by line, then the result or who is still to enter theirs."""
    state, status = at.state, at.status
    out: list[Any] = []
    if state["end"] is not None:
        left = Transatlantic.turn_info(state)["turns_left"]
        if left > 0:  # players don't always type `next`: accepted, and said once
            out.append(Line(*said(ngettext("Note: by the record {left} turn is left (accepted: {next} is optional).",
                                           "Note: by the record {left} turns are left (accepted: {next} is optional).",
                                           left), left=left, next=Cmd("next"))))
    who = next(p for p in status["players"] if p["name"] == player)
    out += final_score(who)
    if status["finished"]:
        out += result_lines(at)
    else:
        waiting = [p["name"] for p in status["players"] if p["final"] is None]
        out.append(Line(*said(_("Still to enter: {names}."), names=names(waiting))))
    return out

