"""The player registry: every name ever seated is a player; renames and merges are aliases.

Why aliases and not rewritten events: an event keeps the meaning it had when it was recorded
(a replay must give the same state for ever, and `verify` must re-derive the same deals), so a
typo is fixed in how names are *shown*, never in what was recorded. The alias table maps a
recorded name (case-folded, since names match case-insensitively everywhere) to the name
shown; every history view (`players`, `stats`, exports, reports) reads names through a
:class:`Roster` built from it.

The table lives in the data folder as ``players.json``, a TinyDB file written in one atomic
write. Its schema kind is ``players`` once ``store.MIGRATIONS`` lists it, ``settings`` (same
version 1 layout) until then, so the switch needs no migration.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Iterable

from companion.contract.language import _
from companion.core import session as sessions
from companion.contract.errors import CompanionError
from companion.core.store import Store, now, open_db

from companion.core.store import ALIAS_FILE, ALIAS_KIND as KIND  # noqa: F401 (kept importable here)


# -- who is who (pure) ----------------------------------------------------------------------


class Roster:
    """Recorded names -> the names shown, for one alias table and one history.

    ``show(name)`` is the name a history view prints; two recorded names are the same player
    when their shown names match case-insensitively (``key``). Without an alias, the spelling
    of the most recent session wins (groups fix "ann" into "Ann" over time by just typing it).
    """

    def __init__(self, aliases: dict[str, str], entries: Iterable[dict] = ()):
        self.aliases = {k.casefold(): v for k, v in aliases.items()}
        self._alias_spelling = {v.casefold(): v for v in self.aliases.values()}
        self._latest: dict[str, str] = {}
        for entry in entries:
            for name in entry.get("players") or ():
                self._latest[name.casefold()] = name

    def show(self, name: str) -> str:
        target = self.aliases.get(name.casefold(), name)
        key = target.casefold()
        return self._alias_spelling.get(key) or self._latest.get(key) or target

    def key(self, name: str) -> str:
        return self.show(name).casefold()

    def find(self, name: str, known: Iterable[str]) -> str:
        """The shown name among ``known`` that ``name`` means, or a refusal listing them."""
        wanted = self.show(name.strip()).casefold()
        known = sorted(set(known), key=str.casefold)
        for shown in known:
            if shown.casefold() == wanted:
                return shown
        if not known:
            raise CompanionError(_("No player has played yet: start a session with `new GAME --players Ann,Bob`."))
        listed = ", ".join(known[:12])
        if len(known) > 12:
            listed = _("{names} and {n} more").format(names=listed, n=len(known) - 12)
        raise CompanionError(_("There is no player called {name}: the players are {names}.").format(
            name=repr(name.strip()), names=listed))


def shown_players(entries: Iterable[dict], roster: Roster) -> dict[str, str]:
    """key -> shown name of every player in ``entries``."""
    out: dict[str, str] = {}
    for entry in entries:
        for name in entry.get("players") or ():
            shown = roster.show(name)
            out[shown.casefold()] = shown
    return out


def check_name(name: str) -> str:
    """A new player name, checked by the same rules as the names given to `new`."""
    from companion.core.session import check_players

    anyone = SimpleNamespace(min_players=1, max_players=1, title="")
    return check_players([name], anyone)[0]


def same_session_clash(entries: Iterable[dict], roster: Roster) -> tuple[dict, list[str]] | None:
    """A session in which two seated names would show as one player, with those names."""
    for entry in entries:
        seen: dict[str, str] = {}
        for name in entry.get("players") or ():
            key = roster.key(name)
            if key in seen:
                return entry, [seen[key], name]
            seen[key] = name
    return None


# -- the table on disk -----------------------------------------------------------------------


def aliases_path(store: Store) -> Path:
    """This laptop's log of renames (issue 30: one writer per file; see Store.aliases)."""
    return store.aliases_path


def load_aliases(store: Store) -> dict[str, str]:
    """recorded name (case-folded) -> shown name; empty when nobody renamed anyone."""
    return store.aliases()


def save_aliases(store: Store, aliases: dict[str, str]) -> None:
    """Make the table ``aliases``: what differs from the merged table now is added to this
    laptop's log in one atomic write (caller holds the write lock), a name no longer renamed
    as a removal."""
    from companion.core import shared_log
    from companion.core.store import _legacy_aliases

    now_ = store.aliases()
    changes: dict[str, str | None] = {k: v for k, v in sorted(aliases.items()) if now_.get(k) != v}
    changes.update({k: None for k in sorted(now_) if k not in aliases})
    if changes:
        shared_log.write(store, "players", changes, ALIAS_FILE, _legacy_aliases)


def roster(store: Store, entries: list[dict] | None = None) -> Roster:
    return Roster(load_aliases(store), sessions.index(store) if entries is None else entries)


