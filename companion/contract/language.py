"""The players' language (issue 28): every message a person reads passes a catalogue here.

A message is written whole, in English, with named placeholders, and marked for extraction:
``_("{name} builds {count} rails").format(name=..., count=...)``, ``ngettext("{n} game",
"{n} games", n).format(n=n)``. Babel's ``pybabel extract`` finds them (babel.cfg), and the
German catalogue ``companion/locale/de/LC_MESSAGES/companion.po`` gives each its German
sentence, reordered as German needs. A text kept in a constant is marked with :func:`N_` and
translated where it is shown, so it speaks the viewer's language, not the importer's.

The language is per viewer, not per process: the terminal chooses one for its process (``--lang``,
the data folder's setting, the locale variables), and each phone page its own (its switch, then
its browser's ``Accept-Language``). :func:`using` sets it for what runs inside (a request, a
stream's frame), on a context variable, so two pages of one server render in their own
languages at once. Unknown languages fall back to English, and English needs no catalogue at all:
``--version`` and ``status`` in English load nothing.

Nothing another program reads is translated: ``--json`` keys and values, export formats, file
names, ids and commands keep their form.
"""

from __future__ import annotations

import contextlib
import contextvars
import os

ENGLISH = "en"
LANGUAGES = {"en": "English", "de": "Deutsch"}  # the ones with a catalogue (English is the source)
# A test language: every message accented and made 40% longer, so any English that bypasses the
# catalogue shows, and the screens are tried at the length German needs (never offered to users).
PSEUDO = "xx"
DOMAIN = "companion"
# (a str: pathlib is imported only when a catalogue is read; English, and `--version`, never do)
LOCALE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "locale")

_process: str | None = None  # the terminal's choice, made when first needed (see resolver)
# Set by the terminal: the process's language from its command line, data folder and locale
# variables, asked the first time a message is translated (``--version`` never asks).
resolver = None
_viewer: contextvars.ContextVar[str | None] = contextvars.ContextVar("companion_language", default=None)


def language() -> str:
    """The language of what is being made now: the viewer's if one is set, else the process's."""
    return _viewer.get() or _process or _resolve()


def _resolve() -> str:
    global _process
    if _process is None:
        try:
            _process = known(resolver()) if resolver else None
        except Exception:  # noqa: BLE001 - an unreadable setting is no reason to stop: English
            _process = None
        _process = _process or ENGLISH
    return _process


def set_language(lang: str | None) -> str:
    """Make ``lang`` the process's language (the terminal's); an unknown one is English."""
    global _process
    _process = known(lang) or ENGLISH
    return _process


@contextlib.contextmanager
def using(lang: str | None):
    """What runs inside speaks ``lang`` (a page's request, one stream's frame, a report)."""
    token = _viewer.set(known(lang) or ENGLISH)
    try:
        yield
    finally:
        _viewer.reset(token)


def for_the_rest(lang: str | None) -> None:
    """What runs after this, until the present context ends, speaks ``lang``: a command line runs
    in a context of its own (the terminal's root group copies one for each), so `--json`'s English
    ends with its command even when Click stops at a usage error without closing anything."""
    _viewer.set(known(lang) or ENGLISH)


def known(lang: str | None) -> str | None:
    """``lang`` as one of ours (``de_DE.UTF-8``, ``de-AT`` and ``DE`` are German), or None."""
    if not lang:
        return None
    code = str(lang).strip().replace("-", "_").split(".")[0].split("@")[0].split("_")[0].lower()
    return code if code in LANGUAGES or code == PSEUDO else None


def from_environment(environ=None) -> str | None:
    """The language the locale variables ask for, in POSIX's order (``LANGUAGE`` is a list, tried
    in turn; ``LC_ALL`` then ``LC_MESSAGES`` then ``LANG``). "C" and "POSIX" are English."""
    environ = os.environ if environ is None else environ
    for part in (environ.get("LANGUAGE") or "").split(":"):
        if known(part):  # (``LANGUAGE=xx``: the tests' pseudo-language)
            return known(part)
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value:
            return known(value) or ENGLISH
    return None


