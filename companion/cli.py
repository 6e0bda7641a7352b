"""The root of the command surface: `companion CMD ...` and `CMD ...` in the shell are one
Click group. Commands are imported only when used (see companion/commands/__init__.py), so
`companion --version` starts fast. Errors become one line for people, never a traceback.
"""

from __future__ import annotations

import importlib
import sys
import traceback
from pathlib import Path

import click

from companion import __version__
from companion.app import App, default_data_dir
from companion.commands import COMMANDS
from companion.errors import CompanionError

EXIT_OK, EXIT_REFUSED, EXIT_USAGE = 0, 1, 2


def load_target(target: str):
    module, attr = target.split(":")
    return getattr(importlib.import_module(module), attr)


class LazyGroup(click.Group):
    """A group whose subcommands are named in a registry and imported on first use."""

    def __init__(self, *args, lazy: dict[str, str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx):
        names = set(super().list_commands(ctx)) | set(self.lazy)
        return sorted(n for n in names if self.get_command(ctx, n) is not None)

    def get_command(self, ctx, name):
        cmd = super().get_command(ctx, name)
        if cmd is None and name in self.lazy:
            try:
                cmd = load_target(self.lazy[name])
            except (ImportError, AttributeError):
                return None  # a game not installed in this build
            self.add_command(cmd, name)
        return cmd


def log_unexpected(app: App | None) -> str:
    """Write the traceback to the data folder's error log; return where it went."""
    text = traceback.format_exc()
    try:
        path = (app.store.error_log_path if app else default_data_dir() / "errors.log")
        path.parent.mkdir(parents=True, exist_ok=True)
        from companion.store import now

        with open(path, "a", encoding="utf-8") as fh:
            fh.write(f"--- {now()} companion {__version__}\n{text}\n")
        return str(path)
    except OSError:
        return "nowhere (the data folder is not writable)"


def usage_line(exc: click.UsageError) -> str:
    """A usage error as one line: what is wrong and where the options are explained."""
    path = exc.ctx.command_path if exc.ctx else "companion"
    if isinstance(exc, click.exceptions.NoArgsIsHelpError) and isinstance(exc.ctx.command, click.Group):
        # `new` or `round` alone: Click's whole help as an error would be a screenful, not a line
        names = exc.ctx.command.list_commands(exc.ctx)
        return f"`{path}` needs one of: {', '.join(names)} (`{path} --help` shows how to write it)"
    return f"{exc.format_message()} (`{path} --help` shows how to write it)"


class RootGroup(LazyGroup):
    """Translates the core's refusals into Click's one-line errors with exit status 1.

    Usage errors (exit 2) are one line too, instead of Click's usage block.
    """

    SECTIONS = {
        "generic": "Sessions",
        "data": "Sessions",
        "scoresheet": "Score sheet",
        "trans": "Trans Europa / Trans Amerika",
        "rails": "Trans Europa / Trans Amerika",
        "transatlantic": "Transatlantic",
        "atlantic_star": "Atlantic Star",
        "history": "History and exchange",
    }

    def format_commands(self, ctx, formatter):
        """The commands grouped by game, so a player sees only what belongs together."""
        sections: dict[str, list[tuple[str, str]]] = {}
        limit = formatter.width - 6 - max((len(n) for n in self.lazy), default=0)
        for name in self.list_commands(ctx):
            cmd = self.get_command(ctx, name)
            if cmd is None or cmd.hidden:
                continue
            module = self.lazy.get(name, "x.generic:x").split(":")[0].rsplit(".", 1)[-1]
            sections.setdefault(self.SECTIONS.get(module, "Other"), []).append((name, cmd.get_short_help_str(limit)))
        order = list(dict.fromkeys(self.SECTIONS.values())) + ["Other"]
        for title in order:
            if sections.get(title):
                with formatter.section(title):
                    formatter.write_dl(sections[title])

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.UsageError as exc:
            click.echo(f"Error: {usage_line(exc)}", err=True)
            sys.exit(EXIT_USAGE)
        except click.ClickException as exc:
            click.echo(f"Error: {exc.format_message()}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("Stopped; nothing more was recorded.", err=True)
            sys.exit(EXIT_REFUSED)
        except BrokenPipeError:
            # The reader went away (`| head`): say nothing, and keep Python from complaining
            # about the unflushed output at exit.
            import os

            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(EXIT_REFUSED)
        sys.exit(rv if isinstance(rv, int) else EXIT_OK)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except CompanionError as exc:
            raise click.ClickException(exc.message) from None
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except (KeyboardInterrupt, EOFError):  # Ctrl-C, or Ctrl-D at a question the shell asked
            raise click.exceptions.Abort() from None
        except BrokenPipeError:  # `companion ... | head` stopped reading: not an error of ours
            raise
        except Exception as exc:  # noqa: BLE001 - last line of defence: no traceback for users
            where = log_unexpected(ctx.find_object(App))
            raise click.ClickException(
                f"Something went wrong inside companion ({type(exc).__name__}); nothing more was "
                f"recorded. Details are in {where}."
            ) from None


@click.group(
    cls=RootGroup,
    lazy=COMMANDS,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder for sessions and your own printed values (default: $COMPANION_HOME, else your user data folder).",
)
@click.option("--session", "session_id", metavar="ID", help="Act on this session instead of the current one.")
@click.version_option(__version__, "--version", prog_name="companion", message="%(prog)s %(version)s")
@click.pass_context
def cli(ctx: click.Context, data_dir: Path | None, session_id: str | None) -> None:
    """Tabletop Companion: deals cards fairly, keeps score and says when the game is over.

    Run it with no command for the interactive shell. With commands piped in, it runs them one
    per line (script mode).
    """
    line = isinstance(ctx.obj, App)  # one line of the shell or of a script (run_line)
    app = ctx.obj if line else App(data_dir or default_data_dir())
    if data_dir and ctx.obj is None:
        app.data_dir = data_dir
    if session_id:
        app.session_override = session_id
    ctx.obj = app
    if ctx.invoked_subcommand is None:
        if line:  # `--` or `--session ID` alone: no second shell or script inside this one
            raise click.UsageError("Options alone do nothing: give a command after them, e.g. `--session ID status`.")
        if sys.stdin is not None and sys.stdin.isatty():
            from companion.shell import run_shell

            run_shell(app)
        else:
            from companion.script import run_script

            ctx.exit(run_script(app, sys.stdin))


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="companion")
