"""The interactive shell: the same Click commands, with completion, history and a toolbar.

Like litecli and pgcli, the shell only reads lines and shows things; the commands do the work
(through companion.terminal.script.run_line), so everything the shell can do is tested through Click too.
"""

from __future__ import annotations

from companion.contract.language import N_, _, ngettext  # noqa: F401

import os
import shlex
import threading
from typing import Callable, Iterable

import click
from prompt_toolkit import PromptSession
from prompt_toolkit.completion import Completer, Completion
from prompt_toolkit.history import FileHistory, InMemoryHistory

from companion import __version__
from companion.core.app import App
from companion.contract.text import safe_text
from companion.contract.errors import CompanionError
from companion.terminal.groups import click_message, is_yes
from companion.terminal import keys  # noqa: F401 - one set of default key bindings per process
from companion.terminal.private import PrivateScreen, on_terminal
from companion.terminal.script import STOPPED, RunAgain, RunInstead, run_line, split_line

LEAVE = {"exit", "quit"}
CLEAR = {"clear", "cls"}  # the shell's own: clear the screen, as Ctrl-L does


class SessionView:
    """What the toolbar and completer show of the current session, re-read only when it changed."""

    def __init__(self, app: App):
        self.app = app
        self._key = None
        self._value: tuple[str, list[str]] = ("", [])
        self._loaded = None  # (session, replay) of the last read, for completion
        self._lock = threading.Lock()
        self._warming: threading.Thread | None = None
        self.waiting = False  # True until the first read starts: the toolbar shows a placeholder

    def warm(self, then: Callable[[], None] | None = None) -> threading.Thread:
        """Read the session in the background, so the first prompt shows at once (the first
        read imports the game's rules and replays the session); ``then`` runs after it, e.g.
        to redraw the toolbar."""

        def work():
            self._load()
            if then is not None:
                try:
                    then()
                except Exception:  # noqa: BLE001 - the prompt may be gone already
                    pass

        self._warming = threading.Thread(target=work, name="companion-toolbar", daemon=True)
        self._warming.start()
        self.waiting = False
        return self._warming

    def loaded(self):
        """(session, replay) of the current session, read again only when its file changed."""
        self._load()
        return self._loaded

    def _load(self) -> tuple[str, list[str]]:
        with self._lock:
            return self._read()

    def _read(self) -> tuple[str, list[str]]:
        try:
            sid = self.app.session_id()
            signature = self.app.store.signature(sid)  # the file and its devices' journals (issue 30)
            if signature is None:
                raise FileNotFoundError(sid)
            served = serving(self.app, sid)
            key = (sid, signature, served)  # and whether the phones play it (issue 31)
        except (CompanionError, OSError):
            self._loaded = None
            return _("no session · `new GAME --players A,B` or `use ID`"), []
        if key == self._key:
            return self._value
        try:
            from companion.core import registry

            s, replay = self.app.loaded(sid)  # the session the command read (or wrote): no second read
            from companion.contract.exit import Exit

            status = Exit(s, replay).status  # the shared screen's: the table's summary
            words = list(s.players) + table_words(s, replay)
            ahead = registry.parts(s.meta["game"]).get("next_action")
            text = toolbar_text(status, s.game.lowest_wins(status), str(ahead(status) or "") if ahead else "",
                                [] if replay.over else s.game.turn(replay.state), phones=served)
            self._loaded = (s, replay)
        except Exception:  # noqa: BLE001 - the toolbar must never break the shell
            text, words = _("session {id}").format(id=sid), []
            self._loaded = None
        self._key, self._value = key, (text, sorted(set(words), key=str.casefold))
        return self._value

    def toolbar(self) -> str:
        if self.waiting or (self._warming is not None and self._warming.is_alive()):  # never wait here
            text = self._value[0] or (_("session {id} · reading…").format(id=self.app.pinned) if self.app.pinned else "")
        else:
            text = self._load()[0]
        try:
            from prompt_toolkit.application import get_app

            width = get_app().output.get_size().columns - 1
            return "\n".join(fit(line, width) for line in text.splitlines())
        except Exception:  # noqa: BLE001 - no running application (tests): the whole line
            return text

    def words(self) -> list[str]:
        return self._load()[1]


