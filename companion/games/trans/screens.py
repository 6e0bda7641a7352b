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
from companion.games.trans.rules import PRESTIGE_GOAL, city_colours
from companion.contract.view import Cmd, Em, Facts, Line, Name, Section, Svg, Table, names, player_colour

# the commands a choice is typed with, kept on one line when a line is wrapped
CHOICE_COMMANDS = ("pass NAME CITY", "pass NAME", "hand NAME --return CITY", "hand NAME --return")


def and_list(names: list[str]) -> str:
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


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
    return [say("Now: " + shell_words(host, pending), (*CHOICE_COMMANDS, *players))]


def special_lines(status: dict) -> list[Line]:
    """The special card(s) in force, what each means this round, and what the digital deck is.

    Several cards: one line each, in the rulebook's order, the order their effects apply in."""
    card = status.get("special")
    if not card:
        return []
    cards = status.get("specials") or [dict(card, text=status["special_text"])]
    if len(cards) == 1:
        lines = [Line(f"Special card: {card['title']} ({card['id']}): {status['special_text']}.")]
    else:
        lines = [Line(f"Special cards ({len(cards)}, applied in the rulebook's order):")]
        lines += [Line(f"  {c['title']} ({c['id']}): {c['text']}.") for c in cards]
    # the cities a reveal card shows, right under the cards (`round start` says them too)
    lines += [Line("  shown: ", Name(p), ": ", *names(cities))
              for p, cities in (status.get("revealed") or {}).items()]
    aside = status.get("special_set_aside") or []
    if aside:
        lines.append(Line(f"Set aside (they cannot be played with the cards above): {', '.join(aside)}."))
    deck = status.get("special_deck")
    if deck and card["id"] and status.get("special_from") != "table":
        note = f"Special-card deck: {deck['left']} of {deck['size']} cards left"
        if deck.get("one_per_variant"):
            note += (" (one card per printed variant: how many copies of each the box has is not known; "
                     "`companion data check` lists them)")
        lines.append(say(note + "."))
    return lines


def board_lines(status: dict) -> list[Line]:
    """The recorded board in words: markers, rails, whose turn, who connected."""
    players = status["players"]
    if not status["rails_built"] and not any(p["start"] for p in players):
        return []
    markers: list[Any] = []
    for i, p in enumerate(players):
        markers += ([", "] if i else []) + [Name(p["name"]), " ", Name(p["start"] or "-")]
    left = f", {status['rails_left']} left in the box" if status["rails_left"] is not None else ""
    lines = [Line("Start markers: ", *markers, f". Rails: {status['rails_built']} on the board{left}.")]
    shared = {tuple(p["network"]) for p in players if len(p["network"]) > 1}
    if shared:
        groups: list[Any] = []
        for i, n in enumerate(sorted(shared)):
            groups += (["; "] if i else []) + _and_names(list(n))
        lines.append(Line("Shared networks: ", *groups, "."))
    turn = status.get("turn")
    if turn and not status["round_over"] and not status.get("abandoned"):
        done = [f", {turn['used']} of {turn['allowed']} rails' worth placed"]
        if status.get("builder") and status["builder"] != turn["player"]:  # the turn is full: the next one builds
            done = [done[0] + "; ", Name(status["builder"]), " builds next"]
        lines.append(Line(f"Turn {turn['number']} (lap {turn['lap']}): ", Name(turn["player"]), *done, "."))
    if status["connected"]:
        lines.append(Line("Connected: ", *_and_names(status["connected"]), "."))
    return lines


def _and_names(names: list[str]) -> list[Any]:
    """``and_list`` of names, each kept whole."""
    out: list[Any] = []
    for i, n in enumerate(names):
        if i:
            out.append(" and " if i == len(names) - 1 else ", ")
        out.append(Name(n))
    return out