SPELLINGS_VERSION = 1


def session_roster(store: Store, players: Iterable[str]) -> Roster:
    """A roster for one session's players whose cost does not grow with the store (issue 23:
    `report ID` read all 50,000 index entries for the spelling of three names).

    The latest spelling of every name is kept in ``cache/spellings.json`` with the signature
    of the index it was made from; while the index is unchanged only that small file is read.
    When the index changed, it is made again (once) from the index as it is."""
    import json

    from companion.core.store import atomic_write_text, file_signature

    aliases = load_aliases(store)
    path = store.cache_dir / "spellings.json"
    signature = file_signature(store.index_path)
    latest = None
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        if doc.get("version") == SPELLINGS_VERSION and doc.get("index") == list(signature or ()):
            latest = doc["latest"]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        latest = None
    if not isinstance(latest, dict):
        try:
            entries = store.index()
        except CompanionError:
            entries = []
        latest = {}
        for entry in entries:
            for name in entry.get("players") or ():
                latest[name.casefold()] = name
        if signature is not None:
            import contextlib

            with contextlib.suppress(CompanionError, OSError):
                atomic_write_text(path, json.dumps({"version": SPELLINGS_VERSION, "index": list(signature),
                                                    "latest": latest}, ensure_ascii=False))
    out = Roster(aliases)
    wanted = {name.casefold() for name in players} | {v.casefold() for v in out.aliases.values()}
    out._latest = {k: v for k, v in latest.items() if k in wanted and isinstance(v, str)}
    for name in players:  # a session the index does not list yet still shows its own names
        out._latest.setdefault(name.casefold(), name)
    return out


# -- renames and merges ------------------------------------------------------------------------


def _group(entries: list[dict], aliases: dict[str, str], roster_: Roster, key: str) -> set[str]:
    """Every recorded name (case-folded) that shows as the player ``key``."""
    recorded = {name.casefold() for e in entries for name in e.get("players") or () if roster_.key(name) == key}
    recorded |= {r for r, shown in aliases.items() if shown.casefold() == key}
    return recorded


def _history(store: Store) -> tuple[list[dict], dict[str, str], Roster, dict[str, str]]:
    """What a rename or merge reads under the lock: index, aliases, roster, shown players."""
    entries = sessions.index(store)
    aliases = load_aliases(store)
    r = Roster(aliases, entries)
    return entries, aliases, r, shown_players(entries, r)


def rename(store: Store, old: str, new: str) -> tuple[str, str, int]:
    """Show player ``old`` as ``new`` across the whole history: (old shown name, new, sessions)."""
    with store.writing():
        entries, aliases, r, players = _history(store)
        shown_old = r.find(old, players.values())
        new = check_name(new)
        old_key = shown_old.casefold()
        if new.casefold() != old_key and new.casefold() in players:
            raise CompanionError(_(
                "{new} is already a player: to join {old}'s history to theirs, type `player merge {old} {new}`."
            ).format(new=players[new.casefold()], old=shown_old))
        if new == shown_old:
            raise CompanionError(_("{name} is already called that: nothing was changed.").format(name=shown_old))
        updated = dict(aliases)
        for recorded in _group(entries, aliases, r, old_key) | {old_key}:
            updated[recorded] = new
        save_aliases(store, updated)
        count = sum(1 for e in entries if any(r.key(p) == old_key for p in e.get("players") or ()))
    return shown_old, new, count


def merge(store: Store, a: str, b: str) -> tuple[str, str, int]:
    """Join player ``a``'s history to ``b``'s: (a's shown name, b's, sessions moved)."""
    with store.writing():
        entries, aliases, r, players = _history(store)
        shown_a = r.find(a, players.values())
        shown_b = r.find(b, players.values())
        a_key, b_key = shown_a.casefold(), shown_b.casefold()
        if a_key == b_key:
            raise CompanionError(_("{a} and {b} are already the same player ({name}): nothing was changed.").format(
                a=repr(a), b=repr(b), name=shown_a))
        moved = 0
        for e in entries:
            keys = {r.key(p) for p in e.get("players") or ()}
            if a_key in keys and b_key in keys:
                from companion.record.shown import day

                raise CompanionError(_(
                    "{a} and {b} both played in session {id} ({game}, {date}): they are two people, so nothing "
                    "was merged.").format(a=shown_a, b=shown_b, id=e["id"], game=e["game"],
                                          date=day(str(e.get("created"))[:10])))

            moved += a_key in keys
        updated = dict(aliases)
        for recorded in _group(entries, aliases, r, a_key) | {a_key}:
            updated[recorded] = shown_b
        save_aliases(store, updated)
    return shown_a, shown_b, moved
