"""Commands of Transatlantic: the ship catalogue, the market, purchases, the end and the scoring.

Thin over ``companion.games.transatlantic.rules``: each command builds one event, records it and
says what happened in words. The one thing done here rather than in the rules is finding a
ship's values: from the session's state or frozen catalogue, else from the players' catalogue
(a ship added after `new`), and those values travel inside the event so a replay never depends
on the catalogue as it is today.
"""

from __future__ import annotations

import json

import click

from companion.core import datapack
from companion.games.kit import echo_json, json_option, new_command, pass_app, session_option
from companion.games.kit import say as kit_say
from companion.core.errors import CompanionError, RuleError
from companion.games.api import best, player_name
from companion.games.transatlantic.rules import (END_LINE, KINDS, OLDEST_STARTS, RULEBOOK_ORDER, SHIP_EXTRAS, Transatlantic,
                                                 add_command, check_flag, check_ship, opening_order, ship_key,
                                                 unknown_ship)
from companion.terminal.render import table, whole, winners_line

GAME = ("transatlantic",)
GAME_ID = "transatlantic"
RULES = Transatlantic()


def say(text: str, state: dict | None = None) -> None:
    """A message wrapped at spaces (kit.say), never inside a ship's or a player's name."""
    kit_say(text, [*(state or {}).get("ships", {}), *(state or {}).get("players_order", [])])


# -- the players' ship catalogue -----------------------------------------------------------


def catalogue_values(app) -> dict:
    """The printed values as the players know them today (pack + their own)."""
    return datapack.merged(GAME_ID, app.store.user_values(GAME_ID))


def catalogue(app) -> dict[str, dict]:
    return catalogue_values(app).get("ships") or {}


def find_ship(app, name: str) -> dict:
    key = ship_key(name)
    ship = catalogue(app).get(key)
    if ship is None:
        raise CompanionError(unknown_ship(key))
    return {**ship, "name": key}


def store_ship(app, ship: dict) -> bool:
    """Check a ship against the rules and the pack's schema, then remember it; True if it replaced one."""
    if "." in ship["name"]:
        raise CompanionError(f"Write the ship's name without dots (e.g. {ship['name'].replace('.', '')}).")
    with app.store.writing():
        values = catalogue_values(app)
        ship = check_ship(ship, values.get("flags"))
        ships = dict(values.get("ships") or {})
        replaced = ship["name"] in ships
        ships[ship["name"]] = ship
        datapack.validate(GAME_ID, "ships", ships, app.store.user_values(GAME_ID))
        app.store.set_user_value(GAME_ID, f"ships.{ship['name']}", ship)
    return replaced


def ask_ship(app, name: str) -> dict:
    """In the shell, a ship nobody has typed yet: ask for its card's values and remember them.

    Every question says what it accepts and is asked again until the answer fits; Ctrl-C stops,
    recording nothing.
    """
    say(f"{name} is not in the ship catalogue yet: read its card (Ctrl-C stops, recording nothing).",
        {"ships": {name: None}})

    def answer(question: str, required: bool, parse):
        def check(text: str):
            if not text:
                if required:
                    raise ValueError("This value is on the card and needed: type it.")
                return None
            return parse(text)

        return app.ask_until(question, check)

    def kind(text: str) -> str:
        if text.lower() not in KINDS:
            raise ValueError("Type steam, sail or hq.")
        return text.lower()

    def whole(text: str) -> int:
        if not text.isdigit():
            raise ValueError("Type a whole number.")
        return int(text)

    flags = catalogue_values(app).get("flags")

    def flag(text: str) -> str | None:
        if none_flag(text) is None:
            return None
        try:
            return check_flag(text, flags)
        except RuleError as exc:
            raise ValueError(str(exc)) from None

    ship = {"name": name, "kind": answer("Kind: steam, sail or hq (Enter = steam): ", False, kind) or "steam"}
    ship["year"] = answer("Year of construction (a whole number, e.g. 1870): ", True, whole)
    ship["flag"] = answer(f"Flag colour ({', '.join(flags) + ' or none' if flags else 'or none'}): ", True, flag)
    ship["price"] = answer("Basic price (red field) in £ (a whole number): ", ship["kind"] != "sail", whole)
    store_ship(app, ship)
    say(f"Added {ship_line(catalogue(app)[name], keep=True)}.")
    return catalogue(app)[name]