def next_text(status: dict) -> str:
    """What to type next in an open round, with the commands between backquotes."""
    if status["round_over"]:
        return "Next: `round end --auto` (the missing rails are counted on the board)."
    if status["finishing"]:
        who = status["finishing"]
        return f"Next: {who} finishes the turn (`build {who} ...`), then `round end --auto`."
    waiting = [p["name"] for p in status["players"] if p["start"] is None]
    if status["rails_built"] or (not waiting and not status["pending"]):
        return "Next: `build NAME PATH` as the rails go down, or `round end --winner NAME --missing NAME=N ...`."
    if len(waiting) < len(status["players"]):
        return f"Next: `start NAME JUNCTION` for {and_list(waiting)}, then `build NAME PATH`."
    return "Next: `round end --winner NAME --missing NAME=N ...` (or `--rails-out`)."


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
    when = f"round {state['round']}" + ("" if state["round_open"] else ", over")
    out: list = [Line(Name(player), f"'s cities ({when}):")]
    out += [Line(f"  {colour.get(c, ''):<10} ", Name(c)) for c in _by_colour(cities, colour, order)]
    pending = state.get("pending") or {}
    if pending.get("kind") == "pass-three" and (pending.get("chosen") or {}).get(player):
        out.append(Line("  chosen to pass left: ", Name(pending["chosen"][player])))
    handed = game.handed_on(state, player)
    if handed:  # swap-hands: the cities this player memorized and passed on (seed 000)
        left, passed = handed
        out.append(Line("You handed your cities to ", Name(left), ", who plays them (you know them too):"))
        out += [Line(f"  {colour.get(c, ''):<10} ", Name(c)) for c in _by_colour(passed, colour, order)]
    if due and player in game.waiting(state):
        out.append(say("Your choice is due: " + game.pending_text(state), (*CHOICE_COMMANDS, *state["players_order"])))
    return out


# -- the pages ---------------------------------------------------------------------------------------

STEP_X, STEP_Y, PAD = 14, 24, 18


def headline(status: dict) -> list[Line]:
    """The lines under a page's heading: the round, whose turn, what comes next."""
    lines = []
    if status["round"] == 0:
        lines.append(say("No round yet: the first `round start` deals the cities."))
    elif status["round_open"]:
        turn = status.get("turn")
        builder = status.get("builder") or (turn or {}).get("player")
        who = (f"{builder} is building" if turn else f"{status['start_player']} starts")
        if status.get("abandoned"):
            who = "abandoned"
        elif status.get("round_over"):
            who = "the round is over on the board"
        lines.append(Line(f"Round {status['round']} · {who}"))
        cards = status.get("specials") or []
        if len(cards) > 1:  # several cards at once: each on its line, in the order they apply
            lines += [Line(f"Special card {n}: {c['title']}: {c['text']}") for n, c in enumerate(cards, 1)]
        elif status.get("special"):
            lines.append(Line(f"Special card: {status['special']['title']}: {status['special_text']}"))
        if status.get("waiting_for"):
            lines.append(Line("Waiting for " + ", ".join(status["waiting_for"]) + " to choose a city."))
        elif status.get("round_over"):
            lines.append(say("Next: the round is over on the board: `round end --auto` scores it."))
    else:
        lines.append(Line(f"Round {status['round']} is over · next: round {status['round'] + 1}, "
                          f"{status['start_player']} starts."))
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


def geometry(board) -> tuple[list[tuple[float, float]], float, float]:
    """Where each junction is drawn (in the drawing's units) and the drawing's width and
    height: rows offset by half a junction, as on the printed board, with room around."""
    xs = [(2 * x - y) * STEP_X for x, y in board.xy]
    ys = [y * STEP_Y for _, y in board.xy]
    left, top = min(xs) - PAD, min(ys) - PAD
    width, height = max(xs) - left + PAD, max(ys) - top + PAD
    return [(x - left, y - top) for x, y in zip(xs, ys)], width, height


LABEL_EM = 0.62  # a label's width per character, in font sizes (to keep every label inside the drawing)


