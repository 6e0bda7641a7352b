"""What can be done in Trans Europa and Trans Amerika, declared once: `new`, `round start`,
`round end`, `pass`, `start`, `build`, and the choices made with `hand NAME --set` and
`hand NAME --return` (companion.contract.declare).

Each move builds its event under the session's write lock from the freshest state (the deal
is made there, with the session's seed) and the rules validate it. What a move says once it
is recorded never names a city of a hand that is still secret: the cities passed, returned or
recorded are private parameters (asked on the owner's private screen in the shell, never kept
in its history, hidden by `log --json` while the game is on). `hand` (a screen and two moves
under one name) and `rails` (a count, with or without a session) are written by hand.
"""

from __future__ import annotations

import click

from companion.contract.errors import CompanionError, Malformed, MissingValue, RuleError
from companion.contract.api import json_copy, player_name
from companion.contract.declare import Flag, Kind, Move, Pairs, Param, Player, record_move
from companion.games.kit import choose_private, completes_with, new_command, pass_app, private_when, session_option, show
from companion.games.trans import screens
from companion.games.trans.rails import rails
from companion.games.trans.rules import SPECIAL_IDS, TransAmerika, TransEuropa, make_round_start
from companion.games.trans.specials import MAX_PER_ROUND, SINGLE_CARDS, clash
from companion.games.trans.track import largest_missing
from companion.contract.language import N_, _, ngettext
from companion.contract.view import Line, Name, Private, message, winners

# -- new -----------------------------------------------------------------------------------------

# Help texts are translated as the terminal writes them, so each is written whole, as shown (the
# card ids and the most cards a round from specials.py, checked below).
SPECIALS_PER_ROUND_HELP = N_("With --variant special-cards: turn over N cards a round, played together (1 to 8; "
                             "default 1).")
SPECIAL_HELP = N_("The special card you turned over at the table; repeat it for several cards played together (one "
                  "of: generous, demanding, three-rails, water-single, mountain-single, return-white, "
                  "return-turquoise, return-any, rhythm-321, reveal-pink-orange, reveal-pink-brown, "
                  "reveal-brown-orange, pass-pink, pass-brown, pass-orange, pass-three, swap-hands, build-anywhere).")
# `new GAME --help` as kit.new_command writes it ("Start a TITLE session. " and `new`'s docstring)
NEW_HELP = (N_("Start a Trans Europa session. 2 to 6 players; the start player passes to the left every round."),
            N_("Start a Trans Amerika session. 2 to 6 players; the start player passes to the left every round."))
assert f"1 to {MAX_PER_ROUND};" in SPECIALS_PER_ROUND_HELP and f"(one of: {', '.join(SPECIAL_IDS)})." in SPECIAL_HELP


def _new(game) -> click.Command:
    @new_command(game)
    @click.option("--variant", type=click.Choice(["special-cards"]),
                  help=N_("Play with the special cards: one is turned over before every round."))
    @click.option("--specials-per-round", "per_round", type=int, metavar="N",
                  help=SPECIALS_PER_ROUND_HELP)
    @click.option("--scoring", type=click.Choice(["prestige", "classic"]), default="prestige", show_default=True,
                  help=N_("prestige: climb to 13 (this edition); classic: start at 13, lose your missing rails."))
    @click.option("--deal", "deal", metavar="balanced=K",
                  help=N_("House rule: redeal (verifiably) until every hand's empty-board minimum is within K "
                          "rails of the others'."))
    @click.option("--no-rail-count", "no_rail_count", is_flag=True,
                  help=N_("The players' pages (`serve`) do not show each player's missing-rail count."))
    def new(variant: str | None, per_round: int | None, scoring: str, deal: str | None, no_rail_count: bool) -> dict:
        """2 to 6 players; the start player passes to the left every round."""
        options = {"variant": variant, "scoring": scoring, "order": "rulebook", "laps": "played"}
        if per_round is not None:  # the rules check it (1 to MAX_PER_ROUND, with the variant)
            options["specials_per_round"] = per_round
        if deal is not None:
            options["balanced"] = _balanced(deal)
        if no_rail_count:
            options["rail_count"] = False
        return options

    return new


def _balanced(text: str) -> int:
    """`balanced=2` -> 2, or a usage error saying how to write it."""
    kind, sep, number = text.partition("=")
    if kind.strip().lower() != "balanced" or not sep:
        raise click.UsageError(_("--deal {text} is unknown: write --deal balanced=K, e.g. --deal balanced=2").format(
            text=repr(text)))
    try:
        value = int(number.strip())
    except ValueError:
        raise click.UsageError(_("--deal balanced={k}: K must be a whole number of rails, e.g. --deal "
                                 "balanced=2").format(k=number.strip())) from None
    if value < 0:
        raise click.UsageError(_("--deal balanced=K: K is a number of rails, 0 or more, e.g. --deal balanced=2"))
    return value


# -- the kinds of the parameters ------------------------------------------------------------------

class SpecialCard(Kind):
    """A special card's id; offered: the cards that can still join those already named."""

    metavar = "CARD"

    def read(self, text, at, param):
        card = str(text).strip().lower()
        if card not in SPECIAL_IDS:  # as Click says it of a choice
            raise Malformed(_("Invalid value for '--special': {typed} is not one of {cards}.").format(
                typed=repr(str(text).strip()), cards=", ".join(repr(c) for c in SPECIAL_IDS)))
        return card

    def options(self, at, param):
        typed = list(at.args.get(param.name) or [])
        return [(card, _("special card")) for card in SPECIAL_IDS
                if card not in typed and not any(clash(card, t) for t in typed)]


class Junction(Kind):
    """A junction of the board: a city's name (spaces need no quotes), its abbreviation or a
    coordinate (``E6``); offered: the junctions no start marker holds."""

    metavar = "JUNCTION"
    joins = True

    def read(self, text, at, param):
        board = at.game.board_of(at.data)
        return board.name(board.junction(str(text)))

    def options(self, at, param):
        board = at.game.board_of(at.data)
        taken = {m[0] for m in at.state["track"]["markers"].values()}
        return [(board.name(n), "") for n in range(len(board.xy)) if n not in taken]

    def tap(self, at, param, offered):
        """On a player's page: the board, every free junction a target, their cities ringed."""
        player = at.args.get("player") or at.viewer
        return screens.marker_tap(at, player, offered) if player else None


