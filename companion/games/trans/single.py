"""Europa's single lines: the lines that count as single whatever the board draws.

Seed 000, Building Track: "Clarification: on the Trans Europa board, both the ferry crossing
(through the English Channel) and the tunnel (through the Swiss Alps) count as a single line."
A ferry over water and a route over mountains are otherwise double lines, so these two are
drawn as crossings and counted 1, to build as to count missing rails.

Which lines they are is a printed value nobody here knows. The bundled Europa board is the
classic one (2004/2005): both public encodings of it draw every line across the Channel and
the Alps double, so they do not say which line is the ferry or the tunnel, and the combined
edition's revised map is not known at all. The pack therefore holds ``single_lines``:

* one entry per line the rulebook names (``ferry``, ``tunnel``; the pack's schema gives each
  its rulebook name as "title"): null until the players say, then the line as two junctions
  joined by '-' (``"Plymouth-C6"``) or ``"none"`` when their board has no such line;
* ``others``: any further lines their board counts single, null until said. It replaced the
  narrower ``disputed_single`` (only the two double lines the public encodings differ on,
  Brest-B7 and Oslo-I2), which older packs, data folders and sessions still carry and which
  reads as ``others``: once it is known, the disputed lines it leaves out are plain doubles.

Until a named line is known, counts are made as the board is drawn; a count whose route has a
double line (any of which may be the ferry or the tunnel) says so in one line, and the shell
asks for the lines once, by name (:func:`ask_lines`). A command given in full never asks.
"""

from __future__ import annotations

from companion.contract.language import N_, _, ngettext, pgettext
from companion.core import datapack
from companion.contract.errors import CompanionError, RuleError
from companion.games.trans.board import Board, Edge

KEY = "single_lines"
OLD_KEY = "disputed_single"  # what packs, data folders and sessions before it called `others`
OTHERS = "others"
NONE = "none"


def lines_value(values: dict) -> dict | None:
    """The ``single_lines`` of these printed values (a pack's, or a session's frozen copy), an
    old ``disputed_single`` read as its ``others``; None when the board has neither (Amerika)."""
    if KEY not in values and OLD_KEY not in values:
        return None
    value = values.get(KEY)
    out = dict(value) if isinstance(value, dict) else {}
    if value is not None and not isinstance(value, dict):
        out["?"] = value  # refused by settle() with the command to correct it
    if out.get(OTHERS) is None and values.get(OLD_KEY) is not None:
        out[OTHERS] = values[OLD_KEY]
    return out


def named(values: dict) -> list[str]:
    """The lines the rulebook names on this board (``ferry``, ``tunnel``), known or not."""
    value = lines_value(values) or {}
    return [k for k in value if k not in (OTHERS, "?")]


def unknown(values: dict) -> list[str]:
    """The named lines nobody has said yet."""
    value = lines_value(values) or {}
    return [k for k in named(values) if value.get(k) is None]


def title(game: str, key: str) -> str:
    """The rulebook's name of a line: "the ferry through the English Channel"."""
    try:
        return datapack.title(game, f"{KEY}.{key}") or _("the {key}").format(key=key)
    except CompanionError:
        return _("the {key}").format(key=key)


def fix(game: str, key: str) -> str:
    return _("correct it with `{command}`").format(command=datapack.set_command(game, f"{KEY}.{key}"))


def one_line(board: Board, key: str, item) -> Edge | None:
    """The line a named entry gives (None for "none"), or a refusal naming the command."""
    if isinstance(item, str) and item.strip().casefold() == NONE:
        return None
    lines = board.lines_of([item], f"{KEY}.{key}", fix(board.game, key))
    if len(lines) != 1:
        raise RuleError(_("{KEY}.{key} gives {n} lines, but {title} is one line: two junctions "
                          "joined by '-'; {fix}.").format(
                            KEY=KEY, key=key, n=len(lines), title=title(board.game, key), fix=fix(board.game, key)))
    return next(iter(lines))