class Elsewhere:
    """Notices what another process recorded into this shell's session since its last command.

    The shell's session is its own (see App.pin_session), but the table may share it: another
    terminal can record into it. Before the next output the shell says so in one line, in the
    words `log` uses, so nobody is surprised by a score they did not type.
    """

    SHOWN = 4  # events named in the line; more are counted (`log` lists them all)

    def __init__(self, app: App):
        self.app = app
        self.sid: str | None = None
        self.stamp = None
        self.length = 0

    def _look(self) -> tuple[str, object] | None:
        if self.app.session_override:
            return None
        try:
            sid = self.app.session_id()
            seen = self.app.store.signature(sid)  # the file and its devices' journals (issue 30)
            return (sid, seen) if seen is not None else None
        except (CompanionError, OSError):
            return None

    def mark(self) -> None:
        """Remember where the journal stands (after this shell's own command)."""
        seen = self._look()
        if seen is None:
            self.sid = None
            return
        if seen == (self.sid, self.stamp):
            return
        try:
            self.length = self.app.loaded(seen[0])[0].length  # what the command left: no second read
        except Exception:  # noqa: BLE001 - a damaged session: the next command will say so
            self.sid = None
            return
        self.sid, self.stamp = seen

    def news(self) -> str | None:
        """One line naming the entries another process added since :meth:`mark`, or None."""
        seen = self._look()
        if seen is None or self.sid != seen[0] or seen[1] == self.stamp:
            return None
        try:
            s, replay = self.app.loaded(self.sid)  # read once: the command about to run uses it
        except Exception:  # noqa: BLE001
            return None
        added = s.entries_from(self.length)
        self.length, self.stamp = s.length, seen[1]
        if not added:
            return None
        from companion.contract.exit import Exit

        seen = Exit(s, replay)  # said on the shared screen: the table's words
        words = [entry_words(seen, e) for e in added]
        more = len(words) - self.SHOWN
        listed = "; ".join(words[: self.SHOWN])
        if more > 0:
            listed = ngettext("{listed}; and {n} more (`log` lists it)", "{listed}; and {n} more (`log` lists them)",
                              more).format(listed=listed, n=more)
        return _("Meanwhile another terminal recorded in session {id}: {events}.").format(id=s.id, events=listed)


def table_words(s, replay) -> list[str]:
    """Words the shell completes anywhere in a session: every name in the table's view of the
    state (the game's ``view(state, None)``: never a private card)."""
    from companion.contract.text import strings_in

    found: set = set()
    strings_in(s.game.view(replay.state, None), found)
    return [w for w in found if 0 < len(w) <= 40 and w.isprintable() and not w.isdigit()]


def entry_words(seen, entry: dict) -> str:
    """A journal entry in words, as `log` (and its undo/redo note) says them to the viewer of
    ``seen`` (companion.contract.exit.Exit)."""
    kind = entry.get("kind")
    if kind == "do":
        return seen.words(entry["event"])
    if kind == "undo":
        return _("an undo")
    if kind == "redo":
        return _("a redo")
    if kind == "reveal":
        return _("the deal seed was revealed")
    return str(kind)


def serving(app: App, sid: str) -> bool:
    """Whether the phones play session ``sid``: a server runs for it, in this shell or in
    another window (its note in the data folder)."""
    from companion.web import server

    here = server.running(app.data_dir)
    if here is not None:
        return here.sid == sid
    note = server.noted(app.data_dir)
    return note is not None and note.get("session") == sid