def from_accept_language(header: str | None) -> str:
    """The best of ours in a browser's ``Accept-Language`` (``de-DE,de;q=0.9,en;q=0.8``), by its
    weights; English when it names none of ours."""
    best, best_q = ENGLISH, -1.0
    for i, part in enumerate((header or "").split(",")[:32]):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        lang = known(tag) if known(tag) != PSEUDO else None
        if lang and q > best_q and q > 0:
            best, best_q = lang, q - i * 1e-6  # the first of equal weights wins
    return best


# -- the catalogues --------------------------------------------------------------------------------

_loaded: dict = {}


class Catalogue:
    """One language's messages of one domain (the companion's, or a plugin's own)."""

    def __init__(self, table: dict, plural=None):
        self.table = table
        self.plural = plural or (lambda n: int(n != 1))

    def gettext(self, message: str) -> str:
        return self.table.get(message) or message

    def ngettext(self, singular: str, plural: str, n) -> str:
        found = self.table.get((singular, self.plural(n)))
        if found:
            return found
        return singular if n == 1 else plural


def sources(lang: str, domain: str = DOMAIN, folder=None) -> list:
    """The ``.po`` files of ``domain`` in ``lang``: the companion's catalogue is kept in parts, one
    per part of the house (``locale/de/terminal.po``, ``locale/de/web.po``, ...), so that each
    part's messages are translated beside the others'; a plugin's is the usual
    ``locale/de/LC_MESSAGES/<domain>.po``."""
    from pathlib import Path

    ours = folder is None or str(folder) == LOCALE_DIR
    folder = Path(folder or LOCALE_DIR)
    own = folder / lang / "LC_MESSAGES" / f"{domain}.po"
    parts = sorted((folder / lang).glob("*.po")) if domain == DOMAIN and ours else []
    return parts + ([own] if own.is_file() else [])


def catalogue(lang: str, domain: str = DOMAIN, folder=None) -> Catalogue | None:
    """The catalogue of ``domain`` in ``lang`` from ``folder`` (a package's ``locale``), read once:
    the compiled ``.mo`` when the package was built (and no source is newer), else its ``.po``
    sources. None: no such catalogue."""
    key = (lang, domain, str(folder or LOCALE_DIR))
    if key not in _loaded:
        from pathlib import Path

        folder = Path(folder or LOCALE_DIR)
        mo = folder / lang / "LC_MESSAGES" / f"{domain}.mo"
        found = None
        if mo.is_file():
            newest = max((p.stat().st_mtime for p in sources(lang, domain, folder)), default=0)
            if mo.stat().st_mtime >= newest:
                import gettext

                with mo.open("rb") as f:
                    t = gettext.GNUTranslations(f)
                found = Catalogue(t._catalog, t.plural)
        if found is None:
            found = _from_sources(sources(lang, domain, folder))
        _loaded[key] = found
    return _loaded[key]


def _from_sources(paths: list) -> Catalogue | None:
    if not paths:
        return None
    from companion.contract import catalogue as po_files

    table, header = {}, ""
    for path in paths:
        entries = po_files.read_po(path)
        header = header or next((e.get("msgstr", "") for e in entries if e["msgid"] == ""), "")
        table.update(po_files.catalog(entries))
    return Catalogue(table, po_files.plural_rule(header))


def _(message: str) -> str:
    """``message`` in the language of what is being made now."""
    if not message:  # (an empty text is no message: the catalogue's "" is its header)
        return message
    lang = _viewer.get() or _process or _resolve()
    return message if lang == ENGLISH else _other(lang, message, message)


