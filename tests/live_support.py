"""Shared by the live-page and server-hardening tests: a real `companion serve`, raw HTTP
requests (sent byte for byte, as `curl --path-as-is` would), and a reader of a page's stream of
server-sent events."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import subprocess
import time
from pathlib import Path
from urllib.parse import urlsplit

from process_support import ended

from browser_support import link_line
from warm_support import serve_process

PLAYERS = ["Ann", "Bob", "Cy", "Dan"]


def companion(home: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    """`companion ARGS` on ``home``, run in this test process: another process than the
    server's, which is what these tests need (a command typed on the laptop beside a running
    `serve`). Started as a process of its own, each took about 0.25 s of CPU (Python's start and
    the imports), three of them before every server test (issue 29, item 7); the commands are
    the same Click commands either way. Returns what ``subprocess.run`` would."""
    from click.testing import CliRunner

    from companion.terminal.cli import cli

    result = CliRunner().invoke(cli, list(args), env={"COMPANION_HOME": str(home)}, catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    done = subprocess.CompletedProcess(["companion", *args], result.exit_code, result.stdout, result.stderr)
    if check:
        done.check_returncode()
    return done


def new_trans(home: Path, players=PLAYERS, special: str | None = "three-rails", extra=()) -> str:
    variant = ["--variant", "special-cards"] if special else []
    companion(home, "new", "trans-europa", "--players", ",".join(players), *variant, *extra)
    companion(home, "round", "start", *(["--special", special] if special else []))
    return json.loads(companion(home, "status", "--json").stdout)["session"]


class Served:
    """`companion serve --port 0` on 127.0.0.1 in its own process, piped (forked from a warm one:
    tests/warm_support.py serve_process)."""

    def __init__(self, home: Path, players=PLAYERS):
        self.home = home
        self.proc = serve_process(home, "--port", "0")
        self.players: dict[str, str] = {}
        self.table = ""
        for _ in range(1 + len(players)):
            line = self.proc.stdout.readline()
            if not line:
                raise AssertionError(self.proc.stderr.read())
            kind, name, url = link_line(line)
            if kind == "table":
                self.table = url
            else:
                self.players[name] = url
        parts = urlsplit(self.table)
        self.host, self.port = parts.hostname, parts.port

    def path(self, who: str | None) -> str:
        """The path of a page: None for the table's."""
        return urlsplit(self.table if who is None else self.players[who]).path

    def token(self, who: str | None) -> str:
        return self.path(who).rsplit("/", 1)[1]

    def stop(self) -> None:
        ended(self.proc, timeout=15)
        with contextlib.suppress(Exception):
            self.proc.stdout.close()
            self.proc.stderr.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def raw(host: str, port: int, data: bytes, timeout: float = 10.0) -> bytes:
    """Send ``data`` as it is on a fresh connection; everything the server answers until it
    closes (send ``Connection: close``) or ``timeout``."""
    with socket.create_connection((host, port), timeout=timeout) as s:
        s.sendall(data)
        out = b""
        with contextlib.suppress(socket.timeout):
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                out += chunk
        return out


