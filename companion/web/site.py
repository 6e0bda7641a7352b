"""The web application: routes, tokens, headers, the one kind of write, the access log.

Routes (TOKEN is a link's secret, see :mod:`companion.web.tokens`):

- ``GET /t/TOKEN``: the table page; ``GET /p/TOKEN``: a player's page;
- ``GET /t/TOKEN/live``, ``GET /p/TOKEN/live``: the page's stream of server-sent events, which
  tells the page its new version whenever what it shows changed (:mod:`companion.web.live`);
- ``GET /t/TOKEN/v``, ``GET /p/TOKEN/v``: the page's version now (the same value, asked once);
- ``POST /p/TOKEN/choose``: a move made on that player's page (the only write).

A page's version is a keyed hash of the page itself: it changes when, and only when, what that
page shows changes, and it says nothing else (issue 22, S1). Pages are drawn once per version of
the session file and kept until it changes.

Before any route, the front door (:meth:`Site._front`) refuses a request whose Host is not the
server's own address or name (400: DNS rebinding, S6), limits how often a player may post, adds
the strict :data:`HEADERS` to every response, and writes the access log: the route's name
(``player page``, ``table live``, ``unknown``...) and the status, never a path, so no spelling of
an address can carry a token into it (S3). Anything else, and any wrong, missing or replaced
token, gets the same 404, slowed down for an address that keeps guessing.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import threading
import time
from collections import OrderedDict
from html import escape
from pathlib import Path
from typing import Callable, Iterable

from starlette.applications import Starlette
from starlette.responses import HTMLResponse, Response
from starlette.routing import Match

from companion.contract import language
from companion.contract.language import _
from companion.core import logs
from companion.core.app import App
from companion.contract.errors import CompanionError, MissingValue, ValueConflict
from companion.core import shared_log
from companion.core.store import ALIAS_FILE, file_signature
from companion.core.titles import FILE as TITLES_FILE
from companion.web import connections, languages, limits, live, pages, tokens
# the routes' own bounds, importable from here as before
from companion.web.routes import ANY, MAX_BODY, MAX_DELAYED, MAX_FIELDS, ascii_count  # noqa: F401

PAGES_KEPT = 64  # pages drawn and kept (each viewer's page, each board view of it), least recently asked first out
PAGE_CHARS_KEPT = 8 * 1024 * 1024  # characters of kept pages at most (a Trans page with its board: ~70,000)
SEEN_KEPT = 2048  # forms whose offers are kept to judge a late post against (a few per page and version)
FREE_GUESSES = 10  # wrong tokens an address may try before each 404 is slowed down
GUESS_WINDOW = 600.0  # seconds after which an address's count of wrong tokens is forgotten
MAX_DELAY = 5.0
DOUBLINGS = 6  # 0.1 s doubled this often is past MAX_DELAY: the exponent never grows further
HEADERS = {
    "Content-Security-Policy": pages.CSP,
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}
# Every route takes every method and answers a wrong one itself, after the token check: a
# wrong method on a wrong token is the same 404 as anything else.
TOKEN_ANYWHERE = re.compile(r"/([pt])/[A-Za-z0-9_-]{16,}")
METHODS = {"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"}  # any other is logged as "other"
LOCAL_NAMES = ("127.0.0.1", "localhost")
VERSION_SLOT = "{version}"  # where a page's own version goes, once the page is drawn


def host_name(value: str) -> str | None:
    """The name in a Host header, lower case, without its port (None when it is not one)."""
    value = value.strip().lower()
    if value.startswith("["):  # an IPv6 literal
        name, _, rest = value[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else rest
    else:
        name, _, port = value.partition(":")
    if not name or (port and not port.isdigit()):
        return None
    return name.rstrip(".")


def head_size(scope) -> int:
    """The bytes of a request's head as it came: its request line and every header line.

    uvicorn's limit (h11's ``max_incomplete_event_size``) holds only for a head still
    incomplete after a read, and one read takes up to 64 KiB: a 65 KB head, or 10,000 header
    lines, sent at once passed it (issue 29, D3). This counts the head h11 has read, however
    it arrived."""
    line = len(scope.get("method", "")) + len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"") + 12
    return line + sum(len(k) + len(v) + 4 for k, v in scope.get("headers") or ())


def on_laptop(make: Callable[[], str]) -> str:
    """What ``make`` says, in the laptop's language (its process's), not in the language of the
    phone whose request is being answered: "From Ann's phone: ..." is told to the laptop."""
    import contextvars

    return contextvars.Context().run(make)


class _Answer(Exception):
    """What a post is answered instead of being recorded: (text, HTTP status, the page's
    address): a refusal, a preview, or the picker of a tap between several choices."""

    def __init__(self, text: str, status: int, then: str):
        super().__init__(text)
        self.answer = (text, status, then)


class _Stale(CompanionError):
    """The session changed between the page's reading and the locked write."""


class _Refused(CompanionError):
    """Under the lock, the player may no longer make the move (another phone was first)."""


