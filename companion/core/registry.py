"""The games the companion knows, found through the entry point group ``companion.games``.

Built-in games and plugins register the same way: a distribution names, in its metadata, a
game id and the ``module:attribute`` of a :class:`companion.contract.api.Game` subclass (or
instance). The core never names a game; it only reads that group.

Each game is checked when it is loaded, against the lists that are the contract
(``companion.contract.api``): its facts, its required rules, and the two modules it names (its
moves and its views), each imported and holding its required parts and no name that looks like
a part but is not one (a typo: ``render_stauts``, ``COMMAND``). A game that fails is one line
in `games`, naming the game, its distribution and the mistake, never a silent default
(pluggy checks a plugin's hooks against its specs the same way, at registration).

``COMPANION_GAMES=scoresheet,yacht`` loads only the games it names (to find which plugin
breaks something, or to keep one out).

Scanning entry points means reading every installed distribution's metadata, and importing
``importlib.metadata`` alone costs more than a whole ``companion --version``. So the scan is
done only when a game is needed, and its result is kept in a small cache file keyed by the
modification times of the folders on ``sys.path``: installing or removing a distribution
changes its folder, so the cache can never name a game that is gone or miss a new one. Only
the game asked for is imported. The cache is checked, never believed (issue 22: a forged one
made the companion import any module, then blamed the installation): each cached target must
be exactly what its distribution's own ``entry_points.txt`` names, in a distribution folder on
``sys.path`` (one small file read per distribution); anything else means a fresh scan.

A plugin that fails to import or breaks the contract never stops start-up or the other games:
it is left out of :func:`available` and reported in one line by :func:`problems`. Its parts are
checked by shape too (:mod:`companion.core.shape`). An id claimed by two entry points is
settled by the claims, never by their order on the path (:func:`_settle`): a built-in keeps
its id, and two plugins claiming one are both refused.
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from typing import Any

from companion.contract.language import _
from companion.contract.errors import CompanionError
from companion.core.json_read import loads
from companion.core.shape import ContractError

GROUP = "companion.games"
CACHE_VERSION = 4  # 2: the distribution's version too; 3: its metadata folder, to check the cache against;
# 4: every claim of an id, so that two claims are settled alike whatever their order (issue 27)
DISTRIBUTION = "tabletop-companion"  # the built-in games' distribution: they keep their ids
ENV_GAMES = "COMPANION_GAMES"

_cache_path: Path | None = None
_targets: dict[str, tuple[str, str, str]] | None = None  # game id -> ("module:attr", distribution, version)
_games: dict[str, Any] = {}
_parts: dict[str, "Parts"] = {}
_broken: dict[str, str] = {}  # game id -> one line saying what is wrong
_refused: dict[str, list[str]] = {}  # game id -> a line for each entry point refused for claiming it


def use_cache_file(path: Path | None) -> None:
    """Where the entry-point scan is remembered between runs (None: scan every run)."""
    global _cache_path
    _cache_path = path


def _fingerprint() -> list[list]:
    """The folders distributions live in, with their modification times.

    The folder Python put first on the path for this run is left out: the working folder for
    ``python -m companion`` (it changes whenever a file is written there), the script's folder
    for the ``companion`` command. Nobody installs a distribution there, and leaving it out
    lets both ways of starting share the cache.
    """
    skip = {"", ".", os.getcwd()}
    if sys.argv and sys.argv[0]:
        skip.add(os.path.dirname(os.path.abspath(sys.argv[0])))
    out = []
    for entry in sys.path:
        if entry in skip:
            continue
        try:
            out.append([entry, os.stat(entry).st_mtime_ns])
        except OSError:
            continue
    return out


def _scan_with_folders() -> list[tuple[str, str, str, str, str]]:
    """Every entry point of the group: (game id, ``module:attribute``, distribution, version,
    the folder of its metadata, or "" when it has none on disk)."""
    from importlib.metadata import entry_points

    out = []
    for ep in entry_points(group=GROUP):
        dist = getattr(ep, "dist", None)
        name = getattr(dist, "name", None) or "?"
        version = getattr(dist, "version", None) or "?"
        where = getattr(dist, "_path", None)  # a PathDistribution's *.dist-info (or *.egg-info)
        out.append((ep.name, ep.value, name, version, os.path.abspath(str(where)) if where else ""))
    return out


def _builtin(target: str, dist: str) -> bool:
    """Whether an entry point is one of the companion's own games (its distribution and code)."""
    return dist.lower().replace("_", "-").replace(".", "-") == DISTRIBUTION and target.startswith("companion.")


