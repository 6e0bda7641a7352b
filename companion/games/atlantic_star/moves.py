"""What can be done in Atlantic Star, declared once: `new`, `charter`, `refresh`, `voyage`,
`loan` (and `loan --preview`), and the `agency` screen.

Each Move builds one event (the sea written as the board names it, so the log reads well;
the core writes the player as seated) that the rules check, and says what happened as a view.
Two things are done here rather than in the rules, because they involve the players' data
folder: the victory points the players typed after `new` are carried into the next event (so
`status` shows provisional points as soon as they are known), and in the shell a missing class
of victory points is asked for when the scoring first needs it, with the probable row shown as
a hint to check, never filled in; then the voyage goes on.
"""

from __future__ import annotations

import click

from companion.core import datapack
from companion.contract.errors import CompanionError, Malformed, MissingValue, RuleError
from companion.games.atlantic_star import cards
from companion.games.atlantic_star.rules import (GAME, SHAPE, UNUSUAL_LEG, AtlanticStar, a_voyage, completed_vp,
                                                marks, place_text, sea_name, star_class, thousands, unusual)
from companion.contract.language import N_, _, ngettext
from companion.contract.declare import At, Flag, Kind, Move, Number, Param, Player, Screen
from companion.games.kit import ask_card_name, new_command, said, split_names
from companion.contract.view import Cmd, Line, Name, Table, joined


@new_command(AtlanticStar)
@click.option("--agency", metavar="A,B,C,D",
              help=N_("Names of the four ships on the agency, from the 3,000 space down (optional)."))
def new(agency: str | None) -> dict:
    """2 to 6 players, each with their start money and plaques; the operators for that count."""
    return {"agency": split_names(agency)} if agency else {}


# -- the players' own victory points (their data folder) -------------------------------------------

def players_vp(at) -> dict:
    """The victory points as the players know them today (their own values over the pack);
    none where there is no data folder at hand (a page)."""
    store = getattr(at.host, "store", None)
    if store is None:
        return {}
    return datapack.merged(GAME, store.user_values(GAME)).get("vp") or {}


def effective_vp(at) -> dict:
    """The session's victory points, completed by the classes the players typed since (while
    the game is on: a finished game keeps the rows it was scored with)."""
    known = at.data.get("vp") or {}
    return dict(known) if at.replay.finished else completed_vp(known, players_vp(at))


def _event(at, event: dict) -> dict:
    """``event`` as recorded: the sea as the board names it, and the victory-point rows the
    players typed since the session started, so its summary knows them at once."""
    if "sea" in event:
        try:
            event["sea"] = sea_name(list(at.full["seas"]), event["sea"])
        except RuleError:
            pass  # the rules refuse it, after checking whose turn it is
    known = at.data.get("vp") or {}
    for cls, row in sorted(players_vp(at).items()):
        if row is not None and known.get(cls) is None:
            event.setdefault("_data", {})[f"vp.{cls}"] = row
    return event


def ask_vp(at, key: str) -> None:
    """Ask the players for one class's victory points, showing the probable row only as a hint,
    and keep the answer as their own value."""
    cls = key.split(".")[1]
    told = [Line(_("The game is over, and the victory points of the {n}-star class are not known yet.").format(n=cls))]
    hint = datapack.suggestions(GAME).get(key)
    if hint:
        row = ", ".join("?" if v is None else str(v) for v in hint["value"]) if hint.get("value") else ""
        told.append(Line(_("Suggested: {row} — {note}.").format(row=row, note=hint["note"]) if row else
                         _("Suggested: {note}.").format(note=hint["note"])))
    at.tell(told)
    store = at.host.store

    def parse(answer: str) -> list[int]:
        try:
            row = [int(x) for x in answer.strip("[]").replace(",", " ").split()]
        except ValueError:
            raise ValueError(_("Six whole numbers, please (e.g. 20 15 10 6 2 0).")) from None
        try:
            datapack.validate(GAME, key, row, store.user_values(GAME))
        except CompanionError as exc:
            raise ValueError(_("Six whole numbers, please ({why})").format(why=exc.message)) from None
        return row

    # the question fits 80 columns with its answer: prompt_toolkit breaks a long one mid-word
    row = at.ask_until(_("Read them off the board, 1st to 6th place, six whole numbers: "), parse)
    with store.writing():
        store.set_user_value(GAME, key, row)
    at.tell([Line(*said(_("Kept as your value of {game} {key} ({command})."), game=GAME, key=key,
                        command=Cmd(f"data show {GAME}")))])