class Guesses:
    """Counts wrong tokens per address; past :data:`FREE_GUESSES` every 404 waits longer."""

    def __init__(self) -> None:
        self.seen: dict[str, tuple[int, float]] = {}
        self.lock = threading.Lock()

    def delay(self, address: str) -> float:
        now = time.monotonic()
        with self.lock:
            count, first = self.seen.get(address, (0, now))
            if now - first > GUESS_WINDOW:
                count, first = 0, now
            count += 1
            if len(self.seen) > 10_000:  # an address flood must not grow memory without end
                self.seen.clear()
            self.seen[address] = (count, first)
        if count <= FREE_GUESSES:
            return 0.0
        # the power is capped before it is computed: 2 ** 1025 is past any float (issue 29, D7)
        return min(MAX_DELAY, 0.1 * 2 ** min(count - FREE_GUESSES - 1, DOUBLINGS))


class Site:
    """One session served: reads the data folder on each request, renders per file version."""

    def __init__(self, data_dir: Path, sid: str, notify: Callable[[str], None] | None = None,
                 access_log: Path | None = None, hosts: Iterable[str] = LOCAL_NAMES):
        self.data_dir = Path(data_dir)
        self.sid = sid
        self.notify = notify
        self.guesses = Guesses()
        self.delayed = 0  # slowed 404s waiting now
        self._slowed: set = set()  # their wake-ups (asyncio futures), ended at once when the server stops
        self.posts = limits.Rate()
        self.hosts = {h.lower().rstrip(".") for h in hosts}  # the names a request may use (S6)
        self.live = live.Live(self)
        self.guard = None  # the server's connections.Guard, once a server runs this site
        self.root = self.data_dir
        self.secret = tokens.server_secret(self.root)
        self.log_path = access_log if access_log is not None else tokens.web_dir(self.root) / "access.log"
        self.repeats = logs.Repeats()
        self._known: tuple[object, dict[str, str]] = (-1, {})
        self._cache: OrderedDict[tuple, tuple[str, str]] = OrderedDict()  # (state, viewer, view) -> page
        self._cache_chars = 0
        self._cache_key: object = None
        self._render_lock = threading.Lock()
        self._flights: dict[tuple[str, str], threading.Lock] = {}
        self._load_lock = threading.Lock()
        self._seen: OrderedDict = OrderedDict()  # (player, move, digest) -> what a form offered
        self._seen_lock = threading.Lock()
        self._warned: dict[str, tuple[tuple, str]] = {}  # player -> (the files' signature, a warning to show)
        self._following: dict[str, tuple] = {}  # player -> a follow-up waiting for a printed value (issue 31)
        self.reader = App(self.data_dir, session_override=sid)  # reads and records as a command does
        self.app = self._build()

    # -- wrong guesses, slowed down ------------------------------------------------------------

    async def slow_down(self, seconds: float) -> None:
        """Wait ``seconds`` before a wrong guess's answer, or less if the server stops meanwhile
        (:meth:`stop_slowing`): a stop never waits for the guesses, and never cancels them, which
        made uvicorn print a traceback for each one still waiting (issue 29)."""
        import asyncio

        loop = asyncio.get_running_loop()
        woken = loop.create_future()
        timer = loop.call_later(seconds, lambda: woken.done() or woken.set_result(None))
        self._slowed.add(woken)
        try:
            await woken
        finally:
            timer.cancel()
            self._slowed.discard(woken)

    def stop_slowing(self) -> None:
        """The server stops: every wrong guess still waiting is answered now."""
        for woken in list(self._slowed):
            if not woken.done():
                woken.set_result(None)

    # -- reading the data folder -------------------------------------------------------------
    def session_file(self) -> Path:
        return self.data_dir / "sessions" / f"{self.sid}.json"

    def journal_files(self) -> list[Path]:
        """The session's devices' journals (issue 30), this laptop's among them even before it
        exists: appended to by every action."""
        from companion.core.device import device_id
        from companion.core.journals import journal_path

        store = self.reader.store
        mine = journal_path(store.sessions_dir, self.sid, device_id(store))
        return sorted(set(store.journal_paths(self.sid)) | {mine})

    def tokens_file(self) -> Path:
        return tokens.tokens_path(self.root)

    def signature(self) -> tuple:
        """What tells one state of the served files from the next: the session file's and the
        links file's (inode, size, time), and the names' and titles' (a rename or a title's late
        BoardGameGeek id changes the BG Stats link, issue 29). Internal: never sent (it carries
        the file's size)."""
        return (self.reader.store.signature(self.sid), file_signature(tokens.tokens_path(self.root)),
                *(tuple(map(tuple, shared_log.signature(self.reader.store, name, old)))  # (hashable)
                  for name, old in (("players", ALIAS_FILE), ("titles", TITLES_FILE))),
                file_signature(self.reader.store.userdata_path))  # a printed value kept (issue 31): scores known

    def version_of(self, who: str) -> str:
        """The version of ``who``'s page (:data:`tokens.TABLE` or a player): a keyed hash of
        that page as it is drawn now, so it changes exactly when the page does."""
        return self.render(who)[1]

    def version(self, who: str = tokens.TABLE) -> str:
        return self.version_of(who)

    def _tokens_stamp(self):
        return file_signature(tokens.tokens_path(self.root))

    def known(self) -> dict[str, str]:
        """This session's tokens (re-read when `serve --new-links` replaced them)."""
        stamp = self._tokens_stamp()
        if stamp != self._known[0]:
            self._known = (stamp, tokens.known(self.root, self.sid))
        return self._known[1]

    def whose(self, token: str) -> str | None:
        return tokens.find(self.known(), token)

    # -- the seats (issue 31: one code for the table) ----------------------------------------------
    def take_seat(self, player: str) -> bool:
        """``player``'s seat taken (their own link was opened): True if it was free until now."""
        from companion.web import seats

        if player in seats.taken(self.root, self.sid):
            return False
        return seats.take(self.root, self.sid, player)

    def join_page(self, token: str, said: str = "") -> str:
        """The choosing page of the table's code: the seats still free (names only)."""
        from companion.web import seats

        try:
            s, _replay = self.load()
        except CompanionError:
            return pages.error_page("Tabletop Companion", self.unreadable())
        title = _((s.meta.get("options") or {}).get("title") or s.game.title)
        return pages.join_page(title, list(s.players), seats.taken(self.root, self.sid),
                               f"/t/{token}/join", f"/t/{token}", said)

    def join(self, token: str, seat: str) -> tuple[str | None, str]:
        """Take ``seat`` for the phone that chose it: (that player's link token, what the laptop
        is told), or (None, the choosing page saying why not: taken, or no such player)."""
        from companion.contract.language import _
        from companion.web import seats

        try:
            s, _replay = self.load()
        except CompanionError:
            return None, pages.error_page("Tabletop Companion", self.unreadable())
        known = self.known()
        if seat not in s.players or seat not in known:
            return None, self.join_page(token, _("Choose your name with one of the buttons."))
        if not seats.take(self.root, self.sid, seat):
            return None, self.join_page(token, _("{name}'s seat is already taken: choose your own name, or ask at "
                                                 "the laptop to free it.").format(name=seat))
        return known[seat], _("{name}'s phone has joined the table.").format(name=seat)

    def load(self):
        """(session, replay) as the file holds them now: the same load and replay as every
        command (App.loaded: kept while the file is unchanged, extended by appended actions,
        deal contexts checked), so a page never replays on its own terms."""
        with self._load_lock:
            return self.reader.loaded(self.sid)

    def move_token(self, player: str, move: str, own: int, choices: dict) -> str:
        """The form token of ``move`` on ``player``'s page, written ``OWN.SEEN.MAC``: ``own`` is
        how many of the journal's entries are the player's moves (or undo one: see
        ``declare.own_moves``), ``seen`` a digest of what the form offered (each option with its
        note: a price, a cost), and the MAC (HMAC-SHA-256 with the server's secret) binds both
        to the session, the player and the move. What the form offered is kept here a while,
        so that a post can be judged against the page it came from (:meth:`_stale`)."""
        seen = self._digest(choices)
        with self._seen_lock:
            self._seen[(player, move, seen)] = choices
            self._seen.move_to_end((player, move, seen))
            while len(self._seen) > SEEN_KEPT:
                self._seen.popitem(last=False)
        return f"{own}.{seen}.{self._mac(player, move, own, seen)}"

    @staticmethod
    def _digest(choices: dict) -> str:
        import json

        return hashlib.sha256(json.dumps(choices, sort_keys=True, ensure_ascii=False, default=str)
                              .encode()).hexdigest()[:16]

    def _mac(self, player: str, move: str, own: int, seen: str) -> str:
        msg = f"{self.sid}|{player}|{move}|{own}|{seen}".encode()
        return hmac.new(self.secret, msg, "sha256").hexdigest()[:32]

    def _stale(self, form: str, player: str, move: str, own: int, choices: dict, posted: dict) -> str:
        """Why a post of ``move``'s form (token ``form``, values ``posted`` per parameter) from
        ``player``'s page may not be recorded now ('': it may).

        The token must be one this server drew for this player and move. It is stale when the
        player has moved since (or had a move taken back: a form sent twice records once), or
        when what the player chose changed since the page showed it (a ship the market moved to
        another price, a line built meanwhile). Anything else recorded meanwhile, a note, another
        player's move, a change to options the player did not choose, leaves it good (issue 22:
        a phone's choice is not starved by unrelated writes)."""
        said, seen, mac = (form.split(".") + ["", "", ""])[:3]
        if not ascii_count(said) or not hmac.compare_digest(mac.encode(), self._mac(player, move, int(said), seen).encode()):
            return _("This page's form is not one this laptop drew for you: reload the page and choose again.")
        if int(said) != own:
            return _("This page was out of date (that move was made, or taken back, since it was drawn): "
                     "nothing more was recorded. Here is the page as it is now.")
        if seen == self._digest(choices):
            return ""
        with self._seen_lock:
            shown = self._seen.get((player, move, seen))
        if shown is None:
            return _("This page was out of date (something was recorded since): look again and choose.")
        for name, values in posted.items():
            then, now = dict(shown.get(name) or []), dict(choices.get(name) or [])
            for value in values:
                if value in then and value not in now:
                    return _("{value} is no longer there to choose (it changed since this page was drawn): look "
                             "again.").format(value=value)
                if value in then and then[value] != now[value]:
                    return _("{value} has changed since this page was drawn ({then}, now {now}): look again and "
                             "choose.").format(value=value, then=then[value], now=now[value])
        return ""

    # -- rendering ------------------------------------------------------------------------------
    def render(self, who: str, extra: str = "", view=None, lang: str | None = None) -> tuple[str, str]:
        """(html, version) of ``who``'s page (:data:`tokens.TABLE` or a player), showing the part
        of the board ``view`` asks for (its zoom and centre); drawn once per state of the session
        file and view, however many phones ask at the same moment. A refusal shown on the page
        (``extra``) is never kept, and carries the page's own version, so that the live channel
        does not replace it before anything changed. In ``lang`` (default: the language of the
        request being answered): each language's page is drawn and kept apart."""
        lang = lang or language.language()
        with language.using(lang):
            return self._render_kept(who, extra, view, lang)

    def _render_kept(self, who: str, extra: str, view, lang: str) -> tuple[str, str]:
        key = self.signature()
        part = view.key() if view is not None else ""
        slot = (key, who, part, lang)
        with self._render_lock:
            if self._cache_key != key:
                self._cache.clear()
                self._cache_chars = 0
                self._flights.clear()
                self._cache_key = key
            kept = self._cache.get(slot)
            if kept is not None:
                self._cache.move_to_end(slot)
            flight = self._flights.setdefault(slot, threading.Lock()) if kept is None else None
        if flight is not None:
            with flight:  # the first asker draws; the others wait for it and take its page
                with self._render_lock:
                    kept = self._cache.get(slot)
                if kept is None:
                    kept = self._versioned(self._render(who, VERSION_SLOT, "", view))
                    with self._render_lock:
                        if self._cache_key == key:
                            self._keep(slot, kept)
            with self._render_lock:
                if self._flights.get(slot) is flight:
                    del self._flights[slot]
        html, version = kept
        if extra:
            html = self._scrub(self._render(who, VERSION_SLOT, extra, view)).replace(VERSION_SLOT, escape(version), 1)
        return html, version

    def _keep(self, slot, kept: tuple[str, str]) -> None:
        """Keep a drawn page, the least recently asked ones going first past :data:`PAGES_KEPT`
        pages or :data:`PAGE_CHARS_KEPT` characters (each board view of a page is a page of
        its own: issue 29, D2). Called under the render lock."""
        old = self._cache.pop(slot, None)
        if old is not None:
            self._cache_chars -= len(old[0])
        self._cache[slot] = kept
        self._cache_chars += len(kept[0])
        while len(self._cache) > 1 and (len(self._cache) > PAGES_KEPT or self._cache_chars > PAGE_CHARS_KEPT):
            _slot, gone = self._cache.popitem(last=False)
            self._cache_chars -= len(gone[0])

    @staticmethod
    def for_token(html: str, token: str) -> str:
        """A player's page as its own link serves it (its forms post to that link)."""
        return html.replace("/p/{token}", f"/p/{token}")  # its forms and links (choose, history)

    def _versioned(self, html: str) -> tuple[str, str]:
        """The page with its version in place: a keyed hash of the page drawn (its form token
        included), so two pages are the same version only when they are the same bytes."""
        html = self._scrub(html)
        version = hmac.new(self.secret, b"page\0" + html.encode("utf-8"), "sha256").hexdigest()[:24]
        return html.replace(VERSION_SLOT, version, 1), version

    def _scrub(self, html: str) -> str:
        """No page names where the data folder is on the laptop (its path holds the user's
        name, issue 22, S5): the session's file is named as the session, any other file of
        the folder by its name inside it."""
        for path, said in ((self.session_file(), _("session {sid}'s file").format(sid=self.sid)),
                           (self.data_dir, _("the data folder"))):
            # the whole path only, however it was given: a folder given as `--data-dir d` is
            # "d" as given, and each letter d of the page became "the data folder"
            for spelling in {os.path.abspath(path), os.path.realpath(path)}:
                html = html.replace(escape(spelling), said).replace(spelling, said)
        return html

    def snapshot(self, version: str | None = None):
        """(session, replay) for the pages (see :meth:`load`)."""
        return self.load()

    def unreadable(self) -> str:
        return _("Session {sid} cannot be read just now: its file is damaged or was moved. The laptop says "
                 "what to do: type `status` there.").format(sid=self.sid)

    def _render(self, who: str, version: str, extra: str, view=None) -> str:
        from companion.web import views

        try:
            s, replay = self.snapshot(version)
        except CompanionError:
            return pages.page(title="Tabletop Companion", heading="Tabletop Companion", lines=[self.unreadable()],
                              version=version, sections=[])
        if who == tokens.TABLE:
            return views.table_page(s, replay, version, host=self.reader)

        def token(move: str, own: int, choices: dict) -> str:
            return self.move_token(who, move, own, choices)

        return views.player_page(s, replay, who, version, token, "/p/{token}/choose", extra, view=view,
                                 host=self.reader)

    # -- the log -------------------------------------------------------------------------------
    def log(self, scope, route: str, status: int, started: float) -> None:
        """One line per request: time, address, method, the route's name and the status. Never
        a path or a query: whatever a client sends as its address, nothing of it is written."""
        client = scope.get("client")
        address = client[0] if client else "-"
        method = scope.get("method", "")
        line = (f"{time.strftime('%Y-%m-%dT%H:%M:%S')} {address} {method if method in METHODS else 'other'} "
                f"{route} {status} {1000 * (time.perf_counter() - started):.1f}ms\n")
        logs.append(self.log_path, line)

    def log_error(self) -> None:
        """An unexpected error's traceback into the data folder's errors.log, tokens left out;
        the same error again is counted, not written again (:mod:`companion.core.logs`)."""
        import traceback

        text = traceback.format_exc()
        for token in self.known().values():
            text = text.replace(token, "~")
        text = TOKEN_ANYWHERE.sub(lambda m: f"/{m.group(1)}/~", text)
        entry = logs.error_entry(f"{time.strftime('%Y-%m-%dT%H:%M:%S')} companion serve", text,
                                 self.repeats.count(text))
        if entry is not None:
            logs.append(self.reader.store.error_log_path, entry)

    def failure(self, exc: BaseException) -> str:
        """The page shown when drawing a page or recording on it failed: the plugin whose code
        raised, named with its distribution as the terminal names it (never "inside companion"
        for a plugin's fault), else the companion's own failure."""
        from companion.core import plugins

        try:
            game = self.load()[0].meta["game"]
        except Exception:  # noqa: BLE001 - a session that does not load: the traceback may still name the plugin
            game = None
        try:
            parts = plugins.at_fault(exc, game)
        except Exception:  # noqa: BLE001 - never fail while saying what failed
            parts = None
        if parts is None:
            return pages.error("server error")
        said = plugins.failed(parts, exc)
        return pages.error_page(_("Something went wrong"), _(
            "{failure}; nothing more was recorded: tell the game's author (the laptop's errors.log says what "
            "happened).").format(failure=said[:1].upper() + said[1:]))

    # -- the application ------------------------------------------------------------------------
    def _build(self) -> Starlette:
        from companion.web.routes import build

        return self._front(*build(self))

    def route_of(self, app: Starlette, scope) -> tuple[str, dict]:
        """(the route's name, its path parameters) for a request: the name is one of the
        routes' own, or "unknown"; it is all the access log says of the address."""
        for route in app.routes:
            match, child = route.matches(scope)
            if match in (Match.FULL, Match.PARTIAL):
                return route.name, child.get("path_params", {})
        return "unknown", {}

    def host_allowed(self, scope) -> bool:
        """Is the request addressed to this server by its own address or name? (A page served
        to another name would let a web site the phone visits read it: DNS rebinding.)"""
        for key, value in scope.get("headers") or ():
            if key == b"host":
                name = host_name(value.decode("latin-1"))
                return name is not None and name in self.hosts
        return False

    def _front(self, app: Starlette, too_many):
        """The ASGI application the server runs: the Host check, the posts' rate, the strict
        headers, the access log, a bug kept off the screen, and the live channel told at once
        of a move recorded here."""
        site = self
        ours = {h.lower() for h in HEADERS}
        extra = [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]

        async def asgi(scope, receive, send):
            if scope["type"] != "http":
                return await app(scope, receive, send)
            started = time.perf_counter()
            seen: dict = {}
            route, params = site.route_of(app, scope)
            lang = languages.of_request(scope)  # the page's switch, its cookie, its browser's language
            headers_now = extra
            page = site.whose(params.get("token", "")) if route in ("table page", "player page") else None
            if page is not None and (page == tokens.TABLE) == (route == "table page") and languages.switched(scope):
                # the switch remembered for this page's address (its stream and its posts lie under it)
                where = f"/{'t' if route == 'table page' else 'p'}/{params['token']}"
                headers_now = extra + [(b"set-cookie", languages.cookie(lang, where))]

            async def send_with_headers(message):
                if message["type"] == "http.response.start":
                    seen["status"] = message["status"]
                    headers = [(k, v) for k, v in message.get("headers", []) if k.decode().lower() not in ours]
                    message = dict(message, headers=headers + headers_now)
                await send(message)

            async def answer(response: Response) -> None:
                await response(scope, receive, send_with_headers)

            with language.using(lang):  # every answer to this request speaks its page's language
                try:
                    if head_size(scope) > connections.HEAD_LIMIT:  # however the head came: at once or in pieces
                        await answer(HTMLResponse(pages.error("head too large"), status_code=431,
                                                  headers={"Connection": "close"}))
                        return
                    if not site.host_allowed(scope):
                        await answer(HTMLResponse(pages.error("bad host"), status_code=400, headers={"Connection": "close"}))
                        return
                    if route == "table join" and scope.get("method") == "POST" and not site.posts.allow(tokens.TABLE):
                        await answer(HTMLResponse(pages.error_page("Tabletop Companion", _(limits.TOO_MANY)),
                                                  status_code=429, headers={"Retry-After": "1"}))
                        return
                    if route in ("player move", "player value") and scope.get("method") == "POST":
                        who = site.whose(params.get("token", ""))
                        if who is not None and who != tokens.TABLE and not site.posts.allow(who):
                            await answer(await too_many(who, params["token"]))
                            return
                    await app(scope, receive, send_with_headers)
                except Exception as exc:  # noqa: BLE001 - a bug of ours: logged, never printed over the shell
                    from starlette.requests import ClientDisconnect

                    if not isinstance(exc, ClientDisconnect):
                        site.log_error()
                    if "status" not in seen:
                        await answer(HTMLResponse(site.failure(exc), status_code=500))
                finally:
                    if route == "player move":
                        site.live.poke()  # a move recorded (or refused) here: the pages need not wait for the poll
                    site.log(scope, route, seen.get("status", 500), started)

        return asgi

    def choose(self, player: str, given: dict) -> tuple[str, int, str]:
        """Record a move made on ``player``'s page as a typed command would: (what the laptop is
        told, or a refusal; HTTP status; the page's address to go back to, ``?z=...`` to keep
        the board as it was shown). 303: recorded; 200: shown, nothing recorded (a preview).

        The move is one the game declared for the phones and offers this player now; the actor
        is the page's own player, never a posted value; each value is read by its kind (a
        value posted is read by the one reader, as a typed one is). It is recorded through ``App.record`` (the
        write lock, the rules, the journal, so `undo` takes it back), and under the lock, on
        the state as it is there, the player must still be allowed to make it (else the page
        says why: whose turn it is) and the form's token must still be good
        (:meth:`move_token`: not made stale by the player's own moves nor by a change to what
        the form offered; anything else recorded meanwhile leaves it good)."""
        from companion.core import registry
        from companion.contract.declare import At
        from companion.web import forms

        form = (given.get("form") or [""])[0]
        wanted = (given.get("move") or [""])[0]
        if not form:
            return _("This page had no form token: reload it and choose again."), 403, ""
        try:
            s, replay = self.load()
        except CompanionError as exc:
            return exc.message, 409, ""
        parts = registry.parts(s.meta["game"])
        moves = list(parts.get("MOVES") or [])
        if wanted == forms.TAKE_BACK:
            return self.take_back(player, form, moves)
        host = App(self.data_dir, session_override=self.sid)  # records as a command does; nobody is asked
        at = At(s, replay, player, host=host)
        view = forms.PageView.from_query({k: v[0] for k, v in given.items() if k in ("z", "c")})
        try:
            move = self._posted_move(parts, moves, at, player, wanted)
            args, choices, posted = self._read_post(parts, moves, at, player, move, form, given, view)
        except _Answer as answer:  # a refusal, a preview or a tap between several choices
            return answer.answer
        return self._record_post(parts, moves, at, host, player, move, form, args, choices, posted, view)

    def _posted_move(self, parts, moves: list, at, player: str, wanted: str):
        """The declared phone move a post names (or, naming none, the one its page offers now);
        a refusal is raised as an :class:`_Answer`."""
        from companion.core import plugins
        from companion.contract.declare import At

        phone = [m for m in moves if m.phone]
        move = next((m for m in phone if m.name == wanted), None)
        if move is None and not wanted:  # a form naming no move: the one its page offers now
            s, replay, host = at.session, at.replay, at.host
            now = [m for m, _ in plugins.offers(parts, phone, at, lambda: At(s, replay, player, host=host), player)[0]]
            if not now:
                raise _Answer(_("Nothing is waiting for you now: look at the page again."), 409, "")
            move = now[0] if len(now) == 1 else None
        if move is None:
            raise _Answer(_("That is not a move you can make on this page: use its buttons."), 400, "")
        return move

    def _read_post(self, parts, moves: list, at, player: str, move, form: str, given: dict, view):
        """The move's values as posted, read by the one reader: (args, what the form offered,
        the posted fields). What to answer instead is raised as an :class:`_Answer`: a refusal,
        a preview (200), or a tap between several choices (303 to the picker)."""
        import click

        from companion.core import plugins
        from companion.contract.declare import At, offered, own_moves, refusal
        from companion.web import forms

        # a plugin's check that raises or never returns refuses this move, named (plugins.bounded)
        checked, failure = plugins.bounded(parts, move.name, lambda: (refusal(move, at, player),
                                                                      offered(move, at, player)))
        if failure is not None:
            raise _Answer(failure, 409, "")
        why, choices = checked
        if why is not None:
            raise _Answer(why, 409, "")
        posted = {p.name: [v.strip() for v in given.get(p.name) or given.get("choice") or []]
                  for p in forms.open_params(move)}
        stale = self._stale(form, player, move.name, own_moves(moves, at.session.journal, player, move), choices,
                            posted)
        if stale:
            raise _Answer(stale, 403, "")
        try:
            read = forms.read_post(at, move, choices, given, view, player)
        except forms.Unreadable as exc:
            raise _Answer(exc.message, exc.status, "") from None
        except CompanionError as exc:
            raise _Answer(exc.message, 400, "") from None
        if isinstance(read, str):  # a tap between several choices: the page offers them
            raise _Answer("", 303, read)
        args = {**read, **({move.actor: player} if move.actor else {})}
        try:
            if move.prepare is not None:
                prepared = At(at.session, at.replay, None, args, at.host)
                preview = move.prepare(prepared)
                args = prepared.args  # what prepare found (a ship's card values) goes into the event
                if preview is not None:
                    from companion.contract.view import plain

                    raise _Answer(plain(preview), 200, "")
        except MissingValue as missing:  # a printed value nobody knows: asked on this phone (issue 31)
            raise _Answer(*self.asking(player, missing, move)) from None
        except ValueConflict as clash:  # printed values that clash: the one to fix asked again
            raise _Answer(*self.asking(player, clash, move)) from None
        except CompanionError as exc:
            raise _Answer(exc.message, 409, "") from None
        except click.ClickException as exc:
            raise _Answer(exc.format_message(), 400, "") from None
        return args, choices, posted

    def _record_post(self, parts, moves: list, at, host, player: str, move, form: str, args: dict, choices: dict,
                     posted: dict, view) -> tuple[str, int, str]:
        """Record the read move through ``record_move``, checking under the lock that it is
        still this player's to make and the form still good; what the laptop and the phone are
        told."""
        from companion.core import plugins
        from companion.contract.declare import At, offered, own_moves, record_move, refusal
        from companion.contract.exit import Exit
        from companion.web import forms

        def check(locked):
            """Under the lock: still this player's to make, and the form still good."""
            mine = At(locked.session, locked.replay, player, host=host)
            checked, failure = plugins.bounded(parts, move.name, lambda: (refusal(move, mine, player),
                                                                          offered(move, mine, player)))
            said, now = checked or (failure, None)
            if said is not None:
                raise _Refused(said)
            later = self._stale(form, player, move.name, own_moves(moves, locked.session.journal, player, move),
                                now, posted)
            if later:
                raise _Stale(later)

        try:
            outcome = record_move(host, move, args, check=check)
        except _Stale as exc:
            return exc.message, 403, ""
        except MissingValue as missing:  # a printed value nobody knows: asked on this phone (issue 31)
            return self.asking(player, missing, move)
        except ValueConflict as clash:  # printed values that clash: the one to fix asked again
            return self.asking(player, clash, move)
        except CompanionError as exc:
            return exc.message, 409, ""
        warned = self.warnings(move, outcome)
        followed = self._follow(host, move, outcome, player)

        def tell_laptop() -> str:
            said = Exit(outcome.recorded.session, outcome.recorded.replay, None, moves).words(outcome.event)
            if move.private:
                return _("{player} has chosen.").format(player=player)
            told = _("From {player}'s phone: {said}.").format(player=player, said=said)
            return " ".join([told, *self.warnings(move, outcome)]) if warned else told

        told = on_laptop(tell_laptop)
        if followed:  # what followed by itself (a round the board ended, scored): a line of its own (issue 31)
            told += "\n" + followed
        if warned:  # what a typed move says as a warning is said to the phone and to the laptop
            self.warn(player, " ".join(warned))
        # a closer view stays as the player left it; the whole board does not stick (issue 31): the
        # next page opens close around the player's network again
        keep = view.query(pick=None) if view.z not in (None, 1) and any(p.kind.tap(at, p, choices.get(p.name) or []) is not None
                                            for p in forms.open_params(move) if choices.get(p.name)) else ""
        return told, 303, keep

    def asking(self, player: str, missing: MissingValue | ValueConflict, move) -> tuple[str, int, str]:
        """The answer to a move that needs a printed value nobody knows, or one given that
        clashes with another (:class:`ValueConflict`: asked again, what clashes said in a
        player's words): the question on the phone (200, nothing recorded), or the refusal
        naming `data set` when a phone cannot ask it (a value the pack does not describe)."""
        from companion.web import forms, questions

        clash = isinstance(missing, ValueConflict)
        key = missing.key if clash else questions.asked_key(self.reader, missing.game, missing.key)
        if key is None:
            return missing.message, 409, ""
        return questions.question(self.reader, self.secret, self.sid, player, missing.game, key,
                                  forms.title_of(move), "/p/{token}/value",
                                  missing.phone if clash else "", again=clash), 200, ""

    def keep_value(self, player: str, given: dict) -> tuple[str, int]:
        """A printed value answered on ``player``'s page: kept as `data set` keeps it (303 and
        what the laptop is told), or the question again with why (400)."""
        from companion.contract.language import _
        from companion.terminal import setup
        from companion.web import questions

        game, key, why, asked = questions.keep(self.reader, self.secret, self.sid, player, given)
        move = (given.get("for") or [""])[0][:200]
        if why:
            if not asked:
                return pages.message(why, "error"), 400
            return questions.question(self.reader, self.secret, self.sid, player, game, key, move,
                                      "/p/{token}/value", why), 400
        value = setup.short(self.reader.store.user_values(game).get(key, "?"))
        with self._seen_lock:
            waiting = self._following.get(player)
        told = on_laptop(lambda: _("From {name}'s phone: kept the printed value {game} {key} = {value}.").format(
            name=player, game=game, key=key, value=value))  # told to the laptop, in its language
        if waiting is not None:  # the follow-up of the player's move waited for it: recorded now
            followed = self._then(App(self.data_dir, session_override=self.sid), waiting[0], waiting[1], player)
            self.warn(player, _("Kept: {key} = {value}.").format(key=key, value=value))
            return told + ("\n" + followed if followed else ""), 303
        else:
            self.warn(player, _("Kept: {key} = {value}. Tap “{move}” again.").format(key=key, value=value, move=move))
        return told, 303

    def warnings(self, move, outcome) -> list[str]:
        """The warnings a typed move says once recorded (the lines of its ``done`` styled
        ``warn``: "that makes 4 rails' worth in Ann's turn"), to say to the phone that made it."""
        if move.done is None:
            return []
        try:
            said = move.done(outcome)
        except Exception:  # noqa: BLE001 - the move is recorded: a bug in what it says is logged, never lost
            self.log_error()
            return []
        from companion.contract.view import plain

        return [plain([b]) for b in said if getattr(b, "kind", None) == "line" and "warn" in (b.style or "").split()]

    def warn(self, player: str, text: str) -> None:
        """Show ``text`` on ``player``'s page until the session changes again (a warning about
        the move just made there)."""
        with self._seen_lock:
            self._warned[player] = (self.signature(), text)

    def warning_for(self, player: str) -> str:
        """The warning kept for ``player``'s page ('' when none, or when the session changed since),
        or the question a follow-up of their move waits for."""
        from companion.web import questions

        with self._seen_lock:
            waiting = self._following.get(player)
        if waiting is not None and waiting[5] != file_signature(self.session_file()):
            with self._seen_lock:  # something was recorded since (the laptop's `round end`): not waited for now
                self._following.pop(player, None)
            waiting = None
        if waiting is not None:
            _then, _args, game, key, title, _signature = waiting
            return questions.question(self.reader, self.secret, self.sid, player, game, key, title, "/p/{token}/value")
        with self._seen_lock:
            kept = self._warned.get(player)
            if kept is None:
                return ""
            if kept[0] != self.signature():
                del self._warned[player]
                return ""
        return pages.message(kept[1], "notice warn")

    def _follow(self, host, move, outcome, player: str | None = None) -> str:
        """The move that follows ``move`` by itself on a page (a round the board ended scores
        itself): recorded through the same path; refused, it is left to the table (its page
        says what is next)."""
        if move.then is None:
            return ""
        then, args_of = move.then
        args = args_of(outcome)
        if args is None:
            return ""
        return self._then(host, then, args, player)

    def _then(self, host, then, args: dict, player: str | None) -> str:
        """Record the follow-up ``then`` and say it in the table's words ('' when it was not
        recorded); a printed value it needs that nobody knows is asked on ``player``'s page, and
        the follow-up is recorded once it is answered (issue 31)."""
        from companion.contract.exit import Exit

        from companion.contract.declare import At, record_move

        try:
            if then.prepare is not None:
                s, replay = self.load()
                prepared = At(s, replay, None, args, host)
                then.prepare(prepared)
                args = prepared.args
            done = record_move(host, then, args)
            with self._seen_lock:
                self._following.pop(player, None)
            # told to the laptop, in its language (on_laptop), not the phone's
            return on_laptop(lambda: Exit(done.recorded.session, done.recorded.replay, None).words(done.event) + ".")
        except MissingValue as missing:
            if player is None:
                return ""
            from companion.web import forms, questions

            key = questions.asked_key(self.reader, missing.game, missing.key)
            if key is not None:
                with self._seen_lock:
                    self._following[player] = (then, args, missing.game, key, forms.title_of(then),
                                               file_signature(self.session_file()))
        except CompanionError:
            with self._seen_lock:
                self._following.pop(player, None)
        except Exception as exc:  # noqa: BLE001 - a click usage error from a question nobody can answer
            if not hasattr(exc, "format_message"):
                raise
        return ""

    def take_back(self, player: str, form: str, moves: list) -> tuple[str, int, str]:
        """Undo ``player``'s last move (and what followed it by itself) while nobody has moved
        since: checked under the session's lock, where the undo is recorded (`redo` brings it
        back); the laptop's `undo` can take back anything."""
        from companion.contract.declare import last_own
        from companion.contract.exit import Exit
        from companion.web import forms

        host = App(self.data_dir, session_override=self.sid)
        store = host.store
        with store.writing_session(self.sid):  # the lock is the session's own: step takes it again
            s, replay = host.loaded(self.sid)
            n = last_own(moves, replay.events, player)
            if not n:
                return _("Someone has moved since your last move: only the laptop can take it back now "
                         "(`undo`)."), 409, ""
            said, seen, mac = (form.split(".") + ["", "", ""])[:3]
            good = ascii_count(said) and hmac.compare_digest(mac.encode(), self._mac(player, forms.TAKE_BACK, int(said),
                                                                                  seen).encode())
            if not good:
                return _("This page's form is not one this laptop drew for you: reload the page."), 403, ""
            if int(said) != replay.count:
                return _("This page was out of date (something was recorded since): look again."), 403, ""
            event = replay.events[-n]["event"]
            said = on_laptop(lambda: Exit(s, replay, None, moves).words(event))  # told to the laptop
            for _undone in range(n):
                host.step("undo")
        return on_laptop(lambda: _("From {player}'s phone: took back: {said}.").format(player=player, said=said)), 303, ""
