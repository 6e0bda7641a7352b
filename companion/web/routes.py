"""The addresses `serve` answers, and how: the table's page, each player's page, their
versions and live streams, and a player's move; anything else is the slowed 404 (a flood of
wrong links is answered with less and less). Each route is a method of :class:`Routes`, given
the :class:`companion.web.site.Site` it serves; the front door (Host, headers, limits, the
access log) is the site's own."""

from __future__ import annotations

import asyncio
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from companion.contract.language import _
from companion.web import connections, limits, pages, tokens

MAX_BODY = 4096  # bytes: a move's form (a final sheet's fields, a round's points) and its token
MAX_FIELDS = 40  # fields of one form at most (six players' points, five flags of a sheet, the tokens)
MAX_DELAYED = 64  # slowed 404s waiting at once; past that a new wrong guess's connection is closed unanswered
ANY = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]


def ascii_count(text: str) -> bool:
    """Is ``text`` a count written in ASCII digits? (``str.isdigit`` also takes "²" and "١",
    which ``int`` refuses or reads: a form token must be exactly what the server wrote.)"""
    return 0 < len(text) <= 18 and text.isascii() and text.isdigit()


class Routes:
    """The route handlers of one site."""

    def __init__(self, site):
        self.site = site

    async def not_found(self, request: Request, exc=None) -> Response:
        site = self.site
        client = request.client.host if request.client else "-"
        wait = site.guesses.delay(client)
        if wait:
            conn = connections.of(request.scope)
            if site.delayed >= MAX_DELAYED and conn is not None:
                conn.close()  # a flood of guesses: this one gets no answer at all
                return Response(status_code=404)
            if conn is not None:
                conn.expendable()
            site.delayed += 1
            try:
                await site.slow_down(wait)
            finally:
                site.delayed -= 1
        return HTMLResponse(pages.error("not found"), status_code=404)

    @staticmethod
    def page_for(token: str, html: str) -> str:
        return html.replace("/p/{token}", f"/p/{token}")  # its forms and links (choose, value, history)

    @staticmethod
    def not_allowed(*methods: str) -> Response:
        return HTMLResponse(pages.not_allowed(list(methods)), status_code=405,
                            headers={"Allow": ", ".join(methods)})

    async def table(self, request: Request) -> Response:
        if self.site.whose(request.path_params["token"]) != tokens.TABLE:
            return await self.not_found(request)
        if request.method not in ("GET", "HEAD"):
            return self.not_allowed("GET", "HEAD")
        html, _version = await run_in_threadpool(self.site.render, tokens.TABLE)
        return HTMLResponse(html)

    async def player(self, request: Request) -> Response:
        from companion.web.forms import PageView

        token = request.path_params["token"]
        who = self.site.whose(token)
        if who is None or who == tokens.TABLE:
            return await self.not_found(request)
        if request.method not in ("GET", "HEAD"):
            return self.not_allowed("GET", "HEAD")
        await run_in_threadpool(self.site.take_seat, who)  # a player's own link takes their seat too
        html, _version = await run_in_threadpool(self.site.render, who, self.site.warning_for(who),
                                                 PageView.from_query(request.query_params))
        return HTMLResponse(self.page_for(token, html))

    async def history(self, request: Request) -> Response:
        """The group's history, read-only, from a player's own link (issue 31; web/history.py)."""
        from companion.web import history

        who = self.viewer(request)
        if who is None or who == tokens.TABLE:
            return await self.not_found(request)
        if request.method not in ("GET", "HEAD"):
            return self.not_allowed("GET", "HEAD")
        html = await run_in_threadpool(history.page, self.site, who)
        return HTMLResponse(self.page_for(request.path_params["token"], html))

    async def join(self, request: Request) -> Response:
        """The table's one code (issue 31): GET shows the seats still free, POST takes one and
        sends the phone to that player's own page. A seat taken is never offered again until
        the laptop frees it, so this address cannot open another player's page."""
        token = request.path_params["token"]
        if self.site.whose(token) != tokens.TABLE:
            return await self.not_found(request)
        if request.method in ("GET", "HEAD"):
            return HTMLResponse(await run_in_threadpool(self.site.join_page, token))
        if request.method != "POST":
            return self.not_allowed("GET", "POST")
        given = await self.form_fields(request)
        seat = given.get("seat", [""])[0] if isinstance(given, dict) else ""
        taken, page = await run_in_threadpool(self.site.join, token, seat)
        if taken is None:
            return HTMLResponse(page, status_code=409)
        if self.site.notify is not None:
            try:
                self.site.notify(page)
            except Exception:  # noqa: BLE001 - telling the shell must never lose a seat taken
                pass
        return RedirectResponse(f"/p/{taken}", status_code=303)

    def viewer(self, request: Request) -> str | None:
        """Whose page the address names (TABLE or a player), or None: a player's token on a
        /t/ address, or the table's on a /p/ one, opens nothing."""
        who = self.site.whose(request.path_params["token"])
        if who is None or (request.url.path.startswith("/t/")) != (who == tokens.TABLE):
            return None
        return who

    async def version(self, request: Request) -> Response:
        who = self.viewer(request)
        if who is None:
            return await self.not_found(request)
        if request.method not in ("GET", "HEAD"):
            return self.not_allowed("GET", "HEAD")
        return PlainTextResponse(await run_in_threadpool(self.site.version_of, who))

    async def stream(self, request: Request) -> Response:
        from companion.web.forms import PageView

        who = self.viewer(request)
        if who is None:
            return await self.not_found(request)
        if request.method != "GET":
            return self.not_allowed("GET")
        return self.site.live.stream(who, request.path_params["token"], request.query_params.get("v", "")[:64],
                                     PageView.from_query(request.query_params))

    async def form_fields(self, request: Request) -> dict | int:
        """A move's posted fields, or the status refusing them (413: too large, 400: not a form)."""
        length = request.headers.get("content-length")
        if length is not None and (not ascii_count(length) or int(length) > MAX_BODY):
            return 413
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                return 413
        if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/x-www-form-urlencoded":
            return 400
        try:
            fields = parse_qs(body.decode("utf-8"), max_num_fields=MAX_FIELDS, strict_parsing=False)
        except (UnicodeDecodeError, ValueError):
            return 400
        return {k: [v.strip() for v in vs] for k, vs in fields.items() if vs}

    async def player_post(self, request: Request):
        """(player, token, fields or a status) of a form posted to a player's page, or the
        Response that answers it at once (a wrong token, a method other than POST)."""
        token = request.path_params["token"]
        who = self.site.whose(token)
        if who is None or who == tokens.TABLE:
            return await self.not_found(request)
        if request.method != "POST":
            return self.not_allowed("POST")
        return who, token, await self.form_fields(request)

    async def choose(self, request: Request) -> Response:
        site = self.site
        posted = await self.player_post(request)
        if isinstance(posted, Response):
            return posted
        who, token, given = posted
        if given == 413:
            return await self.refusal(who, token, _("That request is too large: choose again on the page."), 413)
        if given == 400:
            return await self.refusal(who, token, _("Choose with the buttons on this page."), 400)
        outcome, status, then = await run_in_threadpool(site.choose, who, given)
        if status == 200:  # shown on the page, nothing recorded (a preview)
            html, _version = await run_in_threadpool(site.render, who, outcome)
            return HTMLResponse(self.page_for(token, html))
        if status != 303:
            return await self.refusal(who, token, outcome, status)
        if site.notify is not None and outcome:
            try:
                site.notify(outcome)
            except Exception:  # noqa: BLE001 - telling the shell must never lose a recorded choice
                pass
        return RedirectResponse(f"/p/{token}{then}", status_code=303)

    async def value(self, request: Request) -> Response:
        """A printed value answered on a player's page (issue 31): kept as `data set` keeps it."""
        site = self.site
        posted = await self.player_post(request)
        if isinstance(posted, Response):
            return posted
        who, token, given = posted
        if not isinstance(given, dict):
            return await self.refusal(who, token, _("Answer with the page's own form."), given)
        said, status = await run_in_threadpool(site.keep_value, who, given)
        if status != 303:
            html, _version = await run_in_threadpool(site.render, who, said)
            return HTMLResponse(self.page_for(token, html), status_code=status)
        if site.notify is not None:
            try:
                site.notify(said)
            except Exception:  # noqa: BLE001 - telling the shell must never lose a value kept
                pass
        return RedirectResponse(f"/p/{token}", status_code=303)

    async def refusal(self, who: str, token: str, text: str, status: int) -> Response:
        html, _version = await run_in_threadpool(self.site.render, who, pages.message(text, "error"))
        return HTMLResponse(self.page_for(token, html), status_code=status)

    async def server_error(self, request: Request, exc: Exception) -> Response:
        return HTMLResponse(self.site.failure(exc), status_code=500)

    async def too_many(self, who: str, token: str) -> Response:
        html, _version = await run_in_threadpool(self.site.render, who, pages.message(_(limits.TOO_MANY), "error"))
        return HTMLResponse(self.page_for(token, html), status_code=429, headers={"Retry-After": "1"})


def build(site) -> tuple[Starlette, object]:
    """The application of ``site`` and its answer to a page asking too often (the front door's)."""
    r = Routes(site)
    routes = [
        Route("/t/{token}", r.table, methods=ANY, name="table page"),
        Route("/t/{token}/v", r.version, methods=ANY, name="table version"),
        Route("/t/{token}/live", r.stream, methods=ANY, name="table live"),
        Route("/t/{token}/join", r.join, methods=ANY, name="table join"),
        Route("/p/{token}", r.player, methods=ANY, name="player page"),
        Route("/p/{token}/v", r.version, methods=ANY, name="player version"),
        Route("/p/{token}/live", r.stream, methods=ANY, name="player live"),
        Route("/p/{token}/choose", r.choose, methods=ANY, name="player move"),
        Route("/p/{token}/history", r.history, methods=ANY, name="player history"),
        Route("/p/{token}/value", r.value, methods=ANY, name="player value"),
    ]
    app = Starlette(routes=routes, exception_handlers={404: r.not_found, 405: r.not_found, Exception: r.server_error})
    return app, r.too_many
