"""Statistics over the index alone: who plays, who wins, streaks, head-to-head, records.

Pure: it takes index entries (see ``store.index_entry``) and a :class:`~companion.record.players.Roster`
and returns plain JSON values, so `stats --json`, the terminal tables and the HTML page all
show the same numbers, and 10,000 sessions cost one read of the index, never 10,000 files.

Definitions (the issue's words made exact):

* only finished sessions count; the others are listed as in play;
* a tie for first is a win for each tied player (the session's ``winners``);
* ranks: the winners first, then the others by score; equal scores share a rank; a player
  beats, head-to-head, everyone ranked below them in a session;
* whether low or high scores are good is read off each session: when the winners hold the
  lowest score (and it is not also the highest), that session was won low. A game's "best"
  and "record" scores follow what most of its sessions did.
"""

from __future__ import annotations

from datetime import date, datetime, timezone
from typing import Any, Iterable

from companion.core.errors import CompanionError
from companion.core.session import parse_location, parse_played_on  # noqa: F401 (used by commands)
from companion.record.players import Roster, shown_players

RECENT = 10  # sessions in a player's "recent scores" line (per game, and over all games)


def recent_by_game(players: list[dict], game: str | None = None) -> list[dict]:
    """The "recent scores" chart, one per game (scores of different games never share a
    line): [{game, title, lo, hi, rows: [(name, scores)]}]; lo/hi is the chart's one scale."""
    games: dict[str, list] = {}
    for p in players:
        for gid, g in p["games"].items():
            if game and gid != game:
                continue
            scores = [v for v in g.get("recent") or [] if is_number(v)]
            if scores:
                games.setdefault(gid, []).append((p["name"], scores))
    out = []
    for gid in sorted(games):
        values = [v for _, vs in games[gid] for v in vs]
        out.append({"game": gid, "title": title(gid), "lo": min(values), "hi": max(values), "rows": games[gid]})
    return out


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def parse_time(text: Any) -> datetime | None:
    """A stored time, always with its zone. The companion writes every time in UTC with its
    zone; one without (a hand edit: `import` refuses them) is read as UTC, so two times can
    always be compared (issue 22: one made `export --format csv` fail for the whole folder)."""
    if not isinstance(text, str):
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    # a time at the edge of the calendar cannot be moved to another time zone: not a real one
    if not 1900 <= moment.year <= 9000:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def local_date(text: Any) -> str:
    """The local calendar date of a stored UTC time (what people call the day they played)."""
    moment = parse_time(text)
    if moment is None:
        return str(text or "")[:10]
    if moment.tzinfo is not None:
        moment = moment.astimezone()
    return moment.date().isoformat()


def parse_since(text: str | None) -> str | None:
    """`--since` as YYYY-MM-DD, or a refusal showing how to write it."""
    if text is None:
        return None
    try:
        return date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        raise CompanionError(f"{text!r} is not a date: write it as YYYY-MM-DD, e.g. 2026-01-31.") from None


def finished(entry: dict) -> bool:
    return bool(entry.get("finished")) and isinstance(entry.get("summary"), dict)


def abandoned(entry: dict) -> bool:
    """Ended with no result (`abandon`): neither played nor in play."""
    summary = entry.get("summary")
    return not entry.get("finished") and isinstance(summary, dict) and "abandoned_at" in summary


def when(entry: dict) -> str:
    """The moment that orders sessions in a history: when it was played if that was given
    (`--played-on`, `played`), else the end if finished, else the start."""
    played = entry.get("played_on")
    if isinstance(played, str) and played:
        return played
    summary = entry.get("summary") or {}
    return str(summary.get("finished_at") or entry.get("finished") or entry.get("created") or "")


def played_date(entry: dict) -> str:
    """The calendar date a session was played: `--played-on` if given, else its start."""
    played = entry.get("played_on")
    if isinstance(played, str) and played:
        return played[:10]
    return local_date(entry.get("created"))


def direction(scores: dict[str, Any], winners: Iterable[str]) -> str | None:
    """'high' or 'low' when a session shows which way it was won, else None."""
    nums = [v for v in scores.values() if is_number(v)]
    won = [scores.get(w) for w in winners]
    if not nums or not won or not all(is_number(v) for v in won):
        return None
    lo, hi = min(nums), max(nums)
    if lo == hi:
        return None
    if all(v == hi for v in won):
        return "high"
    if all(v == lo for v in won):
        return "low"
    return None


