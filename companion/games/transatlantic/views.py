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
from companion.contract.view import Cmd, Facts, Line, Name, Private, Section, Table, joined, names

SURCHARGES_COMMAND = "companion data set transatlantic market.surcharges '[S1, S2, S3, S4, S5, S6]'"
FINAL_COMMAND = "final NAME --cash N --sheet FLAG=VP,... --rows R --next-row M"


def plural(n: int, word: str) -> str:
    return word if n == 1 else word + "s"


# -- pieces every screen uses ---------------------------------------------------------------------

def ship_parts(ship: dict) -> list:
    """A card's values in words, its name kept whole: `HAMMONIA: steam, blue, 1882, £70`."""
    flag = ship.get("flag") or "no flag"
    price = f"£{ship['price']}" if ship.get("price") is not None else "no price"
    extras = ", ".join(f"{k} {ship[k]}" for k in SHIP_EXTRAS if ship.get(k) is not None)
    return [Name(ship["name"]), f": {ship['kind']}, {flag}, {ship.get('year') or 'year unknown'}, {price}"
            + (f" ({extras})" if extras else "")]


def market_parts(state: dict) -> list:
    """`Market: 1 DEVONIA · 2 NUBIAN · 3 -`: each position with its card kept on one line."""
    cells = [Name(f"{i} {n}" if n else f"{i} -") for i, n in enumerate(state["market"], 1)]
    return ["Market: ", *joined(cells, " · ")]