class Path(Kind):
    """Rails as junctions joined by '-' (commas or spaces between paths); the words are kept as
    typed and read on the board under the write lock (``_paths``). Offered: before a hyphen,
    the junctions of the builder's network (a rail must touch it); after `Madrid-`, the free
    lines out of Madrid with their cost."""

    metavar = "PATH"
    joins = True

    def read(self, text, at, param):
        return self.read_words(str(text).split(), at, param)  # as the words of a typed line

    def read_words(self, words, at, param):
        words = [str(w) for w in words if str(w).strip()]
        if not words:
            raise CompanionError(_("Give {what}: junctions joined by '-', e.g. Paris-E7-E6.").format(what=param.label))
        return words

    def options(self, at, param):
        player = at.args.get("player")
        if not player:
            return []
        typed = list(getattr(at, "typed", ()) or ())
        return build_choices(at.game, at.game.board_of(at.data), at.state, player, getattr(at, "current", "") or "",
                             typed[-1] if typed else "")

    def offered(self, at, param):
        """On a player's page: every line they may build now, with its cost (``A-B``, one a tap)."""
        player = at.args.get("player") or at.viewer
        if not player:
            return []
        from companion.games.trans.drawing import buildable

        board = at.game.board_of(at.data)
        return [(board.edge_name(e), screens.rails_word(cost))
                for e, cost in buildable(at.game, board, at.state, player)]

    def tap(self, at, param, offered):
        player = at.args.get("player") or at.viewer
        return screens.build_tap(at, player) if player else None


def build_choices(game, board, state: dict, player: str, current: str, before: str = "") -> list[tuple[str, str]]:
    """For `build NAME PATH`: after `Madrid-`, the free lines out of Madrid with their cost;
    before any hyphen, the junctions of NAME's network (a rail must touch it)."""
    from companion.games.trans.specials import single_kinds

    track = state["track"]
    built = {tuple(r["line"]) for r in track["rails"]}
    cost = board.costs(single_kinds(state))
    head, dash, _tail = current.rpartition("-")
    if not dash:
        nodes = game.network(state, board, player) if player in track["markers"] else range(len(board.xy))
        return [(board.name(n), "") for n in nodes]
    last = head.rpartition("-")[2]
    try:
        at = board.junction(last)
    except CompanionError:  # `San Diego-`: the shell split the name at its space
        try:
            at = board.junction(f"{before.rpartition('-')[2]} {last}")
        except CompanionError:
            return []
    out = []
    for n in board.adj[at]:
        e = (at, n) if at < n else (n, at)
        if e not in built:
            rails_ = cost.get(e, 1)
            out.append((f"{head}-{board.name(n)}", screens.rails_word(rails_)))
    return out


# the cities a card lets a player choose now, by the event the choice records
_DUE = {"pass": ("pass-colour", "pass-three"), "hand-return": ("return",)}


class HandCity(Kind):
    """One of the player's own cities, for the event ``etype`` (a pass, a city put back).

    Private: offered only to its owner (a phone's buttons, from the owner's view); in the shell
    it is asked on the owner's private screen, where a refusal of the rules is said, and asked
    again (``read`` checks the very event that will be recorded, on the current state)."""

    metavar = "CITY"
    joins = True  # `pass Ann San Diego`: the city's words need no quotes

    def __init__(self, etype: str, question: str):
        self.etype, self.asked = etype, question

    def question(self, param, at):
        """The private screen's question, once nothing else is in the way: a player with nothing
        to choose now is told why on the shared screen (the rules say it) and never asked."""
        game, state = at.game, at.full
        player = at.args.get("player")
        pending = state.get("pending") or {}
        if pending.get("kind") not in _DUE[self.etype] or player not in game.waiting(state):
            game.apply(state, {"type": self.etype, "player": player, "city": ""}, at.data)
            raise CompanionError(_("{name} has nothing to choose now: {what}").format(
                name=player, what=screens.shell_words(at.host, game.pending_text(state))))
        at.choosing = param.name  # what is typed now is checked on the private screen
        return _("{question} (one of your cities): ").format(question=_(self.asked))

    def read(self, text, at, param):
        answer = str(text).strip()
        if getattr(at, "choosing", None) == param.name:
            if not answer:
                raise CompanionError(_("Type one of your cities."))
            at.game.apply(at.full, {"type": self.etype, "player": at.args.get("player"), "city": answer}, at.data)
        elif not answer:
            raise CompanionError(_("Give {what}.").format(what=param.label))
        return answer

    def options(self, at, param):
        player = at.args.get("player") or at.viewer
        if not player:
            return []
        return [(c, "") for c in screens.choosable(at.game, at.state, at.data, player)]


class Cities(Kind):
    """A hand as typed at the table: cities separated by commas (spaces need no quotes)."""

    metavar = "CITY,..."
    joins = True

    def read(self, text, at, param):
        return [c.strip() for c in str(text).split(",") if c.strip()]


# -- round start ----------------------------------------------------------------------------------

def ask_colour(at, key: str) -> None:
    """In the shell: which of this board's colours a special card's colour means (kept for later).

    The question is said on a line of its own and the prompt is short, so neither is broken
    mid-word at 80 columns; a colour the board lacks, or a blank answer, is answered in one
    line and asked again; Ctrl-C stops, recording nothing."""
    named = key.split(".", 1)[1]
    colours = list(at.data["colours"])
    game_id = at.session.meta["game"]

    def parse(text: str) -> str:
        answer = text.strip().lower()
        if answer not in colours:
            said = _("{typed} is not one of this board's colours: {colours}.") if text else \
                _("Type one of this board's colours: {colours}.")
            raise ValueError(said.format(typed=repr(text), colours=", ".join(colours)))
        return answer

    show([Line(_("The card names {colour}: which of this board's colours is it?").format(colour=named))])
    answer = at.ask_until(_("Colour ({colours}): ").format(colours=", ".join(colours)), parse)
    store = at.host.store
    with store.writing():
        store.set_user_value(game_id, key, answer)
    show([screens.say(_("Kept: the card's {named} is this board's {colour} (`data show {game}`).").format(
        named=named, colour=answer, game=game_id))])