def toolbar_text(status: dict, lowest_wins: bool = False, next_action: str = "", turn: list[str] = (),
                 phones: bool = False) -> str:
    """The bottom bar: session, game, round, whose turn, the leader by the game's own rule
    (lowest total where the lowest wins; a tie names everyone tied), and on a second line what
    comes next (one line each, so 80 columns hold them). While the phones play (``phones``: a
    server runs for the session), the second line says so and lists nothing to type (issue 31)."""
    from companion.contract.written import number

    if phones and not status.get("finished") and not status.get("abandoned"):
        who = " & ".join(turn)
        next_action = (_("The phones are playing: it is {names}'s turn; nothing to type here.").format(names=who)
                       if who else _("The phones are playing: nothing to type here."))
        return toolbar_text(status, lowest_wins, "", turn).split("\n")[0] + "\n" + next_action
    parts = [_("session {id}").format(id=status["session"]), _(status.get("title", status["game"]))]
    if status.get("round") is not None:
        parts.append(_("round {round}").format(round=status["round"]))
    players = status.get("players") or []
    if status.get("finished"):
        winners = status.get("winners") or []
        parts.append(ngettext("over: {names} won", "over: {names} won", len(winners)).format(names=" & ".join(winners)))
        return " · ".join(parts)
    if status.get("abandoned"):  # nothing comes next but `undo` (the framework's own fact)
        parts.append(_("abandoned"))
        return " · ".join(parts) + "\n" + _("next: undo takes it back, or new GAME")
    if len(turn) == 1:  # the game's own rule (Game.turn), never a guess at its status' shape
        parts.append(_("{name}'s turn").format(name=turn[0]))
    elif turn:
        parts.append(_("waiting for {names}").format(names=" & ".join(turn)))
    if players:
        scores = [p.get("score") or 0 for p in players]
        top = min(scores) if lowest_wins else max(scores)
        leaders = [p["name"] for p, sc in zip(players, scores) if sc == top]
        shown = number(top) if isinstance(top, (int, float)) and not isinstance(top, bool) else top
        if len(players) > 1 and len(leaders) == len(players):
            parts.append(_("all level: {names} ({points})").format(names=" & ".join(leaders), points=shown))
        elif lowest_wins:
            parts.append(_("leader {names} ({points}, lowest wins)").format(names=" & ".join(leaders), points=shown))
        else:
            parts.append(_("leader {names} ({points})").format(names=" & ".join(leaders), points=shown))
    line = " · ".join(parts)
    return line + "\n" + _("next: {action}").format(action=next_action) if next_action else line


def fit(text: str, width: int) -> str:
    """One line of at most ``width`` characters (the toolbar never wraps): the parts it can spare
    go first, from the front (the session's id, then the game's title: the turn and the leader
    stay), then it is cut with "…" after a whole word (German runs longer: a word is never cut in
    two, unless one word is longer than the line)."""
    if len(text) <= width:
        return text
    parts = text.split(" · ")
    while len(parts) > 2 and len(" · ".join(parts)) > width:
        parts.pop(0)
    text = " · ".join(parts)
    if len(text) <= width:
        return text
    cut = text[: max(width - 1, 0)]
    if " " in cut.strip() and text[len(cut)] != " ":
        cut = cut[: cut.rstrip().rfind(" ")]
    return cut.rstrip(" ·&,:(") + "…"


