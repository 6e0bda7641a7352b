"""The games a group names itself: a score sheet's title remembered with its options.

`new scoresheet --title "Carcassonne" --bgg-id 822` or `played "Carcassonne" ...` names a game
the companion has no rules for (issue 23). The title is remembered in the data folder
(``titles.json``) with how that game is won (``lowest_wins``), whether it is co-operative
(``coop``) or has no points (``no_points``), what settles a tie (``tie_break``) and its
BoardGameGeek id (``bgg_id``), so the next `new scoresheet --title carcassonne` or `played
Carcassonne` starts from them without typing them again, the history counts each title as its
own game, completion offers the titles, and the exports name the game BoardGameGeek knows.

Titles match without regard to capitals; the spelling first typed is kept. An option given
again replaces the remembered one.
"""

from __future__ import annotations

from typing import Any

from companion.contract.errors import CompanionError
from companion.contract.text import name_key

FILE = "titles.json"
KIND = "titles"
OPTIONS = ("lowest_wins", "coop", "no_points", "tie_break", "bgg_id")
TITLE_MAX = 60
BGG_ID_MAX = 10**9


def check_title(text: str) -> str:
    """A title as typed, trimmed, or a refusal saying what a title is."""
    title = " ".join(str(text).split())
    if not title or len(title) > TITLE_MAX or not title.isprintable() or title.startswith(("-", "+", "@", "=")):
        raise CompanionError(f"A game's title is one line of at most {TITLE_MAX} characters that starts with a letter "
                             "or a digit: --title \"Carcassonne\"")
    return title


def check_bgg_id(value: Any) -> int | None:
    """A BoardGameGeek id: a whole number from 1 (the number in the game's address,
    boardgamegeek.com/boardgame/822/carcassonne)."""
    if value is None:
        return None
    try:
        number = int(str(value).strip())
    except ValueError:
        number = 0
    if not 1 <= number <= BGG_ID_MAX:
        raise CompanionError(f"{value!r} is not a BoardGameGeek id: it is the number in the game's address, e.g. "
                             "--bgg-id 822 for boardgamegeek.com/boardgame/822/carcassonne")
    return number


def load(store) -> dict[str, dict]:
    """name key -> {"title", options...}: every title the group has named."""
    from companion.core.store import read_json_file

    path = store.root / FILE
    store.check_inside(path)
    data = read_json_file(path, KIND) or {}
    out: dict[str, dict] = {}
    for doc in (data.get("titles") or {}).values():
        if isinstance(doc, dict) and isinstance(doc.get("title"), str):
            out[name_key(doc["title"])] = {k: v for k, v in doc.items() if k == "title" or k in OPTIONS}
    return out


def find(store, title: str) -> dict | None:
    """The remembered title ``title`` names (any capitals), or None."""
    return load(store).get(name_key(check_title(title)))


def merged(store, title: str, given: dict) -> dict:
    """The record ``title`` would have with the options ``given`` (None: not given, keep what
    was remembered), written nowhere (:func:`remember` writes it once the session exists)."""
    title = check_title(title)
    record = dict(load(store).get(name_key(title)) or {"title": title})
    for option in OPTIONS:
        if given.get(option) is not None:
            record[option] = given[option]
    return record


def remember(store, title: str, given: dict) -> dict:
    """Remember ``title`` with the options ``given`` (None: not given, keep what was
    remembered); returns the title's record as it now stands (caller holds no lock: this takes
    the folder's)."""
    from companion.core.store import open_db

    title = check_title(title)
    key = name_key(title)
    with store.writing():
        known = load(store)
        record = dict(known.get(key) or {"title": title})
        for option in OPTIONS:
            if given.get(option) is not None:
                record[option] = given[option]
        if known.get(key) != record:
            known[key] = record
            docs = {str(n): doc for n, (_, doc) in enumerate(sorted(known.items()), 1)}
            store.ensure()
            open_db(store.root / FILE, KIND).storage.write({"titles": docs})
    return record


def options_of(record: dict) -> dict:
    """A title's options as a score sheet's (``title`` included), for `new` and `played`."""
    out: dict[str, Any] = {"title": record["title"]}
    for option in ("lowest_wins", "coop", "no_points"):
        if record.get(option):
            out[option] = True
    if record.get("tie_break"):
        out["tie_break"] = record["tie_break"]
    if record.get("bgg_id"):  # frozen with the session too: a page shows it without the data folder
        out["bgg_id"] = record["bgg_id"]
    return out