def none_flag(text: str | None) -> str | None:
    return None if text is None or text.strip().lower() in ("", "none", "-") else text


def ship_values(app, state: dict, frozen: dict, name: str) -> dict:
    """A ship's values for an event: as the session knows it, else the catalogue (asking in the shell)."""
    key = ship_key(name)
    if not key:
        raise click.UsageError("A ship name is empty: write it like NUBIAN or 'CITY OF NEW YORK'.")
    known = state["ships"].get(key) or (frozen.get("ships") or {}).get(key) or catalogue(app).get(key)
    if known is None:
        if not app.can_ask():
            raise CompanionError(unknown_ship(key))
        known = ask_ship(app, key)
    return {**known, "name": key}


def quoted(name: str) -> str:
    """A ship's name as typed in a command: in quotes when it has a space."""
    return f'"{name}"' if " " in name else name


def ship_line(ship: dict, keep: bool = False) -> str:
    """A card's values in words; ``keep`` holds the name together when the line is wrapped."""
    flag = ship.get("flag") or "no flag"
    price = f"£{ship['price']}" if ship.get("price") is not None else "no price"
    extras = ", ".join(f"{k} {ship[k]}" for k in SHIP_EXTRAS if ship.get(k) is not None)
    return f"{whole(ship['name']) if keep else ship['name']}: {ship['kind']}, {flag}, {ship.get('year') or 'year unknown'}, {price}" + (
        f" ({extras})" if extras else "")


@click.group("ship")
def ship_group() -> None:
    """The ship catalogue, typed once for every game.

    `ship add` a card's values the first time it turns up; `ship show NAME` reads them back.
    """


@ship_group.command("add")
@click.argument("name")
@click.option("--year", type=int, required=True, help="Year of construction.")
@click.option("--flag", required=True, metavar="COLOUR", help="The flag colour (`none` for a ship without one).")
@click.option("--price", type=int, metavar="P", help="Basic price in the red field (needed for steamships and headquarters).")
@click.option("--kind", type=click.Choice(KINDS), default="steam", show_default=True, help="Steamship, sailing ship or headquarters.")
@click.option("--income", type=int, metavar="N", help="Income in £ (green field).")
@click.option("--tonnage", type=int, metavar="N", help="Tonnage in t.")
@click.option("--speed", type=float, metavar="N", help="Speed in knots.")
@click.option("--passengers", type=int, metavar="N", help="Passenger capacity.")
@pass_app
def ship_add(app, name, year, flag, price, kind, income, tonnage, speed, passengers) -> None:
    """Teach the companion a ship card: remembered for every later game."""
    if price is None and kind != "sail":
        raise click.UsageError(f"A {'headquarters' if kind == 'hq' else 'steamship'} needs --price P (its basic price).")
    if speed is not None and speed.is_integer():
        speed = int(speed)
    ship = {"name": name, "year": year, "flag": none_flag(flag), "price": price, "kind": kind,
            "income": income, "tonnage": tonnage, "speed": speed, "passengers": passengers}
    replaced = store_ship(app, ship)  # tidies the name after refusing control characters
    say(("Updated " if replaced else "Added ") + ship_line(catalogue(app)[ship_key(name)], keep=True) + ".")
    if replaced:
        click.echo("Sessions already started keep the values they began with.")


@ship_group.command("show")
@click.argument("name")
@json_option
@pass_app
def ship_show(app, name: str, as_json: bool) -> None:
    """Show one ship of the catalogue (the name in any case)."""
    ship = find_ship(app, name)
    if as_json:
        echo_json(ship)
        return
    say(ship_line(ship, keep=True))
    entry = app.store.user_entries(GAME_ID).get(f"ships.{ship['name']}")
    if entry:
        click.echo(f"typed by the players on {entry['set_at'][:10]}")