def settle(board: Board, values: dict) -> Board:
    """The board with the lines the players said count single at cost 1.

    Once ``others`` is known, the disputed double lines it leaves out are plain doubles (they
    lose their mark). A line the board already draws single is refused: it changes nothing,
    so it is most likely a typo for the crossing next to it.
    """
    value = lines_value(values)
    if not value:
        return board
    game = board.game
    if "?" in value:
        raise RuleError(_("{KEY} must be a table of lines, e.g. {{\"ferry\": "
                          "\"JUNCTION-JUNCTION\"}}: {fix}.").format(KEY=KEY, fix=fix(game, 'ferry')))
    cost = dict(board.cost)
    disputed = set(board.disputed)
    counted: dict[Edge, str] = {}
    for key, item in value.items():
        if item is None:
            continue
        if key == OTHERS:
            if not isinstance(item, list):
                raise RuleError(_("{KEY}.{OTHERS} must be a list of lines, e.g. [\"Brest-B7\"]: "
                                  "{fix}.").format(KEY=KEY, OTHERS=OTHERS, fix=fix(game, key)))
            lines = board.lines_of(item, f"{KEY}.{OTHERS}", fix(game, key))
            disputed.clear()  # said: the disputed lines left out are double on this board
        else:
            line = one_line(board, key, item)
            lines = {line} if line is not None else set()
        for e in sorted(lines):
            if board.cost[e] == 1:
                raise RuleError(_("{KEY}.{key} lists {edge_name}, which the board draws single "
                                  "already: {fix}.").format(
                                    KEY=KEY, key=key, edge_name=board.edge_name(e), fix=fix(game, key)))
            if e in counted and OTHERS not in (key, counted[e]) and counted[e] != key:
                raise RuleError(_("{KEY}.{key} lists {edge_name}, which is already {title}: "
                                  "{fix}.").format(
                                    KEY=KEY, key=key, edge_name=board.edge_name(e), title=title(game, counted[e]), fix=fix(game, key)))
            cost[e] = 1
            disputed.discard(e)
            if counted.get(e, OTHERS) == OTHERS:  # a line both named and listed: by its name
                counted[e] = key
    return board.replace(cost=cost, disputed=frozenset(disputed), counted_single=counted)


# -- what a count says about them ------------------------------------------------------------

def route_report(board: Board, values: dict, edges, cost: dict[Edge, int], rails: int) -> dict:
    """The ``--json`` keys of a count about the single lines (stable: added, never removed).

    ``single_lines``: the lines of the route counted single by the players' word, each with its
    rulebook name (null for a line of ``others``); ``single_lines_unknown``: the named lines not
    said yet, when the route has a double line that may be one of them ([] otherwise);
    ``rails_if_single_lines``: the count if those lines are among the route's double lines (each
    then costs 1 less), else null.
    """
    game = board.game
    used = [{"name": title(game, board.counted_single[e]) if board.counted_single[e] != OTHERS else None,
             "line": board.edge_name(e)} for e in sorted(edges) if e in board.counted_single]
    doubles = sum(1 for e in edges if cost.get(e) == 2)
    waiting = unknown(values) if doubles else []
    return {
        "single_lines": used,
        "single_lines_unknown": [title(game, k) for k in waiting],
        "rails_if_single_lines": rails - min(len(waiting), doubles) if waiting else None,
    }


def route_note(game: str, values: dict, names: list[str], whose: str, lower: str, on: str):
    """The one extra line of a count that may go through named lines nobody has said yet.

    ``names``: their rulebook names; ``whose``: "this route", "Ann's route"; ``lower``: the
    count if they are on it ("5 rails", "Bob 4 and Cy 6 rails"); ``on``: "it is on it", "one is
    on it", "both are on it" (how many of them the route's double lines can hold). A view's
    line (the command kept whole), or "" when nothing is unknown."""
    from companion.contract.view import Line, Name

    waiting = unknown(values)
    if not names or not waiting:
        return ""
    from companion.contract.view import message

    both = _(" and ").join(names)
    then = _(", then {key}").format(key=f"{KEY}.{waiting[1]}") if len(waiting) > 1 else ""
    said = ngettext("Note: the rulebook counts {names} as single lines. Which line it is is not known, "
                    "so the double lines on {whose} count 2: {lower} if {on}. Say which: {command}{then} "
                    "('\"none\"' if there is none).",
                    "Note: the rulebook counts {names} as single lines. Which lines they are is not "
                    "known, so the double lines on {whose} count 2: {lower} if {on}. Say which: {command}{then} "
                    "('\"none\"' if there is none).", len(names))
    return Line(*message(said, names=both, whose=whose, lower=lower, on=on, then=then,
                         command=Name(datapack.set_command(game, f"{KEY}.{waiting[0]}"))))


