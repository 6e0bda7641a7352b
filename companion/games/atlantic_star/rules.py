"""Atlantic Star: charter ships, stage voyages ranked per sea, borrow against them, score by place.

The app cannot know the 132 ship cards (nobody here has their values), so it tracks what the
table can see and count: each player's money, how many cards they hold, the charter agency as
four priced spaces (with a card's name when the players typed one), and every voyage plaque on
the board. A voyage's value is typed as a total or leg by leg; the rules then rank it in its
sea, which is all the printed victory points need.

Turn shape (the rulebook's order): at most one loan, and only as the first thing; then any
number of agency refreshes; then exactly one charter or one voyage, which ends the turn.

Victory points per place and class are printed on the board and unknown here (`vp` is null in
the pack). Play never needs them; scoring does: the voyage that places the last plaque is
refused with a MissingValue naming ``data set atlantic-star vp.N`` until the players supply the
classes in use. Provisional points appear in the summary for the classes already known.
"""

from __future__ import annotations

from typing import Any

from companion.contract.errors import RuleError, game_over
from companion.contract.language import N_, _, ngettext
from companion.contract.written import number
from companion.contract.text import has_unsafe_chars, safe_text
from companion.contract.api import Game, Setup, State, best, json_copy, player_name

GAME = "atlantic-star"
OPERATOR = "operator"
MAIL, VOID = "M", "X"


def marks(amount: int) -> str:
    """Money as the rulebook writes it: 8,000 marks (8.000 Mark in German)."""
    return ngettext("{amount} mark", "{amount} marks", amount).format(amount=thousands(amount))


def thousands(amount) -> str:
    """An amount with its thousands grouped as the viewer writes them: 8,000 / 8.000."""
    return number(amount, grouped=True)


def sea_name(seas: list[str], text: Any) -> str:
    """The sea named by ``text`` or a unique prefix of it, else a refusal listing the seas."""
    wanted = str(text or "").strip().casefold()
    matches = [s for s in seas if s.startswith(wanted)] if wanted else []
    if wanted in seas:
        return wanted
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise RuleError(_("{typed} could be {seas}: type more of the sea's name.").format(
            typed=repr(text), seas=_(" or ").join(matches)))
    raise RuleError(_("There is no sea called {typed}: the seas are {seas}.").format(typed=repr(text),
                                                                                     seas=", ".join(seas)))


def a_voyage(sea: str) -> str:
    """'a Baltic voyage', 'an Atlantic voyage'."""
    name = sea.title()
    return (_("an {sea} voyage") if name[:1] in "AEIOU" else _("a {sea} voyage")).format(sea=name)


# Not a rule: the rulebook states no largest number of points a ship scores on a leg. A leg
# above this is only noted as unusual (issue 15), never refused.
UNUSUAL_LEG = 9


def unusual(cards: list | None, value: int | None, legs: int) -> bool:
    """Whether a voyage's entry looks mistyped: a leg above UNUSUAL_LEG, or a value above what
    legs of UNUSUAL_LEG each and the bonus make."""
    if cards:
        return any(str(c).strip().isdigit() and int(str(c).strip()) > UNUSUAL_LEG for c in cards)
    return value is not None and value > legs * (UNUSUAL_LEG + 1)


def card_value(cards: list, legs: int) -> int:
    """A voyage's value from one entry per leg: points (1 or more), M (mail, 1) or X (no points).

    Why the bonus rule lives here: every leg suitably covered (a number or a mail ship) earns
    a bonus equal to the number of legs; a single X (a ship sailing a leg it has no points for)
    voids it.
    """
    if not isinstance(cards, list) or len(cards) != legs:
        got = len(cards) if isinstance(cards, list) else 0
        raise RuleError(_("Give one card per leg: {legs} entries, not {got} (e.g. --cards {example}).").format(
            legs=legs, got=got, example=",".join(["5", "M", "X", "3", "7", "2"][:legs])))
    total, void = 0, False
    for n, raw in enumerate(cards, 1):
        text = str(raw).strip().upper()
        if text == MAIL:
            total += 1
        elif text == VOID:
            void = True
        elif text.isdigit() and int(text) >= 1:
            total += int(text)
        else:
            raise RuleError(_("Leg {n}: {typed} is not a card entry: type a number of 1 or more (the ship's points on "
                              "that leg), M for a mail ship or X for a ship with no points there.").format(
                n=n, typed=repr(raw)))
    return total if void else total + legs