@click.command()
@json_option
@pass_app
def ships(app, as_json: bool) -> None:
    """List the ship catalogue: every card the players have typed."""
    known = catalogue(app)
    if as_json:
        echo_json(known)
        return
    if not known:
        say(f"No ships yet: add each card once with `{add_command('NAME')}`.")
        return
    # the optional values only where some card has them: 80 columns then hold whole names
    extras = [k for k in SHIP_EXTRAS if any(s.get(k) is not None for s in known.values())]
    rows = [[s["name"], s["kind"], s.get("flag") or "-", s.get("year"), s.get("price"),
             *(s.get(k) for k in extras)]
            for s in sorted(known.values(), key=lambda s: (s.get("year") or 0, s["name"]))]
    click.echo(table(["ship", "kind", "flag", "year", "price", *extras], rows,
                     title=f"{len(rows)} ships in the catalogue", right=range(3, 5 + len(extras))))


# -- a game ------------------------------------------------------------------------------


@new_command("transatlantic")
def new() -> dict:
    """2 to 4 players. The owner of the oldest ship starts: once every player owns their
    starting sailing ship (`own`), the companion names the start player (a --start naming
    someone else is refused then); the opening purchases go anti-clockwise from the start
    player's right-hand neighbour, then turns go clockwise from the start player."""
    return {"turn_order": RULEBOOK_ORDER}


def _session(app, command: str):
    s = app.session(GAME, command)
    return s, s.replay()


@click.command()
@click.argument("player")
@click.argument("ship")
@session_option
@pass_app
def own(app, player: str, ship: str) -> None:
    """Give a player a ship without buying it.

    For the sailing ship each player starts with.
    """
    s, replay = _session(app, "own")
    settled_before = replay.state.get("start_by") == "oldest ship"
    values = ship_values(app, replay.state, replay.data, ship)
    s, replay, event = app.record(seated({"type": "own", "player": player, "ship": values}), GAME, "own")
    state = replay.state
    owner = RULES.location(state, values["name"])
    say(f"{owner} owns {ship_line(state['ships'][values['name']])}.", state)
    if not settled_before and state.get("start_by") == "oldest ship":
        say(start_text(state), state)


def start_text(state: dict) -> str:
    """Who starts and who buys first, once every player owns a starting sailing ship."""
    seats = state["players_order"]
    start = seats[0]
    sails = [n for n in state["owned"][start] if state["ships"][n]["kind"] == "sail"]
    oldest = min(sails, key=lambda n: state["ships"][n]["year"])
    return (f"{start} owns the oldest ship ({oldest}, {state['ships'][oldest]['year']}) and starts "
            f"(\"{OLDEST_STARTS}\"). Opening purchases, anti-clockwise: "
            f"{', '.join(opening_order(seats))}; then turns go clockwise: {', '.join(seats)}.")


@click.command()
@click.argument("names", nargs=-1, metavar="SHIP [SHIP ...]")
@session_option
@pass_app
def reveal(app, names: tuple[str, ...]) -> None:
    """Put cards turned over from the stack on the market.

    They fill the empty positions from the left. Revealing a headquarters means no steamship
    is left in the stack.
    """
    if not names:
        raise click.UsageError("Name the cards turned over, e.g. reveal NUBIAN HAMMONIA")
    s, replay = _session(app, "reveal")
    values = [ship_values(app, replay.state, replay.data, n) for n in names]
    make, before = recording({"type": "reveal", "ships": values})
    s, replay, event = app.record(make, GAME, "reveal")
    say(market_line(replay.state), replay.state)
    if any(v["kind"] == "hq" for v in values):
        say("A headquarters is out: no steamship is left in the stack.")
    _end_news(replay, before)


