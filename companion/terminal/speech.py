"""The terminal's language (issue 28): chosen from the command line, the data folder and the
locale variables, and spoken by Click's own messages too.

The order, first found wins: ``--lang de|en`` on the line; the data folder's setting
(``companion language de``, kept in ``.local/language``: a laptop's choice, not the group's);
the usual locale variables (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``); English. It is
worked out the first time a message is translated, so ``companion --version`` reads nothing.

Click marks its own messages ("Usage:", "Options:", "No such option") with the standard library's
``gettext``; they are bound here to the companion's, whose catalogue holds them (babel.cfg
extracts them from the installed Click), so a usage error and ``--help`` speak German too.
"""

from __future__ import annotations

import os
import sys

import click

from companion.contract import language as languages
from companion.contract.language import N_


def setting_path(root):
    """``.local/language`` in the data folder (a laptop's choice: the folder's machine-local part)."""
    from pathlib import Path

    return Path(root) / ".local" / "language"


def read_setting(root) -> str | None:
    """The data folder's language, or None (no setting, or one no longer known)."""
    try:
        return languages.known(setting_path(root).read_text(encoding="utf-8").strip()[:16])
    except (OSError, UnicodeDecodeError):
        return None


def write_setting(root, lang: str | None) -> None:
    """Keep ``lang`` for this data folder (None: follow the locale variables again)."""
    path = setting_path(root)
    if lang is None:
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(lang + "\n", encoding="utf-8")
    os.replace(tmp, path)


def _given(args: list[str], option: str) -> str | None:
    for i, word in enumerate(args):
        if word == "--":
            return None
        if word == option and i + 1 < len(args):
            return args[i + 1]
        if word.startswith(option + "="):
            return word.split("=", 1)[1]
    return None


def choose_for(args) -> None:
    """Make the process speak what ``args`` (a command line) and its data folder ask for, when the
    first message is translated."""
    words = [str(a) for a in (sys.argv[1:] if args is None else args)]

    def resolve() -> str:
        lang = languages.known(_given(words, "--lang"))
        if lang:
            return lang
        folder = _given(words, "--data-dir")
        if folder:
            root = os.path.expanduser(folder)
        else:
            from companion.core.app import default_data_dir

            root = default_data_dir()
        return read_setting(root) or languages.from_environment() or languages.ENGLISH

    languages._process = None
    languages.resolver = resolve


CLICK_MODULES = ("core", "exceptions", "types", "parser", "decorators", "formatting", "termui", "utils",
                 "shell_completion", "_termui_impl")


def quiet_click() -> None:
    """Click's ``_`` and ``ngettext`` as markers only (the text as Click wrote it), for what is
    made when the commands are imported: no language is worked out, no catalogue searched."""
    for name in CLICK_MODULES:
        module = sys.modules.get(f"click.{name}")
        if module is not None and getattr(module, "_", None) is not None:
            module._ = languages.N_
        if module is not None and getattr(module, "ngettext", None) is not None:
            module.ngettext = _english_plural


def _english_plural(singular: str, plural: str, n) -> str:
    return singular if n == 1 else plural


def speak_click() -> None:
    """Bind Click's ``_``/``ngettext`` to the companion's catalogue (Click's messages are marked
    for gettext; they are looked up in the viewer's language, like every other)."""
    for name in CLICK_MODULES:
        module = sys.modules.get(f"click.{name}")
        if module is None:
            continue
        if name == "decorators":  # its texts are option help ("Show this message and exit."), made
            module._ = languages.N_  # on every parse: translated where --help writes them
        elif getattr(module, "_", None) is not None:
            module._ = languages.gettext
        if getattr(module, "ngettext", None) is not None:
            module.ngettext = languages.ngettext
    speak_helps()


@click.command("language", help=N_("Show or choose the language this laptop speaks (phones choose their own).\n"
    "\n"
    "`language de` keeps German for this data folder; `language auto` follows the locale variables\n"
    "again (LANGUAGE, LC_ALL, LC_MESSAGES, LANG). `--lang de` before any command speaks German for\n"
    "that command only."))
@click.argument("lang", required=False, metavar="[de|en|auto]",
                type=click.Choice(sorted(languages.LANGUAGES) + ["auto"], case_sensitive=False))
@click.pass_obj
def language_cmd(app, lang: str | None) -> None:
    from companion.contract.language import _, language, using

    root = app.store.root
    if lang is None:
        kept = read_setting(root)
        now = language()
        name = languages.LANGUAGES.get(now, now)
        if kept:
            click.echo(_("This laptop speaks {name}: kept in the data folder (`language auto` follows "
                         "the locale variables again).").format(name=name))
        else:
            click.echo(_("This laptop speaks {name}, from the locale variables: `language de` or "
                         "`language en` keeps a choice.").format(name=name))
        return
    lang = lang.lower()
    write_setting(root, None if lang == "auto" else lang)
    chosen = None if lang == "auto" else lang
    if chosen:
        languages.set_language(chosen)
    else:
        languages._process = None
    with using(language()):
        name = languages.LANGUAGES.get(language(), language())
        click.echo(_("Now speaking {name} on this laptop.").format(name=name))


def help_text(text: str | None) -> str | None:
    """A command's or an option's help in the viewer's language. Helps are marked with ``N_`` where
    they are declared (commands' ``help=N_(...)``, a game's ``Move``/``Param`` help in its package)
    and kept in English on the command; Click reads them at format time through this."""
    if not text or languages.language() == languages.ENGLISH:
        return text
    import inspect

    clean = inspect.cleandoc(text)
    translated = languages.gettext(clean)
    return translated if translated != clean or languages.language() == languages.PSEUDO else languages.gettext(text)


def _translating(method, *names):
    """``method`` of a Click class run with the helps ``names`` of its object translated."""

    def run(self, *args, **kwargs):
        saved = {name: getattr(self, name, None) for name in names}
        values = getattr(self, "help_values", None)  # a help with {placeholders}: filled in once translated
        if (languages.language() == languages.ENGLISH and not values) or not any(saved.values()):
            return method(self, *args, **kwargs)
        try:
            for name, value in saved.items():
                if value:
                    setattr(self, name, help_text(value).format(**values) if values else help_text(value))
            return method(self, *args, **kwargs)
        finally:
            for name, value in saved.items():
                setattr(self, name, value)

    run.__wrapped__ = method
    return run


def speak_helps() -> None:
    """Click's help pages, its list of commands and Tab's descriptions read each help through
    :func:`help_text` (once per process)."""
    if getattr(click.Command.format_help_text, "__wrapped__", None):
        return
    click.Command.format_help_text = _translating(click.Command.format_help_text, "help")
    click.Command.format_epilog = _translating(click.Command.format_epilog, "epilog")
    click.Command.get_short_help_str = _translating(click.Command.get_short_help_str, "help", "short_help")
    click.Option.get_help_record = _translating(click.Option.get_help_record, "help")