def _settle(claims) -> tuple[dict[str, tuple[str, str, str]], dict[str, list[str]]]:
    """Which entry point each game id is: (game id -> (target, distribution, version), game id
    -> the lines refusing the others). Decided by the claims alone, never by their order on
    the path (issue 27: a plugin claiming `scoresheet` replaced the built-in, or was dropped
    without a word, by path order): a built-in keeps its id and a plugin claiming it is
    refused; two plugins claiming one id are both refused."""
    by_id: dict[str, list] = {}
    for gid, target, dist, version, _where in claims:
        if (target, dist) not in {(c[0], c[1]) for c in by_id.get(gid, [])}:
            by_id.setdefault(gid, []).append((target, dist, version))
    games: dict[str, tuple[str, str, str]] = {}
    refused: dict[str, list[str]] = {}
    for gid in sorted(by_id):
        found = by_id[gid]
        if len(found) == 1:
            games[gid] = found[0]
            continue
        own = [c for c in found if _builtin(c[0], c[1])]
        if own:
            games[gid] = own[0]
            refused[gid] = [f"{gid} ({dist} {version}): the id {gid!r} is taken by the built-in game "
                            f"({own[0][1]} {own[0][2]}); a plugin's game needs an id of its own ({target} is not "
                            "loaded)" for target, dist, version in found if (target, dist) != own[0][:2]]
        else:
            refused[gid] = [f"{gid} ({dist} {version}): the id {gid!r} is claimed by "
                            f"{_and([f'{d} {v}' for t, d, v in found if (t, d) != (target, dist)])} too, so neither is "
                            "loaded (uninstall one, or ask its author for an id of its own)"
                            for target, dist, version in found]
    return games, refused


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _checked(claims: Any) -> list[tuple[str, str, str, str, str]] | None:
    """The cached claims, if every one is what its distribution's metadata names today (and
    each of those distributions names no game the cache lacks); None means scan again."""
    if not isinstance(claims, list):
        return None
    folders = {os.path.normpath(os.path.abspath(entry)) for entry in sys.path}
    named: dict[str, dict[str, str]] = {}
    out: list[tuple[str, str, str, str, str]] = []
    for row in claims:
        if not (isinstance(row, list) and len(row) == 5 and all(isinstance(x, str) for x in row)):
            return None
        gid, target, dist, version, where = row
        if (not where.endswith((".dist-info", ".egg-info"))
                or os.path.normpath(os.path.dirname(where)) not in folders):
            return None
        if where not in named:
            try:
                named[where] = _entry_points_in(Path(where) / "entry_points.txt")
            except (OSError, UnicodeDecodeError):
                return None
        if named[where].get(gid) != target:
            return None
        out.append((gid, target, dist, version, where))
    seen = {(c[0], c[4]) for c in out}
    if any((gid, where) not in seen for where, names in named.items() for gid in names):
        return None
    return out


def _entry_points_in(path: Path) -> dict[str, str]:
    """The ``companion.games`` section of an ``entry_points.txt``: name -> value, as
    importlib.metadata reads it (an INI file)."""
    section, out = None, {}
    for raw in _read_small_file(path).splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
        elif section == GROUP and "=" in line:
            name, _, value = line.partition("=")
            out.setdefault(name.strip(), value.strip())
    return out


def targets() -> dict[str, tuple[str, str, str]]:
    """Every registered game id -> (``module:attribute``, distribution, its version), in the
    order of their ids; an id claimed twice is settled by :func:`_settle`."""
    global _targets
    if _targets is not None:
        return _targets
    key = _fingerprint()
    claims = None
    if _cache_path is not None:
        try:
            cached = loads(_read_small_file(_cache_path))
            if cached.get("version") == CACHE_VERSION and cached.get("key") == key:
                claims = _checked([[gid, *row] for gid, row in cached["games"].items()] + cached["others"])
        except (OSError, ValueError, TypeError, KeyError, AttributeError, IndexError, RecursionError):
            pass
    if claims is None:
        claims = _scan_with_folders()
        if _cache_path is not None:
            _remember(key, claims)
    games, refused = _settle(claims)
    _refused.clear()
    _refused.update(refused)
    _targets = games  # `games` orders them by their own `listing`
    return _targets


