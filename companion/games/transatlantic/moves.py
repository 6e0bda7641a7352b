"""What can be done in Transatlantic, declared once: `new transatlantic`, the moves of a game
(own, reveal, stack-empty, buy, next, scrap, vp, final), the `market` screen, and the ship
catalogue (`ship add`, `ship show`, `ships`).

Each Move names its parameters by kind, builds the event the rules check and says what is
said once it is recorded, as a view (``companion.games.transatlantic.views``). The one thing
done before an event is built is finding a ship's values (``catalogue.ship_values``, asking
for a card in the shell): they travel inside the event, so a replay never depends on the
catalogue as it is later. The catalogue's commands are written by hand: they work without a
session, and on a session of any game.
"""

from __future__ import annotations

from typing import Any

import click

from companion.contract.errors import CompanionError, Malformed
from companion.games import kit
from companion.contract.language import N_
from companion.contract.declare import Kind, Move, Number, Param, Player, Screen
from companion.contract.language import N_, _, ngettext
from companion.games.transatlantic import catalogue, views
from companion.contract.view import Line, Name
from companion.games.transatlantic.rules import END_LINE, KINDS, RULEBOOK_ORDER, Transatlantic, ship_key


# -- the kinds of the parameters ------------------------------------------------------------------

class _Ship(Kind):
    """A ship's name as typed (any case: the rules and the catalogue read it by its key);
    completion offers the ships that may go here now; a page offers ``phone``'s (the market
    with its prices, the player's own fleet), ``most`` at a time."""

    metavar = "SHIP"

    def __init__(self, offered, phone=None, most: int | None = None):
        self.offered_by, self.phone, self.most = offered, phone, most

    def read(self, text: str, at, param) -> Any:
        return text  # an empty or unknown name is refused with the move's own words

    def options(self, at, param):
        return self.offered_by(at)

    def offered(self, at, param):
        return (self.phone or self.offered_by)(at)

    def limit(self, at, param):
        return self.most(at) if callable(self.most) else self.most


def _buy_most(at) -> int:
    """Ships a purchase takes on a page: the opening's one steamship, else 1 or 2."""
    return 1 if Transatlantic.opening_due(at.full) is not None else 2


def _on_market(at) -> list[tuple[str, str]]:
    return [(n, _("market {position}").format(position=i)) for i, n in enumerate(at.state["market"], 1) if n]


def _priced(at) -> list[tuple[str, str]]:
    """On a page: the market's ships, each with its price now (basic price plus its position's
    surcharge), as the market shows it."""
    out = []
    for r in views.market_rows(at):
        if r["ship"]:
            price = f"£{r['total']}" if r.get("total") is not None else _("price not known yet")
            out.append((r["ship"], _("{price} (position {position})").format(price=price, position=r["position"])))
    return out


def _owned(at) -> list[tuple[str, str]]:
    return [(n, _("{name}'s").format(name=p)) for p in at.players for n in Transatlantic.fleet(at.state, p)]


def _own_fleet(at) -> list[tuple[str, str]]:
    """On a player's page: their own ships that can be scrapped (not a headquarters)."""
    player = at.viewer
    return [(n, at.state["ships"][n].get("flag") or _("no flag")) for n in Transatlantic.fleet(at.state, player)
            if at.state["ships"][n]["kind"] != "hq"] if player else []


def _known(at) -> dict:
    """Every ship the session, its pack or the players' catalogue knows (a card typed after
    `new` too)."""
    known = dict(at.data.get("ships") or {})
    store = getattr(at.host, "store", None)
    if store is not None:
        try:
            known.update(catalogue.ships(store))
        except CompanionError:
            pass
    known.update(at.state["ships"])
    return known


def _unmet(at) -> list[tuple[str, str]]:
    """Ships the session or its catalogue knows that are not in play (market, docks, a fleet,
    scrapped): what may be revealed or owned now."""
    state = at.state
    known = _known(at)
    busy = ({n for p in at.players for n in Transatlantic.fleet(state, p)} | {n for n in state["market"] if n}
            | set(state["docks"]) | set(state["scrapped"]))
    return [(n, "") for n in sorted(set(known) - busy)]


