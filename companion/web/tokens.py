"""The links' secrets: one token per session and player, one for the table page.

Why a file: the links printed (or drawn as QR codes) must keep working when the server is
restarted, and `serve --new-links` must be able to replace them all. The file lives in the
data folder, readable by its owner only, and is the one place tokens are written: never the
session file (so `export`, `log` and reports cannot carry them), never a log.

The table's token is kept apart from the players' (``{"table": T, "players": {name: t}}`` per
session), so a player may be called "table" (issue 22, W3). In memory the table is the key
:data:`TABLE`, which no player's name can be (a name never holds ``=``).
"""

from __future__ import annotations

import contextlib
import hmac
import json
import os
import secrets
from pathlib import Path

TOKEN_BYTES = 18  # 144 bits from `secrets`, 24 URL-safe characters
TABLE = "=table"  # the table page's key among a session's links: `=` is refused in every name


def web_dir(root: Path) -> Path:
    """The data folder's private folder for the server (owner only), in this machine's own
    folder ``.local/`` (issue 30: a laptop's links and notes never travel with the sync)."""
    from companion.core.store import Store

    from companion.core.files import make_private_folder

    path = Store(root).local_path("web")
    make_private_folder(path)
    with contextlib.suppress(OSError):
        os.chmod(path, 0o700)
    return path


def tokens_path(root: Path) -> Path:
    return web_dir(root) / "tokens.json"


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def read_private(path: Path) -> dict:
    """A small JSON file of the server's (the tokens, the seats): {} when missing or damaged."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_private(path: Path, data: dict) -> None:
    """Write owner-only from the first byte: the file is created 0600, synced, then renamed in
    place."""
    tmp = path.with_name(f".{path.stem}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):
        os.chmod(path, 0o600)


def _read(root: Path) -> dict:
    return read_private(tokens_path(root))


def _write(root: Path, data: dict) -> None:
    write_private(tokens_path(root), data)


def server_secret(root: Path) -> bytes:
    """The key the per-page form tokens are derived from (made once, kept with the tokens)."""
    data = _read(root)
    if not isinstance(data.get("secret"), str):
        data["secret"] = secrets.token_hex(32)
        _write(root, data)
    return bytes.fromhex(data["secret"])


def _entry(data: dict, sid: str) -> tuple[str | None, dict[str, str]]:
    """(table token, {player: token}) of ``sid`` as the file holds them. The file of issue 14
    kept both in one table, the table's under "table": that token stays the table's, and a
    player who was called "table" gets a token of their own on first use."""
    entry = (data.get("sessions") or {}).get(sid)
    if not isinstance(entry, dict):
        return None, {}
    table = entry.get("table") if isinstance(entry.get("table"), str) else None
    if isinstance(entry.get("players"), dict):
        players = entry["players"]
    else:  # the older flat form
        players = {k: v for k, v in entry.items() if k != "table"}
    return table, {k: v for k, v in players.items() if isinstance(k, str) and isinstance(v, str)}


def known(root: Path, sid: str) -> dict[str, str]:
    """{TABLE: token, player: token, ...} of session ``sid`` as the file holds them now."""
    table, players = _entry(_read(root), sid)
    return ({TABLE: table} if table else {}) | players


def links(root: Path, sid: str, players: list[str], renew: bool = False) -> dict[str, str]:
    """{TABLE: token, player: token, ...} for session ``sid``: made on first use, replaced
    all at once with ``renew`` (`serve --new-links`), and completed for players added since."""
    data = _read(root)
    if not isinstance(data.get("secret"), str):
        data["secret"] = secrets.token_hex(32)
    sessions = data.setdefault("sessions", {})
    old = sessions.get(sid)
    table, mine = (None, {}) if renew else _entry(data, sid)
    changed = renew or not isinstance(old, dict) or not isinstance(old.get("players"), dict)
    if table is None:
        table, changed = new_token(), True
    mine = dict(mine)
    for who in players:
        if who not in mine:
            mine[who] = new_token()
            changed = True
    if changed:
        sessions[sid] = {"table": table, "players": mine}
        _write(root, data)
    return {TABLE: table} | {who: mine[who] for who in players}


def find(known: dict[str, str], given: str) -> str | None:
    """Whose token ``given`` is (:data:`TABLE` or a player's name), or None.

    Every known token is compared, in constant time each, so the time taken does not say how
    much of a guess was right nor which entry it came close to.
    """
    found = None
    given_b = given.encode("utf-8", "replace")
    for who, token in known.items():
        if hmac.compare_digest(token.encode(), given_b):
            found = who
    return found