def _ask_colours(at) -> None:
    """Before the deal, in the shell: the board colours the round's cards name that nobody has
    said yet, each asked once (a dry run of the round's start, the deal left out)."""
    from companion.games.trans.counting import with_supplied

    if not at.can_ask():
        return
    state, meta = at.full, at.session.meta
    for _try in range(12):
        def dry(data):
            event = make_round_start(state, data, meta["seed"], meta.get("entropy", ""), at.session.id,
                                     special=list(at.args["specials"]), physical=True)
            at.game.apply(state, event, data)

        try:
            with_supplied(at.host, at.session, at.data, dry)
        except MissingValue as missing:
            if not missing.key.startswith("colour_aliases."):
                return  # the round start itself says what is missing
            ask_colour(at, missing.key)
            continue
        except CompanionError:
            return  # refused for another reason: the round start says it
        return


def _round_start_event(at) -> dict:
    from companion.games.trans.counting import with_supplied

    session, replay = at.session, at.replay
    physical, specials, unbalanced = at.args["physical"], list(at.args["specials"]), at.args["unbalanced"]
    meta = session.meta
    variant = replay.state.get("variant") == "special-cards"
    if session.revealed and (not physical or (variant and not specials)):
        per_round = replay.state.get("specials_per_round") or 1
        said = _("The deal seed of session {id} was shown (`verify`), so anyone may know what it deals: no new "
                 "deal comes from it. Deal at the table with `round start --physical`.")
        if variant:
            said = ngettext("The deal seed of session {id} was shown (`verify`), so anyone may know what it deals: "
                            "no new deal comes from it. Deal at the table with `round start --physical` and "
                            "`--special CARD` for the card you turn over.",
                            "The deal seed of session {id} was shown (`verify`), so anyone may know what it deals: "
                            "no new deal comes from it. Deal at the table with `round start --physical` and "
                            "`--special CARD` for each of the {n} cards you turn over.", per_round)
        raise CompanionError(said.format(id=session.id, n=per_round))

    def make(data):
        return make_round_start(replay.state, data, meta["seed"], meta.get("entropy", ""), session.id,
                                special=specials, physical=physical, unbalanced=unbalanced)

    event, frozen = with_supplied(at.host, session, replay.data, make)
    if frozen:
        event["_data"] = frozen
    return event


def _round_started(outcome) -> list:
    status = outcome.status
    players = [p["name"] for p in status["players"]]
    game = outcome.session.game
    out: list = [Line(*message(_("Round {n} started: {name} starts."), n=status["round"],
                               name=Name(status["start_player"])))]
    out += screens.special_lines(status, game, outcome.state)
    balance = status.get("balance")
    if balance:
        said = _("Balanced deal (house rule, within {k} rails): every hand needs {easiest} to {hardest} rails on "
                 "the empty board ({deals} deals made; `verify` re-derives every one).") if balance["deals"] > 1 \
            else _("Balanced deal (house rule, within {k} rails): every hand needs {easiest} to {hardest} rails on "
                   "the empty board (the first deal kept; `verify` re-derives every one).")
        out.append(screens.say(said.format(k=status["balanced"], easiest=balance["easiest"],
                                           hardest=balance["hardest"], deals=balance["deals"])))
    if outcome.args["physical"]:
        out.append(screens.say(_("Deal the cities at the table. To keep them on record, each player may type "
                                 "`hand NAME --set CITY,CITY,...`.")))
    else:
        out.append(screens.say(_("Cities dealt: each player looks at their own with `hand NAME`.")))
    if status["pending"]:
        out += screens.now_line(outcome.at.host, game.pending_text(outcome.state), players=players)
    else:
        out.append(screens.say(_("Start markers, if you record the board: `start NAME JUNCTION` ({name} "
                                 "first).").format(name=status["start_player"]), players))
    return out


# -- round end -----------------------------------------------------------------------------------

def _ask_missing(at, winners: list[str], missing: dict[str, int], rails_out: bool) -> None:
    """In the shell, ask for the missing rails of every non-winner left out (script mode refuses).

    Each question says what it accepts and comes back until the answer fits: a typo never drops
    the round end, and an answer is never run as a command. Ctrl-C cancels the round end.
    """
    if not at.can_ask():
        return
    players = at.players
    named = set()
    for name in list(winners) + list(missing):
        try:
            named.add(player_name(players, name))
        except CompanionError:
            return  # the rules will refuse the unknown name in one line
    if not winners and not rails_out:
        return
    data = at.data
    box = data.get("rails")
    top = box if isinstance(box, int) and box > 0 else None
    if top and at.full.get("rulebook_order"):  # the round end refuses more than the board allows
        try:
            top = min(top, largest_missing(data, at.session.meta["game"]))
        except CompanionError:
            pass
    accepts = f"1-{top}" if top else "1 or more"

    def count(p: str):
        def parse(text: str) -> int:
            if not text.isdigit() or not 1 <= int(text) <= (top or int(text)):
                if top:
                    said = _("{typed} is not {name}'s missing rails: a whole number from 1 to {top} (a double line "
                             "counts 2).") if text else \
                        _("Type {name}'s missing rails: a whole number from 1 to {top} (a double line counts 2).")
                else:
                    said = _("{typed} is not {name}'s missing rails: a whole number of 1 or more (a double line "
                             "counts 2).") if text else \
                        _("Type {name}'s missing rails: a whole number of 1 or more (a double line counts 2).")
                raise ValueError(said.format(typed=repr(text), name=p, top=top))
            return int(text)
        return parse

    for p in players:
        if p not in named:
            missing[p] = at.ask_until(_("Missing rails for {name} ({accepts}): ").format(
                name=p, accepts=accepts if top else _("1 or more")), count(p))


TWO_WINNERS = N_("the rulebook's only case of two winners: the first rail of a player's turn completes another "
                  "player's cities, and that player then completes their own in the same turn")