def _ask_missing_vp(at, build) -> None:
    """In the shell: try the move on a copy first, and ask for each class of victory points its
    scoring needs that nobody typed yet (only the last voyage scores); anything else the rules
    refuse is said when the move is recorded."""
    if not at.can_ask() or at.replay.over:
        return
    while True:
        data = dict(at.data, vp=effective_vp(at))
        try:
            at.game.apply(at.full, build(at), data)
            return
        except MissingValue as missing:
            if not missing.key.startswith("vp."):
                return
            ask_vp(at, missing.key)
        except CompanionError:
            return


# -- what is said -----------------------------------------------------------------------------------

def scores_text(status: dict) -> str:
    return _("Final scores: {scores}.").format(scores=", ".join(
        f"{p['name']} {p['score']} ({marks(p['money'])})" for p in status["players"]))


def next_line(status: dict) -> Line:
    """Whose turn it is and what they may still do, or the result."""
    if status["finished"]:
        won = status.get("winners") or []
        if len(won) == 1:
            head = said(_("Game over: {name} wins."), name=Name(won[0]))
        else:  # each name whole, with the comma or the full stop after it
            ends = [","] * (len(won) - 1) + ["."]
            head = said(_("Game over: shared win for {names}"),
                        names=joined((Name(w + end) for w, end in zip(won, ends)), " "))
        return Line(*head, " ", scores_text(status))
    may = status["may"]
    return Line(*said(_("{name}'s turn: {moves} or {last}."), name=Name(status["turn"]), moves=", ".join(may[:-1]),
                      last=may[-1]))


def _player(status: dict, name: str) -> dict:
    return next(x for x in status["players"] if x["name"] == name)


def _chartered(outcome) -> list:
    status, event = outcome.status, outcome.event
    p = _player(status, event["player"])
    values = {"name": Name(p["name"]), "space": thousands(event["space"]), "money": marks(p["money"]),
              "hand": p["hand"]}
    if event.get("card"):
        text = ngettext("{name} chartered the ship on the {space}-mark space {card} {money} left, {hand} card in hand.",
                        "{name} chartered the ship on the {space}-mark space {card} {money} left, {hand} cards in "
                        "hand.", p["hand"])
        values["card"] = Name(f"({event['card']}):")
    else:
        text = ngettext("{name} chartered the ship on the {space}-mark space: {money} left, {hand} card in hand.",
                        "{name} chartered the ship on the {space}-mark space: {money} left, {hand} cards in hand.",
                        p["hand"])
    return [Line(*said(text, **values)), next_line(status)]


def _refreshed(outcome) -> list:
    status = outcome.status
    p = _player(status, outcome.event["player"])
    return [Line(*said(_("{name} paid for four new agency ships: {money} left."), name=Name(p["name"]),
                       money=marks(p["money"]))), next_line(status)]


def _staged(outcome) -> list:
    status, event = outcome.status, outcome.event
    sea = event["sea"]
    mine = outcome.at.game.staged(outcome.state, event["player"], sea)
    out = [Line(*said(_("{name} staged {voyage} worth {value} in the {n}-star class: {place} of {count}."),
                      name=Name(event["player"]), voyage=a_voyage(sea), value=mine["value"], n=mine["class"],
                      place=place_text(mine["place"]), count=len(status["seas"][sea]["ranking"])))]
    if unusual(event.get("cards"), event.get("value"), outcome.at.data["seas"][sea]["legs"]):
        out.append(Line(*said(_("Note: above {most} points per leg is unusual: check the cards ({undo} if mistyped)."),
                              most=UNUSUAL_LEG, undo=Cmd("undo"))))
    return out + [next_line(status)]


def _borrowed(outcome) -> list:
    status, event = outcome.status, outcome.event
    p = _player(status, event["player"])
    plaque = outcome.at.game.loaned(outcome.state, p["name"])
    return [Line(*said(_("{name} borrowed {amount} on the {sea} voyage: now worth {value}, {place} of {count}; {money} "
                         "in hand."), name=Name(p["name"]), amount=marks(event["amount"]), sea=event["sea"].title(),
                       value=plaque["value"], place=place_text(plaque["place"]),
                       count=len(status["seas"][event["sea"]]["ranking"]), money=marks(p["money"]))),
            next_line(status)]