@click.command("stack-empty")
@session_option
@pass_app
def stack_empty(app) -> None:
    """Record that the stack ran out.

    Empty market positions stay empty from now on.
    """
    make, before = recording({"type": "stack-empty"})
    s, replay, _ = app.record(make, GAME, "stack-empty")
    click.echo("The stack is empty: no more cards come to the market.")
    _end_news(replay, before)


def _market_data(app, replay) -> dict:
    """The session's values, with surcharges typed after `new` (the next purchase freezes them)."""
    data = replay.data
    if (data.get("market") or {}).get("surcharges") is None:
        data = json.loads(json.dumps(data))
        data.setdefault("market", {})["surcharges"] = (catalogue_values(app).get("market") or {}).get("surcharges")
    return data


@click.command()
@json_option
@session_option
@pass_app
def market(app, as_json: bool) -> None:
    """Show the market with each position's price.

    Positions 1 to 6 with ship, kind, flag, year, basic price, surcharge and total.
    """
    s, replay = _session(app, "market")
    rows = RULES.market_rows(replay.state, _market_data(app, replay))
    if as_json:
        echo_json(rows)
        return

    def money(v):
        return "?" if v is None else f"£{v}"

    out = [table(["pos", "ship", "kind", "flag", "year", "price", "surcharge", "total"],
                 [[r["position"], r["ship"] or "(empty)", r.get("kind"), r.get("flag"), r.get("year"),
                   money(r.get("price")) if r["ship"] else "", money(r["surcharge"]),
                   money(r.get("total")) if r["ship"] else ""] for r in rows],
                 title=f"Ship market · session {s.id}", right=[0, 4, 5, 6, 7])]
    if rows[0]["surcharge"] is None:
        out.append("The surcharges are not known yet: read them off the board and type "
                   "`companion data set transatlantic market.surcharges '[S1, S2, S3, S4, S5, S6]'` (6 numbers, leftmost first).")
    click.echo("\n".join(out))


@click.command()
@click.argument("player")
@click.argument("names", nargs=-1, metavar="SHIP [SHIP]")
@session_option
@pass_app
def buy(app, player: str, names: tuple[str, ...]) -> None:
    """Buy 1 or 2 cards from the market (at most one headquarters).

    Each costs its basic price plus its position's surcharge. Then the leftmost ship goes to the
    docks (not when only a headquarters was bought) and the others move left.
    """
    if not names:
        raise click.UsageError("Name the ship or ships bought, e.g. buy Ann NUBIAN HAMMONIA")
    make, before = recording({"type": "buy", "player": player, "ships": list(names)})
    s, replay, _ = app.record(make, GAME, "buy")
    if before.get("out_of_turn"):
        current, buyer = before["out_of_turn"], replay.state["last_buy"]["player"]
        say(f"Note: by the turns recorded with `next` it is {current}'s turn; this is taken as {buyer}'s "
            f"purchase all the same (`next` is optional). If {current} bought, `undo` and buy again "
            f"naming {current}.", replay.state)
    last = replay.state["last_buy"]
    parts = [f"{p['name']} £{p['total']} (£{p['basic']} + £{p['surcharge']} in position {p['position']})"
             for p in last["ships"]]
    state = replay.state
    say(f"{last['player']} buys {' and '.join(parts)}" + (f": £{last['total']} in all." if len(parts) > 1 else "."),
        state)
    say(f"{last['docked']} goes to the docks." if last["docked"] else "No ship goes to the docks.", state)
    say(market_line(state), state)
    empty = replay.state["market"].count(None)
    if empty and not replay.state["stack_empty"]:
        say(f"{empty} position{'s' if empty > 1 else ''} empty: turn over new cards with `reveal SHIP ...`.")
    _end_news(replay, before)


def seated(event: dict):
    """The event as a function for app.record, its player written as seated (`cy` is
    recorded as Cy), so the log and the report name them as the table does."""

    def make(session, replay):
        if "player" not in event:
            return event
        return {**event, "player": player_name(replay.state["players_order"], event["player"])}

    return make