def _confirm_two_winners(at, winners: list[str]) -> None:
    """Two winners with no board recorded: the shell asks whether it was the rulebook's only
    case (a slip of `--winner` is likelier); `n` stops, recording nothing. On the board the
    rules see it themselves, and a command line given in full is taken as typed."""
    named = []
    for name in winners:
        try:
            who = player_name(at.players, name)
        except CompanionError:
            return  # the rules refuse the unknown name in one line
        if who not in named:
            named.append(who)
    if len(named) < 2 or at.full["track"]["rails"] or not at.can_ask():
        return

    def yes_no(answer: str) -> bool:
        if answer.casefold() in ("y", "yes"):
            return True
        if answer.casefold() in ("", "n", "no"):
            return False
        raise ValueError(_("Type y or n."))

    at.tell([screens.say(_("{names} both win this round? That is {case}.").format(
        names=screens.and_list(named), case=_(TWO_WINNERS)), named)])
    if not at.ask_until(_("Is that what happened? [y/N] "), yes_no):
        raise CompanionError(_("Nothing was recorded: name the one winner, e.g. `round end --winner {name}`.").format(
            name=named[0]))


def _round_end_asks(at) -> None:
    from companion.games.trans import single as singles

    args = at.args
    state = at.full
    if at.replay.over:  # a finished or abandoned game: the record refuses it in its own words
        return
    if not state["round_open"]:  # refused before any question: nothing to score
        raise RuleError(_("No round is open: start one with `round start`."))
    if state["pending"]:
        raise RuleError(_("The deal is not finished: {what}").format(what=at.game.pending_text(state)))
    refuse_cutting_short(at.game, state)  # before any question
    counts = dict(args.get("missing") or {})
    if args["auto"] and counts:
        raise click.UsageError(_("--auto counts the missing rails on the board: drop --missing."),
                               ctx=click.get_current_context(silent=True))
    winners = list(args.get("winners") or [])
    if not args["auto"]:
        _confirm_two_winners(at, winners)
    if args["auto"]:
        if at.can_ask():
            singles.ask_before_round_end(at.host, at.game, at.full, at.data, winners, args["rails_out"])
    else:
        _ask_missing(at, winners, counts, args["rails_out"])
    args["missing"] = counts


FINISH_LINE = N_("you may still finish your current turn before the round ends")  # seed 000, the special case


def refuse_cutting_short(game, state: dict) -> None:
    """`round end` while a builder still finishes the turn in which another player connected
    (the special case) is refused, naming how to end that turn: the turn's next rail could
    still make the builder a co-winner, so the round is not scored behind their back. Chosen
    over a question in the shell so that a script and the shell say the same (docs/trans.md)."""
    who = game.finishing(state)
    if who is None:
        return
    left = game.rails_worth_left(state, who)
    connected = screens.and_list([p for p in state["track"]["connected"] if p != who])
    raise RuleError(_("{name} is still finishing the turn in which {connected} connected ({worth} left; rulebook: "
                      "\"{quote}\"): `build {name} ...`, or `end-turn {name}` if {name} places no more; then `round "
                      "end --auto`.").format(name=who, connected=connected, worth=screens.worth(left),
                                             quote=_(FINISH_LINE)))


def _round_end_event(at) -> dict:
    from companion.games.trans.counting import with_supplied
    from companion.games.trans import single as singles

    args = at.args
    winners, rails_out = list(args.get("winners") or []), bool(args["rails_out"])
    refuse_cutting_short(at.game, at.replay.state)
    if not args["auto"]:
        event = {"type": "round-end", "winners": winners, "missing": dict(args.get("missing") or {})}
        if rails_out:
            event["rails_out"] = True
        return event
    session, replay = at.session, at.replay

    def count(data):
        return session.game.auto_result(replay.state, data, winners, rails_out)

    # the lines counting single the players said since the session began count too
    values, laid = singles.with_supplied(at.host.store, session.meta["game"], replay.data)
    result, frozen = with_supplied(at.host, session, values, count)
    frozen = {**laid, **frozen}
    made = {"type": "round-end", "auto": True, "winners": result["winners"], "missing": result["missing"]}
    if result["rails_out"]:
        made["rails_out"] = True
    if frozen:
        made["_data"] = frozen
    return made


def _round_ended(outcome) -> list:
    from companion.games.trans import single as singles

    status = outcome.status
    game = outcome.session.game
    last = status["history"][-1]
    players = [p["name"] for p in status["players"]]
    results = []
    for p in status["players"]:
        name = p["name"]
        if name in last["winners"]:
            said = _("{name} {points:+d} (connected)")
        else:
            said = _("{name} {points:+d} ({n} missing)")
        results.append(Name(said.format(name=name, points=last["points"][name], n=last["missing"].get(name))))
    # every line fits the screen, a player's result and a city never broken inside (issue 15 walk)
    said = _("The rails ran out. Round {n} scored: {results}.") if last["rails_out"] else \
        _("Round {n} scored: {results}.")
    out: list = [Line(*message(said, n=last["round"], results=_commas(results)))]
    if last.get("auto"):
        counted = [c["id"] for c in status["specials"] if c["id"] in SINGLE_CARDS]
        if counted:
            said = ngettext("Missing rails counted exactly on the recorded board, {built} rails built (the {cards} "
                            "card counted).",
                            "Missing rails counted exactly on the recorded board, {built} rails built (the {cards} "
                            "cards counted).", len(counted))
        else:
            said = _("Missing rails counted exactly on the recorded board, {built} rails built.")
        out.append(Line(said.format(built=status["rails_built"], cards=_(" and ").join(counted))))
        note = singles.round_end_note(game, outcome.before["state"], outcome.replay.data, last["missing"])
        if note:
            out.append(note)
    out.append(Line(*message(_("Totals: {totals}."),
                             totals=_commas([Name(f"{p['name']} {p['score']}") for p in status["players"]]))))
    hands = game.public_hands(outcome.state) or {}
    if any(hands.values()):
        said: list = []
        for p, cities in hands.items():
            if cities:
                said += (["; "] if said else []) + [Name(p), ": ", *_commas([Name(c) for c in cities])]
        out.append(Line(*message(_("The hands were: {hands}."), hands=said)))
    if status["finished"]:
        out += winners(status)
    else:
        out.append(screens.say(_("Next: `round start` ({name} starts).").format(name=status["start_player"]),
                               players))
    return out


