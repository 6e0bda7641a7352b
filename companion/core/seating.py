"""Seating a new session: its id, its players' names as people type them, the day and place of
a play logged afterwards, and who sits where from the start player."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

from companion.contract.language import _
from companion.contract.errors import CompanionError
from companion.contract.text import has_unsafe_chars, name_key, normal_name, safe_text


ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"  # string.ascii_lowercase + digits, without importing
# string (its Template compiles a pattern at import: a twentieth of a `status`, issue 27)
ID_LENGTH = 8
NAME_MAX = 20
# A name starting with one of these is a formula in a spreadsheet (the CSV export) or an option
# on a command line; '=' is refused anywhere in a name already.
NAME_BAD_STARTS = ("+", "-", "@")


def new_id(existing: set[str], after: str | None = None) -> str:
    """A new session id, none of ``existing``; with ``after``, one that sorts after it (a session
    this laptop started in the same second: the history lists sessions by their start, then by
    id, the same on every laptop, issue 30; so the sessions one laptop starts within a second
    keep the order it started them). Within the first eighth of the ids after it: its first
    letters still tell it from the one before (people type them), and there is room for hundreds
    more in the same second."""
    import secrets  # imported here: `status` never makes an id, and secrets pulls in random

    digits = "".join(sorted(ID_ALPHABET))  # in the order ids sort
    top = len(digits) ** ID_LENGTH
    low = 0
    if after is not None and len(after) == ID_LENGTH and all(c in digits for c in after):
        for c in after:
            low = low * len(digits) + digits.index(c)
        low += 1
    while True:
        if 0 < low < top:
            n = low + secrets.randbelow(max(1, (top - low) // 8))
        else:
            n = secrets.randbelow(top)
        sid = ""
        for _ in range(ID_LENGTH):
            n, d = divmod(n, len(digits))
            sid = digits[d] + sid
        if sid not in existing:
            return sid


def check_players(names: list[str], game) -> list[str]:
    """Player names as given, or a refusal saying what is wrong with them."""
    names = [normal_name(n.strip()) for n in names]  # NFC: "Zoë" in one character or two is one name
    if any(not n for n in names):
        raise CompanionError(_("A player name is empty: write the names as --players Ann,Bob,Cy"))
    for n in names:
        if len(n) > NAME_MAX:
            raise CompanionError(_("The name '{safe_text}' is longer than {NAME_MAX} characters: shorten it.")
                                   .format(safe_text=safe_text(n), NAME_MAX=NAME_MAX))
        if any(c in n for c in ",=\n\t") or not n.isprintable() or has_unsafe_chars(n):
            raise CompanionError(_("The name '{safe_text}' may not contain commas, '=' or control characters (such as ESC "
                                   "or a right-to-left override).")
                                   .format(safe_text=safe_text(n)))
        if n.startswith(NAME_BAD_STARTS):
            raise CompanionError(_("The name '{safe_text}' starts with {n}, which a command line reads as an option or a "
                                   "spreadsheet as a formula: names may not start with '+', '-' or '@'; start it with a "
                                   "letter or a digit.")
                                   .format(safe_text=safe_text(n), n=repr(n[0])))
    seen: set[str] = set()
    for n in names:
        if name_key(n) in seen:
            raise CompanionError(_("The name {n} is given twice: every player needs a different name.")
                                   .format(n=repr(n)))
        seen.add(name_key(n))
    if not game.min_players <= len(names) <= game.max_players:
        raise CompanionError(
            _("{title} takes {min_players} to {max_players} players, not {count}.")
              .format(title=game.title, min_players=game.min_players, max_players=game.max_players, count=len(names))
        )
    return names


LOCATION_MAX = 100


def parse_played_on(text: str | None) -> str | None:
    """`--played-on` as YYYY-MM-DD or YYYY-MM-DDTHH:MM (a play can't be in the future), or a
    refusal showing how to write it."""
    if text is None:
        return None
    raw = text.strip().replace(" ", "T")
    how = _("write it as YYYY-MM-DD or YYYY-MM-DDTHH:MM, e.g. 2026-03-01 or 2026-03-01T19:30")

    try:
        if len(raw) == 10:
            day = date.fromisoformat(raw)
            shown = day.isoformat()
        elif len(raw) == 16 and raw[10] == "T":
            moment = datetime.fromisoformat(raw)
            day, shown = moment.date(), moment.strftime("%Y-%m-%dT%H:%M")
        else:
            raise ValueError
    except ValueError:
        raise CompanionError(_("{text} is not a date: {how}.").format(text=repr(text), how=how)) from None
    if day.year < 1900:
        raise CompanionError(_("{shown} is too long ago: check the year.").format(shown=shown))
    if day > date.today() + timedelta(days=1):  # a day of slack for time zones
        raise CompanionError(_("{shown} is in the future: --played-on is the day the game was played.")
                               .format(shown=shown))
    return shown


def clock(meta: dict, at: str | None) -> str:
    """The time of day a log shows for an event recorded at ``at`` (local ``HH:MM``), or "".

    A back-dated session (`--played-on`) shows when it was played, never when it was typed in
    (issue 29: a play dated 2026-11-21 showed today's time of day): the time given with the
    date, or none when only the day was given."""
    played = meta.get("played_on")
    if isinstance(played, str) and played:
        return played[11:16] if len(played) == 16 else ""
    try:
        moment = datetime.fromisoformat(str(at)) if at else None
    except ValueError:
        return ""
    if moment is None or not 1900 <= moment.year <= 9000:
        return ""
    if moment.tzinfo is None:  # read as UTC, as the history reads such a time
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone().strftime("%H:%M")


def parse_location(text: str | None) -> str | None:
    """`--location` as one short line, or a refusal."""
    if text is None or not text.strip():
        return None
    text = text.strip()
    if len(text) > LOCATION_MAX or not text.isprintable():
        raise CompanionError(_("A location is one line of at most {LOCATION_MAX} characters.").format(LOCATION_MAX=LOCATION_MAX))
    return text


def seat_from(names: list[str], start: str | None) -> list[str]:
    """Seat order starting with the start player (default: the first listed)."""
    if not start:
        return names
    from companion.contract.api import player_name

    first = player_name(names, start)
    i = names.index(first)
    return names[i:] + names[:i]
