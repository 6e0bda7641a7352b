"""The root of the command surface: `companion CMD ...` and `CMD ...` in the shell are one
Click group. Commands are imported only when used, so `companion --version` starts fast.
Errors become one line for people, never a traceback.

The session commands and the group's record are named in :data:`COMMANDS`. A game's commands
are not listed anywhere here: each game declares its own (``companion.contract.api.Game``), and
the root group asks the game of the session at hand first, then the other games, so two games
may use the same command name.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import sys

import click

from companion import __version__
from companion.core.app import App, default_data_dir
from companion.contract.errors import CompanionError, Malformed, MissingValue
from companion.contract.language import N_, _
from companion.terminal.groups import (WORDS, LazyGroup, click_message, load_target,  # noqa: F401 (load_target: tests)
                                     usage_line)

EXIT_OK, EXIT_REFUSED, EXIT_USAGE = 0, 1, 2


# Click marks its texts with the standard library's gettext, which searches the system's
# catalogues on every call (and imports locale): its options and types made below (the version
# option's help, click.Path's "directory") are made untranslated, and main() binds Click's
# messages to the companion's catalogue (speech.speak_click) before any is shown.
from companion.terminal.speech import quiet_click  # noqa: E402
from companion.terminal.collector import begun  # noqa: E402

quiet_click()


class FittedFormatter(click.HelpFormatter):
    """Click's help, fitted to the screen (issue 13.6): Click never formats narrower than 50
    columns, and outside a terminal it ignores a narrow $COLUMNS; this uses the same width as
    every other screen (companion.terminal.render.screen_width), at most 100."""

    def __init__(self, indent_increment: int = 2, width: int | None = None, max_width: int | None = None):
        if width is None:
            from companion.terminal.render import screen_width

            width = min(screen_width(), max_width or 100) - 1
        super().__init__(indent_increment, width, max_width)

    # The help texts are translated as they are written, for the reader's language (issue 28):
    # Click's own help option is made untranslated (speech.speak_click), so that a command line
    # that shows no help never works out its language.
    def write_text(self, text: str) -> None:
        from companion.contract.language import _

        super().write_text(_(text))

    def write_dl(self, rows, col_max: int = 30, col_spacing: int = 2) -> None:
        from companion.contract.language import _

        super().write_dl([(term, _(text) if text else text) for term, text in rows], col_max, col_spacing)


# Every command's `--help` and `help CMD` use it: Click makes each help formatter through
# Context.formatter_class, and the commands' contexts are Click's own.
click.Context.formatter_class = FittedFormatter

# ... and read each help in the viewer's language (helps are marked with N_ where declared).
from companion.terminal.speech import speak_helps  # noqa: E402

speak_helps()

# top-level command name -> "module:attribute": the commands every session shares and the
# group's record. Games declare their own commands (companion.contract.api.Game.commands).
COMMANDS: dict[str, str] = {
    "games": "companion.terminal.generic:games",
    "new": "companion.terminal.generic:new",
    "sessions": "companion.terminal.generic:sessions_cmd",
    "use": "companion.terminal.generic:use",
    "status": "companion.terminal.status:status",
    "log": "companion.terminal.generic:log",
    "undo": "companion.terminal.generic:undo",
    "redo": "companion.terminal.generic:redo",
    "abandon": "companion.terminal.generic:abandon",
    "note": "companion.terminal.generic:note",
    "verify": "companion.terminal.generic:verify",
    "board": "companion.terminal.generic:board",
    "data": "companion.terminal.data:data",
    "shell": "companion.terminal.generic:shell",
    "clear": "companion.terminal.generic:clear",
    "help": "companion.terminal.generic:help_cmd",
    "players": "companion.terminal.history:players",
    "player": "companion.terminal.history:player_group",
    "stats": "companion.terminal.history:stats",
    "export": "companion.terminal.history:export",
    "import": "companion.terminal.history:import_cmd",
    "report": "companion.terminal.history:report",
    "delete": "companion.terminal.history:delete",
    "restore": "companion.terminal.history:restore",
    "played": "companion.terminal.history:played",
    "serve": "companion.web.command:serve",
    "completion": "companion.terminal.generic:completion",
    "check": "companion.terminal.check:check",
    "sync": "companion.terminal.sync:sync",
    "language": "companion.terminal.speech:language_cmd",
    "sync": "companion.terminal.sync:sync",
}
SESSIONS, RECORD = N_("Sessions"), N_("History and exchange")  # headings: translated where shown


def log_unexpected(app: App | None) -> str:
    """Write the traceback to the data folder's error log; return where it went."""
    import traceback

    text = traceback.format_exc()
    try:
        path = (app.store.error_log_path if app else default_data_dir() / ".local" / "errors.log")
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        from companion.core import logs
        from companion.core.store import now

        if path.is_symlink():
            return _("nowhere (errors.log is a link: move it away)")
        # owner only (issue 12), at most two files of 1 MiB (issue 29)
        if not logs.append(path, f"--- {now()} companion {__version__}\n{text}\n"):
            return _("nowhere (the data folder is not writable)")
        return str(path)
    except OSError:
        return _("nowhere (the data folder is not writable)")


