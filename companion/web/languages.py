"""Each page's own language (issue 28): at one table Ann's phone can speak English while the TV
and Bob's phone speak German, from one server at the same moment.

A page's language is, first found wins: the page's switch (``?lang=de`` in its address, which
the answer remembers in a cookie for that page's address only, ``/p/TOKEN``), that cookie, then
the browser's ``Accept-Language``; English when none of them names one of ours. Every request
is made inside :func:`companion.contract.language.using` of its language (the front door,
:meth:`companion.web.site.Site._front`), and each live stream draws its pages in the language of
the page that opened it. The language never changes what a page posts (ids, values, tokens):
only the words around them.
"""

from __future__ import annotations

from html import escape
from urllib.parse import parse_qs

from companion.contract import language
from companion.contract.language import _

QUERY = "lang"  # ?lang=de: the switch on the page
COOKIE = "companion-lang"  # the switch remembered, for one page's address
KEPT = 365 * 24 * 3600  # seconds a choice is remembered


def _header(scope, name: bytes) -> str:
    for key, value in scope.get("headers") or ():
        if key == name:
            return value.decode("latin-1")
    return ""


def switched(scope) -> str | None:
    """The language the address asks for (``?lang=de``), or None."""
    try:
        query = parse_qs((scope.get("query_string") or b"").decode("latin-1"), max_num_fields=20)
    except ValueError:
        return None
    return language.known((query.get(QUERY) or [""])[0][:16])


def remembered(scope) -> str | None:
    """The language the page's cookie remembers, or None."""
    for piece in _header(scope, b"cookie").split(";")[:50]:
        name, _sep, value = piece.strip().partition("=")
        if name == COOKIE:
            return language.known(value.strip()[:16])
    return None


def of_request(scope) -> str:
    """The language of a request's answer (see the module's docstring)."""
    return switched(scope) or remembered(scope) or language.from_accept_language(_header(scope, b"accept-language"))


def cookie(lang: str, path: str) -> bytes:
    """The Set-Cookie value remembering ``lang`` for the page at ``path`` (and its stream and
    its posts, which lie under it): never sent to scripts nor to another site."""
    return f"{COOKIE}={lang}; Path={path}; Max-Age={KEPT}; SameSite=Strict; HttpOnly".encode("latin-1")


def switch() -> str:
    """The page's switch between the languages we speak, each named in its own language; the
    one spoken now is not a link."""
    now = language.language()
    links = []
    for code, name in language.LANGUAGES.items():
        if code == now:
            links.append(f'<span lang="{code}" aria-current="true">{escape(name)}</span>')
        else:
            links.append(f'<a href="?{QUERY}={code}" lang="{code}" hreflang="{code}">{escape(name)}</a>')
    label = escape(_("Language"))
    return f'<nav class="lang" aria-label="{label}">{" | ".join(reversed(links))}</nav>'