def board_elements(game, state: dict, data: dict, players: list[str], mine: str | None = None,
                   offered: Iterable[tuple[tuple[int, int], int]] = ()) -> str:
    """The board's SVG elements: lines (a double line drawn doubled), cities (a dot and a
    mark), rails and markers in the players' colours, and ``offered`` lines (what ``mine`` may
    build now) highlighted in their colour with their cost.

    With ``mine`` (a player's page, ``state`` that player's view) that player's cities are
    ringed and named and their network is drawn wider. Without, no city is named: cities are
    drawn as the printed board shows them (a dot and a three-letter mark). A label near the
    east edge is written leftwards of its city, so none is ever cut off."""
    from html import escape

    from companion.contract.view import COLOURS

    board = game.board_of(data)
    track = state["track"]
    pts, width, _height = geometry(board)

    def seat(p: str) -> str:
        return player_colour(players.index(p))

    out = []
    for (a, b), cost in board.cost.items():
        (x1, y1), (x2, y2) = pts[a], pts[b]
        if cost == 2:  # a double line: two strokes, as printed, easy to tell from a single one
            out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#777" stroke-width="4"/>'
                       f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#f4f4f4" stroke-width="1.4"/>')
        else:
            out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#9999" stroke-width="1.2"/>')
    offered = list(offered)
    if offered and mine:
        colour = seat(mine)
        for (a, b), cost in offered:
            (x1, y1), (x2, y2) = pts[a], pts[b]
            out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" stroke-opacity=".45" '
                       f'stroke-width="7" stroke-linecap="round" stroke-dasharray="3 2" '
                       f'data-v="{escape(board.edge_name((a, b)), quote=True)}"/>')
        for (a, b), cost in offered:
            (x1, y1), (x2, y2) = pts[a], pts[b]
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            out.append(f'<circle cx="{mx}" cy="{my}" r="4.2" fill="#fff" stroke="{colour}" stroke-width="1.2"/>'
                       f'<text x="{mx}" y="{my + 2.6}" font-size="7" text-anchor="middle" fill="#111">{cost}</text>')
    network = set(game.network(state, board, mine)) if mine else set()
    for r in track["rails"]:
        a, b = r["line"]
        (x1, y1), (x2, y2) = pts[a], pts[b]
        w = 6 if a in network and b in network else 4
        out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{seat(r["by"])}" '
                   f'stroke-width="{w}" stroke-linecap="round"/>')
    hand = set(game.hand_of(state, mine)) if mine and has_hand(game, state, mine) else set()
    for city in board.cities:
        x, y = pts[city.node]
        fill = COLOURS.get(city.colour, "#888")
        out.append(f'<circle cx="{x}" cy="{y}" r="5" fill="{fill}" stroke="#333" stroke-width="1"/>')
        own = city.name in hand
        label = city.name if own else city.abbr
        size = 11 if own else 8
        weight = ' font-weight="700"' if own else ""
        if x + 7 + LABEL_EM * size * len(label) > width - 2:  # it would run off the east edge
            where = f'x="{x - 7}" text-anchor="end"'
        else:
            where = f'x="{x + 7}"'
        out.append(f'<text {where} y="{y - 5}" font-size="{size}"{weight} fill="currentColor">{escape(label)}</text>')
        if own:
            out.append(f'<circle cx="{x}" cy="{y}" r="10" fill="none" stroke="{seat(mine)}" stroke-width="3" '
                       f'data-v="{escape(city.name, quote=True)}"/>')
    for p, (node, _name) in track["markers"].items():
        x, y = pts[node]
        out.append(f'<rect x="{x - 6}" y="{y - 6}" width="12" height="12" transform="rotate(45 {x} {y})" '
                   f'fill="{seat(p)}" stroke="#000" stroke-width="1.5"/>')
    return "".join(out)


def board_svg(game, state: dict, data: dict, players: list[str], mine: str | None = None) -> str:
    """The board as one SVG (see :func:`board_elements`), fitted to the width of its page."""
    _pts, width, height = geometry(game.board_of(data))
    label = f"the board, {escape_text(mine)}'s cities ringed" if mine else "the board"
    return (f'<svg class="board" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
            f'aria-label="{label}">{board_elements(game, state, data, players, mine)}</svg>')


def escape_text(text: str) -> str:
    from html import escape

    return escape(text, quote=True)


# -- the board to tap (a player's page) --------------------------------------------------------------

CLOSE = 4  # how close a page zooms in to build: lines then 50 px apart on a phone, easy to hit


def buildable(game, board, state: dict, player: str) -> list[tuple[tuple[int, int], int]]:
    """The lines ``player`` may build now with what each takes of the turn ([(line, cost)]):
    free lines touching their network (anywhere under the build-anywhere card), costing no
    more than the rails' worth left in their turn. From ``state``, the player's own view."""
    from companion.games.trans.specials import in_force

    track = state["track"]
    if player not in track["markers"]:
        return []
    built = {tuple(r["line"]) for r in track["rails"]}
    costs = game._turn_costs(state, board)
    left = game.rails_worth_left(state, player)
    anywhere = "build-anywhere" in in_force(state)
    network = set(game.network(state, board, player))
    out = []
    for e, cost in sorted(costs.items(), key=lambda item: (board.name(item[0][0]), board.name(item[0][1]))):
        if e in built or cost > left:
            continue
        if anywhere or e[0] in network or e[1] in network:
            out.append((e, cost))
    return out


