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

from companion.contract.language import _
from companion.contract.errors import CompanionError
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
    kind = type(value)
    return kind is int or kind is float or (isinstance(value, (int, float)) and kind is not bool)


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
        raise CompanionError(_("{text} is not a date: write it as YYYY-MM-DD, e.g. 2026-01-31.")
                               .format(text=repr(text))) from None


def game_key(entry: dict) -> str:
    """The game a history counts a session under: a score sheet's title (`--title
    Carcassonne`, issue 23), else the game's id. Titles never equal a game id."""
    named = entry.get("title")
    return named if isinstance(named, str) and named else str(entry.get("game"))


def is_coop(entry: dict) -> bool:
    return bool((entry.get("summary") or {}).get("coop"))


def no_points_entered(summary: dict) -> bool:
    """A co-operative score sheet that ended with no round entered: its zeros are nobody's
    points, so the exports send it as they send a co-operative `played` game, without scores
    (issue 29: BoardGameGeek got score="0" for one and score="" for the other)."""
    return bool(summary.get("coop")) and summary.get("round") == 0 and not summary.get("played")


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
    if not nums or not won or not all(map(is_number, won)):
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
    won = set(winners)
    out: dict[str, int] = {}
    rest = []
    for p in seats:
        if p in won:
            out[p] = 1
        else:
            v = scores.get(p)
            rest.append(((0, v if lowest else -v) if is_number(v) else (1, 0), p))
    rest.sort(key=_first)  # stable: equal scores keep their seat order
    top = len(out)
    rank, previous = top, None
    for n, (order, p) in enumerate(rest):
        if order != previous:
            rank = top + n + 1
            previous = order
        out[p] = rank
    return out


def _first(pair):
    return pair[0]


def teams_of(summary: dict, show=lambda p: p) -> list[list[str]] | None:
    """A finished session's teams (shown names), or None when everyone played for themselves."""
    teams = summary.get("teams")
    if not isinstance(teams, list) or not all(isinstance(t, list) for t in teams):
        return None
    return [[show(p) for p in t if isinstance(p, str)] for t in teams]


def session_ranks(seats: list[str], scores: dict[str, Any], winners: list[str], summary: dict, show,
                  low: bool | None = None) -> dict[str, int]:
    """Each seat's place in a finished session: the ranks a rank-only play gave, else the winners
    first and the others by score; a team shares its place (ranked by its own total)."""
    given = summary.get("ranks")
    if isinstance(given, dict) and given:
        out = {show(p): r for p, r in given.items() if isinstance(r, int)}
        if all(p in out for p in seats):
            return out
    teams = teams_of(summary, show) if "teams" in summary else None
    if low is None:
        low = direction(scores, winners) == "low"
    if not teams:
        return ranks(seats, scores, winners, low)
    names = ["+".join(t) for t in teams]
    totals = summary.get("team_scores")
    if isinstance(totals, list) and len(totals) == len(teams):
        side_scores = dict(zip(names, totals))
    else:
        side_scores = {n: scores.get(t[0]) for n, t in zip(names, teams)}
    won = [n for n, t in zip(names, teams) if set(t) <= set(winners) and t]
    side = ranks(names, side_scores, won, low)
    return {p: side[n] for n, t in zip(names, teams) for p in t}


class Result:
    """One finished session as the history sees it: shown names, scores, winners, ranks."""

    __slots__ = ("entry", "id", "game", "seats", "scores", "winners", "ranks", "direction", "when", "rounds",
                 "minutes", "teams", "coop", "won")

    def __init__(self, entry: dict, roster: Roster):
        summary = entry["summary"]
        self.entry = entry
        self.id = entry["id"]
        self.game = game_key(entry)
        show = roster.show
        self.seats = [show(p) for p in entry.get("players") or ()]
        raw = summary.get("scores") or {}
        self.scores = {show(p): v for p, v in raw.items()} if isinstance(raw, dict) else {}
        self.winners = [show(w) for w in summary.get("winners") or () if isinstance(w, str)]
        self.direction = direction(self.scores, self.winners)
        self.teams = teams_of(summary, show) if "teams" in summary else None
        self.coop = bool(summary.get("coop"))
        self.won = bool(summary.get("won")) if self.coop else None
        self.ranks = session_ranks(self.seats, self.scores, self.winners, summary, show, self.direction == "low")
        self.when = when(entry)
        rounds = summary.get("round")
        self.rounds = rounds if is_number(rounds) else None
        given = summary.get("minutes")
        if isinstance(given, int) and not isinstance(given, bool):  # issue 23: first to last action, or --length
            self.minutes = given if given >= 0 else None
            return
        start, end = parse_time(entry.get("created")), parse_time(summary.get("finished_at") or entry.get("finished"))
        try:
            minutes = (end - start).total_seconds() / 60 if start and end else None
        except TypeError:  # one time with a zone, one without
            minutes = None
        if summary.get("played"):  # logged from final scores: its length is unknown
            minutes = None
        self.minutes = minutes if minutes is not None and minutes >= 0 else None

    def teammates(self, name: str) -> set[str]:
        for team in self.teams or ():
            if name in team:
                return set(team)
        return {name}