def place_plaque(ranking: list[dict], plaque: dict) -> int:
    """Insert ``plaque`` into a sea's ranking (highest value first); returns its index.

    Why this order on ties: a plaque newly placed, or lowered by a loan, goes below the plaques
    already there with the same value; an operator stays above players on equal value.
    """
    v, is_op = plaque["value"], plaque["owner"] == OPERATOR
    at = sum(
        1
        for p in ranking
        if p["value"] > v or (p["value"] == v and (not is_op or p["owner"] == OPERATOR))
    )
    ranking.insert(at, plaque)
    return at


def points(vp: Any, cls: int | None, place: int) -> int | None:
    """The victory points printed beside ``place`` (1-based) of class ``cls``, None if unknown."""
    row = (vp or {}).get(str(cls)) if cls is not None else None
    if not isinstance(row, list) or not 1 <= place <= len(row):
        return None
    return row[place - 1]


# A class's victory points as `data set` takes them: 1st to 6th place.
SHAPE = "[1st, 2nd, 3rd, 4th, 5th, 6th]"


def place_text(place: int) -> str:
    """1st, 2nd, 3rd, 4th ... (1., 2., 3. in German)"""
    return {1: _("1st"), 2: _("2nd"), 3: _("3rd")}.get(place) or _("{n}th").format(n=place)


def star_class(cls) -> str:
    """The 3-star class's name: "3-star" (a sea's class on the board)."""
    return _("{n}-star").format(n=cls)


def completed_vp(known: dict | None, typed: dict | None) -> dict:
    """The session's victory points, completed by the classes the players typed since it
    started (a class the session knows keeps its row)."""
    vp = dict(known or {})
    for cls, row in (typed or {}).items():
        if vp.get(cls) is None and row is not None:
            vp[cls] = row
    return vp


def points_of(vp: Any, places: list[dict]) -> int | None:
    """The points of a player's places by the rows ``vp``; None while a class of theirs is unknown."""
    pts = [points(vp, x["class"], x["place"]) for x in places]
    return None if any(p is None for p in pts) else sum(pts)


