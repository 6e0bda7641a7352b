"""The note a running `serve` leaves for `serve --links` and `serve --stop` in other processes is
never seen half written (issue 29).

`serve` notes itself before it prints the links (a script reading them may ask at once) and
again when it starts serving; the note was truncated and then written, so a `serve --links`
asked between the two found it empty and answered "No server is running" while the server ran
(seen once in the suite under load). Here one process writes the note again and again while
this one reads it: every read finds the server.
"""

from __future__ import annotations

import contextlib
import os

from companion.web import server, tokens


def test_a_note_rewritten_while_read_is_always_whole(tmp_path):
    tokens.web_dir(tmp_path).mkdir(parents=True, exist_ok=True)
    server.remember(tmp_path, "http://127.0.0.1:1", "abcdefgh")  # this process's note: not another server
    pid = os.fork()
    if pid == 0:  # a server noting itself, again and again
        code = 1
        try:
            for _ in range(3_000):
                server.remember(tmp_path, "http://127.0.0.1:8", "abcdefgh")
            code = 0
        finally:
            os._exit(code)
    try:
        misses, reads, seen = 0, 0, 0
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            note = server.noted(tmp_path)
            if note is not None and note["pid"] == pid:
                seen += 1
                assert note["base"] == "http://127.0.0.1:8" and note["session"] == "abcdefgh"
            elif seen:
                misses += 1  # the child's note was read before: it is gone or half written
            reads += 1
            if done:
                break
    finally:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    assert seen and misses <= 1, (misses, reads)  # at most the read after the writer ended
    assert server.noted(tmp_path) is None  # the writer is gone: so is its note
    server.remember(tmp_path, "http://127.0.0.1:1", "abcdefgh")
    assert (tokens.web_dir(tmp_path) / "server.json").stat().st_mode & 0o777 == 0o600  # owner-only, as before
