"""What each viewer is shown, as bytes: the surfaces a secret must not reach.

The table (viewer None) is shown the `status` screen, `status --json`, `log` and `log --json`
(each run as a typed command is, through the root group), the table's page and what the
table's stream sends; each player, their page and what their stream sends. Pages are drawn by
the server's own :class:`companion.web.site.Site`, the stream's bytes by its own
:func:`companion.web.live.event`. Times are not secrets: a recorded time in what a command
prints is masked, so that two runs recorded a moment apart compare equal.
"""

from __future__ import annotations

import contextlib
import io
import re

TIMES = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?([+-]\d\d:\d\d|Z)?")
LOG_TIMES = re.compile(rb"(?m)^(\s*\d+\. )\d\d:\d\d")
TABLE_COMMANDS = (("the table's screen (status)", "status"), ("status --json", "status --json"),
                  ("log", "log"), ("log --json", "log --json"))


def masked(data: bytes) -> bytes:
    return LOG_TIMES.sub(rb"\1--:--", TIMES.sub(b"TIME", data))


def typed(app, line: str) -> tuple[int, bytes]:
    """A command line run through the root group as the shell runs it: (status, what it printed)."""
    from companion.terminal.cli import run_line

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code, message = run_line(app, line)
    return code, (out.getvalue() + (message or "")).encode("utf-8")


class Viewed:
    """The surfaces of one data folder's session: ``shown()`` -> {(viewer, surface): bytes}."""

    def __init__(self, app, sid: str, players: list[str]):
        from companion.web import tokens
        from companion.web.site import Site

        self.app, self.sid, self.players = app, sid, list(players)
        self.links = tokens.links(app.data_dir, sid, self.players)
        self.site = Site(app.data_dir, sid)

    def page(self, who) -> tuple[bytes, bytes]:
        from companion.web import live, tokens

        key = tokens.TABLE if who is None else who
        html, version = self.site.render(key)
        token = self.links[key]
        # a page's version is a keyed hash of the page: it differs exactly when the rest does,
        # so it is left out, and the words that differ are named instead
        html = html.replace(version, "(version)")
        return html.encode("utf-8"), live.event("page", self.site.for_token(html, token))

    def shown(self, viewers=None) -> dict[tuple[str | None, str], bytes]:
        """What each of ``viewers`` (default: the table and every player) is shown now."""
        viewers = [None, *self.players] if viewers is None else list(viewers)
        out: dict[tuple[str | None, str], bytes] = {}
        if None in viewers:
            for name, line in TABLE_COMMANDS:
                out[(None, name)] = masked(typed(self.app, f"{line} --session {self.sid}")[1])
        for who in viewers:
            whose = "the table's" if who is None else f"{who}'s"
            out[(who, f"{whose} page")], out[(who, f"{whose} stream")] = self.page(who)
        return out