def _unmet_noted(at, kinds: tuple[str, ...]) -> list[tuple[str, str]]:
    known = _known(at)
    out = []
    for name, _note in _unmet(at):
        ship = known.get(name) or {}
        if ship.get("kind", "steam") in kinds:
            out.append((name, f"{views.kind_name(ship.get('kind', '?'))}, {ship.get('flag') or _('no flag')}, {ship.get('year') or '?'}"))
    return out


class _Points(Kind):
    """Victory points: a whole number, negative ones too as far as the rules (which refuse
    them, saying so)."""

    metavar = "N"
    signed = True

    def read(self, text, at, param) -> Any:
        if isinstance(text, int) and not isinstance(text, bool):
            return text
        try:
            return int(str(text).strip())
        except ValueError:
            raise Malformed(_("{typed} is not a whole number: write it like vp Ann 3").format(typed=repr(text))) from None


class _Note(Kind):
    metavar = "TEXT"

    def read(self, text, at, param) -> Any:
        return str(text)


class _Count(Kind):
    """A number off the table at final scoring, 0 up to what fits (typed, answered or posted
    alike); asked for in the shell the question names the player and what fits."""

    number = True

    def __init__(self, asked: str, high=None):
        self.asked, self.high = asked, high

    def span(self, at) -> str:
        high = self.high(at) if self.high is not None else None
        return f"0-{high}" if high is not None else _("0 or more")

    def read(self, text, at, param) -> Any:
        if isinstance(text, int) and not isinstance(text, bool):
            return text
        text = str(text).strip()
        high = self.high(at) if self.high is not None else None
        if not text.isdigit() or (high is not None and int(text) > high):
            raise CompanionError((_("{typed} does not fit: type a whole number, {span}.") if text else
                                  _("This value is needed: type a whole number, {span}.")).format(
                typed=repr(text), span=self.span(at)))
        return int(text)

    def question(self, param, at) -> str:
        return f"{at.args.get('player')}: {_(self.asked)} ({self.span(at)}): "


def parse_sheet(text: str) -> dict[str, int]:
    """`blue=7,black=3` -> {'blue': 7, 'black': 3}, refusing anything else in one line."""
    out: dict[str, int] = {}
    for item in [i for i in str(text).replace(" ", ",").split(",") if i]:
        flag, sep, number = item.partition("=")
        if not sep or not flag.strip():
            raise Malformed(_("{item} is not FLAG=VP: write the sheet like --sheet blue=7,black=3").format(
                item=repr(item)))
        try:
            out[flag.strip()] = int(number)
        except ValueError:
            raise Malformed(_("{item}: {typed} is not a whole number; write it like {flag}=7").format(
                item=repr(item), typed=repr(number), flag=flag)) from None
    return out


class _Sheet(Kind):
    """The VPs per ship of each flag, read off a player sheet; completion offers the flags; a
    page asks one number per flag the player's ships fly."""

    metavar = "FLAG=VP,..."

    def read(self, text, at, param) -> Any:
        return parse_sheet(text)

    def options(self, at, param):
        return [(f, _("flag")) for f in Transatlantic.flags(at.state, at.data) or []]

    def fields(self, at, param):
        player = at.args.get("player") or at.viewer
        return [(f, _("{flag} flag").format(flag=f)) for f in Transatlantic.owned_flags(at.state, player)] if player else None

    def from_fields(self, values, at, param) -> Any:
        return parse_sheet(",".join(f"{k}={v.strip()}" for k, v in values.items() if v.strip()))


# -- what each move records and says --------------------------------------------------------------

def _ended(state: dict) -> dict:
    return {"ended": state["end"] is not None}


def _own_event(at) -> dict:
    return {"type": "own", "player": at.args["player"], "ship": at.args.get("values") or at.args["ship"]}


