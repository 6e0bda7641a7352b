"""Trans Europa and Trans Amerika: fair city deals, special cards, round scoring, end of game.

The two boards play by the same rules, so one class holds them and two small subclasses name
the map. Everything printed (cities, colours, charts, special cards) comes from the frozen
data pack values, never from this module, so the players can fill in what nobody here knows.

Deals are recorded, not computed, in the event: ``make_round_start`` shuffles every colour stack
(all of its cards, with :mod:`companion.core.dealing`) and the special-card deck, and the rules then
deal from those recorded orders. Dropping the dashed cards for 2 or 3 players happens here,
when the event is applied, so that a missing ``dashed`` value can be asked for and frozen into
the event by the session layer; a uniform shuffle with some cards taken out is still a uniform
shuffle of the rest, so the deal stays fair and `verify` re-derives the full-stack shuffles.

Several special cards may hold at once (seed 000's last paragraph; ``--specials-per-round N``):
the round's cards are in ``specials`` in the rulebook's order, ``special`` stays the first, and
their deal effects run one after the other, a card waiting for the players' choices holding the
next back (``effects_left``). Which cards cannot be played together, and how the digital deck
sets such a card aside, is in :mod:`companion.games.trans.specials`.

Hands are secret while a round is open: ``summary`` (which is ``status --json``) never shows
them then; ``hand_of`` is the one way to read a player's cities.

The board in a round (the "track"): start markers and rails are events like any other, so undo
takes them back. The rules refuse what the rulebook forbids (a marker on a taken junction, a
rail on a line that is not free, a rail that does not join the builder's network unless the
build-anywhere card is in force) but only note a turn that places more rails than it allows:
the table knows its turns better than the app, which only infers them (consecutive builds by
one player are one turn; laps count from the start player). After every rail the rules check
whether a player's cities are joined to their start marker: the first such rail ends the
round, except that a player whose *first* rail of the turn joins someone else's last city may
finish the turn (the rulebook's special case, the only way to two winners). Missing rails are
then counted exactly by :mod:`companion.games.trans.steiner` on the recorded board.

Balanced deals (a house rule, ``--deal balanced=K``) redeal until the hands' empty-board
minimums differ by at most K rails. Every deal tried is recorded in the event with its own
context (``.../cities-green/deal-2`` ...), so `verify` re-derives them all, and the rules check
that each rejected deal was out of balance and the one dealt is within it: nobody can fish.
"""

from __future__ import annotations

from companion.contract.language import ENGLISH, N_, _, language, ngettext, using

import unicodedata

from companion.contract.errors import CompanionError, MissingValue, RuleError, ValueConflict, game_over
from companion.contract.api import Event, Game, Setup, State, best, player_name
from companion.games.trans.track import TrackMixin, _board_cache, most_missing, rhythm_rails
from companion.games.trans.specials import (  # noqa: F401  (SPECIAL_IDS ... are read from here too)
    DEAL_EFFECTS, FOUR_CITIES, MAX_PER_ROUND, MOVES_HANDS, PASS_COLOUR, RETURN_COLOUR, REVEAL, SPECIAL_IDS,
    draw, first_clash, in_force, in_rulebook_order,
)

SCORINGS = ("prestige", "classic")
VARIANTS = (None, "special-cards")
PRESTIGE_GOAL = 13  # prestige ends after a round with someone at 13 or more
CLASSIC_START = 13  # classic editions start everyone at 13 and end at 0 or less
PASS_THREE_LAPS = 3

# What each special card does to the deal. The colours a card names are the combined edition's
# (brown, white, pink, orange, turquoise); they are in the pack and resolved per board. The
# cards, their order and which cannot be played together are in specials.py.
COMBINED_COLOURS = ("brown", "white", "pink", "orange", "turquoise")
BALANCE_TRIES = 200  # balanced deals: how many deals are tried before the app gives up
# Templates for values nobody knows: never real-looking numbers, so nobody copies one as printed.
CHART_TEMPLATE = '{"winner": W, "missing": [P1, P2, P3, P4, P5]}'


def _holds_deal(value) -> bool:
    """Whether an event holds anything shaped like a recorded deal (a dict with context, deck
    and order: companion.core.dealing.deals_in), at any depth."""
    if isinstance(value, dict):
        if "order" in value and "deck" in value and "context" in value:
            return True
        value = value.values()
    elif not isinstance(value, list):
        return False
    for v in value:
        if isinstance(v, (dict, list)) and _holds_deal(v):
            return True
    return False


# -- names -------------------------------------------------------------------------------------

def fold(text: str) -> str:
    """A city name as typed, compared without case or accents (Zurich finds Zürich)."""
    decomposed = unicodedata.normalize("NFKD", text.strip())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


# what each special card means this round (those whose words depend on the round are made in card_text)
CARD_TEXTS = {
    "generous": N_("this round is scored on the generous chart"),
    "demanding": N_("this round is scored on the demanding chart"),
    "three-rails": N_("up to 3 rails a turn (e.g. one double and one single)"),
    "water-single": N_("double lines over water count as single this round"),
    "mountain-single": N_("double lines over mountains count as single this round"),
    "return-any": N_("everyone plays with 4 cities: each puts one of their choice back"),
    "pass-three": N_("everyone passes a city left, three times, all at once"),
    "swap-hands": N_("everyone plays the hand of their right neighbour (the app passed them)"),
    "build-anywhere": N_("rails may go on any free line, connected or not"),
}
# the city cards' colours as words (the pack's ids are English words: `colours` in data/)
COLOUR_WORDS = {"yellow": N_("yellow"), "red": N_("red"), "orange": N_("orange"), "green": N_("green"),
                "blue": N_("blue")}


def colour_word(colour: str) -> str:
    """A city card's colour as the viewer's word (a colour the list lacks as the pack says it)."""
    return _(COLOUR_WORDS[colour]) if colour in COLOUR_WORDS else colour


def city_colours(data: dict) -> dict[str, str]:
    """City name -> colour, in the pack's order."""
    return {c["name"]: c["colour"] for c in data["cities"]}


def city_name(data: dict, text: str, board: str) -> str:
    """The board's city matching ``text``, or a refusal suggesting the nearest names."""
    names = list(city_colours(data))
    wanted = fold(text)
    for n in names:
        if fold(n) == wanted:
            return n
    import difflib

    close = difflib.get_close_matches(wanted, [fold(n) for n in names], n=3, cutoff=0.6)
    if close:
        raise RuleError(_("There is no city {text!r} on the {board} board. Did you mean {names}? `companion data "
                          "show` lists the cities.").format(
            text=text.strip(), board=board, names=_(" or ").join(n for n in names if fold(n) in close)))
    raise RuleError(_("There is no city {text!r} on the {board} board. `companion data show` lists the "
                      "cities.").format(text=text.strip(), board=board))


def special_title(data: dict, sid: str) -> str:
    return ((data.get("special_cards") or {}).get(sid) or {}).get("title") or sid


def check_special(sid: str) -> str:
    sid = sid.strip().lower() if isinstance(sid, str) else repr(sid)
    if sid not in SPECIAL_IDS:
        raise RuleError(_("There is no special card {sid!r}: the cards are {names}.").format(
                            sid=sid, names=', '.join(SPECIAL_IDS)))
    return sid


