"""How long a connection may take to ask, and how many may wait (issue 22, S2).

uvicorn (with h11) closes a keep-alive connection that stays idle *after* a response, but it
keeps a connection that never completes a request for ever (a byte now and then resets
nothing, since nothing is armed), and its one bound, ``limit_concurrency``, counts every open
connection: 200 idle sockets made it answer every phone with 503, and they were still open two
minutes later. So the server keeps its own rules, in a subclass of uvicorn's h11 protocol:

- **A request is due in time.** A connection must deliver one complete request (head and
  body) within :data:`REQUEST_TIMEOUT` seconds of opening, or of its previous response,
  however slowly it trickles in; then it is closed.
- **Waiting is bounded.** At most :data:`MAX_WAITING` connections may wait for their request
  at once. Past that, :data:`TRIM_AFTER` seconds later (time for the newest to be read), the
  ones that have waited longest are closed, those that never sent a byte (and have none
  arriving) first. A phone's request follows its connection within milliseconds and is then
  no longer waiting, so a flood of idle or slow connections pushes out only its own.
- **Open connections are bounded.** At most ``max_open`` (from the process's file limit, raised
  where the system allows) are open; when full, a waiting connection is closed first, then a
  wrong-token answer being slowed down (:meth:`Connection.expendable`); a new connection is
  refused only when every open one is a page being served.
- **A response is due in time.** A response (other than a live page's stream, which the live
  channel bounds: :mod:`companion.web.live`) that a client does not read within
  :data:`RESPONSE_TIMEOUT` seconds is cut off.

The application finds its connection's record in the ASGI scope (:func:`of`), to mark a live
stream or a slowed-down answer. Counts of what was closed are kept for tests and benchmarks.
"""

from __future__ import annotations

import asyncio
import contextlib
import select
from collections import OrderedDict

REQUEST_TIMEOUT = 5.0  # seconds to deliver one whole request (a phone needs milliseconds)
REQUEST_TIMEOUT_SETTING = "COMPANION_REQUEST_SECONDS"  # may shorten it, down to 1 s (core/bounds.py)
RESPONSE_TIMEOUT = 30.0  # seconds for a client to take a page (a slowed 404 waits 5 s at most)
MAX_WAITING = 256  # connections waiting for their request at once
TRIM_AFTER = 0.02  # seconds between going over MAX_WAITING and closing the excess
MAX_OPEN = 4096  # at most, whatever the file limit allows
HEAD_LIMIT = 8192  # bytes of a request's head (h11's own default is 16 KiB; phones send < 2 KiB)
SCOPE_KEY = "companion.connection"


def open_files_limit(wanted: int = MAX_OPEN + 256) -> int:
    """The process's limit of open files, first raised toward ``wanted`` where the hard limit
    allows (a laptop's default soft limit, 256 on macOS, 1,024 on Linux, is below what a
    server holding a flood at bay needs)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows: no such limit to raise
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
    return wanted if soft == resource.RLIM_INFINITY else soft


def request_timeout() -> float:
    """:data:`REQUEST_TIMEOUT`, or the shorter whole seconds :data:`REQUEST_TIMEOUT_SETTING`
    says (at least 1): uvicorn's keep-alive timeout is whole seconds, and both are the same."""
    from companion.core.bounds import shortened

    return float(int(shortened(REQUEST_TIMEOUT_SETTING, REQUEST_TIMEOUT, 1.0)))


def max_open_for(files: int) -> int:
    """Connections the server lets open: the file limit less room for everything else."""
    return max(32, min(MAX_OPEN, files - 128))


class Connection:
    """What the guard knows of one connection (also what the application sees of it)."""

    __slots__ = ("protocol", "state", "timer", "kind", "spoke")

    def __init__(self, protocol) -> None:
        self.protocol = protocol
        self.state = "new"  # "waiting" (for its request) | "serving" | "closed"
        self.timer: asyncio.TimerHandle | None = None
        self.kind = "page"  # "page" | "stream" (a live page) | "expendable" (a slowed wrong guess)
        self.spoke = False  # has it sent a byte yet?

    def silent(self) -> bool:
        """Has this connection sent nothing, and is nothing arriving? (A phone's request may be
        in the system's buffer before the server reads it: such a one is not silent.)"""
        if self.spoke:
            return False
        transport = getattr(self.protocol, "transport", None)
        sock = transport.get_extra_info("socket") if transport is not None else None
        if sock is None or not hasattr(select, "poll"):
            return True
        try:
            poller = select.poll()
            poller.register(sock.fileno(), select.POLLIN)
            return not poller.poll(0)
        except (OSError, ValueError):
            return True

    def stream(self) -> None:
        """This response is a live page's stream: long by design, bounded by the live channel."""
        self.kind = "stream"
        if self.timer is not None and self.state == "serving":
            self.timer.cancel()
            self.timer = None

    def expendable(self, flag: bool = True) -> None:
        """This answer is a wrong guess being slowed down: the first to go when the server is full."""
        if self.kind != "stream":
            self.kind = "expendable" if flag else "page"

    def close(self) -> None:
        transport = getattr(self.protocol, "transport", None)
        if transport is not None and not transport.is_closing():
            transport.close()


def of(scope) -> Connection | None:
    """The connection a request came on (None outside the real server, e.g. a test client)."""
    return (scope.get("extensions") or {}).get(SCOPE_KEY)