def _owned_now(outcome) -> list:
    state = outcome.state
    name = ship_key(outcome.event["ship"]["name"] if isinstance(outcome.event["ship"], dict) else outcome.event["ship"])
    out = [Line(*kit.said(_("{name} owns {card}."), name=Name(Transatlantic.location(state, name)),
                          card=views.ship_parts(state["ships"][name])))]
    if not outcome.before["settled"] and state.get("start_by") == "oldest ship":
        out += views.oldest_start(state)
    return out


def _revealed(outcome) -> list:
    state = outcome.state
    out = [Line(*views.market_parts(state))]
    if any(isinstance(v, dict) and v.get("kind") == "hq" for v in outcome.event["ships"]):
        out.append(Line(_("A headquarters is out: no steamship is left in the stack.")))
    return out + views.end_news(state, outcome.before["ended"])


def _before_purchase(state: dict) -> dict:
    """The end as it was, and whose turn the record said it was (a purchase on another's
    turn gets one note)."""
    return {"ended": state["end"] is not None, "turn": Transatlantic.recorded_turn(state)}


def _bought(outcome) -> list:
    state = outcome.state
    turn, buyer = outcome.before["turn"], state["last_buy"]["player"]
    return (views.purchase_news(state, turn if turn is not None and turn != buyer else None)
            + views.end_news(state, outcome.before["ended"]))


def _scrap_event(at) -> dict:
    ship, sheet_vp = at.args["ship"], at.args["sheet_vp"]
    known = at.full["ships"].get(ship_key(ship))
    if known is not None and known["flag"] is None and known["kind"] != "hq" and sheet_vp:
        # a sheet scores ships by flag, and final scoring gives a flagless ship nothing:
        # "the scrapped ship is scored in the usual way" (seed 002)
        name = known["name"]
        raise CompanionError(_("{ship} flies no flag, so no player sheet scores it and scrapping it scores nothing: "
                               "type `{command}`.").format(ship=name, command=f"scrap {quoted(name)} --sheet-vp 0"))
    return {"type": "scrap", "ship": ship, "sheet_vp": sheet_vp}


def _scored(outcome) -> list:
    event = outcome.event
    who = next(p for p in outcome.status["players"] if p["name"] == event["player"])
    note = event.get("note")
    if note:
        return [Line(*kit.said(_("{name} scores {points} VP ({note}): {play} during play."), name=Name(who["name"]),
                               points=event["points"], note=note, play=who["play_vp"]))]
    return [Line(*kit.said(_("{name} scores {points} VP: {play} during play."), name=Name(who["name"]),
                           points=event["points"], play=who["play_vp"]))]


def _ask_sheet(at) -> None:
    """In the shell, the sheet values `final` was not given, naming the flags the player's
    ships fly; a player without a flagged ship needs none."""
    if at.args.get("sheet") is not None or not at.can_ask():
        return
    name = at.args["player"]
    owned = Transatlantic.owned_flags(at.full, name)
    if not owned:
        at.args["sheet"] = {}
        return

    def parse(text: str) -> dict:
        values = parse_sheet(text)
        lacking = Transatlantic.sheet_lacks(at.full, at.data, name, values)
        if lacking:
            raise CompanionError(_("{name} owns ships of the {flags} flag: type {typed} too.").format(
                name=name, flags=", ".join(lacking), typed=", ".join(f + "=VP" for f in lacking)))
        return values

    example = ",".join(f"{f}=VP" for f in owned)
    # the example names the flags; the question fits 80 columns with 5 flags and a long name
    at.args["sheet"] = at.ask_until(_("{name}'s sheet VPs as {example}: ").format(name=name, example=example), parse)


def _final_event(at) -> dict:
    a = at.args
    return {"type": "final", "player": a["player"], "cash": a["cash"], "rows": a["rows"], "next_row": a["next_row"],
            "sheet": a.get("sheet") or {}}


def quoted(name: str) -> str:
    """A ship's name as typed in a command: in quotes when it has a space."""
    return f'"{name}"' if " " in name else name