def recording(event: dict):
    """The event as a function for app.record, keeping the end as it was just before it
    (and, for a purchase, whose turn the record said it was)."""
    before: dict = {}
    named = seated(event)

    def make(session, replay):
        before["end"] = replay.state["end"]
        made = named(session, replay)
        if made["type"] == "buy":
            before["out_of_turn"] = RULES.out_of_turn(replay.state, made["player"])
        return made

    return make, before


def _end_news(replay, before: dict) -> None:
    """Say so when this action triggered the end."""
    if before.get("end") is None and replay.state["end"] is not None:
        say(end_text(replay.state), replay.state)
        if replay.state["end"].get("docked"):
            say(docked_text(replay.state), replay.state)


def docked_text(state: dict) -> str:
    """Which rule ends the game when the last steamship leaves the market for the docks.

    A purchase that sends a ship to the docks always buys a steamship (the market holds only
    steamships and headquarters, and a headquarters alone sends nothing to the docks), so the
    steamship bought in it is the last one ever purchased: seed 002's trigger, to the letter."""
    last = state["last_buy"]
    bought = [p["name"] for p in last["ships"] if state["ships"][p["name"]]["kind"] == "steam"]
    return (f"{last['docked']}, the last steamship on the market, went to the docks, so {' and '.join(bought)} "
            f"{'was' if len(bought) == 1 else 'were'} the last steamship{'s' if len(bought) > 1 else ''} "
            f"purchased: \"{END_LINE}\" (seed 002).")


def end_text(state: dict) -> str:
    end = state["end"]
    left = RULES.turn_info(state)["turns_left"]
    return (f"{end['by']} took the last steamship off the market: the end is triggered. Round {end['round']} "
            f"is finished and one more full round is played; the very last turn is {end['last']}'s "
            f"({max(left, 0)} turn{'s' if left != 1 else ''} left, this one included).")


@click.command("next")
@session_option
@pass_app
def next_turn(app) -> None:
    """Mark the end of a turn (optional).

    With it, `status` says whose turn it is and, once the end is triggered, the turns left.
    """
    s, replay, _ = app.record({"type": "next"}, GAME, "next")
    info = RULES.turn_info(replay.state)
    if info["turns_left"] is None:
        say(f"Round {info['round']}: {info['current']}'s turn.", replay.state)
    elif info["turns_left"] > 0:
        say(f"Round {info['round']}: {info['current']}'s turn. {info['turns_left']} turn"
            f"{'s' if info['turns_left'] != 1 else ''} left, the very last is {replay.state['end']['last']}'s.",
            replay.state)
    else:
        say("That was the very last turn: enter each player's score with "
            "`final NAME --cash N --sheet FLAG=VP,... --rows R --next-row M`.")


@click.command()
@click.argument("ship")
@click.option("--sheet-vp", type=int, required=True, metavar="N",
              help="The VPs per ship of its flag on the owner's player sheet.")
