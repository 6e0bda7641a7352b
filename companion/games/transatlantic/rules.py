"""Transatlantic: the ship market in order, prices, the docks, the end trigger, final scoring.

The companion does not play the board (sea regions, coal, action cards); it keeps what players
argue about afterwards: which ship sat in which market position and what it cost, which ships
went to the docks, who owns what, when the end was triggered and how many turns are left, and
the final score line by line.

Nobody here has the printed ship cards or the board's surcharges, so those come from the
players (see ``data/transatlantic.json``). A ship's values are frozen into the state the first
time the session meets it (from the session's frozen catalogue, or from the values a move put
into the event: ``companion.games.transatlantic.catalogue``), so a later change of the
catalogue never changes a recorded game.
"""

from __future__ import annotations

from typing import Any

from companion.contract.text import has_unsafe_chars, safe_text
from companion.contract.errors import CompanionError, RuleError
from companion.contract.language import N_, _, ngettext
from companion.contract.api import Event, Game, Setup, State, best, player_name

GAME = "transatlantic"
POSITIONS = 6
KINDS = ("steam", "sail", "hq")
SHIP_EXTRAS = ("income", "tonnage", "speed", "passengers")


def ship_key(name: str) -> str:
    """The catalogue key of a ship: its name in upper case, spaces tidied."""
    return " ".join(str(name).split()).upper()


def add_command(name: str) -> str:
    """The exact command that teaches the companion a ship it does not know yet."""
    quoted = f'"{name}"' if " " in name else name
    return f"companion ship add {quoted} --year YEAR --flag COLOUR --price PRICE"


def unknown_ship(name: str) -> str:
    """The refusal for a ship nobody has typed yet, with the command that teaches it."""
    return _("The ship {name} is not in the catalogue yet: type `{command}` (with --kind hq for a headquarters, "
             "--kind sail for a sailing ship).").format(name=name, command=add_command(name))


def _count(value: Any, what: str) -> int:
    """A whole number that is zero or more, or a refusal naming it."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(_("{what} must be a whole number, not {typed}.").format(what=what, typed=repr(value)))
    if value < 0:
        raise RuleError(_("{what} cannot be negative ({value}): type 0 or more.").format(what=what, value=value))
    return value


def check_ship(values: Any, flags: list[str] | None) -> dict:
    """A ship's catalogue entry, tidied, or a refusal saying which value is wrong."""
    if not isinstance(values, dict) or not str(values.get("name") or "").strip():
        raise RuleError(_("A ship needs at least a name, year, flag, price and kind, not {typed}.").format(
            typed=repr(values)))
    raw = str(values["name"])
    if has_unsafe_chars(raw) or not raw.replace(" ", "").isprintable():
        raise RuleError(_("The ship's name '{name}' holds control characters (such as ESC or a right-to-left "
                          "override): type it with letters, digits and spaces.").format(name=safe_text(raw)))
    name = ship_key(raw)
    year = values.get("year")
    if year is not None:
        _count(year, _("The year of {name}").format(name=name))
    price = values.get("price")
    if price is not None:
        _count(price, _("The basic price of {name}").format(name=name))
    kind = values.get("kind") or "steam"
    if kind not in KINDS:
        raise RuleError(_("{name}'s kind must be steam, sail or hq, not {typed}.").format(name=name, typed=repr(kind)))
    flag = values.get("flag")
    if flag is not None:
        flag = check_flag(flag, flags)
    ship = {"name": name, "year": year, "flag": flag, "price": price, "kind": kind}
    for extra in SHIP_EXTRAS:
        value = values.get(extra)
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0):
            raise RuleError(_("{name}'s {value_name} must be a number of 0 or more, not {typed}.").format(
                name=name, value_name=extra, typed=repr(value)))
        ship[extra] = value
    return ship


def check_flag(flag: Any, flags: list[str] | None) -> str:
    """A flag colour in lower case; one the game does not have is refused, listing the flags."""
    text = str(flag).strip().lower()
    if not text:
        raise RuleError(_("A flag colour is empty: name it, e.g. blue."))
    if flags and text not in flags:
        raise RuleError(_("There is no {typed} flag: the flags are {flags} (a flag missing there is added with "
                          "`{command}`).").format(
            typed=repr(text), flags=", ".join(flags),
            command="""companion data set transatlantic flags '["white", "blue", "red", "black", "green", "COLOUR"]'"""))
    return text