def check_specials(cards, per_round: int | None = None) -> list[str]:
    """The cards named for one round, checked: real cards, none twice, as many as the session
    turns over (``per_round``, with the variant), and none that cannot be played with another.
    Returned in the order given (the first is the round's ``special``, as before several)."""
    named = [check_special(c) for c in cards]
    for i, card in enumerate(named):
        if card in named[:i]:
            raise RuleError(_("{card} is named twice: a round's special cards are different "
                              "cards.").format(card=card))
    if per_round is not None and len(named) != per_round:
        example = " ".join(f"--special {c}" for c in (named + ["CARD"] * per_round)[:per_round])
        raise RuleError(ngettext("This session turns over {per_round} special card a round, not {n}: name one, "
                                 "e.g. `round start {example}`, or leave --special out to draw from the app's deck.",
                                 "This session turns over {per_round} special cards a round, not {n}: name them "
                                 "all, e.g. `round start {example}`, or leave --special out to draw from the app's "
                                 "deck.", per_round).format(per_round=per_round, n=len(named), example=example))
    found = first_clash(named)
    if found:
        a, b, why = found
        raise RuleError(_("{a} and {b} cannot be played together: {why}. Set one aside and take "
                          "the next card instead.").format(a=a, b=b, why=_(why)))
    return named


def special_deck(data: dict) -> tuple[list[str], bool]:
    """The digital special-card deck and whether every card's number of copies is known.

    Where the copies of a card are unknown the deck holds one card per printed variant.
    """
    cards = data.get("special_cards") or {}
    deck: list[str] = []
    complete = True
    for sid in SPECIAL_IDS:
        copies = (cards.get(sid) or {}).get("copies")
        if copies is None:
            complete = False
            copies = 1
        deck.extend([sid] * copies)
    if not deck:
        raise RuleError(_("The special-card deck is empty: set at least one card's copies above "
                          "0."))
    return deck, complete


def chart_points(chart: dict, missing: int) -> int:
    """Prestige for ``missing`` rails: P1 for 1, P2 for 2 ..., the last entry for any more."""
    table = chart["missing"]
    return table[min(missing, len(table)) - 1]


# -- building the round-start event -------------------------------------------------------------

def deal_stacks(data: dict, seed: str, entropy: str, session_id: str, number: int, attempt: int = 1) -> dict:
    """Every colour stack shuffled; deal 1 of a round has the plain context, deal n adds /deal-n."""
    from companion.core import dealing

    colours = city_colours(data)
    suffix = "" if attempt == 1 else f"/deal-{attempt}"
    return {
        colour: dealing.record([n for n, c in colours.items() if c == colour], seed, entropy,
                               dealing.context(session_id, number, f"cities-{colour}{suffix}"))
        for colour in data["colours"]
    }


def make_round_start(state: State, data: dict, seed: str, entropy: str, session_id: str,
                     special: str | list[str] | tuple | None = None, physical: bool = False,
                     unbalanced: bool = False) -> Event:
    """The `round-start` event the seed gives: shuffled colour stacks and the special card(s).

    Deterministic in its arguments, so `verify` (and the tests) can redo it. ``special`` is the
    card (or the list of cards) the players turned over themselves; with the variant and no
    ``special`` the session's own shuffled deck turns over as many cards as the session plays a
    round (`--specials-per-round`), setting aside any that cannot join those already turned
    over (specials.draw); the deck is reshuffled when used up. With several cards the event
    lists them all in ``specials`` (``special`` stays the first, as in older journals). With
    balanced deals every deal tried before the balanced one goes into ``redeals``;
    ``unbalanced`` deals once, plainly, when no balanced deal can be found.
    """
    if state.get("finished"):
        raise RuleError(game_over())
    if state["round_open"]:
        raise RuleError(_("Round {round} is still open: end it first with `round end ...`.").format(
                            round=state['round']))
    number = state["round"] + 1
    event: Event = {"type": "round-start", "round": number, "physical": bool(physical)}
    named = [special] if isinstance(special, str) else list(special or [])
    variant = state["variant"] == "special-cards"
    per_round = state.get("specials_per_round") or 1
    if named:
        cards = check_specials(named, per_round if variant else None)
        event["special"] = cards[0]
        if len(cards) > 1:
            event["specials"] = cards
        event["special_from"] = "table"
    elif variant:
        deck = state.get("special_deck")
        rest = deck["order"][deck["next"]:] if deck else []
        turned = draw(rest, None, per_round)
        if turned["needed"]:
            from companion.core import dealing

            cards, _complete = special_deck(data)
            shuffled = dealing.record(cards, seed, entropy, dealing.context(session_id, number, "special"))
            event["special_shuffle"] = shuffled
            turned = draw(rest, shuffled["order"], per_round)
            if turned["short"]:
                raise RuleError(_("The special-card deck cannot give {per_round} cards that can "
                                  "be played together: name the round's cards with `round start "
                                  "--special CARD ...`, or give more cards copies (`companion "
                                  "data check` lists them).").format(per_round=per_round))
        event["special"] = turned["taken"][0]
        if per_round > 1:
            event["specials"] = turned["taken"]
        event["special_from"] = "deck"
    else:
        event["special"] = None
    balance = state.get("balanced")
    if unbalanced:
        if balance is None:
            raise RuleError(_("This session deals plainly already: drop --unbalanced."))
        event["unbalanced"] = True
    if physical:
        return event
    if balance is None or unbalanced:
        event["stacks"] = deal_stacks(data, seed, entropy, session_id, number)
        return event
    from companion.core import registry as games

    game = games.get(state["game"])
    drop = game.returned_colour(data, event.get("specials") or event["special"])
    redeals = []
    for attempt in range(1, BALANCE_TRIES + 1):
        stacks = deal_stacks(data, seed, entropy, session_id, number, attempt)
        if game.deal_spread(state, stacks, data, drop, balance)[0] <= balance:
            break
        redeals.append(stacks)
    else:
        raise RuleError(_("None of {BALANCE_TRIES} deals keeps every hand within {balance} rails "
                          "of the others: deal this round plainly with `round start "
                          "--unbalanced`, or play with a larger K.").format(
                            BALANCE_TRIES=BALANCE_TRIES, balance=balance))
    if redeals:
        event["redeals"] = redeals
    event["stacks"] = stacks
    return event


# -- the rules ----------------------------------------------------------------------------------

