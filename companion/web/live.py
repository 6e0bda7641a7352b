"""The live channel: every open page learns within a moment that what it shows has changed.

Each page holds one server-sent-events stream (``GET /p/TOKEN/live?v=VERSION``, or
``/t/TOKEN/live``), opened by the page's script (:data:`companion.web.pages.SCRIPT`). While
any stream is open, the server looks at the session file's signature (its inode, size and time:
one ``stat``) whenever it may have changed: at once when inotify reports the file replaced
(Linux, :mod:`companion.web.watch`) or this process recorded something (a phone's move:
:meth:`Live.poke`), and every :data:`POLL` seconds where there is no inotify (every
:data:`SAFETY_POLL` seconds beside it). On a change it draws the page of every viewer with a stream
open (one trip to a worker thread for all of them), and sends each stream its page, the very
bytes a reload would get, when the page's version differs from the one that page shows
(``event: page``). The page swaps its body in place, keeping the scroll and the zoom; sending
the page rather than a signal to fetch it saves the round trip. A quiet stream hears
``event: ping`` with the version it showed last. Without JavaScript a page is complete as it
is, and a reload brings it up to date.

A page's version is a keyed hash of the page itself (:meth:`companion.web.site.Site.render`),
so a stream says nothing but what its page shows: not the session file's size nor anything
drawn from another player's secret (issue 22, S1).

Why inotify first and a poll always: measured (BENCHMARKS.md, "Live pages"), inotify noticed
a rename after 0.3 ms (median) at no cost while idle; a 50 ms stat poll after 30 ms, at 0.6 % of
a core. The poll works on every system and every file system, with nothing to install, so it is
the fallback, and a slow one stays beside inotify for a file system that does not report.

Bounds: at most :data:`PER_VIEWER` streams per page (a new one ends that page's oldest, so a
phone coming back from a lost Wi-Fi is never refused), each ended after :data:`LIFETIME`
seconds (the page opens another), with a heartbeat every :data:`HEARTBEAT` seconds that lets
both ends notice a connection that died silently. A stream needs a valid token: a wrong one
gets the same 404 as any other address.
"""

from __future__ import annotations

import asyncio
import contextlib

from companion.web import connections, watch

POLL = 0.05  # seconds between two looks at the session file while pages are open, without inotify
SAFETY_POLL = 1.0  # seconds between two looks beside inotify
HEARTBEAT = 15.0  # seconds between two messages on a quiet stream
LIFETIME = 300.0  # seconds a stream lasts; the page then opens a new one
PER_VIEWER = 4  # streams one page (one token) may hold at once: tabs, a second device
RETRY_MS = 1000  # what the browser waits before it reconnects a dropped stream by itself

HEADERS = [(b"content-type", b"text/event-stream; charset=utf-8"), (b"x-accel-buffering", b"no")]


class Live:
    """The streams of one served session, and the watcher that tells them of changes."""

    def __init__(self, site, poll: float = POLL, heartbeat: float = HEARTBEAT, lifetime: float = LIFETIME,
                 per_viewer: int = PER_VIEWER):
        self.site = site
        self.poll = poll
        self.heartbeat = heartbeat
        self.lifetime = lifetime
        self.per_viewer = per_viewer
        self.streams: dict[str, list[Stream]] = {}
        self.pushed = 0  # pages sent, for tests and benchmarks
        self.watching = ""  # "inotify" or "poll" while a watcher runs
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task | None = None

    def stream(self, viewer: str, token: str, since: str, view=None) -> "Stream":
        """The ASGI response of a stream for ``viewer``'s page, which shows version ``since`` and
        the part of the board ``view`` asks for (its zoom and centre: kept by every page sent)."""
        return Stream(self, viewer, token, since, view)

    def open_count(self) -> int:
        return sum(len(s) for s in self.streams.values())

    def poke(self) -> None:
        """Something was just recorded: look at once, not at the next poll (any thread)."""
        loop, wake = self._loop, self._wake
        if loop is None or wake is None:
            return
        with contextlib.suppress(RuntimeError):  # the server's loop has ended
            loop.call_soon_threadsafe(wake.set)

    def close_all(self) -> None:
        """The server is stopping: every stream ends now (the pages reconnect when it is back)."""
        for streams in list(self.streams.values()):
            for s in list(streams):
                s.end()

    # -- the streams, on the server's loop -------------------------------------------------------
    def _add(self, stream: "Stream") -> None:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._loop, self._wake, self._task = loop, asyncio.Event(), None
        mine = self.streams.setdefault(stream.viewer, [])
        mine.append(stream)
        while len(mine) > self.per_viewer:
            mine.pop(0).end()
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._watch())

    def _remove(self, stream: "Stream") -> None:
        mine = self.streams.get(stream.viewer)
        if mine and stream in mine:
            mine.remove(stream)
        if not mine:
            self.streams.pop(stream.viewer, None)

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        wake = self._wake
        notify = watch.watch([self.site.session_file(), self.site.tokens_file(), *self.site.journal_files()])
        if notify is not None:
            loop.add_reader(notify.fd, lambda: notify.hit() and wake.set())
        interval = self.poll if notify is None else SAFETY_POLL
        self.watching = "poll" if notify is None else "inotify"
        seen = self.site.signature()
        try:
            while self.streams:
                timer = loop.call_later(interval, wake.set)
                await wake.wait()
                timer.cancel()
                wake.clear()
                now = self.site.signature()
                if now != seen:
                    seen = now
                    await self._refresh()
        finally:
            self.watching = ""
            if notify is not None:
                loop.remove_reader(notify.fd)
                notify.close()

    async def _refresh(self) -> None:
        """Draw the page of every viewer with a stream open, in one worker thread, and send
        each page to its streams as soon as it is drawn."""
        from starlette.concurrency import run_in_threadpool

        loop = asyncio.get_running_loop()
        viewers = list(self.streams)

        wanted = {(viewer, s.part, s.lang): s.view for viewer in viewers for s in list(self.streams.get(viewer, ()))}

        def draw() -> None:
            for (viewer, part, lang), view in wanted.items():
                try:
                    html, version = self.site.render(viewer, "", view, lang)
                except Exception:  # noqa: BLE001 - a page that cannot be drawn must not stop the others
                    self.site.log_error()
                    continue
                loop.call_soon_threadsafe(self._tell, viewer, part, lang, html, version)

        await run_in_threadpool(draw)

    def _tell(self, viewer: str, part: str, lang: str, html: str, version: str) -> None:
        for s in list(self.streams.get(viewer, ())):
            if self.site.whose(s.token) != viewer:  # `serve --new-links`: this page is gone
                s.end()
            elif s.part == part and s.lang == lang:
                s.tell(version, html)