def _commas(items: list) -> list:
    out: list = []
    for i, item in enumerate(items):
        out += ([", "] if i else []) + [item]
    return out


# -- the choices a special card asks for -------------------------------------------------------

def _may_choose(kinds: tuple[str, ...]):
    def allowed(at, player: str) -> bool:
        state = at.full
        return bool(state.get("round_open") and (state.get("pending") or {}).get("kind") in kinds
                    and player in at.game.waiting(state))
    return allowed


def _choice_why(etype: str):
    """What a page says when a player has no city to choose now: the rules' words, as the
    shell says them (`pass Ann` with nothing to pass)."""
    def why(at, player: str) -> str:
        try:
            at.game.apply(at.full, {"type": etype, "player": player, "city": ""}, at.data)
        except CompanionError as exc:
            return _("{name} has nothing to choose now: {what}").format(name=player, what=exc.message)
        return _("{name} has nothing to choose now.").format(name=player)
    return why


def _hand_while_choosing(at, player: str) -> list:
    """What the chooser sees on their private screen: their own hand (the question says what
    is due)."""
    return screens.hand_view(at.game, at.full, at.data, player, due=False)


def _passed(outcome) -> list:
    who = outcome.event["player"]
    pending = outcome.session.game.pending_text(outcome.state)
    return [Line(*message(_("{name}'s choice is recorded."), name=Name(who))),
            *screens.now_line(outcome.at.host, pending, _("All cards are passed: the round can be played."),
                              outcome.at.players)]


def _returned(outcome) -> list:
    who = outcome.event["player"]
    game = outcome.session.game
    pending = game.pending_text(outcome.state)
    return [Line(*message(_("{name} put a city back and plays with {n}."), name=Name(who),
                          n=game.hand_size(outcome.state, who))),
            *screens.now_line(outcome.at.host, pending, _("Everyone has chosen: the round can be played."),
                              outcome.at.players)]


def _hand_recorded(outcome) -> list:
    who = outcome.event["player"]
    n = outcome.session.game.hand_size(outcome.state, who)
    return [Line(*message(ngettext("{name}'s hand recorded ({n} city).", "{name}'s hand recorded ({n} cities).",
                                   n or 0), name=Name(who), n=n))]


# -- the board: start markers and rails ------------------------------------------------------------

def _placed(outcome) -> list:
    status = outcome.status
    who, junction = outcome.event["player"], outcome.event["junction"]
    out: list = [Line(*message(_("{name}'s start marker is on {junction}."), name=Name(who), junction=Name(junction)))]
    players = [p["name"] for p in status["players"]]
    first = players.index(status["start_player"])
    waiting = [p for p in players[first:] + players[:first]
               if next(q for q in status["players"] if q["name"] == p)["start"] is None]
    if waiting:
        said = _("Next: `start {name} JUNCTION` (then {others}).") if waiting[1:] else \
            _("Next: `start {name} JUNCTION`.")
        out.append(screens.say(said.format(name=waiting[0], others=screens.and_list(waiting[1:])), players))
    else:
        out.append(screens.say(_("Every start marker is down: {name} builds first, e.g. `build NAME "
                                 "JUNCTION-JUNCTION-...`.").format(name=status["start_player"]), players))
    return out


def _paths(board, words: list[str]) -> list[str]:
    """The typed paths, each as junction names joined by '-' in the order typed.

    Several paths are separated by commas (`Paris-E6,Lyon-F8`). Words are joined with spaces
    first, so `San Diego-D11` needs no quotes; if that does not read, each word is tried as a
    path of its own (`Paris-E6 Lyon-F8`).
    """
    def read(texts, whole: bool) -> list[str]:
        out = []
        for text in texts:
            for part in text.split(","):
                if part.strip():
                    nodes = board.path_junctions(part)
                    if not whole and len(nodes) < 2:
                        raise RuleError(_("{typed} is not a path").format(typed=repr(part.strip())))
                    out.append("-".join(board.name(n) for n in nodes))
        return out

    try:
        return read([" ".join(words)], True)
    except CompanionError:
        if len(words) < 2:
            raise
        try:
            return read(words, False)
        except CompanionError:
            pass
        raise


def _build_event(at) -> dict:
    from companion.games.trans import single as singles

    session, replay = at.session, at.replay
    board = at.game.board_of(replay.data)
    made = {"type": "build", "player": at.args["player"], "paths": _paths(board, list(at.args["path"]))}
    store = getattr(at.host, "store", None)
    if store is not None:
        _values, laid = singles.with_supplied(store, session.meta["game"], replay.data)
        if laid:  # the ferry and the tunnel, said since the session began, count 1 of a turn
            made["_data"] = laid
    return made


def _before_build(state: dict) -> dict:
    return {"connected": list(state["track"]["connected"]), "rails": len(state["track"]["rails"])}


def _built(outcome) -> list:
    status = outcome.status
    who = outcome.event["player"]
    placed = status["rails_built"] - outcome.before["rails"]
    paths: list = []
    for i, p in enumerate(outcome.event["paths"]):
        paths += ([", "] if i else []) + screens.path_parts(p)
    said = ngettext("{name} built {n} rail: {paths} ({board}).", "{name} built {n} rails: {paths} ({board}).", placed)
    out: list = [Line(*message(said, name=Name(who), n=placed, paths=paths, board=screens.rails_on_board(status)))]
    players = [p["name"] for p in status["players"]]
    for warning in (out_of_turn_warning(status, placed), allowance_warning(status)):
        if warning:  # styled `warn`: a phone that built is shown it too
            out.append(screens.say(warning, players, style="warn"))
    out += [screens.say(line, players) for line in ending_lines(status, outcome.before["connected"])]
    return out