def count_note(board: Board, values: dict, report: dict, rails: int, whose: str | None = None):
    """:func:`route_note` for one count (`rails`) of ``rails`` rails as drawn (``whose``: "this
    route" unless said)."""
    lower = report["rails_if_single_lines"]
    if lower is None:
        return ""
    waiting = len(report["single_lines_unknown"])
    on = _("it is on it") if waiting == 1 else _("both are on it") if rails - lower >= waiting else _("one is on it")
    return route_note(board.game, values, report["single_lines_unknown"], whose or _("this route"),
                      ngettext("{n} rail", "{n} rails", lower).format(n=lower), on)


def used_note(report: dict):
    """After the players said: the named lines this route counts single, in one line (a
    view's line, or "")."""
    from companion.contract.view import Line

    named_used = [u for u in report["single_lines"] if u["name"]]
    if not named_used:
        return ""
    return Line(_("Counted single (rulebook): {lines}.").format(
        lines=", ".join(f"{u['name']} ({u['line']})" for u in named_used)))


def could_pass(values: dict, edges, cost: dict[Edge, int]) -> bool:
    """Whether a count may go through a named line not said yet: its route has a double line
    (``cost``: the lines' costs in the count, a doubles-count-single card counted)."""
    return bool(unknown(values)) and any(cost.get(e) == 2 for e in edges)


def count_costs(board: Board, state: dict) -> dict[Edge, int]:
    """What each line costs a count in this round: a doubles-count-single card in force makes
    its kind 1 (once the players said which lines those are); with several cards, each does."""
    from companion.games.trans.specials import single_kinds

    try:
        return board.costs(single_kinds(state))
    except CompanionError:
        return board.cost


def through_doubles(game, state: dict, data: dict, players) -> dict[str, int]:
    """The players among ``players`` whose counted route has a double line, with the count if
    the named lines not said yet are among those lines (the round end's note)."""
    waiting = unknown(data)
    if not waiting:
        return {}
    board = game.board_of(data)
    cost = count_costs(board, state)
    out = {}
    for p in players:
        tree = game.missing_tree(state, data, p, need_marker=True)
        doubles = sum(1 for e in tree.edges if cost.get(e) == 2)
        if doubles:
            out[p] = tree.cost - min(len(waiting), doubles)
    return out


def round_end_note(game, state: dict, data: dict, missing: dict[str, int]):
    """`round end --auto`, the board counted as drawn: which counts may go through the named
    lines not said yet, and what they would be if so, in one line."""
    lower = through_doubles(game, state, data, list(missing))
    if not lower:
        return ""
    names = [title(game.id, k) for k in unknown(data)]
    who = list(lower)
    if len(who) == 1:
        whose = _("{name}'s route").format(name=who[0])
        counts = ngettext("{n} rail", "{n} rails", lower[who[0]]).format(n=lower[who[0]])
        on = _("it is on it") if len(names) == 1 else _("they are on it")
    else:
        whose = _("{names} routes").format(names=and_list([pgettext("whose routes", "{name}'s").format(name=p) for p in who]))
        counts = _("{counts} rails").format(counts=and_list([f"{p} {n}" for p, n in lower.items()]))
        on = _("it is on them") if len(names) == 1 else _("they are on them")
    return route_note(game.id, data, names, whose, counts, on)


def and_list(items: list[str]) -> str:
    if len(items) < 2:
        return "".join(items)
    return _("{names} and {last}").format(names=", ".join(items[:-1]), last=items[-1])


