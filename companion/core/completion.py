"""What Tab offers from the data folder: session ids, players, games and titles (issue 23).

One source for both ways of completing: the login shell (bash, zsh and fish, through Click's
completion protocol: `companion completion bash` prints the script) and the companion's own
interactive shell. Everything comes from the index (one small file) and the titles file,
never from every session file, so a Tab answers in a few tens of milliseconds with 10,000
sessions; a folder that cannot be read completes to nothing rather than failing.
"""

from __future__ import annotations

from typing import Iterable

from companion.contract.text import name_key

MAX_ITEMS = 200  # more than a screen can show; the newest sessions first


CACHE_VERSION = 1


def _entries(store) -> list[dict]:
    """What completion needs of every session (id, game or title, day, players), from a small
    cache in the data folder (``cache/completion.json``) while the index is the one it was made
    from: a Tab at 10,000 sessions then reads a few hundred kilobytes instead of the index."""
    import json

    from companion.core.store import atomic_write_text, file_signature

    signature = file_signature(store.index_path)
    path = store.cache_dir / "completion.json"
    if signature is not None:
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
            if doc.get("version") == CACHE_VERSION and doc.get("index") == list(signature):
                return [{"id": sid, "game": game, "title": title, "played_on": day, "players": players}
                        for sid, game, title, day, players in doc["sessions"]]
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            pass
    try:
        entries = store.index()
    except Exception:  # noqa: BLE001 - completion never fails: no folder, a damaged index
        return []
    rows = [[e.get("id"), e.get("game"), e.get("title"), _day(e), list(e.get("players") or [])] for e in entries]
    if signature is not None:
        import contextlib

        with contextlib.suppress(Exception):
            atomic_write_text(path, json.dumps({"version": CACHE_VERSION, "index": list(signature), "sessions": rows},
                                               ensure_ascii=False, separators=(",", ":")))
    return entries


def _day(entry: dict) -> str:
    played = entry.get("played_on")
    return played[:10] if isinstance(played, str) and played else str(entry.get("created") or "")[:10]


def sessions(store, incomplete: str = "") -> list[tuple[str, str]]:
    """(id, "game · day played · players") of the sessions whose id starts with ``incomplete``,
    the most recent first."""
    low = incomplete.lower()
    out = []
    for entry in reversed(_entries(store)):
        sid = entry.get("id")
        if not isinstance(sid, str) or not sid.startswith(low):
            continue
        game = entry.get("title") or entry.get("game")
        out.append((sid, f"{game} · {_day(entry)} · {', '.join(entry.get('players') or [])}"))
        if len(out) >= MAX_ITEMS:
            break
    return out


def players(store, incomplete: str = "") -> list[tuple[str, str]]:
    """Every player's name (the latest spelling, or the name a rename gave), matching the
    start ``incomplete`` in any capitals, with the number of sessions."""
    aliases = {}
    try:
        aliases = store.aliases()
    except Exception:  # noqa: BLE001
        pass
    counts: dict[str, list] = {}
    for entry in _entries(store):
        for name in entry.get("players") or ():
            if not isinstance(name, str):
                continue
            shown = aliases.get(name.casefold(), name)
            row = counts.setdefault(shown.casefold(), [shown, 0])
            row[0] = shown if name.casefold() not in aliases else row[0]
            row[1] += 1
    low = name_key(incomplete)
    found = [(shown, n) for shown, n in counts.values() if name_key(shown).startswith(low)]
    found.sort(key=lambda r: (-r[1], r[0].casefold()))
    return [(shown, f"{n} session{'s' if n != 1 else ''}") for shown, n in found[:MAX_ITEMS]]


def titles(store, incomplete: str = "") -> list[tuple[str, str]]:
    """The titles the group has named (`--title`, `played NAME`)."""
    from companion.core import titles as named

    try:
        known = named.load(store)
    except Exception:  # noqa: BLE001
        return []
    low = name_key(incomplete)
    out = []
    for record in sorted(known.values(), key=lambda r: r["title"].casefold()):
        if name_key(record["title"]).startswith(low):
            how = [w for w, k in (("co-op", "coop"), ("lowest wins", "lowest_wins"), ("no points", "no_points"))
                   if record.get(k)]
            out.append((record["title"], ", ".join(how) or "a title"))
    return out


def games(store, incomplete: str = "") -> list[tuple[str, str]]:
    """Game ids (installed, or played in the history) and the group's titles."""
    from companion.core import registry

    low = name_key(incomplete)
    ids = list(registry.known())
    seen = set(ids)
    for entry in _entries(store):
        gid = entry.get("game")
        if isinstance(gid, str) and gid not in seen:
            seen.add(gid)
            ids.append(gid)
    out = [(gid, "a game") for gid in ids if gid.startswith(low)]
    return out + titles(store, incomplete)


def matching(items: Iterable[tuple[str, str]], incomplete: str) -> list[tuple[str, str]]:
    low = name_key(incomplete)
    return [(v, h) for v, h in items if name_key(v).startswith(low)]


COMMANDS_VERSION = 1


def command_names(store, build) -> list[tuple[str, str]]:
    """Every command's name with its one-line help, for a Tab on a command's name: from
    ``cache/commands.json`` while the companion, the installed games (their entry points,
    distributions and versions, as the registry's own cache holds them) and
    ``COMPANION_GAMES`` are the ones it was made from; else ``build()`` (which imports every
    game's commands: about 100 ms) and kept. Measured in BENCHMARKS.md ("Tab completion")."""
    import contextlib
    import json
    import os

    from companion import __version__
    from companion.core import registry
    from companion.core.store import atomic_write_text

    try:
        from companion.contract.language import language

        key = [__version__, os.environ.get(registry.ENV_GAMES, ""),
               sorted([gid, *row] for gid, row in registry.targets().items()), language()]  # helps in its words
    except Exception:  # noqa: BLE001 - no key, no cache: completion never fails
        return build()
    path = store.cache_dir / "commands.json"
    with contextlib.suppress(OSError, ValueError, KeyError, TypeError, AttributeError):
        doc = json.loads(path.read_text(encoding="utf-8"))
        if doc.get("version") == COMMANDS_VERSION and doc.get("key") == key:
            return [(str(name), str(help_)) for name, help_ in doc["commands"]]
    items = build()
    with contextlib.suppress(Exception):
        atomic_write_text(path, json.dumps({"version": COMMANDS_VERSION, "key": key, "commands": items},
                                           ensure_ascii=False, separators=(",", ":")))
    return items

