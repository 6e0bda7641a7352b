"""Click pieces the root group and the shell share, kept apart from cli.py so that nothing
below the command line has to import it (no import circles)."""

from __future__ import annotations

import importlib

import click


def load_target(target: str):
    """``"module:attribute"`` -> the attribute, importing the module."""
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
                return None  # a part not installed in this build
            self.add_command(cmd, name)
        return cmd


def usage_line(exc: click.UsageError) -> str:
    """A usage error as one line: what is wrong and where the options are explained."""
    path = exc.ctx.command_path if exc.ctx else "companion"
    if isinstance(exc, click.exceptions.NoArgsIsHelpError) and isinstance(exc.ctx.command, click.Group):
        # `new` or `round` alone: Click's whole help as an error would be a screenful, not a line
        names = exc.ctx.command.list_commands(exc.ctx)
        return f"`{path}` needs one of: {', '.join(names)} (`{path} --help` shows how to write it)"
    message = exc.format_message()
    if message.startswith("Got unexpected extra argument"):  # `hand Bartholomew Jones`, `... St. Louis`
        message += "; a name with a space goes in quotes, e.g. \"Bartholomew Jones\""
    return f"{message} (`{path} --help` shows how to write it)"
