"""The board in a Trans round: start markers, rails, networks and exact missing rails.

Split from :mod:`companion.games.trans.rules` (the deals, special cards and scoring): this mixin
holds what issue 6 added, the recorded board. The rules refuse what the rulebook forbids (a
marker on a taken junction, a rail on a line that is not free, a rail that does not join the
builder's network unless the build-anywhere card is in force) but only note a turn that places
more rails than it allows. Missing rails are counted exactly by :mod:`companion.games.trans.steiner`.

Replaying a round does no walk of the board per rail: which junctions are joined by rails is
kept in the track as a component label per junction (``root``, updated by each rail in
:meth:`TrackMixin.on_build`), so whether a player's cities are joined to their marker is a
few look-ups, and the board of a session's printed values is found by the identity of those
values (``_board_cache``), not by encoding them for every event.
"""

from __future__ import annotations

from itertools import product
from typing import TYPE_CHECKING

from companion.contract.language import N_, _, ngettext
from companion.contract.errors import CompanionError, RuleError
from companion.contract.api import Event, State, player_name
from companion.games.trans.specials import in_force, single_kinds

if TYPE_CHECKING:  # the board is built from its module when first needed: a `status` needs none (issue 27)
    from companion.games.trans.board import Board, Edge

MARKER_LINE = N_("The starting player begins, then all the others place their marker in turn, clockwise.")
RHYTHM = (3, 2, 1)  # rails a turn on laps 1, 2, 3 of the 3-2-1 card, then again
TURN_RAILS = 2  # rails' worth a turn: two single lines or one double
THREE_RAILS = 3  # under the three-rails card


def rhythm_rails(lap: int) -> int:
    """Rails allowed on a lap (1-based) under the 3-2-1 card."""
    return RHYTHM[(lap - 1) % len(RHYTHM)]


# -- the board ----------------------------------------------------------------------------------

_BOARD_KEYS = ("board", "cities", "colours", "dashed", "double_kinds", "single_lines", "disputed_single")