def _preview(at) -> list:
    """`loan --preview`: the voyage's value, place and victory points before and after the
    loan, as the places stand now; nothing is recorded."""
    if at.replay.abandoned:  # (a finished game the rules refuse themselves)
        raise RuleError(_("This game was abandoned: `undo` takes that back, or start another with `new`."))
    data = dict(at.data, vp=effective_vp(at))
    state = dict(at.full, vp=data["vp"])
    pv = at.game.preview_loan(state, _loan_event(at), data)
    b, a = pv["before"], pv["after"]

    def vp(x: dict) -> str:
        return "?" if x["points"] is None else str(x["points"])

    out = [
        Line(*said(_("Preview, nothing recorded: {name} borrows {amount} on the {sea} voyage ({n}-star class)."),
                   name=Name(pv["player"]), amount=marks(pv["amount"]), sea=pv["sea"].title(), n=b["class"])),
        Line("  " + _("value {value} → {after}, place {place} → {place_after}, victory points {vp} → {vp_after} (as the "
                      "places stand now).").format(value=b["value"], after=a["value"], place=place_text(b["place"]),
                                                  place_after=place_text(a["place"]), vp=vp(b), vp_after=vp(a))),
    ]
    if a["points"] is None:
        # said alike on a phone and at the laptop: no command to type (issue 31); the value is
        # asked, there or here, when a move first needs it
        out.append(Line("  " + _("The {n}-star victory points are not known yet: they are asked when the game "
                                 "first needs them.").format(n=b["class"])))
    return out


# -- the kinds of the parameters --------------------------------------------------------------------

def _whole(text) -> int:
    """A whole number typed with or without thousands separators (8000, 8,000)."""
    return int(str(text).replace(",", "").replace("_", "").strip())


class Space(Kind):
    """An agency space by its price (3000, 3,000); anything else is left for the rules to refuse
    after checking whose turn it is."""

    metavar = "SPACE"

    def read(self, text, at, param):
        if not str(text).strip():
            raise CompanionError(_("Give the agency space: its price, e.g. 0 or 3000."))
        try:
            return _whole(text)
        except ValueError:
            return text  # the rules name the spaces there are

    def options(self, at, param):
        return [(str(a["price"]), a.get("card") or "") for a in at.state["agency"]]


class Sea(Kind):
    """A sea, or the first letters of one (the event names it whole; the rules refuse a sea
    there is not, after checking whose turn it is). A page offers the seas ``phone`` says
    (where the player still has a plaque, where they have a voyage to borrow on)."""

    metavar = "SEA"

    def __init__(self, phone=None):
        self.phone = phone

    def options(self, at, param):
        return [(sea, "") for sea in at.state["seas"]]

    def offered(self, at, param):
        return self.phone(at) if self.phone is not None else self.options(at, param)


def _seas_to_sail(at) -> list[tuple[str, str]]:
    """The seas where the player still has a plaque and holds the cards for (one per leg, at
    most the rules' number left in hand after), with the class each sails in and its legs."""
    player = at.args.get("player") or at.viewer
    state = at.state
    hand, limit = (state["hand"].get(player, 0) if player else 0), at.data.get("hand_after_voyage")
    out = []
    for sea, info in state["seas"].items():
        legs = (at.data.get("seas") or {}).get(sea, {}).get("legs")
        fits = legs is None or limit is None or (hand >= legs and hand - legs <= limit)
        if player and state["plaques"][player].get(sea) and fits:
            note = star_class(info["class"]) if info["class"] else _("not sailed yet")
            out.append((sea, _("{class_}, {legs} legs").format(class_=note, legs=legs) if legs else note))
    return out


def _seas_with_voyage(at) -> list[tuple[str, str]]:
    """The seas where the player has a voyage to borrow on, and room for a loan."""
    player = at.args.get("player") or at.viewer
    state = at.state
    out = []
    for sea, info in state["seas"].items():
        mine = [x for x in info["ranking"] if x["owner"] == player and not x["loan"]]
        if mine and len(info["ranking"]) < state["places"]:
            out.append((sea, _("voyage worth {value}").format(value=mine[0]["value"])))
    return out


class Marks(Kind):
    """An amount of marks, with or without thousands separators."""

    metavar = "AMOUNT"

    def read(self, text, at, param):
        try:
            return _whole(text)
        except ValueError:
            raise Malformed(_("AMOUNT must be a whole number, not {typed}: e.g. loan Ann baltic 5000").format(
                typed=repr(text))) from None


class Legs(Kind):
    """A voyage leg by leg: 5,M,X (or with spaces)."""

    metavar = "LIST"

    def read(self, text, at, param):
        return str(text).replace(",", " ").split()


class Ships(Kind):
    """Ship names, comma-separated."""

    metavar = "A,B,C,D"

    def read(self, text, at, param):
        return split_names(str(text))


class ShipName(Kind):
    """A ship's name, for the log (empty: none)."""

    metavar = "TEXT"

    def read(self, text, at, param):
        return text