def _count(name: str, option: str, asked: str, help: str, metavar: str, label: str, high=None) -> Param:
    return Param(name, _Count(asked, high), help, option=True, metavar=metavar, label=label,
                 missing=_("Add {option}: {command}").format(option=option, command=views.FINAL_COMMAND))


PLAYER = "PLAYER"


# -- from the phones: who may make which move now -------------------------------------------------

def _acting(at, player: str) -> bool:
    """The player the record names to act (the opening buyer, then whose turn `next` counts),
    or anyone while the record names nobody (before the start player is known, or while the
    table does not count turns with `next`)."""
    turn = at.game.turn(at.full)
    return not turn or player in turn


def _not_over(at) -> bool:
    state = at.full
    end = state["end"]
    return not state["finished"] and not (end is not None and Transatlantic.turn_info(state)["turns_left"] <= 0)


def _turn_why(at, player: str) -> str:
    state = at.full
    due = Transatlantic.opening_due(state)
    if due is not None and due != player:
        return _("It is {due}'s opening purchase, not {name}'s.").format(due=due, name=player)
    turn = at.game.turn(state)
    if turn and player not in turn:
        return _("It is {turn}'s turn, not {name}'s.").format(turn=turn[0], name=player)
    if not _not_over(at):
        return _("The last turn has been played: each player enters their final scoring sheet (`final NAME ...`).")
    return _("{name} cannot do that now.").format(name=player)


def _may_own(at, player: str) -> bool:
    """A starting sailing ship from a phone: before the player has a ship (a card typed with
    `ship add`)."""
    return _not_over(at) and not at.full["owned"][player] and bool(_unmet_noted(at, ("sail",)))


def _may_reveal(at, player: str) -> bool:
    state = at.full
    return (_not_over(at) and _acting(at, player) and not state["stack_empty"] and None in state["market"]
            and bool(_unmet_noted(at, ("steam", "hq", "sail"))))


def _may_say_empty(at, player: str) -> bool:
    """"The stack is empty", on the phone of the player who would turn over the next card
    (issue 31): the end comes when the stack runs out, and no phone could say so before."""
    state = at.full
    return _not_over(at) and _acting(at, player) and not state["stack_empty"] and None in state["market"]


def _may_buy(at, player: str) -> bool:
    return _not_over(at) and _acting(at, player) and any(at.full["market"])


def _may_end_turn(at, player: str) -> bool:
    state = at.full
    started = state["start_by"] != "first named" or all(state["owned"][p] for p in state["players_order"])
    return (_not_over(at) and started and Transatlantic.opening_due(state) is None
            and Transatlantic.turn_info(state)["current"] == player)


def _may_scrap(at, player: str) -> bool:
    return _not_over(at) and any(state_kind != "hq" for state_kind in
                                 (at.full["ships"][n]["kind"] for n in Transatlantic.fleet(at.full, player)))


def _may_final(at, player: str) -> bool:
    state = at.full
    return not state["finished"] and state["end"] is not None and player not in state["finals"]


def _final_why(at, player: str) -> str:
    state = at.full
    if player in state["finals"]:
        return _("{name}'s final scoring is entered: `undo` on the laptop takes it back.").format(name=player)
    return _("The game ends only after the last steamship is bought (rulebook: \"{rule}\").").format(rule=_(END_LINE))