def ask_before_round_end(app, game, state: dict, data: dict, winners, rails_out: bool) -> None:
    """In the shell, before `round end --auto` counts: when a count may go through a named
    line nobody has said yet, ask for the lines once (the count then uses them)."""
    values, _laid = with_supplied(app.store, game.id, data)
    if not unknown(values):
        return
    try:
        result = game.auto_result(state, values, winners, rails_out)
        if not through_doubles(game, state, values, list(result["missing"])):
            return
    except CompanionError:
        return  # the round end itself says what is wrong, in one line
    ask_lines(app, game.board_of(values), values)


# -- values the players supplied after a session froze its own -------------------------------

def supplied(store, game: str, values: dict) -> dict:
    """The named lines a session still waits for that the players have said since (dotted key
    -> value), to lay over its frozen values and freeze into the next event."""
    if not unknown(values):
        return {}
    mine = lines_value(datapack.merged(game, store.user_values(game))) or {}
    return {f"{KEY}.{k}": mine[k] for k in unknown(values) if mine.get(k) is not None}


def with_supplied(store, game: str, values: dict) -> tuple[dict, dict]:
    """``(values with the lines the players said laid over, what was laid over)``."""
    extra = supplied(store, game, values)
    if not extra:
        return values, {}
    from companion.core.session import with_frozen

    return with_frozen(values, {"_data": extra}), extra


# -- the shell's question --------------------------------------------------------------------

def ask_lines(app, board: Board, values: dict) -> dict:
    """In the shell: the named lines not said yet, each asked once by its rulebook name and
    kept as the players' value. A typo is answered in one line and the question comes back;
    Ctrl-C stops the command, keeping nothing. Returns {dotted key: value} as kept."""
    from companion.games.kit import show
    from companion.contract.view import Line, message

    game = board.game
    keys = unknown(values)
    names = _(" and ").join(title(game, k) for k in keys)
    said = ngettext("The rulebook counts {names} as single lines, and this count may go through it. "
                    "Which line is it on your board? Type two junctions joined by '-' (`board` shows their "
                    "names), or none.",
                    "The rulebook counts {names} as single lines, and this count may go through them. "
                    "Which lines are they on your board? Type two junctions joined by '-' (`board` shows their "
                    "names), or none.", len(keys))
    show([Line(*message(said, names=names))])
    answers: dict[str, str] = {}
    taken = {e: k for e, k in board.counted_single.items() if k != OTHERS}

    def parse_for(key: str):
        def parse(text: str) -> str:
            if not text:
                raise ValueError(_("Type {title} as two junctions joined by '-', or none.").format(
                                     title=title(game, key)))
            if text.casefold() == NONE:
                return NONE
            edges = board.parse_path(text)
            if len(edges) != 1:
                raise ValueError(_("{text} is {n} lines: {title} is one line, two junctions "
                                   "joined by '-'.").format(text=text, n=len(edges), title=title(game, key)))
            e = edges[0]
            if board.cost[e] == 1:
                raise ValueError(_("{edge_name} is a single line on this board already: name the "
                                   "crossing drawn as a double line, or none.").format(edge_name=board.edge_name(e)))
            if e in taken:
                raise ValueError(_("{edge_name} is {title}: name another line, or none.").format(
                                     edge_name=board.edge_name(e), title=title(game, taken[e])))
            taken[e] = key
            return board.edge_name(e)
        return parse

    for key in keys:
        name = title(game, key)
        answers[key] = app.ask_until(_("{line} (JUNCTION-JUNCTION or none): ").format(
            line=name[0].upper() + name[1:]), parse_for(key))
    kept = {f"{KEY}.{k}": v for k, v in answers.items()}
    with app.store.writing():
        for k, v in kept.items():
            app.store.set_user_value(game, k, v)
    show([Line(*message(_("Kept: {lines} (`{command}`; `data set` changes it)."),
                        lines="; ".join(f"{title(game, k)}: {v}" for k, v in answers.items()),
                        command=f"data show {game} {KEY}"))])
    return kept