class _BoardCache:
    """One board and what balanced deals reuse on it: the empty board's graph, distances and
    the minimum of every hand seen (a redeal is checked again each time a session is read)."""

    def __init__(self, board: Board):
        self.board = board
        self.minimums: dict[tuple[str, ...], int] = {}
        self._adj: list[list[tuple[int, int]]] | None = None
        self._dist: list[list[int]] | None = None
        self._node = {c.name: c.node for c in board.cities}
        self._most: int | None = None
        self._reach_cache = None

    def adj(self) -> list[list[tuple[int, int]]]:
        if self._adj is None:
            adj: list[list[tuple[int, int]]] = [[] for _ in self.board.xy]
            for (a, b), w in self.board.cost.items():
                adj[a].append((b, w))
                adj[b].append((a, w))
            self._adj = adj
        return self._adj

    def estimate(self, cities: list[str]) -> int:
        """A quick upper bound (a spanning tree over shortest paths), to order the exact counts."""
        if self._dist is None:
            from companion.games.trans import steiner

            self._dist = steiner.all_pairs(self.adj())
        nodes = [self._node[c] for c in cities]
        inside, total = {nodes[0]}, 0
        rest = set(nodes[1:]) - inside
        while rest:
            d, v = min((self._dist[a][b], b) for a in inside for b in rest)
            total += d
            inside.add(v)
            rest.discard(v)
        return total

    def most_missing(self) -> int:
        """The most rails any player could need on this board: an upper bound, computed once.

        A player's missing rails join their cities to their network, at worst to a lone start
        marker on an empty board: never more than the spanning tree of their cities over
        shortest paths (which is at least their exact count) plus the marker's distance to the
        nearest of their cities. Taking the worst hand (4 to 6 players: every city card) and the
        worst junction for the marker gives a count no round can exceed; every rail on the board
        and every card that counts doubles single only lowers a count, and so does a hand of 4.
        """
        if self._most is None:
            by_colour, rows, far = self._reach()
            worst = 0
            for hand in product(*by_colour):
                inside = [hand[0]]
                rest = list(hand[1:])
                total = 0
                while rest:  # Prim's spanning tree over the hand's shortest paths
                    d, v = min((min(rows[a][b] for a in inside), b) for b in rest)
                    total += d
                    inside.append(v)
                    rest.remove(v)
                worst = max(worst, total)
            self._most = worst + far
        return self._most

    def surely_possible(self) -> int:
        """A count the bound above is known to reach without building it (cheap): the marker's
        worst distance plus the farthest two cities of different colours. Counts up to it need
        no check, so the 16,807 spanning trees are only built for a count that looks too large."""
        by_colour, rows, far = self._reach()
        pairs = max((rows[a][b] for i, xs in enumerate(by_colour) for a in xs
                     for ys in by_colour[i + 1:] for b in ys), default=0)
        return far + pairs

    def _reach(self):
        """Each colour's city junctions, distances from every city, and the marker's worst
        distance to the nearest city of a hand (the colour whose farthest city is nearest)."""
        if self._reach_cache is None:
            by_colour = [[c.node for c in self.board.cities if c.colour == col] for col in self.board.colours]
            by_colour = [nodes for nodes in by_colour if nodes]
            from companion.games.trans import steiner

            adj = self.adj()
            rows = {n: steiner._from(adj, n) for nodes in by_colour for n in nodes}
            far = max(min(max(rows[n][m] for n in nodes) for nodes in by_colour) for m in range(len(adj)))
            self._reach_cache = (by_colour, rows, far)
        return self._reach_cache

    def minimum(self, cities: list[str]) -> int:
        """Fewest rails joining a hand's cities on the empty board (exact; memoised)."""
        key = tuple(sorted(cities))
        if key not in self.minimums:
            from companion.games.trans import steiner

            nodes = sorted({self._node[c] for c in key})
            self.minimums[key] = steiner.steiner(self.adj(), nodes[:-1], nodes[-1])[0] if nodes else 0
        return self.minimums[key]


_BOARDS: dict[str, _BoardCache] = {}  # the values' text -> the board and its caches
# (game, id of each board value) -> (the board's cache, those values). Printed values are never
# changed in place (a session's frozen copy is copied before a value is set: session.with_pairs),
# and the entry holds the values themselves, so no other object can take one of their ids while
# the entry lives: the identity of the values says exactly which board they make. A replay asks
# for its board at every event, with the same values: this finds it without encoding them.
_BY_IDENTITY: dict[tuple, tuple[_BoardCache, tuple]] = {}


def _board_cache(data: dict, game: str) -> _BoardCache:
    values = tuple(data.get(k) for k in _BOARD_KEYS)
    ident = (game, *map(id, values))
    held = _BY_IDENTITY.get(ident)
    if held is not None:
        return held[0]
    import json  # (only when a board is built: a `status` imports no json, companion.core.json_read)

    key = game + json.dumps(values, sort_keys=True, ensure_ascii=False)
    found = _BOARDS.get(key)
    if found is None:
        if len(_BOARDS) >= 16:  # a process sees one or two boards; keep the cache small anyway
            _BOARDS.clear()
        from companion.games.trans import single as singles  # only when a board is built (issue 27)
        from companion.games.trans.board import Board

        found = _BOARDS[key] = _BoardCache(singles.settle(Board.from_values(data, game), data))
    if len(_BY_IDENTITY) >= 64:
        _BY_IDENTITY.clear()
    _BY_IDENTITY[ident] = (found, values)
    return found


def most_missing(data: dict, game: str, count: int) -> int | None:
    """None if ``count`` missing rails are possible on this board, else the board's largest
    possible count (an upper bound, see _BoardCache.most_missing) to state in the refusal."""
    cache = _board_cache(data, game)
    if count <= cache.surely_possible():
        return None
    most = cache.most_missing()
    return most if count > most else None