def ranks(seats: list[str], scores: dict[str, Any], winners: Iterable[str], lowest: bool = False) -> dict[str, int]:
    """Competition ranks (1, 1, 3 ...): the winners first, then by score; no score ranks last."""
    winners = [w for w in seats if w in set(winners)]
    out = {w: 1 for w in winners}
    rest = [p for p in seats if p not in out]

    def order(p: str):
        v = scores.get(p)
        return (0, v if lowest else -v) if is_number(v) else (1, 0)

    rest.sort(key=order)
    rank, previous = len(winners), None
    for n, p in enumerate(rest):
        if order(p) != previous:
            rank = len(winners) + n + 1
            previous = order(p)
        out[p] = rank
    return out


class Result:
    """One finished session as the history sees it: shown names, scores, winners, ranks."""

    __slots__ = ("entry", "id", "game", "seats", "scores", "winners", "ranks", "direction", "when", "rounds",
                 "minutes")

    def __init__(self, entry: dict, roster: Roster):
        summary = entry["summary"]
        self.entry = entry
        self.id = entry["id"]
        self.game = entry["game"]
        self.seats = [roster.show(p) for p in entry.get("players") or ()]
        raw = summary.get("scores") or {}
        self.scores = {roster.show(p): v for p, v in raw.items()} if isinstance(raw, dict) else {}
        self.winners = [roster.show(w) for w in summary.get("winners") or () if isinstance(w, str)]
        self.direction = direction(self.scores, self.winners)
        self.ranks = ranks(self.seats, self.scores, self.winners, self.direction == "low")
        self.when = when(entry)
        rounds = summary.get("round")
        self.rounds = rounds if is_number(rounds) else None
        start, end = parse_time(entry.get("created")), parse_time(summary.get("finished_at") or entry.get("finished"))
        try:
            minutes = (end - start).total_seconds() / 60 if start and end else None
        except TypeError:  # one time with a zone, one without
            minutes = None
        if summary.get("played"):  # logged from final scores: its length is unknown
            minutes = None
        self.minutes = minutes if minutes is not None and minutes >= 0 else None


def select(entries: Iterable[dict], roster: Roster, game: str | None = None, player: str | None = None,
           since: str | None = None) -> list[dict]:
    """The entries a history view shows (`--game`, `--player` shown name, `--since` date)."""
    out = []
    key = player.casefold() if player else None
    for e in entries:
        if game and e.get("game") != game:
            continue
        if since and played_date(e) < since:
            continue
        if key and key not in {roster.key(p) for p in e.get("players") or ()}:
            continue
        out.append(e)
    return out


def check_game(game: str | None, entries: Iterable[dict]) -> str | None:
    """`--game G` as given, or a refusal listing the games (known or present in the history)."""
    if game is None:
        return None
    from companion.core import registry as games

    known = set(games.known()) | {e.get("game") for e in entries}
    if game not in known:
        raise CompanionError(f"There is no game {game!r}: the games are {', '.join(sorted(g for g in known if g))}.")
    return game


def title(game_id: str) -> str:
    from companion.core import registry as games

    try:
        return games.get(game_id).title
    except CompanionError:
        return game_id


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 2) if values else None


def _better(a: Any, b: Any, low: bool) -> bool:
    return a < b if low else a > b


def players_table(entries: list[dict], roster: Roster) -> list[dict]:
    """The `players` listing: every player with their sessions, wins and recorded spellings."""
    rows: dict[str, dict] = {}
    for e in entries:
        done = finished(e)
        winners = {roster.key(w) for w in (e.get("summary") or {}).get("winners") or ()} if done else set()
        for name in e.get("players") or ():
            shown = roster.show(name)
            row = rows.setdefault(shown.casefold(), {"name": shown, "sessions": 0, "finished": 0, "wins": 0,
                                                     "recorded_as": [], "first": None, "last": None})
            row["sessions"] += 1
            row["finished"] += done
            row["wins"] += done and shown.casefold() in winners
            if name != shown and name not in row["recorded_as"]:
                row["recorded_as"].append(name)
            day = played_date(e)
            row["first"] = min(row["first"] or day, day)
            row["last"] = max(row["last"] or day, day)
    return sorted(rows.values(), key=lambda r: (-r["sessions"], r["name"].casefold()))