@session_option
@pass_app
def scrap(app, ship: str, sheet_vp: int) -> None:
    """Scrap a ship: it scores at once and leaves the game.

    For a ship pushed out with nowhere to go: its owner scores N plus the ships of its flag in
    the docks; it does not go to the docks.
    """
    def make(session, replay):
        known = replay.state["ships"].get(ship_key(ship))
        if known is not None and known["flag"] is None and known["kind"] != "hq" and sheet_vp:
            # a sheet scores ships by flag, and final scoring gives a flagless ship nothing:
            # "the scrapped ship is scored in the usual way" (seed 002)
            raise CompanionError(f"{known['name']} flies no flag, so no player sheet scores it and scrapping "
                                 f"it scores nothing: type `scrap {quoted(known['name'])} --sheet-vp 0`.")
        return {"type": "scrap", "ship": ship, "sheet_vp": sheet_vp}

    s, replay, event = app.record(make, GAME, "scrap")
    name = ship_key(ship)
    done = replay.state["scrapped"][name]
    flag = replay.state["ships"][name]["flag"]
    if flag is None:
        say(f"{name} is scrapped: it flies no flag, so {done['owner']} scores {done['points']} VP for it. "
            "It leaves the game.", replay.state)
    else:
        say(f"{name} is scrapped: {done['owner']} scores {done['sheet_vp']} + {done['docks']} "
            f"({flag} ships in the docks) = {done['points']} VP. It leaves the game.", replay.state)


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("player")
@click.argument("points", metavar="N")
@click.option("--note", metavar="TEXT", help="What scored them (trade houses, FLEET, ...).")
@session_option
@pass_app
def vp(app, player: str, points: str, note: str | None) -> None:
    """Record victory points scored during play.

    Trade houses when transporting, FLEET, and so on.
    """
    try:
        value = int(points)
    except ValueError:
        raise click.UsageError(f"{points!r} is not a whole number: write it like vp Ann 3") from None
    s, replay, event = app.record(seated({"type": "vp", "player": player, "points": value, "note": note or ""}),
                                  GAME, "vp")
    status = s.status(replay)
    who = next(p for p in status["players"] if p["name"] == event["player"])
    say(f"{who['name']} scores {value} VP{' (' + note + ')' if note else ''}: {who['play_vp']} during play.",
        replay.state)


def parse_sheet(text: str) -> dict[str, int]:
    """`blue=7,black=3` -> {'blue': 7, 'black': 3}, refusing anything else in one line."""
    out: dict[str, int] = {}
    for item in [i for i in text.replace(" ", ",").split(",") if i]:
        flag, sep, number = item.partition("=")
        if not sep or not flag.strip():
            raise click.UsageError(f"{item!r} is not FLAG=VP: write the sheet like --sheet blue=7,black=3")
        try:
            out[flag.strip()] = int(number)
        except ValueError:
            raise click.UsageError(f"{item!r}: {number!r} is not a whole number; write it like {flag}=7") from None
    return out


FINAL_INPUTS = [("cash", "--cash N", "Cash in £: "), ("rows", "--rows R", "Complete rows of acquired markers: "),
                ("next_row", "--next-row M", "Markers in the uppermost incomplete row: ")]


@click.command()
@click.argument("player")
@click.option("--cash", type=int, metavar="N", help="Cash in £ (1 VP per full £100).")
@click.option("--sheet", metavar="FLAG=VP,...", help="VPs per ship of each flag, read off the player sheet.")
@click.option("--rows", type=int, metavar="R", help="Complete rows of acquired markers (5, 10, 15, 20 VP).")
@click.option("--next-row", type=int, metavar="M", help="Markers in the uppermost incomplete row.")
@session_option
@pass_app
def final(app, player: str, cash, sheet, rows, next_row) -> None:
    """Enter a player's end-of-game scoring.

    Cash, the VPs per flag off the sheet, complete rows and markers in the next row. When every
    player has an entry, the game is over.
    """
    given = {"cash": cash, "rows": rows, "next_row": next_row}
    if app.can_ask() and (None in given.values() or sheet is None):
        given, sheet = ask_final(app, player, given, sheet)
    for key, option, question in FINAL_INPUTS:
        if given[key] is None:
            raise click.UsageError(f"Add {option}: final NAME --cash N --sheet FLAG=VP,... --rows R --next-row M")
    event = {"type": "final", "player": player, **given, "sheet": parse_sheet(sheet or "")}
    s, replay, event = app.record(seated(event), GAME, "final")
    end = replay.state["end"]
    if end is not None:
        left = RULES.turn_info(replay.state)["turns_left"]
        if left > 0:
            # players don't always type `next`: accepted, and said once
            say(f"Note: by the record {left} turn{'s are' if left != 1 else ' is'} left "
                "(accepted: `next` is optional).")
    status = s.status(replay)
    who = next(p for p in status["players"] if p["name"] == event["player"])
    click.echo(score_text(who))
    if status["finished"]:
        say(result_line(replay.state, status), replay.state)
    else:
        waiting = [p["name"] for p in status["players"] if p["final"] is None]
        say(f"Still to enter: {', '.join(waiting)}.", replay.state)