# The rulebook lines the turn order follows (seed 002, "Start"), quoted in refusals and tests.
# (marked for the catalogue: a German table reads them translated, in quotes all the same)
OLDEST_STARTS = N_("The owner of the oldest ship becomes the starting player")
OPENING_LINE = N_("Before starting to play, each player purchases a steamship from the ship market in "
                  "anti-clockwise order")
END_LINE = N_("The game ends after the last steamship is purchased from the ship market")
# Seed 001, SHIPYARD (a card played on one's own turn): when a ship may be bought after the opening.
SHIPYARD_LINE = "The player may purchase 1 or 2 ships from the ship market."
TURN_LINE = "A player's turn consists of playing one card and executing the related action/s."
# Sessions started from this version on follow the rulebook's turn order (`new` sets it);
# older sessions lack the option and keep the lenient order their journals were recorded with.
RULEBOOK_ORDER = "rulebook"


def opening_order(seats: list[str]) -> list[str]:
    """Who buys the opening steamships, in order: anti-clockwise from the start player's
    right-hand neighbour, so the start player (seats[0]) buys last.

    Seats are clockwise from the start player; play passes to the left, so the right-hand
    neighbour is the last seat. Seed 002 says "in anti-clockwise order" without naming the
    first buyer; the companion starts on the right so the start player, who plays first,
    buys last (issue 15)."""
    return [seats[0]] if len(seats) == 1 else list(reversed(seats[1:])) + [seats[0]]


def row_points(rows: int, next_row: int, rows_vp: list[int]) -> tuple[int, int]:
    """VPs of complete marker rows and of the markers in the uppermost incomplete row."""
    return sum(rows_vp[:rows]), next_row * (rows + 1)


