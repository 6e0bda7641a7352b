"""Trans Europa / Amerika on the phones (`companion serve`): the board and each player's hand.

The table page draws the board with every start marker and rail, and never a city of a hand:
cities are drawn as the printed board shows them (a dot and a three-letter mark), markers are
named by their coordinate, and rails are not listed by name (a rail's name may be a city's).
A player's page adds that player's five cities with their colours, ringed on the board, their
start marker and network, and the exact missing-rail count (unless the group turned it off at
`new` with --no-rail-count). The pass and return special cards are offered as buttons.
"""

from __future__ import annotations

from html import escape

from companion.core.errors import CompanionError
from companion.games.trans.rules import PRESTIGE_GOAL, city_colours
from companion.games.trans.track import trans_board

# The same palette as the score bars (companion.web.pages.PLAYER_COLOURS; a test checks).
PLAYER_COLOURS = ("#e6194b", "#4363d8", "#3cb44b", "#f58231", "#911eb4", "#42d4f4")
CITY_FILL = {"yellow": "#e8c220", "red": "#d33a2c", "orange": "#f08a24", "green": "#3f9a3f", "blue": "#2f6fd0",
             "white": "#f4f4f4", "pink": "#e879b5", "brown": "#8a5a35", "turquoise": "#2bb5b0"}
STEP_X, STEP_Y, PAD = 14, 24, 18


def headline(session, replay, status: dict) -> list[str]:
    lines = []
    if status["round"] == 0:
        lines.append("No round yet: the first `round start` deals the cities.")
    elif status["round_open"]:
        turn = status.get("turn")
        who = f"{turn['player']} is building" if turn else f"{status['start_player']} starts"
        lines.append(f"Round {status['round']} · {who}")
        cards = status.get("specials") or []
        if len(cards) > 1:  # several cards at once: each on its line, in the order they apply
            lines += [f"Special card {n}: {c['title']}: {c['text']}" for n, c in enumerate(cards, 1)]
        elif status.get("special"):
            lines.append(f"Special card: {status['special']['title']}: {status['special_text']}")
        if status.get("waiting_for"):
            lines.append("Waiting for " + ", ".join(status["waiting_for"]) + " to choose a city.")
        elif status.get("round_over"):
            lines.append("Next: the round is over on the board: `round end --auto` scores it.")
    else:
        lines.append(f"Round {status['round']} is over · next: round {status['round'] + 1}, "
                     f"{status['start_player']} starts.")
    return lines


def score_goal(status: dict):
    return PRESTIGE_GOAL  # prestige climbs to 13; classic starts at 13 and runs down to 0


def _seat_colour(session, player: str) -> str:
    return PLAYER_COLOURS[session.players.index(player) % len(PLAYER_COLOURS)]


def board_svg(session, replay, mine: str | None = None) -> str:
    """The board: lines, cities (dots and marks), rails and markers in the players' colours.

    With ``mine`` (a player's page) that player's cities are ringed and named and their
    network is drawn wider.
    """
    state, data = replay.state, replay.data
    board = trans_board(data, session.meta["game"])
    track = state["track"]
    xs = [(2 * x - y) * STEP_X for x, y in board.xy]
    ys = [y * STEP_Y for _, y in board.xy]
    left, top = min(xs) - PAD, min(ys) - PAD
    width, height = max(xs) - left + PAD, max(ys) - top + PAD

    def at(n: int) -> tuple[float, float]:
        return xs[n] - left, ys[n] - top

    out = [f'<svg class="board" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
           f'aria-label="the board">']
    for (a, b), cost in board.cost.items():
        (x1, y1), (x2, y2) = at(a), at(b)
        w = 2.2 if cost == 2 else 1
        out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#9995" stroke-width="{w}"/>')
    network: set[int] = set()
    if mine and mine in track["markers"]:
        network = board.network(track["markers"][mine][0], [tuple(r["line"]) for r in track["rails"]])
    for r in track["rails"]:
        a, b = r["line"]
        (x1, y1), (x2, y2) = at(a), at(b)
        w = 6 if a in network and b in network else 4
        out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{_seat_colour(session, r["by"])}" '
                   f'stroke-width="{w}" stroke-linecap="round"/>')
    hand = set(session.game.hand_of(state, mine)) if mine and _has_hand(session, state, mine) else set()
    for city in board.cities:
        x, y = at(city.node)
        fill = CITY_FILL.get(city.colour, "#888")
        out.append(f'<circle cx="{x}" cy="{y}" r="5" fill="{fill}" stroke="#333" stroke-width="1"/>')
        label = city.name if city.name in hand else city.abbr
        weight = ' font-weight="700"' if city.name in hand else ""
        out.append(f'<text x="{x + 7}" y="{y - 5}" font-size="{11 if city.name in hand else 8}"{weight} '
                   f'fill="currentColor">{escape(label)}</text>')
        if city.name in hand:
            out.append(f'<circle cx="{x}" cy="{y}" r="10" fill="none" stroke="{_seat_colour(session, mine)}" '
                       f'stroke-width="3"/>')
    for p, (node, _name) in track["markers"].items():
        x, y = at(node)
        colour = _seat_colour(session, p)
        out.append(f'<rect x="{x - 6}" y="{y - 6}" width="12" height="12" transform="rotate(45 {x} {y})" '
                   f'fill="{colour}" stroke="#000" stroke-width="1.5"/>')
    out.append("</svg>")
    return "".join(out)


def _has_hand(session, state, player: str) -> bool:
    try:
        session.game.hand_of(state, player)
        return True
    except CompanionError:
        return False


