"""Click pieces the root group and the shell share, kept apart from cli.py so that nothing
below the command line has to import it (no import circles)."""

from __future__ import annotations

from companion.contract.language import N_, _, ngettext  # noqa: F401

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


WORDS = "companion.words"  # ctx.meta: the command's words as typed (set by the root group)


def _dash_hint(exc: click.UsageError) -> str:
    """`note "-3+4"`: Click reads -3 as an option. The line to type, with `--` before the value
    (the words after it are never options: issue 29, U1); "" for a long option (a typo of one)."""
    opt = getattr(exc, "option_name", "") or ""
    if not isinstance(exc, click.exceptions.NoSuchOption) or opt.startswith("--") or exc.ctx is None:
        return ""
    words = list(exc.ctx.meta.get(WORDS) or [])
    at = next((i for i, w in enumerate(words) if w.startswith(opt) and not w.startswith("--")), None)
    if at is None:
        return ""
    import shlex

    return shlex.join(words[:at] + ["--"] + words[at:])


def usage_line(exc: click.UsageError) -> str:
    """A usage error as one line: what is wrong and where the options are explained."""
    path = exc.ctx.command_path if exc.ctx else "companion"
    if isinstance(exc, click.exceptions.NoArgsIsHelpError) and isinstance(exc.ctx.command, click.Group):
        # `new` or `round` alone: Click's whole help as an error would be a screenful, not a line
        names = exc.ctx.command.list_commands(exc.ctx)
        return _("`{command}` needs one of: {names} (`{command} --help` shows how to write it)").format(
            command=path, names=", ".join(names))
    from companion.contract.text import clip_echoes

    message = clip_echoes(exc.format_message())
    extra = ngettext("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})", 1)
    if message.startswith(("Got unexpected extra argument", extra.partition("(")[0].strip())):
        # `hand Bartholomew Jones`, `... St. Louis`
        message = _("{message}; a name with a space goes in quotes, e.g. \"Bartholomew Jones\"").format(message=message)
    line = _dash_hint(exc)
    if line:
        return clip_echoes(_("{message}: a value that starts with '-' goes after `--`, which ends the options: "
                             "`{line}`").format(message=message.rstrip("."), line=line))
    return _("{message} (`{command} --help` shows how to write it)").format(message=message, command=path)


def click_message(message: str, typed) -> str:
    """A message Click wrote, made safe for a terminal. Its own structure passes as Click
    prints it (``Choose from:`` then a line and a tab for each choice); every other control
    character is shown as an escape. When a word typed holds a line break or a tab, the ones
    in the message may be the user's, and they are shown as escapes too (issue 29)."""
    from companion.contract.text import safe_text

    own = not any(isinstance(w, str) and ("\n" in w or "\t" in w) for w in typed or ())
    return safe_text(message, keep_newlines=own)


def is_yes(answer: str, default: bool = False) -> bool:
    """Whether an answer to a yes/no question says yes: y/yes, and the viewer's own words (j/ja
    in German); Enter alone is ``default``."""
    from companion.contract.language import pgettext

    word = answer.strip().casefold()
    if not word:
        return default
    return word in {"y", "yes", pgettext("answer", "y").casefold(), pgettext("answer", "yes").casefold()}