class Transatlantic(Game):
    moves = "companion.games.transatlantic.moves"
    views = "companion.games.transatlantic.views"
    listing = 30
    id = GAME
    title = "Transatlantic"
    tie_break = N_("the youngest ship")  # `played`: a tie for first needs --winner
    description = N_("Buy steamships from a priced market, fill the docks, score flags; the end and its last round.")
    min_players = 2
    max_players = 4
    start_rule = N_("the owner of the oldest ship starts, once every player owns a sailing ship")
    records_start = True  # `new --start` is kept in the options: the oldest ship may say otherwise

    # -- set-up ----------------------------------------------------------------------------
    def initial(self, setup: Setup, data: dict) -> State:
        options = setup.options or {}
        given = options.get("start")
        return {
            "rulebook_order": options.get("turn_order") == RULEBOOK_ORDER,
            # who starts: --start (given), else the owner of the oldest ship once every player
            # owns a starting sailing ship (oldest ship), else the first named (first named)
            "start_by": "--start" if given else "first named",
            "opening": [],  # who has made their opening purchase, in order
            # purchases were recorded before anyone knew who starts: the opening is not checked
            "opening_skipped": False,
            "players_order": list(setup.players),
            "market": [None] * POSITIONS,
            "ships": {},  # name -> frozen values of every ship the session has met
            "owned": {p: [] for p in setup.players},  # in the order acquired, scrapped ones kept
            "docks": [],
            "scrapped": {},  # name -> {"owner", "sheet_vp", "docks", "points"}
            "no_steam_in_stack": False,
            "stack_empty": False,
            "turns": 0,  # turns ended with `next`
            "last_buy": None,
            "end": None,
            "vp": {p: [] for p in setup.players},  # points scored during play
            "finals": {},
            "finished": False,
            "winners": [],
        }

    # -- reading the state (the moves and the views use these too) -------------------------
    @staticmethod
    def location(s: State, name: str) -> str | None:
        """Where a ship of this session is: market, docks, scrapped, a player's name, or None."""
        if name in s["market"]:
            return "market"
        if name in s["docks"]:
            return "docks"
        if name in s["scrapped"]:
            return "scrapped"
        for p, ships in s["owned"].items():
            if name in ships:
                return p
        return None

    @staticmethod
    def docks_count(s: State) -> dict[str, int]:
        """Ships in the docks per flag: the extra VPs every ship of that flag scores."""
        out: dict[str, int] = {}
        for name in s["docks"]:
            flag = s["ships"][name]["flag"]
            if flag:
                out[flag] = out.get(flag, 0) + 1
        return out

    @staticmethod
    def fleet(s: State, player: str) -> list[str]:
        """The ships and headquarters a player owns and has not scrapped."""
        return [n for n in s["owned"][player] if n not in s["scrapped"]]

    @staticmethod
    def flags(s: State, data: dict) -> list[str] | None:
        """The flags a sheet may name: the game's, and any flag a ship of this session flies."""
        if not data.get("flags"):
            return None
        extra = {ship["flag"] for ship in s["ships"].values() if ship["flag"]} - set(data["flags"])
        return list(data["flags"]) + sorted(extra)

    def price(self, s: State, data: dict, position: int) -> dict:
        """Basic price, surcharge and total of the card in market position ``position`` (0-based)."""
        name = s["market"][position]
        surcharges = self.surcharges(data)
        basic = s["ships"][name]["price"]
        if basic is None:
            raise RuleError(_("The basic price of {name} is not known: type `{command}` with its price.").format(
                name=name, command=add_command(name)))
        return {"name": name, "position": position + 1, "basic": basic, "surcharge": surcharges[position],
                "total": basic + surcharges[position]}

    def surcharges(self, data: dict) -> list[int]:
        value = self.need(data, GAME, "market.surcharges",
                          _("the £ surcharge printed under each of the 6 market positions, leftmost first"))
        if not (isinstance(value, list) and len(value) == POSITIONS
                and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)):
            raise RuleError(_("market.surcharges must be 6 whole numbers, position 1 (leftmost) first: type `{command}` "
                              "again.").format(
                command="companion data set transatlantic market.surcharges '[S1, S2, S3, S4, S5, S6]'"))
        return value

    def market_rows(self, s: State, data: dict) -> list[dict]:
        """Positions 1 to 6 for `market`: ship, kind, flag, year, basic price, surcharge, total."""
        try:
            surcharges: list[int] | None = self.surcharges(data)
        except CompanionError:  # unknown (MissingValue) or mistyped: shown as unknown
            surcharges = None
        rows = []
        for i, name in enumerate(s["market"]):
            row: dict[str, Any] = {"position": i + 1, "ship": name,
                                   "surcharge": surcharges[i] if surcharges else None}
            if name:
                ship = s["ships"][name]
                row.update(kind=ship["kind"], flag=ship["flag"], year=ship["year"], price=ship["price"])
                row["total"] = (ship["price"] + row["surcharge"]
                                if ship["price"] is not None and row["surcharge"] is not None else None)
            rows.append(row)
        return rows

    @staticmethod
    def turn_info(s: State) -> dict:
        """Round, whose turn it is and, once the end is triggered, the turns left.

        Before the trigger the turn is counted from `next`. The trigger is placed on the buyer's
        own turn (whether or not `next` was used until then): the current round is finished and
        one more full round is played, so the very last turn is always the last seat's.
        """
        seats = s["players_order"]
        n = len(seats)
        end = s["end"]
        if end is None:
            return {"round": s["turns"] // n + 1, "current": seats[s["turns"] % n], "turns_left": None}
        since = s["turns"] - end["turns_at"]
        left = end["turns_total"] - since
        index = end["seat"] + min(since, end["turns_total"] - 1)  # the last turn's round at most
        return {
            "round": end["round"] + index // n,
            "current": seats[index % n] if left > 0 else None,
            "turns_left": left,
        }

    def scores(self, s: State, player: str) -> dict:
        """Every part of a player's score, so the table can check it line by line."""
        play = sum(item["points"] for item in s["vp"][player])
        final = s["finals"].get(player)
        if final is None:
            return {"play": play, "total": play, "final": None}
        docks = self.docks_count(s)
        ships = []
        for name in self.fleet(s, player):
            flag = s["ships"][name]["flag"]
            sheet = final["sheet"].get(flag, 0) if flag else 0
            extra = docks.get(flag, 0) if flag else 0
            ships.append({"ship": name, "flag": flag, "sheet": sheet, "docks": extra, "points": sheet + extra})
        cash = final["cash"] // 100
        rows, next_row = row_points(final["rows"], final["next_row"], final["rows_vp"])
        total = sum(x["points"] for x in ships) + cash + rows + next_row + play
        return {
            "play": play,
            "total": total,
            "final": {"ships": ships, "cash": cash, "rows": rows, "next_row": next_row,
                      "inputs": {k: final[k] for k in ("cash", "sheet", "rows", "next_row")}},
        }

    # -- events ----------------------------------------------------------------------------
    def _meet(self, s: State, item: Any, data: dict) -> dict:
        """A ship's frozen values: from the event if it carries them, else the session's catalogue.

        Values carried by the event were checked against the flags known when they were typed
        (a flag the players added after `new` included), so only their shape is checked here.
        """
        flags = data.get("flags")
        if isinstance(item, dict):
            ship = check_ship(item, None)
        else:
            name = ship_key(item or "")
            if not name:
                raise RuleError(_("Name the ship, e.g. NUBIAN."))
            known = (data.get("ships") or {}).get(name)
            if known is None:
                raise RuleError(unknown_ship(name))
            ship = check_ship({**known, "name": name}, flags)
        where = self.location(s, ship["name"])
        if where is not None:
            place = {"market": _("on the market"), "docks": _("in the docks"), "scrapped": _("scrapped")}.get(
                where) or _("owned by {name}").format(name=where)
            raise RuleError(_("{ship} is already in play ({place}): each card exists once.").format(
                ship=ship["name"], place=place))
        return ship

    def _not_after_last_turn(self, s: State) -> None:
        end = s["end"]
        if end is not None and self.turn_info(s)["turns_left"] <= 0:
            raise RuleError(_("The last turn has been played: enter each player's score with `{command}`.").format(
                command="final NAME --cash N --sheet FLAG=VP,... --rows R --next-row M"))

    def on_own(self, s: State, event: Event, data: dict) -> None:
        """A ship a player has without buying it (the starting sailing ship)."""
        self._not_after_last_turn(s)
        player = player_name(s["players_order"], event.get("player", ""))
        ship = self._meet(s, event.get("ship"), data)
        s["ships"][ship["name"]] = ship
        s["owned"][player].append(ship["name"])
        if s["rulebook_order"]:
            self._settle_start(s)

    def _settle_start(self, s: State) -> None:
        """Once every player owns a sailing ship, the owner of the oldest one starts (rulebook).

        The seats are turned to begin with that player. A --start naming someone else, or an
        opening purchase already made in another order, is refused with the reason."""
        if s["start_by"] == "oldest ship":
            return
        seats = s["players_order"]
        sails = {p: [n for n in s["owned"][p] if s["ships"][n]["kind"] == "sail"] for p in seats}
        if not all(sails.values()):
            return
        ships = [(s["ships"][n]["year"], n, p) for p, names in sails.items() for n in names]
        if any(year is None for year, _ship, _owner in ships):
            return
        ships.sort()
        if len(ships) > 1 and ships[0][0] == ships[1][0] and ships[0][2] != ships[1][2]:
            return  # two players' ships from the same year: the table decides, --start stands
        year, oldest, owner = ships[0]
        if owner != seats[0]:
            why = {"owner": owner, "ship": oldest, "year": year, "rule": _(OLDEST_STARTS), "first": seats[0]}
            if s["start_by"] == "--start":
                raise RuleError(_("{owner} owns the oldest ship ({ship}, {year}), and the rulebook says: \"{rule}\"; this "
                                  "session was started with --start {first}: check the years, or start the session "
                                  "again with --start {owner}.").format(**why))
            if s["last_buy"] is not None or s["turns"]:
                raise RuleError(_("{owner} owns the oldest ship ({ship}, {year}), and the rulebook says: \"{rule}\"; "
                                  "purchases or turns were already recorded with {first} first: `undo` them, record "
                                  "every starting sailing ship, then play on.").format(**why))
            i = seats.index(owner)
            s["players_order"] = seats[i:] + seats[:i]
        s["start_by"] = "oldest ship"

    @staticmethod
    def opening_due(s: State) -> str | None:
        """Whose opening purchase is due: None once everyone has made it, while nobody knows who
        starts (no --start and not every starting sailing ship recorded: the purchases are
        taken as recorded, as before), and for sessions older than the rulebook order."""
        if not s.get("rulebook_order") or s["start_by"] == "first named" or s["opening_skipped"]:
            return None
        order = opening_order(s["players_order"])
        done = len(s["opening"])
        return order[done] if done < len(order) else None

    @classmethod
    def recorded_turn(cls, s: State) -> str | None:
        """Whose turn the turns recorded with `next` say it is after the opening; None during
        the opening, before the table has typed `next` once, and after the very last turn."""
        if cls.opening_due(s) is not None or not s["turns"]:
            return None
        return cls.turn_info(s)["current"]

    @classmethod
    def out_of_turn(cls, s: State, player: str) -> str | None:
        """Whose turn the record says it is, when a purchase by ``player`` after the opening
        falls on someone else's turn; else None.

        A ship is bought only with SHIPYARD, played on one's own turn (rulebook: SHIPYARD_LINE;
        seed 002: TURN_LINE), so such a purchase means a `next` was not typed or the wrong name
        was. `next` is optional, so the purchase is taken as typed (it stays the buyer's, and an
        end it triggers counts from the buyer's seat); the command only says so. Until the
        table has typed `next` once, the record counts no turns and nothing is said."""
        current = cls.recorded_turn(s)
        return current if current is not None and current != player else None

    def on_reveal(self, s: State, event: Event, data: dict) -> None:
        """Cards turned over from the stack fill the empty market positions from the left."""
        self._not_after_last_turn(s)
        items = event.get("ships") or []
        if not isinstance(items, list) or not items:
            raise RuleError(_("Name the cards turned over, e.g. reveal NUBIAN HAMMONIA."))
        if s["stack_empty"]:
            raise RuleError(_("The stack is empty (recorded with `stack-empty`): no card can be revealed; `undo` if "
                              "that was a mistake."))
        free = [i for i, name in enumerate(s["market"]) if name is None]
        if len(items) > len(free):
            raise RuleError(ngettext("The market has {free} empty position, not {count}: reveal at most {free} card.",
                                     "The market has {free} empty positions, not {count}: reveal at most {free} cards.",
                                     len(free)).format(free=len(free), count=len(items)))
        for item, position in zip(items, free):
            ship = self._meet(s, item, data)
            if ship["kind"] == "steam" and s["no_steam_in_stack"]:
                raise RuleError(_("{ship} is a steamship, but a headquarters was revealed already, so no steamship is "
                                  "left in the stack: check the card, or `undo` the earlier reveal.").format(
                    ship=ship["name"]))
            if ship["kind"] == "hq":
                s["no_steam_in_stack"] = True
            s["ships"][ship["name"]] = ship
            s["market"][position] = ship["name"]
        self._late_trigger(s)

    def on_stack_empty(self, s: State, event: Event, data: dict) -> None:
        """The stack ran out: the empty market positions stay empty from now on."""
        self._not_after_last_turn(s)
        if s["stack_empty"]:
            raise RuleError(_("The stack is already recorded as empty."))
        s["stack_empty"] = True
        s["no_steam_in_stack"] = True
        self._late_trigger(s)

    def on_buy(self, s: State, event: Event, data: dict) -> None:
        """One or two cards from the market, at most one headquarters; then the market is restored."""
        self._not_after_last_turn(s)
        player = player_name(s["players_order"], event.get("player", ""))
        wanted = event.get("ships") or []
        if not isinstance(wanted, list) or not wanted:
            raise RuleError(_("Name the ship or ships bought, e.g. buy Ann NUBIAN HAMMONIA."))
        if len(wanted) > 2:
            raise RuleError(_("A purchase takes 1 or 2 cards from the market, not {count}.").format(count=len(wanted)))
        names = [ship_key(w) for w in wanted]
        if len(set(names)) != len(names):
            raise RuleError(_("{ship} is named twice: each card can be bought once.").format(ship=names[0]))
        due = self.opening_due(s)
        opening = due is not None
        if opening:
            order = opening_order(s["players_order"])
            if player != due:
                raise RuleError(_("It is {due}'s opening purchase: the opening steamships are bought anti-clockwise "
                                  "from the start player's right-hand neighbour ({order}); rulebook: \"{rule}\".").format(
                    due=due, order=", ".join(order), rule=_(OPENING_LINE)))
            if len(names) != 1 or (names[0] in s["ships"] and s["ships"][names[0]]["kind"] != "steam"):
                raise RuleError(_("The opening purchase is one steamship (rulebook: \"{rule}\"): type `{command}` with "
                                  "one steamship.").format(rule=_("each player purchases a steamship"),
                                                           command=f"buy {player} SHIP"))
        positions = []
        for name in names:
            if name not in s["market"]:
                on_market = ", ".join(n for n in s["market"] if n) or _("nothing")
                raise RuleError(_("{ship} is not on the market: the market holds {ships}.").format(
                    ship=name, ships=on_market))
            positions.append(s["market"].index(name))
        kinds = [s["ships"][n]["kind"] for n in names]
        if kinds.count("hq") > 1:
            raise RuleError(_("A purchase takes at most one headquarters: buy the other one on a later turn."))
        prices = [self.price(s, data, i) for i in positions]
        for name in names:
            s["market"][s["market"].index(name)] = None
            s["owned"][player].append(name)
        docked = None
        if kinds != ["hq"]:
            for i, name in enumerate(s["market"]):
                if name is not None and s["ships"][name]["kind"] != "hq":
                    docked = name
                    s["market"][i] = None
                    s["docks"].append(name)
                    break
        rest = [n for n in s["market"] if n is not None]
        s["market"] = rest + [None] * (POSITIONS - len(rest))
        s["last_buy"] = {"player": player, "ships": prices, "total": sum(p["total"] for p in prices),
                         "docked": docked, "turns_at": s["turns"], "opening": opening}
        if opening:
            s["opening"].append(player)
        elif s.get("rulebook_order") and s["start_by"] == "first named":
            s["opening_skipped"] = True
        self._trigger(s, player, s["turns"])

    def _steam_on_market(self, s: State) -> bool:
        return any(n is not None and s["ships"][n]["kind"] == "steam" for n in s["market"])

    def _trigger(self, s: State, player: str, turns_at: int) -> None:
        """The purchase that takes the last steamship off the market, none being left in the stack."""
        if s["end"] is not None or not s["no_steam_in_stack"] or self._steam_on_market(s):
            return
        seats = s["players_order"]
        n = len(seats)
        seat = seats.index(player)
        s["end"] = {
            "by": player,
            "seat": seat,
            "round": turns_at // n + 1,
            "turns_at": turns_at,  # turns ended (`next`) when the trigger purchase was made
            # the trigger turn itself, the rest of this round, and one more full round
            "turns_total": (n - seat) + n,
            "last": seats[-1],
            # the last steamship left the market for the docks in this purchase; the steamship
            # bought with it was the last one purchased, so seed 002's END_LINE applies as written
            "docked": self._docked_steam(s),
        }

    @staticmethod
    def _docked_steam(s: State) -> bool:
        last = s["last_buy"]
        return bool(last and last["docked"] and s["ships"][last["docked"]]["kind"] == "steam")

    def _late_trigger(self, s: State) -> None:
        """The stack turns out to hold no steamship after the market's last one was bought:
        the end belongs to that purchase."""
        last = s["last_buy"]
        if last is not None:
            self._trigger(s, last["player"], last["turns_at"])

    def on_next(self, s: State, event: Event, data: dict) -> None:
        """The end of a turn (optional): lets `status` count the turns left once the end is near."""
        self._not_after_last_turn(s)
        due = self.opening_due(s)
        if due is not None:
            raise RuleError(_("The opening purchases come before the first turn: {name}'s is due (`{command}`); "
                              "`next` counts turns from then on.").format(name=due, command=f"buy {due} SHIP"))
        s["turns"] += 1

    def on_scrap(self, s: State, event: Event, data: dict) -> None:
        """A ship pushed out and not redeployable scores at once and leaves the game."""
        self._not_after_last_turn(s)
        name = ship_key(event.get("ship") or "")
        where = self.location(s, name)
        if where is None or where not in s["owned"]:
            place = {"market": _("on the market"), "docks": _("in the docks"),
                     "scrapped": _("scrapped already")}.get(where or "") or _("not in this game")
            raise RuleError(_("{ship} is {place}: only a ship a player owns can be scrapped.").format(
                ship=name or _("That ship"), place=place))
        ship = s["ships"][name]
        if ship["kind"] == "hq":
            raise RuleError(_("{ship} is a headquarters: headquarters are never deployed, so never scrapped.").format(
                ship=name))
        sheet_vp = _count(event.get("sheet_vp"), _("The sheet VPs (--sheet-vp)"))
        docks = self.docks_count(s).get(ship["flag"], 0) if ship["flag"] else 0
        points = sheet_vp + docks
        s["scrapped"][name] = {"owner": where, "sheet_vp": sheet_vp, "docks": docks, "points": points}
        s["vp"][where].append({"points": points, "note": f"scrapped {name}"})

    def on_vp(self, s: State, event: Event, data: dict) -> None:
        """Victory points scored during play (trade houses, FLEET, ...)."""
        player = player_name(s["players_order"], event.get("player", ""))
        points = _count(event.get("points"), _("The victory points"))
        note = str(event.get("note") or "").strip()
        s["vp"][player].append({"points": points, "note": note})

    def on_final(self, s: State, event: Event, data: dict) -> None:
        """A player's end-of-game inputs; when every player has one, the game is over."""
        player = player_name(s["players_order"], event.get("player", ""))
        if s.get("rulebook_order") and s["end"] is None:
            raise RuleError(_("The game ends only after the last steamship is bought (rulebook: \"{rule}\"), and it "
                              "has not been: to stop a game early, type `abandon`.").format(rule=_(END_LINE)))
        cash = _count(event.get("cash"), _("Cash (--cash)"))
        rows_vp = list(self.need(data, GAME, "rows_vp", _("VPs for the 1st to 4th complete row"), "[5, 10, 15, 20]"))
        rows = _count(event.get("rows"), _("Complete rows (--rows)"))
        if rows > len(rows_vp):
            raise RuleError(_("A player sheet has {count} rows of markers, so --rows is 0 to {count}.").format(
                count=len(rows_vp)))
        next_row = _count(event.get("next_row"), _("Markers in the uppermost incomplete row (--next-row)"))
        if rows == len(rows_vp) and next_row:
            raise RuleError(_("With every row complete there is no incomplete row: type --next-row 0."))
        given = event.get("sheet")
        if not isinstance(given, dict):
            raise RuleError(_("Give the VPs per ship of each flag off the sheet, e.g. --sheet blue=7,black=3."))
        sheet: dict[str, int] = {}
        for flag, vp in given.items():
            key = check_flag(flag, self.flags(s, data))
            if key in sheet:
                raise RuleError(_("The {flag} flag is given twice: give each flag once.").format(flag=key))
            sheet[key] = _count(vp, _("The sheet VPs of the {flag} flag").format(flag=key))
        missing = [f for f in self.owned_flags(s, player) if f not in sheet]
        if missing:
            raise RuleError(ngettext("{name} owns ships of the {flags} flag: add {typed} to --sheet.",
                                     "{name} owns ships of the {flags} flags: add {typed} to --sheet.", len(missing)).format(
                name=player, flags=", ".join(missing), typed=", ".join(f + "=VP" for f in missing)))
        s["finals"][player] = {"cash": cash, "sheet": sheet, "rows": rows, "next_row": next_row,
                               "rows_vp": rows_vp}
        if len(s["finals"]) == len(s["players_order"]):
            self._finish(s)

    @classmethod
    def owned_flags(cls, s: State, player: str) -> list[str]:
        """The flags of the ships and headquarters ``player`` owns: the sheet values `final`
        needs of them."""
        return sorted({s["ships"][n]["flag"] for n in cls.fleet(s, player)} - {None})

    @classmethod
    def sheet_lacks(cls, s: State, data: dict, player: str, sheet: dict) -> list[str]:
        """The flags ``player`` owns a ship of that ``sheet`` (flag -> VP, as typed) leaves
        out; a flag the game does not have is refused (RuleError naming the flags)."""
        flags = cls.flags(s, data)
        given = {check_flag(flag, flags) for flag in sheet}
        return [f for f in cls.owned_flags(s, player) if f not in given]

    @staticmethod
    def marker_rows(data: dict) -> int | None:
        """How many rows of markers a player sheet has (None while rows_vp is not known)."""
        rows_vp = data.get("rows_vp") or []
        return len(rows_vp) if isinstance(rows_vp, list) and rows_vp else None

    def _finish(self, s: State) -> None:
        """Best score wins; a tie goes to the owner of the youngest ship, then it is shared."""
        totals = {p: self.scores(s, p)["total"] for p in s["players_order"]}
        tied = best(totals)
        if len(tied) > 1:
            youngest = {p: self.youngest(s, p) for p in tied}
            top = max(youngest.values())
            tied = [p for p in tied if youngest[p] == top]
        s["finished"] = True
        s["winners"] = tied

    def tie(self, s: State) -> dict | None:
        """A tie for the best score and how the youngest ship settles it: the players tied (seat
        order), their score and each one's youngest ship's year (None: no ship); None without
        a tie."""
        totals = {p: self.scores(s, p)["total"] for p in s["players_order"]}
        tied = best(totals)
        if len(tied) < 2:
            return None
        years = {p: self.youngest(s, p) for p in tied}
        return {"tied": tied, "score": totals[tied[0]],
                "youngest": {p: (y if y >= 0 else None) for p, y in years.items()}}

    def youngest(self, s: State, player: str) -> int:
        """The latest year of construction among a player's ships (-1 if none is known).

        Headquarters are buildings, not ships: they do not take part in the tie-break.
        """
        years = [s["ships"][n]["year"] for n in self.fleet(s, player) if s["ships"][n]["kind"] != "hq"]
        return max([y for y in years if y is not None], default=-1)

    # -- reading ---------------------------------------------------------------------------
    def result(self, s: State) -> dict | None:
        return {"winners": list(s["winners"])} if s["finished"] else None

    def turn(self, s: State) -> list[str]:
        """The opening buyer while the opening purchases last (anti-clockwise), then whose turn
        the turns recorded with `next` say it is; nobody after the very last turn."""
        if s["finished"]:
            return []
        due = self.opening_due(s)
        if due is not None:
            return [due]
        current = self.turn_info(s)["current"]
        return [current] if current is not None else []

    def summary(self, s: State) -> dict:
        turn = self.turn_info(s)
        end = None
        if s["end"] is not None:
            end = {"by": s["end"]["by"], "round": s["end"]["round"], "last": s["end"]["last"],
                   # once the game is over no turn is left, whatever `next` recorded
                   "turns_left": 0 if s["finished"] else max(turn["turns_left"], 0),
                   "docked": s["end"].get("docked", False)}
        players = []
        for p in s["players_order"]:
            sc = self.scores(s, p)
            players.append({
                "name": p,
                "score": sc["total"],
                "ships": self.fleet(s, p),
                "scrapped": [n for n in s["owned"][p] if n in s["scrapped"]],
                "play_vp": sc["play"],
                "vp_during_play": list(s["vp"][p]),
                "final": sc["final"],
                "youngest": self.youngest(s, p) if s["owned"][p] else None,
            })
        return {
            "players": players,
            "round": turn["round"],
            "current": turn["current"] if not s["finished"] else None,
            "finished": s["finished"],
            "winners": list(s["winners"]),
            "start": s["players_order"][0],
            "start_player": s["players_order"][0],
            "start_by": s.get("start_by", "first named"),
            "opening_due": self.opening_due(s),
            # who acts now: the opening buyer while the opening purchases last, then `current`
            "turn": None if s["finished"] else (self.opening_due(s) or turn["current"]),
            "market": list(s["market"]),
            "docks": list(s["docks"]),
            "docks_value": self.docks_count(s),
            "stack": "empty" if s["stack_empty"] else ("no steamships" if s["no_steam_in_stack"] else "steamships"),
            "end": end,
        }

    def describe(self, event: Event) -> str:
        t = event.get("type")
        if t == "own":
            ship = event.get("ship")
            name = ship.get("name") if isinstance(ship, dict) else ship
            return _("{name} owns {ship}").format(name=event.get("player"), ship=ship_key(name or ""))
        if t == "reveal":
            names = [ship_key(x.get("name", "") if isinstance(x, dict) else x) for x in event.get("ships") or []]
            return _("revealed {ships}").format(ships=", ".join(names))
        if t == "stack-empty":
            return _("the stack is empty")
        if t == "buy":
            return _("{name} bought {ships}").format(
                name=event.get("player"), ships=_(" and ").join(ship_key(x) for x in event.get("ships") or []))
        if t == "next":
            return _("end of turn")
        if t == "scrap":
            return _("{ship} scrapped ({vp} VP off the sheet + docks)").format(
                ship=ship_key(event.get("ship") or ""), vp=event.get("sheet_vp"))
        if t == "vp":
            if event.get("note"):
                return _("{name} scores {points} VP ({note})").format(
                    name=event.get("player"), points=event.get("points"), note=event["note"])
            return _("{name} scores {points} VP").format(name=event.get("player"), points=event.get("points"))
        if t == "final":
            sheet = ",".join(f"{k}={v}" for k, v in (event.get("sheet") or {}).items())
            # worded as recorded so far ("1 rows"): tests/test_old_data_folders.py holds old logs to it
            return _("{name}'s final: cash £{cash}, sheet {sheet}, {rows} rows, {next_row} in the next row").format(
                name=event.get("player"), cash=event.get("cash"), sheet=sheet, rows=event.get("rows"),
                next_row=event.get("next_row"))
        return super().describe(event)