def _other(lang: str, key: str, english: str) -> str:
    """The text of ``key`` in ``lang`` (not English): the companion's catalogue, then the
    plugins', then the English itself."""
    if lang == PSEUDO:
        return pseudo(english)
    found = catalogue(lang)
    return (found.table.get(key) if found else None) or _from_plugins(lang, key) or english


gettext = _

# The plugins' own catalogues (each :class:`Messages` made), asked for a message the companion's
# lacks: a plugin's declared texts (a move's help, a phone's label), marked with ``N_`` and
# translated by the companion where they are shown, speak the plugin's German too.
_plugins: list = []


def _from_plugins(lang: str, message: str) -> str | None:
    for plugin in _plugins:
        own = plugin._own(lang)
        found = own.table.get(message) if own else None
        if found:
            return found
    return None


def ngettext(singular: str, plural: str, n) -> str:
    """The form of a counted message for ``n`` (German and English: one, else many)."""
    lang = _viewer.get() or _process or _resolve()
    if lang == ENGLISH:
        return singular if n == 1 else plural
    if lang == PSEUDO:
        return pseudo(singular if n == 1 else plural)
    found = catalogue(lang)
    return found.ngettext(singular, plural, n) if found else (singular if n == 1 else plural)


def pgettext(context: str, message: str) -> str:
    """``message`` where the same English word needs two translations (``"month"``, ``"May"``)."""
    lang = _viewer.get() or _process or _resolve()
    return message if lang == ENGLISH else _other(lang, context + "\x04" + message, message)


def N_(message: str) -> str:
    """Mark ``message`` for extraction, untranslated: it is translated with :func:`_` where it is
    shown (a constant's text speaks the viewer's language, not the importer's)."""
    return message


class Messages:
    """A plugin's own catalogue: ``_ = Messages(Path(__file__).parent / "locale", "tricks").gettext``.

    Its messages are looked up in the plugin's catalogue for the viewer's language, then in the
    companion's, then left in English: a plugin speaks German where it ships German."""

    def __init__(self, folder, domain: str):
        self.folder, self.domain = str(folder), domain
        if not any((p.folder, p.domain) == (self.folder, domain) for p in _plugins):
            _plugins.append(self)

    def _own(self, lang: str) -> Catalogue | None:
        return catalogue(lang, self.domain, self.folder)

    def gettext(self, message: str) -> str:
        lang = language()
        if lang in (ENGLISH, PSEUDO):
            return _(message)
        own = self._own(lang)
        return own.gettext(message) if own and message in own.table else _(message)

    def ngettext(self, singular: str, plural: str, n) -> str:
        lang = language()
        if lang in (ENGLISH, PSEUDO):
            return ngettext(singular, plural, n)
        own = self._own(lang)
        if own and (singular, own.plural(n)) in own.table:
            return own.ngettext(singular, plural, n)
        return ngettext(singular, plural, n)


# -- the pseudo-language ---------------------------------------------------------------------------

_ACCENTED = str.maketrans("aceinorsuyACEINORSUY", "àçéîñöŕšûýÀÇÉÎÑÖŔŠÛÝ")


def pseudo(message: str) -> str:
    """``message`` accented and 40% longer, its placeholders (``{name}``, ``%(prog)s``), markup
    (``<b>``, ``&amp;``) and commands in backquotes kept as they are."""
    out, i, kept = [], 0, 0
    while i < len(message):
        c = message[i]
        end = {"{": "}", "<": ">", "&": ";", "`": "`"}.get(c)
        if c == "%" and i + 1 < len(message) and message[i + 1] == "(":
            end = ")"
        if end:
            j = message.find(end, i + 1)
            if j != -1 and (c != "&" or j - i < 10):
                j = j + 2 if c == "%" else j + 1
                out.append(message[i:j])
                i = j
                continue
        out.append(c.translate(_ACCENTED))
        kept += c.isalpha()
        i += 1
    if not kept:
        return message
    return "".join(out) + "·" * max(1, round(kept * 0.4))
