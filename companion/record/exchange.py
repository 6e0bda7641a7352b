"""Exports other tools read (json, csv, BoardGameGeek play XML) and the json import.

The json export is the whole record of each session (its fixed description with the printed
values it froze, and its append-only journal, undone entries included), plus the alias table,
so `import` into another data folder rebuilds every session exactly: `status` replays the same
journal through the same rules. Two laptops merge by exporting from one and importing into
the other.

An import file comes from elsewhere and is treated as hostile: it is validated completely
(types, keys, sizes, ids, names, games, every session replayed by the rules) before anything is
written, and a single problem refuses the whole file in one line. A session already present
with the same content is skipped; with different content the file is refused.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable
from xml.etree import ElementTree as ET

from companion.core import session as sessions
from companion.record import stats as history
from companion.contract.errors import BusyError, CompanionError, StoreError
from companion.contract.numbers import LARGEST
from companion.record.players import Roster, check_name, load_aliases, same_session_clash, save_aliases
from companion.core.store import SCHEMA_KEY, Store, atomic_write_text, index_entry, now, open_db, schema_version

FORMAT = "tabletop-companion"
VERSION = 1
FORMATS = ("json", "csv", "bgg", "bgstats", "bgstats-link")
# the columns of release 0.1 first, in their order; issue 23's after them
CSV_COLUMNS = ["session", "game", "date", "player", "seat", "score", "rank", "winner", "finished",
               "abandoned", "location", "notes", "title", "bgg_id", "team", "role", "start_player", "minutes",
               "coop"]
# A spreadsheet runs a cell starting with one of these as a formula (CSV injection): such text
# cells are written with a leading ' so they stay text. Numbers we write ourselves are numbers.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
BGG_TERMS = "https://boardgamegeek.com/xmlapi/termsofuse"

# Limits of an import file: generous for any real group, small enough that a hostile file
# cannot exhaust memory or time.
MAX_FILE_BYTES = 256 * 1024 * 1024
MAX_SESSIONS = 200_000
MAX_JOURNAL = 100_000
MAX_SESSION_CHARS = 16 * 1024 * 1024
MAX_STRING = 100_000
MAX_DEPTH = 64
MAX_INT = LARGEST  # the one bound of companion.contract.numbers: every way in agrees
ID_PATTERN = re.compile(r"[a-z0-9]{8}")
META_KEYS = {"id", "game", "players", "options", "created", "data", "seed", "commitment", "entropy", "played_on",
             "location", "roles"}
META_REQUIRED = {"id", "game", "players", "options", "created", "data"}
TOP_KEYS = {"format", "version", "exported_at", "companion", "aliases", "titles", "sessions"}
KINDS = {"do", "undo", "redo", "reveal"}


# -- what sessions to export -------------------------------------------------------------------


def selection(store: Store, roster: Roster, game: str | None = None, player: str | None = None,
              entries: list[dict] | None = None) -> list[dict]:
    """The index entries `export --game/--player` picks (refusing an unknown game or player)."""
    from companion.record.players import shown_players

    entries = sessions.index(store) if entries is None else entries
    game = history.check_game(game, entries)
    shown = roster.find(player, shown_players(entries, roster).values()) if player is not None else None
    return history.select(entries, roster, game, shown)


def export_json(store: Store, entries: list[dict], aliases: dict[str, str]) -> str:
    """Every chosen session's description and journal, with the aliases of its players."""
    buf = io.StringIO()
    write_json(store, entries, aliases, buf)
    return buf.getvalue()


_DECODE = json.JSONDecoder().raw_decode
_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def _session_item(store: Store, sid: str, folder: str) -> str | None:
    """One session as the export's item, ``{"meta": ..., "journal": [...]}``, as JSON text.

    Taken from the file's own text (issue 23): each value is parsed once, to check it, and
    written as the very text it was read from, so nothing is encoded again. A file of another
    shape than the store writes takes the store's own read (which names any problem)."""
    import os

    import stat

    path = os.path.join(folder, sid + ".json")
    try:  # never waits on a pipe or a device put in a session's place: the checked read refuses it
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
                     | getattr(os, "O_NOCTTY", 0))
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_SESSION_CHARS * 4:
                raise ValueError("not a plain file of a session: the checked read says why")
            with os.fdopen(fd, "rb", closefd=False) as fh:
                text = fh.read().decode("utf-8")
        finally:
            os.close(fd)
        found = _split_session(sid, text)
        if found is not None:
            return found
    except (OSError, ValueError, UnicodeDecodeError):
        pass
    try:
        meta, journal = store.read_session(sid)
    except CompanionError as exc:  # one damaged session does not stop the others (issue 12)
        store.notes.append(f"Skipped: {exc.message}")  # the same line `sessions` gives: said once
        return None
    return _ENCODE({"meta": meta, "journal": journal})


SESSION_HEAD = '{"' + SCHEMA_KEY + '":{"kind":"session","version":'


def _split_session(sid: str, text: str) -> str | None:
    """The export's item of a session file written by the store (compact: its schema, then
    ``"meta":{"1":...}``, then ``"journal":{"1":...,"2":...}``), or None for any other text."""
    from companion.core.store import session_shape_problem

    head = f'{SESSION_HEAD}{schema_version("session")}}},"meta":{{"1":'
    if not text.startswith(head) or not text.endswith("}}"):
        return None
    try:
        meta, end = _DECODE(text, len(head))
        meta_text = text[len(head):end]
        if not text.startswith('},"journal":{', end):
            return None
        at = end + len('},"journal":{')
        pieces, journal, last = [], [], 0
        while text[at] != "}":
            colon = text.index('":', at)
            if text[at] != '"':
                return None
            number = int(text[at + 1:colon])
            if number <= last:
                return None
            entry, stop = _DECODE(text, colon + 2)
            pieces.append(text[colon + 2:stop])
            journal.append(entry)
            last = number
            at = stop + 1 if text[stop] == "," else stop
        if text[at:] != "}}":
            return None
    except (ValueError, IndexError, RecursionError):
        return None
    if not isinstance(meta, dict) or meta.get("id") != sid or session_shape_problem(sid, meta, journal):
        return None
    return '{"meta":' + meta_text + ',"journal":[' + ",".join(pieces) + "]}"


