"""The shape of a game's parts, checked when the game is loaded (issue 27).

The registry checks a game by name (its facts, its required rules and parts are there, no
name looks like a part but is not one); here each part is checked by shape, as pluggy's
``_verify_hook`` checks a hook's arguments against its spec at registration: every rule the
game writes can be called as the companion calls it (``initial(setup, data)``,
``on_<type>(state, event, data)``), ``MOVES`` holds :class:`Move` objects whose functions
take what the companion gives them, ``SCREENS`` :class:`Screen` objects, the views are
functions, ``PLAYTHROUGH`` is a dict of command lines, and so on. A part of the wrong shape is
one line naming the part and what it should be, before any player meets it: otherwise it
fails later, deep in the companion's code, which then looks like the companion's fault.

Arity is read off the function's code object (``inspect`` would cost every start of a game a
few milliseconds); a callable whose arity cannot be read that way (a class, an object with
``__call__``) is trusted.
"""

from __future__ import annotations

from companion.contract.language import _

from typing import Any

CO_VARARGS = 0x04  # inspect.CO_VARARGS, without importing inspect


class ContractError(Exception):
    """What is wrong with a game, in words that fit after its name."""


def arity(fn: Any) -> tuple[int, float] | None:
    """(fewest, most) positional arguments ``fn`` accepts, or None when it cannot be read
    cheaply. A keyword-only parameter without a default makes every positional call fail:
    (inf, 0), which nothing fits."""
    bound = 0
    func = fn
    if hasattr(func, "__func__") and hasattr(func, "__self__"):  # a bound method
        func, bound = func.__func__, 1
    code = getattr(func, "__code__", None)
    if code is None or not hasattr(code, "co_argcount"):
        return None
    n = code.co_argcount
    defaults = len(getattr(func, "__defaults__", None) or ())
    kwonly = code.co_kwonlyargcount
    kwdefaults = getattr(func, "__kwdefaults__", None) or {}
    if kwonly > len(kwdefaults):
        return (float("inf"), 0)
    most = float("inf") if code.co_flags & CO_VARARGS else n - bound
    return (max(n - defaults - bound, 0), most)


def takes(fn: Any, count: int) -> bool:
    """Whether ``fn`` can be called with ``count`` positional arguments (or its arity is not
    known: then it is trusted)."""
    found = arity(fn)
    return found is None or found[0] <= count <= found[1]


def _called(fn: Any, name: str) -> str:
    """``name(a, b)`` with the parameter names ``fn`` declares, as the author wrote it."""
    func = getattr(fn, "__func__", fn)
    code = getattr(func, "__code__", None)
    if code is None:
        return name
    names = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])
    if code.co_flags & CO_VARARGS:
        names.insert(code.co_argcount, "*" + code.co_varnames[code.co_argcount + code.co_kwonlyargcount])
    return f"{name}({', '.join(names)})"


def _spec(doc: str) -> tuple[str, int]:
    """``(setup, data) -> state: ...`` -> ("(setup, data) -> state", 2)."""
    head = doc.split(":", 1)[0].strip()
    inside = head[head.find("(") + 1:head.find(")")] if "(" in head else ""
    return head, len([a for a in inside.split(",") if a.strip()])


# -- the rules ---------------------------------------------------------------------------------------

def check_rules(game: Any, cls: type) -> None:
    """Every rule the game writes is a method the companion can call as the contract says
    (``RULES``: the arguments in its description), and every ``on_<type>`` handler takes
    (state, event, data)."""
    from companion.contract.api import RULES, Game

    for name, doc in RULES.items():
        if name.startswith("on_") or getattr(cls, name, None) is getattr(Game, name, None):
            continue
        head, count = _spec(doc)
        _callable_taking(getattr(game, name), count, "its rules' ", name, name + head, "a method")
    head, count = _spec(RULES["on_<event type>"])
    for klass in cls.__mro__:
        if klass is Game or not issubclass(klass, Game):
            continue
        for name in vars(klass):
            if name.startswith("on_"):
                _callable_taking(getattr(game, name), count, "its rules' ", name, name + head, "a method")


def _callable_taking(fn: Any, count: int, prefix: str, name: str, should: str, kind: str = "a function") -> None:
    """``fn`` is a function taking ``count`` positional arguments, else a ContractError:
    `PREFIX NAME should be KIND SHOULD, not 42` or `PREFIX NAME(a) cannot be called as the
    contract says: SHOULD`."""
    if not callable(fn):
        raise ContractError(_("{prefix}{name} should be {kind} {should}, not {short}").format(prefix=prefix, name=name, kind=kind, should=should, short=_short(fn)))
    if not takes(fn, count):
        raise ContractError(_("{prefix}{called} cannot be called as the contract says: {should}")
                              .format(prefix=prefix, called=_called(fn, name), should=should))


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# -- the moves module --------------------------------------------------------------------------------

