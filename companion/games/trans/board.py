"""The junction graph of a Trans board, and the names people use for its junctions.

The packs (``data/trans-*.json``) store a board as rows of ``o`` (a junction) and ``-``
(none) in an axial grid: the neighbours of (x, y) are (x±1, y), (x, y±1), (x+1, y+1) and
(x-1, y-1), and a line listed in ``double_edges`` costs 2 rails instead of 1. Nobody at the
table thinks in axial coordinates, so every junction also gets a name that the drawing in
``boardview`` prints on its margins: a column letter and a row number (``E6``).

Why these columns: drawn to look like the printed board, rows are offset by half a junction
from each other, so the junctions of one column zigzag down the screen around their letter
(even rows one character left of it, odd rows one character right). A column is therefore
``floor((2x - y) / 2)``, counted from the board's westmost column; rows count from 1 at the
north edge. City names (and the three-letter abbreviations the drawing shows) name their
junction too, so a path reads ``Paris-E6-E7-Zürich``.

Everything here is pure: a :class:`Board` is built from a pack's ``values`` (or a session's
frozen copy of them) and refuses bad input with one-line :class:`RuleError` messages.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from itertools import chain, combinations
from typing import Iterable

from companion.contract.language import N_, _, ngettext
from companion.core.datapack import example, pack, set_command
from companion.contract.errors import CompanionError, MissingValue, RuleError
from companion.games.trans.junctions import column_letters, grid, junction_labels  # noqa: F401  (named from here too)

Edge = tuple[int, int]  # two junction numbers, smaller first

# map names people type -> game id of the pack
MAPS = {
    "amerika": "trans-amerika",
    "america": "trans-amerika",
    "usa": "trans-amerika",
    "trans-amerika": "trans-amerika",
    "transamerica": "trans-amerika",
    "europa": "trans-europa",
    "europe": "trans-europa",
    "trans-europa": "trans-europa",
}

KINDS = ("water", "mountain")
_COORD = re.compile(r"^([A-Za-z]{1,2})0*(\d{1,3})$")


def resolve_map(name: str) -> str:
    """The pack id for a map name (``amerika``, ``europa`` or a game id), or a refusal."""
    key = name.strip().casefold()
    if key in MAPS:
        return MAPS[key]
    raise CompanionError(_("There is no map called {name!r}: type amerika or europa.").format(name=name))


@lru_cache(maxsize=4096)  # the same few hundred names, looked up at every rail of a replay
def fold(text: str) -> str:
    """A name as compared: case, accents, dots and extra spaces ignored (Zurich = Zürich)."""
    if not text.isascii():  # an ASCII name has no accent to take off (every coordinate: issue 27)
        text = unicodedata.normalize("NFKD", text)
        text = "".join(c for c in text if not unicodedata.combining(c))
    text = text.replace(".", " ").casefold()
    return " ".join(text.split())


def _abbreviations(names: list[str]) -> dict[str, str]:
    """A unique three-letter label per city, as short as the drawing's cell allows.

    Several words give their initials then the last word's next letters (San Diego -> SDi,
    Salt Lake City -> SLC); one word gives its first three letters (Seattle -> Sea). A clash
    falls back to the first letter and two later ones, so labels stay guessable.
    """
    out: dict[str, str] = {}
    used: set[str] = set()
    for name in sorted(names, key=fold):
        words = re.findall(r"[^\W\d_]+", name)
        if not words:
            words = [name or "?"]
        first = "".join(w[0] for w in words)
        letters = "".join(words)
        # the usual label first; the others are made only when it clashes (issue 27: all of
        # them for every city were a fifth of building the board at every start)
        candidates = chain([(first + words[-1][1:])[:3] if len(words) > 1 else words[0][:3]],
                           (letters[0] + a + b for a, b in combinations(letters[1:], 2)))
        for cand in candidates:
            label = cand[0].upper() + cand[1:]
            if fold(label) not in used:
                break
        else:  # only for absurd name lists: number them
            label = f"{letters[:1].upper()}{len(used):02d}"[:3]
        used.add(fold(label))
        out[name] = label
    return out




class City:
    """A city of the board: its name, colour, junction, whether its card has a dashed border
    (None: not known) and its three-letter label. (Plain classes, not dataclasses: every
    `status` of a Trans session builds its board, and start-up counts.)"""

    __slots__ = ("name", "colour", "node", "dashed", "abbr")

    def __init__(self, name: str, colour: str, node: int, dashed: bool | None, abbr: str):
        self.name, self.colour, self.node, self.dashed, self.abbr = name, colour, node, dashed, abbr

    def _key(self) -> tuple:
        return (self.name, self.colour, self.node, self.dashed, self.abbr)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, City) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"City(name={self.name!r}, colour={self.colour!r}, node={self.node!r}, dashed={self.dashed!r}, "
                f"abbr={self.abbr!r})")


class Board:
    """A board's junctions, lines and cities; junctions are numbered 0..n-1 in row order.

    ``coord``: the printed coordinate name per junction (``E6``); ``column``: the printed column
    index per junction (0 = A); ``cost``: every line of the board, 1 (single) or 2 (double);
    ``disputed``: double lines the public encodings disagree on (counted 2); ``double_kinds``:
    the players' ``{"water": [...], "mountain": [...]}``, or None; ``adj``: neighbours per
    junction; ``counted_single``: the double lines counting single whatever is drawn (Europa's
    ferry and tunnel, the players' word: see single.py) -> the key of the value that said so
    ("ferry", "tunnel", "others")."""

    FIELDS = ("game", "rows", "xy", "node_at", "coord", "column", "cost", "disputed", "cities", "colours",
              "double_kinds", "adj", "counted_single", "_names", "_city_at")

    def __init__(self, game: str, rows: tuple[str, ...], xy: list[tuple[int, int]], node_at: dict[tuple[int, int], int],
                 coord: list[str], column: list[int], cost: dict[Edge, int], disputed: frozenset[Edge],
                 cities: list[City], colours: list[str], double_kinds: dict | None, adj: list[list[int]] | None = None,
                 counted_single: dict[Edge, str] | None = None, _names: dict[str, int] | None = None,
                 _city_at: dict[int, City] | None = None):
        self.game, self.rows, self.xy, self.node_at = game, rows, xy, node_at
        self.coord, self.column, self.cost, self.disputed = coord, column, cost, disputed
        self.cities, self.colours, self.double_kinds = cities, colours, double_kinds
        self.adj = adj if adj is not None else []
        self.counted_single = counted_single if counted_single is not None else {}
        self._names = _names if _names is not None else {}
        self._city_at = _city_at if _city_at is not None else {}

    @property
    def city_nodes(self) -> dict[str, int]:
        """City name -> its junction."""
        found = self.__dict__.get("_city_node")
        if found is None:
            found = self.__dict__["_city_node"] = {c.name: c.node for c in self.cities}
        return found

    def replace(self, **changes) -> "Board":
        """A copy with some fields changed (as dataclasses.replace)."""
        return Board(**{**{f: getattr(self, f) for f in self.FIELDS}, **changes})

    def __repr__(self) -> str:
        return f"Board(game={self.game!r}, {len(self.xy)} junctions, {len(self.cities)} cities)"

    # -- building --------------------------------------------------------------------------
    @classmethod
    def from_values(cls, values: dict, game: str = "trans-amerika") -> "Board":
        """The board described by a pack's ``values`` (or a session's frozen copy of them)."""
        board_values = values.get("board") or {}
        rows = tuple(board_values.get("rows") or ())
        if not rows:
            raise CompanionError(_("The printed data of {game} has no board: reinstall the "
                                   "companion.").format(game=game))
        xy, column, coord = grid(rows)
        if not xy:
            raise CompanionError(_("The board of {game} has no junctions: its rows hold no 'o'.").format(game=game))
        node_at = {p: i for i, p in enumerate(xy)}

        cost: dict[Edge, int] = {}
        adj: list[list[int]] = [[] for _ in xy]
        for i, (x, y) in enumerate(xy):
            for dx, dy in ((1, 0), (0, 1), (1, 1)):
                j = node_at.get((x + dx, y + dy))
                if j is not None:
                    cost[(i, j)] = 1
                    adj[i].append(j)
                    adj[j].append(i)

        def edge_of(pair, what: str) -> Edge:
            try:
                (x1, y1), (x2, y2) = pair
                a, b = node_at[(x1, y1)], node_at[(x2, y2)]
            except (KeyError, TypeError, ValueError):
                raise CompanionError(_("The {what} {pair!r} of {game} is not a line of the board.").format(
                                         what=what, pair=pair, game=game)) from None
            e = (a, b) if a < b else (b, a)
            if e not in cost:
                raise CompanionError(_("The {what} {pair!r} of {game} joins junctions that are "
                                       "not neighbours.").format(what=what, pair=pair, game=game))
            return e

        for pair in board_values.get("double_edges") or ():
            cost[edge_of(pair, _("double line"))] = 2
        disputed = set()
        for pair in board_values.get("disputed_double_edges") or ():
            e = edge_of(pair, _("disputed double line"))
            cost[e] = 2  # counted as double until the players settle it
            disputed.add(e)

        names = [c["name"] for c in values.get("cities") or ()]
        abbr = _abbreviations(names)
        # the dashed cards: the players' list (`data set GAME dashed`) wins over the city entries
        dashed_list = values.get("dashed")
        dashed_names = {fold(n) for n in dashed_list} if isinstance(dashed_list, list) else None
        cities = []
        for c in values.get("cities") or ():
            node = node_at.get(tuple(c["xy"]))
            if node is None:
                raise CompanionError(_("The city {name} of {game} is not on a junction of the "
                                       "board.").format(name=c['name'], game=game))
            dashed = fold(c["name"]) in dashed_names if dashed_names is not None else c.get("dashed")
            cities.append(City(c["name"], c["colour"], node, dashed, abbr[c["name"]]))
        colours = list(values.get("colours") or sorted({c.colour for c in cities}))

        board = cls(game, rows, xy, node_at, coord, column, cost, frozenset(disputed), cities,
                    colours, values.get("double_kinds"), adj)
        board._index_names()
        return board

    def _index_names(self) -> None:
        names: dict[str, int] = {}
        for c in self.cities:
            names.setdefault("abbr:" + fold(c.abbr), c.node)
        for i, name in enumerate(self.coord):
            names[fold(name)] = i
        for c in self.cities:
            names[fold(c.name)] = c.node
        self._names = names
        self._city_at = {c.node: c for c in self.cities}

    # -- names -----------------------------------------------------------------------------
    @property
    def map_name(self) -> str:
        return self.game.removeprefix("trans-").capitalize()

    def city_at(self, node: int) -> City | None:
        return self._city_at.get(node)

    def name(self, node: int) -> str:
        """How a junction is written back to people: its city's name, else its coordinate."""
        city = self.city_at(node)
        return city.name if city else self.coord[node]

    def junction(self, text: str) -> int:
        """The junction a city name, abbreviation or coordinate (``E6``) names, or a refusal."""
        key = fold(text)
        if key in self._names:
            return self._names[key]
        m = _COORD.match(text.strip())
        if m:
            key = fold(m.group(1) + str(int(m.group(2))))
            if key in self._names:
                return self._names[key]
        if "abbr:" + key in self._names:
            return self._names["abbr:" + key]
        if not key:
            raise RuleError(_("A junction name is empty: write a path like Paris-E6-E7-Zürich."))
        choices = [c.name for c in self.cities]
        import difflib

        close = difflib.get_close_matches(text.strip(), choices, n=1, cutoff=0.7)
        said = _("There is no junction called {text!r} on the {map_name} board. Did you mean {close}? Type a city "
                 "name or a coordinate such as {coord} (`companion board {game}` shows them).") if close else \
            _("There is no junction called {text!r} on the {map_name} board. Type a city name or a coordinate "
              "such as {coord} (`companion board {game}` shows them).")
        raise RuleError(said.format(text=text.strip(), map_name=self.map_name, close=close[0] if close else "",
                                    coord=self.coord[len(self.coord) // 2], game=self.game))

    def city(self, text: str) -> City:
        """The city called ``text``, or a refusal (a coordinate is not a city)."""
        node = self.junction(text)
        city = self.city_at(node)
        if city is None:
            raise RuleError(_("{text} is a junction, not a city: give a city name.").format(text=text.strip()))
        return city

    def edge(self, a: int, b: int) -> Edge:
        """The line between two junctions, or a refusal naming the junction's neighbours."""
        e = (a, b) if a < b else (b, a)
        if e in self.cost:
            return e
        if a == b:
            said = _("{name}-{name2} goes nowhere: the path names {name} (its junction is {coord}) twice in a row, "
                     "and a step joins two different junctions.") if self.city_at(a) else \
                _("{name}-{name2} goes nowhere: the path names {name} twice in a row, and a step joins two "
                  "different junctions.")
            raise RuleError(said.format(name=self.name(a), name2=self.name(b), coord=self.coord[a]))
        near = ", ".join(self.name(n) for n in self.adj[a])
        raise RuleError(
            _("{name}-{name2} is not a line on the board: from {name} a rail can go to {near}.").format(
                name=self.name(a), name2=self.name(b), near=near)
        )

    def edge_name(self, e: Edge) -> str:
        return f"{self.name(e[0])}-{self.name(e[1])}"

    def path_junctions(self, text: str) -> list[int]:
        """``Paris-E6-E7-Zürich`` as junction numbers (city names may themselves hold a dash)."""
        parts = [p.strip() for p in text.split("-")]
        out: list[int] = []
        i = 0
        while i < len(parts):
            # the longest run of parts that names a junction, so "Winston-Salem" stays one name
            for j in range(len(parts), i, -1):
                joined = "-".join(parts[i:j])
                if j - i > 1 and fold(joined) not in self._names:
                    continue
                out.append(self.junction(joined))
                i = j
                break
        return out

    def lines_of(self, items, what: str, fix: str) -> set[Edge]:
        """The lines a printed value lists, each as a path of junction names ("Brest-B7", the
        friendlier form) or as a pair of coordinates; anything else is refused naming ``what``."""
        out: set[Edge] = set()
        for item in items:
            if isinstance(item, str):
                out.update(self.parse_path(item))
                continue
            try:
                (x1, y1), (x2, y2) = item
                a, b = self.node_at[(x1, y1)], self.node_at[(x2, y2)]
            except (KeyError, TypeError, ValueError):
                raise RuleError(_("{what} lists {item!r}, which is not a line of the board: "
                                  "{fix}.").format(what=what, item=item, fix=fix)) from None
            out.add(self.edge(a, b))
        return out

    def parse_path(self, text: str) -> list[Edge]:
        """The lines of a path, each step checked against the board."""
        nodes = self.path_junctions(text)
        if len(nodes) < 2:
            raise RuleError(
                _("{text!r} is a single junction: write a path of junctions joined by '-', e.g. "
                  "{edge_name}.").format(text=text.strip(), edge_name=self.edge_name(next(iter(self.cost))))
            )
        edges: list[Edge] = []
        for a, b in zip(nodes, nodes[1:]):
            e = self.edge(a, b)
            if e in edges:
                raise RuleError(_("The path {text} uses {edge_name} twice: give each rail once.").format(
                                    text=text.strip(), edge_name=self.edge_name(e)))
            edges.append(e)
        return edges

    def parse_paths(self, texts: Iterable[str]) -> list[Edge]:
        """Several paths (each may also hold several, comma-separated) as one list of lines."""
        out: list[Edge] = []
        for text in texts:
            for part in text.split(","):
                if part.strip():
                    for e in self.parse_path(part):
                        if e not in out:
                            out.append(e)
        return out

    # -- costs -----------------------------------------------------------------------------
    def kind_edges(self, kind: str) -> set[Edge]:
        """The double lines of ``kind`` (water or mountain), from the players' ``double_kinds``."""
        if kind not in KINDS:
            raise RuleError(_("{kind!r} is not a kind of double line: type water or mountain.").format(kind=kind))
        kinds = self.double_kinds
        if not isinstance(kinds, dict) or kinds.get(kind) is None:
            key = "double_kinds" if not isinstance(kinds, dict) else f"double_kinds.{kind}"
            what = _("which double lines are {kind}, as paths of junction names read off `board`").format(kind=kind)
            raise MissingValue(self.game, key, what, example(self.game, key))  # a suggestion is offered there
        out = self.lines_of(kinds[kind], f"double_kinds.{kind}",
                            _("correct it with `{command}`").format(command=set_command(self.game, 'double_kinds.' + kind)))
        not_double = [e for e in out if self.cost[e] != 2]
        if not_double:
            raise RuleError(_("double_kinds.{kind} lists {edge_name}, which is a single line: "
                              "correct it with `{set_command}`.").format(
                                kind=kind, edge_name=self.edge_name(not_double[0]), set_command=set_command(self.game, 'double_kinds.' + kind)))
        return out

    def costs(self, single: Iterable[str] = (), disputed: int = 2) -> dict[Edge, int]:
        """The rail cost of every line, with the doubles of the ``single`` kinds counting 1.

        ``disputed`` is what the lines the public encodings disagree on cost (2 unless asked:
        `rails` also tries 1 to tell the players whether the dispute matters to them).
        """
        cost = dict(self.cost)
        for e in self.disputed:
            cost[e] = disputed
        for kind in single:
            for e in self.kind_edges(kind):
                cost[e] = 1
        return cost

    def network(self, start: int, built: Iterable[Edge]) -> set[int]:
        """Every junction joined to ``start`` by built rails (the player's network)."""
        nbrs: dict[int, list[int]] = {}
        for a, b in built:
            nbrs.setdefault(a, []).append(b)
            nbrs.setdefault(b, []).append(a)
        seen = {start}
        todo = [start]
        while todo:
            for n in nbrs.get(todo.pop(), ()):
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        return seen

    def hands_colours(self, players: int | None = None) -> list[list[City]]:
        """The cities a hand draws from, one list per colour (no dashed cards for 2 or 3 players)."""
        by_colour = [[c for c in self.cities if c.colour == col] for col in self.colours]
        if players is not None and players <= 3:
            if any(c.dashed is None for c in self.cities):
                raise MissingValue(self.game, "dashed", _("the 10 dashed-border city cards, left "
                                                          "out with 2 or 3 players: CITY is a "
                                                          "city's name, 2 of each colour"), example(self.game, "dashed"),
                                   also=_("or deal the cities at the table with `round start --physical`"))
            by_colour = [[c for c in cs if not c.dashed] for cs in by_colour]
        return by_colour


def paths(edges: Iterable[Edge]) -> list[list[int]]:
    """A set of lines as few walks as an Euler split allows, for listing rails as paths."""
    remaining: dict[int, set[int]] = {}
    for a, b in edges:
        remaining.setdefault(a, set()).add(b)
        remaining.setdefault(b, set()).add(a)
    out: list[list[int]] = []
    while any(remaining.values()):
        # start from an odd-degree junction when there is one, so walks are long
        odd = sorted(n for n, s in remaining.items() if len(s) % 2 == 1)
        start = odd[0] if odd else min(n for n, s in remaining.items() if s)
        walk = [start]
        node = start
        while remaining.get(node):
            nxt = min(remaining[node])
            remaining[node].discard(nxt)
            remaining[nxt].discard(node)
            walk.append(nxt)
            node = nxt
        out.append(walk)
    return out


@lru_cache(maxsize=8)
def load(game: str) -> Board:
    """The board of a shipped pack merged with nothing; cached, it never changes in a process."""
    from companion.core import datapack

    return Board.from_values(datapack.pack(game)["values"], game)


def load_merged(game: str, user_values: dict) -> Board:
    """The board of a pack with the players' own values (double_kinds, dashed ...) laid over it."""
    from companion.core import datapack

    if not user_values:
        return load(game)
    return Board.from_values(datapack.merged(game, user_values), game)