class CommandCompleter(Completer):
    """Completes command names, their options and choices, and the session's domain words."""

    def __init__(self, app: App, view: SessionView, root: click.Group):
        self.app = app
        self.view = view
        self.root = root

    def get_completions(self, document, complete_event) -> Iterable[Completion]:
        try:
            yield from self._complete(document.text_before_cursor)
        except Exception:  # noqa: BLE001 - completion must never break the shell
            return

    def _complete(self, text: str) -> Iterable[Completion]:
        cli = self.root
        try:
            words = shlex.split(text)
        except ValueError:
            words = text.split()
        if text and not text[-1].isspace() and words:
            current, done = words[-1], words[:-1]
        else:
            current, done = "", words
        ctx = click.Context(cli, obj=self.app)
        cmd: click.Command = cli
        for w in done:
            if isinstance(cmd, click.Group):
                sub = cmd.get_command(ctx, w)
                if sub is not None:
                    cmd = sub
                    continue
            if not isinstance(cmd, click.Group):
                break
        candidates: list[str] = []
        notes: dict[str, str] = {}
        offered = None
        if done and not isinstance(cmd, click.Group) and not current.startswith("-"):
            offered = self._from_game(done, current)
            if offered is None:  # a shared command: sessions, players, games, titles from the data folder
                offered = self._from_data(cli, cmd, done, current)
        if offered is not None:
            for value, note in offered:
                candidates.append(value)
                notes.setdefault(value, note)
        elif isinstance(cmd, click.Group) and not current.startswith("-"):
            candidates = list(cmd.list_commands(ctx))
            if cmd is cli:
                candidates += sorted(LEAVE)
        elif current.startswith("-"):
            for p in cmd.params:
                if isinstance(p, click.Option):
                    candidates += [o for o in p.opts if o.startswith("--")]
        else:
            for p in cmd.params:
                if isinstance(p.type, click.Choice):
                    candidates += list(p.type.choices)
            if cmd.name in {"use", "verify", "report"}:
                candidates += self.app.store.session_ids()
            elif done[:1] == ["data"] and len(done) == 2:
                from companion.core import datapack

                candidates += datapack.pack_names()
            candidates += self.view.words()
        seen = set()
        low = current.casefold()
        cut_at = len(current.rpartition("-")[0]) + 1 if "-" in current else 0
        for c in candidates:
            if c in seen or not c.casefold().startswith(low):
                continue
            seen.add(c)
            insert = shlex.quote(c) if any(ch.isspace() for ch in c) else c
            shown = c[cut_at:] if cut_at and c.startswith(current[:cut_at]) else c
            yield Completion(insert, start_position=-len(current), display=shown,
                             display_meta=notes.get(c) or None)

    def _from_data(self, cli: click.Group, cmd: click.Command, done: list[str], current: str):
        """What a shared command's parameter being typed may be, by the same ``shell_complete``
        the login shell's Tab uses (companion.core.completion): the value of the option just
        typed (`--player`, `--game`), else the command's argument (`use ID`, `played GAME`). None
        when that parameter completes nothing of the data folder."""
        options = {o: p for p in cmd.params if isinstance(p, click.Option) and not p.is_flag for o in p.opts}
        param = options.get(done[-1]) if done and done[-1].startswith("-") else None
        if param is None and done and done[-1].startswith("-"):
            return None  # a flag, or an option of another kind: the general words
        if param is None:
            args = [p for p in cmd.params if isinstance(p, click.Argument)]
            param = args[0] if args else None
        if param is None or getattr(param, "_custom_shell_complete", None) is None:
            return None
        ctx = click.Context(cmd, parent=click.Context(cli, obj=self.app), obj=self.app)
        try:
            items = param.shell_complete(ctx, current)
        except Exception:  # noqa: BLE001 - completion never breaks the shell
            return None
        return [(item.value, item.help or "") for item in items] or None

    def _from_game(self, done: list[str], current: str):
        """What the declared parameter being typed may be now, from the table's view of the
        state (see declared.complete), or None for a command that is not declared."""
        loaded = self.view.loaded()
        if loaded is None:
            return None
        s, replay = loaded
        from companion.terminal.declared import commands_of, complete

        cmd = commands_of(s.meta["game"]).get(done[0])
        rest = done[1:]
        if isinstance(cmd, click.Group) and rest:
            cmd, rest = cmd.commands.get(rest[0]), rest[1:]
        if cmd is None:
            return None
        from companion.games.kit import own_completion

        offer = own_completion(cmd)  # a hand-written command's own
        if offer is not None:
            return offer(s, replay, rest, current)
        return complete(self.app, s, replay, cmd, rest, current)