class TransGame(TrackMixin, Game):
    """Rules shared by both boards; subclasses set ``id``, ``title`` and ``board``."""
    moves = "companion.games.trans.moves"
    views = "companion.games.trans.views"
    section = "Trans Europa / Trans Amerika"
    player_fields = ("player", "winners")
    player_keys = ("missing",)  # round-end: each non-winner's missing rails

    board = ""
    min_players = 2
    max_players = 6
    deals = True
    # seed 000, Preparation: "The oldest player becomes the starting player"
    start_question = N_("Who is the oldest player? (rulebook: \"The oldest player becomes the starting player\")")

    # -- set-up --------------------------------------------------------------------------------
    def initial(self, setup: Setup, data: dict) -> State:
        options = setup.options or {}
        scoring = options.get("scoring") or "prestige"
        if scoring not in SCORINGS:
            raise RuleError(_("Scoring {scoring!r} is unknown: use --scoring prestige or "
                              "--scoring classic.").format(scoring=scoring))
        variant = options.get("variant") or None
        if variant not in VARIANTS:
            raise RuleError(_("Variant {variant!r} is unknown: use --variant special-cards or "
                              "leave it out.").format(variant=variant))
        players = list(setup.players)
        if not self.min_players <= len(players) <= self.max_players:
            raise RuleError(_("{title} takes 2 to 6 players, not {n}.").format(title=self.title, n=len(players)))
        per_round = options.get("specials_per_round")
        if per_round is not None:
            if variant != "special-cards":
                raise RuleError(_("--specials-per-round goes with the special cards: add "
                                  "--variant special-cards."))
            if isinstance(per_round, bool) or not isinstance(per_round, int) or not 1 <= per_round <= MAX_PER_ROUND:
                raise RuleError(_("--specials-per-round takes 1 to {MAX_PER_ROUND} cards, not "
                                  "{per_round!r}: a full deck always gives {MAX_PER_ROUND} that "
                                  "can be played together (e.g. --specials-per-round 2).").format(
                                    MAX_PER_ROUND=MAX_PER_ROUND, per_round=per_round))
        start = CLASSIC_START if scoring == "classic" else 0
        balanced = options.get("balanced")
        if balanced is not None and (isinstance(balanced, bool) or not isinstance(balanced, int) or balanced < 0):
            raise RuleError(_("A balanced deal needs a whole number of rails, not {balanced!r}: "
                              "--deal balanced=2").format(balanced=balanced))
        return {
            "game": self.id,
            # sessions started from issue 15 on (`new` sets it): start markers in seat order from
            # the start player, impossible round results refused; older journals replay as recorded
            "rulebook_order": options.get("order") == "rulebook",
            # sessions started from issue 29 on: a player's lap is the turns they played (a rail
            # out of turn takes no lap from anyone); older journals count the seats' wraps
            "laps_played": options.get("laps") == "played",
            "players_order": players,
            "scoring": scoring,
            "variant": variant,
            "scores": {p: start for p in players},
            "round": 0,
            "round_open": False,
            "physical": False,
            "special": None,
            "special_from": None,
            "special_title": None,
            "special_colours": [],
            "special_deck": None,
            # several cards at once (issue 15): how many a round turns over with the variant, the
            # cards in force in the rulebook's order, those the deck set aside, each card's board
            # colours, the deal effects still to come and the cities a reveal card showed
            "specials_per_round": per_round or 1,
            "specials": [],
            "special_set_aside": [],
            "card_colours": {},
            "special_titles": {},
            "effects_left": [],
            "shown": [],
            "hands": {},
            "leftover": {},
            "revealed": {},
            "pending": None,
            "history": [],
            "finished": False,
            "winners": [],
            "balanced": balanced,  # the house rule's K, or None
            "balance": None,  # this round's balanced deal: deals tried, easiest and hardest hand
            "track": self._new_track(data),
        }

    # -- helpers -------------------------------------------------------------------------------
    def start_player(self, s: State) -> str:
        """The round's start player: the first seat in round 1, then one to the left each round."""
        players = s["players_order"]
        number = s["round"] if s["round_open"] or s["round"] == 0 else s["round"] + 1
        return players[(max(number, 1) - 1) % len(players)]

    def _left(self, s: State, player: str) -> str:
        players = s["players_order"]
        return players[(players.index(player) + 1) % len(players)]

    def _colour(self, data: dict, named: str, strict: bool = False) -> str:
        """This board's colour for a colour a special card names (the players say, if unknown).

        ``strict`` (sessions from issue 15 on): a combined-edition colour is never taken as the
        board's colour of the same name unless the board is the combined edition's own: the
        classic boards have an orange too, and nobody knows whether it is the card's orange."""
        alias = (data.get("colour_aliases") or {}).get(named)
        if alias is not None:
            if alias not in data["colours"]:
                from companion.core.datapack import set_command  # only where a refusal names it: a status needs none (issue 27)
                raise ValueConflict(
                    _("colour_aliases.{named} is {alias!r}, not one of this board's "
                      "colours ({names}): set it again with `{set_command}`.").format(
                        named=named, alias=alias, names=', '.join(data['colours']),
                        set_command=set_command(self.id, 'colour_aliases.' + named)),
                    self.id, f"colour_aliases.{named}",
                    _("The special card's {named} was given as {alias}, which is not one of this board's colours: "
                      "tap the board colour it means.").format(named=named, alias=alias))
            return alias
        combined = set(data["colours"]) == set(COMBINED_COLOURS)
        if named in data["colours"] and (combined or not strict or named not in COMBINED_COLOURS):
            return named
        from companion.core.datapack import example
        raise MissingValue(self.id, f"colour_aliases.{named}",
                           _("the board colour the special card's {named} means: one of {names}").format(
                               named=named, names=', '.join(data['colours'])),
                           example(self.id, f"colour_aliases.{named}"))  # "COLOUR": never a colour to copy

    @staticmethod
    def _aliased(data: dict, named: list[str]) -> str:
        """Of the card colours ``named`` that clash, the one to ask again: one the players gave
        another board colour for (not the board's own colour of that name, which stays)."""
        given = data.get("colour_aliases") or {}
        return next((n for n in named if given.get(n) not in (None, n)), named[0])

    def _dashed(self, data: dict) -> set[str]:
        """The 10 dashed-border cards, checked: 10 real cities, 2 of each colour."""
        if data.get("dashed") is None:  # the deal waits for them; the table may deal its own cards
            raise MissingValue(self.id, "dashed", _("the 10 dashed-border city cards, out of "
                                                    "play with 2 or 3 players: CITY is a city's "
                                                    "name, 2 of each colour"),
                               also=_("or deal the cities at the table with `round start --physical`"))
        names = data["dashed"]
        colours = city_colours(data)
        if (not isinstance(names, list) or len(set(names)) != 10
                or any(n not in colours for n in names)
                or any(sum(colours[n] == c for n in names) != 2 for c in data["colours"])):
            from companion.core.datapack import set_command
            raise RuleError(_("The value `dashed` must list the 10 dashed-border cities, 2 of "
                              "each colour, as named on this board: set it again with "
                              "`{set_command}`.").format(set_command=set_command(self.id, 'dashed')))
        return set(names)

    def _out_of_play(self, s: State, data: dict) -> set[str]:
        return self._dashed(data) if len(s["players_order"]) <= 3 else set()

    def _need_open(self, s: State, what: str) -> None:
        if not s["round_open"]:
            raise RuleError(_("No round is open: start one with `round start` before {what}.").format(what=what))

    def _city(self, data: dict, text: str) -> str:
        return city_name(data, text, self.board.capitalize())

    def _held_by(self, s: State, city: str) -> str | None:
        for p, cities in s["hands"].items():
            if city in cities:
                return p
        return None

    # -- round start ---------------------------------------------------------------------------
    def deal_contexts(self, session_id: str, event: Event) -> list[tuple[dict, str | None]]:
        """Deal n of round r shuffles colour c under ``ID/r/cities-c`` (``.../deal-n`` from the
        second deal tried); the special-card deck under ``ID/r/special``."""
        if not _holds_deal(event):  # most events (every rail): nothing to check, nothing to import
            return []
        from companion.core import dealing

        expected: dict[int, str] = {}
        if event.get("type") == "round-start":
            number = event.get("round")
            attempts = list(event.get("redeals") or []) + [event.get("stacks") or {}]
            for i, stacks in enumerate(attempts, 1):
                suffix = "" if i == 1 else f"/deal-{i}"
                for colour, deal in (stacks.items() if isinstance(stacks, dict) else ()):
                    expected[id(deal)] = dealing.context(session_id, number, f"cities-{colour}{suffix}")
            if isinstance(event.get("special_shuffle"), dict):
                expected[id(event["special_shuffle"])] = dealing.context(session_id, number, "special")
        return [(deal, expected.get(id(deal))) for deal in dealing.deals_in(event)]

    def on_round_start(self, s: State, event: Event, data: dict) -> None:
        if s["round_open"]:
            raise RuleError(_("Round {round} is still open: end it first with `round end ...`.").format(
                                round=s['round']))
        number = s["round"] + 1
        if event.get("round") != number:
            raise RuleError(_("This would start round {get}, but the next round is {number}.").format(
                                get=event.get('round'), number=number))
        cards, aside = self._take_specials(s, event, data)
        specials = in_rulebook_order(cards)
        special = specials[0] if specials else None
        s["round"] = number
        s["round_open"] = True
        s["physical"] = bool(event.get("physical"))
        s["special"] = special
        s["specials"] = specials
        s["special_set_aside"] = aside
        s["special_from"] = event.get("special_from") if special else None
        s["special_title"] = special_title(data, special) if special else None
        s["special_titles"] = {c: special_title(data, c) for c in specials}
        strict = s.get("rulebook_order", False)
        s["card_colours"] = {}
        named_by: dict[str, tuple[str, str]] = {}  # board colour -> (card, the colour it names)
        for card in specials:
            named = ((data.get("special_cards") or {}).get(card) or {}).get("colours") or []
            colours = [self._colour(data, c, strict) for c in named]
            if len(set(colours)) != len(colours):
                fix = self._aliased(data, named)
                from companion.core.datapack import set_command
                raise ValueConflict(
                    _("The card names two colours that are both {value} on this "
                      "board: fix colour_aliases with `{set_command}`.").format(
                        value=colours[0], set_command=set_command(self.id, 'colour_aliases.' + fix)),
                    self.id, f"colour_aliases.{fix}",
                    _("The special card {card} names {named} and {other}, and both were given as this board's "
                      "{colour}: tap the board colour the card's {fix} means.").format(
                        card=special_title(data, card), named=named[0], other=named[1], colour=colours[0], fix=fix))
            for name, colour in zip(named, colours):
                other = named_by.setdefault(colour, (card, name))
                if other[1] != name:  # two cards, two of the edition's colours, one board colour
                    fix = self._aliased(data, [name, other[1]])
                    from companion.core.datapack import set_command
                    raise ValueConflict(
                        _("{value}'s {value2} and {card}'s {name} are both {colour} "
                          "on this board: fix colour_aliases with `{set_command}`.").format(
                            value=other[0], value2=other[1], card=card, name=name, colour=colour,
                            set_command=set_command(self.id, 'colour_aliases.' + fix)),
                        self.id, f"colour_aliases.{fix}",
                        _("The special cards {value} ({value2}) and {card} ({name}) both came out as this board's "
                          "{colour}: tap the board colour the card's {fix} means.").format(
                            value=special_title(data, other[0]), value2=other[1], card=special_title(data, card),
                            name=name, colour=colour, fix=fix))
            s["card_colours"][card] = colours
        s["special_colours"] = s["card_colours"].get(special, []) if special else []
        s["hands"], s["leftover"], s["revealed"], s["pending"] = {}, {}, {}, None
        s["effects_left"], s["shown"] = [], []
        s["track"] = self._new_track(data)  # the rails of the last round come off the board
        s["balance"] = None
        if event.get("unbalanced") and s["balanced"] is None:
            raise RuleError(_("This session deals plainly already: drop --unbalanced."))
        if s["physical"]:
            if event.get("stacks") or event.get("redeals"):
                raise RuleError(_("A physical round carries no digital deal."))
            return
        if event.get("redeals") and (s["balanced"] is None or event.get("unbalanced")):
            raise RuleError(_("Only a balanced deal is redealt: this round's deal must be made "
                              "once."))
        if s["balanced"] is not None and not event.get("unbalanced"):
            self._check_balance(s, event, data)
        self._deal(s, event, data)
        self._apply_deal_effect(s, data)

    def _take_specials(self, s: State, event: Event, data: dict) -> tuple[list[str], list[str]]:
        """The round's special cards as turned over (first: ``special``), and those the deck set
        aside; checked against the session's deck when the app drew them."""
        special = event.get("special")
        source = event.get("special_from")
        listed = event.get("specials")
        if special is None:
            if listed:
                raise RuleError(_("A round with special cards names the first of them as its "
                                  "special card."))
            if s["variant"] == "special-cards":
                raise RuleError(_("With the special-card variant every round turns over a "
                                  "special card."))
            return [], []
        if listed is None:
            cards = [special]
        elif not isinstance(listed, list) or len(listed) < 2 or listed[0] != special:
            raise RuleError(_("The special cards of this round are not recorded as several "
                              "cards, the first being its special card."))
        else:
            cards = listed
        variant = s["variant"] == "special-cards"
        per_round = s.get("specials_per_round") or 1
        cards = check_specials(cards, per_round if variant else None)
        if source == "table":
            return cards, []
        if source != "deck" or not variant:
            raise RuleError(_("Only the special-card variant draws from the digital deck: name "
                              "the card with --special."))
        deck = s["special_deck"]
        rest = deck["order"][deck["next"]:] if deck else []
        shuffled = event.get("special_shuffle")
        if shuffled is not None and not (isinstance(shuffled, dict) and isinstance(shuffled.get("order"), list)):
            raise RuleError(_("The recorded special-card deck is not this game's deck."))
        turned = draw(rest, shuffled["order"] if shuffled is not None else None, per_round)
        if shuffled is not None:
            if not turned["needed"]:
                raise RuleError(_("The special-card deck is not used up yet: it is reshuffled "
                                  "only when empty."))
            expected, complete = special_deck(data)
            if sorted(shuffled.get("deck") or []) != sorted(expected) or sorted(shuffled.get("order") or []) != sorted(expected):
                raise RuleError(_("The recorded special-card deck is not this game's deck."))
            deck = s["special_deck"] = {"order": list(shuffled["order"]), "next": turned["next"],
                                        "complete": complete, "shuffles": (deck or {}).get("shuffles", 0) + 1}
        elif turned["needed"]:
            raise RuleError(_("The special-card deck is used up: it must be reshuffled."))
        else:
            deck["next"] += len(turned["taken"]) + len(turned["set_aside"])
        if turned["taken"] != cards:
            if len(cards) == 1:
                raise RuleError(_("The next special card of the deck is not {value!r}.").format(value=cards[0]))
            raise RuleError(_("The next special cards of the deck are not {names}.").format(names=', '.join(cards)))
        return cards, turned["set_aside"]

    def _deal(self, s: State, event: Event, data: dict) -> None:
        """One city of each colour to every player, from the recorded stacks, minus the dashed."""
        stacks = event.get("stacks") or {}
        colours = city_colours(data)
        if sorted(stacks) != sorted(data["colours"]):
            raise RuleError(_("The deal must hold one stack for each colour of the board."))
        out = self._out_of_play(s, data)
        players = s["players_order"]
        hands: dict[str, list[str]] = {p: [] for p in players}
        for colour in data["colours"]:
            stack = stacks[colour]
            cards = sorted(n for n, c in colours.items() if c == colour)
            if sorted(stack.get("deck") or []) != cards or sorted(stack.get("order") or []) != cards:
                raise RuleError(_("The recorded {colour} stack is not this board's {colour} "
                                  "cities.").format(colour=colour))
            order = [n for n in stack["order"] if n not in out]
            if len(order) < len(players):
                raise RuleError(_("The {colour} stack has too few cards for {n} players.").format(
                                    colour=colour, n=len(players)))
            for p, city in zip(players, order):
                hands[p].append(city)
            s["leftover"][colour] = order[len(players):]
        s["hands"] = hands

    def _apply_deal_effect(self, s: State, data: dict) -> None:
        """What the special cards do to freshly dealt hands (the app does the dealer's part), one
        card after the other in the rulebook's order; a card that waits for the players' choices
        holds the next ones back until everyone has chosen (``_next_effects``)."""
        s["effects_left"] = [c for c in s["specials"] if c in DEAL_EFFECTS]
        self._next_effects(s, data)

    def _next_effects(self, s: State, data: dict) -> None:
        while s["effects_left"] and not s["pending"]:
            self._deal_effect(s, data, s["effects_left"].pop(0))
        self._show(s)

    def _deal_effect(self, s: State, data: dict, special: str) -> None:
        """One card's effect on the hands dealt."""
        colours = city_colours(data)
        players = s["players_order"]
        named = s["card_colours"].get(special) or []
        if special in RETURN_COLOUR:
            (colour,) = named
            for p in players:
                city = next((c for c in s["hands"][p] if colours[c] == colour), None)
                if city is not None:
                    s["hands"][p].remove(city)
                    s["leftover"][colour].append(city)
        elif special == "return-any":
            s["pending"] = {"kind": "return", "waiting": list(players)}
        elif special in REVEAL:
            s["shown"] += [c for p in players for c in s["hands"].get(p, []) if colours[c] in named]
        elif special in PASS_COLOUR:
            (colour,) = named
            if not s["leftover"][colour]:
                raise RuleError(_("No {colour} card is left to take for the pass card.").format(colour=colour))
            start = self.start_player(s)
            s["hands"][start].append(s["leftover"][colour].pop(0))
            i = players.index(start)
            s["pending"] = {"kind": "pass-colour", "colour": colour,
                            "order": players[i:] + players[:i], "next": 0}
        elif special == "pass-three":
            s["pending"] = {"kind": "pass-three", "lap": 1, "chosen": {}}
        elif special == "swap-hands":
            s["hands"] = {self._left(s, p): cities for p, cities in s["hands"].items()}
            s["hands"] = {p: s["hands"][p] for p in players}

    def _show(self, s: State) -> None:
        """The cities a reveal card showed, under whoever holds them now (a shown city passed on
        stays shown: everyone saw it go); nothing while no reveal card is in force."""
        if any(c in REVEAL for c in s["specials"]) and not s["physical"]:
            shown = set(s["shown"])
            s["revealed"] = {p: [c for c in s["hands"][p] if c in shown]
                             for p in s["players_order"] if p in s["hands"]}

    def _reveal(self, s: State, data: dict) -> dict[str, list[str]]:
        """The cities of the colours the reveal cards name, in recorded hands (physical rounds)."""
        colours = city_colours(data)
        named = {c for card in s["specials"] if card in REVEAL for c in s["card_colours"].get(card, [])}
        return {p: [c for c in s["hands"][p] if colours[c] in named]
                for p in s["players_order"] if p in s["hands"]}

    # -- balanced deals (house rule) -------------------------------------------------------------
    def returned_colour(self, data: dict, special: str | list[str] | None) -> str | None:
        """The board colour everyone puts back under a return-a-colour card in force (else None):
        ``special`` is the round's card or its list of cards (at most one returns a colour)."""
        cards = [special] if isinstance(special, str) or special is None else list(special)
        card = next((c for c in cards if c in RETURN_COLOUR), None)
        if card is None:
            return None
        named = ((data.get("special_cards") or {}).get(card) or {}).get("colours") or []
        return self._colour(data, named[0]) if named else None

    def _dealt_hands(self, s: State, stacks: dict, data: dict, drop: str | None) -> dict[str, list[str]]:
        """The hands a deal gives (dashed cards out, a returned colour put back), state untouched."""
        scratch = {"players_order": s["players_order"], "hands": {}, "leftover": {}}
        self._deal(scratch, {"stacks": stacks}, data)
        colours = city_colours(data)
        return {p: [c for c in cities if colours[c] != drop] for p, cities in scratch["hands"].items()}

    def deal_spread(self, s: State, stacks: dict, data: dict, drop: str | None,
                    limit: int | None = None) -> tuple[int, int, int]:
        """(spread, easiest, hardest): the hands' empty-board minimums, in rails.

        Stops counting as soon as the spread exceeds ``limit``: a rejected deal needs only proof.
        """
        cache = _board_cache(data, self.id)
        hands = list(self._dealt_hands(s, stacks, data, drop).values())
        if limit is not None:  # the likely easiest and hardest first: two counts often prove it
            hands.sort(key=cache.estimate)
            hands = [hands[0], hands[-1], *hands[1:-1]]
        lo = hi = None
        for cities in hands:
            n = cache.minimum(cities)
            lo = n if lo is None else min(lo, n)
            hi = n if hi is None else max(hi, n)
            if limit is not None and hi - lo > limit:
                break
        return hi - lo, lo, hi

    def _check_balance(self, s: State, event: Event, data: dict) -> None:
        """Every deal tried is the seed's next one, the rejected were out of balance, the last within."""
        limit = s["balanced"]
        number = s["round"]
        attempts = list(event.get("redeals") or []) + [event.get("stacks") or {}]
        if len(attempts) > BALANCE_TRIES:
            raise RuleError(_("A balanced deal tries at most {BALANCE_TRIES} deals, not {n}.").format(
                                BALANCE_TRIES=BALANCE_TRIES, n=len(attempts)))
        session = None
        drop = self.returned_colour(data, in_force(s))
        for i, stacks in enumerate(attempts, 1):
            for colour in data["colours"]:
                context = str(((stacks or {}).get(colour) or {}).get("context", ""))
                parts = context.split("/", 2)
                expected = f"cities-{colour}" + ("" if i == 1 else f"/deal-{i}")
                if (len(parts) != 3 or parts[1] != str(number) or parts[2] != expected
                        or (session is not None and parts[0] != session)):
                    raise RuleError(_("The deals recorded for round {number} are not the seed's "
                                      "deals in order: the event was changed.").format(number=number))
                session = parts[0]
            spread, lo, hi = self.deal_spread(s, stacks, data, drop, limit)
            if i < len(attempts) and spread <= limit:
                raise RuleError(_("Deal {i} of round {number} already kept the hands within "
                                  "{limit} rails: no deal after it should have been made.").format(
                                    i=i, number=number, limit=limit))
        if spread > limit:
            raise RuleError(_("The deal of round {number} is not balanced: its hands differ by "
                              "{spread} rails, more than {limit}.").format(number=number, spread=spread, limit=limit))
        s["balance"] = {"deals": len(attempts), "easiest": lo, "hardest": hi}

    def on_hand_set(self, s: State, event: Event, data: dict) -> None:
        """Record the hand a player holds in a physical round (after the card's effect)."""
        self._need_open(s, _("recording a hand"))
        if not s["physical"]:
            raise RuleError(_("The app dealt this round: `hand NAME` shows the cities; only a "
                              "round started with `round start --physical` takes hands from the "
                              "table."))
        player = player_name(s["players_order"], str(event.get("player", "")))
        given = event.get("cities") or []
        if isinstance(given, str):
            given = given.split(",")
        cities = [self._city(data, str(c)) for c in given if str(c).strip()]
        colours = city_colours(data)
        cards = in_force(s)
        size = 4 if any(c in FOUR_CITIES for c in cards) else 5
        if len(cities) != size:
            said = _("A hand this round has {size} cities (the special card leaves 4), not {n}: hand {player} --set "
                     "CITY,CITY,...") if size == 4 else \
                _("A hand this round has {size} cities, not {n}: hand {player} --set CITY,CITY,...")
            raise RuleError(said.format(size=size, n=len(cities), player=player))
        if len(set(cities)) != len(cities):
            raise RuleError(_("{player}'s hand names a city twice: give {size} different cities.").format(
                                player=player, size=size))
        if "pass-three" not in cards:  # passing three cards may leave repeated colours
            seen: dict[str, str] = {}
            for c in cities:
                if colours[c] in seen:
                    raise RuleError(_("{value} and {c} are both {value2}: a hand holds one city "
                                      "of each colour.").format(value=seen[colours[c]], c=c, value2=colours[c]))
                seen[colours[c]] = c
        for card in cards:
            if card in RETURN_COLOUR:
                (gone,) = s["card_colours"][card]
                back = next((c for c in cities if colours[c] == gone), None)
                if back is not None:
                    raise RuleError(_("This round everyone put their {gone} city back: leave "
                                      "{back} out.").format(gone=gone, back=back))
        out = self._out_of_play(s, data)
        for c in cities:
            if c in out:
                raise RuleError(_("{c} is a dashed-border card, out of play with {n} players.").format(
                                    c=c, n=len(s['players_order'])))
            holder = self._held_by(s, c)
            if holder is not None and holder != player:
                # Never name the card or its holder: this line is on the shared screen, and the
                # city is another player's secret (issue 12).
                raise RuleError(_("One of these cities is already recorded in another player's "
                                  "hand (a city card is dealt only once): check the cards and "
                                  "type {player}'s hand again.").format(player=player))
        s["hands"][player] = cities
        if any(c in REVEAL for c in cards):
            # a city shown and then passed on cannot be told from one passed face down: with a
            # card that moves hands after the reveal, the table shows them and the app does not
            moved = any(c in MOVES_HANDS for c in cards)
            s["revealed"] = {} if moved else self._reveal(s, data)
        if s["track"]["rails"]:  # a hand recorded late may already be connected on the board
            self._check_joined(s, self.board_of(data), None)

    def on_hand_return(self, s: State, event: Event, data: dict) -> None:
        """Under the return-any card each player puts one city of their choice back."""
        self._need_open(s, _("returning a city"))
        pending = s["pending"] or {}
        if s["physical"]:
            raise RuleError(_("In a physical round return the card at the table and record the 4 "
                              "cities kept with `hand NAME --set CITY,...`."))
        if pending.get("kind") != "return":
            raise RuleError(_("Only the 'return-any' special card lets players put a city back."))
        player = player_name(s["players_order"], str(event.get("player", "")))
        if player not in pending["waiting"]:
            raise RuleError(_("{player} has already put a city back this round.").format(player=player))
        city = self._city(data, str(event.get("city", "")))
        if city not in s["hands"][player]:
            raise RuleError(_("{city} is not in {player}'s hand: `hand {player}` shows it.").format(
                                city=city, player=player))
        s["hands"][player].remove(city)
        s["leftover"][city_colours(data)[city]].append(city)
        pending["waiting"].remove(player)
        if not pending["waiting"]:
            s["pending"] = None
            self._next_effects(s, data)

    def on_pass(self, s: State, event: Event, data: dict) -> None:
        """A city passed to the left under the pass-a-colour or pass-three cards."""
        self._need_open(s, _("passing a city"))
        pending = s["pending"] or {}
        kind = pending.get("kind")
        if s["physical"] or kind not in ("pass-colour", "pass-three"):
            if s["physical"]:
                raise RuleError(_("In a physical round pass the cards at the table and record "
                                  "the hands with `hand NAME --set CITY,...`."))
            raise RuleError(_("No passing is due: only the pass special cards let players pass "
                              "cities."))
        player = player_name(s["players_order"], str(event.get("player", "")))
        # whose choice it is before which city: the shell asks nobody whose choice is not due
        if kind == "pass-colour" and player != pending["order"][pending["next"]]:
            due = pending["order"][pending["next"]]
            raise RuleError(_("It is {due}'s turn to pass a {colour} city: pass {due} CITY").format(
                                due=due, colour=pending['colour']))
        if kind == "pass-three" and player in pending["chosen"]:
            raise RuleError(_("{player} has already chosen a city for pass {lap} of 3: waiting "
                              "for {names}.").format(
                                player=player, lap=pending['lap'], names=', '.join(self.waiting(s))))
        city = self._city(data, str(event.get("city", "")))
        if city not in s["hands"][player]:
            raise RuleError(_("{city} is not in {player}'s hand: `hand {player}` shows it.").format(
                                city=city, player=player))
        if kind == "pass-colour":
            colour = pending["colour"]
            if city_colours(data)[city] != colour:
                raise RuleError(_("{city} is not {colour}: pass one of your two {colour} cities.").format(
                                    city=city, colour=colour))
            s["hands"][player].remove(city)
            pending["next"] += 1
            if pending["next"] < len(pending["order"]):
                s["hands"][self._left(s, player)].append(city)
            else:  # the last player puts the unwanted card back on the leftover stack
                s["leftover"][colour].append(city)
                s["pending"] = None
            self._next_effects(s, data)
            return
        chosen = pending["chosen"]
        chosen[player] = city
        if len(chosen) == len(s["players_order"]):  # everyone chose: the cards move at once
            for p, c in chosen.items():
                s["hands"][p].remove(c)
            for p, c in chosen.items():
                s["hands"][self._left(s, p)].append(c)
            pending["chosen"] = {}
            pending["lap"] += 1
            if pending["lap"] > PASS_THREE_LAPS:
                s["pending"] = None
            self._next_effects(s, data)

    # -- round end -----------------------------------------------------------------------------
    def on_round_end(self, s: State, event: Event, data: dict) -> None:
        if not s["round_open"]:
            raise RuleError(_("No round is open: start one with `round start`."))
        players = s["players_order"]
        if s["pending"]:
            raise RuleError(_("The deal is not finished: {pending_text}").format(pending_text=self.pending_text(s)))
        rails_out = bool(event.get("rails_out"))
        named_winners = event.get("winners") or []
        named_missing = event.get("missing") or {}
        auto = bool(event.get("auto"))
        if auto:  # counted on the recorded board; counts in the event must be the board's
            result = self.auto_result(s, data, named_winners, rails_out)
            given = {player_name(players, str(p)): n for p, n in named_missing.items()}
            if given and given != result["missing"]:
                raise RuleError(_("The missing rails in this event are not the recorded board's: "
                                  "{names}.").format(
                                    names=", ".join(f"{p} {n}" for p, n in result["missing"].items())))
            named_winners, named_missing, rails_out = result["winners"], result["missing"], result["rails_out"]
        winners: list[str] = []
        for name in named_winners:
            p = player_name(players, str(name))
            if p in winners:
                raise RuleError(_("{p} is named as a winner twice.").format(p=p))
            winners.append(p)
        if rails_out and winners:
            raise RuleError(_("With --rails-out nobody connected: drop --winner, or drop "
                              "--rails-out."))
        if not rails_out and not winners:
            raise RuleError(_("Name who connected their cities with --winner NAME, or use "
                              "--rails-out if the rails ran out."))
        missing: dict[str, int] = {}
        for name, count in named_missing.items():
            p = player_name(players, str(name))
            if p in missing:
                raise RuleError(_("{p} is given two missing-rail counts.").format(p=p))
            if p in winners:
                raise RuleError(_("{p} connected (a winner), so has no missing rails: drop "
                                  "--missing {p}=...").format(p=p))
            if isinstance(count, bool) or not isinstance(count, int):
                raise RuleError(_("{p}'s missing rails must be a whole number, not {count!r}: "
                                  "--missing {p}=3").format(p=p, count=count))
            if count < 1:
                raise RuleError(_("{p}'s missing rails must be at least 1 (a player with 0 "
                                  "missing connected too: name them with --winner {p}).").format(p=p))
            missing[p] = count
        if not auto:
            self._check_possible(s, data, winners, missing)
        lacking = [p for p in players if p not in winners and p not in missing]
        if lacking:
            raise RuleError(_("Every player who did not connect needs a missing-rail count: add "
                              "{names}").format(names=" ".join(f"--missing {p}=N" for p in lacking)))
        points = self._points(s, data, winners, missing)
        for p, pts in points.items():
            s["scores"][p] += pts
        s["history"].append({
            "round": s["round"],
            "start_player": self.start_player(s),
            "special": s["special"],
            "specials": list(s["specials"]),
            "physical": s["physical"],
            "winners": winners,
            "rails_out": rails_out,
            "missing": missing,
            "points": points,
            "hands": s["hands"],
            "auto": auto,  # the missing rails were counted on the recorded board
        })
        s["round_open"] = False
        s["pending"] = None
        scores = s["scores"]
        over = (any(v <= 0 for v in scores.values()) if s["scoring"] == "classic"
                else any(v >= PRESTIGE_GOAL for v in scores.values()))
        if over:
            s["finished"] = True
            s["winners"] = best(scores)

    def _check_possible(self, s: State, data: dict, winners: list[str], missing: dict[str, int]) -> None:
        """Refuse a round result the board makes impossible (issue 15).

        A missing-rail count above the most any hand could need on this board; a winner whom
        the recorded board shows not connected, when every start marker was recorded this round
        (so the board is being recorded) and that player's cities are known. Sessions older
        than the rulebook order keep taking what was recorded."""
        if not s.get("rulebook_order"):
            return
        for p, count in missing.items():
            try:
                most = most_missing(data, self.id, count)
            except CompanionError:  # no board in these values: nothing to count on
                return
            if most is not None:
                raise RuleError(_("{p} cannot be missing {count} rails: on this board no player "
                                  "can need more than {most} (the worst hand's cities joined "
                                  "over shortest paths, plus the farthest a start marker can be "
                                  "from them). Check the count: --missing {p}=N.").format(
                                    p=p, count=count, most=most))
        track = s["track"]
        if winners and all(p in track["markers"] for p in s["players_order"]):
            for p in winners:
                if p not in track["connected"] and s["hands"].get(p):
                    raise RuleError(_("The recorded board shows {p} not connected: their cities "
                                      "are not all joined to their start marker at {value}. "
                                      "Record the missing rails with `build {p} PATH`, or let "
                                      "the board say who won: `round end --auto`.").format(
                                        p=p, value=track['markers'][p][1]))

    def _points(self, s: State, data: dict, winners: list[str], missing: dict[str, int]) -> dict[str, int]:
        """Points of the round per player, in seat order (classic: negative, the rails lost)."""
        if s["scoring"] == "classic":
            return {p: -missing.get(p, 0) for p in s["players_order"]}
        chart = self.chart(s, data)
        return {p: chart["winner"] if p in winners else chart_points(chart, missing[p]) for p in s["players_order"]}

    def chart(self, s: State, data: dict) -> dict:
        """The prestige chart in force: the special card's, else the board's normal chart."""
        key = "normal"
        for card in in_force(s):  # at most one of them covers the chart
            if card in ("generous", "demanding"):
                key = card
        example = CHART_TEMPLATE  # a template, never real-looking numbers someone might copy
        what = _("the {key} chart printed on the special card: W = a winner's points, P1 ... = 1, 2 ... "
                 "missing").format(key=key)
        self.need(data, self.id, f"charts.{key}", what, example)
        winner = self.need(data, self.id, f"charts.{key}.winner", _("the points of a round winner"))
        table = self.need(data, self.id, f"charts.{key}.missing", _("the points for 1, 2, ... missing rails"))
        if (isinstance(winner, bool) or not isinstance(winner, int) or not isinstance(table, list) or not table
                or any(isinstance(v, bool) or not isinstance(v, int) for v in table)):
            from companion.core.datapack import set_command
            raise RuleError(_("charts.{key} must be whole numbers shaped like {example} (W = a "
                              "winner's points, P1 ... = the points for 1, 2 ... missing rails): "
                              "set it again with `{set_command}`.").format(
                                key=key, example=example, set_command=set_command(self.id, 'charts.' + key)))
        chart = {"winner": winner, "missing": table}
        return chart

    # -- reading -------------------------------------------------------------------------------
    def hand_of(self, s: State, name: str) -> list[str]:
        """One player's cities this round (or the last one), for `hand NAME` only: never public."""
        player = player_name(s["players_order"], name)
        if s["round_open"]:
            if s["physical"] and player not in s["hands"]:
                raise RuleError(_("This round was dealt at the table and {player}'s hand is not "
                                  "recorded: hand {player} --set CITY,CITY,...").format(player=player))
            return list(s["hands"].get(player, []))
        if not s["history"]:
            raise RuleError(_("No round has started yet: `round start` deals the cities."))
        last = s["history"][-1]
        if player not in last["hands"]:
            raise RuleError(_("Round {round} was dealt at the table and {player}'s hand was not "
                              "recorded.").format(round=last['round'], player=player))
        return list(last["hands"][player])

    def handed_on(self, s: State, name: str) -> tuple[str, list[str]] | None:
        """Under the swap-hands card, whom the app handed ``name``'s cities to, and those cities.

        Seed 000: "Memorize your 5 city cards well. Then pass them face down to your left-hand
        neighbor ... you now know not only your current 5 cards, but also those of your
        left-hand neighbor." The app passes the hands itself, so a player never saw the cities
        they handed on: their own screen shows them. None in any other case (a round dealt at
        the table: everyone saw their own before passing them)."""
        if (not s["round_open"] or s.get("physical") or "swap-hands" not in in_force(s)
                or "swap-hands" in (s.get("effects_left") or [])):
            return None
        left = self._left(s, player_name(s["players_order"], name))
        return left, list(s["hands"].get(left, []))

    def public_hands(self, s: State) -> dict[str, list[str]] | None:
        """Every hand of the last round once it has ended (None while a round is open)."""
        if s["round_open"] or not s["history"]:
            return None
        return {p: list(c) for p, c in s["history"][-1]["hands"].items()}

    def waiting(self, s: State) -> list[str]:
        """Players whose choice the deal still waits for, in the order they choose."""
        pending = s["pending"] or {}
        kind = pending.get("kind")
        if kind == "return":
            return list(pending["waiting"])
        if kind == "pass-colour":
            return [pending["order"][pending["next"]]]
        if kind == "pass-three":
            return [p for p in s["players_order"] if p not in pending["chosen"]]
        return []

    def pending_text(self, s: State) -> str:
        """Whose choice is due, in words with the command to type; '' when nothing is due."""
        pending = s["pending"] or {}
        kind = pending.get("kind")
        who = self.waiting(s)
        if kind == "return":
            return _("{names} must still put a city back: hand NAME --return CITY").format(names=", ".join(who))
        if kind == "pass-colour":
            last = pending["next"] == len(pending["order"]) - 1
            what = _("{name} puts one of their two {colour} cities back on the stack: pass {name} CITY") if last \
                else _("{name} passes one of their two {colour} cities left: pass {name} CITY")
            return what.format(name=who[0], colour=colour_word(pending["colour"]))
        if kind == "pass-three":
            return _("pass {lap} of 3: {names} must still choose a city to pass left: pass NAME CITY").format(
                lap=pending["lap"], names=", ".join(who))
        return ""

    def special_text(self, s: State, lap: int | None = None) -> str:
        """What the special card in force (the first, with several) means this round, in words."""
        return self.card_text(s, s["special"]) if s["special"] else ""

    def card_text(self, s: State, special: str) -> str:
        """What one special card in force means this round, in words."""
        if special == "rhythm-321":
            laps = ", ".join(_("lap {n}: {rails}").format(n=n, rails=rhythm_rails(n)) for n in range(1, 7))
            return _("rails per turn by lap: {laps}, and so on").format(laps=laps)
        cols = [colour_word(c) for c in (s.get("card_colours") or {}).get(special) or s["special_colours"]]
        if special == "swap-hands" and s.get("physical"):
            return _("everyone plays the hand of their right neighbour (passed at the table)")
        if special == "swap-hands" and special in (s.get("effects_left") or []):  # after the choices above
            return _("everyone will play the hand of their right neighbour (the app passes them once the choices "
                     "above are made)")
        if special in RETURN_COLOUR:
            return _("everyone plays with 4 cities: the {colour} city went back").format(colour=cols[0])
        if special in REVEAL:
            return _("everyone's {colours} cities are shown").format(colours=_(" and ").join(cols))
        if special in PASS_COLOUR:
            return _("the start player took an extra {colour} city; {colour} cities are passed left").format(
                colour=cols[0])
        return _(CARD_TEXTS[special]) if special in CARD_TEXTS else ""

    @staticmethod
    def hand_size(s: State, player: str) -> int | None:
        """How many cities ``player`` holds this round (None: none recorded), from the whole
        state or a viewer's view of it (which keeps the sizes of the hands it hides)."""
        if not s["round_open"]:
            return None
        if player in s["hands"]:
            return len(s["hands"][player])
        return (s.get("hand_sizes") or {}).get(player)

    def summary(self, s: State) -> dict:
        players = s["players_order"]
        special = {"id": s["special"], "title": s["special_title"]} if s["special"] else None
        track = s["track"]
        networks = self.networks(s)
        built_by = {p: 0 for p in players}
        for r in track["rails"]:
            built_by[r["by"]] += 1
        out = {
            "players": [
                {"name": p, "score": s["scores"][p],
                 "rounds": [h["points"][p] for h in s["history"]],
                 "cities": self.hand_size(s, p),
                 "start": track["markers"][p][1] if p in track["markers"] else None,
                 "connected": p in track["connected"],
                 "network": networks.get(p, []),
                 "rails": built_by[p]}
                for p in players
            ],
            "round": s["round"],
            "round_open": s["round_open"],
            "finished": s["finished"],
            "winners": list(s["winners"]),
            "map": self.board,
            "scoring": s["scoring"],
            "variant": s["variant"],
            "start_player": self.start_player(s),
            "special": special,
            "special_text": self._english(self.special_text, s),
            "special_from": s["special_from"],  # "deck" (the app drew it) or "table" (--special)
            # every card in force, in the rulebook's order (the order their effects apply in)
            "specials": [{"id": c, "title": (s.get("special_titles") or {}).get(c, c),
                          "text": self._english(self.card_text, s, c)} for c in in_force(s)],
            "specials_per_round": s.get("specials_per_round", 1) if s["variant"] else None,
            "special_set_aside": list(s.get("special_set_aside") or []) if s["round_open"] else [],
            "physical": s["physical"] if s["round_open"] else None,
            "revealed": {p: list(c) for p, c in s["revealed"].items()} if s["round_open"] else {},
            "waiting_for": self.waiting(s),
            "pending": self._english(self.pending_text, s),
            "history": [{k: v for k, v in h.items() if k != "hands"} for h in s["history"]],
            "rails_built": len(track["rails"]),
            "rails_left": None if track["box"] is None else track["box"] - len(track["rails"]),
            "rails": [{"line": r["name"], "player": r["by"]} for r in track["rails"]],
            "connected": list(track["connected"]),
            "round_over": self.round_over(s),
            "rails_out": track["rails_out"],
            "finishing": self.finishing(s),
            "turn": dict(track["turn"]) if track["turn"] and s["round_open"] else None,
            # who builds now: the player of the turn in progress, or the next seat once it is full
            "builder": self.builder(s) if track["turn"] and s["round_open"] and not self.round_over(s) else None,
            "balanced": s["balanced"],
            "balance": dict(s["balance"]) if s["balance"] else None,
        }
        deck = s["special_deck"]
        if deck:
            size = deck.get("size", len(deck["order"]))  # a viewer's view keeps the size of what it hides
            out["special_deck"] = {"left": size - deck["next"], "size": size,
                                   "one_per_variant": not deck["complete"]}
        if s["finished"]:
            out["hands"] = self.public_hands(s)
        return out

    @staticmethod
    def _english(words, *args) -> str:
        """A text of the summary in English: `status --json` is read by programs, never translated
        (the screens make their own in the viewer's language from the state)."""
        if language() == ENGLISH:  # (the usual case: no context to set)
            return words(*args)
        with using(ENGLISH):
            return words(*args)

    def describe(self, event: Event) -> str:
        etype = event.get("type")
        who = event.get("player")
        if etype == "round-start":
            special = event.get("special")
            several = event.get("specials")
            cards = ""
            if isinstance(several, list) and len(several) > 1:
                cards = _(", special cards {cards}").format(cards=", ".join(str(c) for c in several))
            elif special:
                cards = _(", special card {card}").format(card=special)
            if event.get("redeals"):
                cards += _(", balanced after {n} deals").format(n=len(event["redeals"]) + 1)
            elif event.get("unbalanced"):
                cards += _(", not balanced")
            said = _("round {n} started: dealt at the table{cards}") if event.get("physical") else \
                _("round {n} started: cities dealt by the app{cards}")
            return said.format(n=event.get("round"), cards=cards)
        if etype == "marker":
            return _("{name}'s start marker on {junction}").format(name=who, junction=event.get("junction"))
        if etype == "build":
            paths = event.get("paths") or []
            return _("{name} built {paths}").format(name=who, paths=", ".join(paths) if isinstance(paths, list)
                                                    else paths)
        if etype == "turn-end":
            return _("{name} ended their turn").format(name=who)
        if etype == "hand-set":
            return _("{name}'s hand recorded").format(name=who)
        if etype == "hand-return":
            return _("{name} put a city back").format(name=who)
        if etype == "pass":
            return _("{name} passed a city").format(name=who)
        if etype == "round-end":
            parts = []
            if event.get("rails_out"):
                parts.append(_("the rails ran out"))
            if event.get("winners"):
                parts.append(_("{names} connected").format(names=_(" and ").join(event["winners"])))
            parts += [_("{name} {n} missing").format(name=p, n=n) for p, n in (event.get("missing") or {}).items()]
            said = _("round ended (counted on the board): {parts}") if event.get("auto") else \
                _("round ended: {parts}")
            return said.format(parts="; ".join(parts))
        return super().describe(event)

    def result(self, s: State) -> dict | None:
        return {"winners": list(s["winners"])} if s["finished"] else None

    def turn(self, s: State) -> list[str]:
        """Who is to act: the players whose choice the deal waits for, else whoever places the
        next start marker, else who builds now (``builder``: the player whose turn of rails is
        in progress until it has placed its rails' worth, then the next player clockwise);
        nobody between rounds or once the board says the round is over."""
        if not s["round_open"] or self.round_over(s):
            return []
        waiting = self.waiting(s)
        if waiting:
            return waiting
        track = s["track"]
        if s.get("rulebook_order") and not track["rails"]:
            due = self.marker_due(s)
            if due:
                return [due]
        builder = self.builder(s)
        return [builder] if builder else []

    def view(self, s: State, player: str | None) -> State:
        """What ``player`` may see (None: the table). While a round is open every hand is
        secret but the player's own (and, under swap-hands, the one they handed on), and so is
        the city another player chose to pass; once it has ended the hands are public (they are
        said at `round end`). Nobody ever sees the cards left in the stacks, nor the order of
        the special cards still in the deck."""
        out = dict(s)
        out["leftover"] = {colour: [] for colour in s.get("leftover") or {}}
        deck = s.get("special_deck")
        if deck:
            # the cards still to come are hidden, how many there are is not (the summary says it)
            out["special_deck"] = dict(deck, order=list(deck["order"][: deck["next"]]),
                                       size=deck.get("size", len(deck["order"])))
        if not s["round_open"]:
            return out
        hands = s["hands"]
        seen: dict[str, list[str]] = {}
        if player in hands:
            seen[player] = list(hands[player])
            handed = self.handed_on(s, player)
            if handed:
                seen[handed[0]] = list(handed[1])
        out["hands"] = seen
        # how many cities each holds is public (the cards are in sight): the table's summary says it
        out["hand_sizes"] = {p: len(h) for p, h in hands.items()}
        pending = s.get("pending")
        if pending and pending.get("kind") == "pass-three":
            chosen = pending.get("chosen") or {}
            # who has chosen is public (the deal waits for the others); what, only to the chooser
            out["pending"] = dict(pending, chosen={p: (c if p == player else None) for p, c in chosen.items()})
        return out


class TransEuropa(TransGame):
    listing = 10
    id = "trans-europa"
    title = "Trans Europa"
    description = N_("Connect your five cities across Europe first: fair city deals, special cards, prestige.")
    board = "europa"


class TransAmerika(TransGame):
    listing = 20
    id = "trans-amerika"
    title = "Trans Amerika"
    description = N_("Connect your five cities across the U.S.A. first: fair city deals, special cards, prestige.")
    board = "amerika"
