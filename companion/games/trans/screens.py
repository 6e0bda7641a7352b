"""The words and pieces of Trans screens, as views (companion.contract.view): what `status`,
the moves' messages, `hand` and the pages say, built once for all of them.

Nothing here names a city of a hand that is still secret unless it is built for that hand's
owner (``hand_view``, the owner's Private blocks): a screen for the table is made from the
summary (``status --json``) and the table's view of the state only.
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from companion.contract.errors import CompanionError
from companion.games.trans.junctions import junction_labels
from companion.games.trans.rules import PRESTIGE_GOAL, city_colours, colour_word
from companion.contract.language import N_, _, ngettext
from companion.contract.view import Cmd, Em, Facts, Line, Name, Section, Svg, Table, message, names

# The board's drawing lives in companion.games.trans.drawing (issue 27: a `status` imported it for
# nothing); its names are still read from here, and reading one imports it then.
_DRAWN = frozenset({"CLOSE", "LABEL_EM", "MARK_SIZE", "OWN_SIZE", "PAD", "STEP_X", "STEP_Y", "_KEPT", "_apart",
                    "_box", "_geometry", "_kept", "_lines", "around", "board_elements", "board_svg", "buildable",
                    "escape_text", "geometry", "has_hand", "labels", "legend", "player_colour", "shortened"})


def __getattr__(name: str) -> Any:
    if name in _DRAWN:
        from companion.games.trans import drawing

        return getattr(drawing, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# the commands a choice is typed with, kept on one line when a line is wrapped
CHOICE_COMMANDS = ("pass NAME CITY", "pass NAME", "hand NAME --return CITY", "hand NAME --return")


def and_list(names: list[str]) -> str:
    if len(names) < 2:
        return "".join(names)
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


def parts(text: str, keep: Iterable[str] = ()) -> list[Any]:
    """``text`` as a line's parts: each `command` between backquotes a Cmd, and each of ``keep``
    (a name with a space: St. Louis, a player; a command written without backquotes) a Name,
    so a line never wraps inside one of them."""
    kept = sorted({k for k in keep if k and " " in k}, key=len, reverse=True)
    pattern = re.compile("(" + "|".join(re.escape(k) for k in kept) + ")") if kept else None
    out: list[Any] = []
    for i, piece in enumerate(text.split("`")):
        if i % 2:
            out.append(Cmd(piece))
        elif pattern is None:
            out.append(piece)
        else:
            out += [Name(p) if n % 2 else p for n, p in enumerate(pattern.split(piece)) if p]
    return [p for p in out if p != ""]


def say(text: str, keep: Iterable[str] = (), style: str = "", indent: str = "  ") -> Line:
    """One paragraph of ``text`` (see :func:`parts`)."""
    return Line(*parts(text, keep), style=style, indent=indent)


def says(text: str, keep: Iterable[str] = ()) -> list[Line]:
    """Each line of ``text`` a paragraph."""
    return [say(t, keep) for t in text.split("\n")]


def path_parts(path: str) -> list[Any]:
    """A path of junctions (``San Diego-D11-E11``) as one word: it moves to the next line whole,
    and only a path longer than a line breaks, after a hyphen, never inside a name."""
    steps = path.split("-")
    return [Name(s + "-") for s in steps[:-1]] + [Name(steps[-1])]


# -- what is due ---------------------------------------------------------------------------------

def shell_words(host, pending: str) -> str:
    """What is due, worded for where it is typed: in the shell a choice is made on the private
    screen (`pass Ann`), never typed on the shared one."""
    if getattr(host, "choose_private", None) is None:
        return pending
    return pending.replace("pass NAME CITY", "pass NAME").replace("hand NAME --return CITY", "hand NAME --return") \
        .replace(" CITY", "")


def now_line(host, pending: str, otherwise: str = "", players: Iterable[str] = ()) -> list[Line]:
    """`Now: ...` what is due, with its command to type kept on one line, or ``otherwise`` once
    nothing is due."""
    if not pending:
        return [say(otherwise)] if otherwise else []
    return [say(_("Now: {what}").format(what=shell_words(host, pending)), (*CHOICE_COMMANDS, *players))]


def card_texts(status: dict, game=None, state: dict | None = None) -> list[dict]:
    """The cards in force with what each means, in the viewer's language when the game and the
    state are given (the summary's texts are English: `status --json` is never translated)."""
    card = status.get("special")
    if not card:
        return []
    cards = status.get("specials") or [dict(card, text=status["special_text"])]
    if game is not None and state is not None and state.get("special"):
        cards = [dict(c, text=game.card_text(state, c["id"])) for c in cards]
    return cards


def special_lines(status: dict, game=None, state: dict | None = None) -> list[Line]:
    """The special card(s) in force, what each means this round, and what the digital deck is.

    Several cards: one line each, in the rulebook's order, the order their effects apply in."""
    card = status.get("special")
    if not card:
        return []
    cards = card_texts(status, game, state)
    if len(cards) == 1:
        lines = [Line(_("Special card: {title} ({id}): {text}.").format(title=card["title"], id=card["id"],
                                                                         text=cards[0]["text"]))]
    else:
        lines = [Line(_("Special cards ({n}, applied in the rulebook's order):").format(n=len(cards)))]
        lines += [Line("  " + _("{title} ({id}): {text}.").format(title=c["title"], id=c["id"], text=c["text"]))
                  for c in cards]
    # the cities a reveal card shows, right under the cards (`round start` says them too)
    lines += [Line("  ", *message(_("shown: {name}: {cities}"), name=Name(p), cities=names(cities)))
              for p, cities in (status.get("revealed") or {}).items()]
    aside = status.get("special_set_aside") or []
    if aside:
        lines.append(Line(_("Set aside (they cannot be played with the cards above): {cards}.").format(
            cards=", ".join(aside))))
    deck = status.get("special_deck")
    if deck and card["id"] and status.get("special_from") != "table":
        if deck.get("one_per_variant"):
            note = _("Special-card deck: {left} of {size} cards left (one card per printed variant: how many copies "
                     "of each the box has is not known; `companion data check` lists them).")
        else:
            note = _("Special-card deck: {left} of {size} cards left.")
        lines.append(say(note.format(left=deck["left"], size=deck["size"])))
    return lines


def rails_on_board(status: dict, headed: bool = False) -> str:
    """`12 rails on the board, 58 left in the box` (the box's count when it is known), or with
    ``headed`` the whole sentence under a board: `Round 2 (over): 12 rails on the board.`"""
    built, left = status["rails_built"], status["rails_left"]
    if not headed:
        if left is None:
            return _("{built} on the board").format(built=built)
        return _("{built} on the board, {left} left in the box").format(built=built, left=left)
    over = not status["round_open"]
    if left is None:
        said = _("Round {n} (over): {built} rails on the board.") if over else \
            _("Round {n}: {built} rails on the board.")
    else:
        said = _("Round {n} (over): {built} rails on the board, {left} left in the box.") if over else \
            _("Round {n}: {built} rails on the board, {left} left in the box.")
    return said.format(n=status["round"], built=built, left=left)


def board_lines(status: dict) -> list[Line]:
    """The recorded board in words: markers, rails, whose turn, who connected."""
    players = status["players"]
    if not status["rails_built"] and not any(p["start"] for p in players):
        return []
    markers: list[Any] = []
    for i, p in enumerate(players):
        markers += ([", "] if i else []) + [Name(p["name"]), " ", Name(p["start"] or "-")]
    lines = [Line(*message(_("Start markers: {markers}. Rails: {rails}."), markers=markers,
                           rails=rails_on_board(status)))]
    shared = {tuple(p["network"]) for p in players if len(p["network"]) > 1}
    if shared:
        groups: list[Any] = []
        for i, n in enumerate(sorted(shared)):
            groups += (["; "] if i else []) + _and_names(list(n))
        lines.append(Line(*message(_("Shared networks: {groups}."), groups=groups)))
    turn = status.get("turn")
    if turn and not status["round_over"] and not status.get("abandoned"):
        values = dict(number=turn["number"], lap=turn["lap"], name=Name(turn["player"]), used=turn["used"],
                      allowed=turn["allowed"])
        if status.get("builder") and status["builder"] != turn["player"]:  # the turn is full: the next one builds
            said = _("Turn {number} (lap {lap}): {name}, {used} of {allowed} rails' worth placed; {next} builds next.")
            values["next"] = Name(status["builder"])
        else:
            said = _("Turn {number} (lap {lap}): {name}, {used} of {allowed} rails' worth placed.")
        lines.append(Line(*message(said, **values)))
    if status["connected"]:
        lines.append(Line(*message(_("Connected: {names}."), names=_and_names(status["connected"]))))
    return lines


def _and_names(names: list[str]) -> list[Any]:
    """``and_list`` of names, each kept whole."""
    if len(names) < 2:
        return [Name(n) for n in names]
    head: list[Any] = []
    for i, n in enumerate(names[:-1]):
        head += ([", "] if i else []) + [Name(n)]
    return message(_("{names} and {last}"), names=head, last=Name(names[-1]))


def next_text(status: dict) -> str:
    """What to type next in an open round, with the commands between backquotes."""
    return _("Next: {what}").format(what=next_what(status))


def next_what(status: dict) -> str:
    """:func:`next_text` without its `Next: ` (the shell's toolbar says it under its own)."""
    if status["round_over"]:
        return _("`round end --auto` (the missing rails are counted on the board).")
    if status["finishing"]:
        who = status["finishing"]
        return _("{name} finishes the turn (`build {name} ...`), then `round end --auto`.").format(name=who)
    waiting = [p["name"] for p in status["players"] if p["start"] is None]
    if status["rails_built"] or (not waiting and not status["pending"]):
        return _("`build NAME PATH` as the rails go down, or `round end --winner NAME --missing NAME=N ...`.")
    if len(waiting) < len(status["players"]):
        return _("`start NAME JUNCTION` for {names}, then `build NAME PATH`.").format(names=and_list(waiting))
    return _("`round end --winner NAME --missing NAME=N ...` (or `--rails-out`).")


# -- a hand ----------------------------------------------------------------------------------------

def _by_colour(cities: Iterable[str], colour: dict[str, str], order: list[str]) -> list[str]:
    return sorted(cities, key=lambda c: order.index(colour[c]) if colour.get(c) in order else len(order))


def hand_view(game, state: dict, data: dict, player: str, due: bool = True) -> list:
    """A player's cities with their colours, and what the player still has to do (``due``: not
    on the screen where the choice is being made, whose question says it). ``state`` is what
    ``player`` may see (game.view) or the whole state; only ``player``'s own cities are read."""
    colour = {c["name"]: c["colour"] for c in data.get("cities") or []}
    cities = game.hand_of(state, player)
    order = list(data.get("colours") or [])
    said = _("{name}'s cities (round {n}):") if state["round_open"] else _("{name}'s cities (round {n}, over):")
    out: list = [Line(*message(said, name=Name(player), n=state["round"]))]
    width = max([10, *(len(colour_word(c)) for c in order)])
    out += [Line(f"  {colour_word(colour.get(c, '')):<{width}} ", Name(c)) for c in _by_colour(cities, colour, order)]
    pending = state.get("pending") or {}
    if pending.get("kind") == "pass-three" and (pending.get("chosen") or {}).get(player):
        out.append(Line("  ", *message(_("chosen to pass left: {city}"), city=Name(pending["chosen"][player]))))
    handed = game.handed_on(state, player)
    if handed:  # swap-hands: the cities this player memorized and passed on (seed 000)
        left, passed = handed
        out.append(Line(*message(_("You handed your cities to {name}, who plays them (you know them too):"),
                                 name=Name(left))))
        out += [Line(f"  {colour_word(colour.get(c, '')):<{width}} ", Name(c))
                for c in _by_colour(passed, colour, order)]
    if due and player in game.waiting(state):
        out.append(say(_("Your choice is due: {what}").format(what=game.pending_text(state)),
                       (*CHOICE_COMMANDS, *state["players_order"])))
    return out


# -- the pages ---------------------------------------------------------------------------------------


def headline(status: dict, game=None, state: dict | None = None) -> list[Line]:
    """The lines under a page's heading: the round, whose turn, what comes next."""
    lines = []
    if status["round"] == 0:
        lines.append(say(_("No round yet: the first `round start` deals the cities.")))
    elif status["round_open"]:
        turn = status.get("turn")
        builder = status.get("builder") or (turn or {}).get("player")
        who = (_("{name} is building").format(name=builder) if turn
               else _("{name} starts").format(name=status["start_player"]))
        if status.get("abandoned"):
            who = _("abandoned")
        elif status.get("round_over"):
            who = _("the round is over on the board")
        lines.append(Line(_("Round {n} · {who}").format(n=status["round"], who=who)))
        cards = card_texts(status, game, state)
        if len(cards) > 1:  # several cards at once: each on its line, in the order they apply
            lines += [Line(_("Special card {n}: {title}: {text}").format(n=n, title=c["title"], text=c["text"]))
                      for n, c in enumerate(cards, 1)]
        elif status.get("special"):
            lines.append(Line(_("Special card: {title}: {text}").format(title=status["special"]["title"],
                                                                         text=cards[0]["text"])))
        if status.get("waiting_for"):
            lines.append(Line(_("Waiting for {names} to choose a city.").format(
                names=", ".join(status["waiting_for"]))))
        elif status.get("round_over"):
            lines.append(say(_("Next: the round is over on the board: `round end --auto` scores it.")))
    elif not status.get("finished"):  # a game over has no next round (its winner is said above)
        lines.append(Line(_("Round {n} is over · next: round {next}, {name} starts.").format(
            n=status["round"], next=status["round"] + 1, name=status["start_player"])))
    return lines


class LazySvg:
    """Markup made only when a page asks for it: the terminal never draws an Svg block, and
    `status` should not pay for a board it does not show."""

    def __init__(self, make):
        self.make = make
        self._text: str | None = None

    def __bool__(self) -> bool:
        return True

    def __str__(self) -> str:
        if self._text is None:
            self._text = self.make()
        return self._text


# -- the board to tap (a player's page; the board itself is drawn by companion.games.trans.drawing) --

def rails_word(cost: int) -> str:
    return ngettext("{n} rail", "{n} rails", cost).format(n=cost)


def worth(n: int) -> str:
    """`2 rails' worth`, `1 rail's worth`."""
    return ngettext("{n} rail's worth", "{n} rails' worth", n).format(n=n)


def marker_tap(at, player: str, offered: list[tuple[str, str]]):
    """The board to tap for ``player``'s start marker: every free junction may be tapped, and
    their own cities (ringed, and as buttons of their own) are the usual choice."""
    from companion.contract.view import Tap
    from companion.games.trans.drawing import around, board_elements, geometry, has_hand, legend

    game, state, data = at.game, at.state, at.data
    board = game.board_of(data)
    pts, width, height = geometry(board)
    free = {v for v, _note in offered}
    targets = [(board.name(n), "", pts[n]) for n in range(len(board.xy)) if board.name(n) in free]
    mine = game.hand_of(state, player) if has_hand(game, state, player) else []
    quick = [c for c in _by_colour(mine, city_colours(data), list(data.get("colours") or [])) if c in free]
    markup = LazySvg(lambda: board_elements(game, state, data, at.players, player))
    focus, zoom = around([pts[board.city_nodes[c]] for c in quick], width, height)
    title = _("Tap a junction for your start marker") + legend(game, state, data, player)
    return Tap(markup, width, height, targets, title=title, focus=focus, zoom=zoom,
               label=_("the board with {name}'s cities ringed: tap a free junction").format(name=player), quick=quick)


def build_tap(at, player: str):
    """The board to tap for ``player``'s rails: the lines they may build now highlighted in
    their colour with their cost, zoomed close to their network."""
    from companion.contract.view import Tap
    from companion.games.trans.drawing import CLOSE, board_elements, buildable, geometry, legend

    game, state, data = at.game, at.state, at.data
    board = game.board_of(data)
    pts, width, height = geometry(board)
    lines = buildable(game, board, state, player)
    targets = [(board.edge_name(e), rails_word(cost), (*pts[e[0]], *pts[e[1]])) for e, cost in lines]
    network = game.network(state, board, player)
    joined = set(network)
    near = [(e, cost) for e, cost in lines if e[0] in joined or e[1] in joined]
    far = [(e, cost) for e, cost in lines if not (e[0] in joined or e[1] in joined)]
    mine = [r["line"] for r in state["track"]["rails"] if r["line"][0] in set(network)]
    around = mine[-1] if mine else ([network[0]] if network else [])
    focus = None
    if around:
        xs = [pts[n][0] for n in around]
        ys = [pts[n][1] for n in around]
        focus = (sum(xs) / len(xs), sum(ys) / len(ys))
    left = game.rails_worth_left(state, player)
    markup = LazySvg(lambda: board_elements(game, state, data, at.players, player, near, far))
    if far:  # build-anywhere: the lines next to the network stand out, the rest are there to zoom to
        title = _("Tap a highlighted line to build ({worth} left this turn). Any free line may be built this "
                  "round: zoom in elsewhere on the board and tap it.").format(worth=worth(left))
    else:
        title = _("Tap a highlighted line to build ({worth} left this turn)").format(worth=worth(left))
    return Tap(markup, width, height, targets, focus=focus, zoom=CLOSE if focus else 1,
               title=title + legend(game, state, data, player),
               label=_("the board, the lines {name} may build highlighted with their cost").format(name=player))




def public_blocks(at) -> list:
    """What every page shows of the round: the markers and rails, the round's facts, the
    cities a reveal card showed (public by the rules). No city of a hand: markers are named by
    the city they stand on (public: on the board) and their coordinate, rails are counted, not
    named (a rail's name may be a city's)."""
    status = at.status
    state = at.state
    track = state["track"]
    players = at.players
    rows = []
    where = junction_labels(at.data)  # a marker's junction by its city's name (issue 31)

    for i, p in enumerate(players):
        marker = track["markers"].get(p)
        # who connected is a ✓ by the name, not a column: a city's name in "Start" takes its room
        # (the table page on a phone's 360 px, in German, issue 31)
        rows.append([Em(f"{p} ✓" if p in track["connected"] else p, f"player:{i}"), where(marker[0]) if marker else "-",
                     sum(1 for r in track["rails"] if r["by"] == p)])
    left = status.get("rails_left")
    cards = status.get("specials") or []
    blocks: list = [
        Table([_("Player"), _("Start"), _("Rails")], rows, title=_("Markers and rails")),
        *([Line(_("✓: connected all their cities."), style="muted")] if track["connected"] else []),
        Facts([(_("Rails built"), status["rails_built"]),
               (_("Rails left"), _("not counted") if left is None else left),
               (_("Special cards") if len(cards) > 1 else _("Special card"),
                ", ".join(c["title"] for c in cards) or (status["special"]["title"] if status.get("special")
                                                          else _("none")))],
              title=_("This round")),
    ]
    revealed = status.get("revealed") or {}
    if revealed:
        blocks.append(Table([_("Player"), _("Cities")], [[p, ", ".join(c)] for p, c in revealed.items()],
                            title=_("Shown by the special card")))
    return blocks


def table_board(at) -> Svg:
    """The board on the table page: every marker and rail, no city of a hand named."""
    def draw() -> str:
        from companion.games.trans.drawing import board_svg

        return board_svg(at.game, at.state, at.data, at.players)

    return Svg(LazySvg(draw), title=_("The board"))


def mine_blocks(at, player: str) -> list:
    """What only ``player``'s page shows: their cities with their colours, their marker and
    network, the exact missing-rail count (unless the group turned it off), the choice the
    deal waits for, and their cities ringed on the board. Made from ``player``'s view."""
    from companion.games.trans.drawing import board_svg, has_hand

    state, data, game = at.state, at.data, at.game
    if state["round"] == 0 or not has_hand(game, state, player):
        return [Section([say(_("No cities yet: they are dealt at `round start`."))], title=_("Your cities"))]
    colours = city_colours(data)
    order = list(data.get("colours") or [])
    cities = _by_colour(game.hand_of(state, player), colours, order)
    when = _("Your cities (round {n})") if state["round_open"] else _("Your cities (round {n}, over)")
    board = game.board_of(data)
    track = state["track"]
    marker = track["markers"].get(player)
    items: list = [(_("Start marker"), board.coord[marker[0]] + (f" ({marker[1]})" if marker[1] != board.coord[marker[0]]
                                                               else "") if marker else _("not placed yet"))]
    shared = [q for q in (game.networks(state).get(player) or []) if q != player]
    if marker:
        items.append((_("Network"), _("shared with {names}").format(names=", ".join(shared)) if shared
                      else _("your own")))
    if (at.session.meta.get("options") or {}).get("rail_count", True) is not False:
        items.append((_("Missing rails"), missing_words(game, state, data, player)))
    pending = state.get("pending") or {}
    if pending.get("kind") == "pass-three" and (pending.get("chosen") or {}).get(player):
        items.append((_("Chosen to pass left"), pending["chosen"][player]))

    def coloured(c: str) -> Em:
        colour = colours.get(c, "")
        return Em(colour_word(colour), f"colour:{colour}" if colour else "")

    blocks: list = []
    choice = choice_words(game, state, data, player)
    if choice:
        blocks.append(Section([Line(choice[1])], title=choice[0]))
    blocks.append(Table([_("Colour"), _("City")], [[coloured(c), c] for c in cities],
                        title=when.format(n=state["round"])))
    handed = game.handed_on(state, player)
    if handed:  # swap-hands: the cities this player memorized and passed on (seed 000)
        left, passed = handed
        blocks.append(Table([_("Colour"), _("City")], [[coloured(c), c] for c in _by_colour(passed, colours, order)],
                            title=_("The cities you handed to {name} (you know them too)").format(name=left)))
    blocks.append(Facts(items, title=_("You")))
    if not tapping(game, state, player):  # the board to tap on the page shows them already
        blocks.append(Svg(LazySvg(lambda: board_svg(game, state, data, at.players, player)),
                          title=_("Your cities on the board")))
    return blocks


def tapping(game, state: dict, player: str) -> bool:
    """Whether ``player``'s page has the board to tap now (their marker or their rails)."""
    track = state["track"]
    if not state["round_open"] or state.get("pending"):
        return False
    if player not in track["markers"] and not track["rails"]:
        return not state.get("rulebook_order") or game.marker_due(state) == player
    return game.builder(state) == player


def missing_words(game, state: dict, data: dict, player: str) -> str:
    """The exact count on the recorded board, as `rails NAME` gives it."""
    try:
        tree = game.missing_tree(state, data, player)
    except CompanionError as exc:
        return _("not counted: {why}").format(why=exc.message)
    if tree.cost == 0:
        return _("0: your cities are joined")
    if player in state["track"]["markers"]:
        return _("{n} to your network").format(n=tree.cost)
    return _("{n} to each other (no marker yet)").format(n=tree.cost)


def choice_words(game, state: dict, data: dict, player: str) -> tuple[str, str] | None:
    """(title, what to do) of the city a pass or return special card asks of ``player`` now."""
    if not state.get("round_open") or player not in game.waiting(state):
        return None
    pending = state.get("pending") or {}
    kind = pending.get("kind")
    if kind == "return":
        return _("Put one city back"), _("Choose the city you put back: you play with the other four.")
    if kind == "pass-colour":
        colour = colour_word(pending["colour"])
        last = pending["next"] == len(pending["order"]) - 1
        what = _("Choose the {colour} city you put back on the stack.") if last else \
            _("Choose the {colour} city you pass to your left neighbour.")
        title = (_("Pass an {colour} city") if colour[:1].lower() in "aeiou" else _("Pass a {colour} city"))
        return title.format(colour=colour), what.format(colour=colour)
    if kind == "pass-three":
        return (_("Pass a city (pass {lap} of 3)").format(lap=pending["lap"]),
                _("Choose the city you pass to your left neighbour; everyone's cards move at once."))
    return None


def choosable(game, state: dict, data: dict, player: str) -> list[str]:
    """The cities ``player`` may choose now (their own hand, a colour's when a card names one)."""
    if not state.get("round_open") or player not in game.waiting(state):
        return []
    pending = state.get("pending") or {}
    hand = game.hand_of(state, player)
    if pending.get("kind") == "pass-colour":
        colours = city_colours(data)
        return [c for c in hand if colours.get(c) == pending["colour"]]
    return hand


def revealed_blocks(game, state: dict) -> list:
    """Every hand of the last round, once the game is over (public then)."""
    hands = game.public_hands(state) or {}
    return [Table([_("Player"), _("Cities")], [[p, ", ".join(c)] for p, c in hands.items()],
                  title=_("Everyone's cities (last round)"), wide=True)]


def score_track(score: int):
    from companion.contract.view import Bar

    return Bar(score, PRESTIGE_GOAL, width=PRESTIGE_GOAL)  # one mark per point