class Guard:
    """The connections of one server and the rules above."""

    def __init__(self, max_open: int = MAX_OPEN, max_waiting: int = MAX_WAITING,
                 request_timeout: float = REQUEST_TIMEOUT, response_timeout: float = RESPONSE_TIMEOUT):
        self.max_open = max_open
        self.max_waiting = min(max_waiting, max_open)
        self.request_timeout = request_timeout
        self.response_timeout = response_timeout
        self.open: dict[object, Connection] = {}
        self.waiting: OrderedDict[Connection, None] = OrderedDict()
        self.counts = {"opened": 0, "timed out": 0, "pushed out": 0, "refused": 0, "cut off": 0}
        self.on_shutdown: list = []  # called once when the server stops (the live channel ends its streams)
        self._shut = False
        self._trim: asyncio.TimerHandle | None = None

    # -- the protocol's hooks --------------------------------------------------------------------
    def opened(self, protocol) -> Connection | None:
        self.counts["opened"] += 1
        if len(self.open) >= self.max_open and not self._make_room():
            self.counts["refused"] += 1
            protocol.transport.close()
            return None
        conn = Connection(protocol)
        self.open[protocol] = conn
        self._wait(conn)
        return conn

    def closed(self, protocol) -> None:
        conn = self.open.pop(protocol, None)
        if conn is not None:
            self._leave(conn)
            conn.state = "closed"

    def sync(self, protocol, their_state, our_state) -> None:
        """After every event of the connection: is it waiting for its request, or being served?"""
        conn = self.open.get(protocol)
        if conn is None or conn.state == "closed":
            return
        import h11

        if their_state in (h11.IDLE, h11.SEND_BODY):
            if conn.state != "waiting" and our_state in (h11.IDLE, h11.DONE):
                conn.kind, conn.spoke = "page", False  # a keep-alive connection, waiting for its next request
                self._wait(conn)
        elif conn.state == "waiting":
            self._leave(conn)
            conn.state = "serving"
            if conn.kind != "stream":
                conn.timer = asyncio.get_running_loop().call_later(self.response_timeout, self._cut_off, conn)

    def shutdown(self) -> None:
        for conn in list(self.waiting):
            conn.close()
        if not self._shut:
            self._shut = True
            for callback in self.on_shutdown:
                with contextlib.suppress(Exception):
                    callback()

    # -- the rules -------------------------------------------------------------------------------
    def _wait(self, conn: Connection) -> None:
        self._leave(conn)
        conn.state = "waiting"
        self.waiting[conn] = None
        loop = asyncio.get_running_loop()
        conn.timer = loop.call_later(self.request_timeout, self._time_out, conn)
        if len(self.waiting) > self.max_waiting and self._trim is None:
            self._trim = loop.call_later(TRIM_AFTER, self._trim_waiting)

    def _trim_waiting(self) -> None:
        self._trim = None
        while len(self.waiting) > self.max_waiting:
            self._push_out()

    def _push_out(self) -> None:
        """Close the waiting connection that has waited longest, a silent one first (looking
        at the 64 oldest: past that, a flood of talkers, and the oldest goes)."""
        chosen = None
        for n, conn in enumerate(self.waiting):
            if n == 64:
                break
            if conn.silent():
                chosen = conn
                break
        if chosen is None:
            chosen = next(iter(self.waiting))
        self.counts["pushed out"] += 1
        self._drop(chosen)

    def _leave(self, conn: Connection) -> None:
        self.waiting.pop(conn, None)
        if conn.timer is not None:
            conn.timer.cancel()
            conn.timer = None

    def _drop(self, conn: Connection) -> None:
        self._leave(conn)
        conn.close()

    def _time_out(self, conn: Connection) -> None:
        conn.timer = None
        if conn.state == "waiting":
            self.counts["timed out"] += 1
            self._drop(conn)

    def _cut_off(self, conn: Connection) -> None:
        conn.timer = None
        if conn.state == "serving" and conn.kind != "stream":
            self.counts["cut off"] += 1
            conn.close()

    def _make_room(self) -> bool:
        if self.waiting:
            self._push_out()
            return True
        for conn in self.open.values():
            if conn.kind == "expendable":
                self.counts["pushed out"] += 1
                self._drop(conn)
                return True
        return False


def protocol_class(guard: Guard):
    """uvicorn's h11 protocol, reporting every connection's events to ``guard``."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class GuardedH11(H11Protocol):
        _conn_record: Connection | None = None

        def connection_made(self, transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._conn_record = guard.opened(self)

        def connection_lost(self, exc) -> None:
            guard.closed(self)
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self._conn_record is not None:
                self._conn_record.spoke = True
            super().data_received(data)

        def handle_events(self) -> None:
            super().handle_events()
            self._report()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._report()

        def shutdown(self) -> None:
            super().shutdown()
            guard.shutdown()

        def _report(self) -> None:
            record = self._conn_record
            if record is None or self.transport is None or self.transport.is_closing():
                return
            cycle = self.cycle
            if cycle is not None and not cycle.response_complete:
                # the request just read: let the application find its connection (its task has
                # been created, not yet run, so it sees this)
                cycle.scope.setdefault("extensions", {})[SCOPE_KEY] = record  # type: ignore[typeddict-unknown-key]
            guard.sync(self, self.conn.their_state, self.conn.our_state)

    return GuardedH11