def select(entries: Iterable[dict], roster: Roster, game: str | None = None, player: str | None = None,
           since: str | None = None) -> list[dict]:
    """The entries a history view shows (`--game`, `--player` shown name, `--since` date)."""
    out = []
    key = player.casefold() if player else None
    for e in entries:
        if game and game_key(e) != game:
            continue
        if since and played_date(e) < since:
            continue
        if key and key not in {roster.key(p) for p in e.get("players") or ()}:
            continue
        out.append(e)
    return out


def check_game(game: str | None, entries: Iterable[dict]) -> str | None:
    """`--game G` as the history's key of that game (a game id, or a title in any capitals), or a
    refusal listing the games (known or present in the history)."""
    if game is None:
        return None
    from companion.core import registry as games
    from companion.contract.text import name_key

    known = set(games.known()) | {game_key(e) for e in entries}
    wanted = name_key(game.strip())
    for key in known:
        if key and name_key(key) == wanted:
            return key
    for gid in games.available():  # a game by its own title: `--game "Atlantic Star"`
        if name_key(title(gid)) == wanted:
            return gid
    listed = sorted((g for g in known if g), key=str.casefold)
    names = ", ".join(listed[:20])
    if len(listed) > 20:
        names = _("{names} and {n} more").format(names=names, n=len(listed) - 20)
    raise CompanionError(_("There is no game {game}: the games are {names}.").format(game=repr(game), names=names))



def title(game_id: str) -> str:
    """The name of a history's game key: a game's own title, or the title itself. A built-in
    game not loaded yet is named by its pack (listing 50,000 sessions need not import every
    game's rules for four names)."""
    from companion.core import registry as games

    if game_id not in games.known():
        return game_id
    if game_id not in games._games:
        from companion.core import datapack

        if game_id in datapack._shipped():
            with_title = datapack._load(game_id).get("title")
            if isinstance(with_title, str) and with_title:
                return with_title
    try:
        return games.get(game_id).title
    except CompanionError:
        return game_id


def shown_title(game_id: str) -> str:
    """:func:`title` as a screen shows it: a game's own title in the viewer's language (the score
    sheet's "Score sheet" is "Punkteblock" in German); a title a group gave is its own words. The
    `--json` outputs, the exports and the BG Stats link keep :func:`title`, never translated."""
    return _(title(game_id))


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 2) if values else None


def _better(a: Any, b: Any, low: bool) -> bool:
    return a < b if low else a > b


class ShowOnce:
    """A roster whose ``show`` remembers each name's answer (a history shows a few names
    hundreds of thousands of times: at 50,000 sessions that was most of `stats`)."""

    def __init__(self, roster: Roster):
        self.roster = roster
        self._shown: dict[str, str] = {}

    def show(self, name: str) -> str:
        shown = self._shown.get(name)
        if shown is None:
            shown = self._shown[name] = self.roster.show(name)
        return shown

    def key(self, name: str) -> str:
        return self.show(name).casefold()

    def find(self, name: str, known) -> str:
        return self.roster.find(name, known)


def players_table(entries: list[dict], roster: Roster) -> list[dict]:
    """The `players` listing: every player with their sessions, wins and recorded spellings."""
    rows: dict[str, dict] = {}
    roster = ShowOnce(roster)
    for e in entries:
        done = finished(e)
        winners = {roster.key(w) for w in (e.get("summary") or {}).get("winners") or ()} if done else set()
        day = played_date(e)  # once per session, not per player
        for name in e.get("players") or ():
            shown = roster.show(name)
            row = rows.setdefault(shown.casefold(), {"name": shown, "sessions": 0, "finished": 0, "wins": 0,
                                                     "recorded_as": [], "first": None, "last": None})
            row["sessions"] += 1
            row["finished"] += done
            row["wins"] += done and shown.casefold() in winners
            if name != shown and name not in row["recorded_as"]:
                row["recorded_as"].append(name)
            row["first"] = min(row["first"] or day, day)
            row["last"] = max(row["last"] or day, day)
    return sorted(rows.values(), key=lambda r: (-r["sessions"], r["name"].casefold()))