def ask_final(app, player: str, given: dict, sheet: str | None) -> tuple[dict, str]:
    """In the shell, ask for what `final` was not given, each question saying what it accepts.

    A wrong answer is answered and the same question asked again; Ctrl-C cancels `final`
    with nothing recorded. The sheet question names the flags the player's ships fly.
    """
    from companion.games.api import player_name

    s = app.session(GAME, "final")
    replay = s.replay()
    state, data = replay.state, replay.data
    name = player_name(s.players, player)
    rows_vp = data.get("rows_vp") or []
    given = dict(given)

    def whole(low: int = 0, high: int | None = None):
        span = f"{low}-{high}" if high is not None else f"{low} or more"

        def parse(text: str) -> int:
            if not text.isdigit() or int(text) < low or (high is not None and int(text) > high):
                raise ValueError(f"{repr(text) + ' does not fit' if text else 'This value is needed'}: type a whole number, {span}.")
            return int(text)

        return parse, span

    asks = {"cash": whole(), "rows": whole(0, len(rows_vp) if rows_vp else None), "next_row": whole()}
    for key, _option, question in FINAL_INPUTS:
        if given[key] is None:
            parse, span = asks[key]
            given[key] = app.ask_until(f"{name}: {question.rstrip(': ')} ({span}): ", parse)
    if sheet is None:
        owned = sorted({state["ships"][n]["flag"] for n in Transatlantic.fleet(state, name)} - {None})
        flags = Transatlantic.flags(state, data)

        def parse_flags(text: str) -> str:
            values = parse_sheet(text)
            for flag in values:
                check_flag(flag, flags)
            lacking = [f for f in owned if f not in {k.strip().lower() for k in values}]
            if lacking:
                raise ValueError(f"{name} owns ships of the {', '.join(lacking)} flag: "
                                 f"type {', '.join(f + '=VP' for f in lacking)} too.")
            return text

        if owned:
            example = ",".join(f"{f}=VP" for f in owned)
            # the example names the flags; the question fits 80 columns with 5 flags and a long name
            sheet = app.ask_until(f"{name}'s sheet VPs as {example}: ", parse_flags)
        else:
            sheet = ""
    return given, sheet


def score_text(player: dict) -> str:
    """A player's score line by line, as on the table's scoring overview."""
    f = player["final"]
    if f is None:
        return f"{player['name']}: {player['play_vp']} VP during play (no final entry yet)."
    rows = [[x["ship"], f"{x['flag'] or 'no flag'}: sheet {x['sheet']} + docks {x['docks']}", x["points"]]
            for x in f["ships"]]
    inputs = f["inputs"]
    rows += [
        ["cash", f"£{inputs['cash']}: 1 per full £100", f["cash"]],
        ["rows", f"{inputs['rows']} complete row{'s' if inputs['rows'] != 1 else ''}", f["rows"]],
        ["next row", f"{inputs['next_row']} marker{'s' if inputs['next_row'] != 1 else ''} × {inputs['rows'] + 1}",
         f["next_row"]],
        ["during play", "scrapped ships, trade houses, FLEET ...", player["play_vp"]],
        ["total", "", player["score"]],
    ]
    return table(["", "", "VP"], rows, title=f"{player['name']}'s score", right=[2])


def result_line(state: dict, status: dict) -> str:
    """Who won, and how a tie was settled."""
    totals = {p["name"]: p["score"] for p in status["players"]}
    tied = best(totals)
    line = winners_line(status)
    if len(tied) > 1:
        years = ", ".join(f"{p} {RULES.youngest(state, p) if RULES.youngest(state, p) >= 0 else 'none'}"
                          for p in tied)
        line += f" ({', '.join(tied)} tied on {totals[tied[0]]}; youngest ship: {years}.)"
    return line