class SafeHistory(FileHistory):
    """The shell's history file, owner-only, never holding a line that carries a private card.

    `pass Ann Dallas` or `hand Ann --set ...` typed at the shared screen must not come back with
    Up-arrow, nor stay in a file another user of the computer could read.
    """

    def __init__(self, filename: str, private: Callable[[str], bool]):
        self.private = private
        fd = os.open(filename, os.O_CREAT | os.O_APPEND | os.O_WRONLY, 0o600)
        os.close(fd)
        os.chmod(filename, 0o600)
        super().__init__(filename)

    def append_string(self, string: str) -> None:
        if not self.private(string):
            super().append_string(string)


def carries_private(line: str) -> bool:
    """Whether a typed line names a private card: a private parameter of the declared move it
    runs given a value (or a hand-written command's private option), in any game."""
    from companion.core import registry
    from companion.terminal.declared import commands_of, names_private

    try:
        words = split_line(line)
    except ValueError:
        words = line.split()
    if not words:
        return False
    for gid in registry.available():
        try:
            cmd = commands_of(gid).get(words[0])
            rest = words[1:]
            if isinstance(cmd, click.Group) and rest:
                cmd, rest = cmd.commands.get(rest[0]), rest[1:]
            if cmd is not None and names_private(cmd, rest):
                return True
        except Exception:  # noqa: BLE001 - a broken plugin: keep the line out, to be safe
            return True
    return False