def compute(entries: list[dict], roster: Roster, player: str | None = None, game: str | None = None,
            since: str | None = None) -> dict:
    """The statistics of `stats`, as one JSON value (the `--json` contract).

    Co-operative plays (everyone wins or loses together) are counted apart (``coop`` of each
    player and game): a win against the game is no win against the table, so they stay out of
    the win rates, streaks, head-to-head and records of the competitive plays. A team's win is
    a win for each of its members; teammates are never each other's opponents."""
    game = check_game(game, entries)
    since = parse_since(since)
    shown = None
    if player is not None:
        shown = roster.find(player, shown_players(entries, roster).values())
    chosen = select(entries, roster, game, shown, since)
    # in the order the sessions ended; the index's order (oldest first) breaks same-second ties
    roster = ShowOnce(roster)  # a few names shown hundreds of thousands of times
    done = [(n, Result(e, roster)) for n, e in enumerate(chosen) if finished(e)]
    ordered = [r for _, r in sorted(done, key=lambda nr: (nr[1].when, nr[0]))]
    results = [r for r in ordered if not r.coop]
    together = [r for r in ordered if r.coop]
    unfinished = [
        {"id": e["id"], "game": game_key(e), "players": [roster.show(p) for p in e.get("players") or ()],
         "created": e.get("created")}
        for e in chosen if not finished(e) and not abandoned(e)
    ]
    given_up = [
        {"id": e["id"], "game": game_key(e), "players": [roster.show(p) for p in e.get("players") or ()],
         "created": e.get("created"), "abandoned_at": e["summary"].get("abandoned_at"),
         "reason": e["summary"].get("reason") or ""}
        for e in chosen if abandoned(e)
    ]
    tally = _Tally(results)
    for r in results:
        tally.count(r)
    for r in together:  # co-operative plays: won or lost together, counted apart
        tally.count_coop(r)
    players, h2h = tally.players(), tally.h2h
    if shown is not None:  # one player's statistics, and their record against the others
        players = [p for p in players if p["name"].casefold() == shown.casefold()]
        h2h = {k: v for k, v in h2h.items() if k.casefold() == shown.casefold()}
    return {
        "filters": {"player": shown, "game": game, "since": since},
        "sessions": len(results),
        "coop_sessions": len(together),
        "players": players,
        "head_to_head": {k: dict(sorted(v.items(), key=lambda kv: kv[0].casefold()))
                         for k, v in sorted(h2h.items(), key=lambda kv: kv[0].casefold())},
        "games": tally.games_out(),
        "unfinished": unfinished,
        "abandoned": given_up,
    }


