"""The web application: routes, tokens, headers, the one kind of write, the access log.

Routes (TOKEN is a link's secret, see :mod:`companion.web.tokens`):

- ``GET /t/TOKEN``: the table page; ``GET /p/TOKEN``: a player's page;
- ``GET /t/TOKEN/v``, ``GET /p/TOKEN/v``: the page's version (the session file's mtime),
  which the page's script polls to reload itself within a second of any recorded action;
- ``POST /p/TOKEN/choose``: the choice a special card asks of that player (the only write).

Anything else, and any wrong, missing or replaced token, gets the same 404, slowed down for
an address that keeps guessing. Every response carries the strict headers of :data:`HEADERS`.
Pages are rendered once per version of the session file and kept until it changes.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import os
import re
import threading
import time
from pathlib import Path
from typing import Callable
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from companion.core.app import App
from companion.core.errors import CompanionError
from companion.web import pages, tokens

MAX_BODY = 4096  # bytes: a move's form (a final sheet's fields, a round's points) and its token
MAX_FIELDS = 40  # fields of one form at most (six players' points, five flags of a sheet, the tokens)
SEEN_KEPT = 2048  # forms whose offers are kept to judge a late post against (a few per page and version)
FREE_GUESSES = 10  # wrong tokens an address may try before each 404 is slowed down
GUESS_WINDOW = 600.0  # seconds after which an address's count of wrong tokens is forgotten
MAX_DELAY = 5.0
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
ANY = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]
TOKEN_IN_PATH = re.compile(r"^/([pt])/[^/]*")
TOKEN_ANYWHERE = re.compile(r"/([pt])/[A-Za-z0-9_-]{16,}")


def redact_path(path: str) -> str:
    """The path as the access log writes it: the token left out."""
    return TOKEN_IN_PATH.sub(lambda m: f"/{m.group(1)}/~", path)


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
        return min(MAX_DELAY, 0.1 * 2 ** (count - FREE_GUESSES - 1))


class Site:
    """One session served: reads the data folder on each request, renders per file version."""

    def __init__(self, data_dir: Path, sid: str, notify: Callable[[str], None] | None = None,
                 access_log: Path | None = None):
        self.data_dir = Path(data_dir)
        self.sid = sid
        self.notify = notify
        self.guesses = Guesses()
        self.root = self.data_dir
        self.secret = tokens.server_secret(self.root)
        self.log_path = access_log if access_log is not None else tokens.web_dir(self.root) / "access.log"
        self._log_lock = threading.Lock()
        self._known: tuple[int, dict[str, str]] = (-1, {})
        self._cache: dict[tuple[str, str], str] = {}
        self._cache_version = ""
        self._render_lock = threading.Lock()
        self._flights: dict[tuple[str, str], threading.Lock] = {}
        self._load_lock = threading.Lock()
        from collections import OrderedDict

        self._seen: OrderedDict = OrderedDict()  # (player, move, digest) -> what a form offered
        self._seen_lock = threading.Lock()
        self.reader = App(self.data_dir, session_override=sid)  # reads and records as a command does
        self.app = self._build()

    # -- reading the data folder -------------------------------------------------------------
    def session_file(self) -> Path:
        return self.data_dir / "sessions" / f"{self.sid}.json"

    def version(self) -> str:
        """Changes whenever the session file is replaced (every recorded action, undo, redo)
        or the links are replaced."""
        try:
            st = self.session_file().stat()
            file_v = f"{st.st_mtime_ns:x}.{st.st_size:x}"
        except OSError:
            file_v = "gone"
        return f"{file_v}.{self._tokens_stamp():x}"

    def _tokens_stamp(self) -> int:
        try:
            return tokens.tokens_path(self.root).stat().st_mtime_ns
        except OSError:
            return 0

    def known(self) -> dict[str, str]:
        """This session's tokens (re-read when `serve --new-links` replaced them)."""
        stamp = self._tokens_stamp()
        if stamp != self._known[0]:
            data = tokens._read(self.root)
            entry = ((data.get("sessions") or {}).get(self.sid)) or {}
            self._known = (stamp, {k: v for k, v in entry.items() if isinstance(v, str)})
        return self._known[1]

    def whose(self, token: str) -> str | None:
        return tokens.find(self.known(), token)

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
        if not said.isdigit() or not hmac.compare_digest(mac.encode(), self._mac(player, move, int(said), seen).encode()):
            return "This page's form is not one this laptop drew for you: reload the page and choose again."
        if int(said) != own:
            return ("This page was out of date (that move was made, or taken back, since it was drawn): "
                    "nothing more was recorded. Here is the page as it is now.")
        if seen == self._digest(choices):
            return ""
        with self._seen_lock:
            shown = self._seen.get((player, move, seen))
        if shown is None:
            return "This page was out of date (something was recorded since): look again and choose."
        for name, values in posted.items():
            then, now = dict(shown.get(name) or []), dict(choices.get(name) or [])
            for value in values:
                if value in then and value not in now:
                    return f"{value} is no longer there to choose (it changed since this page was drawn): look again."
                if value in then and then[value] != now[value]:
                    return (f"{value} has changed since this page was drawn ({then[value]}, now {now[value]}): look "
                            "again and choose.")
        return ""

    # -- rendering ------------------------------------------------------------------------------
    def render(self, who: str, extra: str = "", view=None) -> tuple[str, str]:
        """(html, version) of ``who``'s page ("table" or a player); rendered once per version of
        the session file (and part of the board shown, ``view``), however many phones ask at
        the same moment."""
        version = self.version()
        if extra:  # a refusal shown on the page: never kept
            return self._render(who, version, extra, view), version
        key = (version, who, view.key() if view is not None else "")
        with self._render_lock:
            if self._cache_version != version:
                self._cache.clear()
                self._flights.clear()
                self._cache_version = version
            html = self._cache.get(key)
            flight = self._flights.setdefault(key, threading.Lock())
        if html is not None:
            return html, version
        with flight:  # the first asker renders; the others wait for it and take its page
            with self._render_lock:
                html = self._cache.get(key)
            if html is None:
                html = self._render(who, version, extra, view)
                with self._render_lock:
                    if self._cache_version == version:
                        self._cache[key] = html
        return html, version

    def snapshot(self, version: str):
        """(session, replay) for the pages of ``version`` (see :meth:`load`)."""
        return self.load()

    def _render(self, who: str, version: str, extra: str, view=None) -> str:
        from companion.web import views

        try:
            s, replay = self.snapshot(version)
        except CompanionError as exc:
            return pages.page(title="Tabletop Companion", heading="Tabletop Companion", lines=[exc.message],
                              version=version, sections=[])
        if who == tokens.TABLE:
            return views.table_page(s, replay, version, host=self.reader)

        def token(move: str, own: int, choices: dict) -> str:
            return self.move_token(who, move, own, choices)

        return views.player_page(s, replay, who, version, token, "/p/{token}/choose", extra, view=view,
                                 host=self.reader)

    # -- the log -------------------------------------------------------------------------------
    def log(self, request: Request, status: int, started: float) -> None:
        client = request.client.host if request.client else "-"
        line = (f"{time.strftime('%Y-%m-%dT%H:%M:%S')} {client} {request.method} "
                f"{redact_path(request.url.path)} {status} {1000 * (time.perf_counter() - started):.1f}ms\n")
        try:
            with self._log_lock:
                fd = os.open(self.log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
                with os.fdopen(fd, "a", encoding="utf-8") as fh:
                    fh.write(line)
        except OSError:
            pass

    def log_error(self) -> None:
        """An unexpected error's traceback into the data folder's errors.log, tokens left out."""
        import traceback

        text = traceback.format_exc()
        for token in self.known().values():
            text = text.replace(token, "~")
        text = TOKEN_ANYWHERE.sub(lambda m: f"/{m.group(1)}/~", text)
        try:
            with self._log_lock, open(self.data_dir / "errors.log", "a", encoding="utf-8") as fh:
                fh.write(f"--- {time.strftime('%Y-%m-%dT%H:%M:%S')} companion serve\n{text}\n")
        except OSError:
            pass

    # -- the application ------------------------------------------------------------------------
    def _build(self) -> Starlette:
        site = self

        async def not_found(request: Request, exc=None) -> Response:
            client = request.client.host if request.client else "-"
            wait = site.guesses.delay(client)
            if wait:
                await asyncio.sleep(wait)
            return HTMLResponse(pages.NOT_FOUND, status_code=404)

        def page_for(who: str, token: str, html: str) -> str:
            return html.replace("/p/{token}/choose", f"/p/{token}/choose")

        async def table(request: Request) -> Response:
            token = request.path_params["token"]
            if site.whose(token) != tokens.TABLE:
                return await not_found(request)
            if request.method not in ("GET", "HEAD"):
                return PlainTextResponse("Method not allowed.", status_code=405, headers={"Allow": "GET, HEAD"})
            html, _ = await run_in_threadpool(site.render, tokens.TABLE)
            return HTMLResponse(html)

        async def player(request: Request) -> Response:
            token = request.path_params["token"]
            who = site.whose(token)
            if who is None or who == tokens.TABLE:
                return await not_found(request)
            if request.method not in ("GET", "HEAD"):
                return PlainTextResponse("Method not allowed.", status_code=405, headers={"Allow": "GET, HEAD"})
            from companion.web.forms import PageView

            html, _ = await run_in_threadpool(site.render, who, "", PageView.from_query(request.query_params))
            return HTMLResponse(page_for(who, token, html))

        async def version(request: Request) -> Response:
            token = request.path_params["token"]
            who = site.whose(token)
            kind = request.url.path[1]
            if who is None or (kind == "t") != (who == tokens.TABLE):
                return await not_found(request)
            if request.method not in ("GET", "HEAD"):
                return PlainTextResponse("Method not allowed.", status_code=405, headers={"Allow": "GET, HEAD"})
            return PlainTextResponse(site.version())

        async def choose(request: Request) -> Response:
            token = request.path_params["token"]
            who = site.whose(token)
            if who is None or who == tokens.TABLE:
                return await not_found(request)
            if request.method != "POST":
                return PlainTextResponse("Method not allowed.", status_code=405, headers={"Allow": "POST"})
            length = request.headers.get("content-length")
            if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
                return await refusal(who, token, "That request is too large: choose again on the page.", 413)
            body = b""
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_BODY:
                    return await refusal(who, token, "That request is too large: choose again on the page.", 413)
            ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
            if ctype != "application/x-www-form-urlencoded":
                return await refusal(who, token, "Choose with the buttons on this page.", 400)
            try:
                fields = parse_qs(body.decode("utf-8"), max_num_fields=MAX_FIELDS, strict_parsing=False)
            except (UnicodeDecodeError, ValueError):
                return await refusal(who, token, "Choose with the buttons on this page.", 400)
            given = {k: [v.strip() for v in vs] for k, vs in fields.items() if vs}
            outcome, status, then = await run_in_threadpool(site.choose, who, given)
            if status == 200:  # shown on the page, nothing recorded (a preview)
                html, _ = await run_in_threadpool(site.render, who, outcome)
                return HTMLResponse(page_for(who, token, html))
            if status != 303:
                return await refusal(who, token, outcome, status)
            if site.notify is not None and outcome:
                try:
                    site.notify(outcome)
                except Exception:  # noqa: BLE001 - telling the shell must never lose a recorded choice
                    pass
            return RedirectResponse(f"/p/{token}{then}", status_code=303)

        async def refusal(who: str, token: str, text: str, status: int) -> Response:
            html, _ = await run_in_threadpool(site.render, who, pages.message(text, "error"))
            return HTMLResponse(page_for(who, token, html), status_code=status)

        routes = [
            Route("/t/{token}", table, methods=ANY),
            Route("/t/{token}/v", version, methods=ANY),
            Route("/p/{token}", player, methods=ANY),
            Route("/p/{token}/v", version, methods=ANY),
            Route("/p/{token}/choose", choose, methods=ANY),
        ]
        async def server_error(request: Request, exc: Exception) -> Response:
            return PlainTextResponse("Something went wrong inside companion.", status_code=500)

        app = Starlette(routes=routes, exception_handlers={404: not_found, 405: not_found, Exception: server_error})

        async def asgi(scope, receive, send):
            if scope["type"] != "http":
                return await app(scope, receive, send)
            started = time.perf_counter()
            seen = {"status": 500}

            started_response: dict = {}

            async def send_with_headers(message):
                if message["type"] == "http.response.start":
                    seen["status"] = message["status"]
                    started_response["status"] = message["status"]
                    headers = [(k, v) for k, v in message.get("headers", [])
                               if k.decode().lower() not in {h.lower() for h in HEADERS}]
                    headers += [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]
                    message = dict(message, headers=headers)
                await send(message)

            try:
                await app(scope, receive, send_with_headers)
            except Exception:  # noqa: BLE001 - a bug of ours: logged, never printed over the shell
                site.log_error()
                if "status" not in started_response:
                    await send_with_headers({"type": "http.response.start", "status": 500,
                                             "headers": [(b"content-type", b"text/plain; charset=utf-8")]})
                    await send_with_headers({"type": "http.response.body",
                                             "body": b"Something went wrong inside companion."})
            finally:
                # every page, choice and refusal; not the pages' twice-a-second version polls
                if not (seen["status"] == 200 and scope.get("path", "").endswith("/v")):
                    site.log(Request(scope), seen["status"], started)

        return asgi

    def choose(self, player: str, given: dict) -> tuple[str, int, str]:
        """Record a move made on ``player``'s page as a typed command would: (what the laptop is
        told, or a refusal; HTTP status; the page's address to go back to, ``?z=...`` to keep
        the board as it was shown). 303: recorded; 200: shown, nothing recorded (a preview).

        The move is one the game declared for the phones and offers this player now; the actor
        is the page's own player, never a posted value; each value is read by its kind (a
        private one must be one the page offered). It is recorded through ``App.record`` (the
        write lock, the rules, the journal, so `undo` takes it back), and under the lock, on
        the state as it is there, the player must still be allowed to make it (else the page
        says why: whose turn it is) and the form's token must still be good
        (:meth:`move_token`: not made stale by the player's own moves nor by a change to what
        the form offered; anything else recorded meanwhile leaves it good)."""
        import click

        from companion.core import registry
        from companion.core.session import describe_event
        from companion.games.declare import At, offered, offers, own_moves, record_move, refusal
        from companion.web import forms

        form = (given.get("form") or [""])[0]
        wanted = (given.get("move") or [""])[0]
        if not form:
            return "This page had no form token: reload it and choose again.", 403, ""
        try:
            s, replay = self.load()
        except CompanionError as exc:
            return exc.message, 409, ""
        moves = list(registry.parts(s.meta["game"]).get("MOVES") or [])
        if wanted == forms.TAKE_BACK:
            return self.take_back(player, form, moves)
        host = App(self.data_dir, session_override=self.sid)  # records as a command does; nobody is asked
        at = At(s, replay, player, host=host)
        phone = [m for m in moves if m.phone]
        move = next((m for m in phone if m.name == wanted), None)
        if move is None and not wanted:  # a form naming no move: the one its page offers now
            now = [m for m, _ in offers(phone, at, player)]
            if not now:
                return "Nothing is waiting for you now: look at the page again.", 409, ""
            move = now[0] if len(now) == 1 else None
        if move is None:
            return "That is not a move you can make on this page: use its buttons.", 400, ""
        view = forms.PageView.from_query({k: v[0] for k, v in given.items() if k in ("z", "c")})
        why = refusal(move, at, player)
        if why is not None:
            return why, 409, ""
        choices = offered(move, at, player)
        posted = {p.name: [v.strip() for v in given.get(p.name) or given.get("choice") or []]
                  for p in forms.open_params(move)}
        stale = self._stale(form, player, move.name, own_moves(moves, s.journal, player, move), choices, posted)
        if stale:
            return stale, 403, ""
        try:
            read = forms.read_post(at, move, choices, given, view)
        except forms.Unreadable as exc:
            return exc.message, exc.status, ""
        except CompanionError as exc:
            return exc.message, 400, ""
        if isinstance(read, str):  # a tap between several choices: the page offers them
            return "", 303, read
        args = {**read, **({move.actor: player} if move.actor else {})}
        try:
            if move.prepare is not None:
                preview = move.prepare(At(s, replay, None, args, host))
                if preview is not None:
                    from companion.games.view import plain

                    return plain(preview), 200, ""
        except CompanionError as exc:
            return exc.message, 409, ""
        except click.ClickException as exc:
            return exc.format_message(), 400, ""

        def check(locked):
            """Under the lock: still this player's to make, and the form still good."""
            mine = At(locked.session, locked.replay, player, host=host)
            said = refusal(move, mine, player)
            if said is not None:
                raise _Refused(said)
            later = self._stale(form, player, move.name, own_moves(moves, locked.session.journal, player, move),
                                offered(move, mine, player), posted)
            if later:
                raise _Stale(later)

        try:
            outcome = record_move(host, move, args, check=check)
        except _Stale as exc:
            return exc.message, 403, ""
        except CompanionError as exc:
            return exc.message, 409, ""
        self._follow(host, move, outcome)
        said = describe_event(s.game, outcome.event)
        told = f"{player} has chosen." if move.private else f"From {player}'s phone: {said}."
        keep = view.query(pick=None) if any(p.kind.tap(at, p, choices.get(p.name) or []) is not None
                                            for p in forms.open_params(move) if choices.get(p.name)) else ""
        return told, 303, keep

    def _follow(self, host, move, outcome) -> None:
        """The move that follows ``move`` by itself on a page (a round the board ended scores
        itself): recorded through the same path; refused, it is left to the table (its page
        says what is next)."""
        from companion.games.declare import At, record_move

        if move.then is None:
            return
        then, args_of = move.then
        args = args_of(outcome)
        if args is None:
            return
        try:
            if then.prepare is not None:
                then.prepare(At(outcome.session, outcome.replay, None, args, host))
            record_move(host, then, args)
        except CompanionError:
            pass
        except Exception as exc:  # noqa: BLE001 - a click usage error from a question nobody can answer
            if not hasattr(exc, "format_message"):
                raise

    def take_back(self, player: str, form: str, moves: list) -> tuple[str, int, str]:
        """Undo ``player``'s last move (and what followed it by itself) while nobody has moved
        since: checked under the session's lock, where the undo is recorded (`redo` brings it
        back); the laptop's `undo` can take back anything."""
        from companion.core.session import describe_event
        from companion.games.declare import last_own
        from companion.web import forms

        host = App(self.data_dir, session_override=self.sid)
        store = host.store
        with store.writing_session(self.sid):  # the lock is the session's own: step takes it again
            s, replay = host.loaded(self.sid)
            n = last_own(moves, replay.events, player)
            if not n:
                return ("Someone has moved since your last move: only the laptop can take it back now "
                        "(`undo`)."), 409, ""
            said, seen, mac = (form.split(".") + ["", "", ""])[:3]
            good = said.isdigit() and hmac.compare_digest(mac.encode(), self._mac(player, forms.TAKE_BACK, int(said),
                                                                                  seen).encode())
            if not good:
                return "This page's form is not one this laptop drew for you: reload the page.", 403, ""
            if int(said) != replay.count:
                return "This page was out of date (something was recorded since): look again.", 403, ""
            said = describe_event(s.game, replay.events[-n]["event"])
            for _ in range(n):
                host.step("undo")
        return f"From {player}'s phone: took back: {said}.", 303, ""