class AtlanticStar(Game):
    moves = "companion.games.atlantic_star.moves"
    views = "companion.games.atlantic_star.views"
    listing = 40
    id = GAME
    title = "Atlantic Star"
    tie_break = N_("money")  # `played`: a tie for first needs --winner
    description = N_("Charter ships, stage cruises ranked per sea, take loans; victory points by place.")
    min_players = 2
    max_players = 6
    deals = False  # the players shuffle the real ship cards
    # seed 003, "Get Ready, let the game start": the shell's `new` asks it when --start is not given
    start_question = N_("Who was last on a ship? (rulebook: \"I'm the one who was last on a ship, so I get to "
                        "start the game.\")")
    # player_fields: the default ("player" ...): the core writes the acting player as seated

    # -- set-up ----------------------------------------------------------------------------
    def initial(self, setup: Setup, data: dict) -> State:
        players = list(setup.players)
        n = str(len(players))
        seas = list(self.need(data, GAME, "seas"))
        money = self.need(data, GAME, f"start_money.{n}", _("start money"), "18000")
        per_player = self.need(data, GAME, f"plaques_per_player.{n}", _("plaques per player"), "4")
        operators = self.need(data, GAME, f"operators.{n}", _("operator plaque values"), "[]")
        prices = self.need(data, GAME, "agency_prices", _("agency prices"), "[3000, 2000, 1000, 0]")
        per_sea, rest = divmod(per_player, len(seas))
        size = len(players) * per_sea + len(operators)
        if rest or size != self.need(data, GAME, "places"):
            raise RuleError(_("The printed data do not add up for {n} players: {per_player} plaques each and "
                              "{operators} operator sets do not fill every sea: check `{command}`.").format(
                n=n, per_player=per_player, operators=len(operators), command=f"data show {GAME}"))
        names = list(setup.options.get("agency") or [])
        for name in names:
            if name is not None and (not isinstance(name, str) or has_unsafe_chars(name) or not name.isprintable()):
                raise RuleError(_("The ship's name '{name}' holds control characters (such as ESC or a right-to-left "
                                  "override): type it with letters, digits and spaces.").format(name=safe_text(str(name))))
        if len(names) > len(prices):
            raise RuleError(_("The agency has {count} spaces: name at most {count} ships, dearest first.").format(
                count=len(prices)))
        names += [None] * (len(prices) - len(names))
        return {
            "players_order": players,
            "money": {p: money for p in players},
            "hand": {p: 0 for p in players},
            "plaques": {p: {sea: per_sea for sea in seas} for p in players},
            "operators": json_copy(operators),
            "agency": [{"price": price, "card": name} for price, name in zip(prices, names)],
            "seas": {sea: {"class": None, "ranking": []} for sea in seas},
            "places": size,
            "turn": {"player": players[0], "loan": None, "refreshes": 0},
            "round": 1,
            "finished": False,
            "winners": [],
            "scores": None,
            "vp": json_copy(data.get("vp")),
        }

    def advance(self, state: State, event: dict, data: dict) -> State:
        if state["finished"]:  # the rules used alone (`loan --preview`, a test): a session refuses first
            raise RuleError(game_over())
        new = super().advance(state, event, data)
        # summary() sees only the state: keep the victory points this session knows beside it
        new["vp"] = json_copy(data.get("vp"))
        return new

    # -- the turn --------------------------------------------------------------------------
    def _actor(self, s: State, event: dict) -> str:
        """The acting player, refusing anyone but the one whose turn it is."""
        if "player" not in event:
            raise RuleError(_("Name the player acting: it is {name}'s turn.").format(name=s["turn"]["player"]))
        p = player_name(s["players_order"], str(event["player"]))
        current = s["turn"]["player"]
        if p != current:
            raise RuleError(_("It is {turn}'s turn, not {name}'s.").format(turn=current, name=p))
        return p

    def _end_turn(self, s: State, data: dict) -> None:
        """Pass the turn clockwise, skipping players with no plaque left; or end the game."""
        order = s["players_order"]
        if not any(self.plaques_left(s, p) for p in order):
            self._finish(s, data)
            return
        i = order.index(s["turn"]["player"])
        for step in range(1, len(order) + 1):
            j = (i + step) % len(order)
            if self.plaques_left(s, order[j]):
                if i + step >= len(order):
                    s["round"] += 1
                s["turn"] = {"player": order[j], "loan": None, "refreshes": 0}
                return

    @staticmethod
    def plaques_left(s: State, player: str) -> int:
        return sum(s["plaques"][player].values())

    def _pay(self, s: State, player: str, amount: int, what: str) -> None:
        if s["money"][player] < amount:
            raise RuleError(_("{name} has {money} and cannot pay {amount} {what}.").format(
                name=player, money=marks(s["money"][player]), amount=marks(amount), what=what))
        s["money"][player] -= amount

    # -- actions ---------------------------------------------------------------------------
    def on_charter(self, s: State, event: dict, data: dict) -> None:
        p = self._actor(s, event)
        prices = [space["price"] for space in s["agency"]]
        space = event.get("space")
        if isinstance(space, bool) or space not in prices:
            shown = _("{spaces} or {last}").format(spaces=", ".join(str(x) for x in prices[:-1]), last=prices[-1])
            raise RuleError(_("There is no agency space {typed}: the spaces are {spaces}.").format(
                typed=repr(space), spaces=shown))
        i = prices.index(space)
        hand = s["hand"][p] + 1
        limit = self.need(data, GAME, "hand_after_voyage")
        fits = [sea for sea, left in s["plaques"][p].items() if left and hand - self._legs(data, sea) <= limit]
        if not fits:
            raise RuleError(_("{name} would hold {hand} cards, and none of {name}'s voyages still to stage could leave "
                              "at most {limit} in hand: stage a voyage instead.").format(name=p, hand=hand, limit=limit))
        self._pay(s, p, space, _("for the {space}-mark space").format(space=thousands(space)))
        s["hand"][p] = hand
        names = [a["card"] for a in s["agency"]]
        names = [event.get("new")] + names[:i] + names[i + 1 :]  # dearer cards slide one cheaper
        for slot, name in zip(s["agency"], names):
            slot["card"] = name
        self._end_turn(s, data)

    def on_refresh(self, s: State, event: dict, data: dict) -> None:
        p = self._actor(s, event)
        cost = self.need(data, GAME, "refresh_cost")
        names = list(event.get("cards") or [])
        if names and len(names) != len(s["agency"]):
            raise RuleError(_("Name all {count} new agency cards, dearest first, or none of them.").format(
                count=len(s["agency"])))
        self._pay(s, p, cost, _("to replace the agency's cards"))
        names = names or [None] * len(s["agency"])
        for slot, name in zip(s["agency"], names):
            slot["card"] = name
        s["turn"]["refreshes"] += 1

    def on_voyage(self, s: State, event: dict, data: dict) -> None:
        p = self._actor(s, event)
        sea = sea_name(list(s["seas"]), event.get("sea"))
        legs = self._legs(data, sea)
        if not s["plaques"][p][sea]:
            raise RuleError(_("{name} has no {sea} plaque left: every voyage there is staged.").format(
                name=p, sea=sea.title()))
        hand, limit = s["hand"][p], self.need(data, GAME, "hand_after_voyage")
        if hand < legs:
            raise RuleError(_("{name} holds {hand} cards: {voyage} needs {legs}, one per leg.").format(
                name=p, hand=hand, voyage=a_voyage(sea), legs=legs))
        if hand - legs > limit:
            fits = [x for x in s["seas"] if s["plaques"][p][x] and legs_ok(hand, self._legs(data, x), limit)]
            said = _("{name} holds {hand} cards: {voyage} ({legs} legs) would leave {left}, and at most {limit} may "
                     "stay in hand.").format(name=p, hand=hand, voyage=a_voyage(sea), legs=legs, left=hand - legs,
                                             limit=limit)
            if fits:
                said += " " + _("With {hand} cards: {seas}.").format(hand=hand,
                                                                    seas=_(" or ").join(x.title() for x in fits))
            raise RuleError(said)
        value = self._voyage_value(event, legs, data)
        cls = self._class(s, sea, event.get("class"), data)
        ranking = s["seas"][sea]["ranking"]
        if s["seas"][sea]["class"] is None:
            s["seas"][sea]["class"] = cls
            for k, ops in enumerate(s["operators"], 1):  # the operators' plaques enter first
                place_plaque(ranking, {"owner": OPERATOR, "value": ops[sea], "loan": 0, "voyage": k})
        done = sum(1 for x in ranking if x["owner"] == p)
        place_plaque(ranking, {"owner": p, "value": value, "loan": 0, "voyage": done + 1})
        s["plaques"][p][sea] -= 1
        s["hand"][p] -= legs
        self._end_turn(s, data)

    def on_loan(self, s: State, event: dict, data: dict) -> None:
        p = self._actor(s, event)
        turn = s["turn"]
        if turn["loan"]:
            raise RuleError(_("{name} has taken a loan this turn already: one loan per turn.").format(name=p))
        if turn["refreshes"]:
            raise RuleError(_("A loan comes first in a turn: {name} has already refreshed the agency.").format(name=p))
        sea = sea_name(list(s["seas"]), event.get("sea"))
        ranking = s["seas"][sea]["ranking"]
        if ranking and len(ranking) >= s["places"]:
            raise RuleError(_("The {sea} has all {places} plaques: no more loans on its voyages.").format(
                sea=sea.title(), places=s["places"]))
        plaque = self.loan_voyage(ranking, p, sea, event.get("voyage"))
        amount = event.get("amount")
        cfg = self.need(data, GAME, "loan")
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise RuleError(_("A loan is a whole number of marks, e.g. {command}.").format(command=f"loan {p} {sea} 5000"))
        if amount % cfg["unit"]:
            raise RuleError(_("Loans come in whole thousands: {amount} is not, e.g. {example}.").format(
                amount=thousands(amount), example=thousands(max(cfg["unit"], amount - amount % cfg["unit"]))))
        cap = min(cfg["max"], cfg["per_point"] * plaque["value"])
        if amount > cap:
            why = (
                _("at most {money} per voyage").format(money=marks(cfg["max"]))
                if cap == cfg["max"]
                else _("at most {amount} per point of the voyage's value {value}").format(
                    amount=thousands(cfg["per_point"]), value=plaque["value"])
            )
            raise RuleError(_("{name} may borrow at most {money} on that voyage ({why}), not {amount}.").format(
                name=p, money=marks(cap), why=why, amount=thousands(amount)))
        ranking.remove(plaque)
        plaque["value"] -= amount // cfg["per_point"]
        plaque["loan"] = amount
        place_plaque(ranking, plaque)
        s["money"][p] += amount
        turn["loan"] = {"sea": sea, "voyage": plaque["voyage"]}  # which one, for the screens

    # -- helpers of the actions --------------------------------------------------------------
    def _legs(self, data: dict, sea: str) -> int:
        return self.need(data, GAME, f"seas.{sea}.legs")

    def _voyage_value(self, event: dict, legs: int, data: dict) -> int:
        has_value, has_cards = event.get("value") is not None, event.get("cards") is not None
        if has_value == has_cards:
            raise RuleError(_("Give the voyage's value as --value N or leg by leg as --cards LIST (one of them)."))
        if has_cards:
            return card_value(list(event["cards"]), legs)
        value = event["value"]
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise RuleError(_("A voyage's value is a whole number of 0 or more (points plus the bonus), not {typed}.").format(
                typed=repr(value)))
        return value

    def _class(self, s: State, sea: str, given: Any, data: dict) -> int:
        """The sea's class: chosen by its first voyage among the classes no other sea uses."""
        current = s["seas"][sea]["class"]
        classes = self.need(data, GAME, "classes")
        if given is not None and (isinstance(given, bool) or not isinstance(given, int) or not 1 <= given <= classes):
            raise RuleError(_("A class is 1 to {classes} stars, not {typed}.").format(classes=classes, typed=repr(given)))
        if current is not None:
            if given is not None and given != current:
                raise RuleError(_("The {sea} sails in the {current}-star class: leave out --class or give {current}.").format(
                    sea=sea.title(), current=current))
            return current
        used = {v["class"]: x for x, v in s["seas"].items() if v["class"] is not None}
        free = [str(c) for c in range(1, classes + 1) if c not in used]
        if given is None:
            raise RuleError(_("This is the first {sea} voyage: choose its class with --class STARS ({free} are free).").format(
                sea=sea.title(), free=", ".join(free)))
        if given in used:
            raise RuleError(_("The {given}-star class belongs to the {sea}: choose one of {free}.").format(
                given=given, sea=used[given].title(), free=", ".join(free)))
        return given

    def loan_voyage(self, ranking: list[dict], p: str, sea: str, which: Any) -> dict:
        mine = sorted((x for x in ranking if x["owner"] == p), key=lambda x: x["voyage"])
        if not mine:
            raise RuleError(_("{name} has no voyage in the {sea} to borrow against.").format(name=p, sea=sea.title()))
        if which is not None:
            pick = [x for x in mine if x["voyage"] == which]
            if not pick:
                numbers = _(" or ").join(str(x["voyage"]) for x in mine)
                raise RuleError(_("{name} has no {sea} voyage {typed}: give --voyage {numbers}.").format(
                    name=p, sea=sea.title(), typed=repr(which), numbers=numbers))
            plaque = pick[0]
        else:
            free = [x for x in mine if not x["loan"]]
            if len(free) > 1:
                raise RuleError(_("{name} has {count} {sea} voyages without a loan: pick one with {options}.").format(
                    name=p, count=len(free), sea=sea.title(),
                    options=_(" or ").join(f"--voyage {x['voyage']}" for x in free)))
            plaque = free[0] if free else mine[0]
        if plaque["loan"]:
            raise RuleError(_("{name}'s {sea} voyage {voyage} has a loan already: one loan per voyage.").format(
                name=p, sea=sea.title(), voyage=plaque["voyage"]))
        return plaque

    # -- the end ---------------------------------------------------------------------------
    def _finish(self, s: State, data: dict) -> None:
        """Every plaque is placed: score by the printed points (asking for any class unknown)."""
        for cls in sorted(info["class"] for info in s["seas"].values() if info["class"] is not None):
            self.need(
                data, GAME, f"vp.{cls}",
                _("victory points of the {n}-star class, 1st to 6th place, read off the board").format(n=cls),
                "[1st, 2nd, 3rd, 4th, 5th, 6th]",
            )
        s["vp"] = json_copy(data.get("vp"))
        scores = {p: self.score(s, p) for p in s["players_order"]}
        top = best(scores)
        if len(top) > 1:  # equal points: more money wins, else a shared win
            top = best({p: s["money"][p] for p in top})
        s["scores"] = scores
        s["winners"] = top
        s["finished"] = True
        s["turn"] = None

    # -- reading states --------------------------------------------------------------------
    @staticmethod
    def places(s: State, player: str) -> list[dict]:
        """Each of the player's plaques on the board: sea, class, place, value, loan, points."""
        out = []
        for sea, info in s["seas"].items():
            for n, plaque in enumerate(info["ranking"], 1):
                if plaque["owner"] == player:
                    out.append({
                        "sea": sea, "class": info["class"], "place": n, "voyage": plaque["voyage"],
                        "value": plaque["value"], "loan": plaque["loan"],
                        "points": points(s.get("vp"), info["class"], n),
                    })
        return out

    def staged(self, s: State, player: str, sea: str) -> dict:
        """The place of the player's latest voyage in ``sea`` (what `voyage` just placed)."""
        return max((x for x in self.places(s, player) if x["sea"] == sea), key=lambda x: x["voyage"])

    def loaned(self, s: State, player: str) -> dict:
        """The place of the voyage the player borrowed against this turn (a loan never ends it)."""
        chosen = s["turn"]["loan"]
        return next(x for x in self.places(s, player) if x["sea"] == chosen["sea"] and x["voyage"] == chosen["voyage"])

    def score(self, s: State, player: str) -> int | None:
        """The points beside the player's places; None while a class they sail in is unknown."""
        pts = [x["points"] for x in self.places(s, player)]
        return None if any(x is None for x in pts) else sum(pts)

    def missing_classes(self, s: State) -> list[int]:
        """Classes in use whose victory points the session does not know."""
        return sorted(
            info["class"] for info in s["seas"].values()
            if info["class"] is not None and points(s.get("vp"), info["class"], 1) is None
        )

    def preview_loan(self, state: State, event: dict, data: dict) -> dict:
        """What a loan would do to its voyage, without recording it (for `loan --preview`)."""
        after = self.apply(state, event, data)  # refuses exactly what `loan` would refuse
        p = player_name(state["players_order"], str(event["player"]))
        sea = sea_name(list(state["seas"]), event["sea"])
        voyage = self.loan_voyage(state["seas"][sea]["ranking"], p, sea, event.get("voyage"))["voyage"]

        def find(st: State) -> dict:
            return next(x for x in self.places(st, p) if x["sea"] == sea and x["voyage"] == voyage)

        return {"player": p, "sea": sea, "voyage": voyage, "amount": event["amount"],
                "before": find(state), "after": find(after)}

    def summary(self, s: State) -> dict:
        players = []
        for p in s["players_order"]:
            players.append({
                "name": p,
                "score": s["scores"][p] if s["scores"] else self.score(s, p),
                "money": s["money"][p],
                "hand": s["hand"][p],
                "plaques_left": self.plaques_left(s, p),
                "places": self.places(s, p),
            })
        return {
            "players": players,
            "round": s["round"],
            "finished": s["finished"],
            "winners": list(s["winners"]),
            "turn": s["turn"]["player"] if s["turn"] else None,
            "may": self.may(s),
            "agency": json_copy(s["agency"]),
            "seas": {
                sea: {
                    "class": info["class"],
                    "ranking": [
                        {"owner": x["owner"], "value": x["value"], "loan": x["loan"]} for x in info["ranking"]
                    ],
                }
                for sea, info in s["seas"].items()
            },
            "vp_missing": self.missing_classes(s),
        }

    def result(self, s: State) -> dict | None:
        """The winners once every plaque is placed (the rules score then: see _finish)."""
        return {"winners": list(s["winners"])} if s["finished"] else None

    def turn(self, s: State) -> list[str]:
        """The player whose turn it is (nobody once the game is over)."""
        return [s["turn"]["player"]] if s.get("turn") else []

    @staticmethod
    def may(s: State) -> list[str]:
        """What the player whose turn it is may still do, in the turn's order."""
        turn = s.get("turn")
        if not turn:
            return []
        loan = not (turn["loan"] or turn["refreshes"]) and AtlanticStar.may_borrow(s, turn["player"])
        return (["loan"] if loan else []) + ["refresh", "charter", "voyage"]

    @staticmethod
    def may_borrow(s: State, player: str) -> bool:
        """Whether ``player`` has a voyage a loan may still go on: one of theirs without a loan,
        worth a point or more, in a sea whose plaques are not all on the board (the rules of
        `loan`); none before their first voyage."""
        for sea in (s.get("seas") or {}).values():
            ranking = sea.get("ranking") or []
            if len(ranking) >= s.get("places", 6):
                continue
            if any(x["owner"] == player and not x.get("loan") and x.get("value", 0) > 0 for x in ranking):
                return True
        return False

    def describe(self, event: dict) -> str:
        etype, p = event.get("type"), event.get("player", "?")
        if etype == "charter":
            space = event.get("space")
            space = thousands(space) if isinstance(space, int) else repr(space)
            if event.get("card"):
                return _("{name} chartered the ship on the {space}-mark space ({card})").format(
                    name=p, space=space, card=event["card"])
            return _("{name} chartered the ship on the {space}-mark space").format(name=p, space=space)
        if etype == "refresh":
            return _("{name} paid to replace the four agency cards").format(name=p)
        if etype == "voyage":
            sea = str(event.get("sea", "?")).title()
            cls = ", " + _("{n}-star class").format(n=event["class"]) if event.get("class") else ""
            if event.get("cards") is not None:
                cards = [str(c).upper() for c in event["cards"]]
                try:
                    worth = card_value(cards, len(cards))
                except RuleError:
                    worth = "?"
                return _("{name} staged {voyage} worth {worth} ({cards})").format(
                    name=p, voyage=a_voyage(sea), worth=worth, cards=" ".join(cards)) + cls
            return _("{name} staged {voyage} worth {worth}").format(name=p, voyage=a_voyage(sea),
                                                                    worth=event.get("value")) + cls
        if etype == "loan":
            sea = str(event.get("sea", "?")).title()
            amount = event.get("amount")
            shown = marks(amount) if isinstance(amount, int) else repr(amount)
            if event.get("voyage"):
                return _("{name} borrowed {money} on the {sea} voyage {voyage}").format(
                    name=p, money=shown, sea=sea, voyage=event["voyage"])
            return _("{name} borrowed {money} on the {sea} voyage").format(name=p, money=shown, sea=sea)
        return super().describe(event)


def legs_ok(hand: int, legs: int, limit: int) -> bool:
    """Whether a voyage of ``legs`` can be staged from ``hand`` cards within the hand limit."""
    return legs <= hand and hand - legs <= limit
