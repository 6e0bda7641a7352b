"""A finished play as BG Stats takes it: the play's JSON, and the link that hands it over.

BG Stats (the play logger most groups use) documents how another app gives it a play: a link
``https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>`` that opens the app's
import dialog on the phone, where its games and players are matched to the app's own (by the
game's BoardGameGeek id, its name and the players' names; BG Stats remembers each match).
The JSON's fields, as its support page "Push plays to BG Stats from other apps or websites"
shows them: ``sourceName``, ``sourcePlayId``, ``playDate`` (``YYYY-MM-DD HH:MM:SS``),
``durationMin``, ``location``, ``comments``, ``board``, ``game`` (``name``, ``bggId``,
``highestWins``, ``noPoints``, ``sourceGameId``) and ``players`` (``name``, ``score``,
``rank``, ``winner``, ``startPlayer``, ``role``, ``sourcePlayerId``). Nothing else is sent.

The documented format has no teams and no co-operative flag: a team's members share their
rank and their win, a co-operative play is won (or lost) by everyone, and the comments say
which teams played. (Issue 31 asked again for teams as teams "where its format has them": the
documented example still has no team field, and a field BG Stats does not document is not
invented here, so tests/test_bgstats.py keeps refusing one.) Fields that are false or empty are left out (``startPlayer`` is given
for the start player, ``role`` for a player with a colour or role, ``board`` never): the link
stays short enough for a QR code.

The link carries the comments' first :data:`COMMENTS_KEPT` characters (the teams, the co-op
result and the tie-break first, then the notes in the order they were taken, cut between
words and marked "…"), so that a long evening's notes do not make every link too long for a
code (issue 29: 6 players and 12 notes made a 3,830-character link, past the 2,953 bytes a QR
code holds). `export --format bgstats` writes the whole comments; the report has every note.
A link still too long for a code (six long names in a script of three bytes a letter) is given
as a link alone, with the reason in one line (:func:`too_long`).

Made from the session alone (its file and, for names, the alias table): what `report`,
`export --format bgstats` and the phone's game-over page show is the same.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any
from urllib.parse import quote

from companion.contract.language import _
from companion.contract.errors import CompanionError

SOURCE_NAME = "Tabletop Companion"
LINK = "https://app.bgstatsapp.com/createPlay.html?data="


def _local(text: str | None) -> str:
    """A stored time (UTC, ISO) as the local `YYYY-MM-DD HH:MM:SS` BG Stats reads."""
    from datetime import datetime

    try:
        moment = datetime.fromisoformat(str(text))
    except ValueError:
        return ""
    if moment.tzinfo is not None:
        moment = moment.astimezone()
    return moment.strftime("%Y-%m-%d %H:%M:%S")


def play_date(session, replay) -> str:
    """When it was played: `--played-on` (a day alone is taken at midnight), else its first
    action (else its start)."""
    played = session.meta.get("played_on")
    if isinstance(played, str) and played:
        return played.replace("T", " ") + (":00" if len(played) == 16 else " 00:00:00")
    first = next((e.get("at") for e in replay.events), None) if not replay.played else None
    return _local(first or session.meta.get("created"))


def play(session, replay, roster=None, bgg_id: int | None = None) -> dict:
    """The play's JSON for BG Stats (a finished session only; ``roster`` shows the names as
    renamed and merged, ``bgg_id`` is the game's BoardGameGeek id when known)."""
    from companion.core.session import minutes_between
    from companion.record import stats as history

    if replay.abandoned:
        raise CompanionError(_("Session {id} was abandoned: it has no result to send to BG Stats.").format(
            id=session.id))
    if not replay.finished:
        raise CompanionError(_("Session {id} is still in play: BG Stats takes a play once it is over "
                               "(`report` offers it then).").format(id=session.id))
    from companion.contract.exit import Exit

    status = Exit(session, replay).status  # the table's, as every surface
    show = roster.show if roster is not None else (lambda name: name)
    seats = [p["name"] for p in status.get("players", [])]
    scores = {p["name"]: None if history.no_points_entered(status) else p.get("score")
              for p in status.get("players", [])}
    winners = list(status.get("winners") or [])
    summary = {k: status.get(k) for k in ("teams", "team_scores", "coop", "won")}
    given = {p["name"]: p["rank"] for p in status.get("players", []) if isinstance(p.get("rank"), int)}
    if given:
        summary["ranks"] = given
    coop = bool(status.get("coop"))
    ranks = {} if coop else history.session_ranks(seats, scores, winners, summary, lambda p: p)
    no_points = not any(history.is_number(v) for v in scores.values())
    lowest = bool(status.get("lowest_wins")) or history.direction(scores, winners) == "low"
    options = session.meta.get("options") or {}
    start = options.get("start") if isinstance(options.get("start"), str) else (seats[0] if seats else None)
    roles = session.meta.get("roles") or {}
    players = []
    for name in seats:
        row: dict[str, Any] = {"name": show(name)}
        if not no_points and history.is_number(scores.get(name)):
            row["score"] = scores[name]
        if name in ranks:
            row["rank"] = ranks[name]
        row["winner"] = name in winners
        if name == start:  # left out when false or empty: a shorter link makes a smaller QR code
            row["startPlayer"] = True
        if roles.get(name):
            row["role"] = str(roles[name])
        row["sourcePlayerId"] = show(name).casefold()
        players.append(row)
    game: dict[str, Any] = {"name": session.title}
    if bgg_id is None:  # the id the session started with: its pack's, or its title's
        frozen = (session.meta.get("data") or {}).get("bgg_id") or options.get("bgg_id")
        bgg_id = frozen if isinstance(frozen, int) and not isinstance(frozen, bool) else None
    if bgg_id:
        game["bggId"] = int(bgg_id)
    game.update(highestWins=not lowest, noPoints=no_points,
                sourceGameId=history.game_key({"game": session.meta["game"], "title": options.get("title")}))
    out: dict[str, Any] = {"sourceName": SOURCE_NAME, "sourcePlayId": session.id,
                           "playDate": play_date(session, replay)}
    minutes = status.get("minutes")
    if minutes is None and not replay.played:
        minutes = minutes_between(next((e.get("at") for e in replay.events), None), replay.finished_at)
    if isinstance(minutes, int):
        out["durationMin"] = minutes
    if status.get("location"):
        out["location"] = status["location"]
    comments = []
    if status.get("teams"):
        comments.append("Teams: " + ", ".join("+".join(show(p) for p in t) for t in status["teams"]))
    if coop:
        comments.append("Co-operative: won together." if status.get("won") else "Co-operative: lost together.")
    if status.get("tie_break"):
        comments.append(f"Tie settled by {status['tie_break']}.")
    comments += [str(e["event"].get("text", "")) for e in replay.events if e["event"].get("type") == "note"]
    if comments:
        out["comments"] = "\n".join(comments)
    out["game"] = game
    out["players"] = players
    return out


