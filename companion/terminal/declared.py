"""Commands made from a game's declarations: each Move and Screen becomes one Click command.

A game declares its moves once (``companion.contract.declare``); here each becomes the command
`companion NAME ...` and `NAME ...` in the shell (the same object), with its help, its
arguments and options read by their kinds, the shell's question for a parameter left out
(asked again until it fits; a private one on the owner's private screen), its completion, and
what it says once recorded, drawn by the renderer. The root group finds a game's commands
here (:func:`commands_of`) and refuses one used on a session of another game.
"""

from __future__ import annotations

from companion.contract.language import N_, _, ngettext  # noqa: F401

import weakref
from typing import Any, Callable, Iterable

import click

from companion.core.app import App
from companion.contract.errors import CompanionError, Malformed, MissingValue, RuleError
from companion.contract import reader
from companion.contract.declare import At, Flag, Move, Param, Screen, record_move

_built: dict[str, dict[str, click.Command]] = {}
# What each command made here is, kept by command rather than hung on the Click objects (issue
# 27): the declaration it runs, and whose it is (moves module, its name, the game a refusal names).
_declared: "weakref.WeakKeyDictionary[click.Command, Move | Screen]" = weakref.WeakKeyDictionary()
_whose: "weakref.WeakKeyDictionary[click.Command, tuple[str, str, str]]" = weakref.WeakKeyDictionary()


def declaration(cmd: click.Command | None) -> Move | Screen | None:
    """The Move or Screen a command was made from (None: a hand-written or shared command)."""
    return _declared.get(cmd) if cmd is not None else None


def whose(cmd: click.Command | None) -> tuple[str, str, str] | None:
    """(moves module, command name, owner game id) of a game's command; None for the commands
    every session shares."""
    return _whose.get(cmd) if cmd is not None else None


def commands_of(game_id: str) -> dict[str, click.Command]:
    """Top-level command name -> Click command of game ``game_id``: its moves (a name of two
    words, `round start`, becomes a group), its screens and its hand-written commands. Made
    once per moves module (Trans Europa and Trans Amerika share theirs)."""
    from companion.core import registry

    found = registry.parts(game_id)
    module = found.moves
    key = module.__name__
    if key in _built:
        return _built[key]
    groups: dict[str, dict[str, Any]] = {}
    out: dict[str, click.Command] = {}
    for decl in [*(found.get("MOVES") or []), *(found.get("SCREENS") or [])]:
        first, _space, rest = decl.name.partition(" ")
        if rest:
            groups.setdefault(first, {})[rest] = decl
        else:
            out[first] = make_command(decl)
    helps = found.get("GROUPS") or {}
    for name, subs in groups.items():
        group = GameGroup(name, help=helps.get(name, ""), commands={sub: make_command(d, sub) for sub, d in subs.items()})
        out[name] = group
    for name, cmd in (found.get("COMMANDS") or {}).items():
        out[name] = cmd
    # the owner a refusal names: the first game the module declares (Trans Europa, then Trans
    # Amerika), whichever of them asked first in this process
    owner = next(iter(found.get("NEW") or {}), game_id)
    for name, cmd in out.items():
        mark(cmd, key, name, owner)
    _built[key] = out
    return out


def mark(cmd: click.Command, module: str, name: str, owner: str) -> None:
    """Remember whose command this is: the root group refuses it on a session of another game."""
    _whose[cmd] = (module, name, owner)
    if isinstance(cmd, click.Group):
        for sub_name, sub in cmd.commands.items():
            mark(sub, module, f"{name} {sub_name}", owner)


class GameGroup(click.Group):
    """A group of a game's commands (`round start`, `round end`)."""