MOVES = [
    Move("own", [Param("player", Player(), metavar=PLAYER),
                 Param("ship", _Ship(_unmet, lambda at: _unmet_noted(at, ("sail",))),
                       N_("The ship card in front of you (typed once with `ship add`)."))], _own_event,
         help=N_("Give a player a ship without buying it.\n\nFor the sailing ship each player starts with."),
         prepare=lambda at: at.args.update(values=catalogue.ship_values(at, at.args["ship"])),
         before=lambda state: {"settled": state.get("start_by") == "oldest ship"}, done=_owned_now,
         examples=["own Ann ARIEL"], phone=N_("Your starting ship"), allowed=_may_own, verb=N_("It is mine")),
    Move("reveal", [Param("ships", _Ship(_unmet, lambda at: _unmet_noted(at, ("steam", "hq", "sail")), most=1),
                          N_("The card turned over from the stack"), many=True, ask=False,
                          missing=N_("Name the cards turned over, e.g. reveal NUBIAN HAMMONIA"))],
         lambda at: {"type": "reveal", "ships": at.args.get("values") or list(at.args["ships"])},
         help=N_("Put cards turned over from the stack on the market.\n\nThey fill the empty positions from the left. "
                 "Revealing a headquarters means no steamship is left in the stack."),
         actor=None, prepare=lambda at: at.args.update(values=[catalogue.ship_values(at, n) for n in at.args["ships"]]),
         before=_ended, done=_revealed, examples=["reveal NUBIAN HAMMONIA"],
         phone=N_("Turn over a card for the market"), allowed=_may_reveal, why_not=_turn_why, verb=N_("Reveal it")),
    Move("stack-empty", [], lambda at: {"type": "stack-empty"},
         help=N_("Record that the stack ran out.\n\nEmpty market positions stay empty from now on."), actor=None,
         before=_ended, done=lambda outcome: [Line(_("The stack is empty: no more cards come to the market.")),
                                              *views.end_news(outcome.state, outcome.before["ended"])],
         phone=N_("No card is left in the stack"), allowed=_may_say_empty, why_not=_turn_why,
         verb=N_("The stack is empty")),
    Move("buy", [Param("player", Player(), metavar=PLAYER),
                 Param("ships", _Ship(_on_market, _priced, most=_buy_most), N_("The ships you buy"), many=True,
                       ask=False,
                       missing=N_("Name the ship or ships bought, e.g. buy Ann NUBIAN HAMMONIA"))],
         lambda at: {"type": "buy", "player": at.args["player"], "ships": list(at.args["ships"])},
         help=N_("Buy 1 or 2 cards from the market (at most one headquarters).\n\nEach costs its basic price plus its "
                 "position's surcharge. Then the leftmost ship goes to the docks (not when only a headquarters was "
                 "bought) and the others move left."),
         before=_before_purchase, done=_bought, examples=["buy Ann NUBIAN HAMMONIA"],
         phone=N_("Buy from the market"), allowed=_may_buy, why_not=_turn_why, verb=N_("Buy")),
    Move("next", [], lambda at: {"type": "next"},
         help=N_("Mark the end of a turn (optional).\n\nWith it, `status` says whose turn it is and, once the end is "
                 "triggered, the turns left."),
         actor=None, done=lambda outcome: views.turn_news(outcome.state),
         phone=N_("End your turn"), allowed=_may_end_turn, why_not=_turn_why, verb=N_("End my turn")),
    Move("scrap", [Param("ship", _Ship(_owned, _own_fleet), N_("Your ship pushed out with nowhere to go")),
                   Param("sheet_vp", Number(), N_("The VPs per ship of its flag on the owner's player sheet."),
                         option=True, flags=("--sheet-vp",), metavar="N", label=N_("the sheet VPs"))],
         _scrap_event,
         help=N_("Scrap a ship: it scores at once and leaves the game.\n\nFor a ship pushed out with nowhere to go: its "
                 "owner scores N plus the ships of its flag in the docks; it does not go to the docks."),
         actor=None, done=lambda outcome: views.scrap_news(outcome.state, ship_key(outcome.event["ship"])),
         examples=["scrap NUBIAN --sheet-vp 3"], phone=N_("Scrap one of your ships"), allowed=_may_scrap,
         verb=N_("Scrap it"), more=True),
    Move("vp", [Param("player", Player(), metavar=PLAYER), Param("points", _Points(), label=N_("points")),
                Param("note", _Note(), N_("What scored them (trade houses, FLEET, ...)."), option=True, required=False)],
         lambda at: {"type": "vp", "player": at.args["player"], "points": at.args["points"],
                     "note": at.args.get("note") or ""},
         help=N_("Record victory points scored during play.\n\nTrade houses when transporting, FLEET, and so on."),
         done=_scored, examples=['vp Ann 3 --note "trade houses"'], phone=N_("Victory points you scored"),
         allowed=lambda at, player: _not_over(at), verb=N_("Add them"), more=True),
    Move("final", [Param("player", Player(), metavar=PLAYER),
                   _count("cash", "--cash N", N_("Cash in £"), N_("Cash in £ (1 VP per full £100)."), "N", N_("cash")),
                   Param("sheet", _Sheet(), N_("VPs per ship of each flag, read off the player sheet."), option=True,
                         required=False),
                   _count("rows", "--rows R", N_("Complete rows of acquired markers"),
                          N_("Complete rows of acquired markers (5, 10, 15, 20 VP)."), "R", N_("rows"),
                          high=lambda at: Transatlantic.marker_rows(at.data)),
                   _count("next_row", "--next-row M", N_("Markers in the uppermost incomplete row"),
                          N_("Markers in the uppermost incomplete row."), "M", N_("next row"))],
         _final_event,
         help=N_("Enter a player's end-of-game scoring.\n\nCash, the VPs per flag off the sheet, complete rows and "
                 "markers in the next row. When every player has an entry, the game is over."),
         prepare=_ask_sheet, done=lambda outcome: views.final_news(outcome.at, outcome.event["player"]),
         examples=["final Ann --cash 250 --sheet white=3,blue=7 --rows 2 --next-row 2"],
         phone=N_("Your final scoring sheet"), allowed=_may_final, why_not=_final_why, verb=N_("Enter my scoring")),
]