def _remember(key: list, claims: list) -> None:
    import json  # (a start that reads the cache never imports json: companion.core.json_read)

    try:
        _cache_path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        tmp = _cache_path.with_name(_cache_path.name + f".{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # owner only (issue 12)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            # the id's first claim under "games" (what this file held before), any other under "others"
            games: dict[str, list[str]] = {}
            others = [list(c) for c in claims if games.setdefault(c[0], list(c[1:])) != list(c[1:])]
            fh.write(json.dumps({"version": CACHE_VERSION, "key": key, "games": games, "others": others}))
        os.replace(tmp, _cache_path)
    except OSError:
        pass  # a read-only data folder: scan again next time


def _read_small_file(path: Path, limit: int = 1 << 20) -> str:
    """A regular file's text, at most ``limit`` bytes; OSError for anything else (a FIFO in
    its place must not hang start-up)."""
    import stat

    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
            raise OSError(f"{path} is not a small regular file")
        return os.read(fd, limit + 1).decode("utf-8")
    finally:
        os.close(fd)


def forget() -> None:
    """Drop what was scanned and loaded (tests install and remove plugins)."""
    global _targets
    _targets = None
    _games.clear()
    _parts.clear()
    _broken.clear()
    _refused.clear()


class Parts:
    """A loaded game with the two modules it named, checked: ``moves`` and ``views``."""

    __slots__ = ("game", "_moves", "views", "distribution", "version", "target", "old_names")

    def __init__(self, game, moves, views, distribution: str, version: str, target: str,
                 old_names: tuple[str, ...] = ()):
        self.game, self._moves, self.views = game, moves, views
        self.distribution, self.version, self.target = distribution, version, target
        self.old_names = old_names  # the moved names its code imports: `OLD (now NEW)` (shape.MOVED)

    @property
    def moves(self):
        """The moves module, checked; a built-in game's is imported when first asked for (None
        given): a `status` draws the views and never reads the moves, which were a fifth of a
        Trans `status`'s own modules (issue 27). A built-in game's moves are held by its tests."""
        if self._moves is None:
            self._moves = _import(self.game.moves, "moves")
            from companion.contract.api import MOVES_PARTS

            _check_module(self._moves, MOVES_PARTS, "moves", False)
        return self._moves

    def get(self, part: str, default: Any = None) -> Any:
        """A part of the contract by its name (MOVES_PARTS or VIEWS_PARTS), or ``default``."""
        from companion.contract.api import MOVES_PARTS

        module = self.moves if part in MOVES_PARTS else self.views
        return getattr(module, part, default)

    @property
    def plugin(self) -> bool:
        """Whether the game's code is a plugin's, not the companion's own."""
        return self.package != "companion"

    @property
    def package(self) -> str:
        """The top-level package of the game's code (a plugin's errors are told apart by it)."""
        return self.target.split(":")[0].split(".")[0]

    @property
    def packages(self) -> set[str]:
        """The top-level packages of its rules, moves and views (three modules of their own, for
        a plugin made of top-level modules)."""
        return {self.package, self.game.moves.split(".")[0], self.views.__name__.split(".")[0]}


def wanted(game_id: str) -> bool:
    """Whether COMPANION_GAMES (if set) names this game."""
    names = os.environ.get(ENV_GAMES)
    if names is None or not names.strip():
        return True
    return game_id in {n.strip() for n in names.split(",")}


def _load(game_id: str) -> Any | None:
    if game_id in _games:
        return _games[game_id]
    if game_id in _broken:
        return None
    target, dist, version = targets()[game_id]
    if not wanted(game_id):
        _broken[game_id] = f"{game_id} ({dist} {version}): left out by {ENV_GAMES}={os.environ.get(ENV_GAMES)}"
        return None
    try:
        parts = check(game_id, target, dist, version)
    except ContractError as exc:
        _broken[game_id] = f"{game_id} ({dist} {version}): {exc}"
        return None
    except Exception as exc:  # noqa: BLE001 - a broken plugin is reported, never fatal
        _broken[game_id] = f"{game_id} ({dist} {version}): {_reason(exc)}"
        return None
    _games[game_id] = parts.game
    _parts[game_id] = parts
    return parts.game


def _reason(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _import(module: str, what: str):
    """Import a module a game names; a missing or broken one is a ContractError saying which."""
    if not module:
        raise ContractError(_("it names no {what} module (its `{what}` attribute is empty)").format(what=what))
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and (module == exc.name or module.startswith(exc.name + ".")):
            raise ContractError(_("its {what} module {module} does not exist").format(what=what, module=module)) from None
        raise ContractError(_("its {what} module {module} does not import ({reason})").format(what=what, module=module, reason=_reason(exc))) from None
    except Exception as exc:  # noqa: BLE001 - the plugin's own code failed while importing
        raise ContractError(_("its {what} module {module} does not import ({reason})").format(what=what, module=module, reason=_reason(exc))) from None


def _looks_like(name: str, parts: dict) -> str | None:
    """The part ``name`` was probably meant to be (a typo, or the old contract's name)."""
    from companion.contract.api import RENAMED

    if name in RENAMED:
        return f"{name} is from the old contract: now {RENAMED[name]}"
    close = closest(name, [*parts, *RENAMED], 0.75)
    if close:
        meant = close if close in parts else f"{close}, from the old contract: now {RENAMED[close]}"
        return f"{name} is not part of the contract (did you mean {meant}?)"
    return None


def closest(name: str, candidates: list[str], cutoff: float) -> str | None:
    """The candidate ``name`` is most likely a typo of (an edit distance of at most a quarter
    of its length: `render_stauts`, `COMMAND`), or None. Written here rather than with difflib,
    whose import alone would cost every start of a game a millisecond."""
    best, found = cutoff, None
    low = name.lower()
    letters = set(low)
    for c in candidates:
        longest = max(len(name), len(c))
        if abs(len(name) - len(c)) > longest * (1 - cutoff):
            continue
        other = c.lower()
        # each letter only one of them has takes an edit, and one edit replaces at most one
        # letter of each: a bound below the distance, so most names need no full distance
        seen = set(other)
        if 1 - max(len(letters - seen), len(seen - letters)) / longest < best:
            continue
        score = 1 - _distance(low, other, (1 - best) * longest + 1e-9) / longest  # (1 - 0.8) * 15 < 3
        if score >= best and name != c:
            best, found = score, c
    return found


def _distance(a: str, b: str, limit: float = float("inf")) -> float:
    """Levenshtein distance, a swap of two neighbours counting one (Damerau); anything above
    ``limit`` once no cell of the last two rows can come back under it (every later cell
    grows from them)."""
    rows = [list(range(len(b) + 1))]
    for i, ca in enumerate(a, 1):
        row = [i]
        for j, cb in enumerate(b, 1):
            cost = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cost = min(cost, rows[-2][j - 2] + 1)
            row.append(cost)
        if min(row) > limit and min(rows[-1]) + 1 > limit:
            return float("inf")
        rows.append(row)
    return rows[-1][-1]


def _check_module(module, parts: dict, what: str, typos: bool = True) -> None:
    for part, (required, _doc) in parts.items():
        if required and not hasattr(module, part):
            raise ContractError(_("its {what} module {name__} has no {part}, which every game needs")
                                  .format(what=what, name__=module.__name__, part=part))
    if not typos:  # a built-in game's names are held by its tests (see check)
        return
    for name in sorted(vars(module)):
        if name.startswith("_") or name in parts:
            continue
        value = getattr(module, name)
        if isinstance(value, type(importlib)) or getattr(value, "__module__", module.__name__) != module.__name__:
            continue  # an imported module or name, not one of its own
        problem = _looks_like(name, parts)
        if problem:
            raise ContractError(_("its {what} module {name__}: {problem}").format(what=what, name__=module.__name__, problem=problem))


def check(game_id: str, target: str, dist: str = "?", version: str = "?", whole: bool | None = None) -> Parts:
    """Load and check one game against the contract; ContractError says what is wrong.

    ``whole``: whether to look for a name that looks like a part but is not one (a typo:
    `render_stauts`, `COMMAND`) and to check the parts' shapes (signatures, `Move` objects,
    callables: companion.core.shape). By default a plugin is checked so at every load, and a
    built-in game is not: it cannot change after its tests checked it whole
    (tests/test_startup_work.py), and the search was a tenth of a Trans `status` (issue 27).
    What every game is checked for at load either way: its facts and their types, its
    required rules and parts, its id."""
    from companion.contract.api import FACTS, MOVES_PARTS, REQUIRED_FACTS, REQUIRED_RULES, RULES, VIEWS_PARTS, Game
    from companion.core import shape

    module, _colon, attr = target.partition(":")
    obj = _import(module, "rules")
    for part in attr.split(".") if attr else []:
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise ContractError(_("its entry point names {target}, but {module} has no {part}").format(target=target, module=module, part=part)) from None
    cls = obj if isinstance(obj, type) else type(obj)
    if not issubclass(cls, Game):
        raise ContractError(_("{target} is not a companion.contract.api.Game").format(target=target))
    missing = [m for m in REQUIRED_RULES if getattr(getattr(cls, m, None), "__isabstractmethod__", False)]
    if missing:
        raise ContractError(_("its rules lack {join}, which every game needs").format(join=', '.join((m + '()' for m in missing))))
    game = obj() if isinstance(obj, type) else obj
    for fact in REQUIRED_FACTS:
        if not getattr(game, fact, ""):
            raise ContractError(_("it does not say its {fact} ({FACTS})").format(fact=fact, FACTS=FACTS[fact][1]))
    for fact, (kind, _doc) in FACTS.items():
        value = getattr(game, fact, None)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ContractError(_("its {fact} should be a {name__}, not {value}").format(fact=fact, name__=kind.__name__, value=repr(value)))
    if game.id != game_id:
        raise ContractError(_("its id is {id}, but its entry point is {game_id}").format(id=repr(game.id), game_id=repr(game_id)))
    if not 1 <= game.min_players <= game.max_players:
        raise ContractError(_("its players ({min_players} to {max_players}) make no sense").format(min_players=game.min_players, max_players=game.max_players))
    known = set(RULES) | set(FACTS) | set(dir(Game))
    rules = [r for r in RULES if not r.startswith("on_")]
    from companion.contract.api import RENAMED

    if whole is None:
        whole = not _builtin(target, dist)
    own = {n for k in cls.__mro__ if k is not Game and issubclass(k, Game) for n in vars(k)} if whole else set()
    for name in sorted(own - known):  # the game's own names (its base classes' too)
        if name.startswith(("_", "on_")):
            continue
        if name in RENAMED:
            raise ContractError(_("its rules have {name}, which is from the old contract (now {RENAMED})")
                                  .format(name=name, RENAMED=RENAMED[name]))
        close = closest(name, rules, 0.8)
        if close:
            raise ContractError(_("its rules have {name}, which is not part of the contract (did you mean {close}?)")
                                  .format(name=name, close=close))
    if whole:
        shape.check_facts(game)
        shape.check_rules(game, cls)
    moves = None  # a built-in game's: imported when first asked for (Parts.moves)
    if whole or module.split(".")[0] != "companion":
        moves = _import(game.moves, "moves")
        _check_module(moves, MOVES_PARTS, "moves", whole)
    if whole:
        shape.check_moves(moves, game_id)
    views = _import(game.views, "views")
    _check_module(views, VIEWS_PARTS, "views", whole)
    if whole:
        shape.check_views(views)
    old = () if module.split(".")[0] == "companion" else tuple(
        shape.old_names([sys.modules.get(cls.__module__), moves, views]))
    return Parts(game, moves, views, dist, version, target, old)


def parts(game_id: str) -> Parts:
    """The loaded game ``game_id`` with its checked modules (see :func:`get`)."""
    get(game_id)
    return _parts[game_id]


def owner_of(module: str | None) -> Parts | None:
    """The loaded game whose code ``module`` is, if it is not the companion's own (a plugin)."""
    if not module:
        return None
    top = module.split(".")[0]
    if top == "companion":
        return None
    for found in _parts.values():
        if top in found.packages:
            return found
    return None


def known() -> list[str]:
    """Every registered id, loaded or not (an id two plugins claim too)."""
    ids = list(targets())
    return ids + [gid for gid in sorted(_refused) if gid not in ids]


def available() -> list[str]:
    """Ids of the games that load and keep the contract, in their listing order (this
    imports every game)."""
    ids = [gid for gid in targets() if _load(gid) is not None]
    return sorted(ids, key=lambda gid: (_games[gid].listing, gid))


def problems() -> list[str]:
    """One line for every registered game that could not be loaded."""
    available()
    lines = {gid: [_broken[gid]] for gid in targets() if gid in _broken}
    for gid, refused in _refused.items():
        lines.setdefault(gid, []).extend(refused)
    return [line for gid in sorted(lines) for line in lines[gid]]


def get(game_id: str):
    """The game object of ``game_id``, or a refusal listing the games."""
    game = _games.get(game_id)
    if game is not None:
        return game
    if game_id in targets():
        game = _load(game_id)
        if game is not None:
            return game
        raise CompanionError(_("The game {game_id} is installed but could not be loaded: {broken}{endswith} (`games` "
                               "lists what is wrong.)")
                               .format(game_id=repr(game_id), broken=_broken[game_id], endswith='' if _broken[game_id].endswith('.') else '.'))
    if game_id in _refused:
        raise CompanionError(_("The game {game_id} is installed but could not be loaded: {refused}. (`games` lists what is wrong.)")
                               .format(game_id=repr(game_id), refused=_refused[game_id][0]))
    raise CompanionError(_("There is no game {game_id}: the games are {join}.").format(game_id=repr(game_id), join=', '.join(available())))