# The functions of a Move, a Screen and a views module, as the companion calls them (the number
# of arguments is read from the parentheses).
MOVE_FUNCTIONS = {"event": "event(at) -> event", "allowed": "allowed(at, player) -> bool",
                  "prepare": "prepare(at)", "before": "before(state) -> dict", "done": "done(outcome) -> View",
                  "private_view": "private_view(at, player) -> View", "why_not": "why_not(at, player) -> str"}
SCREEN_FUNCTIONS = {"view": "view(at) -> View", "json": "json(at) -> value"}
VIEW_FUNCTIONS = {"status_view": "status_view(at) -> View", "board_view": "board_view(at) -> View",
                  "map_view": "map_view(at, map id) -> View", "next_action": "next_action(status) -> str",
                  "score_goal": "score_goal(status) -> number | None"}


def check_moves(module: Any, game_id: str) -> None:
    """``NEW``, ``MOVES``, ``SCREENS``, ``COMMANDS``, ``GROUPS``, ``PLAYTHROUGH`` and
    ``SETUP`` of a game's moves module, each of the shape the contract says."""
    import click

    from companion.contract.declare import Kind, Move, Param, Screen

    where = f"its moves module {module.__name__}"
    new = getattr(module, "NEW", None)
    _mapping(new, where, "NEW", "{game id: the `new` Click command}", click.Command)
    if game_id not in new:
        raise ContractError(_("{where} has no NEW[{key}] (the `new {game_id}` command)").format(
            where=where, key=repr(game_id), game_id=game_id))

    for part, cls, functions in (("MOVES", Move, MOVE_FUNCTIONS), ("SCREENS", Screen, SCREEN_FUNCTIONS)):
        found = getattr(module, part, None)
        if found is None:
            continue
        if not isinstance(found, (list, tuple)):
            raise ContractError(_("{where}: {part} should be a list of {name__} objects, not {short}")
                                  .format(where=where, part=part, name__=cls.__name__, short=_short(found)))
        for i, decl in enumerate(found):
            if not isinstance(decl, cls):
                raise ContractError(_("{where}: {part}[{i}] is {short}, not a companion.contract.declare.{name__}")
                                      .format(where=where, part=part, i=i, short=_short(decl), name__=cls.__name__))
            named = f"{where}: {cls.__name__.lower()} {decl.name!r}" if isinstance(decl.name, str) else ""
            if not isinstance(decl.name, str) or not decl.name.strip():
                raise ContractError(_("{where}: {part}[{i}] has no name (a {name__} needs one)").format(where=where, part=part, i=i, name__=cls.__name__))
            for attr, should in functions.items():
                fn = getattr(decl, attr, None)
                if fn is None and attr == "event" and cls is Move:
                    raise ContractError(_("{named} has no event (it should be {should})").format(named=named, should=should))
                if fn is not None:
                    _callable_taking(fn, _spec(should)[1], f"{named}: its ", attr, should)
            for p in decl.params:
                if not isinstance(p, Param):
                    raise ContractError(_("{named}: its parameter {short} is not a companion.contract.declare.Param")
                                          .format(named=named, short=_short(p)))
                if not isinstance(p.kind, Kind):
                    raise ContractError(_("{named}: the kind of its parameter {name} is {kind}, not a "
                                          "companion.contract.declare.Kind (Player(), Number(), OneOf(...), ...)")
                                          .format(named=named, name=repr(p.name), kind=_short(p.kind)))
                check_kind(p.kind, f"{named}: the kind of its parameter {p.name!r} ({type(p.kind).__name__}): ")
            then = getattr(decl, "then", None)
            if then is not None and not (isinstance(then, tuple) and len(then) == 2 and isinstance(then[0], Move)
                                         and callable(then[1]) and takes(then[1], 1)):
                raise ContractError(_("{named}: its then should be (Move, args(outcome) -> dict | None), not {short}")
                                      .format(named=named, short=_short(then)))
    commands = getattr(module, "COMMANDS", None)
    if commands is not None:
        _mapping(commands, where, "COMMANDS", "{name: Click command}", click.Command)
    groups = getattr(module, "GROUPS", None)
    if groups is not None:
        _mapping(groups, where, "GROUPS", "{group: its help}", str)
    playthrough = getattr(module, "PLAYTHROUGH", None)
    if playthrough is not None:
        _mapping(playthrough, where, "PLAYTHROUGH", "{game id: [command line, ...]}", list)
        for gid, lines in playthrough.items():
            if not all(isinstance(line, str) for line in lines):
                raise ContractError(_("{where}: PLAYTHROUGH[{gid}] should hold command lines (text) only")
                                      .format(where=where, gid=repr(gid)))
    setup = getattr(module, "SETUP", None)
    if setup is not None:
        _callable_taking(setup, 1, f"{where}: ", "SETUP", "SETUP(at)")