SCREENS = [
    Screen("market", views.market_screen, json=views.market_rows,
           help=N_("Show the market with each position's price.\n\nPositions 1 to 6 with ship, kind, flag, year, basic "
                   "price, surcharge and total.")),
]


# -- the ship catalogue: typed once for every game -----------------------------------------------

@click.group("ship", help=N_("The ship catalogue, typed once for every game.\n\n`ship add` a card's values the first "
                              "time it turns up; `ship show NAME` reads them back."))
def ship_group() -> None:
    """The ship catalogue (its help is the message above, translated where it is shown)."""


@ship_group.command("add", help=N_("Teach the companion a ship card: remembered for every later game."))
@click.argument("name")
@click.option("--year", type=int, required=True, help=N_("Year of construction."))
@click.option("--flag", required=True, metavar="COLOUR", help=N_("The flag colour (`none` for a ship without one)."))
@click.option("--price", type=int, metavar="P", help=N_("Basic price in the red field (needed for steamships and headquarters)."))
@click.option("--kind", type=click.Choice(KINDS), default="steam", show_default=True, help=N_("Steamship, sailing ship or headquarters."))
@click.option("--income", type=int, metavar="N", help=N_("Income in £ (green field)."))
@click.option("--tonnage", type=int, metavar="N", help=N_("Tonnage in t."))
@click.option("--speed", type=float, metavar="N", help=N_("Speed in knots."))
@click.option("--passengers", type=int, metavar="N", help=N_("Passenger capacity."))
@kit.pass_app
def ship_add(app, name, year, flag, price, kind, income, tonnage, speed, passengers) -> None:
    """Teach the companion a ship card: remembered for every later game."""
    if price is None and kind != "sail":
        raise click.UsageError(_("A headquarters needs --price P (its basic price).") if kind == "hq" else
                               _("A steamship needs --price P (its basic price)."))
    if speed is not None and speed.is_integer():
        speed = int(speed)
    ship = {"name": name, "year": year, "flag": catalogue.none_flag(flag), "price": price, "kind": kind,
            "income": income, "tonnage": tonnage, "speed": speed, "passengers": passengers}
    replaced = catalogue.store_ship(app.store, ship)  # tidies the name after refusing control characters
    kit.show(views.card_stored(catalogue.ships(app.store)[ship_key(name)], replaced))


