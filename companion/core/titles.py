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

from typing import Any, Iterable

from companion.contract.language import _
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
        raise CompanionError(_("A game's title is one line of at most {TITLE_MAX} characters that starts with a letter "
                               "or a digit: --title \"Carcassonne\"")
                               .format(TITLE_MAX=TITLE_MAX))
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
        raise CompanionError(_("{value} is not a BoardGameGeek id: it is the number in the game's address, e.g. "
                               "--bgg-id 822 for boardgamegeek.com/boardgame/822/carcassonne")
                               .format(value=repr(value)))
    return number


# Since issue 30 a per-device log (companion.core.shared_log): ``titles/<device>.json``, one
# entry per title (its name key) holding the title's record as that laptop knew it. Merge rule:
# the titles are a set (none is ever removed); of one title, the spelling of its earliest entry
# is kept, and each option is the one of the latest entry (by time, then device) that gives it.
LOG = "titles"


def _legacy(path):
    """titles.json (before issue 30) read as one laptop's log: older than every laptop's."""
    from companion.core.shared_log import LEGACY_DEVICE, Entry
    from companion.core.store import read_json_file

    data = read_json_file(path, KIND) or {}
    for n, doc in (data.get("titles") or {}).items():
        if isinstance(doc, dict) and isinstance(doc.get("title"), str):
            yield Entry(name_key(doc["title"]), doc, "", LEGACY_DEVICE, int(n))


def load(store) -> dict[str, dict]:
    """name key -> {"title", options...}: every title the group has named."""
    from companion.core import shared_log

    out: dict[str, dict] = {}
    for entry in shared_log.entries(store, LOG, FILE, _legacy):  # oldest first
        doc = entry.value
        if not isinstance(doc, dict) or not isinstance(doc.get("title"), str):
            continue
        record = out.setdefault(name_key(doc["title"]), {"title": doc["title"]})
        record.update({k: v for k, v in doc.items() if k in OPTIONS and v is not None})
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
            save(store, known)
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


# -- carried by the json export and `import` (issue 29) -------------------------------------------

FLAGS = ("lowest_wins", "coop", "no_points")
TIE_BREAK_MAX = 100


def check_record(doc: Any) -> dict:
    """A title's record as an import file gives it, checked by the rules `new --title` and
    `played` apply (a file comes from elsewhere: anything else is refused, in words)."""
    if not isinstance(doc, dict) or not isinstance(doc.get("title"), str):
        raise CompanionError(_("each title is an object with its \"title\""))
    unknown = sorted(set(doc) - {"title", *OPTIONS})
    if unknown:
        raise CompanionError(_("the title {title} has keys this companion does not know ({keys})").format(
            title=repr(str(doc["title"])[:40]), keys=", ".join(unknown)[:60]))
    record: dict[str, Any] = {"title": check_title(doc["title"])}
    for flag in FLAGS:
        if flag in doc:
            if not isinstance(doc[flag], bool):
                raise CompanionError(_("the title {title}'s {flag} is true or false").format(
                    title=repr(record["title"]), flag=flag))
            if doc[flag]:
                record[flag] = True
    if doc.get("tie_break") is not None:
        tie = doc["tie_break"]
        if not isinstance(tie, str) or not tie.strip() or len(tie) > TIE_BREAK_MAX or not tie.isprintable():
            raise CompanionError(_("the title {title}'s tie-breaker is one line of at most {n} characters").format(
                title=repr(record["title"]), n=TIE_BREAK_MAX))
        record["tie_break"] = " ".join(tie.split())
    if doc.get("bgg_id") is not None:
        if isinstance(doc["bgg_id"], bool) or not isinstance(doc["bgg_id"], int):
            raise CompanionError(_("the title {title}'s bgg_id is a whole number").format(title=repr(record["title"])))

        record["bgg_id"] = check_bgg_id(doc["bgg_id"])
    return record


def of_session(options: dict) -> dict | None:
    """The title record a session's own options hold (what was frozen when it started), or None
    for a session without a title: an export made before titles travelled still brings them."""
    title = options.get("title") if isinstance(options, dict) else None
    if not isinstance(title, str):
        return None
    doc = {"title": title, **{k: options[k] for k in OPTIONS if options.get(k) not in (None, False, "")}}
    try:
        return check_record(doc)
    except CompanionError:
        return None


def merge_in(known: dict[str, dict], incoming: Iterable[dict]) -> tuple[dict[str, dict], int, list[str]]:
    """``known`` (this folder's titles by name key) with the ``incoming`` records merged in:
    (the merged titles, how many titles were added or completed, one line per conflict).

    The same title in both is one entry (its spelling here kept): what only the file knows is
    added (a BoardGameGeek id given on the other laptop), what both know and differ on keeps
    this folder's value, and the line says which and what the file said."""
    merged = {k: dict(v) for k, v in known.items()}
    changed: set[str] = set()
    conflicts: list[str] = []
    words = {"bgg_id": _("BoardGameGeek id"), "tie_break": _("tie-breaker"), "lowest_wins": _("lowest wins"),
             "coop": _("co-operative"), "no_points": _("no points")}
    for record in incoming:
        key = name_key(record["title"])
        here = merged.get(key)
        if here is None:
            merged[key] = dict(record)
            changed.add(key)
            continue
        differ = []
        for option in OPTIONS:
            theirs = record.get(option)
            if theirs is None:
                continue
            if here.get(option) is None:
                here[option] = theirs
                changed.add(key)
            elif here[option] != theirs:
                differ.append(_("{option} {here} (the file says {theirs})").format(
                    option=words[option], here=repr(here[option]), theirs=repr(theirs)))
        if differ:
            line = _("kept: {title}'s {values} as this data folder has it").format(title=here["title"],
                                                                                  values="; ".join(differ))

            if line not in conflicts:
                conflicts.append(line)
    return merged, len(changed), conflicts


def path(store):
    """This laptop's log of titles (the only file of them it writes)."""
    from companion.core import shared_log

    return shared_log.own_path(store, LOG)


def save(store, known: dict[str, dict]) -> None:
    """Make the titles ``known``: each record that differs from the merged list now is added
    to this laptop's log, in one atomic write (caller holds the folder's lock)."""
    from companion.core import shared_log

    here = load(store)
    changes = {key: doc for key, doc in sorted(known.items()) if here.get(key) != doc}
    if changes:
        store.ensure()
        shared_log.write(store, LOG, changes, FILE, _legacy)