class Shell:
    """One interactive shell: its prompt, its questions, its private screen and its loop.

    Each part is a method of its own so that each can be read alone: ``ask`` (a question, and
    a command typed where an answer was awaited), ``show_private`` (a hand on the private
    screen), ``wire`` (what the shell lends the app), ``run_one`` (one typed line) and ``loop``.
    """

    def __init__(self, app: App, root: click.Group, input=None, output=None, private: bool | None = None):
        self.app, self.root, self.input, self.output = app, root, input, output
        try:
            app.store.ensure()
            history = SafeHistory(str(app.store.history_path), carries_private)
        except (CompanionError, OSError):
            history = InMemoryHistory()
        self.view = SessionView(app)
        self.prompt = PromptSession(
            history=history,
            completer=CommandCompleter(app, self.view, root),
            complete_while_typing=False,
            bottom_toolbar=self.view.toolbar,
            input=input,
            output=output,
        )
        self.askers: list[PromptSession] = []  # made at the first question: the first prompt comes sooner
        self.queued: list[str] = []  # command lines typed at an optional question, run after its command
        self.out = self.prompt.app.output
        if private is None:
            private = on_terminal(self.out)
        self.screen = PrivateScreen(self.out, input) if private else None
        self.elsewhere = Elsewhere(app)
        self.warming: list[threading.Thread] = []

    def is_command(self, text: str) -> bool:
        """Whether an answer is a command line of this shell (`round start`, `restore pzb`)."""
        try:
            words = split_line(text)
        except ValueError:
            return False
        if not words or words[0].startswith("-"):
            return False
        if words[0] in LEAVE | CLEAR:
            return True
        try:
            return self.root.get_command(click.Context(self.root, obj=self.app), words[0]) is not None
        except Exception:  # noqa: BLE001 - a damaged session: the answer is an answer
            return False

    def ask(self, question: str, default: str = "") -> str:
        if not self.askers:
            self.askers.append(PromptSession(input=self.input, output=self.output))
        from companion.terminal.render import wrap

        # a long question wraps at spaces; the answer is typed after its last line
        shown = wrap(question.rstrip()) + question[len(question.rstrip()):]
        answer = self.askers[0].prompt(shown, default=default)
        line = answer.strip()
        if line and line != default.strip() and self.is_command(line):
            # a command typed where an answer was awaited (typed ahead, or the question went
            # unseen) is never taken as the answer: a question Enter skips is skipped and the
            # command runs after; any other asks first
            if self.app.optional_question:
                self.queued.append(line)
                click.echo(wrap(_("`{line}` is a command: the question is skipped (as Enter does), and "
                                  "the command runs next.").format(line=line)))
                return ""
            sure = self.askers[0].prompt(wrap(_("Did you mean to run `{line}`? [Y/n] (n: it is the answer) ").format(line=line)))
            if is_yes(sure, default=True):
                raise RunInstead(line)
        return answer

    def show_private(self, owner: str, text: str, shows: str = "") -> None:
        if self.screen is None:
            click.echo(text)
        else:
            self.screen.show(owner, text, shows)

    def start_reading(self, _app=None) -> None:
        """The first read of the session (rules, printed values, replay) starts once the first
        prompt is on the screen, in the background; the toolbar is redrawn when it is done."""
        if not self.warming:
            self.warming.append(self.view.warm(then=lambda: (self.elsewhere.mark(), self.prompt.app.invalidate())))

    def wire(self) -> None:
        """What the shell lends the app: its questions, its private screen, its words."""
        from companion.terminal import setup
        from companion.terminal.render import wrap

        app = self.app
        app.interactive = True
        app.pin_session()  # this shell's session is its own from now on
        self.view.waiting = True
        self.prompt.app.after_render += self.start_reading
        app.ask = self.ask
        app.say = lambda text: click.echo(wrap(text))  # a question's refusal, at word boundaries
        app.offer_setup = lambda game: setup.offer(app, game)  # after `new`, when printed values are missing
        app.ask_value = lambda game, key: setup.ask_missing(app, game, key)  # a value a command needs now
        app.show_private = self.show_private
        app.choose_private = self.screen.choose if self.screen is not None else None

    def next_line(self) -> str | None:
        """The next line to run: one queued at a question, else one typed (None: Ctrl-D)."""
        if self.queued:  # a command typed at an optional question: it runs now, as typed
            return self.queued.pop(0)
        while True:
            try:
                return self.prompt.prompt("companion> ")
            except KeyboardInterrupt:
                continue
            except EOFError:
                return None

    def run_one(self, text: str) -> None:
        """One typed line: what happened elsewhere first, then the line, then its refusal."""
        from companion.terminal.render import wrap

        self.start_reading()
        self.warming[0].join()
        news = self.elsewhere.news()
        if news:
            click.echo(wrap(news))
        try:
            for _try in range(20):  # a value given at a hand-written command's question: it runs again
                try:
                    code, message = run_line(self.app, text, self.root)
                    break
                except RunAgain:
                    continue
            else:
                code, message = 1, _("Too many printed values are missing for this command: `data setup GAME`.")
        except (KeyboardInterrupt, EOFError):
            code, message = 1, _(STOPPED)
        except RunInstead as instead:
            code, message = 1, _(STOPPED)
            self.queued.insert(0, instead.line)
        finally:
            self.elsewhere.mark()
        if code and message == _(STOPPED):  # Ctrl-C is a choice, not a failure
            click.echo(_(STOPPED), err=True)
        elif code and message:  # at word boundaries, never inside a name or a command to type
            # a usage error (2) is Click's message: its own line breaks pass (groups.click_message)
            said = _("Error: {message}").format(message=message)
            shown = click_message(said, [text]) if code == 2 else safe_text(said)
            click.echo(wrap(shown), err=True)

    def loop(self) -> None:
        """Read commands until `exit`, `quit` or Ctrl-D; Ctrl-C clears the line."""
        from companion.terminal.render import wrap

        self.wire()
        click.echo(wrap(_("Tabletop Companion {version}. Type `help` for the commands, `exit` to leave.").format(
            version=__version__)))
        while True:
            line = self.next_line()
            if line is None:
                break
            text = line.strip()
            if text in LEAVE:
                break
            if not text or text.startswith("#"):
                continue
            if text in CLEAR:
                self.out.erase_screen()
                self.out.cursor_goto(0, 0)
                self.out.flush()
                continue
            self.run_one(text)


def run_shell(app: App, root: click.Group, input=None, output=None, private: bool | None = None) -> None:
    """Read commands until `exit`, `quit` or Ctrl-D; Ctrl-C clears the line.

    ``private`` says whether the output can show the private screen (the alternate screen);
    by default, whether it is a terminal.
    """
    Shell(app, root, input, output, private).loop()