class Stream:
    """One page's stream: the page (``event: page``) whenever its version changes, in the
    language of the page that opened it (issue 28: each phone its own)."""

    def __init__(self, live: Live, viewer: str, token: str, since: str, view=None, lang: str | None = None):
        from companion.contract.language import language

        self.live = live
        self.lang = lang or language()  # the request's, when not given
        self.viewer = viewer
        self.token = token
        self.view = view  # the part of the board the page shows (forms.PageView), or None
        self.part = view.key() if view is not None else ""
        self.sent = since
        self.pending: tuple[str, str] | None = None
        self.ended = False
        self._wake: asyncio.Event | None = None

    def tell(self, version: str, html: str) -> None:
        if version != self.sent and not self.ended:
            self.pending = (version, html)
            if self._wake is not None:
                self._wake.set()

    def end(self) -> None:
        self.ended = True
        if self._wake is not None:
            self._wake.set()

    async def __call__(self, scope, receive, send) -> None:
        from starlette.concurrency import run_in_threadpool

        conn = connections.of(scope)
        if conn is not None:
            conn.stream()
        loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        await send({"type": "http.response.start", "status": 200, "headers": list(HEADERS)})
        await send({"type": "http.response.body", "body": f"retry: {RETRY_MS}\n\n".encode(), "more_body": True})
        self.live._add(self)
        gone = asyncio.ensure_future(_disconnected(receive))
        try:
            html, version = await run_in_threadpool(self.live.site.render, self.viewer, "", self.view, self.lang)
            self.tell(version, html)
            until = loop.time() + self.live.lifetime
            while not self.ended and not gone.done():
                if self.pending is not None:
                    (self.sent, html), self.pending = self.pending, None
                    self.live.pushed += 1
                    await send({"type": "http.response.body", "more_body": True,
                                "body": event("page", self.live.site.for_token(html, self.token))})
                    continue
                left = until - loop.time()
                if left <= 0:
                    break
                waiter = asyncio.ensure_future(self._wake.wait())
                done, _ = await asyncio.wait({waiter, gone}, timeout=min(self.live.heartbeat, left),
                                             return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
                self._wake.clear()
                if not done and self.pending is None and not self.ended:
                    # the page sees the stream is alive, and that it is current
                    await send({"type": "http.response.body", "body": event("ping", self.sent), "more_body": True})
        finally:
            self.ended = True
            self.live._remove(self)
            gone.cancel()
            with contextlib.suppress(Exception):
                await send({"type": "http.response.body", "body": b"", "more_body": False})


def event(name: str, data: str) -> bytes:
    """One server-sent event: its name, and its data one ``data:`` line per line."""
    lines = "".join(f"data: {line}\n" for line in data.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
    return f"event: {name}\n{lines}\n".encode("utf-8")


async def _disconnected(receive) -> None:
    while True:
        message = await receive()
        if message.get("type") == "http.disconnect":
            return