def largest_missing(data: dict, game: str) -> int:
    """The board's largest possible missing-rail count (see _BoardCache.most_missing): what the
    shell's question for a count accepts, so an answer it takes is never refused afterwards."""
    return _board_cache(data, game).most_missing()


def trans_board(data: dict, game: str) -> Board:
    """The board of these printed values, with the lines the players said count single (Europa's
    ferry and tunnel, and the disputed lines their board prints single: see single.py).

    Cached on the values' text: replaying a session builds its board once, not once a rail.
    """
    return _board_cache(data, game).board


def city_nodes(data: dict, game: str) -> dict[str, int]:
    """City name -> its junction on this board (kept with the board)."""
    return _board_cache(data, game)._node


def _join(root: list[int], a: int, b: int) -> None:
    """One rail between junctions ``a`` and ``b``: their components become one (the label of
    ``a``'s wins, so the labels depend only on the rails and their order)."""
    ra, rb = root[a], root[b]
    if ra != rb:
        root[:] = [ra if r == rb else r for r in root]


def components(track: dict, size: int) -> list[int]:
    """The component label of every junction (equal labels: joined by rails). The track keeps
    it once a rail is built (see TrackMixin.on_build); a track without one (no rail yet, or a
    state from before it was kept) gets it worked out here, leaving the track as it is."""
    root = track.get("root")
    if root is not None and len(root) == size:
        return root
    root = list(range(size))
    for r in track["rails"]:
        _join(root, *r["line"])
    return root