@ship_group.command("show", help=N_("Show one ship of the catalogue (the name in any case)."))
@click.argument("name")
@kit.json_option
@kit.pass_app
def ship_show(app, name: str, as_json: bool) -> None:
    """Show one ship of the catalogue (the name in any case)."""
    ship = catalogue.find(app.store, name)
    if as_json:
        kit.echo_json(ship)
        return
    kit.show(views.ship_card(ship, catalogue.typed_on(app.store, ship["name"])))


@click.command(help=N_("List the ship catalogue: every card the players have typed."))
@kit.json_option
@kit.pass_app
def ships(app, as_json: bool) -> None:
    """List the ship catalogue: every card the players have typed."""
    known = catalogue.ships(app.store)
    if as_json:
        kit.echo_json(known, keyed=True)
        return
    kit.show(views.ships_listing(known))


# -- a game ----------------------------------------------------------------------------------------

@kit.new_command(Transatlantic)
def new() -> dict:
    """2 to 4 players. The owner of the oldest ship starts: once every player owns their
    starting sailing ship (`own`), the companion names the start player (a --start naming
    someone else is refused then); the opening purchases go anti-clockwise from the start
    player's right-hand neighbour, then turns go clockwise from the start player."""
    return {"turn_order": RULEBOOK_ORDER}


def ship_cards(at) -> None:
    """`data setup transatlantic`, after the surcharges: the ship cards typed one after another
    as they come out of the stack (or off the box's pile), each remembered for every later
    game; Enter when there is no card left to type. A card typed already is said, not asked."""
    store = at.host.store
    known = catalogue.ships(store)
    at.tell([Line(_("Ship cards ({count} in your catalogue): type each card's name as it comes out, then its values; "
                    "Enter alone when there is no card left to type.").format(count=len(known)))])
    count = 0
    while True:
        name = kit.ask_card_name(at, count + 1, ship_key)
        if not name:
            break
        if name in catalogue.ships(store):
            at.tell([Line(*kit.said(_("{name} is in your catalogue already ({card}): `ship add` with its values "
                                      "replaces it."), name=Name(name),
                                    card=views.ship_parts(catalogue.find(store, name))))])
            continue
        catalogue.ask_card(at, name)
        count += 1
    at.tell([Line(ngettext("{count} ship card added; {total} in your catalogue (`ships` lists them).",
                           "{count} ship cards added; {total} in your catalogue (`ships` lists them).", count).format(
        count=count, total=len(catalogue.ships(store))))])


SETUP = ship_cards
NEW = {"transatlantic": new}
COMMANDS = {"ship": ship_group, "ships": ships}
# TEST values throughout (nobody here has the printed cards). The cards and the surcharges are
# typed after `new`, as a table meeting them mid-game would: the moves freeze them into their
# events. Then a short game to its end, every move once.
PLAYTHROUGH = {"transatlantic": [
    "new transatlantic --players Ann,Bob",
    "ship add ARIEL --year 1865 --flag none --kind sail",
    "ship add SIRIUS --year 1860 --flag none --kind sail",
    "ship add NUBIAN --year 1875 --flag white --price 30",
    "ship add HAMMONIA --year 1882 --flag blue --price 70",
    "ship add DEVONIA --year 1877 --flag red --price 50",
    "ship add 'HQ RED' --year 1890 --flag red --price 60 --kind hq",
    "data set transatlantic market.surcharges '[0, 10, 20, 30, 40, 50]'",
    "own Ann ARIEL",
    "own bob SIRIUS",
    "reveal NUBIAN HAMMONIA DEVONIA",
    "market",
    "buy Ann NUBIAN",
    "buy Bob DEVONIA",
    "next",
    "vp Ann 2 --note 'trade houses'",
    "scrap ARIEL --sheet-vp 0",
    "reveal 'HQ RED'",
    "status",
    "board",
    "final Bob --cash 100 --sheet red=2 --rows 1 --next-row 1",
    "final Ann --cash 50 --sheet white=3 --rows 0 --next-row 2",
    "status",
]}