def out_of_turn_warning(status: dict, placed: int) -> str:
    """A build that began a turn out of the rulebook's order: recorded (a board typed in
    after the game, or the table's own order, may be right), but said, naming whose turn the
    recorded turns make it (rulebook: "The starting player begins, then play continues in
    turn."). The phones offer rails to that player only."""
    turn = status.get("turn")
    due = (turn or {}).get("out_of_turn")
    if not due or turn["rails"] != placed:  # said once, by the build that began the turn
        return ""
    who = turn["player"]
    return _("Note: by the turns recorded it was {due}'s turn to build, not {name}'s; this is taken as {name}'s "
             "turn all the same (their lap {lap}). If {due} built, `undo` and `build {due} ...`.").format(
        due=due, name=who, lap=turn["lap"])


def allowance_warning(status: dict) -> str:
    """A turn that placed more than it allows: said, never refused (the table may know better)."""
    turn = status.get("turn")
    if not turn or turn["used"] <= turn["allowed"]:
        return ""
    cards = [c["id"] for c in status.get("specials") or []]
    if "three-rails" in cards:
        said = _("Warning: that makes {used} rails' worth in {name}'s turn (a double line counts 2); a turn allows "
                 "{allowed} under the three-rails card. Recorded anyway: `undo` takes it back.")
    elif "rhythm-321" in cards:
        said = _("Warning: that makes {used} rails' worth in {name}'s turn (a double line counts 2); a turn allows "
                 "{allowed} on lap {lap} of the 3-2-1 card. Recorded anyway: `undo` takes it back.")
    else:
        said = _("Warning: that makes {used} rails' worth in {name}'s turn (a double line counts 2); a turn allows "
                 "{allowed}. Recorded anyway: `undo` takes it back.")
    return said.format(used=turn["used"], name=turn["player"], allowed=turn["allowed"], lap=turn["lap"])


def ending_lines(status: dict, connected_before: list[str]) -> list[str]:
    """What a build changed about the round: someone connected, the rails ran out."""
    new = [p for p in status["connected"] if p not in connected_before]
    lines = []
    and_list = screens.and_list
    if new:
        lines.append(ngettext("{names} has connected all their cities.", "{names} have connected their cities.",
                              len(new)).format(names=and_list(new)))
        if status["finishing"]:
            who = status["finishing"]
            lines.append(_("The round ends after {name}'s turn: {name} connected them with the turn's first rail, "
                           "so {name} may place the rest of this turn (`build {name} ...`), then `round end "
                           "--auto`.").format(name=who))
        else:
            lines.append(round_ended_line(status))
    elif status["rails_out"]:
        lines.append(_("Every rail is on the board and nobody connected: the round has ended. Score it with "
                       "`round end --auto`."))
    elif status["round_over"] and status["connected"]:  # the turn someone connected in is spent
        lines.append(round_ended_line(status))
    return lines


def round_ended_line(status: dict) -> str:
    joined = status["connected"]
    if len(joined) == 1:
        return _("The round has ended: {name} wins it. Score it with `round end --auto`.").format(name=joined[0])
    return _("The round has ended: {names} both win it. Score it with `round end --auto`.").format(
        names=screens.and_list(joined))


# -- the declarations ------------------------------------------------------------------------------

_PLAYER = Param("player", Player(), N_("The player."), metavar="NAME")
PASS_MISSING = N_("Name the city: pass NAME CITY (in the shell, on a terminal, the city is chosen on the "
                  "private screen).")

PASS = Move(
    "pass",
    [_PLAYER, Param("city", HandCity("pass", N_("City to pass")), N_("The city you pass to your left neighbour."),
                    private=True, missing=PASS_MISSING)],
    lambda at: {"type": "pass", "player": at.args["player"], "city": at.args["city"]},
    help=N_("Pass a city to the left neighbour, as a pass special card asks: in the shell `pass Ann` "
            "asks Ann on the private screen; in a script `pass Ann Dallas`."),
    phone=True, allowed=_may_choose(_DUE["pass"]), private_view=_hand_while_choosing, done=_passed,
    why_not=_choice_why("pass"), verb=N_("Pass it"),
    examples=["pass Ann"],
)
HAND_RETURN = Move(
    "hand return",
    [_PLAYER, Param("city", HandCity("hand-return", N_("City to put back")),
                    N_("The city you put back: you play with the other four."), private=True)],
    lambda at: {"type": "hand-return", "player": at.args["player"], "city": at.args["city"]},
    help=N_("Put one city back: the return-any special card (typed as `hand NAME --return [CITY]`)."),
    phone=True, allowed=_may_choose(_DUE["hand-return"]), private_view=_hand_while_choosing, done=_returned,
    why_not=_choice_why("hand-return"), verb=N_("Put it back"),
    hidden=True,
)
HAND_SET = Move(
    "hand set",
    [_PLAYER, Param("cities", Cities(), N_("The cities dealt at the table, separated by commas."), private=True)],
    lambda at: {"type": "hand-set", "player": at.args["player"], "cities": list(at.args["cities"])},
    help=N_("Record the hand dealt at the table in a physical round (typed as `hand NAME --set CITY,...`)."),
    done=_hand_recorded, hidden=True,
)

def _may_start(at, player: str) -> bool:
    """A start marker from a phone: the round dealt, no rail built, the player's marker not
    down, and (in the rulebook's order) the player's turn to place it."""
    state = at.full
    track = state["track"]
    if not state["round_open"] or state.get("pending") or track["rails"] or player in track["markers"]:
        return False
    return not state.get("rulebook_order") or at.game.marker_due(state) == player


def _dry_refusal(at, event: dict) -> str | None:
    """What the rules say of ``event`` now, as the shell would say it (None: accepted)."""
    try:
        at.game.apply(at.full, event, at.data)
    except CompanionError as exc:
        return exc.message
    return None


def _start_why(at, player: str) -> str:
    board = at.game.board_of(at.data)
    taken = {m[0] for m in at.full["track"]["markers"].values()}
    free = next((board.name(n) for n in range(len(board.xy)) if n not in taken), "")
    said = _dry_refusal(at, {"type": "marker", "player": player, "junction": free})
    return said or _("{name} cannot place a start marker now.").format(name=player)


def _may_build(at, player: str) -> bool:
    """Rails from a phone: the player's turn to build, as the rules infer the turns."""
    return at.game.builder(at.full) == player


