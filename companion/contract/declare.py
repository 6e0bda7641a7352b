"""Moves and screens declared once: what a game can do, said as data.

A :class:`Move` is a recorded action: its name, its parameters with their kinds, the event it
records, who makes it and when, whether it is private, and what is said once it is recorded. A
:class:`Screen` is a read-only command that draws a view. From that one declaration the
terminal makes the Click command (one-off and in the shell), the shell's question for a missing
parameter, asked again until it fits, and the completion of each parameter; the web makes the
move's form on a player's phone; the docs list the commands; and the conformance test checks
every one (``tests/test_game_contract.py``).

A :class:`Kind` says what a parameter's value is: how it is read from what was typed, what may
go there now (from the table's view of the state only: never a private card), and how it is
asked for. The kinds here serve every game (players, numbers, words, choices, ``NAME=N``
pairs); a game adds its own (a junction, a ship) by subclassing :class:`Kind`.

Nothing here imports Click or the terminal: the declarations are plain data, and a game's
moves module stays importable by a test without either.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence

from companion.contract.language import _
from companion.contract.errors import CompanionError, Malformed, game_over
from companion.contract.exit import Exit, secret_keys


class At:
    """What a kind, a move's event, a rule's check or a view sees of a session. Its members:

    - ``session``, ``replay``, ``game``, ``players``, ``seat(name)``, ``data`` (the printed
      values), ``viewer`` (a player's name, or None for the table), ``args`` (the arguments
      read so far), ``host`` (the terminal's App, to ask and to reach the data folder; None on
      a page), ``can_ask``, ``ask_until``, ``tell``;
    - ``state``: the game's ``view(state, viewer)``, what the viewer may see;
    - ``status``: `status --json` for the viewer: the game's ``summary`` of that viewed state;
    - ``full``: the whole state. Only an event builder (under the write lock), ``allowed``,
      ``why_not`` and a kind's ``read`` may use it; a kind's ``options`` uses ``state``.

    ``state`` and ``status`` come from :mod:`companion.contract.exit`, the one exit. A view (and
    a move's ``done``) is never given this ``At`` but the one the exit makes
    (:class:`companion.contract.exit.SeenAt`), whose ``full``, ``replay`` and ``session`` hold
    only what its viewer may see."""

    def __init__(self, session: Any = None, replay: Any = None, viewer: str | None = None, args: dict | None = None,
                 host: Any = None):
        self.session, self.replay, self.viewer = session, replay, viewer
        self.args = dict(args or {})
        self.host = host  # the terminal's App (asking, the data folder), or None on a page
        self._exit: Exit | None = None

    @property
    def exit(self) -> Exit:
        """What this At's viewer may see (made once)."""
        if self._exit is None:
            self._exit = Exit(self.session, self.replay, self.viewer)
        return self._exit

    @property
    def game(self):
        return self.session.game

    @property
    def full(self) -> dict:
        return self.replay.state

    @property
    def state(self) -> dict:
        return self.exit.state

    @property
    def data(self) -> dict:
        return self.replay.data

    @property
    def players(self) -> list[str]:
        return list(self.session.players)

    @property
    def status(self) -> dict:
        """`status --json` of the session for the viewer: the framework's keys and the game's
        summary of the viewed state."""
        return self.exit.status

    def seat(self, player: str) -> int:
        return self.players.index(player)

    # -- asking (the terminal's App, when someone can answer) -------------------------------------
    def can_ask(self) -> bool:
        return bool(self.host is not None and self.host.can_ask())

    def ask_until(self, question: str, parse: Callable[[str], Any], default: str = "", optional: bool = False) -> Any:
        """Ask until ``parse`` accepts the answer; ``optional``: Enter skips it (and a command
        typed there skips it too, running after)."""
        if not self.can_ask():
            raise CompanionError(_("Nobody can be asked here: give the value on the command line."))
        if optional:
            return self.host.ask_until(question, parse, default, optional=True)
        return self.host.ask_until(question, parse, default)

    def tell(self, view: list) -> None:
        """Show a view at once (before the move is recorded), e.g. a question's context."""
        if self.host is not None and getattr(self.host, "tell", None) is not None:
            self.host.tell(view)


class Kind:
    """What a parameter's value is. Subclasses override what they need:

    - ``read(text, at, param)``: the value of what was typed, or CompanionError saying in one
      line what is wrong and what to type;
    - ``options(at, param)``: ``[(value, note)]`` that may go here now, from ``at.state`` (the
      table's view): completion, the phone's buttons, the question's hint; None: free text;
    - ``question(param, at)``: what the shell asks when the parameter is left out.
    """

    metavar = "VALUE"
    joins = False  # several typed words make one value ("San Diego" typed without quotes)
    number = False  # a page asks for it with a number field
    signed = False  # a typed value may start with a dash (`vp Ann -2`): an argument, not an option

    def read(self, text: str, at: At, param: "Param") -> Any:
        text = text.strip()
        if not text:
            raise CompanionError(_("Give {label}.").format(label=param.label))
        return text

    def read_words(self, words: list[str], at: At, param: "Param") -> Any:
        """The value of several typed words (a kind that ``joins``): by default they are one
        text, as typed with spaces between."""
        return self.read(" ".join(words), at, param)

    def options(self, at: At, param: "Param") -> list[tuple[str, str]] | None:
        return None

    def question(self, param: "Param", at: At) -> str:
        choices = self.options(at, param) if at.session is not None else None
        hint = f" ({', '.join(v for v, _ in choices[:8])}{', ...' if len(choices) > 8 else ''})" if choices else ""
        return f"{param.label[:1].upper()}{param.label[1:]}{hint}: "

    # -- on a page (companion.web): the same kind, asked for on a phone ---------------------------
    most: int | None = None  # a parameter taking several values: a page draws this many to choose at once

    def limit(self, at: At, param: "Param") -> int | None:
        """How many values a page draws to choose at once for a parameter taking several, now
        (1: one, a button each; None: any). How many the move takes is the rules' to say, on
        every surface alike (companion.contract.reader)."""
        return self.most

    def offered(self, at: At, param: "Param") -> list[tuple[str, str]] | None:
        """What a player's page offers here now ([(value, note)]: its buttons or its list, the
        note beside each, a price or a cost); None: a field to fill. By default the options; a
        kind whose completion follows what is typed (a path after `Madrid-`) offers every whole
        value instead."""
        return self.options(at, param)

    def fields(self, at: At, param: "Param") -> list[tuple[str, str]] | None:
        """Several number fields a page asks for in place of one ([(key, label)]: a round's
        points per player, a sheet's VPs per flag), posted as ``NAME.key``; None: one field."""
        return None

    def from_fields(self, values: dict[str, str], at: At, param: "Param") -> Any:
        """The value of the fields :meth:`fields` named, as posted (blank ones left out)."""
        return self.read_words([f"{k}={v.strip()}" for k, v in values.items() if v.strip()], at, param)

    def tap(self, at: At, param: "Param", offered: list[tuple[str, str]]) -> Any:
        """A drawing a page lets its player tap to choose the value (companion.contract.view.Tap:
        the board, with the values ``offered`` drawn as what may be tapped), or None."""
        return None


class Player(Kind):
    """A seated player: read case-insensitively (and by a name `player rename` gave the seat),
    recorded as seated."""

    metavar = "NAME"

    def __init__(self, who: Callable[[At], Iterable[str]] | None = None):
        self.who = who  # the players who may be named here now (default: every player)

    def read(self, text: str, at: At, param: "Param") -> Any:
        from companion.contract.api import player_name

        name = text.strip()
        if not name:
            raise CompanionError(_("Give {label}: one of {players}.").format(label=param.label, players=', '.join(at.players)))
        return player_name(at.players, name)

    def options(self, at: At, param: "Param") -> list[tuple[str, str]] | None:
        names = list(self.who(at)) if self.who else at.players
        return [(p, "") for p in names]


class Number(Kind):
    """A whole number between ``low`` and ``high`` (either may be None)."""

    metavar = "N"
    number = True

    def __init__(self, low: int | None = None, high: int | Callable[[At], int | None] | None = None,
                 what: str = "a whole number", decimals: bool = False):
        self.low, self.high, self.what = low, high, what
        self.decimals = decimals  # 2.5 too (a score sheet's points, issue 23)
        if decimals:
            self.number = False  # typed as text: Click's whole-number type would refuse 2.5

    def bounds(self, at: At) -> tuple[int | None, int | None]:
        high = self.high(at) if callable(self.high) else self.high
        return self.low, high

    def read(self, text: str, at: At, param: "Param") -> Any:
        low, high = self.bounds(at)
        if isinstance(text, int) and not isinstance(text, bool):  # a value read already (a test's, a kind's)
            value, text = text, str(text)
        else:  # typed, answered or posted alike (companion.contract.reader)
            from companion.contract.numbers import parse_points

            text = str(text).strip()
            value = parse_points(text, self.decimals)  # a numeral of over 40 digits: beyond any game
        if value is None or (low is not None and value < low) or (high is not None and value > high):
            span = (f" from {low} to {high}" if low is not None and high is not None
                    else f" of {low} or more" if low is not None else f" up to {high}" if high is not None else "")
            said = f"{text!r} is not" if text else "Type"
            error = Malformed if value is None else CompanionError
            raise error(f"{said} {param.label}: {self.what}{span}.")
        return value


class Text(Kind):
    """Free words (a note, a reason): several typed words make one text."""

    metavar = "TEXT"
    joins = True

    def __init__(self, longest: int = 500):
        self.longest = longest

    def read(self, text: str, at: At, param: "Param") -> Any:
        text = text.strip()
        if len(text) > self.longest or not text.isprintable():
            raise CompanionError(_("{label}{label2} is one line of at most {longest} characters.").format(label=param.label[:1].upper(), label2=param.label[1:], longest=self.longest))
        return super().read(text, at, param)


class OneOf(Kind):
    """One of a list of values: fixed, or what ``values(at)`` gives from the table's view.

    What may go there now is offered (completion, a phone's buttons); what is typed is written
    as offered (`Full-House` as `full-house`). Only a ``strict`` kind refuses anything else
    itself: otherwise the rules judge it, in their own words ("There is no box 'sevens'")."""

    def __init__(self, values: Sequence[str] | Callable[[At], Iterable[str | tuple[str, str]]],
                 metavar: str = "CHOICE", fold: bool = True, what: str = "", strict: bool = False):
        self.values, self.metavar, self.fold, self.what, self.strict = values, metavar, fold, what, strict

    def options(self, at: At, param: "Param") -> list[tuple[str, str]] | None:
        found = self.values(at) if callable(self.values) else self.values
        return [v if isinstance(v, tuple) else (v, "") for v in found]

    def read(self, text: str, at: At, param: "Param") -> Any:
        text = text.strip()
        choices = [v for v, _ in (self.options(at, param) or [])]
        for value in choices:
            if value == text or (self.fold and value.casefold() == text.casefold()):
                return value
        if not self.strict and text:
            return text.casefold() if self.fold and not callable(self.values) else text
        what = self.what or param.label
        listed = ", ".join(choices) or _("(none now)")
        if text:
            raise CompanionError(_("{text} is not {what}: one of {choices}.").format(text=repr(text), what=what,
                                                                                   choices=listed))
        raise CompanionError(_("Give {what}: one of {choices}.").format(what=what, choices=listed))


class Numbers(Kind):
    """Whole numbers typed with commas (`3,3,3,5,5`): ``count`` of them (None: any), each from
    ``low`` to ``high``."""

    metavar = "N,N,..."

    def __init__(self, count: int | None = None, low: int | None = None, high: int | None = None,
                 example: str = "1,2,3", what: str = "numbers"):
        self.count, self.low, self.high, self.example, self.what = count, low, high, example, what

    def read(self, text: str, at: At, param: "Param") -> Any:
        try:
            values = [int(v) for v in str(text).replace(" ", "").strip("[]").split(",")]
        except ValueError:
            values = []
        if (not values or (self.count is not None and len(values) != self.count)
                or any((self.low is not None and v < self.low) or (self.high is not None and v > self.high)
                       for v in values)):
            raise Malformed(_("{text} is not {what}: write them like {example}").format(text=repr(text), what=self.what, example=self.example))
        return values


class Pairs(Kind):
    """``NAME=N`` pairs (a round's scores): {player: number}, each player once."""

    metavar = "NAME=N"
    joins = True  # `Ann=12 Bob=7`: the words are read together

    def __init__(self, value: str = "N", players: bool = True, note: str = "points", decimals: bool = False):
        self.value_word, self.players, self.note = value, players, note
        self.decimals = decimals  # 2.5 and -0.5 as well as whole numbers (a score sheet, issue 23)
        self.metavar = f"NAME={value}"

    def read(self, text: str, at: At, param: "Param") -> Any:
        """An answer typed in the shell: pairs split as a shell splits words (a name with a
        space in quotes)."""
        import shlex

        try:
            words = shlex.split(text)
        except ValueError:
            words = text.split()
        if not words:
            raise CompanionError(_("Give {label}.").format(label=param.label))
        return self.read_words(words, at, param)

    def read_words(self, words: list[str], at: At, param: "Param") -> Any:
        out: dict[str, int] = {}
        for item in words:
            name, sep, number = item.partition("=")
            if not sep or not name.strip():
                raise Malformed(_("{item} is not NAME={value_word}: write it like Ann=12").format(item=repr(item), value_word=self.value_word))
            from companion.contract.numbers import parse_points

            value = parse_points(number, self.decimals)
            if value is None:
                said = (_("{item}: {number} is not a number; write it like {name}=2.5") if self.decimals else
                        _("{item}: {number} is not a whole number; write it like {name}=12"))
                raise Malformed(said.format(item=repr(item), number=repr(number), name=name))

            key = name.strip()
            if self.players:
                from companion.contract.api import seated_name

                key = seated_name(at.players, key)
            if key in out:
                raise CompanionError(_("{key} is given twice: give each player once.").format(key=key))
            out[key] = value
        return out

    def fields(self, at: At, param: "Param") -> list[tuple[str, str]] | None:
        """On a page: a number field per player."""
        return [(p, p) for p in at.players] if self.players else None

    def options(self, at: At, param: "Param") -> list[tuple[str, str]] | None:
        """``NAME=`` for every player not yet given on the line."""
        if not self.players:
            return None
        given = {w.partition("=")[0].casefold() for w in getattr(at, "typed", ())}
        return [(f"{p}=", self.note) for p in at.players if p.casefold() not in given]

    note = "points"


class Flag(Kind):
    """An option that is there or not (``--rails-out``)."""

    metavar = ""


class Param:
    """One parameter of a move or a screen.

    ``name`` is its key in the arguments the event builder gets; an argument unless ``option``
    (then ``--name-with-dashes``, or ``flags``). ``many``: several values (an argument taking
    the rest of the line, or an option given again); ``private``: the value is secret (a city
    of a hand): it is asked on the owner's private screen, never offered, never kept in the
    shell's history, and a refusal naming it says nothing of it. ``private=True`` keeps it
    from everyone but its player until the game is over; ``private=rule``, a function
    ``(state, event) -> bool``, keeps it while the rule says it is still secret (a bid, until
    everyone has bid): companion.contract.exit applies it on every surface. ``page``: asked
    on a player's page (False: a page leaves it at its default, an option of the laptop's
    only)."""

    def __init__(self, name: str, kind: Kind | None = None, help: str = "", *, option: bool = False,
                 flags: Sequence[str] = (), required: bool = True, many: bool = False, default: Any = None,
                 metavar: str | None = None, private: bool | Callable[[dict, dict], bool] = False,
                 ask: bool = True, label: str | None = None, missing: str | None = None, page: bool = True):
        self.name, self.kind, self.help = name, kind or Kind(), help
        self.option = option or bool(flags) or isinstance(self.kind, Flag)
        self.flags = tuple(flags) or ((f"--{name.replace('_', '-')}",) if self.option else ())
        self.required = required and not isinstance(self.kind, Flag)
        self.many, self.default, self.private, self.ask = many, default, private, ask
        self.metavar = metavar if metavar is not None else self.kind.metavar
        self.label = label or name.replace("_", " ")
        self.missing = missing  # what a command line without it is told (else Click's own words)
        self.page = page

    def __repr__(self) -> str:
        return f"Param({self.name!r})"


class Outcome:
    """What a recorded move did, as the table may see it (its ``done`` line is printed on the
    shared screen, right after a private prompt): ``at``, ``session``, ``replay``, ``state`` and
    ``status`` are the table's (the exit's); ``event`` and ``args`` come without what is still
    secret; ``before`` is what the move's ``before`` kept of the whole state before it.
    ``recorded`` is the rules' own ``At`` after the move, for the framework (a move that follows
    by itself), never for a view."""

    def __init__(self, at: At, event: dict, before: dict, move: "Move | None" = None):
        hidden = secret_keys(move, at.replay.state, event, None, at.replay.finished) if move is not None else []
        self.event = {k: v for k, v in event.items() if k not in hidden}
        self.before, self.recorded = before, at
        self.at = Exit(at.session, at.replay, None).at(at.host, {k: v for k, v in at.args.items() if k not in hidden})

    @property
    def session(self):
        return self.at.session

    @property
    def replay(self):
        return self.at.replay

    @property
    def state(self) -> dict:
        return self.at.state

    @property
    def status(self) -> dict:
        return self.at.status

    @property
    def args(self) -> dict:
        return self.at.args


class Move:
    """A recorded action, declared once.

    - ``event(at) -> event``: built under the session's write lock from the freshest state,
      with ``at.args`` read; the rules check it;
    - ``actor``: the parameter naming who makes it (a phone fills it with its own player);
      None when the table makes it;
    - ``allowed(at, player) -> bool``: whether ``player`` may make it now (a phone offers only
      those); None: whenever it is the player's turn, or always when the game names no turn;
    - ``prepare(at)``: in the terminal, before anything is locked: may ask for what the move
      needs (a new ship card) and fill ``at.args``; a view it returns is shown instead and
      nothing is recorded (a preview);
    - ``before(state) -> dict``: what ``done`` needs of the state before the move;
    - ``done(outcome) -> View``: what is said once it is recorded;
    - ``private_view(at, player) -> View``: what ``player`` sees on the private screen while
      choosing a private parameter (their hand);
    - ``phone``: offered on the players' phones (True, or the title of its form on a page);
      a move the table makes (no ``actor``) is offered on the pages ``allowed`` names;
      ``help``: its first line is the short help;
    - ``why_not(at, player) -> str``: what a page says when ``player`` may not make it now
      (default: whose turn it is);
    - ``then``: ``(Move, args(outcome) -> dict | None)``: the move a page records right after
      this one when ``args`` gives its arguments (a round the board ended scores itself); a
      player taking their move back takes that one back with it;
    - ``verb``: the label of its button on a page;
    - ``more``: a page offers it under "More" (a move rarely made: a ship scrapped, points
      scored during play), below the moves of the turn;
    - ``records``: the type of the event it records (default: its name, dashes for spaces):
      `log --json` hides that event's private parameters while the game is on.
    """

    def __init__(self, name: str, params: Sequence[Param], event: Callable[[At], dict], *, help: str,
                 actor: str | None = "player", allowed: Callable[[At, str], bool] | None = None,
                 prepare: Callable[[At], None] | None = None, before: Callable[[dict], dict] | None = None,
                 done: Callable[[Outcome], list] | None = None, private_view: Callable[[At, str], list] | None = None,
                 phone: bool | str = False, hidden: bool = False, examples: Sequence[str] = (),
                 records: str | None = None, why_not: Callable[[At, str], str] | None = None,
                 then: tuple | None = None, verb: str = "Record", more: bool = False):
        self.name, self.params, self.event, self.help = name, tuple(params), event, help
        self.records = records or name.replace(" ", "-")  # the type of the event it records
        self.actor, self.allowed, self.prepare, self.before = actor, allowed, prepare, before
        self.done, self.private_view, self.phone, self.hidden = done, private_view, phone, hidden
        self.examples = tuple(examples)
        self.why_not, self.then, self.verb, self.more = why_not, then, verb, more

    @property
    def private(self) -> bool:
        return any(p.private for p in self.params)

    def param(self, name: str) -> Param:
        return next(p for p in self.params if p.name == name)

    def __repr__(self) -> str:
        return f"Move({self.name!r})"


class Screen:
    """A read-only command drawing a view: ``view(at) -> View``; with ``json(at) -> value`` it
    takes ``--json`` too (a stable format: keys are added, never renamed)."""

    def __init__(self, name: str, view: Callable[[At], list], *, help: str, params: Sequence[Param] = (),
                 json: Callable[[At], Any] | None = None, hidden: bool = False):
        self.name, self.view, self.help, self.params, self.json = name, view, help, tuple(params), json
        self.hidden = hidden

    private = False
    actor = None

    def __repr__(self) -> str:
        return f"Screen({self.name!r})"


def short_help(text: str) -> str:
    return text.strip().split("\n", 1)[0].strip()


# -- making a move, from any surface ---------------------------------------------------------------

def record_move(host: Any, move: Move, args: dict, check: Callable[[At], None] | None = None) -> Outcome:
    """Record ``move`` with ``args`` (read by their kinds already) through the host's write
    path (``App.record``: the session's lock, the rules, the journal, undo): the one way a
    move is made, typed or tapped. ``check(at)``, when given, runs under the lock on the state
    as it is there, before the event is built, and refuses by raising: a page checks there that
    its player may still make the move (two phones tapping at once: one wins, the other is
    told why)."""
    def build(session, replay):
        at = At(session, replay, None, args, host)
        if check is not None:
            check(at)
        return move.event(at)

    done = host.record(build, before=move.before)
    return Outcome(At(done.session, done.replay, None, args, host), done.event, done.before, move)


def may_make(move: Move, at: At, player: str) -> bool:
    """Whether ``player`` may make ``move`` now, as a phone asks before offering it: the move's
    own rule, else whether the game names ``player`` among those to act (or names nobody). A
    move the table makes (no actor) is offered only where its own rule says so."""
    if at.replay.over:
        return False
    if move.allowed is not None:
        return bool(move.allowed(at, player))
    if move.actor is None:
        return False
    turn = at.game.turn(at.full)
    return not turn or player in turn


def refusal(move: Move, at: At, player: str) -> str | None:
    """Why ``player`` may not make ``move`` now, in one line for their page (None: they may):
    the move's own words, else whose turn it is."""
    if may_make(move, at, player):
        return None
    if at.replay.over:
        return game_over(_("on the laptop"))

    if move.why_not is not None:
        return move.why_not(at, player)
    turn = [p for p in at.game.turn(at.full) if p != player]
    if turn:
        who = ", ".join(turn[:-1]) + " and " + turn[-1] if len(turn) > 1 else turn[0]
        return f"It is {who}'s turn, not {player}'s."
    return f"{player} cannot {move.name} now."


def offers(moves: Iterable[Move], at: At, player: str) -> list[tuple[Move, dict[str, list[tuple[str, str]]]]]:
    """The moves ``player`` may make now on their phone, each with what its page offers for
    each of its parameters other than the actor (``Kind.offered``), from the player's own view
    (``at.viewer`` is the player): a phone shows only these."""
    out = []
    for move in moves:
        if not move.phone or not may_make(move, at, player):
            continue
        out.append((move, offered(move, at, player)))
    return out


def offered(move: Move, at: At, player: str) -> dict[str, list[tuple[str, str]]]:
    """What ``player``'s page offers for each parameter of ``move`` but the actor, now."""
    at.args = {move.actor: player} if move.actor else {}
    choices: dict[str, list[tuple[str, str]]] = {}
    for p in move.params:
        if p.name == move.actor or not p.page:
            continue
        try:
            found = p.kind.offered(at, p)
        except CompanionError:
            found = None
        choices[p.name] = list(found or [])
    return choices


# -- whose moves the journal holds (a page's own moves, taking one back) -------------------------

def actor_of(moves: Iterable[Move], event: dict) -> str | None:
    """The player who made ``event`` (its move's actor), or None for a move of the table."""
    for move in moves:
        if move.records == event.get("type"):
            return event.get(move.actor) if move.actor else None
    return None


def own_moves(moves: Sequence[Move], journal: Iterable[dict], player: str, move: Move | None = None) -> int:
    """How many entries of the journal are ``player``'s moves or an undo or redo of one (for
    ``move`` made by the table, entries of that move by anyone): a page's form is good until
    that count changes (the player moved, or their move was taken back: a form sent twice
    records once, and a move the table undid is not made again by a phone sending its old
    page), whatever anyone else records meanwhile."""
    table = move is not None and move.actor is None
    done: list[dict] = []
    undone: list[dict] = []
    count = 0
    for entry in journal:
        kind = entry.get("kind")
        if kind == "do":
            moved = entry
            done.append(entry)
            undone.clear()
        elif kind == "undo" and done:
            moved = done.pop()
            undone.append(moved)
        elif kind == "redo" and undone:
            moved = undone.pop()
            done.append(moved)
        else:
            continue
        event = moved.get("event") or {}
        if (event.get("type") == move.records) if table else (actor_of(moves, event) == player):
            count += 1
    return count


def last_own(moves: Sequence[Move], events: Sequence[dict], player: str) -> int:
    """How many events at the end of the journal are ``player``'s last move with what followed
    it by itself (its ``then``): what `take back` undoes; 0 when someone else moved since."""
    if not events:
        return 0
    n = 1
    last = events[-1]["event"]
    if actor_of(moves, last) != player and len(events) > 1:
        before = events[-2]["event"]
        made = next((m for m in moves if m.records == before.get("type")), None)
        if (made is not None and made.then is not None and made.then[0].records == last.get("type")
                and actor_of(moves, before) == player):
            return 2
        return 0
    return n if actor_of(moves, last) == player else 0