def public_view(session, replay) -> list[dict]:
    state = replay.state
    status = session.status(replay)
    board = trans_board(replay.data, session.meta["game"])
    track = state["track"]
    rows = []
    for p in session.players:
        marker = track["markers"].get(p)
        rows.append([{"text": p, "colour": _seat_colour(session, p)},
                     board.coord[marker[0]] if marker else "-",
                     sum(1 for r in track["rails"] if r["by"] == p),
                     "yes" if p in track["connected"] else ""])
    left = status.get("rails_left")
    blocks: list[dict] = [
        {"kind": "svg", "title": "The board", "markup": board_svg(session, replay), "table_only": True},
        {"kind": "table", "title": "Markers and rails", "head": ["Player", "Start", "Rails", "Connected"],
         "rows": rows},
        {"kind": "facts", "title": "This round",
         "items": [["Rails built", status["rails_built"]],
                   ["Rails left", "not counted" if left is None else left],
                   ["Special cards" if len(status.get("specials") or []) > 1 else "Special card",
                    ", ".join(c["title"] for c in status.get("specials") or [])
                    or (status["special"]["title"] if status.get("special") else "none")]]},
    ]
    revealed = status.get("revealed") or {}
    if revealed:  # a reveal special card shows these cities to everyone: public by the rules
        blocks.append({"kind": "table", "title": "Shown by the special card", "head": ["Player", "Cities"],
                       "rows": [[p, ", ".join(c)] for p, c in revealed.items()]})
    return blocks


def private_view(session, replay, player: str) -> list[dict]:
    state, data = replay.state, replay.data
    if state["round"] == 0 or not _has_hand(session, state, player):
        return [{"kind": "text", "title": "Your cities", "text": "No cities yet: they are dealt at `round start`."}]
    game = session.game
    colours = city_colours(data)
    order = list(data.get("colours") or [])
    cities = sorted(game.hand_of(state, player),
                    key=lambda c: order.index(colours[c]) if colours.get(c) in order else len(order))
    when = f"round {state['round']}" + ("" if state["round_open"] else ", over")
    board = trans_board(data, session.meta["game"])
    track = state["track"]
    marker = track["markers"].get(player)
    items = [["Start marker", board.coord[marker[0]] + (f" ({marker[1]})" if marker[1] != board.coord[marker[0]] else "")
              if marker else "not placed yet"]]
    shared = [q for q in (game.networks(state).get(player) or []) if q != player]
    if marker:
        items.append(["Network", "shared with " + ", ".join(shared) if shared else "your own"])
    if (session.meta.get("options") or {}).get("rail_count", True) is not False:
        items.append(["Missing rails", _missing(session, replay, player)])
    pending = state.get("pending") or {}
    if pending.get("kind") == "pass-three" and player in pending.get("chosen", {}):
        items.append(["Chosen to pass left", pending["chosen"][player]])
    blocks = [
        {"kind": "table", "title": f"Your cities ({when})", "head": ["Colour", "City"],
         "rows": [[{"text": colours.get(c, ""), "colour": colours.get(c, "grey")}, c] for c in cities]},
    ]
    handed = game.handed_on(state, player)
    if handed:  # swap-hands: the cities this player memorized and passed on (seed 000)
        left, passed = handed
        passed = sorted(passed, key=lambda c: order.index(colours[c]) if colours.get(c) in order else len(order))
        blocks.append({"kind": "table", "title": f"The cities you handed to {left} (you know them too)",
                       "head": ["Colour", "City"],
                       "rows": [[{"text": colours.get(c, ""), "colour": colours.get(c, "grey")}, c] for c in passed]})
    return blocks + [
        {"kind": "facts", "title": "You", "items": items},
        {"kind": "svg", "title": "Your cities on the board", "markup": board_svg(session, replay, player)},
    ]


def _missing(session, replay, player: str) -> str:
    """The exact count on the recorded board, as `rails NAME` gives it."""
    try:
        tree = session.game.missing_tree(replay.state, replay.data, player)
    except CompanionError as exc:
        return f"not counted: {exc.message}"
    if tree.cost == 0:
        return "0: your cities are joined"
    goal = "to your network" if player in replay.state["track"]["markers"] else "to each other (no marker yet)"
    return f"{tree.cost} {goal}"


def choice(session, replay, player: str) -> dict | None:
    """The city a pass or return special card asks of ``player`` now, as buttons."""
    state, data = replay.state, replay.data
    game = session.game
    if not state.get("round_open") or player not in game.waiting(state):
        return None
    pending = state.get("pending") or {}
    kind = pending.get("kind")
    hand = game.hand_of(state, player)
    colours = city_colours(data)
    if kind == "return":
        return {"title": "Put one city back", "prompt": "Choose the city you put back: you play with the other four.",
                "options": hand}
    if kind == "pass-colour":
        colour = pending["colour"]
        last = pending["next"] == len(pending["order"]) - 1
        what = "put back on the stack" if last else "pass to your left neighbour"
        return {"title": f"Pass a {colour} city", "prompt": f"Choose the {colour} city you {what}.",
                "options": [c for c in hand if colours.get(c) == colour]}
    if kind == "pass-three":
        return {"title": f"Pass a city (pass {pending['lap']} of 3)",
                "prompt": "Choose the city you pass to your left neighbour; everyone's cards move at once.",
                "options": hand}
    return None


def choice_event(session, replay, player: str, value: str) -> dict:
    kind = (replay.state.get("pending") or {}).get("kind")
    etype = "hand-return" if kind == "return" else "pass"
    return {"type": etype, "player": player, "city": value}


def revealed_view(session, replay) -> list[dict]:
    """Every hand of the last round, once the game is over."""
    hands = session.game.public_hands(replay.state) or {}
    return [{"kind": "table", "title": "Everyone's cities (last round)", "head": ["Player", "Cities"],
             "rows": [[p, ", ".join(c)] for p, c in hands.items()], "wide": True}]