def get(host: str, port: int, path: str, headers: dict | None = None, method: str = "GET",
        timeout: float = 10.0) -> tuple[int, dict, bytes]:
    """(status, headers, body) of one request written by hand (the path sent as given)."""
    head = {"Host": f"{host}:{port}", "Connection": "close", **(headers or {})}
    lines = [f"{method} {path} HTTP/1.1"] + [f"{k}: {v}" for k, v in head.items() if v is not None]
    answer = raw(host, port, ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"), timeout)
    return parse(answer)


def parse(answer: bytes) -> tuple[int, dict, bytes]:
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    if not lines or not lines[0].startswith("HTTP/"):
        return 0, {}, answer
    headers = {}
    for line in lines[1:]:
        k, _, v = line.partition(":")
        headers[k.strip().lower()] = v.strip()
    if headers.get("transfer-encoding") == "chunked":
        body = dechunk(body)
    return int(lines[0].split()[1]), headers, body


def dechunk(body: bytes) -> bytes:
    out = b""
    while body:
        size, _, rest = body.partition(b"\r\n")
        n = int(size.split(b";")[0] or b"0", 16)
        if n == 0:
            break
        out += rest[:n]
        body = rest[n + 2:]
    return out


class Stream:
    """A page's stream of server-sent events, read as a browser's EventSource would."""

    def __init__(self, host: str, port: int, path: str, since: str = "", timeout: float = 10.0):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        query = f"?v={since}" if since is not None else ""
        self.sock.sendall(f"GET {path}/live{query} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n"
                          .encode())
        self.buffer = b""
        head = self._until(b"\r\n\r\n", timeout)
        self.status, self.headers, _ = parse(head + b"\r\n\r\n")
        self.chunked = self.headers.get("transfer-encoding") == "chunked"
        self.text = ""

    def _until(self, mark: bytes, timeout: float) -> bytes:
        end = time.monotonic() + timeout
        while mark not in self.buffer:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"nothing after {timeout} s")
            self.sock.settimeout(left)
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("the server closed the stream")
            self.buffer += chunk
        before, _, self.buffer = self.buffer.partition(mark)
        return before

    def _more_text(self, timeout: float) -> None:
        if not self.chunked:
            self.text += self._until(b"\n", timeout).decode() + "\n"
            return
        size = int(self._until(b"\r\n", timeout).split(b";")[0], 16)
        if size == 0:
            raise EOFError("the server ended the stream")
        end = time.monotonic() + timeout
        while len(self.buffer) < size + 2:
            self.sock.settimeout(max(0.01, end - time.monotonic()))
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("the server closed the stream")
            self.buffer += chunk
        self.text += self.buffer[:size].decode()
        self.buffer = self.buffer[size + 2:]

    def event(self, timeout: float = 10.0) -> dict:
        """The next event's fields ({"data": ..., "retry": ...}); comments are skipped."""
        end = time.monotonic() + timeout
        while True:
            while "\n\n" not in self.text:
                self._more_text(max(0.01, end - time.monotonic()))
            block, _, self.text = self.text.partition("\n\n")
            fields: dict = {}
            for line in block.split("\n"):
                if not line or line.startswith(":"):
                    continue
                k, _, v = line.partition(":")
                v = v[1:] if v.startswith(" ") else v
                fields[k] = fields[k] + "\n" + v if k == "data" and k in fields else v
            if fields:
                return fields

    def data(self, timeout: float = 10.0) -> str:
        """The version of the next page the server sends (``event: page``; the ``retry``
        advice and pings skipped)."""
        return self.page(timeout)[0]

    def page(self, timeout: float = 10.0) -> tuple[str, str]:
        """(version, html) of the next page the server sends on this stream."""
        end = time.monotonic() + timeout
        while True:
            fields = self.event(max(0.01, end - time.monotonic()))
            if fields.get("event") == "page":
                html = fields["data"]
                found = re.search(r' data-v="([^"]*)"', html)
                return (found.group(1) if found else ""), html

    def ping(self, timeout: float = 10.0) -> str:
        """The version the next ping says the page shows."""
        end = time.monotonic() + timeout
        while True:
            fields = self.event(max(0.01, end - time.monotonic()))
            if fields.get("event") == "ping":
                return fields["data"]

    def closed(self, timeout: float = 5.0) -> bool:
        """Does the server end this stream within ``timeout`` seconds?"""
        try:
            end = time.monotonic() + timeout
            while time.monotonic() < end:
                self._more_text(max(0.01, end - time.monotonic()))
        except (EOFError, ConnectionError):
            return True
        except (TimeoutError, socket.timeout):
            return False
        return False

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()


class Wifi:
    """A stand-in for the phone's Wi-Fi: a TCP relay on 127.0.0.1 in front of the server. `cut()`
    drops every connection through it and refuses new ones, as a lost network does to the
    phone's; `restore()` lets them through again."""

    def __init__(self, host: str, port: int):
        import threading

        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.up = True
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, url: str) -> str:
        parts = urlsplit(url)
        return f"http://127.0.0.1:{self.port}{parts.path}"

    def _accept(self) -> None:
        import threading

        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.up:
                client.close()
                continue
            try:
                server = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.pairs.append((client, server))
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a: socket.socket, b: socket.socket) -> None:
        try:
            a.settimeout(None)
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        finally:
            for s in (a, b):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                    s.close()

    def cut(self) -> None:
        self.up = False
        with self.lock:
            pairs, self.pairs = self.pairs, []
        for pair in pairs:
            for s in pair:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                    s.close()

    def restore(self) -> None:
        self.up = True

    def close(self) -> None:
        self.cut()
        self.listener.close()