def write_json(store: Store, entries: list[dict], aliases: dict[str, str], out) -> int:
    """Write the json export to the text stream ``out`` session by session (issue 23: at 50,000
    sessions the whole document was built in memory and encoded by Python's pure-Python
    encoder, which ``indent`` forces: 8 s and 1 GB). One session per line, compact; `import`
    reads it exactly as before. Returns the number of sessions written."""
    from companion import __version__

    recorded = {p.casefold() for e in entries for p in e.get("players") or ()}
    head = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": now(),
        "companion": __version__,
        "aliases": {k: v for k, v in sorted(aliases.items()) if k in recorded},
        "titles": titles_of(store, entries),  # issue 29: a title's ways of play and id travel too
    }
    text = json.dumps(head, ensure_ascii=False, indent=1)
    out.write(text[:-2] + ',\n "sessions": [')
    folder = str(store.sessions_dir)
    written = 0
    for e in entries:
        item = _session_item(store, e["id"], folder)
        if item is None:
            continue
        out.write(("\n  " if not written else ",\n  ") + item)
        written += 1
    out.write("\n ]\n}\n" if written else "]\n}\n")
    return written


def titles_of(store: Store, entries: list[dict]) -> list[dict]:
    """The remembered records of the titles the exported sessions were played under (their
    ways of play and BoardGameGeek ids, late ids included), by title."""
    from companion.core import titles
    from companion.contract.text import name_key

    wanted = {name_key(e["title"]) for e in entries if isinstance(e.get("title"), str)}
    if not wanted:
        return []
    known = titles.load(store)
    return [known[k] for k in sorted(wanted) if k in known]


# -- one table row per player per session (csv and bgg) ---------------------------------------


@dataclass
class Play:
    id: str
    game: str  # the history's key: a game id, or a score sheet's title
    created: str
    seats: list[str]
    scores: dict[str, Any]
    winners: list[str]
    ranks: dict[str, int]
    finished: bool
    minutes: int | None
    date: str = ""  # the calendar date it was played
    location: str = ""
    abandoned: str | None = None  # the reason ("" for none) when abandoned
    notes: tuple[str, ...] = ()
    # issue 23
    title: str = ""
    bgg_id: int | None = None
    teams: list[list[str]] | None = None
    roles: dict[str, str] = field(default_factory=dict)
    start: str | None = None
    coop: bool = False
    won: bool | None = None
    tie_break: str = ""

    def team_of(self, name: str) -> str:
        return next(("+".join(t) for t in self.teams or () if name in t), "")

    @property
    def number(self) -> int:
        """The play's id in BoardGameGeek's play XML: the session id read as a number in base
        36, so every play has its own id, the same at every export."""
        return int(self.id, 36)


class BggIds:
    """The BoardGameGeek id of each game of a history, looked up once per game: a title's
    remembered one (`--bgg-id`), else the game's pack with the players' own (`data set GAME
    bgg_id N`)."""

    def __init__(self, store: Store):
        self.store = store
        self._by_game: dict[str, int | None] = {}
        self._titles = None

    def of(self, game: str, title: str | None = None) -> int | None:
        if title:
            if self._titles is None:
                from companion.core import titles

                self._titles = titles.load(self.store)
            from companion.contract.text import name_key

            found = (self._titles.get(name_key(title)) or {}).get("bgg_id")
            return found if isinstance(found, int) else None
        if game not in self._by_game:
            self._by_game[game] = pack_bgg_id(self.store, game)
        return self._by_game[game]


def pack_bgg_id(store: Store, game: str) -> int | None:
    from companion.core import datapack

    try:
        if not datapack.has_pack(game):
            return None
        found = datapack.merged(game, store.user_values(game)).get("bgg_id")
    except CompanionError:
        return None
    return found if isinstance(found, int) and not isinstance(found, bool) and found > 0 else None


def bgg_id_of(store: Store, meta: dict) -> int | None:
    """The BoardGameGeek id of a session's game (its description: ``game`` and ``options``)."""
    title = (meta.get("options") or {}).get("title") or meta.get("title")
    return BggIds(store).of(meta["game"], title if isinstance(title, str) else None)


def notes_of(done: list[dict]) -> tuple[str, ...]:
    """The texts of the notes among a session's effective events."""
    return tuple(str(e["event"].get("text", "")) for e in done if e["event"].get("type") == "note")


def plays(store: Store, entries: list[dict], roster: Roster) -> list[Play]:
    """Finished sessions from the index (their files read for the notes only); sessions in
    play or abandoned are replayed for their scores so far."""
    from companion.core import session as sessions
    from companion.core.plugins import skipping

    out = []
    ids = BggIds(store)
    for e in entries:
        key = history.game_key(e)
        extra = {"date": history.played_date(e), "location": str(e.get("location") or ""),
                 "title": history.title(key), "bgg_id": ids.of(e["game"], e.get("title"))}
        if history.finished(e):
            r = history.Result(e, roster)
            s = sessions.load(store, e["id"])
            done, _ = s.fold()
            options = s.meta.get("options") or {}
            start = options.get("start") if isinstance(options.get("start"), str) else None
            summary = e.get("summary") or {}
            scores = {p: None for p in r.scores} if history.no_points_entered(summary) else r.scores
            out.append(Play(r.id, r.game, e["created"], r.seats, scores, r.winners, r.ranks, True,
                            None if r.minutes is None else round(r.minutes), notes=notes_of(done), teams=r.teams,
                            roles={roster.show(p): v for p, v in (s.meta.get("roles") or {}).items()},
                            start=roster.show(start) if start else (r.seats[0] if r.seats else None),
                            coop=r.coop, won=r.won, tie_break=str(summary.get("tie_break") or ""), **extra))
            continue
        def read(sid=e["id"]):
            from companion.contract.exit import Exit

            s = sessions.load(store, sid)
            replay = s.replay()
            return s, replay, Exit(s, replay).status  # a game in play: the table's scores only

        try:  # a plugin's rules that raise skip their session alone, named (issue 22)
            ok, found = skipping(store, e["id"], read)
        except CompanionError as exc:  # one damaged session does not stop the others (issue 12)
            store.notes.append(f"Skipped: {exc.message}")  # the same line `sessions` gives: said once
            continue
        if not ok:
            continue
        s, replay, status = found
        seats = [roster.show(p["name"]) for p in status.get("players", [])]
        scores = {roster.show(p["name"]): None if history.no_points_entered(status) else p.get("score")
                  for p in status.get("players", [])}
        start = history.parse_time(e["created"])
        last = history.parse_time(replay.events[-1].get("at")) if replay.events else None
        minutes = round((last - start).total_seconds() / 60) if start and last and last >= start else 0
        gone = replay.abandoned
        options = s.meta.get("options") or {}
        start = options.get("start") if isinstance(options.get("start"), str) else None
        teams = status.get("teams")
        out.append(Play(e["id"], key, e["created"], seats, scores, [], {}, False, minutes,
                        abandoned=(gone.get("reason") or "") if gone else None, notes=notes_of(replay.events),
                        teams=[[roster.show(p) for p in t] for t in teams] if teams else None,
                        roles={roster.show(p): v for p, v in (s.meta.get("roles") or {}).items()},
                        start=roster.show(start) if start else (seats[0] if seats else None),
                        coop=bool(status.get("coop")), **extra))
    return out