def rails_word(cost: int) -> str:
    return f"{cost} rail{'s' if cost != 1 else ''}"


def worth(n: int) -> str:
    """`2 rails' worth`, `1 rail's worth`."""
    return f"{n} rails' worth" if n != 1 else "1 rail's worth"


def marker_tap(at, player: str, offered: list[tuple[str, str]]):
    """The board to tap for ``player``'s start marker: every free junction may be tapped, and
    their own cities (ringed, and as buttons of their own) are the usual choice."""
    from companion.contract.view import Tap

    game, state, data = at.game, at.state, at.data
    board = game.board_of(data)
    pts, width, height = geometry(board)
    free = {v for v, _ in offered}
    targets = [(board.name(n), "", pts[n]) for n in range(len(board.xy)) if board.name(n) in free]
    mine = game.hand_of(state, player) if has_hand(game, state, player) else []
    quick = [c for c in _by_colour(mine, city_colours(data), list(data.get("colours") or [])) if c in free]
    markup = LazySvg(lambda: board_elements(game, state, data, at.players, player))
    return Tap(markup, width, height, targets, title="Tap a junction for your start marker",
               label=f"the board with {player}'s cities ringed: tap a free junction", quick=quick)


def build_tap(at, player: str):
    """The board to tap for ``player``'s rails: the lines they may build now highlighted in
    their colour with their cost, zoomed close to their network."""
    from companion.contract.view import Tap

    game, state, data = at.game, at.state, at.data
    board = game.board_of(data)
    pts, width, height = geometry(board)
    lines = buildable(game, board, state, player)
    targets = [(board.edge_name(e), rails_word(cost), (*pts[e[0]], *pts[e[1]])) for e, cost in lines]
    network = game.network(state, board, player)
    mine = [r["line"] for r in state["track"]["rails"] if r["line"][0] in set(network)]
    around = mine[-1] if mine else ([network[0]] if network else [])
    focus = None
    if around:
        xs = [pts[n][0] for n in around]
        ys = [pts[n][1] for n in around]
        focus = (sum(xs) / len(xs), sum(ys) / len(ys))
    left = game.rails_worth_left(state, player)
    markup = LazySvg(lambda: board_elements(game, state, data, at.players, player, lines))
    return Tap(markup, width, height, targets, focus=focus, zoom=CLOSE if focus else 1,
               title=f"Tap a highlighted line to build ({worth(left)} left this turn)",
               label=f"the board, the lines {player} may build highlighted with their cost")


def has_hand(game, state: dict, player: str) -> bool:
    try:
        game.hand_of(state, player)
        return True
    except CompanionError:
        return False


def public_blocks(at) -> list:
    """What every page shows of the round: the markers and rails, the round's facts, the
    cities a reveal card showed (public by the rules). No city of a hand: markers are named by
    their coordinate and the label the board prints there, rails are counted, not named (a
    rail's name may be a city's)."""
    status = at.status
    state = at.state
    game = at.game
    board = game.board_of(at.data)
    track = state["track"]
    players = at.players
    rows = []
    def where(node: int) -> str:
        """A marker's junction as the board prints it: its city's three-letter label beside the
        coordinate (issue 31: "J7 (KaC)", not a bare grid square), the label the drawing shows."""
        city = board.city_at(node)
        return f"{board.coord[node]} ({city.abbr})" if city is not None else board.coord[node]

    for i, p in enumerate(players):
        marker = track["markers"].get(p)
        rows.append([Em(p, f"player:{i}"), where(marker[0]) if marker else "-",
                     sum(1 for r in track["rails"] if r["by"] == p), "yes" if p in track["connected"] else ""])
    left = status.get("rails_left")
    cards = status.get("specials") or []
    blocks: list = [
        Table(["Player", "Start", "Rails", "Connected"], rows, title="Markers and rails"),
        Facts([("Rails built", status["rails_built"]),
               ("Rails left", "not counted" if left is None else left),
               ("Special cards" if len(cards) > 1 else "Special card",
                ", ".join(c["title"] for c in cards) or (status["special"]["title"] if status.get("special") else "none"))],
              title="This round"),
    ]
    revealed = status.get("revealed") or {}
    if revealed:
        blocks.append(Table(["Player", "Cities"], [[p, ", ".join(c)] for p, c in revealed.items()],
                            title="Shown by the special card"))
    return blocks


