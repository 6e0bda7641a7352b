"""The counting behind `rails` (companion.games.trans.rails): a hand's exact missing rails
without a session, every hand's on the empty board, and `rails NAME` on a session's recorded
board, each as a view; imported when `rails` runs, not by every start that names the command
(issue 27). :func:`with_supplied` is here too: the moves that deal or count (`round start`,
`round end`) use it, and a `status` none.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from companion.contract.language import _, ngettext
from companion.games.kit import echo_json, show
from companion.core import datapack
from companion.contract.errors import CompanionError, MissingValue, RuleError
from companion.games.trans.screens import path_parts
from companion.games.trans.track import trans_board
from companion.games.trans.specials import SINGLE_CARDS, in_force, single_kinds
from companion.contract.view import Art, Bar, Line, Name, Private, Table, joined, message

if TYPE_CHECKING:
    from companion.games.trans import board as boards

GAME = ("trans-europa", "trans-amerika")
MAX_CITIES = 8  # the exact calculation grows as 3^cities: a hand has 5, special cards leave 4


def map_board(app, map_name: str) -> boards.Board:
    """The board a map name means, with the players' own printed values over the pack's
    (the lines they said count single among them: Europa's ferry and tunnel, see single.py)."""
    from companion.games.trans import board as boards

    game = boards.resolve_map(map_name)
    return trans_board(map_values(app, game), game)


def map_values(app, game: str) -> dict:
    """The printed values a count without a session uses: the pack's, with the players' over them."""
    return datapack.merged(game, app.store.user_values(game))


def _hand(board: boards.Board, text: str) -> list[boards.City]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise click.UsageError(_("Give the cities as --hand Dallas,Omaha,... (names separated by "
                                 "commas)"))
    cities: list[boards.City] = []
    for name in names:
        city = board.city(name)
        if city in cities:
            raise CompanionError(_("{name} is given twice: give each city of the hand once.").format(name=city.name))
        cities.append(city)
    if len(cities) > MAX_CITIES:
        raise CompanionError(_("{n} cities is more than any hand holds: give at most "
                               "{MAX_CITIES}.").format(n=len(cities), MAX_CITIES=MAX_CITIES))
    return cities


def _walk_pairs(walks: list[list[int]]) -> list[tuple[int, int]]:
    """The lines of the walks in walk order (a list reads better following the route)."""
    return [(a, b) for w in walks for a, b in zip(w, w[1:])]


def _key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def optimal_set(board, tree, cost: dict, pairs: list[tuple[int, int]], paths: list[str]) -> list[Line]:
    """The lines of a count: the optimal set of lines in route order, doubles marked, and the
    same as paths to build (`rails MAP --hand` and `rails NAME`); names kept whole for wrapping."""
    doubles = sum(1 for e in tree.edges if cost[e] == 2)
    lines = [Name(_("{line} (double)").format(line=f"{board.name(a)}-{board.name(b)}") if cost[_key(a, b)] == 2
                  else f"{board.name(a)}-{board.name(b)}") for a, b in pairs]
    built: list = []
    for i, p in enumerate(paths):
        built += (["  "] if i else []) + path_parts(p)
    said = _("One optimal set: {n} lines, {doubles} of them double:") if doubles else _("One optimal set: {n} lines:")
    return [Line(said.format(n=len(tree.edges), doubles=doubles)),
            Line("  ", *joined(lines)),
            Line(*message(_("To build, as paths: {paths}"), paths=built))]


def _no_trans_session(app, name: str) -> CompanionError:
    """`rails NAME` away from a Trans session: say what the session at hand is (another game,
    or none) and what to type, rather than that NAME is not a map (issue 29)."""
    name = name if len(name) <= 40 and name.isprintable() else "NAME"
    what = _("`rails {name}` counts a player's missing rails in a Trans session (`use ID` picks one, `sessions` "
             "lists them); a map instead of a name counts any hand: `rails amerika --hand CITY,...`.").format(name=name)
    try:
        other, _replay = app.loaded()
    except CompanionError as exc:  # no current session, or it is gone
        return CompanionError(f"{exc.message.split(':')[0]}: {what}")  # the core's own words, then ours
    return CompanionError(_("Session {id} ({title}) is not a Trans game: {what}").format(
                              id=other.id, title=other.game.title, what=what))


def _player_rails(app, name: str, draw: bool, as_json: bool, plain: bool = False) -> None:
    """`rails NAME` in a Trans session: NAME's missing rails now, and one optimal route."""
    from companion.games.trans import single as singles
    from companion.contract.api import player_name

    try:
        s = app.session(GAME, "rails NAME")
    except CompanionError:
        raise _no_trans_session(app, name) from None
    replay = s.replay()
    game = s.game
    player = player_name(s.players, name)

    def count():
        # the lines the players said count single since the session began count here too
        values, _laid = singles.with_supplied(app.store, s.meta["game"], replay.data)
        return with_supplied(app, s, values, lambda data: (game.missing_tree(replay.state, data, player), data))[0]

    tree, data = count()
    board = trans_board(data, s.meta["game"])
    if app.can_ask() and singles.could_pass(data, tree.edges, singles.count_costs(board, replay.state)):
        singles.ask_lines(app, board, data)  # the shell asks once; then the count is made again
        tree, data = count()
    view, payload = render_route(s, replay, data, player, tree, draw)
    private = replay.state["round_open"] and not plain
    if as_json:
        if not private or app.show_private is None:
            echo_json(payload)
            return
        import json

        view = [Art([[(line, "")] for line in json.dumps(payload, indent=2, ensure_ascii=False).split("\n")])]
    # the shell, or a terminal: the route names the cities (--json too), so it stays private; a
    # pipe or `--print` prints it plainly
    show([Private(player, view, shows=_("the route"))] if private else view)


def _one_hand(app, map_name, hand, built, start, single, draw, as_json) -> None:
    from companion.games.trans import board as boards
    from companion.games.trans import single as singles
    from companion.games.trans import steiner

    game = boards.resolve_map(map_name)
    values = map_values(app, game)
    board = trans_board(values, game)
    cities = _hand(board, hand)
    built_edges = board.parse_paths(built)
    network = []
    if start:
        network = sorted(board.network(board.junction(start), built_edges))
    tree = steiner.missing_rails(board, cities, network, built_edges, single)
    if app.can_ask() and singles.could_pass(values, tree.edges, board.costs(single)):  # the shell asks, once
        singles.ask_lines(app, board, values)
        values = map_values(app, game)
        board = trans_board(values, game)  # the same junctions: only costs changed
        tree = steiner.missing_rails(board, cities, network, built_edges, single)
    cost = board.costs(single)
    report = singles.route_report(board, values, tree.edges, cost, tree.cost)
    # the lines the public encodings disagree on: does the answer depend on them?
    if_single = None
    in_dispute: list = []
    if board.disputed:
        alt = steiner.missing_rails(board, cities, network, built_edges, single, disputed=1)
        if alt.cost != tree.cost:
            if_single = alt.cost
            in_dispute = sorted(set(alt.edges) & board.disputed)
    walk_nodes = boards.paths(tree.edges)
    walks = ["-".join(board.name(n) for n in w) for w in walk_nodes]
    pairs = _walk_pairs(walk_nodes)
    if as_json:
        echo_json({
            "map": board.game,
            "hand": [c.name for c in cities],
            "built": [[board.name(a), board.name(b)] for a, b in built_edges],
            "start": board.name(board.junction(start)) if start else None,
            "network": [board.name(n) for n in network],
            "single": list(single),
            "rails": tree.cost,
            "pairs": [[board.name(a), board.name(b), cost[_key(a, b)]] for a, b in pairs],
            "paths": walks,
            "rails_if_disputed_single": if_single,
            **report,
        })
        return
    n = len(built_edges)
    where = ngettext("the {map} board with {n} rail built", "the {map} board with {n} rails built", n) if n \
        else _("the empty {map} board")
    where = where.format(map=board.map_name, n=n)
    if single:
        where = _("{where} (under the {kinds} doubles count single card)").format(
            where=where, kinds=_(" and ").join(single))
    names = [c.name for c in cities]
    goal: list = joined((Name(n) for n in names), last=_(" and "))
    if start:
        goal = message(_("{cities} to the network at {junction}"), cities=goal,
                       junction=Name(board.name(board.junction(start))))
    if tree.cost == 0:
        said = ngettext("0 rails: {cities} is already connected on {where}.",
                        "0 rails: {cities} are already connected on {where}.", len(cities))
        out = [Line(*message(said, cities=goal, where=where))]
    else:
        said = ngettext("{n} rail connect {cities} on {where}.", "{n} rails connect {cities} on {where}.", tree.cost)
        out = [Line(*message(said, n=tree.cost, cities=goal, where=where)),
               *optimal_set(board, tree, cost, pairs, walks)]
    if if_single is not None:
        lines = joined((Name(board.edge_name(e)) for e in in_dispute), _(" and "))
        said = ngettext("Note: the public boards differ on whether {lines} is a double line; counted double here. "
                        "If single on your board: {rails} rails.",
                        "Note: the public boards differ on whether {lines} are double lines; counted double here. "
                        "If single on your board: {rails} rails.", len(in_dispute))
        out.append(Line(*message(said, lines=lines, rails=if_single)))
    out += [note for note in (singles.used_note(report), singles.count_note(board, values, report, tree.cost)) if note]
    if draw:
        from companion.games.trans import boardview

        rails_style = {e: boardview.BUILT_STYLE for e in built_edges}
        rails_style.update(boardview.route_styles(tree.edges))
        markers = {board.junction(start): boardview.ROUTE_STYLE} if start else {}
        notes = [(_("━━━ ╱ ╲ in magenta: the missing rails found; in white: the rails built") if built_edges
                  else _("━━━ ╱ ╲ in magenta: the missing rails found"), "")]
        out += boardview.draw(board, rails=rails_style, markers=markers, notes=notes)
    show(out)  # at spaces between junctions, never inside a name


class _Progress:
    """`Counting hands: 40%` on a terminal's stderr, rewritten in place; silent otherwise."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.shown = -1

    def __call__(self, done: int, total: int) -> None:
        percent = 100 * done // total
        if self.enabled and percent != self.shown:
            self.shown = percent
            click.echo("\r" + _("Counting every hand: {percent}%").format(percent=f"{percent:3d}"), nl=False,
                       err=True)

    def close(self) -> None:
        if self.enabled and self.shown >= 0:
            click.echo("\r" + " " * 30 + "\r", nl=False, err=True)


def _all_hands(app, map_name, single, stats, players, as_json) -> None:
    from companion.games.trans import steiner

    board = map_board(app, map_name)
    progress = _Progress(sys.stderr.isatty())
    try:
        if not stats:
            by_colour, costs = steiner.hand_costs(board, players, single, progress)
        else:
            result = steiner.all_hands(board, players, single, progress)
    finally:
        progress.close()
    who = _("2 or 3 players, no dashed cards") if players and players <= 3 else _("4 to 6 players, every card")
    if not stats:
        named = sorted(((v, tuple(by_colour[i][j].name for i, j in enumerate(h))) for h, v in costs.items()))
        if as_json:
            echo_json([{"hand": list(names), "rails": v} for v, names in named])
            return
        # one hand a row, as it is (thousands of rows: a list to read or to pipe, never wrapped)
        show([Art([[(f"{v:3d}  {', '.join(names)}", "")] for v, names in named])])
        return
    if as_json:
        echo_json({
            "map": board.game,
            "players": players,
            "single": list(single),
            "hands": result.hands,
            "mean": round(result.mean, 3),
            "stdev": round(result.stdev, 3),
            "min": result.minimum,
            "max": result.maximum,
            "easiest": [list(h) for h in result.easiest],
            "hardest": [list(h) for h in result.hardest],
            "easiest_count": result.easiest_count,
            "hardest_count": result.hardest_count,
            "histogram": {str(k): v for k, v in result.histogram.items()},
        })
        return
    from companion.contract.written import number

    hands_n = number(result.hands, grouped=True)  # 1,234 / 1.234

    def fixed(value: float) -> str:  # two decimals, with the viewer's decimal sign (4.50 / 4,50)
        return f"{value:.2f}".replace(".", number(0.5)[1])

    if single:
        said = _("{map} board, empty, {kinds} doubles single: {hands} hands ({who}).")
    else:
        said = _("{map} board, empty: {hands} hands ({who}).")
    out: list = [Line(said.format(map=board.map_name, kinds=_(" and ").join(single), hands=hands_n, who=who)),
                 Line(_("Missing rails: mean {mean}, standard deviation {stdev}, minimum {minimum}, maximum "
                        "{maximum}.").format(mean=fixed(result.mean), stdev=fixed(result.stdev),
                                             minimum=result.minimum, maximum=result.maximum))]
    for hardest, value, hands, count in ((False, result.minimum, result.easiest, result.easiest_count),
                                         (True, result.maximum, result.hardest, result.hardest_count)):
        listed: list = []
        for i, h in enumerate(hands):
            listed += (["; "] if i else []) + joined(Name(c) for c in h)
        if hardest:
            said = ngettext("Hardest ({rails} rails, {n} hand): {hands}", "Hardest ({rails} rails, {n} hands): {hands}",
                            count)
        else:
            said = ngettext("Easiest ({rails} rails, {n} hand): {hands}", "Easiest ({rails} rails, {n} hands): {hands}",
                            count)
        more = [_(" (and {n} more)").format(n=count - len(hands))] if count > len(hands) else []
        out.append(Line(*message(said, rails=value, n=count, hands=listed + more)))
    top = max(result.histogram.values())
    rows = [[k, v, Bar(v, top, width=30)] for k, v in result.histogram.items()]
    out.append(Table([_("rails"), _("hands"), ""], rows, right=[0, 1]))
    show(out)


def render_route(session, replay, data: dict, player: str, tree, draw: bool = False) -> tuple[list, dict]:
    """`rails NAME`: the count, the cities, one optimal set of rails (a view); and the same as JSON."""
    from companion.games.trans import single as singles
    from companion.games.trans import board as boards

    state = replay.state
    game = session.game
    board = trans_board(data, session.meta["game"])
    track = state["track"]
    special = state["special"]
    single = single_kinds(state)
    cost = board.costs(single)
    report = singles.route_report(board, data, tree.edges, cost, tree.cost)
    cities = game.hand_of(state, player)
    marker = track["markers"].get(player)
    built = [tuple(r["line"]) for r in track["rails"]]
    network = game.network(state, board, player)
    walks = boards.paths(tree.edges)
    pairs = _walk_pairs(walks)
    paths = ["-".join(board.name(n) for n in w) for w in walks]
    payload = {
        "player": player, "round": state["round"], "rails": tree.cost, "cities": list(cities),
        "start": marker[1] if marker else None, "network": [board.name(n) for n in network],
        "rails_built": len(built), "special": special, "specials": in_force(state),
        "pairs": [[board.name(a), board.name(b), cost[_key(a, b)]] for a, b in pairs], "paths": paths,
        **report,
    }
    counted = [c for c in in_force(state) if c in SINGLE_CARDS]
    where = _("round {n}, {built} rails on the board") if state["round_open"] else \
        _("round {n}, over, {built} rails on the board")
    where = where.format(n=state["round"], built=len(built))
    if single:
        where = ngettext("{where}, the {cards} card counted", "{where}, the {cards} cards counted",
                         len(counted)).format(where=where, cards=_(" and ").join(counted))
    lines: list = [Line(*message(_("{name}'s cities: {cities}."), name=Name(player),
                                 cities=joined(Name(c) for c in cities)))]
    if tree.cost == 0:
        lines.append(Line(*message(_("0 rails missing: they are all joined to {name}'s start marker ({where})."),
                                   name=Name(player), where=where)))
    else:
        if marker:
            said = ngettext("{name} needs {n} more rail to join them to the network at {junction} ({where}).",
                            "{name} needs {n} more rails to join them to the network at {junction} ({where}).",
                            tree.cost)
        else:
            said = ngettext("{name} needs {n} more rail to join them to each other (no start marker yet) ({where}).",
                            "{name} needs {n} more rails to join them to each other (no start marker yet) "
                            "({where}).", tree.cost)
        lines.append(Line(*message(said, name=Name(player), n=tree.cost, junction=Name(marker[1] if marker else ""),
                                   where=where)))
        lines += optimal_set(board, tree, cost, pairs, paths)
    notes = (singles.used_note(report), singles.count_note(board, data, report, tree.cost, _("{name}'s route").format(name=player)))
    lines += [note for note in notes if note]
    if draw:
        from companion.games.trans import boardview

        names = session.players
        style = {p: boardview.player_style(i) for i, p in enumerate(names)}
        rails = {tuple(r["line"]): style[r["by"]] for r in track["rails"]}
        rails.update(boardview.route_styles(tree.edges))
        markers = {m[0]: style[p] for p, m in track["markers"].items()}
        notes = [(_("━━━ ╱ ╲ in magenta: the missing rails found; the rails built and ◆ start markers in "
                    "each player's colour"), "")]
        lines += boardview.draw(board, rails=rails, markers=markers, notes=notes)
    return lines, payload


def with_supplied(app, session, data: dict, compute):
    """``compute(data)``, using values the players supplied after the session froze its data.

    Returns ``(result, frozen)``: put ``frozen`` into the event as ``_data`` so replays use the
    same values (the session layer does this itself for values the rules ask for on apply, but
    a deal or a count computed *before* the event exists has to do it here).
    """
    from companion.core.session import supplied_value, with_frozen

    frozen: dict = {}
    current = data
    for _try in range(10):
        try:
            return compute(current), frozen
        except MissingValue as missing:
            value = supplied_value(app.store, session.meta["game"], missing.key)
            if value is None or missing.key in frozen:
                raise
            frozen[missing.key] = value
            current = with_frozen(data, {"_data": frozen})
    raise RuleError(_("Too many printed values are missing for this action."))
