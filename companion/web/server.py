"""Running the site: a socket, uvicorn, in the foreground or on a thread for the shell.

The socket is bound here (not by uvicorn) so that `--port 0` works and the links printed name
the port really used. One server per process at most: the shell's `serve --stop` ends it.

uvicorn's settings are chosen, not left to their defaults (issue 22, S2), see
:func:`make_server`; how long a connection may take and how many may wait is
:mod:`companion.web.connections`.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
from dataclasses import dataclass
from pathlib import Path

from companion.contract.errors import CompanionError
from companion.contract.language import _
from companion.web import tokens

DEFAULT_PORT = 8765
BACKLOG = 1024  # connections the system holds before the server accepts them (a flood must not drop a phone's)


def lan_address() -> str:
    """This machine's address on its local network (the one a phone on the same Wi-Fi reaches).

    A UDP socket "connected" to a private address sends nothing, but makes the system choose
    the interface it would use; no internet is needed.
    """
    for probe in ("10.255.255.255", "192.168.255.255", "172.31.255.255"):
        with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect((probe, 1))
            address = s.getsockname()[0]
            if address and not address.startswith("127.") and address != "0.0.0.0":
                return address
    raise CompanionError(_("This computer is on no local network that phones could reach: join the Wi-Fi, "
                           "or serve without --lan and open the links on this computer."))


def bind(host: str, port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        if exc.errno in (98, 48, 10048):
            raise CompanionError(_("Port {port} is in use on {host}: choose another with --port N "
                                   "(or stop the other server with `serve --stop`).").format(port=port, host=host)) from None
        raise CompanionError(_("Cannot listen on {host}:{port}: {reason}.").format(host=host, port=port,
                                                                             reason=exc.strerror or exc)) from None
    sock.listen(BACKLOG)
    sock.set_inheritable(True)
    return sock


def own_names(address: str) -> set[str]:
    """The names a request may give as its Host (issue 22, S6): the address listened on and
    this computer's own names; on 127.0.0.1, also ``localhost``."""
    names = {address}
    if address.startswith("127."):
        names.add("localhost")
    else:
        with contextlib.suppress(OSError):
            host = socket.gethostname().lower()
            if host:
                names |= {host, host.split(".")[0], host.split(".")[0] + ".local"}
    return {n.lower().rstrip(".") for n in names if n}


def make_server(site, sock: socket.socket):
    """uvicorn for ``site`` on ``sock``, its settings chosen (issue 22, S2):

    - the h11 protocol, with :mod:`companion.web.connections`' rules (a request due within
      5 s of opening or of the previous response, or the shorter time ``COMPANION_REQUEST_SECONDS``
      sets, at most 256 connections waiting, the oldest
      pushed out first, open connections bounded by the file limit, raised where allowed);
    - ``limit_concurrency`` off: uvicorn counts every open connection against it, idle ones
      included, and answers every request 503 past it (200 idle sockets shut every phone out);
      the live pages' streams are bounded by the live channel instead;
    - ``timeout_keep_alive`` 5 s, the same as a new connection's;
    - ``h11_max_incomplete_event_size`` 8 KiB: a request head larger than that is refused (a
      phone's is under 2 KiB: the one cookie is a page's language, ``companion-lang=de``);
    - ``backlog`` 1,024, no WebSocket (``ws="none"``), no lifespan, no server or date header,
      uvicorn's own access log off (the site writes its own, without paths);
    - ``timeout_graceful_shutdown`` 2 s: the live streams are ended first, and the wrong guesses
      being slowed down answered at once, so stopping is quick.
    """
    import uvicorn

    from companion.web import connections

    site.hosts = own_names(sock.getsockname()[0])
    timeout = connections.request_timeout()
    guard = connections.Guard(max_open=connections.max_open_for(connections.open_files_limit()),
                              request_timeout=timeout)
    guard.on_shutdown.append(site.live.close_all)
    guard.on_shutdown.append(site.stop_slowing)
    site.guard = guard
    config = uvicorn.Config(site.app, http=connections.protocol_class(guard), ws="none", lifespan="off",
                            log_level="warning", access_log=False, server_header=False, date_header=False,
                            limit_concurrency=None, timeout_keep_alive=int(timeout),
                            h11_max_incomplete_event_size=connections.HEAD_LIMIT, backlog=BACKLOG,
                            timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)
    plain = server.shutdown

    async def shutdown(sockets=None) -> None:
        # the guard's own stop first: uvicorn tells only the connections still open, and a
        # wrong guess slowed down whose client has gone would keep the stop waiting its 2 s,
        # then be cancelled with a traceback printed (issue 29)
        guard.shutdown()
        await plain(sockets=sockets)

    server.shutdown = shutdown
    return server


@dataclass
class Running:
    """A server running on a thread of this process (the shell's)."""

    server: object
    thread: threading.Thread
    sock: socket.socket
    base: str
    sid: str
    data_dir: Path

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=5)
        with contextlib.suppress(OSError):
            self.sock.close()
        forget(self.data_dir)


_RUNNING: dict[str, Running] = {}


def running(data_dir: Path) -> Running | None:
    r = _RUNNING.get(str(Path(data_dir).resolve()))
    if r is not None and not r.thread.is_alive():
        _RUNNING.pop(str(Path(data_dir).resolve()), None)
        return None
    return r


def start_background(site, sock: socket.socket, base: str) -> Running:
    server = make_server(site, sock)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="companion-serve", daemon=True)
    thread.start()
    r = Running(server, thread, sock, base, site.sid, site.data_dir)
    _RUNNING[str(Path(site.data_dir).resolve())] = r
    remember(site.data_dir, base, site.sid)
    return r


def run_foreground(site, sock: socket.socket, base: str) -> None:
    """Serve until Ctrl-C (or `serve --stop` from another window sends SIGTERM)."""
    import signal

    def stopped(signum, frame):  # uvicorn re-raises the signal it caught once it has shut down
        raise KeyboardInterrupt

    server = make_server(site, sock)
    remember(site.data_dir, base, site.sid)
    previous = signal.signal(signal.SIGTERM, stopped)
    try:
        server.run(sockets=[sock])
    finally:
        signal.signal(signal.SIGTERM, previous)
        forget(site.data_dir)
        with contextlib.suppress(OSError):
            sock.close()


# -- the note other processes read (`serve --links`, `serve --stop` from another window) ----------
def _note(data_dir: Path) -> Path:
    return tokens.web_dir(data_dir) / "server.json"


def remember(data_dir: Path, base: str, sid: str) -> None:
    """Note this server for `serve --links` and `serve --stop` in other processes. Written
    aside and renamed into place: `serve` notes itself before it prints the links and again
    when it serves, and a script that read the links and asked `serve --links` at once found
    the note emptied by the second write ("No server is running")."""
    from companion.core import files

    files.atomic_write_text(_note(data_dir), json.dumps({"pid": os.getpid(), "base": base, "session": sid}))


def forget(data_dir: Path) -> None:
    with contextlib.suppress(OSError):
        note = json.loads(_note(data_dir).read_text(encoding="utf-8"))
        if note.get("pid") == os.getpid():
            _note(data_dir).unlink()


def noted(data_dir: Path) -> dict | None:
    """The server another process runs on this data folder, if it is still alive."""
    try:
        note = json.loads(_note(data_dir).read_text(encoding="utf-8"))
        pid = int(note["pid"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if pid <= 1 or pid == os.getpid():  # a damaged note: 0 or -1 would name a whole process group
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        with contextlib.suppress(OSError):
            _note(data_dir).unlink()
        return None
    except PermissionError:
        pass
    return note
