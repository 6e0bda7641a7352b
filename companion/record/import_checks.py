"""The hostile import's reading of a whole file: its keys, each session's description and
journal, the aliases and the titles, into a :class:`Bundle` (no disk access besides the game
rules). A single problem refuses the whole file in one line."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from companion.contract.language import _
from companion.contract.errors import CompanionError
from companion.record import import_limits as limits
from companion.record.import_values import (check_played_on, check_time, check_type, kind_of, parse, refuse,
                                            size_words, too_large, walk)
from companion.record.json_export import FORMAT, VERSION
from companion.record.players import check_name

ID_PATTERN = re.compile(r"[a-z0-9]{8}")
META_KEYS = {"id", "game", "players", "options", "created", "data", "seed", "commitment", "entropy", "played_on",
             "location", "roles"}
META_REQUIRED = {"id", "game", "players", "options", "created", "data"}
TOP_KEYS = {"format", "version", "exported_at", "companion", "aliases", "titles", "sessions"}
KINDS = {"do", "undo", "redo", "reveal"}


def _check_meta(meta: Any, n: int, name: str) -> dict:
    from companion.core import dealing
    from companion.core import registry as games
    from companion.core.session import check_players

    check_type(meta, dict, _("session {n}'s meta").format(n=n), name)
    sid = meta.get("id")
    if not isinstance(sid, str) or not ID_PATTERN.fullmatch(sid):
        shown = repr(sid)[:30]
        raise refuse(name, _("session {n} has the id {shown}, but an id is 8 letters a-z or digits")
                             .format(n=n, shown=shown))
    where = f"session {sid}"
    unknown = set(meta) - META_KEYS
    if unknown:
        from companion.contract.text import safe_text

        raise refuse(name, _("{where} has keys this companion does not know ({join}): it knows {join2}")
                             .format(where=where, join=safe_text(', '.join(sorted(unknown))[:80]), join2=', '.join(sorted(META_KEYS))))
    missing = META_REQUIRED - set(meta)
    if missing:
        raise refuse(name, _("{where} lacks {join}").format(where=where, join=', '.join(sorted(missing))))
    gid = meta["game"]
    check_type(gid, str, _("{where}'s game").format(where=where), name)
    if gid not in games.known() or gid not in games.available():
        raise refuse(name, _("{where} is a game this companion does not know ({gid}): upgrade companion")
                             .format(where=where, gid=repr(gid[:40])))
    game = games.get(gid)
    players = check_type(meta["players"], list, _("{where}'s players").format(where=where), name)
    if not all(isinstance(p, str) for p in players):
        raise refuse(name, _("{where}'s players must be names").format(where=where))
    from companion.core.session import NAME_MAX
    from companion.contract.text import safe_text

    for p in players:
        if len(p) > NAME_MAX:  # said shortened: the name itself may be thousands of characters
            raise refuse(name, _("{where}: the name '{safe_text}...' is longer than {NAME_MAX} characters")
                                 .format(where=where, safe_text=safe_text(p[:NAME_MAX]), NAME_MAX=NAME_MAX))
    try:
        if check_players(players, game) != players:
            raise CompanionError(_("a player name has spaces around it"))
    except CompanionError as exc:
        raise refuse(name, f"{where}: {exc.message.rstrip('.')}") from None
    check_type(meta["options"], dict, _("{where}'s options").format(where=where), name)
    check_type(meta["data"], dict, _("{where}'s printed values").format(where=where), name)
    check_time(meta["created"], _("{where}'s start").format(where=where), name)
    if "played_on" in meta:
        check_played_on(meta["played_on"], _("{where}'s played_on").format(where=where), name)
    if "location" in meta:
        check_type(meta["location"], str, _("{where}'s location").format(where=where), name)
        if len(meta["location"]) > 100 or not meta["location"].isprintable():
            raise refuse(name, _("{where}'s location must be one line of at most 100 characters")
                                 .format(where=where))
    for key in ("seed", "commitment", "entropy"):
        if key in meta:
            check_type(meta[key], str, f"{where}'s {key}", name)
    if not game.deals and {"seed", "commitment", "entropy"} & set(meta):
        found = ", ".join(k for k in ("seed", "commitment", "entropy") if k in meta)
        raise refuse(name, _("{where} has a {found}, but {gid} deals no cards: the companion writes them only for "
                             "games that deal")
                             .format(where=where, found=found, gid=gid))
    if "roles" in meta:  # each player's colour or role (issue 23)
        roles = check_type(meta["roles"], dict, _("{where}'s roles").format(where=where), name)
        if not all(p in players and isinstance(v, str) and 0 < len(v) <= 40 and v.isprintable()
                   for p, v in roles.items()):
            raise refuse(name, _("{where}'s roles must give seated players a colour or role of at most 40 characters")
                                 .format(where=where))
    if game.deals and not {"seed", "commitment", "entropy"} <= set(meta):
        raise refuse(name, _("{where} deals cards but has no seed, commitment and entropy").format(where=where))
    if "seed" in meta:
        if not re.fullmatch(r"[0-9a-f]{64}", meta["seed"]):
            raise refuse(name, _("{where}'s seed is not 64 hex digits").format(where=where))
        if dealing.commitment(meta["seed"]) != meta.get("commitment"):
            raise refuse(name, _("{where}'s seed does not match its commitment").format(where=where))
    return meta


def _check_journal(journal: Any, sid: str, name: str) -> list[dict]:
    where = f"session {sid}'s journal"
    check_type(journal, list, where, name)
    if len(journal) > limits.MAX_JOURNAL:
        raise refuse(name, _("{where} has more than {MAX_JOURNAL} entries").format(where=where, MAX_JOURNAL=limits.MAX_JOURNAL))
    for n, entry in enumerate(journal, 1):
        check_type(entry, dict, _("{where} entry {n}").format(where=where, n=n), name)
        kind = entry.get("kind")
        if not isinstance(kind, str) or kind not in KINDS:
            raise refuse(name, _("{where} entry {n} is not do, undo, redo or reveal").format(where=where, n=n))
        allowed = {"kind", "at", "event"} if kind == "do" else {"kind", "at"}
        if set(entry) != allowed:
            raise refuse(name, _("{where} entry {n} must have exactly the keys {join}").format(where=where, n=n, join=', '.join(sorted(allowed))))
        check_time(entry["at"], _("{where} entry {n}'s time").format(where=where, n=n), name)
        if kind == "do":
            event = check_type(entry["event"], dict, _("{where} entry {n}'s event").format(where=where, n=n), name)
            if not isinstance(event.get("type"), str) or not event["type"]:
                raise refuse(name, _("{where} entry {n}'s event has no type").format(where=where, n=n))
    return journal


def _check_aliases(value: Any, name: str) -> dict[str, str]:
    check_type(value, dict, _("the aliases"), name)
    out = {}
    for recorded, shown in value.items():
        if not isinstance(shown, str):
            raise refuse(name, _("the alias of {recorded} must be a name").format(recorded=repr(recorded[:30])))
        try:
            check_name(recorded)
            check_name(shown)
        except CompanionError as exc:
            raise refuse(name, _("the aliases: {message}").format(message=exc.message.rstrip('.'))) from None
        if shown.strip() != shown:
            raise refuse(name, _("the alias {shown} has spaces around it").format(shown=repr(shown)))
        if recorded.casefold() in out and out[recorded.casefold()] != shown:
            raise refuse(name, _("the aliases give {recorded} two names").format(recorded=repr(recorded)))
        out[recorded.casefold()] = shown
    return out


def _check_titles(value: Any, name: str) -> list[dict]:
    from companion.core import titles

    check_type(value, list, _("the titles"), name)
    if len(value) > limits.MAX_SESSIONS:
        raise refuse(name, _("it holds more than {MAX_SESSIONS} titles").format(MAX_SESSIONS=limits.MAX_SESSIONS))
    out = []
    for doc in value:
        try:
            out.append(titles.check_record(doc))
        except CompanionError as exc:
            raise refuse(name, _("the titles: {message}").format(message=exc.message.rstrip('.'))) from None
    return out


@dataclass
class Bundle:
    """A validated import file: its sessions (meta, journal) and its alias table."""

    name: str
    sessions: list[tuple[dict, list[dict]]]
    aliases: dict[str, str]
    titles: list[dict] = field(default_factory=list)  # issue 29 (absent from older files)


def read_bundle(raw: bytes, name: str) -> Bundle:
    """Parse and validate an import file completely (no disk access besides the game rules)."""
    doc = parse(raw, name)
    if not isinstance(doc, dict):
        raise refuse(name, _("it is not a companion export: it holds {kind}, not one object (make one with "
                             "`export --format json`)").format(kind=kind_of(doc)))
    if "format" not in doc:
        raise refuse(name, _('it is not a companion export: it has no format (an export says "format": '
                             '"{format}") (make one with `export --format json`)').format(format=FORMAT))
    if doc.get("format") != FORMAT:
        from companion.contract.text import safe_text

        raise refuse(name, _("it is not a companion export: its format is {found}, not '{format}' (make one with "
                             "`export --format json`)").format(found=safe_text(repr(doc.get("format")))[:60],
                                                               format=FORMAT))
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise refuse(name, _("it has no valid format version"))
    if version > VERSION:
        raise refuse(name, _("it was written by a newer companion (format {version}, this one reads {reads}): "
                             "upgrade companion").format(version=version, reads=VERSION))

    unknown = set(doc) - TOP_KEYS
    if unknown:
        raise refuse(name, _("it has keys this companion does not know ({join})").format(join=', '.join(sorted(unknown))[:80]))
    items = check_type(doc.get("sessions"), list, _("the sessions"), name)
    if len(items) > limits.MAX_SESSIONS:
        raise refuse(name, _("it holds more than {MAX_SESSIONS} sessions").format(MAX_SESSIONS=limits.MAX_SESSIONS))
    aliases = _check_aliases(doc.get("aliases", {}), name)
    titles = _check_titles(doc.get("titles", []), name)
    walk({k: v for k, v in doc.items() if k != "sessions"}, "the file", name)
    sessions: list[tuple[dict, list[dict]]] = []
    seen: set[str] = set()
    for n, item in enumerate(items, 1):
        check_type(item, dict, _("session {n}").format(n=n), name)
        if set(item) != {"meta", "journal"}:
            raise refuse(name, _("session {n} must have exactly the keys journal and meta").format(n=n))
        meta = _check_meta(item["meta"], n, name)
        sid = meta["id"]
        if sid in seen:
            raise refuse(name, _("the session id {id} appears twice").format(id=sid))
        seen.add(sid)
        journal = _check_journal(item["journal"], sid, name)
        if len(json.dumps(item, ensure_ascii=False)) > limits.MAX_SESSION_CHARS:
            raise refuse(name, _("session {id} is larger than {MAX_SESSION_CHARS}").format(id=sid, MAX_SESSION_CHARS=size_words(limits.MAX_SESSION_CHARS)))
        walk(item, f"session {sid}", name)
        sessions.append((meta, journal))
    return Bundle(name, sessions, aliases, titles)


def read_bundle_sized(raw: bytes, name: str) -> Bundle:
    """:func:`read_bundle` of bytes read elsewhere (standard input), with the size limit."""
    if len(raw) > limits.MAX_FILE_BYTES:
        raise refuse(name, too_large())
    return read_bundle(raw, name)