def _build_why(at, player: str) -> str:
    state, game = at.full, at.game
    said = _dry_refusal(at, {"type": "build", "player": player, "paths": []})
    if said and not said.startswith(_("Say which rails")):
        return said
    if game.round_over(state):
        return _("The round is over on the board: it is scored (`round end --auto`).")
    due = game.builder(state)
    if due:
        return _("It is {due}'s turn to build, not {name}'s.").format(due=due, name=player)
    return _("{name} cannot build now.").format(name=player)


def _may_end_turn(at, player: str) -> bool:
    state = at.full
    turn = state["track"]["turn"]
    return bool(at.game.builder(state) == player and turn and turn["player"] == player and turn["used"] > 0
                and not at.game.turn_spent(turn))


def _ended_turn(outcome) -> list:
    status = outcome.status
    who = outcome.event["player"]
    nxt = outcome.session.game.builder(outcome.state)
    said = _("{name} ended their turn. {next} builds next.") if nxt else _("{name} ended their turn.")
    out = [Line(*message(said, name=Name(who), next=Name(nxt or "")))]
    if status["round_over"] and status["connected"]:  # the turn someone connected in was theirs
        out.append(Line(round_ended_line(status)))
    return out


def _score_the_round(outcome) -> dict | None:
    """After a build or an ended turn on a phone: the round the board ended scores itself
    (`round end --auto`)."""
    if outcome.session.game.round_over(outcome.state):
        return {"winners": [], "rails_out": False, "missing": {}, "auto": True}
    return None


ROUND_END = Move(
    "round end",
    [Param("winners", Player(), N_("A player who connected all their cities (twice for two winners)."),
           flags=("--winner",), many=True, required=False, metavar="NAME"),
     Param("rails_out", Flag(), N_("The rails ran out and nobody connected.")),
     Param("missing", Pairs("N", note=N_("missing rails")), N_("Rails a player still needed (a double line counts "
           "2); one for every non-winner."), option=True, many=True, required=False, metavar="NAME=N"),
     Param("auto", Flag(), N_("Count everyone's missing rails exactly on the recorded board (`start` and "
           "`build`)."))],
    _round_end_event,
    help=N_("Score the round: `round end --auto`, or `round end --winner Ann --missing Bob=2 --missing Cy=5`."),
    actor=None, prepare=_round_end_asks, before=lambda state: {"state": json_copy(state)}, done=_round_ended,
    examples=["round end --auto"])

def _may_deal(at, player: str) -> bool:
    """A round dealt from a phone: the start player's, between rounds, by the app (its seed not
    shown: `verify --reveal` leaves the dealing to the table)."""
    state = at.full
    return (not state["round_open"] and not state["finished"] and not at.session.revealed
            and at.game.start_player(state) == player)


def _deal_why(at, player: str) -> str:
    state = at.full
    if state["round_open"]:
        return _("Round {n} is being played.").format(n=state["round"])
    if at.session.revealed:
        return _("The deal seed was shown: the table deals its own cards (`round start --physical` on the laptop).")
    return _("{name} starts the next round: the deal is on {name}'s phone.").format(name=at.game.start_player(state))


MOVES = [
    Move("round start",
         [Param("physical", Flag(), N_("The cities are dealt at the table, not by the app."), page=False),
          Param("specials", SpecialCard(), SPECIAL_HELP, flags=("--special",), many=True, required=False,
                metavar="CARD", page=False),
          Param("unbalanced", Flag(), N_("With --deal balanced=K: deal this round once, plainly (when no balanced "
                "deal is found)."), page=False)],
         _round_start_event,
         help=N_("Deal the next round: one city of each colour to everyone, and the special card(s) if any."),
         actor=None, prepare=_ask_colours, done=_round_started, examples=["round start --physical"],
         phone=N_("Deal the next round"), allowed=_may_deal, why_not=_deal_why, verb=N_("Deal the cities")),
    ROUND_END,
    PASS,
    HAND_SET,
    HAND_RETURN,
    Move("start", [_PLAYER, Param("junction", Junction(), N_("A free junction: a city, its abbreviation or E6."))],
         lambda at: {"type": "marker", "player": at.args["player"], "junction": at.args["junction"]},
         help=N_("Place NAME's start marker on a free junction: `start Ann Paris` or `start Ann E6`."),
         records="marker", done=_placed, examples=["start Ann E6"],
         phone=N_("Your start marker"), allowed=_may_start, why_not=_start_why, verb=N_("Place it here")),
    Move("build", [_PLAYER, Param("path", Path(), N_("Junctions joined by '-', paths separated by commas."))],
         _build_event,
         help=N_("Record NAME's rails, as junctions joined by '-': `build Ann Paris-E7-E6` (commas for more)."),
         before=_before_build, done=_built, examples=["build Ann E6-E7"],
         phone=N_("Your rails"), allowed=_may_build, why_not=_build_why, verb=N_("Build it"),
         then=(ROUND_END, _score_the_round)),
    Move("end-turn", [_PLAYER],
         lambda at: {"type": "turn-end", "player": at.args["player"]},
         help=N_("End NAME's turn of rails before its whole allowance is placed (2 rails' worth a turn): "
                 "the next player builds."),
         records="turn-end", done=_ended_turn, examples=["end-turn Ann"],
         phone=N_("End your turn now"), allowed=_may_end_turn, verb=N_("End my turn"),
         then=(ROUND_END, _score_the_round)),
]
GROUPS = {"round": N_("Start a round (the deal) or end it (the scoring): `round start`, `round end ...`.")}


# -- hand: a screen and two moves under one name ------------------------------------------------------

def _refused_privately(app, again: str, secrets: list[str], make):
    """Record a move that carries a private card. In the shell, a refusal naming that card is
    replaced by one that neither confirms nor denies what is in anyone's hand."""
    try:
        return make()
    except RuleError as exc:
        if not app.interactive or not any(c.strip() and c.strip().casefold() in exc.message.casefold()
                                          for c in secrets):
            raise
        raise CompanionError(_("That choice was refused and nothing was recorded. Type `{again}` to choose on the "
                               "private screen, where the reason is shown.").format(again=again)) from None