def safe_cell(value: Any) -> Any:
    """A CSV cell a spreadsheet shows as text: text starting like a formula gets a leading '."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def export_csv(store: Store, entries: list[dict], roster: Roster, excel: bool = False) -> str:
    """session, game, date, player, seat, score, rank, winner, finished, ...: one row per player.

    ``excel``: UTF-8 with a byte order mark and CRLF line ends (RFC 4180), so Excel and
    LibreOffice open it with every name intact without asking for the character set."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n" if excel else "\n")
    writer.writerow(CSV_COLUMNS)
    for play in plays(store, entries, roster):
        for seat, name in enumerate(play.seats, 1):
            score = play.scores.get(name)
            writer.writerow([safe_cell(c) for c in (
                play.id, play.game if play.game in _game_ids() else "scoresheet", play.date, name, seat,
                "" if score is None else score,
                play.ranks.get(name, "") if play.finished else "",
                int(name in play.winners) if play.finished else "", int(play.finished),
                int(play.abandoned is not None), play.location, " | ".join(play.notes),
                play.title, play.bgg_id or "", play.team_of(name), play.roles.get(name, ""),
                int(name == play.start), "" if play.minutes is None else play.minutes, int(play.coop))])
    return ("\ufeff" if excel else "") + buf.getvalue()


def _game_ids() -> set[str]:
    from companion.core import registry

    return set(registry.known())


def first_plays(everyone: Iterable[dict], roster: Roster) -> set[tuple[str, str]]:
    """(session id, player key) of each player's first play of each game in the whole history
    (BoardGameGeek's ``new``, issue 29): in the order the plays were played, abandoned games
    not counted, a player renamed or merged counted as the one player they are now."""
    seen: set[tuple[str, str]] = set()
    out: set[tuple[str, str]] = set()
    for e in sorted((e for e in everyone if not history.abandoned(e)),
                    key=lambda e: (history.when(e), str(e.get("created") or ""), e["id"])):
        game = history.game_key(e).casefold()
        for name in e.get("players") or ():
            key = roster.key(name)
            if (key, game) not in seen:
                seen.add((key, game))
                out.add((e["id"], key))
    return out


def export_bgg(store: Store, entries: list[dict], roster: Roster, everyone: list[dict] | None = None) -> str:
    """The play-log XML of BoardGameGeek's plays (one <play> per session).

    Every play has its own id, the same at every export (the session id read in base 36);
    ``objectid`` is the game's BoardGameGeek id where it is known (the built-in games' packs, a
    title's `--bgg-id`, `data set GAME bgg_id N`), else 0, and ``item name`` is the game's
    title; the session id goes in ``<comments>``; a session in play is ``incomplete="1"``.
    Dates are local calendar dates, lengths whole minutes; a player's ``color`` is their
    colour or role (`--roles`); ``new`` is 1 for a player's first play of that game in the
    whole history (``everyone``: the index; the entries exported when not given).
    """
    chosen = plays(store, entries, roster)
    firsts = first_plays(entries if everyone is None else everyone, roster)
    root = ET.Element("plays", {"username": "", "userid": "0", "total": str(len(chosen)), "page": "1",
                                "termsofuse": BGG_TERMS})
    for play in chosen:
        node = ET.SubElement(root, "play", {
            "id": str(play.number), "date": play.date, "quantity": "1", "length": str(play.minutes or 0),
            "incomplete": "0" if play.finished else "1", "nowinstats": "0", "location": play.location,
        })
        item = ET.SubElement(node, "item", {"name": play.title or history.title(play.game), "objecttype": "thing",
                                            "objectid": str(play.bgg_id or 0)})
        ET.SubElement(ET.SubElement(item, "subtypes"), "subtype", {"value": "boardgame"})
        comments = [f"Tabletop Companion session {play.id} ({play.game})"]
        if play.teams:
            comments.append("teams: " + ", ".join("+".join(t) for t in play.teams))
        if play.coop and play.finished:
            comments.append("co-operative: " + ("won together" if play.won else "lost together"))
        if play.tie_break:
            comments.append(f"tie settled by {play.tie_break}")
        if play.abandoned is not None:
            comments.append("abandoned" + (f": {play.abandoned}" if play.abandoned else ", no result"))
        comments += list(play.notes)
        ET.SubElement(node, "comments").text = "\n".join(comments)
        players = ET.SubElement(node, "players")
        for seat, name in enumerate(play.seats, 1):
            score = play.scores.get(name)
            ET.SubElement(players, "player", {
                "username": "", "userid": "0", "name": name, "startposition": str(seat),
                "color": play.roles.get(name, ""),
                "score": "" if score is None else str(score),
                "new": "1" if (play.id, name.casefold()) in firsts else "0", "rating": "0",
                "win": "1" if play.finished and name in play.winners else "0",
            })
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def export(store: Store, fmt: str, game: str | None = None, player: str | None = None,
           only: str | None = None, excel: bool = False) -> tuple[str, list[dict]]:
    """The export text in ``fmt`` and the entries it holds (``only``: one session's id)."""
    buf = io.StringIO()
    entries = export_to(store, fmt, buf, game, player, only, excel)
    return buf.getvalue(), entries


def export_to(store: Store, fmt: str, out, game: str | None = None, player: str | None = None,
              only: str | None = None, excel: bool = False) -> list[dict]:
    """Write the export in ``fmt`` (json, csv, bgg) to the text stream ``out``; returns the
    entries it holds. The index is read once (issue 23: it was read twice)."""
    if fmt not in ("json", "csv", "bgg"):
        raise CompanionError(f"There is no export format {fmt!r}: choose {', '.join(FORMATS)}.")
    aliases = load_aliases(store)
    everyone = sessions.index(store)
    roster = Roster(aliases, everyone)
    entries = selection(store, roster, game, player, everyone)
    if only is not None:
        entries = [e for e in entries if e["id"] == only]
    if fmt == "json":
        write_json(store, entries, aliases, out)
    elif fmt == "csv":
        out.write(export_csv(store, entries, roster, excel))
    else:
        out.write(export_bgg(store, entries, roster, everyone))
    return entries


# -- import: read and validate everything first ------------------------------------------------


class Refused(CompanionError):
    """An import file refused whole; the message names the file and what is wrong."""


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MB" if n >= 1024 * 1024 else f"{n} bytes"


def _refuse(name: str, what: str) -> Refused:
    return Refused(f"{name}: {what}; nothing was imported.")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict:
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {key!r} appears twice in one object")
        out[key] = value
    return out


def _no_constants(text: str) -> Any:
    raise ValueError(f"{text} is not a number JSON allows")