def market_line(state: dict) -> str:
    # each position with its card stays on one line when the line is wrapped
    cells = [whole(f"{i} {n}" if n else f"{i} -") for i, n in enumerate(state["market"], 1)]
    return "Market: " + " · ".join(cells)


# -- screens -----------------------------------------------------------------------------


def render_status(app, session, replay) -> str:
    state = replay.state
    status = session.status(replay)
    head = [f"Session {session.id}", "Transatlantic", f"round {status['round']}", f"start player {status['start']}"]
    if status.get("opening_due") and not status["finished"]:
        head.insert(3, f"{status['opening_due']}'s opening purchase")
    elif status["current"] and not status["finished"]:
        head.insert(3, f"{status['current']}'s turn")
    out = [" · ".join(head), market_line(state) + f"  (stack: {status['stack']})"]
    docks = status["docks_value"]
    out.append("Docks: " + (", ".join(state["docks"]) + " → per ship at scoring: " +
                            ", ".join(f"{f} +{n}" for f, n in sorted(docks.items())) if state["docks"] else "empty"))
    if state["end"] is not None:
        end = status["end"]
        if status["finished"]:
            out.append(f"End triggered by {end['by']} in round {end['round']}; the game is over.")
        else:
            out.append(f"End triggered by {end['by']} in round {end['round']}: {end['turns_left']} turn"
                       f"{'s' if end['turns_left'] != 1 else ''} left, the very last is {end['last']}'s.")
    out.append(table(["player", "ships", "scrapped", "VP in play", "score"],
                     [[p["name"], ", ".join(p["ships"]) or "-", ", ".join(p["scrapped"]) or "-", p["play_vp"],
                       p["score"]] for p in status["players"]], right=[3, 4]))
    for p in status["players"]:
        if p["final"] is not None:
            out.append(score_text(p))
    if status["finished"]:
        out.append(result_line(state, status))
    return "\n".join(out)


def render_board(app, session, replay) -> str:
    """`board`: the market with its prices, and the docks."""
    rows = RULES.market_rows(replay.state, _market_data(app, replay))
    lines = [f"{r['position']}. {r['ship'] or '(empty)'}" +
             (f" {r['flag'] or 'no flag'} {r['year']} £{r['total'] if r['total'] is not None else '?'}"
              if r["ship"] else "") for r in rows]
    lines.append("Docks: " + (", ".join(replay.state["docks"]) or "empty"))
    return "\n".join(lines)


# -- what the game declares (companion.games.api.Game) ------------------------------------------
def complete(session, replay, words: list[str], current: str) -> list[tuple[str, str]] | None:
    """Completion from context: the market's ships for `buy`, owned ships for `scrap`, ships
    nobody has yet for `reveal` and `own`, players where a player goes."""
    state = replay.state
    command, args = words[0], [w for w in words[1:] if not w.startswith("-")]
    players = [(p, "") for p in session.players]
    owned = {name: p for p in session.players for name in Transatlantic.fleet(state, p)}
    if words[-1] == "--sheet":
        return [(f, "flag") for f in Transatlantic.flags(state, replay.data) or []]
    if command == "buy":
        return players if not args else [(n, f"market {i}") for i, n in enumerate(state["market"], 1) if n]
    if command == "scrap":
        return [(n, f"{p}'s") for n, p in owned.items()] if not args else []
    if command in ("final", "vp"):
        return players if not args else []
    if command in ("reveal", "own"):
        if command == "own" and not args:
            return players
        known = set(state["ships"]) | set((replay.data.get("ships") or {}))
        busy = set(owned) | {n for n in state["market"] if n} | set(state["docks"]) | set(state["scrapped"])
        return [(n, "") for n in sorted(known - busy)]
    return None


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


COMMANDS = {"ship": ship_group, "ships": ships, "own": own, "reveal": reveal, "stack-empty": stack_empty,
            "market": market, "buy": buy, "next": next_turn, "scrap": scrap, "vp": vp, "final": final}
NEW = {"transatlantic": new}