def take_session(app: App, args: list[str]) -> list[str]:
    """``args`` without `--session ID` (or `--session=ID`), which sets the app's session for
    this line; words after `--` are left as they are."""
    out: list[str] = []
    words = list(args)
    i = 0
    while i < len(words):
        word = words[i]
        if word == "--":
            out += words[i:]
            break
        if word == "--session" and i + 1 < len(words):
            app.session_override = words[i + 1]
            i += 2
            continue
        if word.startswith("--session="):
            app.session_override = word.split("=", 1)[1]
            i += 1
            continue
        out.append(word)
        i += 1
    return out


class RootGroup(LazyGroup):
    """Translates the core's refusals into Click's one-line errors with exit status 1.

    Usage errors (exit 2) are one line too, instead of Click's usage block.
    """

    def app_for(self, ctx: click.Context) -> App:
        """The app a command line runs with; built from the root's options when it has none yet."""
        if isinstance(ctx.obj, App):
            return ctx.obj
        root = ctx.find_root()
        if isinstance(root.obj, App):
            return root.obj
        from pathlib import Path

        given = root.params.get("data_dir")
        # made once for a one-off command and kept: the command runs with the very App (and
        # the session it read) that chose it
        app = App(Path(given) if given else default_data_dir())
        app.one_off = True
        root.obj = app
        return app

    def game_at_hand(self, ctx: click.Context) -> str | None:
        """The game id of the session the command line targets, or None (no session, or
        unreadable). The session read here is the one the command then uses (App.loaded): a
        one-off action reads its file once."""
        app = self.app_for(ctx)
        try:
            s, _replay = app.loaded()
            return s.meta["game"]
        except Exception:  # noqa: BLE001 - no session yet, or a damaged one: the command will say
            return None

    def game_commands(self, ctx: click.Context, everyone: bool = False) -> list[tuple[str, dict]]:
        """[(game id, {name: command})]: the game at hand first, then (``everyone``) the others."""
        from companion.core import registry
        from companion.terminal.declared import commands_of

        here = self.game_at_hand(ctx)
        order = [here] if here else []
        if everyone:
            order += [g for g in registry.available() if g != here]
        out = []
        for gid in order:
            try:
                out.append((gid, commands_of(gid)))
            except Exception:  # noqa: BLE001 - a broken plugin never stops the others (`games` says why)
                continue
        return out

    def resolve_command(self, ctx, args):
        """The command, with `--session ID` taken out wherever it is on the line (the one place
        it is read: `status --session ID`, `round start --session ID`): the game of that session
        decides which `round` runs. The app then knows whose command runs, and refuses it on a
        session of another game (App.expects)."""
        app = self.app_for(ctx)
        if ctx.params.get("session_id"):  # `companion --session ID CMD`: the root's own option
            app.session_override = ctx.params["session_id"]
        args = take_session(app, args)
        ctx.meta[WORDS] = list(args)  # the line as typed, for a refusal that shows how to retype it
        name, cmd, rest = super().resolve_command(ctx, args)
        from companion.terminal.declared import whose

        found = whose(cmd)
        app.expects = (found[0], None, found[1], found[2]) if found else None
        return name, cmd, rest

    def get_command(self, ctx, name):
        cmd = super().get_command(ctx, name)
        if cmd is not None:
            return cmd
        for everyone in (False, True):
            for _gid, commands in self.game_commands(ctx, everyone):
                if name in commands:
                    return commands[name]  # not cached: another session may be of another game
        return None

    def list_commands(self, ctx):
        names = set(super().list_commands(ctx))
        for _gid, commands in self.game_commands(ctx, everyone=True):
            names |= set(commands)
        return sorted(names)

    def shell_complete(self, ctx, incomplete):
        """Tab on a command's name in a login shell (Click's protocol): the names and their
        help from a cache kept while the installed games are unchanged
        (:func:`companion.core.completion.command_names`), so a Tab does not import every
        game's commands; options as Click completes them."""
        if incomplete.startswith("-"):
            return super().shell_complete(ctx, incomplete)
        from click.shell_completion import CompletionItem

        from companion.core import completion

        def build() -> list[tuple[str, str]]:
            out = []
            for name in self.list_commands(ctx):
                cmd = self.get_command(ctx, name)
                if cmd is not None and not cmd.hidden:
                    out.append((name, cmd.get_short_help_str()))
            return out

        try:
            store = self.app_for(ctx).store
        except Exception:  # noqa: BLE001 - a folder that cannot be used: complete without the cache
            items = build()
        else:
            items = completion.command_names(store, build)
        return [CompletionItem(name, help=help_) for name, help_ in items if name.startswith(incomplete)]

    def sections(self, ctx) -> list[tuple[str, list[tuple[str, click.Command]]]]:
        """[(heading, [(name, command)])]: the game at hand's commands first, then the session
        commands, the record, and every other game's."""
        from companion.core import registry

        shared: dict[str, list] = {SESSIONS: [], RECORD: []}
        for name in sorted(self.lazy):
            cmd = super().get_command(ctx, name)
            if cmd is not None and not cmd.hidden:
                heading = (RECORD if self.lazy[name].startswith(("companion.terminal.history:", "companion.terminal.sync:"))
                           else SESSIONS)
                shared[heading].append((name, cmd))
        games: dict[str, list] = {}
        for gid, commands in self.game_commands(ctx, everyone=True):
            game = registry.get(gid)
            heading = game.section or game.title
            listed = games.setdefault(heading, [])
            for name in sorted(commands):
                if name not in {n for n, _c in listed} and not commands[name].hidden:
                    listed.append((name, commands[name]))
        here = list(games.items())[:1] if self.game_at_hand(ctx) else []
        rest = [item for item in games.items() if item not in here]
        return [*here, *shared.items(), *rest]

    def format_commands(self, ctx, formatter):
        """The commands grouped: the game at hand's first, so a player sees what belongs together."""
        sections = self.sections(ctx)
        width = max((len(n) for _t, cmds in sections for n, _c in cmds), default=0)
        limit = formatter.width - 6 - width
        for title, cmds in sections:
            if cmds:
                with formatter.section(_(title)):
                    formatter.write_dl([(n, c.get_short_help_str(limit)) for n, c in cmds])

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        from companion.terminal.speech import choose_for, speak_click

        if not isinstance(extra.get("obj"), App):  # a line of the shell or a script speaks as its process
            choose_for(args)  # the language, worked out when the first message is translated
        speak_click()
        if os.environ.get(complete_var or "_COMPANION_COMPLETE"):  # Tab in a login shell
            from companion.terminal.login_completion import register

            register()
        if not standalone_mode:
            return self._one_command(args, prog_name, complete_var, **extra)
        try:
            rv = self._one_command(args, prog_name, complete_var, **extra)
        except click.UsageError as exc:
            typed = sys.argv[1:] if args is None else args
            click.echo(on_terminal(_("Error: {message}").format(message=click_message(usage_line(exc), typed))), err=True)
            sys.exit(EXIT_USAGE)
        except click.ClickException as exc:
            from companion.contract.text import safe_text

            from companion.contract.text import clip_echoes

            click.echo(on_terminal(_("Error: {message}").format(message=safe_text(clip_echoes(exc.format_message())))),
                       err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            from companion.terminal.script import STOPPED

            click.echo(_(STOPPED), err=True)
            sys.exit(EXIT_REFUSED)
        except BrokenPipeError:
            # The reader went away (`| head`): say nothing, and keep Python from complaining
            # about the unflushed output at exit.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(EXIT_REFUSED)
        sys.exit(rv if isinstance(rv, int) else EXIT_OK)

    def _one_command(self, args, prog_name, complete_var, **extra):
        """One command line, in a context of its own: what a command sets on a context variable
        (``--json``'s English, see kit.english_for_json) ends with it, even when Click stops at
        a usage error before closing the command's context (a German shell stayed English after
        `played --json` without a game). Its refusal is then said in the viewer's language."""
        return contextvars.copy_context().run(super().main, args, prog_name, complete_var,
                                              standalone_mode=False, **extra)

    def invoke(self, ctx):
        # A command (not the shell or script mode, whose prompt_toolkit screen must pass):
        # nothing it prints may carry a control character that came from data (issue 12).
        guard = SafeOutput() if getattr(ctx, "_protected_args", None) else contextlib.nullcontext()
        try:
            with guard:
                return super().invoke(ctx)
        except MissingValue as exc:  # in the shell: asked now, and the line runs again with it
            app = ctx.find_object(App)
            if app is not None and app.ask_value is not None and app.interactive and app.ask_value(exc.game, exc.key):
                from companion.terminal.script import RunAgain

                raise RunAgain() from None
            show_notes(ctx)
            raise click.ClickException(exc.message) from None
        except Malformed as exc:  # a value typed that cannot be read: a usage error, as Click's own
            show_notes(ctx)
            raise click.UsageError(exc.message, ctx=click.get_current_context(silent=True) or ctx) from None
        except CompanionError as exc:
            show_notes(ctx)
            raise click.ClickException(exc.message) from None
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except (KeyboardInterrupt, EOFError):  # Ctrl-C, or Ctrl-D at a question the shell asked
            raise click.exceptions.Abort() from None
        except BrokenPipeError:  # `companion ... | head` stopped reading: not an error of ours
            raise
        except Exception as exc:  # noqa: BLE001 - last line of defence: no traceback for users
            where = log_unexpected(ctx.find_object(App))
            plugin = plugin_at_fault(exc, game_in_hand(ctx))
            if plugin is not None:  # a plugin's own code raised: it is named, not the companion
                from companion.core.plugins import frame

                raise click.ClickException(
                    _("The game {game} ({distribution} {version}) failed ({error} in {place}); nothing more was "
                      "recorded. Details are in {log}: tell the game's author.").format(
                        game=plugin.game.id, distribution=plugin.distribution, version=plugin.version,
                        error=type(exc).__name__, place=frame(exc), log=where)
                ) from None
            raise click.ClickException(
                _("Something went wrong inside companion ({error}); nothing more was "
                  "recorded. Details are in {log}.").format(error=type(exc).__name__, log=where)
            ) from None
        finally:
            show_notes(ctx)


def plugin_at_fault(exc: BaseException, game_id: str | None = None):
    """The loaded game (registry.Parts) whose code raised ``exc``, when it is a plugin's
    (companion.core.plugins.at_fault; ``game_id``: the game of the session at hand)."""
    from companion.core.plugins import at_fault

    return at_fault(exc, game_id)


def game_in_hand(ctx) -> str | None:
    """The game id of the session the failed command targeted, read from its description
    alone (no rules run), or None."""
    app = ctx.find_object(App)
    try:
        return app.store.session_game(app.session_id()) if app is not None else None
    except Exception:  # noqa: BLE001 - no session, or a damaged one: the traceback decides alone
        return None


def on_terminal(message: str) -> str:
    """An error line as a terminal shows it: wrapped at spaces to the terminal's width, so no
    word is cut at the screen's edge. Piped or redirected, it stays one line, for scripts that
    read it."""
    from companion.terminal.render import terminal_width, wrap

    width = terminal_width(sys.stderr)
    return wrap(message, width) if width else message


class SafeStream:
    """A text stream that shows control characters (ESC, BEL, U+202E ...) as visible escapes;
    newlines and tabs pass."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        from companion.contract.text import safe_text

        if isinstance(text, str):
            self._stream.write(safe_text(text, keep_newlines=True))
            return len(text)
        return self._stream.write(text)

    def write_drawn(self, text: str) -> int:
        """A drawing the renderer coloured (already passed through safe_drawing): its colour
        codes go to the terminal as they are (companion.terminal.render.echo_drawn)."""
        self._stream.write(text)
        return len(text)

    def __getattr__(self, name):
        return getattr(self._stream, name)


class SafeOutput:
    """Standard output and error through :class:`SafeStream` while a command runs."""

    def __enter__(self):
        self.saved = sys.stdout, sys.stderr
        if not isinstance(sys.stdout, SafeStream):
            sys.stdout = SafeStream(sys.stdout)
        if not isinstance(sys.stderr, SafeStream):
            sys.stderr = SafeStream(sys.stderr)
        return self

    def __exit__(self, *exc):
        sys.stdout, sys.stderr = self.saved
        return False


def show_notes(ctx) -> None:
    """Print what the data folder had to say besides the answer (a file skipped, an index that
    could not be updated), one line each, on standard error."""
    app = ctx.find_object(App)
    store = getattr(app, "_store", None) if app is not None else None
    if store is None or not store.notes:
        return
    from companion.contract.text import safe_text

    notes, store.notes[:] = list(dict.fromkeys(store.notes)), []
    for note in notes:
        click.echo(_("Note: {note}").format(note=safe_text(note)), err=True)


class DataDirPath(click.Path):
    """A folder path; a NUL character in it is a clear refusal, not a ValueError (issue 12)."""

    def convert(self, value, param, ctx):
        if isinstance(value, str) and "\x00" in value:
            self.fail(_("the folder's name contains a NUL character: give another folder."), param, ctx)
        return super().convert(value, param, ctx)


@click.group(
    cls=RootGroup,
    lazy=COMMANDS,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    help=N_("Tabletop Companion: deals cards fairly, keeps score and says when the game is over.\n"
    "\n"
    "Run it with no command for the interactive shell. With commands piped in, it runs them one\n"
    "per line (script mode)."),
)
@click.option(
    "--data-dir",
    type=DataDirPath(file_okay=False),  # a str: pathlib is imported only when the folder is used
    help=N_("Folder for sessions and your own printed values (default: $COMPANION_HOME, else your user data folder)."),
)
@click.option("--session", "session_id", metavar="ID", help=N_("Act on this session instead of the current one."),
              shell_complete=lambda ctx, param, incomplete: _complete_sessions(ctx, param, incomplete))
@click.option("--lang", type=click.Choice(["de", "en"], case_sensitive=False), metavar="de|en",
              help=N_("Speak this language (default: `companion language`, else the locale variables)."))
@click.version_option(__version__, "--version", prog_name="companion", message="%(prog)s %(version)s")
@click.pass_context
def cli(ctx: click.Context, data_dir: str | None, session_id: str | None, lang: str | None = None) -> None:
    begun()  # the start is over: the cycle collector is on again (terminal/collector.py)
    line = isinstance(ctx.obj, App) and not ctx.obj.one_off  # one line of the shell or of a script (run_line)
    if lang:
        from companion.contract.language import set_language

        set_language(lang)
    if data_dir:
        from pathlib import Path

        data_dir = Path(data_dir)
    app = ctx.obj if isinstance(ctx.obj, App) else App(data_dir or default_data_dir())
    if session_id and ctx.invoked_subcommand is None and not line:  # `companion --session ID`: a shell on ID
        app.session_override = session_id
    if not line and app.show_private is None and ctx.invoked_subcommand is not None:
        private_on_terminal(app)
    if app.tell is None:  # At.tell: a view shown at once, before a move is recorded
        app.tell = lambda view: tell(app, view)
    if app.screen is None:  # how a game's hand-written command draws its views (games.kit)
        from companion.terminal import render

        app.screen = render
    ctx.obj = app
    if ctx.invoked_subcommand is None:
        if line and session_id and app.pinning:
            # `--session ID` alone in the shell or a script: this process moves to ID, and the
            # folder's current session (other terminals' default) stays as it is
            sid = app.store.resolve(session_id)
            from companion.core import session as sessions

            s = sessions.load(app.store, sid)
            app.pin(sid)
            click.echo(_("Here, now session {id}: {game} with {players} (other terminals keep theirs).").format(
                id=sid, game=_(s.game.title), players=", ".join(s.players)))
            return
        if line:  # `--` alone: no second shell or script inside this one
            raise click.UsageError(_("Options alone do nothing: give a command after them, e.g. `--session ID status`."))
        if sys.stdin is not None and sys.stdin.isatty():
            from companion.terminal import shell

            shell.run_shell(app, cli)
        else:
            from companion.terminal import script

            source = getattr(sys.stdin, "buffer", None) if sys.stdin is not None else None
            ctx.exit(script.run_script(app, source if source is not None else (sys.stdin or ()), cli))


def _complete_sessions(ctx, param, incomplete):
    from companion.games.kit import completes

    return completes("sessions")(ctx, param, incomplete)


def tell(app: App, view: list) -> None:
    """Show a view at once, as every screen is drawn (App.tell, a move's context)."""
    from companion.terminal.declared import show

    show(app, view)


def private_on_terminal(app: App) -> None:
    """A one-shot command on a terminal (`companion hand Bob`) shows a hand on the private
    screen, as the shell does; piped output (and `--print`) prints it plainly."""
    if sys.stdin is None or sys.stdout is None or not (sys.stdin.isatty() and sys.stdout.isatty()):
        return

    def show(owner: str, text: str, shows: str = "") -> None:
        from prompt_toolkit.output import create_output

        from companion.terminal.private import PrivateScreen

        PrivateScreen(create_output()).show(owner, text, shows)

    app.show_private = show


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="companion")


def find_command(name: str, game: str | None = None) -> click.Command:
    """The command `companion NAME` runs: a shared one, else ``game``'s, else any game's
    (for docs and tests that check every command's options)."""
    from companion.core import registry

    if name in COMMANDS:
        return load_target(COMMANDS[name])
    from companion.terminal.declared import commands_of

    for gid in ([game] if game else []) + registry.available():
        commands = commands_of(gid)
        if name in commands:
            return commands[name]
    raise KeyError(name)


def run_line(app: App, text: str) -> tuple[int, str | None]:
    """One command line through this group (see companion.terminal.script.run_line)."""
    from companion.terminal import script

    return script.run_line(app, text, cli)


def run_shell(app: App, input=None, output=None, private: bool | None = None) -> None:
    """The interactive shell on this group (see companion.terminal.shell.run_shell)."""
    from companion.terminal import shell

    shell.run_shell(app, cli, input=input, output=output, private=private)