class TrackMixin:
    """Start markers and rails of the round in play (mixed into TransGame)."""

    # -- the board: start markers and rails --------------------------------------------------------
    @staticmethod
    def _new_track(data: dict) -> dict:
        box = data.get("rails")
        return {
            "markers": {},  # player -> [junction, its name]
            "rails": [],  # in the order placed: {"line": [a, b], "by": player, "name": "E6-E7"}
            "turn": None,  # the turn in progress, as inferred: player, lap, rails, used, allowed
            "connected": [],  # players whose cities are all joined to their marker, in order
            "ended": None,  # the rail that ended the round: by, rail, finishing (the special case)
            "rails_out": False,
            "laps": {},  # player -> turns of rails they have begun this round (their lap)
            "box": box if isinstance(box, int) and not isinstance(box, bool) else None,
            # the component label of every junction once a rail is built (see components)
            "root": None,
        }

    def board_of(self, data: dict) -> Board:
        return trans_board(data, self.id)

    def check_values(self, values: dict, key: str) -> None:
        """`data set` of the lines that count single: a line the board lacks (or draws single
        already) is refused at once, not at the next count."""
        from companion.games.trans import single as singles

        if key.split(".")[0] in (singles.KEY, singles.OLD_KEY):
            trans_board(values, self.id)

    def _need_dealt(self, s: State, what: str) -> None:
        self._need_open(s, what)
        if s["pending"]:
            raise RuleError(_("The deal is not finished: {pending_text}").format(pending_text=self.pending_text(s)))

    def allowance(self, s: State, lap: int) -> int:
        """Rails' worth a turn allows (a double line counts 2) under the special cards in force."""
        if "three-rails" in in_force(s):
            return THREE_RAILS
        if "rhythm-321" in in_force(s):
            return rhythm_rails(lap)
        return TURN_RAILS

    def _turn_costs(self, s: State, board: Board) -> dict[Edge, int]:
        """What each line takes of a turn's allowance. Under a doubles-count-single card whose
        lines are not known yet, every double is given the benefit of the doubt (counts 1): the
        allowance is only ever a warning, never a refusal."""
        kinds = single_kinds(s)
        if not kinds:
            return board.cost
        try:
            return board.costs(kinds)
        except CompanionError:
            return {e: 1 for e in board.cost}

    def _next_turn(self, s: State, player: str) -> dict:
        """A new turn for ``player``, on the lap that player actually plays: their first turn
        of the round is lap 1, their second lap 2 (``laps`` counts each player's turns). In
        the rulebook's order this is the seats wrapping past the start player; a turn recorded
        out of order (the table knows better) then takes no lap from anyone, so the 3-2-1
        card still gives every player 3 rails in their first turn (rulebook: "on the round's
        first lap you may place up to 3, on the second up to 2, and on the third at most 1")."""
        track = s["track"]
        prev = track["turn"]
        if s.get("laps_played"):
            lap = (track.get("laps") or {}).get(player, 0) + 1
        else:  # a session started before issue 29 replays as recorded: the seats' wraps
            players = s["players_order"]
            first = players.index(self.start_player(s))
            lap = 1
            if prev is not None:
                seat, prev_seat = ((players.index(p) - first) % len(players) for p in (player, prev["player"]))
                lap = prev["lap"] + (1 if seat <= prev_seat else 0)
        return {"player": player, "lap": lap, "rails": 0, "used": 0, "allowed": self.allowance(s, lap),
                "number": prev["number"] + 1 if prev else 1}

    def _joined(self, s: State, board: Board) -> list[str]:
        """Players (seat order) whose recorded cities are all on their start marker's network."""
        track = s["track"]
        root = components(track, len(board.xy))
        node = board.city_nodes
        out = []
        for p in s["players_order"]:
            cities = s["hands"].get(p)
            if not cities or p not in track["markers"]:
                continue
            mine = root[track["markers"][p][0]]
            if all(root[node[c]] == mine for c in cities):
                out.append(p)
        return out

    def network(self, s: State, board: Board, player: str) -> list[int]:
        """The junctions of ``player``'s network (joined to their start marker by rails), in
        order; [] without a marker."""
        marker = s["track"]["markers"].get(player)
        if marker is None:
            return []
        root = components(s["track"], len(board.xy))
        mine = root[marker[0]]
        return [n for n, r in enumerate(root) if r == mine]

    def _check_joined(self, s: State, board: Board, builder: str | None) -> None:
        """After a rail (or a hand recorded late): has someone connected, ending the round?"""
        track = s["track"]
        new = [p for p in self._joined(s, board) if p not in track["connected"]]
        if not new:
            return
        track["connected"] += new
        turn = track["turn"]
        if track["ended"] is None:
            first = builder is not None and turn is not None and turn["player"] == builder and turn["rails"] == 1
            rail = track["rails"][-1]["name"] if track["rails"] else None
            track["ended"] = {"by": builder, "rail": rail,
                              "finishing": bool(first and builder not in track["connected"])}
        elif builder in track["connected"]:
            track["ended"]["finishing"] = False

    def _grow(self, s: State, board: Board, player: str, edges: list[Edge]) -> list[Edge]:
        """The rails in an order where each joins the player's network, or a refusal."""
        track = s["track"]
        node, name = track["markers"][player]
        root = components(track, len(board.xy))
        copied = False  # the track is not changed here: rails are joined on a working copy
        todo = list(edges)
        order: list[Edge] = []
        while todo:
            for e in todo:
                mine = root[node]
                if root[e[0]] == mine or root[e[1]] == mine:
                    order.append(e)
                    todo.remove(e)
                    if todo:  # a rail may join another network, which the next ones may touch
                        if not copied:
                            root, copied = list(root), True
                        _join(root, e[0], e[1])
                    break
            else:
                raise RuleError(_("{edge_name} does not join {player}'s network (the rails "
                                  "connected to their start marker at {name}): a rail must touch "
                                  "it. Only the build-anywhere card lets rails go anywhere.").format(
                                    edge_name=board.edge_name(todo[0]), player=player, name=name))
        return order

    def on_marker(self, s: State, event: Event, data: dict) -> None:
        """A start marker on a free junction, before the round's first rail."""
        self._need_dealt(s, _("placing start markers"))
        track = s["track"]
        player = player_name(s["players_order"], str(event.get("player", "")))
        if player in track["markers"]:
            raise RuleError(_("{player}'s start marker is already on {value}: `undo` takes it "
                              "back if it is in the wrong place.").format(
                                player=player, value=track['markers'][player][1]))
        if track["rails"]:
            raise RuleError(_("The rails are being built: every start marker goes down before "
                              "the first rail."))
        if s.get("rulebook_order"):
            due = self.marker_due(s)
            if due is not None and player != due:
                raise RuleError(_("It is {due}'s turn to place a start marker (`start {due} "
                                  "JUNCTION`): the start player begins, then clockwise (rulebook: "
                                  "\"{MARKER_LINE}\").").format(due=due, MARKER_LINE=_(MARKER_LINE)))
        board = self.board_of(data)
        node = board.junction(str(event.get("junction", "")))
        for other, (at, name) in track["markers"].items():
            if at == node:
                raise RuleError(_("{name} already holds {other}'s start marker: choose a free "
                                  "junction.").format(name=name, other=other))
        track["markers"][player] = [node, board.name(node)]

    def marker_due(self, s: State) -> str | None:
        """Who places the next start marker: the round's start player, then clockwise."""
        players = s["players_order"]
        first = players.index(self.start_player(s))
        for i in range(len(players)):
            p = players[(first + i) % len(players)]
            if p not in s["track"]["markers"]:
                return p
        return None

    def builder(self, s: State) -> str | None:
        """Who builds now, as the rules infer the turns: the player whose turn is in progress
        until it has placed its rails' worth (or they ended it), then the next player
        clockwise; the start player once every marker is down and no rail is built; the player
        finishing the turn in which someone connected (the rulebook's special case); nobody
        while markers are still to go down, once the round is over on the board, or between
        rounds."""
        track = s["track"]
        if not s["round_open"] or s.get("pending") or self.round_over(s):
            return None
        players = s["players_order"]
        if any(p not in track["markers"] for p in players):
            return None
        turn = track["turn"]
        if turn is None:
            return self.start_player(s)
        finishing = self.finishing(s)
        if finishing is not None:
            return finishing if turn["player"] == finishing and not self.turn_spent(turn) else None
        if not self.turn_spent(turn):
            return turn["player"]
        return players[(players.index(turn["player"]) + 1) % len(players)]

    def _due_instead(self, s: State, player: str) -> str | None:
        """Whose turn it is when ``player`` begins a turn of rails out of order (None: theirs).
        A player who placed fewer rails than allowed and let the next seat build ended their
        turn early without saying it ("up to two rails"): that next seat is in turn."""
        due = self.builder(s)
        if due is None or due == player:
            return None
        turn = s["track"]["turn"]
        players = s["players_order"]
        if turn is not None and turn["player"] == due and turn["used"] > 0 \
                and players[(players.index(due) + 1) % len(players)] == player:
            return None
        return due

    @staticmethod
    def turn_spent(turn: dict) -> bool:
        """The turn has placed all the rails' worth it allows, or its player ended it."""
        return bool(turn.get("ended")) or turn["used"] >= turn["allowed"]

    def rails_worth_left(self, s: State, player: str) -> int:
        """Rails' worth ``player`` may still place in the turn they build now (a new turn's
        whole allowance when theirs is not in progress)."""
        turn = s["track"]["turn"]
        if turn is not None and turn["player"] == player and not self.turn_spent(turn):
            return max(turn["allowed"] - turn["used"], 0)
        return self._next_turn(s, player)["allowed"]

    def on_turn_end(self, s: State, event: Event, data: dict) -> None:
        """A player ends their turn before placing its whole allowance (the phones' "End my
        turn"): the next player builds."""
        self._need_dealt(s, _("ending a turn"))
        track = s["track"]
        player = player_name(s["players_order"], str(event.get("player", "")))
        turn = track["turn"]
        if turn is None or turn["player"] != player or self.turn_spent(turn):
            due = self.builder(s)
            said = _("{player} has no turn of rails to end: it is {due}'s turn to build.") if due else \
                _("{player} has no turn of rails to end: no turn is in progress.")
            raise RuleError(said.format(player=player, due=due))
        turn["ended"] = True

    def on_build(self, s: State, event: Event, data: dict) -> None:
        """Rails on free lines, joined to the builder's network (or anywhere, under that card)."""
        self._need_dealt(s, _("building"))
        track = s["track"]
        players = s["players_order"]
        player = player_name(players, str(event.get("player", "")))
        waiting = [p for p in players if p not in track["markers"]]
        if waiting:
            raise RuleError(_("Every start marker goes down before the first rail: waiting for "
                              "{names} (`start {value} JUNCTION`).").format(
                                names=', '.join(waiting), value=waiting[0]))
        box = track["box"]
        if track["rails_out"]:
            raise RuleError(_("All {box} rails are on the board: the round is over. Score it "
                              "with `round end --auto`.").format(box=box))
        ended = track["ended"]
        turn = track["turn"]
        if ended and self.finishing(s) != player:
            who = " and ".join(track["connected"])
            raise RuleError(_("The round is over: {who} connected. Score it with `round end "
                              "--auto`.").format(who=who))
        board = self.board_of(data)
        paths = event.get("paths")
        if isinstance(paths, str):
            paths = [paths]
        if not paths:
            raise RuleError(_("Say which rails, as junctions joined by '-': build {player} "
                              "{value}-...").format(player=player, value=track['markers'][player][1]))
        edges = board.parse_paths(str(p) for p in paths)
        taken = {tuple(r["line"]): r["by"] for r in track["rails"]}
        for e in edges:
            if e in taken:
                raise RuleError(_("{edge_name} already has a rail ({value}'s): rails go on free "
                                  "lines only.").format(edge_name=board.edge_name(e), value=taken[e]))
        if box is not None and len(track["rails"]) + len(edges) > box:
            left = box - len(track["rails"])
            raise RuleError(_("Only {left} of the {box} rails are left in the box: build at most "
                              "{left}.").format(left=left, box=box))
        order = edges if "build-anywhere" in in_force(s) else self._grow(s, board, player, edges)
        if turn is None or turn["player"] != player or turn.get("ended"):
            due = self._due_instead(s, player)
            turn = track["turn"] = self._next_turn(s, player)
            track.setdefault("laps", {})[player] = turn["lap"]
            if due is not None:  # recorded, and said: see moves.out_of_turn_warning
                turn["out_of_turn"] = due
        costs = self._turn_costs(s, board)
        root = track.get("root")
        if root is None or len(root) != len(board.xy):
            root = track["root"] = components(track, len(board.xy))  # a new list: the track's own
        for e in order:
            ended = track["ended"]
            if ended and self.finishing(s) is None:
                raise RuleError(_("The round ended with {rail}, when {names} connected: leave "
                                  "out the rails after it.").format(
                                    rail=ended['rail'], names=' and '.join(track['connected'])))
            track["rails"].append({"line": list(e), "by": player, "name": board.edge_name(e)})
            _join(root, e[0], e[1])
            turn["rails"] += 1
            turn["used"] += costs.get(e, 1)
            self._check_joined(s, board, player)
        if box is not None and len(track["rails"]) >= box and not track["connected"]:
            track["rails_out"] = True

    def missing_tree(self, s: State, data: dict, name: str, need_marker: bool = False) -> "steiner.Tree":
        """One player's missing rails on the recorded board, exactly, with one optimal route.

        Every rail on the board is free; the special card in force may make doubles count 1
        (then ``double_kinds`` is needed). Without a start marker the cities only join each other.
        """
        player = player_name(s["players_order"], name)
        cities = self.hand_of(s, player)
        track = s["track"]
        board = self.board_of(data)
        built = [tuple(r["line"]) for r in track["rails"]]
        marker = track["markers"].get(player)
        if marker is None and need_marker:
            raise RuleError(_("{player} has no start marker on the recorded board: place it with "
                              "`start {player} JUNCTION`, or count by hand with --missing.").format(player=player))
        network = self.network(s, board, player)
        single = single_kinds(s)
        from companion.games.trans import steiner

        return steiner.missing_rails(board, [board.city(c) for c in cities], network, built, single)

    def auto_result(self, s: State, data: dict, winners=(), rails_out: bool = False) -> dict:
        """`round end --auto`: the board's winners and everyone else's missing rails.

        Named ``winners`` (or ``rails_out``) are only for a board not fully recorded, where
        nobody is connected yet; once the board shows who connected, it decides.
        """
        self._need_open(s, _("ending it"))
        players = s["players_order"]
        track = s["track"]
        named = [player_name(players, str(w)) for w in winners]
        joined = list(track["connected"])
        if joined:
            if rails_out:
                raise RuleError(_("The recorded board shows {names} connected: drop --rails-out.").format(
                                    names=' and '.join(joined)))
            if named and sorted(named) != sorted(joined):
                raise RuleError(_("The recorded board shows {names} connected, not {names2}: "
                                  "drop --winner, --auto takes the board's word.").format(
                                    names=' and '.join(joined), names2=' and '.join(named)))
            named, rails_out = joined, False
        elif track["rails_out"]:
            if named:
                raise RuleError(_("Every rail is on the board and nobody connected on it: drop "
                                  "--winner."))
            rails_out = True
        elif not named and not rails_out:
            raise RuleError(_("Nobody's cities are connected on the recorded board yet: keep "
                              "building (`build NAME PATH`), or if the board is not all recorded "
                              "say who connected with `round end --auto --winner NAME` (or "
                              "--rails-out)."))
        missing = {}
        for p in players:
            if p in named:
                continue
            n = self.missing_tree(s, data, p, need_marker=True).cost
            if n == 0:
                raise RuleError(_("{p}'s cities are connected on the recorded board too: name "
                                  "them with --winner {p}.").format(p=p))
            missing[p] = n
        return {"winners": named, "missing": missing, "rails_out": bool(rails_out)}

    # -- hands ---------------------------------------------------------------------------------
    def networks(self, s: State) -> dict[str, list[str]]:
        """Per player with a marker: every player whose marker is on the same network (self too)."""
        track = s["track"]
        parent: dict[int, int] = {}

        def find(a: int) -> int:
            parent.setdefault(a, a)
            while parent[a] != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            return a

        for r in track["rails"]:
            a, b = r["line"]
            parent[find(a)] = find(b)
        root = {p: find(m[0]) for p, m in track["markers"].items()}
        return {p: [q for q in s["players_order"] if q in root and root[q] == r] for p, r in root.items()}

    def round_over(self, s: State) -> bool:
        """The board says the round has ended: someone connected (and the turn it happened in
        is finished) or no rails left."""
        track = s["track"]
        return bool(s["round_open"] and (track["rails_out"] or (track["ended"] and self.finishing(s) is None)))

    def finishing(self, s: State) -> str | None:
        """The player still finishing the turn in which someone else connected (the special
        case), until that turn is spent: its rails' worth placed, or its player ended it, or
        the box is empty (nothing is left to finish it with)."""
        track = s["track"]
        ended = track["ended"]
        if not (s["round_open"] and ended and ended["finishing"]):
            return None
        if track["box"] is not None and len(track["rails"]) >= track["box"]:
            return None  # seed 000: "Should you have used up all the rails, the round also ends."
        turn = track["turn"]
        if turn is not None and turn["player"] == ended["by"] and self.turn_spent(turn):
            return None
        return ended["by"]