def parse(raw: bytes, name: str) -> Any:
    """The JSON value of an import file, refusing anything a strict reader would not accept."""
    if len(raw) > MAX_FILE_BYTES:
        raise _refuse(name, f"the file is larger than {_size(MAX_FILE_BYTES)}")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise _refuse(name, "it is not UTF-8 text (an export from `export --format json` is)") from None
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constants)
    except json.JSONDecodeError as exc:
        raise _refuse(name, f"it is not valid JSON (line {exc.lineno}, column {exc.colno}): "
                            "an export from `export --format json` is expected") from None
    except (ValueError, RecursionError) as exc:
        long = re.search(r"\d{4301,}", text) if isinstance(exc, ValueError) else None
        if long is not None:  # Python's own limit on reading integers: said in our words (issue 22)
            line = text.count("\n", 0, long.start()) + 1
            raise _refuse(name, f"line {line} holds a number of {len(long.group()):,} digits, beyond what any game "
                                f"counts (at most {MAX_INT:,} either way)") from None
        reason = str(exc) if isinstance(exc, ValueError) and str(exc) else "it is nested too deeply"
        raise _refuse(name, reason) from None


def _walk(value: Any, where: str, name: str) -> None:
    """Sizes, depth and numbers of any JSON value, checked without recursion; a refusal names
    the field (found again by :func:`_path_to`, only when something is wrong)."""
    stack = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise _refuse(name, f"{_at(where, _path_to(value, node)[:4])} is nested more than {MAX_DEPTH} levels deep")
        if isinstance(node, str):
            if len(node) > MAX_STRING:
                raise _refuse(name, f"{_at(where, _path_to(value, node))} is a text of {len(node):,} characters "
                                    f"(at most {MAX_STRING:,})")
        elif isinstance(node, bool) or node is None:
            pass
        elif isinstance(node, int):
            if abs(node) > MAX_INT:
                shown = str(node) if abs(node) < 10**20 else f"{str(node)[:20]}..."
                raise _refuse(name, f"{_at(where, _path_to(value, node))} holds the number {shown}, beyond what any "
                                    f"game counts (at most {MAX_INT:,} either way)")
        elif isinstance(node, float):
            if node != node or abs(node) > MAX_INT:
                raise _refuse(name, f"{_at(where, _path_to(value, node))} holds the number {node:g}, beyond what any "
                                    f"game counts (at most {MAX_INT:,} either way)")
        elif isinstance(node, dict):
            for k, v in node.items():
                if len(k) > MAX_STRING:
                    raise _refuse(name, f"{_at(where, _path_to(value, node))} has a key of {len(k):,} characters "
                                        f"(at most {MAX_STRING:,})")
                stack.append((v, depth + 1))
        elif isinstance(node, list):
            stack.extend((v, depth + 1) for v in node)