class DeclaredArgument(click.Argument):
    """An argument that may be left out (the shell asks for it), shown in the usage as the
    declaration says: ``NAME``, not Click's ``[NAME]``."""

    def __init__(self, *args, shown: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.shown = shown

    def make_metavar(self, ctx=None) -> str:  # noqa: D401 - Click's signature (ctx since 8.2)
        return self.shown


def login_shell_complete(decl: Move | Screen, p) -> Callable:
    """The login shell's Tab for a declared parameter (Click's protocol): what the shell's own
    completion offers, from the table's view of the session at hand (never a private card)."""

    def complete(ctx: click.Context, param: click.Parameter, incomplete: str) -> list:
        from click.shell_completion import CompletionItem

        if p.private:
            return []
        try:
            from companion.games.kit import completion_store

            store = completion_store(ctx)
            app = App(store.root)
            s, replay = app.loaded()
            at = At(s, replay, None, host=app)
            at.current = incomplete
            found = p.kind.options(at, p) or []
        except Exception:  # noqa: BLE001 - completion never fails
            return []
        low = incomplete.casefold()
        return [CompletionItem(v, help=note or None) for v, note in found if str(v).casefold().startswith(low)]

    return complete


def _click_params(decl: Move | Screen) -> list[click.Parameter]:
    params: list[click.Parameter] = []
    for p in decl.params:
        if p.option:
            if isinstance(p.kind, Flag):
                params.append(click.Option([*p.flags, p.name], is_flag=True, help=p.help))
            else:
                # every value given is kept (not only the last): the reader refuses several for one
                params.append(click.Option([*p.flags, p.name], metavar=p.metavar, multiple=True,
                                           help=p.help, type=str,  # read by the one reader, not by Click
                                           shell_complete=login_shell_complete(decl, p)))
        else:
            many = p.many or p.kind.joins
            shown = f"{p.metavar}..." if p.many else p.metavar
            if not p.required:
                shown = f"[{shown}]"
            params.append(DeclaredArgument([p.name], nargs=-1 if many else 1, required=False, shown=shown,
                                           type=str,  # read by the one reader, not by Click
                                           shell_complete=login_shell_complete(decl, p)))
    if isinstance(decl, Screen) and decl.json is not None:
        from companion.games.kit import english_for_json

        params.append(click.Option(["--json", "as_json"], is_flag=True, help=N_("Print JSON (a stable format for scripts)."),
                                   callback=english_for_json))
    from companion.games.kit import SESSION_HELP

    from companion.games.kit import completes

    params.append(click.Option(["--session"], metavar="ID", expose_value=False, help=SESSION_HELP,
                               shell_complete=completes("sessions")))
    return params


def make_command(decl: Move | Screen, name: str | None = None) -> click.Command:
    name = name or decl.name

    def callback(**raw):
        app = click.get_current_context().find_object(App)
        if isinstance(decl, Screen):
            return run_screen(app, decl, raw)
        return run_move(app, decl, raw)

    signed = any(p.kind.signed for p in decl.params if not p.option)
    cmd = click.Command(name, callback=callback, params=_click_params(decl), help=decl.help,
                        hidden=decl.hidden,  # Click cuts the short help to fit a listing, as for any command
                        context_settings={"ignore_unknown_options": True} if signed else None)
    _declared[cmd] = decl
    return cmd


# -- running a declaration -------------------------------------------------------------------------

def at_hand(app: App, viewer: str | None = None) -> At:
    """The session the command targets, as a declaration sees it (refused when it is another
    game's: see App.expects)."""
    s = app.session()
    _s, replay = app.loaded(s.id)
    return At(s, replay, viewer, host=app)


def read_args(app: App, decl: Move | Screen, raw: dict, at: At) -> None:
    """The command line's values read into ``at.args`` by the one reader
    (:func:`companion.contract.reader.read_move`: the words of the line); a parameter left out
    is asked for in the shell (again until it fits), else refused as Click refuses a missing one."""
    ctx = click.get_current_context()
    given: dict[str, list[str]] = {}
    for p in decl.params:
        value = raw.get(p.name)
        if isinstance(p.kind, Flag):
            given[p.name] = ["yes"] if value else []
        else:
            given[p.name] = [str(w) for w in (value if isinstance(value, (tuple, list)) else
                                               [] if value is None else [value])]

    def missing(p: Param) -> Any:
        if p.ask and at.can_ask():
            return ask_for(app, decl, p, at)
        if p.missing:
            raise click.UsageError(_(p.missing), ctx=ctx)
        click_param = next(cp for cp in ctx.command.params if cp.name == p.name)
        raise click.MissingParameter(ctx=ctx, param=click_param)

    try:
        reader.read_move(decl, at, given, words=True, missing=missing)
    except Malformed as exc:  # not readable: a usage error naming this command's help
        raise click.UsageError(exc.message, ctx=ctx) from None


def ask_for(app: App, decl: Move, p: Param, at: At) -> Any:
    """The shell's question for a parameter left out; a private one is asked on the private
    screen of the move's actor, with what they may see while choosing."""

    def parse(text: str) -> Any:
        return reader.answer(p, text, at)

    question = p.kind.question(p, at)
    if p.private:
        owner = at.args.get(decl.actor or "")
        if app.choose_private is None or not owner:
            raise click.UsageError(_("Name the {label}: {usage} (in the shell, on a terminal, the {label} is chosen on "
                                     "the private screen).").format(label=_(p.label), usage=usage(decl)))
        from companion.terminal.render import draw

        from companion.contract.exit import Exit

        mine = Exit(at.session, at.replay, owner).at(host=app, args=at.args)  # the owner's view only
        seen = decl.private_view(mine, owner) if decl.private_view is not None else []
        return app.choose_private(owner, draw(seen), question, parse)
    return app.ask_until(question, parse)


def asking_values(app: App, work):
    """``work()``, and in the shell a printed value it needs that nobody knows is asked for at
    that moment (and kept), then ``work()`` goes on; skipped, or outside the shell, the refusal
    stands (it names `data set` and `data setup`)."""
    asked: set = set()
    while True:
        try:
            return work()
        except MissingValue as missing:
            key = (missing.game, missing.key)
            if app.ask_value is None or key in asked or not app.ask_value(*key):
                raise
            asked.add(key)


def run_move(app: App, move: Move, raw: dict) -> None:
    at = at_hand(app)
    read_args(app, move, raw, at)
    if move.prepare is not None:
        preview = asking_values(app, lambda: move.prepare(at))
        if preview is not None:
            show(app, preview)  # a preview (`loan --preview`): shown, nothing recorded
            return
    args = at.args
    try:
        outcome = asking_values(app, lambda: record_move(app, move, args))
    except RuleError as exc:
        secret = [str(v) for p in move.params if p.private for v in _values(args.get(p.name))]
        if app.interactive and any(v.strip() and v.strip().casefold() in exc.message.casefold() for v in secret):
            again = usage(move, {move.actor: args.get(move.actor)} if move.actor else {}, private=False)
            raise CompanionError(_("That choice was refused and nothing was recorded. Type `{line}` to choose "
                                   "on the private screen, where the reason is shown.").format(line=again)) from None
        raise
    if move.done is not None:  # said on the shared screen: made from the table's view (Outcome)
        show(app, move.done(outcome))
    else:
        from companion.contract.exit import Exit

        words = Exit(outcome.recorded.session, outcome.recorded.replay).words(outcome.event)
        show(app, [_line(_("Recorded: {words}.").format(words=words))])


def _values(value: Any) -> list:
    return value if isinstance(value, list) else [] if value is None else [value]


def _line(text: str):
    from companion.contract.view import Line

    return Line(text)


def run_screen(app: App, screen: Screen, raw: dict) -> None:
    as_json = raw.pop("as_json", False)
    read = at_hand(app)
    read_args(app, screen, raw, read)
    from companion.contract.exit import Exit

    at = Exit(read.session, read.replay).at(host=app, args=read.args)  # a screen is the table's
    if as_json:
        from companion.games.kit import echo_json

        echo_json(asking_values(app, lambda: screen.json(at)))
        return
    show(app, asking_values(app, lambda: screen.view(at)))


def show(app: App, view: list) -> None:
    """Print a view on the shared screen; its private blocks on the private screen of their
    owner when there is one (the shell, a terminal), else plainly (a pipe, `--print`)."""
    from companion.terminal import render

    render.show(view, private=app.show_private)


def usage(decl: Move | Screen, given: dict | None = None, private: bool = True) -> str:
    """The command line of a declaration, with the values given and the rest as metavars:
    `pass Ann CITY` (``private`` False: without the private ones, which the shell asks for on
    the private screen: `pass Ann`)."""
    given = given or {}
    words = [decl.name]
    for p in decl.params:
        if p.name in given and given[p.name] is not None:
            words.append(str(given[p.name]))
        elif p.required and not p.option and (private or not p.private):
            words.append(p.metavar)
    return " ".join(words)


# -- completion and privacy in the shell -----------------------------------------------------------

class Typed:
    """What a half-typed line gives each parameter of a declaration (the command's name left
    out): the words of each (``found``), the positional parameters in the order they were
    filled, and an option waiting for its value (``pending``). The one reading of a typed line
    for completion and for the shell's history."""

    def __init__(self, decl: Move | Screen, words: list[str]):
        positional = [p for p in decl.params if not p.option]
        flags = {f: p for p in decl.params if p.option for f in p.flags}
        self.found: dict[str, list[str]] = {}
        self.filled: list[Param] = []
        self.pending: Param | None = None
        index = 0
        for w in words:
            if self.pending is not None:
                self.found.setdefault(self.pending.name, []).append(w)
                self.pending = None
                continue
            if w.startswith("--"):
                opt = flags.get(w.split("=", 1)[0])
                if opt is not None:
                    if isinstance(opt.kind, Flag):
                        self.found.setdefault(opt.name, [])
                    elif "=" in w:
                        self.found.setdefault(opt.name, []).append(w.split("=", 1)[1])
                    else:
                        self.pending = opt
                continue
            if index < len(positional):
                p = positional[index]
                self.found.setdefault(p.name, []).append(w)
                if not self.filled or self.filled[-1] is not p:
                    self.filled.append(p)
                if not (p.many or p.kind.joins):
                    index += 1
        self.next = positional[index] if index < len(positional) else None

    def at(self) -> tuple[Param | None, list[str]]:
        """The parameter the next word fills, and the words already given to it."""
        if self.pending is not None:
            return self.pending, []
        last = self.filled[-1] if self.filled else None
        if last is not None and (last.many or last.kind.joins):  # it takes the rest of the line
            return last, self.found[last.name]
        return self.next, []


def param_at(decl: Move | Screen, words: list[str]) -> tuple[Param | None, list[str]]:
    """Which parameter the next word fills, after ``words`` (the command's own words, its name
    left out), and the words already given to it."""
    return Typed(decl, words).at()


def given_before(decl: Move | Screen, words: list[str], param: Param, at: At) -> dict:
    """The values of the parameters already typed (``words``, the command's name left out),
    read by their kinds, so an offer may depend on them (the builder's network for `build NAME
    PATH`; the cards named already for `--special`; whose sheet for Yacht's box). A word that
    does not read is left out; the parameter being completed gets the values given to it
    before only when it is an option given again."""
    found = Typed(decl, words).found
    out: dict = {}
    for p in decl.params:
        given = found.get(p.name)
        if not given or p.private or (p is param and not (p.option and p.many)):
            continue
        try:
            out[p.name] = reader.read_param(p, [w for w in given if w.strip()], at, words=True)
        except Exception:  # noqa: BLE001 - a half-typed line: offer what can be offered
            continue
    return out


def complete(app: App, session, replay, cmd: click.Command, words: list[str], current: str) -> list[tuple[str, str]] | None:
    """What the shell offers for the word being typed in a declared command: the options of
    the parameter it fills, from the table's view of the state (never a private card). None
    when the command is not declared (the shell offers its general words)."""
    decl = declaration(cmd)
    if decl is None:
        return None
    param, so_far = param_at(decl, words)
    if param is None or param.private:
        return []
    at = At(session, replay, None, given_before(decl, words, param, At(session, replay, None, host=app)), host=app)
    at.current, at.typed = current, so_far
    try:
        found = param.kind.options(at, param)
    except CompanionError:
        return []
    return [] if found is None else list(found)


def names_private(cmd: click.Command, words: list[str]) -> bool:
    """Whether a typed line (the command's own words after its name) names a private card: a
    private parameter given a value, or a hand-written command's private option."""
    decl = declaration(cmd)
    if decl is not None:
        found = Typed(decl, words).found
        return any(p.private and found.get(p.name) for p in decl.params)
    from companion.games.kit import private_check

    check = private_check(cmd)
    return bool(check(words)) if check is not None else False


def describe(game_id: str) -> list[tuple[str, str]]:
    """(usage, help) of every command of a game, for the docs and their test."""
    out = []
    for name, cmd in sorted(commands_of(game_id).items()):
        subs: Iterable = cmd.commands.items() if isinstance(cmd, click.Group) else [(None, cmd)]
        for sub, c in subs:
            with click.Context(c, info_name=f"{name} {sub}" if sub else name) as ctx:
                pieces = c.collect_usage_pieces(ctx)
            out.append((" ".join([name] + ([sub] if sub else []) + pieces), c.get_short_help_str(200)))
    return out