def check_kind(kind: Any, prefix: str) -> None:
    """Every method of ``Kind`` that a kind of the game's own writes anew takes what
    ``Kind``'s own takes (``read(text, at, param)``, ``options(at, param)``, ...)."""
    from companion.contract.declare import Kind

    for name, base in vars(Kind).items():
        if name.startswith("_") or not hasattr(base, "__code__") or getattr(type(kind), name) is base:
            continue
        code = base.__code__
        wanted = code.co_varnames[1:code.co_argcount]
        _callable_taking(getattr(kind, name), len(wanted), prefix, name, f"{name}({', '.join(wanted)})")


def _mapping(value: Any, where: str, part: str, should: str, kind: type) -> None:
    if not isinstance(value, dict):
        raise ContractError(_("{where}: {part} should be {should}, not {short}").format(where=where, part=part, should=should, short=_short(value)))
    for key, item in value.items():
        if not isinstance(key, str) or not isinstance(item, kind):
            raise ContractError(_("{where}: {part} should be {should}; {short}: {short2} is not").format(where=where, part=part, should=should, short=_short(key), short2=_short(item)))


# -- the views module --------------------------------------------------------------------------------

def check_views(module: Any) -> None:
    """The views are functions taking what the companion gives them; ``MAPS`` is a list of
    map ids."""
    where = f"its views module {module.__name__}"
    for part, should in VIEW_FUNCTIONS.items():
        fn = getattr(module, part, None)
        if fn is not None:
            _callable_taking(fn, _spec(should)[1], f"{where}: ", part, should)
    maps = getattr(module, "MAPS", None)
    if maps is not None and not (isinstance(maps, (list, tuple)) and all(isinstance(m, str) for m in maps)):
        raise ContractError(_("{where}: MAPS should be a tuple of map ids (text), not {short}")
                              .format(where=where, short=_short(maps)))


def check_facts(game: Any) -> None:
    """What the registry's type check of the facts cannot say: the event keys are names."""
    for fact in ("player_fields", "player_keys"):
        if not all(isinstance(k, str) for k in getattr(game, fact)):
            raise ContractError(_("its {fact} should be a tuple of event keys (text), not {short}")
                                  .format(fact=fact, short=_short(getattr(game, fact))))



# -- names that moved --------------------------------------------------------------------------------

# The contract's modules under the names they had before issue 27: the very same modules still
# (companion/games/api.py and the others are aliases), so a plugin importing them loads.
MOVED = {
    "companion.games.api": "companion.contract.api",
    "companion.games.declare": "companion.contract.declare",
    "companion.games.view": "companion.contract.view",
    "companion.core.errors": "companion.contract.errors",
    "companion.core.text": "companion.contract.text",
    "companion.core.numbers": "companion.contract.numbers",
}


def old_names(modules: list[Any]) -> list[str]:
    """The moved names (:data:`MOVED`) the source of ``modules`` imports, each as `OLD (now
    NEW)`, for `games --verbose`. Read from the modules' files with ``ast`` only when the text
    names one of the old packages at all; a module without a readable file says nothing."""
    found: list[str] = []
    seen: set[str] = set()
    for module in modules:
        path = getattr(module, "__file__", None)
        if not path or path in seen or not path.endswith(".py"):
            continue
        seen.add(path)
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        except (OSError, UnicodeDecodeError):
            continue
        if "companion.games" not in text and "companion.core" not in text:
            continue
        for name in _imported(text):
            if name in MOVED and name not in found:
                found.append(name)
    return [f"{name} (now {MOVED[name]})" for name in found]


def _imported(text: str) -> list[str]:
    """Every module a source text imports, by its full name (``from companion.games import
    api`` imports ``companion.games.api`` too)."""
    import ast

    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.append(node.module)
            out += [f"{node.module}.{alias.name}" for alias in node.names]
    return out