def _choose_returned(app, name: str) -> str:
    """The city ``name`` puts back, asked on the private screen until the rules accept it."""
    from companion.contract.declare import At

    if app.choose_private is None:
        raise click.UsageError(_("Name the city: hand NAME --return CITY (in the shell, on a terminal, the city is "
                                 "chosen on the private screen)."))
    s = app.session()
    _seen, replay = app.loaded(s.id)
    at = At(s, replay, None, {"player": player_name(s.players, name)}, app)
    param = HAND_RETURN.param("city")
    question = param.kind.question(param, at)
    return choose_private(at.args["player"], _hand_while_choosing(at, at.args["player"]), question,
                          lambda answer: param.kind.read(answer, at, param))


def _hand_words_private(words: list[str]) -> bool:
    """`hand NAME --set ...` and `hand NAME --return CITY` name private cards (not `--return`
    alone, which asks on the private screen)."""
    return any(w.startswith(("--set", "--return")) for w in words) and not words[-1] == "--return"


@private_when(_hand_words_private)
@click.command(help=N_("Show NAME's cities privately; or record them (--set), or put one back (--return)."))
@click.argument("name")
@click.argument("more", nargs=-1, required=False)
@click.option("--set", "cities", metavar="CITY,...", help=N_("Record the hand dealt at the table (physical rounds)."))
@click.option("--return", "returned", metavar="CITY", is_flag=False, flag_value="",
              help=N_("Put this city back (the 'return-any' special card); in the shell `--return` alone "
                      "asks on the private screen."))
@click.option("--print", "plain", is_flag=True, help=N_("Print the hand plainly, not on the private screen."))
@session_option
@pass_app
def hand(app, name: str, more: tuple[str, ...], cities: str | None, returned: str | None, plain: bool) -> None:
    """Show NAME's cities privately; or record them (--set), or put one back (--return)."""
    if cities is not None and returned is not None:
        raise click.UsageError(_("Give --set or --return, not both."))
    if more:  # `hand Ann --set New York,Dallas` arrives split at the space: join it again
        if cities is None and returned is None:
            raise click.UsageError(_("`hand` takes one player name, not {typed}: quote a name or city with "
                                     "spaces.").format(typed=" ".join((name, *more))))
        if cities is not None:
            cities = " ".join((cities, *more))
        else:
            returned = " ".join((returned, *more)).strip()
    if cities is not None:
        given = [c.strip() for c in cities.split(",") if c.strip()]
        outcome = _refused_privately(app, f"hand {name} --set CITY,...", given,
                                     lambda: record_move(app, HAND_SET, {"player": name, "cities": given}))
        show(HAND_SET.done(outcome))
        return
    if returned is not None:
        if not returned:
            returned = _choose_returned(app, name)
        outcome = _refused_privately(app, f"hand {name} --return", [returned],
                                     lambda: record_move(app, HAND_RETURN, {"player": name, "city": returned}))
        show(HAND_RETURN.done(outcome))
        return
    s = app.session()
    _seen, replay = app.loaded(s.id)
    state = replay.state
    player = player_name(s.players, name)
    view = screens.hand_view(s.game, state, replay.data, player)
    # the shell or a terminal: the private screen, nothing left behind; a pipe or --print: plainly
    show([Private(player, view, shows=_("the cards"))] if state["round_open"] and not plain else view)


def _offer_players(session, replay, words: list[str], current: str) -> list[tuple[str, str]]:
    """`hand ` and `pass `: the players; nothing after the name (never a city of a hand)."""
    args = [w for w in words if not w.startswith("-")]
    return [(p, "") for p in session.players] if not args else []


def _offer_rails(session, replay, words: list[str], current: str) -> list[tuple[str, str]]:
    args = [w for w in words if not w.startswith("-")]
    return [(p, "") for p in session.players] + [("amerika", _("map")), ("europa", _("map"))] if not args else []


completes_with(_offer_players)(hand)
private_when(lambda words: any(w.startswith("--hand") for w in words))(rails)  # likely the typist's own cities
completes_with(_offer_rails)(rails)

COMMANDS = {"hand": hand, "rails": rails}
NEW = {"trans-europa": _new(TransEuropa), "trans-amerika": _new(TransAmerika)}
assert [NEW["trans-europa"].help, NEW["trans-amerika"].help] == list(NEW_HELP)

# A short game each, dealt at the table (no random deal): the hands typed, start markers,
# rails, a round counted on the board, a special card named at the table, a round scored by hand.
_AMERIKA_HANDS = {"Ann": "San Diego,Dallas,St. Louis,Cincinnati,Washington",
                  "Bob": "Los Angeles,Chicago,Oklahoma City,Memphis,New York",
                  "Cy": "Portland,Bismarck,Santa Fe,New Orleans,Boston",
                  "Dee": "Sacramento,Minneapolis,Omaha,El Paso,Charleston"}
_EUROPA_HANDS = {"Ann": "Glasgow,Madrid,Paris,Kyiv,Roma", "Bob": "Oslo,London,Berlin,Riga,Sofia",
                 "Cy": "Stockholm,Dublin,Wien,Minsk,Firenze", "Dee": "Helsinki,Brest,Zürich,Odessa,Istanbul"}
PLAYTHROUGH = {
    "trans-amerika": [
        "new trans-amerika --players Ann,Bob,Cy,Dee --entropy x",
        "round start --physical",
        *[f'hand {p} --set "{h}"' for p, h in _AMERIKA_HANDS.items()],
        "start Ann San Diego", "start Bob Los Angeles", "start Cy Portland", "start Dee Omaha",
        "build Ann San Diego-D11", "build Bob Los Angeles-C10", "build Cy Portland-B3", "build Dee Omaha-J5",
        "status",
        "round end --auto --winner Ann",
        "round start --physical --special three-rails",
        "round end --winner Bob --missing Ann=3 --missing Cy=2 --missing Dee=5",
        "status",
    ],
    "trans-europa": [
        "new trans-europa --players Ann,Bob,Cy,Dee --entropy x",
        "round start --physical",
        *[f'hand {p} --set "{h}"' for p, h in _EUROPA_HANDS.items()],
        "start Ann Paris", "start Bob Berlin", "start Cy Wien", "start Dee Odessa",
        "build Ann Paris-F6", "build Bob Berlin-I5",
        "status",
        "round end --auto --winner Ann",
        "status",
    ],
}