def compute(entries: list[dict], roster: Roster, player: str | None = None, game: str | None = None,
            since: str | None = None) -> dict:
    """The statistics of `stats`, as one JSON value (the `--json` contract)."""
    game = check_game(game, entries)
    since = parse_since(since)
    shown = None
    if player is not None:
        shown = roster.find(player, shown_players(entries, roster).values())
    chosen = select(entries, roster, game, shown, since)
    # in the order the sessions ended; the index's order (oldest first) breaks same-second ties
    done = [(n, Result(e, roster)) for n, e in enumerate(chosen) if finished(e)]
    results = [r for _, r in sorted(done, key=lambda nr: (nr[1].when, nr[0]))]
    unfinished = [
        {"id": e["id"], "game": e["game"], "players": [roster.show(p) for p in e.get("players") or ()],
         "created": e.get("created")}
        for e in chosen if not finished(e) and not abandoned(e)
    ]
    given_up = [
        {"id": e["id"], "game": e["game"], "players": [roster.show(p) for p in e.get("players") or ()],
         "created": e.get("created"), "abandoned_at": e["summary"].get("abandoned_at"),
         "reason": e["summary"].get("reason") or ""}
        for e in chosen if abandoned(e)
    ]

    # which way each game is won: what most of its sessions show
    votes: dict[str, list[int]] = {}
    for r in results:
        v = votes.setdefault(r.game, [0, 0])
        if r.direction:
            v[r.direction == "low"] += 1
    low_game = {g: v[1] > v[0] for g, v in votes.items()}

    per: dict[str, dict] = {}
    h2h: dict[str, dict[str, dict[str, int]]] = {}
    games: dict[str, dict] = {}
    for r in results:
        low = low_game[r.game]
        g = games.setdefault(r.game, {"game": r.game, "title": title(r.game), "sessions": 0, "_rounds": [],
                                      "_minutes": [], "record": None, "lowest_wins": low})
        g["sessions"] += 1
        if r.rounds is not None:
            g["_rounds"].append(r.rounds)
        if r.minutes is not None:
            g["_minutes"].append(r.minutes)
        for name in r.seats:
            score = r.scores.get(name)
            won = name in r.winners
            p = per.setdefault(name.casefold(), {"name": name, "sessions": 0, "wins": 0, "_streak": 0,
                                                 "longest_streak": 0, "_games": {}, "_recent": []})
            p["sessions"] += 1
            p["wins"] += won
            p["_streak"] = p["_streak"] + 1 if won else 0
            p["longest_streak"] = max(p["longest_streak"], p["_streak"])
            p["_recent"].append(score if is_number(score) else None)
            pg = p["_games"].setdefault(r.game, {"sessions": 0, "wins": 0, "_scores": [], "_recent": []})
            pg["sessions"] += 1
            pg["wins"] += won
            pg["_recent"].append(score if is_number(score) else None)
            if is_number(score):
                pg["_scores"].append(score)
                rec = g["record"]
                if rec is None or _better(score, rec["score"], low):
                    g["record"] = {"score": score, "player": name, "session": r.id, "date": played_date(r.entry)}
            for other in r.seats:
                if other == name:
                    continue
                cell = h2h.setdefault(name, {}).setdefault(other, {"wins": 0, "losses": 0, "draws": 0})
                mine, theirs = r.ranks[name], r.ranks[other]
                cell["wins" if mine < theirs else "losses" if mine > theirs else "draws"] += 1

    players = []
    for p in per.values():
        pgames = {}
        for gid, pg in sorted(p["_games"].items()):
            scores, low = pg["_scores"], low_game[gid]
            pgames[gid] = {"sessions": pg["sessions"], "wins": pg["wins"], "average": _mean(scores),
                           "best": (min(scores) if low else max(scores)) if scores else None,
                           "recent": pg["_recent"][-RECENT:]}
        players.append({
            "name": p["name"], "sessions": p["sessions"], "wins": p["wins"],
            "win_rate": round(p["wins"] / p["sessions"], 4),
            "current_streak": p["_streak"], "longest_streak": p["longest_streak"],
            "games": pgames, "recent": p["_recent"][-RECENT:],
        })
    players.sort(key=lambda p: (-p["win_rate"], -p["wins"], p["name"].casefold()))
    if shown is not None:  # one player's statistics, and their record against the others
        players = [p for p in players if p["name"].casefold() == shown.casefold()]
        h2h = {k: v for k, v in h2h.items() if k.casefold() == shown.casefold()}
    game_rows = []
    for g in sorted(games.values(), key=lambda g: (-g["sessions"], g["game"])):
        minutes = _mean(g.pop("_minutes"))
        game_rows.append({**{k: v for k, v in g.items() if not k.startswith("_")},
                          "average_rounds": _mean(g.pop("_rounds")),
                          "average_minutes": round(minutes, 1) if minutes is not None else None})
    return {
        "filters": {"player": shown, "game": game, "since": since},
        "sessions": len(results),
        "players": players,
        "head_to_head": {k: dict(sorted(v.items(), key=lambda kv: kv[0].casefold()))
                         for k, v in sorted(h2h.items(), key=lambda kv: kv[0].casefold())},
        "games": game_rows,
        "unfinished": unfinished,
        "abandoned": given_up,
    }