def _player_param() -> Param:
    return Param("player", Player(), N_("Who acts (their turn)."), metavar="NAME")


# -- from the phones: the player whose turn it is -----------------------------------------------------

def _turn(check=None):
    """Offered on the page of the player whose turn it is (and, with ``check``, when it fits)."""
    def allowed(at, player: str) -> bool:
        turn = at.full.get("turn")
        return bool(turn and turn["player"] == player and (check is None or check(at, player)))
    return allowed


def _loan_room(at, player: str) -> bool:
    """A loan first thing in the turn, on a voyage in a sea with room left."""
    return "loan" in AtlanticStar.may(at.full) and bool(_seas_with_voyage(At(at.session, at.replay, player,
                                                                              {"player": player}, at.host)))


def _turn_why(at, player: str) -> str:
    turn = at.full.get("turn")
    if turn and turn["player"] != player:
        return _("It is {turn}'s turn, not {name}'s.").format(turn=turn["player"], name=player)
    if turn and "loan" not in AtlanticStar.may(at.full):
        return _("A loan comes first in a turn: {name} has taken one or refreshed the agency already.").format(
            name=player)
    return _("{name} cannot do that now.").format(name=player)


# -- the moves ----------------------------------------------------------------------------------------

def _charter_event(at) -> dict:
    event = {"type": "charter", "player": at.args["player"], "space": at.args["space"]}
    if at.args.get("card"):
        event["card"] = at.args["card"]
    if at.args.get("new"):
        event["new"] = at.args["new"]
    return _event(at, event)


def _refresh_event(at) -> dict:
    event = {"type": "refresh", "player": at.args["player"]}
    if at.args.get("cards"):
        event["cards"] = at.args["cards"]
    return _event(at, event)


def _voyage_event(at) -> dict:
    event = {"type": "voyage", "player": at.args["player"], "sea": at.args["sea"]}
    if at.args.get("value") is not None:
        event["value"] = at.args["value"]
    elif at.args.get("ships"):
        try:
            sea = sea_name(list(at.full["seas"]), at.args["sea"])
        except RuleError:
            sea = at.args["sea"]  # the rules refuse it, after checking whose turn it is
        event["ships"] = [cards.card_key(n) for n in at.args["ships"]]
        event["cards"] = cards.legs(at, at.args["ships"], sea)
    else:
        event["cards"] = list(at.args.get("cards") or [])
    if at.args.get("stars") is not None:
        event["class"] = at.args["stars"]
    return _event(at, event)


def _voyage_prepare(at) -> None:
    given = [k for k in ("value", "cards", "ships") if at.args.get(k) is not None and at.args.get(k) != []]
    if len(given) != 1:
        raise click.UsageError(_("Name the voyage's ship cards as --ships A,B,C, or give its value as --value N, or "
                                 "leg by leg as --cards LIST (one of them)."))
    _ask_missing_vp(at, _voyage_event)


def _loan_event(at) -> dict:
    event = {"type": "loan", "player": at.args["player"], "sea": at.args["sea"], "amount": at.args["amount"]}
    if at.args.get("which") is not None:
        event["voyage"] = at.args["which"]
    return _event(at, event)


def _loan_prepare(at) -> list | None:
    return _preview(at) if at.args.get("preview") else None