class _Tally:
    """The counts `stats` adds up, play by play: each player's (sessions, wins, streaks, per
    game, recent scores), each pair's head-to-head, and each game's (sessions, rounds, minutes,
    record score); rows keep working keys starting with ``_`` until they are given out."""

    def __init__(self, results: list):
        # which way each game is won: what most of its sessions show
        votes: dict[str, list[int]] = {}
        for r in results:
            v = votes.setdefault(r.game, [0, 0])
            if r.direction:
                v[r.direction == "low"] += 1
        self.low_game = {g: v[1] > v[0] for g, v in votes.items()}
        self.per: dict[str, dict] = {}
        self.h2h: dict[str, dict[str, dict[str, int]]] = {}
        self.games: dict[str, dict] = {}

    def game_row(self, r) -> dict:
        g = self.games.get(r.game)
        if g is None:
            g = self.games[r.game] = {"game": r.game, "title": title(r.game), "sessions": 0, "_rounds": [],
                                      "_minutes": [], "record": None, "lowest_wins": self.low_game.get(r.game, False)}
        if r.rounds is not None:
            g["_rounds"].append(r.rounds)
        if r.minutes is not None:
            g["_minutes"].append(r.minutes)
        return g

    def player_row(self, name: str) -> dict:
        row = self.per.get(name.casefold())
        if row is None:
            row = self.per[name.casefold()] = {"name": name, "sessions": 0, "wins": 0, "_streak": 0,
                                               "longest_streak": 0, "_games": {}, "_recent": [], "_coop": None}
        return row

    def count(self, r) -> None:
        """One competitive play: each seat's session, win, streak, score and record."""
        low = self.low_game[r.game]
        g = self.game_row(r)
        g["sessions"] += 1
        for name in r.seats:
            score = r.scores.get(name)
            won = name in r.winners
            p = self.player_row(name)
            p["sessions"] += 1
            p["wins"] += won
            p["_streak"] = p["_streak"] + 1 if won else 0
            p["longest_streak"] = max(p["longest_streak"], p["_streak"])
            p["_recent"].append(score if is_number(score) else None)
            pg = p["_games"].get(r.game)
            if pg is None:
                pg = p["_games"][r.game] = {"sessions": 0, "wins": 0, "_scores": [], "_recent": []}
            pg["sessions"] += 1
            pg["wins"] += won
            pg["_recent"].append(score if is_number(score) else None)
            if is_number(score):
                pg["_scores"].append(score)
                rec = g["record"]
                if rec is None or _better(score, rec["score"], low):
                    g["record"] = {"score": score, "player": name, "session": r.id, "date": played_date(r.entry)}
            self.against(r, name)

    def against(self, r, name: str) -> None:
        """``name``'s wins, losses and draws against every other seat (teammates excepted)."""
        mates = r.teammates(name) if r.teams else (name,)
        mine = r.ranks[name]
        row = self.h2h.get(name)
        if row is None:
            row = self.h2h[name] = {}
        for other in r.seats:
            if other in mates:
                continue
            cell = row.get(other)
            if cell is None:
                cell = row[other] = {"wins": 0, "losses": 0, "draws": 0}
            theirs = r.ranks[other]
            cell["wins" if mine < theirs else "losses" if mine > theirs else "draws"] += 1

    def count_coop(self, r) -> None:
        g = self.game_row(r)
        g.setdefault("_coop", [0, 0])
        g["_coop"][0] += 1
        g["_coop"][1] += bool(r.won)
        for name in r.seats:
            p = self.player_row(name)
            c = p["_coop"] = p["_coop"] or {"sessions": 0, "wins": 0, "games": {}}
            c["sessions"] += 1
            c["wins"] += bool(r.won)
            cg = c["games"].setdefault(r.game, {"sessions": 0, "wins": 0})
            cg["sessions"] += 1
            cg["wins"] += bool(r.won)

    def players(self) -> list[dict]:
        """The players' rows as `stats --json` gives them, the best win rate first."""
        players = []
        for p in self.per.values():
            pgames = {}
            for gid, pg in sorted(p["_games"].items()):
                scores, low = pg["_scores"], self.low_game[gid]
                pgames[gid] = {"sessions": pg["sessions"], "wins": pg["wins"], "average": _mean(scores),
                               "best": (min(scores) if low else max(scores)) if scores else None,
                               "recent": pg["_recent"][-RECENT:]}
            row = {
                "name": p["name"], "sessions": p["sessions"], "wins": p["wins"],
                "win_rate": round(p["wins"] / p["sessions"], 4) if p["sessions"] else 0.0,
                "current_streak": p["_streak"], "longest_streak": p["longest_streak"],
                "games": pgames, "recent": p["_recent"][-RECENT:],
            }
            if p["_coop"]:
                c = p["_coop"]
                row["coop"] = {"sessions": c["sessions"], "wins": c["wins"],
                               "win_rate": round(c["wins"] / c["sessions"], 4), "games": dict(sorted(c["games"].items()))}
            players.append(row)
        players.sort(key=lambda p: (-p["win_rate"], -p["wins"], p["name"].casefold()))
        return players

    def games_out(self) -> list[dict]:
        """The games' rows, the most played first."""
        game_rows = []
        for g in sorted(self.games.values(), key=lambda g: (-(g["sessions"] + (g.get("_coop") or [0])[0]), g["game"])):
            minutes = _mean(g.pop("_minutes"))
            coop = g.pop("_coop", None)
            row = {**{k: v for k, v in g.items() if not k.startswith("_")},
                   "average_rounds": _mean(g.pop("_rounds")),
                   "average_minutes": round(minutes, 1) if minutes is not None else None}
            if coop:
                row["coop"] = {"sessions": coop[0], "wins": coop[1], "win_rate": round(coop[1] / coop[0], 4)}
            game_rows.append(row)
        return game_rows