def text(play_json: dict) -> str:
    """The play's JSON as `export --format bgstats` writes it."""
    return json.dumps(play_json, ensure_ascii=False, indent=2) + "\n"


COMMENTS_KEPT = 280  # characters of the comments a link carries (a few short notes whole)
MORE = " … (every note is in the companion's report)"


def shortened(comments: str, limit: int = COMMENTS_KEPT) -> str:
    """The comments as a link carries them: whole when they fit in ``limit`` characters, else
    their beginning, cut between words, and :data:`MORE`."""
    if len(comments) <= limit:
        return comments
    room = max(0, limit - len(MORE))
    cut = comments[:room]
    if " " in cut[room // 2:] and not comments[room:room + 1].isspace():
        cut = cut[:cut.rfind(" ")]
    return cut.rstrip() + MORE


def link(play_json: dict) -> str:
    """The link that opens BG Stats' import dialog with this play (the JSON compact, encoded
    as JavaScript's encodeURIComponent does; the comments :func:`shortened`)."""
    if len(play_json.get("comments") or "") > COMMENTS_KEPT:
        play_json = {**play_json, "comments": shortened(play_json["comments"])}
    compact = json.dumps(play_json, ensure_ascii=False, separators=(",", ":"))
    return LINK + quote(compact, safe="-_.!~*'()")


def session_link(store, session, replay=None, roster=None) -> str:
    """The BG Stats link of a finished session: the one link `report`, `export --format
    bgstats-link` and the served pages give (issue 29: the pages made their own, without the
    renames and a title's late id). ``roster`` defaults to the session's names as the data
    folder shows them now; without a data folder (``store`` None) the session's own."""
    replay = replay if replay is not None else session.replay()
    if store is None:
        return link(play(session, replay, roster))
    from companion.record.plays import bgg_id_of
    from companion.record.players import session_roster

    if roster is None:
        roster = session_roster(store, session.players)
    return link(play(session, replay, roster, bgg_id_of(store, session.meta)))


# -- the link as a QR code, for a phone to scan off the laptop or the TV ----------------------------

QUIET = 4  # modules of light border the QR specification asks for


QR_BYTES = 2953  # the most a QR code holds (version 40, error correction L, bytes): ISO/IEC 18004


@lru_cache(maxsize=8)
def qr(url: str):
    """The link's QR code (segno), error correction L: the smallest code for a long link; None
    when the link is longer than any QR code holds."""
    import segno

    try:
        return segno.make(url, error="l", boost_error=False)
    except segno.DataOverflowError:
        return None


def too_long(url: str) -> str | None:
    """Why the link gets no QR code, in one line (None: it has one)."""
    if qr(url) is not None:
        return None
    from companion.contract.written import number

    return _("This link is too long for a QR code ({n} characters; a code holds {most}): "
             "open the link itself on the phone or tablet that has BG Stats.").format(
        n=number(len(url), grouped=True), most=number(QR_BYTES, grouped=True))



def qr_svg(url: str) -> str | None:
    """The QR code as an inline SVG for a page (dark modules on white, with its quiet zone);
    None when the link is too long for a code."""
    code = qr(url)
    return None if code is None else code.svg_inline(scale=3, border=QUIET, dark="#000", light="#fff")


def qr_rows(url: str) -> list[str] | None:
    """The QR code as terminal rows of half blocks, dark on light whatever the terminal's own
    colours (explicit black on white, so it also scans on a light terminal); None when the
    matrix is empty. Each row holds two rows of modules."""
    code = qr(url)
    matrix = [list(row) for row in code.matrix] if code is not None else []
    size = len(matrix)
    if not size:
        return None
    light_row = [0] * (size + 2 * QUIET)
    grid = [light_row] * QUIET + [[0] * QUIET + [int(bool(m)) for m in row] + [0] * QUIET for row in matrix] \
        + [light_row] * QUIET
    if len(grid) % 2:
        grid.append(light_row)
    glyph = {(0, 0): " ", (1, 0): "▀", (0, 1): "▄", (1, 1): "█"}
    rows = []
    for top, bottom in zip(grid[::2], grid[1::2]):
        # black glyphs (30) on a white background (47): the dark modules are the drawn halves
        rows.append("\x1b[30;47m" + "".join(glyph[(a, b)] for a, b in zip(top, bottom)) + "\x1b[0m")
    return rows


def qr_width(url: str) -> int | None:
    """Columns the terminal QR code takes (its modules and both quiet zones); None: no code."""
    code = qr(url)
    return None if code is None else len(code.matrix) + 2 * QUIET