MOVES = [
    Move("charter", [_player_param(), Param("space", Space(), N_("The agency space: 3000, 2000, 1000 or 0.")),
                     Param("card", ShipName(), N_("The name of the ship chartered (for the log)."), option=True,
                           required=False),
                     Param("new", ShipName(), N_("The name of the ship drawn onto the 3,000 space."), option=True,
                           required=False)],
         _charter_event, done=_chartered, examples=["charter Ann 1000"],
         help=N_("Charter the ship on SPACE (3000, 2000, 1000 or 0): NAME pays its price; the turn ends."),
         phone=N_("Charter a ship from the agency"), allowed=_turn(), why_not=_turn_why),
    Move("refresh", [_player_param(),
                     Param("cards", Ships(), N_("The names of the four new ships, from the 3,000 space down."),
                           option=True, required=False)],
         _refresh_event, done=_refreshed, examples=["refresh Ann"],
         help=N_("NAME pays 2,000 marks to replace all four agency ships (repeatable while money lasts)."),
         phone=N_("Replace the agency's four ships"), allowed=_turn(), why_not=_turn_why, verb=N_("Pay and replace"),
         more=True),
    Move("voyage", [_player_param(), Param("sea", Sea(_seas_to_sail), N_("The sea: baltic, mediterranean, atlantic or "
                                                                          "pacific.")),
                    Param("stars", Number(), N_("1 to 5: needed by a sea's first voyage (a class no other sea has)."),
                          flags=["--class"], required=False, metavar="STARS"),
                    Param("value", Number(), N_("The voyage's value: the points plus any bonus."), option=True,
                          required=False, metavar="N"),
                    Param("cards", Legs(), N_("One entry per leg, e.g. 5,M,X: the ship's points, M = mail ship (1), "
                                              "X = no points (no bonus)."), option=True, required=False),
                    Param("ships", Ships(), N_("The ship cards sailing, one per leg, by name, e.g. Rhea,Titan,Ceres: "
                                               "the companion adds up their points for the sea (a card is typed once)."),
                          option=True, required=False, metavar="A,B,C")],
         _voyage_event, prepare=_voyage_prepare, done=_staged,
         examples=["voyage Ann baltic --ships Rhea,Titan,Ceres --class 1", "voyage Ann baltic --value 12 --class 1"],
         help=N_("NAME stages a voyage in SEA (baltic, mediterranean, atlantic, pacific); the turn ends."),
         phone=N_("Stage a voyage"), allowed=_turn(lambda at, player: bool(_seas_to_sail(
             At(at.session, at.replay, player, {"player": player}, at.host)))), why_not=_turn_why),
    Move("loan", [_player_param(), Param("sea", Sea(_seas_with_voyage), N_("The sea of the voyage.")),
                  Param("amount", Marks(), N_("Whole thousands of marks.")),
                  Param("which", Number(), N_("Which of NAME's two voyages in SEA (1 or 2)."), flags=["--voyage"],
                        required=False, metavar="N"),
                  Param("preview", Flag(), N_("Show the place and victory points before and after; record nothing."))],
         _loan_event, prepare=_loan_prepare, done=_borrowed, examples=["loan Ann baltic 5000"],
         help=N_("Borrow AMOUNT (whole thousands) against NAME's voyage in SEA, first thing in the turn."),
         phone=N_("Take a loan on a voyage (first thing in your turn)"), allowed=_turn(_loan_room), why_not=_turn_why,
         verb=N_("Borrow"), more=True),
]


def agency_view(at) -> list:
    return [Table([_("space"), _("ship")], [[marks(a["price"]), a["card"] or _("(not typed)")]
                                            for a in at.state["agency"]],
                  title=_("Charter agency"), right=[0])]


SCREENS = [
    Screen("agency", agency_view, json=lambda at: at.status["agency"],
           help=N_("Show the charter agency: the four spaces with their prices and the ships' names if typed.")),
]
def ship_cards(at) -> None:
    """`data setup atlantic-star`, after the victory points: the ship cards typed one after
    another, each its name then its entry for every sea, remembered for every later game; Enter
    when there is no card left to type. A card typed already is said, not asked."""
    store = at.host.store
    order = cards.seas(store)
    at.tell([Line(_("Ship cards ({count} typed so far): type each card's name, then its entry for each sea "
                    "({seas}): the points a leg earns there, M on a mail ship, X where it earns none. Enter alone "
                    "when there is no card left to type.").format(count=len(cards.catalogue(store)),
                                                                  seas=", ".join(s.title() for s in order)))])
    count = 0
    while True:
        name = ask_card_name(at, count + 1, cards.card_key)
        if not name:
            break
        known = cards.catalogue(store).get(name)
        if known is not None:
            at.tell([Line(_("{name} is typed already ({card}): `data unset atlantic-star ships.{name}` forgets it.").format(
                name=name, card=",".join(known)))])
            continue
        cards.ask(at, name)
        count += 1
    at.tell([Line(ngettext("{count} ship card added; {total} typed in all (`data show atlantic-star` lists them).",
                           "{count} ship cards added; {total} typed in all (`data show atlantic-star` lists them).",
                           count).format(count=count, total=len(cards.catalogue(store))))])


SETUP = ship_cards
NEW = {GAME: new}
PLAYTHROUGH = {GAME: [
    "new atlantic-star --players Ann,Bob --agency Rhea,Oceana,Titan,Ceres",
    "charter Ann 1,000 --new Poseidon", "refresh Bob", "charter bob 0 --card Rhea", "charter Ann 0", "charter Bob 0",
    "charter Ann 0", "charter Bob 0", "agency", "voyage Ann baltic --cards 5,M,3 --class 1",
    "voyage Bob balt --value 12", "loan Ann baltic 3000 --preview", "loan Ann baltic 3000", "charter Ann 0",
    "status", "board",
]}
