"""Running command lines: script mode (commands on standard input) and the shell share this."""

from __future__ import annotations

from companion.contract.language import N_, _, ngettext  # noqa: F401

import shlex
from typing import Iterable

import click

from companion.core.app import App
from companion.contract.text import clip_echoes, safe_text
from companion.terminal.groups import click_message, usage_line

# What Ctrl-C (or Ctrl-D at a question) says: a choice, not a failure, so never "Error:".
STOPPED = N_("Stopped; nothing was recorded.")  # translated where it is shown


class RunInstead(BaseException):
    """An answer to a question was a command line (`round start`) and the players said they
    meant to run it: the question's command stops, recording nothing, and the line runs. A
    BaseException, so no command's error handling takes it for a failure of its own."""

    def __init__(self, line: str):
        super().__init__(line)
        self.line = line


def split_line(text: str) -> list[str]:
    """A command line's words, as a POSIX shell would split them; `companion` in front is allowed."""
    words = shlex.split(text, comments=True)
    if words and words[0] == "companion":
        words = words[1:]
    return words


def run_line(app: App, text: str, root: click.Group) -> tuple[int, str | None]:
    """Run one command line through ``root``, the same Click group as `companion CMD`.

    (``companion.terminal.cli.run_line`` passes the root group: this module never imports it.)
    Returns (exit status, error message or None). Nothing is printed for errors: the caller
    decides how (the shell prints `Error: ...`, script mode `line N: ...`).
    """
    try:
        words = split_line(text)
    except ValueError as exc:
        return 2, clip_echoes(_("{error}: check the quotes in {line}").format(error=exc, line=repr(text)))
    if not words:
        return 0, None
    if any(w == "--data-dir" or w.startswith("--data-dir=") for w in words):
        return 2, _("--data-dir cannot change inside a script or the shell: give it when starting, "
                    "`companion --data-dir DIR`.")
    base = app.session_override
    from companion.contract import language

    spoken = language._process  # `--lang en status` in the shell: that line only
    try:
        result = root.main(args=words, prog_name="companion", standalone_mode=False, obj=app)
        return (result if isinstance(result, int) else 0), None
    except click.UsageError as exc:
        return exc.exit_code, usage_line(exc)
    except click.exceptions.ClickException as exc:
        return exc.exit_code, clip_echoes(exc.format_message())
    except click.exceptions.Exit as exc:
        return exc.exit_code, None
    except click.exceptions.Abort:
        return 1, _(STOPPED)
    finally:
        app.session_override = base
        language._process = spoken


class RunAgain(BaseException):
    """A command written by hand met a printed value nobody knew, and the players have just
    given it in the shell: the shell runs the same line again, and it goes on with the value."""


# The longest script line (issue 12: shlex took 38 s to split a line of a million characters).
MAX_LINE = 10_000


def script_line_problem(line: str | bytes) -> tuple[str | None, str | None]:
    """(the line as text, None), or (None, what is wrong with it): too long, not UTF-8, a NUL."""
    from companion.contract.written import number

    too_long = _("the line is longer than {count} characters: split it into several commands.")
    if len(line) > MAX_LINE * (4 if isinstance(line, bytes) else 1):
        return None, too_long.format(count=number(MAX_LINE, grouped=True))
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            return None, _("the line is not UTF-8 text (byte {position} is not valid): save the script as "
                           "UTF-8; nothing of this line was run.").format(position=exc.start + 1)
    if len(line.rstrip("\r\n")) > MAX_LINE:
        return None, too_long.format(count=number(MAX_LINE, grouped=True))
    if "\x00" in line:
        return None, _("the line holds a NUL character: remove it; nothing of this line was run.")
    return line, None


def run_script(app: App, lines: Iterable[str | bytes], root: click.Group) -> int:
    """Script mode: one command per line; stops at the first failing line with `line N: ...`.

    ``lines`` may be bytes (standard input's buffer): each line is decoded here, so a line of
    invalid UTF-8 is refused with its number instead of stopping the whole reader.

    The script keeps the session it started on (or the one its own `new`/`use` chose), whatever
    another process makes current meanwhile.
    """
    app.pin_session()
    for number, raw in enumerate(lines, 1):
        line, problem = script_line_problem(raw)
        if problem:
            click.echo(_("line {number}: {message}").format(number=number, message=problem), err=True)
            return 1
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        code, message = run_line(app, text, root)
        if code == 2 and message:  # Click's message, kept to one line: "Choose from: bash, zsh, fish"
            click.echo(_("line {number}: {message}").format(number=number, message=" ".join(click_message(message, [text]).split())),
                       err=True)
            return 1
        if code:
            click.echo(_("line {number}: {message}").format(number=number, message=safe_text(message or _("failed"))),
                       err=True)
            return 1
    return 0