def table_board(at) -> Svg:
    """The board on the table page: every marker and rail, no city of a hand named."""
    return Svg(LazySvg(lambda: board_svg(at.game, at.state, at.data, at.players)), title="The board")


def mine_blocks(at, player: str) -> list:
    """What only ``player``'s page shows: their cities with their colours, their marker and
    network, the exact missing-rail count (unless the group turned it off), the choice the
    deal waits for, and their cities ringed on the board. Made from ``player``'s view."""
    state, data, game = at.state, at.data, at.game
    if state["round"] == 0 or not has_hand(game, state, player):
        return [Section([say("No cities yet: they are dealt at `round start`.")], title="Your cities")]
    colours = city_colours(data)
    order = list(data.get("colours") or [])
    cities = _by_colour(game.hand_of(state, player), colours, order)
    when = f"round {state['round']}" + ("" if state["round_open"] else ", over")
    board = game.board_of(data)
    track = state["track"]
    marker = track["markers"].get(player)
    items: list = [("Start marker", board.coord[marker[0]] + (f" ({marker[1]})" if marker[1] != board.coord[marker[0]]
                                                            else "") if marker else "not placed yet")]
    shared = [q for q in (game.networks(state).get(player) or []) if q != player]
    if marker:
        items.append(("Network", "shared with " + ", ".join(shared) if shared else "your own"))
    if (at.session.meta.get("options") or {}).get("rail_count", True) is not False:
        items.append(("Missing rails", missing_words(game, state, data, player)))
    pending = state.get("pending") or {}
    if pending.get("kind") == "pass-three" and (pending.get("chosen") or {}).get(player):
        items.append(("Chosen to pass left", pending["chosen"][player]))

    def coloured(c: str) -> Em:
        colour = colours.get(c, "")
        return Em(colour, f"colour:{colour}" if colour else "")

    blocks: list = []
    choice = choice_words(game, state, data, player)
    if choice:
        blocks.append(Section([Line(choice[1])], title=choice[0]))
    blocks.append(Table(["Colour", "City"], [[coloured(c), c] for c in cities], title=f"Your cities ({when})"))
    handed = game.handed_on(state, player)
    if handed:  # swap-hands: the cities this player memorized and passed on (seed 000)
        left, passed = handed
        blocks.append(Table(["Colour", "City"], [[coloured(c), c] for c in _by_colour(passed, colours, order)],
                            title=f"The cities you handed to {left} (you know them too)"))
    blocks.append(Facts(items, title="You"))
    if not tapping(game, state, player):  # the board to tap on the page shows them already
        blocks.append(Svg(LazySvg(lambda: board_svg(game, state, data, at.players, player)),
                          title="Your cities on the board"))
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
        return f"not counted: {exc.message}"
    if tree.cost == 0:
        return "0: your cities are joined"
    goal = "to your network" if player in state["track"]["markers"] else "to each other (no marker yet)"
    return f"{tree.cost} {goal}"


def choice_words(game, state: dict, data: dict, player: str) -> tuple[str, str] | None:
    """(title, what to do) of the city a pass or return special card asks of ``player`` now."""
    if not state.get("round_open") or player not in game.waiting(state):
        return None
    pending = state.get("pending") or {}
    kind = pending.get("kind")
    if kind == "return":
        return "Put one city back", "Choose the city you put back: you play with the other four."
    if kind == "pass-colour":
        colour = pending["colour"]
        last = pending["next"] == len(pending["order"]) - 1
        what = "put back on the stack" if last else "pass to your left neighbour"
        from companion.contract.language import _

        title = (_("Pass an {colour} city") if colour[:1].lower() in "aeiou" else _("Pass a {colour} city"))
        return title.format(colour=colour), f"Choose the {colour} city you {what}."
    if kind == "pass-three":
        return (f"Pass a city (pass {pending['lap']} of 3)",
                "Choose the city you pass to your left neighbour; everyone's cards move at once.")
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
    return [Table(["Player", "Cities"], [[p, ", ".join(c)] for p, c in hands.items()],
                  title="Everyone's cities (last round)", wide=True)]


def score_track(score: int):
    from companion.contract.view import Bar

    return Bar(score, PRESTIGE_GOAL, width=PRESTIGE_GOAL)  # one mark per point