def _path_to(root: Any, target: Any) -> tuple:
    """The keys and indexes from ``root`` to the value ``target`` (the same object)."""
    stack: list[tuple[Any, tuple]] = [(root, ())]
    while stack:
        node, path = stack.pop()
        if node is target:
            return path
        if isinstance(node, dict):
            stack.extend((v, path + (k,)) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((v, path + (i,)) for i, v in enumerate(node))
    return ()


def _at(where: str, path: tuple) -> str:
    """A field in words: `session ID's journal entry 3's event.scores.Ann`."""
    from companion.contract.text import safe_text

    parts = list(path)
    if parts[:1] == ["journal"] and len(parts) > 1 and isinstance(parts[1], int):
        where, parts = f"{where}'s journal entry {parts[1] + 1}", parts[2:]
    if not parts:
        return where
    dotted = ""
    for part in parts:
        dotted += f"[{part}]" if isinstance(part, int) else ("." if dotted else "") + safe_text(str(part)[:30])
    return f"{where}'s {dotted}"


KIND_NAMES = {dict: "an object", list: "a list", str: "a text", int: "a whole number", float: "a number",
              bool: "true or false", type(None): "null"}


def _kind_of(value: Any) -> str:
    return KIND_NAMES.get(type(value), "something else")


def _type(value: Any, kind: type | tuple, what: str, name: str) -> Any:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        wanted = KIND_NAMES.get(kind, "something else") if not isinstance(kind, tuple) else "a value of another kind"
        raise _refuse(name, f"{what} must be {wanted}, not {_kind_of(value)}")
    return value


TIME_EXAMPLE = "2026-03-01T19:30:00+00:00"


def _time(value: Any, what: str, name: str) -> str:
    """A time as the companion writes it: ISO 8601 with its zone. A time without a zone was
    made or changed elsewhere, and guessing its zone could move a game to another day: it is
    refused, naming the entry (issue 22: one broke `export --format csv` for the whole folder)."""
    from companion.contract.text import safe_text

    _type(value, str, what, name)
    shown = safe_text(repr(value[:40]))
    if len(value) > 40 or history.parse_time(value) is None:
        raise _refuse(name, f"{what} is not a date and time ({shown}): the companion writes times as {TIME_EXAMPLE}")
    from datetime import datetime

    if datetime.fromisoformat(value).tzinfo is None:
        raise _refuse(name, f"{what} ({shown}) has no time zone: the companion writes every time with one, as "
                            f"{TIME_EXAMPLE} (UTC)")
    return value


def _played_on(value: Any, what: str, name: str) -> str:
    """`--played-on` as the companion writes it: YYYY-MM-DD or YYYY-MM-DDTHH:MM."""
    from datetime import datetime

    from companion.contract.text import safe_text

    _type(value, str, what, name)
    try:
        if len(value) not in (10, 16) or (len(value) == 16 and value[10] != "T"):
            raise ValueError
        moment = datetime.fromisoformat(value)
        if moment.year < 1900:
            raise ValueError
    except ValueError:
        raise _refuse(name, f"{what} ({safe_text(repr(value[:40]))}) is not a day: the companion writes it as "
                            "YYYY-MM-DD or YYYY-MM-DDTHH:MM, e.g. 2026-03-01T19:30") from None
    return value


def _check_meta(meta: Any, n: int, name: str) -> dict:
    from companion.core import dealing
    from companion.core import registry as games
    from companion.core.session import check_players

    _type(meta, dict, f"session {n}'s meta", name)
    sid = meta.get("id")
    if not isinstance(sid, str) or not ID_PATTERN.fullmatch(sid):
        shown = repr(sid)[:30]
        raise _refuse(name, f"session {n} has the id {shown}, but an id is 8 letters a-z or digits")
    where = f"session {sid}"
    unknown = set(meta) - META_KEYS
    if unknown:
        from companion.contract.text import safe_text

        raise _refuse(name, f"{where} has keys this companion does not know ({safe_text(', '.join(sorted(unknown))[:80])}): "
                            f"it knows {', '.join(sorted(META_KEYS))}")
    missing = META_REQUIRED - set(meta)
    if missing:
        raise _refuse(name, f"{where} lacks {', '.join(sorted(missing))}")
    gid = meta["game"]
    _type(gid, str, f"{where}'s game", name)
    if gid not in games.known() or gid not in games.available():
        raise _refuse(name, f"{where} is a game this companion does not know ({gid[:40]!r}): upgrade companion")
    game = games.get(gid)
    players = _type(meta["players"], list, f"{where}'s players", name)
    if not all(isinstance(p, str) for p in players):
        raise _refuse(name, f"{where}'s players must be names")
    from companion.core.session import NAME_MAX
    from companion.contract.text import safe_text

    for p in players:
        if len(p) > NAME_MAX:  # said shortened: the name itself may be thousands of characters
            raise _refuse(name, f"{where}: the name '{safe_text(p[:NAME_MAX])}...' is longer than {NAME_MAX} "
                                "characters")
    try:
        if check_players(players, game) != players:
            raise CompanionError("a player name has spaces around it")
    except CompanionError as exc:
        raise _refuse(name, f"{where}: {exc.message.rstrip('.')}") from None
    _type(meta["options"], dict, f"{where}'s options", name)
    _type(meta["data"], dict, f"{where}'s printed values", name)
    _time(meta["created"], f"{where}'s start", name)
    if "played_on" in meta:
        _played_on(meta["played_on"], f"{where}'s played_on", name)
    if "location" in meta:
        _type(meta["location"], str, f"{where}'s location", name)
        if len(meta["location"]) > 100 or not meta["location"].isprintable():
            raise _refuse(name, f"{where}'s location must be one line of at most 100 characters")
    for key in ("seed", "commitment", "entropy"):
        if key in meta:
            _type(meta[key], str, f"{where}'s {key}", name)
    if not game.deals and {"seed", "commitment", "entropy"} & set(meta):
        found = ", ".join(k for k in ("seed", "commitment", "entropy") if k in meta)
        raise _refuse(name, f"{where} has a {found}, but {gid} deals no cards: the companion writes them only for "
                            "games that deal")
    if "roles" in meta:  # each player's colour or role (issue 23)
        roles = _type(meta["roles"], dict, f"{where}'s roles", name)
        if not all(p in players and isinstance(v, str) and 0 < len(v) <= 40 and v.isprintable()
                   for p, v in roles.items()):
            raise _refuse(name, f"{where}'s roles must give seated players a colour or role of at most 40 characters")
    if game.deals and not {"seed", "commitment", "entropy"} <= set(meta):
        raise _refuse(name, f"{where} deals cards but has no seed, commitment and entropy")
    if "seed" in meta:
        if not re.fullmatch(r"[0-9a-f]{64}", meta["seed"]):
            raise _refuse(name, f"{where}'s seed is not 64 hex digits")
        if dealing.commitment(meta["seed"]) != meta.get("commitment"):
            raise _refuse(name, f"{where}'s seed does not match its commitment")
    return meta


def _check_journal(journal: Any, sid: str, name: str) -> list[dict]:
    where = f"session {sid}'s journal"
    _type(journal, list, where, name)
    if len(journal) > MAX_JOURNAL:
        raise _refuse(name, f"{where} has more than {MAX_JOURNAL} entries")
    for n, entry in enumerate(journal, 1):
        _type(entry, dict, f"{where} entry {n}", name)
        kind = entry.get("kind")
        if not isinstance(kind, str) or kind not in KINDS:
            raise _refuse(name, f"{where} entry {n} is not do, undo, redo or reveal")
        allowed = {"kind", "at", "event"} if kind == "do" else {"kind", "at"}
        if set(entry) != allowed:
            raise _refuse(name, f"{where} entry {n} must have exactly the keys {', '.join(sorted(allowed))}")
        _time(entry["at"], f"{where} entry {n}'s time", name)
        if kind == "do":
            event = _type(entry["event"], dict, f"{where} entry {n}'s event", name)
            if not isinstance(event.get("type"), str) or not event["type"]:
                raise _refuse(name, f"{where} entry {n}'s event has no type")
    return journal


def _check_aliases(value: Any, name: str) -> dict[str, str]:
    _type(value, dict, "the aliases", name)
    out = {}
    for recorded, shown in value.items():
        if not isinstance(shown, str):
            raise _refuse(name, f"the alias of {recorded[:30]!r} must be a name")
        try:
            check_name(recorded)
            check_name(shown)
        except CompanionError as exc:
            raise _refuse(name, f"the aliases: {exc.message.rstrip('.')}") from None
        if shown.strip() != shown:
            raise _refuse(name, f"the alias {shown!r} has spaces around it")
        if recorded.casefold() in out and out[recorded.casefold()] != shown:
            raise _refuse(name, f"the aliases give {recorded!r} two names")
        out[recorded.casefold()] = shown
    return out


def _check_titles(value: Any, name: str) -> list[dict]:
    from companion.core import titles

    _type(value, list, "the titles", name)
    if len(value) > MAX_SESSIONS:
        raise _refuse(name, f"it holds more than {MAX_SESSIONS} titles")
    out = []
    for doc in value:
        try:
            out.append(titles.check_record(doc))
        except CompanionError as exc:
            raise _refuse(name, f"the titles: {exc.message.rstrip('.')}") from None
    return out


def incoming_titles(bundle: "Bundle") -> list[dict]:
    """The titles an import brings: each one's record as its sessions froze it (the latest
    session's), completed by the file's own record of it (which holds what was given later,
    a BoardGameGeek id among it). A file written before titles travelled has its sessions'."""
    from companion.core import titles
    from companion.contract.text import name_key

    out: dict[str, dict] = {}
    for meta, _journal in sorted(bundle.sessions, key=lambda s: str(s[0].get("created") or "")):
        record = titles.of_session(meta.get("options") or {})
        if record is not None:
            out[name_key(record["title"])] = record
    for record in bundle.titles:
        key = name_key(record["title"])
        out[key] = {**out.get(key, {}), **record}
    return list(out.values())


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
    how = "(make one with `export --format json`)"
    if not isinstance(doc, dict):
        raise _refuse(name, f"it is not a companion export: it holds {_kind_of(doc)}, not one object {how}")
    if "format" not in doc:
        raise _refuse(name, f'it is not a companion export: it has no format (an export says "format": '
                            f'"{FORMAT}") {how}')
    if doc.get("format") != FORMAT:
        from companion.contract.text import safe_text

        raise _refuse(name, f"it is not a companion export: its format is {safe_text(repr(doc.get('format')))[:60]}, "
                            f"not '{FORMAT}' {how}")
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _refuse(name, "it has no valid format version")
    if version > VERSION:
        raise _refuse(name, f"it was written by a newer companion (format {version}, this one reads {VERSION}): "
                            "upgrade companion")
    unknown = set(doc) - TOP_KEYS
    if unknown:
        raise _refuse(name, f"it has keys this companion does not know ({', '.join(sorted(unknown))[:80]})")
    items = _type(doc.get("sessions"), list, "the sessions", name)
    if len(items) > MAX_SESSIONS:
        raise _refuse(name, f"it holds more than {MAX_SESSIONS} sessions")
    aliases = _check_aliases(doc.get("aliases", {}), name)
    titles = _check_titles(doc.get("titles", []), name)
    _walk({k: v for k, v in doc.items() if k != "sessions"}, "the file", name)
    sessions: list[tuple[dict, list[dict]]] = []
    seen: set[str] = set()
    for n, item in enumerate(items, 1):
        _type(item, dict, f"session {n}", name)
        if set(item) != {"meta", "journal"}:
            raise _refuse(name, f"session {n} must have exactly the keys journal and meta")
        meta = _check_meta(item["meta"], n, name)
        sid = meta["id"]
        if sid in seen:
            raise _refuse(name, f"the session id {sid} appears twice")
        seen.add(sid)
        journal = _check_journal(item["journal"], sid, name)
        if len(json.dumps(item, ensure_ascii=False)) > MAX_SESSION_CHARS:
            raise _refuse(name, f"session {sid} is larger than {_size(MAX_SESSION_CHARS)}")
        _walk(item, f"session {sid}", name)
        sessions.append((meta, journal))
    return Bundle(name, sessions, aliases, titles)


def replay_check(meta: dict, journal: list[dict], name: str):
    """The session and its replay, or a refusal when the rules do not accept it."""
    from companion.core import session as sessions

    s = sessions.Session(meta, journal)
    try:
        replay = s.replay()
    except CompanionError as exc:
        reason = exc.message.replace(" Its file was not changed.", "")
        reason = reason.removeprefix(f"Session {meta['id']} cannot be replayed: ").rstrip(".")
        raise _refuse(name, f"session {meta['id']} cannot be replayed by this companion: {reason}") from None
    except Exception:  # noqa: BLE001 - hostile events may break a rules module in any way
        raise _refuse(name, _unreadable(s, journal)) from None
    try:  # what `status`, `stats` and every export ask of it (issue 22: a damaged printed value
        s.status(replay)  # in meta.data imported, then `export --format csv` failed)
    except Exception:  # noqa: BLE001 - the same: hostile values may break the rules' summary
        raise _refuse(name, f"session {meta['id']}'s printed values (meta.data) or events give a state the rules of "
                            f"{meta['game']} cannot score: it was not made by this companion") from None
    return s, replay


def _unreadable(s, journal: list[dict]) -> str:
    """Which entry breaks the rules' code (found by replaying ever shorter prefixes: a few
    replays, on a refusal only), in words without Python's: the entry, its type and the game."""
    done, _ = s.fold()
    sid, game = s.meta["id"], s.meta["game"]
    try:
        s.replay(upto=0)  # the start alone: its options and printed values
    except Exception:  # noqa: BLE001 - the same breakage, before any event
        return (f"session {sid} cannot be replayed by this companion: its options or printed values (meta) are "
                f"not ones the rules of {game} can start from")
    low, high = 0, len(done)  # the first `low` events replay; the first `high` do not
    while high - low > 1:
        mid = (low + high) // 2
        try:
            s.replay(upto=mid)
            low = mid
        except Exception:  # noqa: BLE001 - the same breakage, earlier
            high = mid
    if not done:
        return f"session {sid} cannot be replayed by this companion: the rules of {game} cannot read it"
    entry = done[high - 1]
    number = next((n for n, e in enumerate(journal, 1) if e is entry), high)
    return (f"session {sid}'s journal entry {number} ({entry['event'].get('type')}) holds an event whose fields the "
            f"rules of {game} cannot read: it was not made by this companion")


# -- import: write -----------------------------------------------------------------------------


@dataclass
class Imported:
    added: list[str]
    skipped: list[str]  # already here, the same
    aliases: int
    continued: list[tuple[str, int]] = field(default_factory=list)  # (id, new entries)
    ahead: list[str] = field(default_factory=list)  # this folder's copy went further: kept
    conflicts: list[tuple[str, str]] = field(default_factory=list)  # (id, why), with --skip-conflicts
    dry_run: bool = False
    titles: int = 0  # titles added or completed (issue 29)
    title_conflicts: list[str] = field(default_factory=list)  # one line each: this folder's value kept


def session_document(meta: dict, journal: list[dict]) -> str:
    """A session file exactly as the store writes one (TinyDB tables with a schema version)."""
    doc = {
        SCHEMA_KEY: {"kind": "session", "version": schema_version("session")},
        "meta": {"1": meta},
        "journal": {str(n): entry for n, entry in enumerate(journal, 1)},
    }
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


def _write_index(store: Store, entries: list[dict], data: dict | None = None) -> None:
    """Add ``entries`` to the index in one atomic write, keeping it ordered oldest first
    (``data``: the index as already read under the same lock, to spare a second read)."""
    db = open_db(store.index_path, "index")
    data = dict(db.storage.read() or {}) if data is None else dict(data)
    table = data.get("sessions") or {}
    ids = {e["id"] for e in entries}
    rows = [v for _, v in sorted(table.items(), key=lambda kv: int(kv[0])) if v.get("id") not in ids]
    rows.extend(entries)
    rows.sort(key=lambda e: str(e.get("created") or ""))
    data["sessions"] = {str(n): row for n, row in enumerate(rows, 1)}
    db.storage.write(data)


def _entry_words(entry: dict) -> str:
    """A journal entry in a few words, for a refusal (never a secret: types and times only)."""
    if entry.get("kind") == "do":
        return f"{(entry.get('event') or {}).get('type')} at {entry.get('at')}"
    return f"{entry.get('kind')} at {entry.get('at')}"


def compare(here: tuple[dict, list[dict]], there: tuple[dict, list[dict]]) -> tuple[str, Any]:
    """How an imported session stands to the stored one with its id.

    ('same', None), ('continued', number of new entries), ('ahead', None) when the stored
    journal already holds the imported one and more, or ('diverged', why) naming the first
    entry that differs.
    """
    (meta_here, journal_here), (meta, journal) = here, there
    if meta_here != meta:
        keys = sorted(k for k in set(meta_here) | set(meta) if meta_here.get(k) != meta.get(k))
        return "diverged", f"its description differs ({', '.join(keys)[:60]})"
    common = min(len(journal_here), len(journal))
    for i in range(common):
        if journal_here[i] != journal[i]:
            return "diverged", (f"entry {i + 1} differs (here: {_entry_words(journal_here[i])}; in the file: "
                                f"{_entry_words(journal[i])})")
    if len(journal) == len(journal_here):
        return "same", None
    if len(journal) > len(journal_here):
        return "continued", len(journal) - len(journal_here)
    return "ahead", None


def check_deals(meta: dict, journal: list[dict], name: str, start: int = 0) -> None:
    """Every deal recorded from entry ``start`` on must be what the session's seed gives: a
    continued game is held to the same seed as a new one (nobody can append a chosen hand)."""
    from companion.core import dealing

    seed = meta.get("seed")
    if not seed:
        return
    for n, entry in enumerate(journal[start:], start + 1):
        if entry.get("kind") != "do":
            continue
        for deal in dealing.deals_in(entry["event"]):
            try:
                good = dealing.check(deal, seed, meta.get("entropy", ""))
            except Exception:  # noqa: BLE001 - a doctored deal may break the shuffle in any way
                good = False
            if not good:
                raise _refuse(name, f"session {meta['id']} entry {n} holds a deal its seed does not give")


IMPORT_TRIES = 5  # looks at the folder while other writers keep changing the sessions it continues


def import_bundle(store: Store, bundle: Bundle, skip_conflicts: bool = False, dry_run: bool = False) -> Imported:
    """Add the bundle's new sessions and aliases, append to the sessions it continues, or
    refuse all of it (see the module docstring). ``dry_run`` checks everything and writes nothing.

    Whether a session is continued (a fast-forward) is decided under that session's own lock,
    then the folder's, the order every writer takes them (companion.core.store): an action
    recorded here meanwhile is either before the import, and then the histories differ and the
    import refuses them as a conflict, or after it, and comes after the imported entries. Never
    is one side's acknowledged write lost (issue 22). A first look without the locks finds the
    sessions to lock; the decision is the second look, under them (files unchanged since are
    not read again)."""
    seen: dict[str, tuple] = {}
    checked: dict[tuple[str, int], dict] = {}
    for _ in range(IMPORT_TRIES):
        found = _compare_all(store, bundle, seen)
        if not skip_conflicts:
            _refuse_diverged(bundle.name, found)
        _check_rules(bundle, found, checked)  # the rules replay them before any lock is taken
        locked = sorted(sid for sid, (how, _d) in found.items() if how == "continued")
        with store.writing_sessions(locked), store.writing():
            found = _compare_all(store, bundle, seen)
            if all(how != "continued" or sid in locked for sid, (how, _d) in found.items()):
                return _import_locked(store, bundle, found, checked, skip_conflicts, dry_run)
        # a session became one this import continues between the two looks: lock it too
    raise BusyError(f"Import of {bundle.name}: the sessions it continues kept changing while it looked at them: "
                    "try again in a moment (nothing was imported).")


def _compare_all(store: Store, bundle: Bundle, seen: dict[str, tuple]) -> dict[str, tuple[str, Any]]:
    """Each imported session's id -> (how it stands to this folder's, detail), see
    :func:`compare`; ``new`` when this folder has no such session. ``seen`` keeps what was
    found per file version, so an unchanged file is not read and compared twice."""
    from companion.core.store import file_signature

    out: dict[str, tuple[str, Any]] = {}
    for meta, journal in bundle.sessions:
        sid = meta["id"]
        signature = file_signature(store.session_path(sid))
        if signature is None:
            out[sid] = ("new", None)
            continue
        known = seen.get(sid)
        if known is None or known[0] != signature:
            known = seen[sid] = (signature, compare(store.read_session(sid), (meta, journal)))
        out[sid] = known[1]
    return out


def _refuse_diverged(name: str, found: dict[str, tuple[str, Any]]) -> None:
    for sid, (how, detail) in found.items():
        if how == "diverged":
            raise _refuse(name, f"session {sid} has diverged from the one in this data folder: {detail} "
                                f"(`report {sid}` shows this folder's; --skip-conflicts imports the others)")


def _check_rules(bundle: Bundle, found: dict[str, tuple[str, Any]], checked: dict[tuple[str, int], dict]) -> None:
    """Replay every session the import adds or continues (its deals from the first new entry
    checked against its seed), keeping its index entry in ``checked`` by (id, first new entry)."""
    from companion.core import session as sessions

    for meta, journal in bundle.sessions:
        how, detail = found[meta["id"]]
        if how not in ("new", "continued"):
            continue
        start = 0 if how == "new" else len(journal) - detail
        if (meta["id"], start) in checked:
            continue
        check_deals(meta, journal, bundle.name, start)
        s, replay = replay_check(meta, journal, bundle.name)
        checked[(meta["id"], start)] = index_entry(meta, sessions.index_summary(s, replay))


def _import_locked(store: Store, bundle: Bundle, found: dict[str, tuple[str, Any]],
                   checked: dict[tuple[str, int], dict], skip_conflicts: bool, dry_run: bool) -> Imported:
    """The import decided and written (the caller holds the locks of the sessions it continues,
    then the folder's)."""
    from companion.core.store import read_json_file

    name = bundle.name
    new: list[tuple[dict, list[dict]]] = []
    grown: list[tuple[dict, list[dict], int]] = []
    done = Imported([], [], 0, dry_run=dry_run)
    for meta, journal in bundle.sessions:
        sid = meta["id"]
        how, detail = found[sid]
        if how == "new":
            new.append((meta, journal))
        elif how == "same":
            done.skipped.append(sid)
        elif how == "ahead":
            done.ahead.append(sid)
        elif how == "continued":
            grown.append((meta, journal, len(journal) - detail))
        elif skip_conflicts:
            done.conflicts.append((sid, detail))
        else:
            raise _refuse(name, f"session {sid} has diverged from the one in this data folder: {detail} "
                                f"(`report {sid}` shows this folder's; --skip-conflicts imports the others)")
    _check_rules(bundle, found, checked)  # (only what changed since the first look)
    entries = [checked[(m["id"], 0)] for m, _ in new] + [checked[(m["id"], start)] for m, _, start in grown]

    aliases = load_aliases(store)
    merged = dict(aliases)
    for recorded, shown in bundle.aliases.items():
        if recorded in aliases and aliases[recorded] != shown:
            raise _refuse(name, f"it shows {recorded!r} as {shown}, but this data folder shows them as "
                                f"{aliases[recorded]} (rename one side first with `player rename`)")
        merged[recorded] = shown
    index_data = read_json_file(store.index_path, "index") or {}
    table = index_data.get("sessions") or {}
    if merged == aliases:  # no name changes: only the sessions brought in can clash
        clash = same_session_clash(entries, Roster(merged, entries))
    else:
        everyone = [table[k] for k in sorted(table, key=int)] + entries
        clash = same_session_clash(everyone, Roster(merged, everyone))
    if clash:
        entry, names = clash
        raise _refuse(name, f"its names would make {names[0]} and {names[1]} of session {entry['id']} "
                            "one player")
    done.added = [m["id"] for m, _ in new]
    done.continued = [(m["id"], len(j) - start) for m, j, start in grown]
    done.aliases = len(set(merged.items()) - set(aliases.items()))
    from companion.core import titles

    titles_here = titles.load(store)
    titles_now, done.titles, done.title_conflicts = titles.merge_in(titles_here, incoming_titles(bundle))
    if dry_run:
        return done

    # the session files first, then the names, then the index, which makes them count:
    # a failure on the way takes back what was written before it, without writing anything
    # (a full disk: issue 22), so "nothing was imported" is true
    written: list[Path] = []
    undo = _Undo()
    files: list[tuple[Path, str]] = []
    try:
        for meta, journal, _start in grown:
            undo.keep(store.session_path(meta["id"]))
        files = [(store.session_path(m["id"]), session_document(m, j)) for m, j in new]
        files += [(store.session_path(m["id"]), session_document(m, j)) for m, j, _ in grown]
        write_files(files, written)
        if merged != aliases:
            from companion.record.players import aliases_path

            undo.keep(aliases_path(store))
            save_aliases(store, merged)
        if titles_now != titles_here:
            undo.keep(titles.path(store))
            titles.save(store, titles_now)
        if entries:
            _write_index(store, entries, index_data)
    except (CompanionError, OSError) as exc:
        kept = undo.paths()
        texts = dict(files)
        for path in written:  # a new session file, unless an action was recorded in it since
            if path not in kept:
                with contextlib.suppress(OSError):
                    if path.read_text(encoding="utf-8") == texts.get(path):
                        path.unlink()
        undo.undo()
        reason = exc.message if isinstance(exc, CompanionError) else str(exc)
        raise StoreError(f"Import of {name} stopped ({reason}); nothing was imported.") from None
    finally:
        undo.forget()
    return done


class _Undo:
    """The files an import replaces, kept as they were: each is linked to a second name first,
    so taking it back is a rename, which needs no room on the disk. (Where links cannot be made,
    its bytes are kept and written back.) A file that was absent is removed again."""

    def __init__(self) -> None:
        self.kept: list[tuple[Path, Path | None, bytes | None]] = []

    def paths(self) -> set[Path]:
        return {path for path, _b, _o in self.kept}

    def keep(self, path: Path) -> None:
        import os

        backup = path.with_name(f".{path.name}.import-{os.getpid()}.old")
        try:
            backup.unlink(missing_ok=True)
            os.link(path, backup)
            self.kept.append((path, backup, None))
        except FileNotFoundError:
            self.kept.append((path, None, None))
        except OSError:
            self.kept.append((path, None, path.read_bytes()))

    def undo(self) -> None:
        import os

        for path, backup, old in reversed(self.kept):
            with contextlib.suppress(OSError, CompanionError):
                if backup is not None:
                    os.replace(backup, path)
                elif old is not None:
                    atomic_write_text(path, old.decode("utf-8"))
                else:
                    path.unlink(missing_ok=True)

    def forget(self) -> None:
        for _path, backup, _old in self.kept:
            if backup is not None:
                with contextlib.suppress(OSError):
                    backup.unlink()


def write_files(files: list[tuple[Path, str]], written: list[Path]) -> None:
    """Write many files, each whole or not at all, with one flush to disk for all of them.

    ``atomic_write_text`` syncs every file on its own, which costs a disk flush each: 1,000
    sessions took 9 s. Here every text goes to its temporary file first, one ``os.sync``
    makes them all durable, and only then are they renamed into place (and the folder
    synced): a crash leaves each file old or new, never half, as before. ``written`` collects
    the paths renamed into place, for the caller to take back on a failure.
    """
    import os
    import tempfile

    if len(files) <= 2 or not hasattr(os, "sync"):
        for path, text in files:
            atomic_write_text(path, text)
            written.append(path)
        return
    temps: list[tuple[str, Path]] = []
    try:
        for path, text in files:
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
            temps.append((tmp, path))
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
        os.sync()
        for tmp, path in temps:
            os.replace(tmp, path)
            written.append(path)
        folders = {path.parent for _, path in temps}
        for folder in folders:
            with contextlib.suppress(OSError):
                dfd = os.open(folder, os.O_DIRECTORY)
                try:
                    os.fsync(dfd)
                finally:
                    os.close(dfd)
    except OSError as exc:
        raise StoreError(f"Could not write {len(files)} session files: {exc.strerror or exc}.") from exc
    finally:
        for tmp, _path in temps:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def read_bundle_sized(raw: bytes, name: str) -> Bundle:
    """:func:`read_bundle` of bytes read elsewhere (standard input), with the size limit."""
    if len(raw) > MAX_FILE_BYTES:
        raise _refuse(name, f"the file is larger than {_size(MAX_FILE_BYTES)}")
    return read_bundle(raw, name)


def import_file(store: Store, path: Path, skip_conflicts: bool = False, dry_run: bool = False) -> Imported:
    import stat

    name = path.name
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(str(path))
        if not stat.S_ISREG(info.st_mode):  # a pipe or a device may never end: never read one
            raise CompanionError(f"{path} is not a regular file: give the file written by "
                                 "`export --format json -o FILE`.")
        if info.st_size > MAX_FILE_BYTES:
            raise _refuse(name, f"the file is larger than {_size(MAX_FILE_BYTES)}")
        with path.open("rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)  # the file may grow while it is read
        if len(raw) > MAX_FILE_BYTES:
            raise _refuse(name, f"the file is larger than {_size(MAX_FILE_BYTES)}")
    except IsADirectoryError:
        raise CompanionError(f"{path} is a folder: give the file written by `export --format json -o FILE`.") from None
    except FileNotFoundError:
        raise CompanionError(f"There is no file {path}: give the file written by `export --format json -o FILE`.") from None
    except OSError as exc:
        raise CompanionError(f"Cannot read {path}: {exc.strerror or exc}.") from None
    return import_bundle(store, read_bundle(raw, name), skip_conflicts, dry_run)


def unfinished_dealt(store: Store, entries: Iterable[dict]) -> list[str]:
    """Sessions in play whose secret seed an export carries (it would show every hand)."""
    from companion.core import registry as games

    out = []
    for e in entries:
        if history.finished(e):
            continue
        try:
            if games.get(e["game"]).deals:
                out.append(e["id"])
        except CompanionError:
            continue
    return out