def docks_view(state: dict) -> list:
    """The docks, drawn once for every screen: on a terminal one line (the ships in the order
    they came, then what each ship of a flag gains from them at scoring), on a page the ships
    with their flags and the bonus per flag."""
    docks = state["docks"]
    bonus = sorted(Transatlantic.docks_count(state).items())
    if docks:
        line = Line("Docks: ", *names(docks), " → per ship at scoring: ", ", ".join(f"{f} +{n}" for f, n in bonus))
    else:
        line = Line("Docks: empty")
    flags = [[Name(d), state["ships"][d]["flag"] or "no flag"] for d in docks]
    return [
        Section([line], where="terminal"),
        Section([Table(["Ship", "Flag"], flags, empty="No ship in the docks yet."),
                 Facts([(f, f"+{n} VP per ship") for f, n in bonus] or [("-", "none yet")],
                       title="Docks bonus per flag")],
                title="The docks", where="page"),
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
        return "none"
    return _money(row.get("price"))


def market_table(at, title: str | None, data: dict | None = None) -> list:
    """The market with each part of each price (``data``: the printed values to price it with,
    by default the session's and the surcharges typed since)."""
    rows = at.game.market_rows(at.state, data) if data is not None else market_rows(at)
    out: list[Any] = [Table(["pos", "ship", "kind", "flag", "year", "price", "surcharge", "total"],
                            [[r["position"], Name(r["ship"]) if r["ship"] else "(empty)", r.get("kind"), r.get("flag"),
                              r.get("year"), _price(r) if r["ship"] else "",
                              _money(r["surcharge"]) if r["ship"] or r["surcharge"] is not None else "",
                              _money(r.get("total")) if r["ship"] else ""] for r in rows],
                            title=title, right=[0, 4, 5, 6, 7])]
    if rows[0]["surcharge"] is None:
        # the command on a line of its own: at 80 columns it fits only there, to be copied whole
        out += [Line("The surcharges are not known yet: read them off the board and type"),
                Line(Cmd(SURCHARGES_COMMAND), " (6 numbers, leftmost first).")]
    return out


def market_page(at) -> list:
    """The market on a page, narrow enough for a phone: each position's ship, its flag and
    year, and its price with how it is made (basic price + the position's surcharge)."""
    rows = []
    for r in market_rows(at):
        if not r["ship"]:
            rows.append([r["position"], "(empty)", "", ""])
            continue
        parts = f" ({_money(r.get('price'))} + {_money(r['surcharge'])})" if r.get("price") is not None else ""
        rows.append([r["position"], Name(r["ship"]), f"{r.get('flag') or 'no flag'}, {r.get('year')}",
                     f"{_money(r.get('total'))}{parts}"])
    out: list[Any] = [Table(["", "Ship", "Flag, year", "Price"], rows, right=[0])]
    if market_rows(at)[0]["surcharge"] is None:
        out.append(Line("The surcharges are not known yet: type ", Cmd(SURCHARGES_COMMAND), " on the laptop."))
    return out


def end_parts(status: dict) -> list:
    end = status["end"]
    if status["finished"]:
        return [Line("End triggered by ", Name(end["by"]), f" in round {end['round']}; the game is over.")]
    left = end["turns_left"]
    return [Line("End triggered by ", Name(end["by"]), f" in round {end['round']}: {left} {plural(left, 'turn')} left, "
                 "the very last is ", Name(end["last"]), "'s.")]


def final_score(player: dict) -> list:
    """A player's score line by line, as on the table's scoring overview."""
    f = player["final"]
    if f is None:
        return [Line(Name(player["name"]), f": {player['play_vp']} VP during play (no final entry yet).")]
    rows = [[Name(x["ship"]), f"{x['flag'] or 'no flag'}: sheet {x['sheet']} + docks {x['docks']}", x["points"]]
            for x in f["ships"]]
    inputs = f["inputs"]
    rows += [
        ["cash", f"£{inputs['cash']}: 1 per full £100", f["cash"]],
        ["rows", f"{inputs['rows']} complete {plural(inputs['rows'], 'row')}", f["rows"]],
        ["next row", f"{inputs['next_row']} {plural(inputs['next_row'], 'marker')} × {inputs['rows'] + 1}",
         f["next_row"]],
        ["during play", "scrapped ships, trade houses, FLEET ...", player["play_vp"]],
        ["total", "", player["score"]],
    ]
    return [Table(["", "", "VP"], rows, title=f"{player['name']}'s score", right=[2])]


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
        parts = ["Game over: ", Name(won[0]), " wins."]
    else:
        parts = ["Game over: shared win for ", *names(won), "."]
    tie = at.game.tie(at.state)
    if tie is not None:
        years = ", ".join(f"{p} {y if y is not None else 'none'}" for p, y in tie["youngest"].items())
        parts += [f" ({', '.join(tie['tied'])} tied on {tie['score']}; youngest ship: {years}.)"]
    return [Line(*parts)]


def _players_table(status: dict) -> Table:
    return Table(["player", "ships", "scrapped", "VP in play", "score"],
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
        Table(["Ship", "Flag", "Docks bonus"], ships, title="Your ships", empty="No ships yet."),
        Facts([("VP during play", me["play_vp"]), ("Scrapped", ", ".join(me["scrapped"]) or "none")], title="You"),
    ]
    final = me.get("final")
    if final:
        blocks.append(Facts([(k.replace("_", " "), v) for k, v in final.items() if not isinstance(v, (list, dict))],
                            title="Your final scoring"))
    return Private(player, blocks)


# -- the screens ---------------------------------------------------------------------------------

def status_view(at) -> list:
    state, status = at.state, at.status
    head: list[Any] = [f"Session {at.session.id} · Transatlantic · round {status['round']} · "]
    over = status["finished"] or status.get("abandoned")  # an abandoned game has no turn
    if status.get("opening_due") and not over:
        head += [Name(status["opening_due"]), "'s opening purchase · "]
    elif status["current"] and not over:
        head += [Name(status["current"]), "'s turn · "]
    head += ["start player ", Name(status["start"])]
    out: list[Any] = [
        Line(*head),
        Section([Line(*market_parts(state), f"  (stack: {status['stack']})")], where="terminal"),
        Section(market_page(at), title="The market", where="page"),
        *docks_view(state),
        Section([Facts([("Left", status["stack"])])], title="The stack", where="page"),
    ]
    if status["finished"]:  # the market, docks and stack no longer matter: the result fits a TV (issue 31)
        out = [b for b in out if getattr(b, "where", "both") != "page"]
    if state["end"] is not None:
        out += end_parts(status)
    out.append(Section([_players_table(status)], where="terminal"))
    if not status["finished"]:
        out.append(Section([Table(["Player", "Ships", "VP in play"],
                                  [[Name(p["name"]), ", ".join(p["ships"] + [f"{s} (scrapped)" for s in p["scrapped"]])
                                    or "-", p["play_vp"]] for p in status["players"]], right=[2])],
                           title="The fleets", where="page"))
    if status["finished"]:  # one row a player on a page: the whole result fits a TV's one screen (issue 31)
        out.append(Section([final_table(status)], title="The final score", where="page", wide=True))
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
            out.append(Line(f"{r['position']}. ", Name(r["ship"]), f" {r['flag'] or 'no flag'} {r['year']} £{total}"))
        else:
            out.append(Line(f"{r['position']}. (empty)"))
    return out + docks_view(at.state)


def market_screen(at) -> list:
    """`market`: positions 1 to 6 with each part of each price, and the docks."""
    return market_table(at, f"Ship market · session {at.session.id}") + docks_view(at.state)


def next_action(status: dict) -> str:
    """The shell toolbar's "next": the final scoring once the last turn is played, else the turn."""
    if status["finished"]:
        return ""
    waiting = [p["name"] for p in status["players"] if p.get("final") is None]
    end = status.get("end")
    if any(p.get("final") is not None for p in status["players"]) or (end and end.get("turns_left") == 0):
        return "final " + " / ".join(waiting)
    if not any(status["market"]) and status.get("stack") != "empty" and not end:
        return "reveal SHIP ... (the market is empty)"
    due = status.get("opening_due")
    if due:  # `next` is refused until every opening purchase is made
        return f"buy {due} SHIP: {due}'s opening purchase"
    return f"`next` when {status['current']}'s turn ends"


# -- the catalogue --------------------------------------------------------------------------------

def ships_listing(known: dict) -> list:
    """`ships`: every card the players have typed, oldest first."""
    if not known:
        return [Line("No ships yet: add each card once with ", Cmd(add_command("NAME")), ".")]
    # the optional values only where some card has them: 80 columns then hold whole names
    extras = [k for k in SHIP_EXTRAS if any(s.get(k) is not None for s in known.values())]
    rows = [[s["name"], s["kind"], s.get("flag") or "-", s.get("year"), s.get("price"), *(s.get(k) for k in extras)]
            for s in sorted(known.values(), key=lambda s: (s.get("year") or 0, s["name"]))]
    return [Table(["ship", "kind", "flag", "year", "price", *extras], rows,
                  title=f"{len(rows)} ships in the catalogue", right=range(3, 5 + len(extras)))]


def ship_card(ship: dict, typed_on: str | None) -> list:
    """`ship show`: one card, and when the players typed it."""
    return [Line(*ship_parts(ship)), *([Line(f"typed by the players on {typed_on}")] if typed_on else [])]


def card_stored(ship: dict, replaced: bool) -> list:
    """What `ship add` says."""
    out = [Line("Updated " if replaced else "Added ", *ship_parts(ship), ".")]
    if replaced:
        out.append(Line("Sessions already started keep the values they began with."))
    return out


def card_questions(name: str) -> list:
    """Said before the shell asks for a card nobody has typed yet."""
    return [Line(Name(name), " is not in the ship catalogue yet: read its card (Ctrl-C stops, recording nothing).")]


def card_added(ship: dict) -> list:
    return [Line("Added ", *ship_parts(ship), ".")]


# -- what the moves say once recorded ------------------------------------------------------------

def oldest_start(state: dict) -> list:
    """Who starts and who buys first, once every player owns a starting sailing ship."""
    seats = state["players_order"]
    start = seats[0]
    sails = [n for n in state["owned"][start] if state["ships"][n]["kind"] == "sail"]
    oldest = min(sails, key=lambda n: state["ships"][n]["year"])
    return [Line(Name(start), " owns the oldest ship (", Name(oldest), f", {state['ships'][oldest]['year']}) and starts "
                 f"(\"{OLDEST_STARTS}\"). Opening purchases, anti-clockwise: ", *names(opening_order(seats)),
                 "; then turns go clockwise: ", *names(seats), ".")]


def end_news(state: dict, ended_before: bool) -> list:
    """What a move that triggered the end says of it (nothing otherwise)."""
    if ended_before or state["end"] is None:
        return []
    end = state["end"]
    left = Transatlantic.turn_info(state)["turns_left"]
    out = [Line(Name(end["by"]), f" took the last steamship off the market: the end is triggered. Round {end['round']} "
                "is finished and one more full round is played; the very last turn is ", Name(end["last"]),
                f"'s ({max(left, 0)} {plural(left, 'turn')} left, this one included).")]
    if end.get("docked"):
        # A purchase that sends a ship to the docks always buys a steamship (the market holds
        # only steamships and headquarters, and a headquarters alone sends nothing to the
        # docks), so the steamship bought in it is the last one ever purchased: seed 002's
        # trigger, to the letter.
        last = state["last_buy"]
        bought = [p["name"] for p in last["ships"] if state["ships"][p["name"]]["kind"] == "steam"]
        out.append(Line(Name(last["docked"]), ", the last steamship on the market, went to the docks, so ",
                        *names(bought, " and "), f" {'was' if len(bought) == 1 else 'were'} the last "
                        f"{plural(len(bought), 'steamship')} purchased: \"{END_LINE}\" (seed 002)."))
    return out


def purchase_news(state: dict, out_of_turn: str | None) -> list:
    """What `buy` says: whose turn the record says it was (if another's), each price, the
    docks, the market, what to reveal."""
    last = state["last_buy"]
    out: list[Any] = []
    if out_of_turn:
        buyer = last["player"]
        out.append(Line("Note: by the turns recorded with ", Cmd("next"), " it is ", Name(out_of_turn),
                        "'s turn; this is taken as ", Name(buyer), "'s purchase all the same (", Cmd("next"),
                        " is optional). If ", Name(out_of_turn), " bought, ", Cmd("undo"), " and buy again naming ",
                        Name(out_of_turn), "."))
    parts: list[Any] = []
    for i, p in enumerate(last["ships"]):
        if i:
            parts.append(" and ")
        parts += [Name(p["name"]), f" £{p['total']} (£{p['basic']} + £{p['surcharge']} in position {p['position']})"]
    out.append(Line(Name(last["player"]), " buys ", *parts,
                    f": £{last['total']} in all." if len(last["ships"]) > 1 else "."))
    out.append(Line(Name(last["docked"]), " goes to the docks.") if last["docked"] else Line("No ship goes to the docks."))
    out.append(Line(*market_parts(state)))
    empty = state["market"].count(None)
    if empty and not state["stack_empty"]:  # the companion cannot see the stack: both ways are said
        out.append(Line(f"{empty} {plural(empty, 'position')} empty: turn over new cards with ", Cmd("reveal SHIP ..."),
                        ", or type ", Cmd("stack-empty"), " if the stack has run out."))
    return out


def turn_news(state: dict) -> list:
    """What `next` says: whose turn it is, and once the end is triggered the turns left."""
    info = Transatlantic.turn_info(state)
    left = info["turns_left"]
    if left is None:
        return [Line(f"Round {info['round']}: ", Name(info["current"]), "'s turn.")]
    if left > 0:
        return [Line(f"Round {info['round']}: ", Name(info["current"]), f"'s turn. {left} {plural(left, 'turn')} left, "
                     "the very last is ", Name(state["end"]["last"]), "'s.")]
    return [Line("That was the very last turn: enter each player's score with ", Cmd(FINAL_COMMAND), ".")]


def scrap_news(state: dict, name: str) -> list:
    done = state["scrapped"][name]
    flag = state["ships"][name]["flag"]
    if flag is None:
        return [Line(Name(name), " is scrapped: it flies no flag, so ", Name(done["owner"]),
                     f" scores {done['points']} VP for it. It leaves the game.")]
    return [Line(Name(name), " is scrapped: ", Name(done["owner"]), f" scores {done['sheet_vp']} + {done['docks']} "
                 f"({flag} ships in the docks) = {done['points']} VP. It leaves the game.")]


def final_news(at, player: str) -> list:
    """What `final` says: a note if the record still counts turns, the player's score line
    by line, then the result or who is still to enter theirs."""
    state, status = at.state, at.status
    out: list[Any] = []
    if state["end"] is not None:
        left = Transatlantic.turn_info(state)["turns_left"]
        if left > 0:  # players don't always type `next`: accepted, and said once
            out.append(Line(f"Note: by the record {left} {'turns are' if left != 1 else 'turn is'} left "
                            "(accepted: ", Cmd("next"), " is optional)."))
    who = next(p for p in status["players"] if p["name"] == player)
    out += final_score(who)
    if status["finished"]:
        out += result_lines(at)
    else:
        waiting = [p["name"] for p in status["players"] if p["final"] is None]
        out.append(Line("Still to enter: ", *names(waiting), "."))
    return out

