"""Skill ratings from finished plays (`stats --ratings`), by the openskill library.

The model is openskill's Plackett-Luce (Weng and Lin's Bayesian approximation, the method
behind TrueSkill-like ratings for any number of players): each player's skill is a belief,
a mean ``mu`` and an uncertainty ``sigma``, starting at 25 and 25/3. After every play each
player's belief moves by how surprising the order of finish was: beating stronger players
moves it more, and the uncertainty shrinks as plays accumulate. Equal ranks (a shared win,
or equal scores below the winners) are ties. The shown rating is ``mu - 3 * sigma``, a
cautious estimate (the skill is very likely above it), so a newcomer with one lucky win does
not top the table.

Reproducible: plays are rated in the order they were played (`--played-on`, else when they
ended), and plays on the same moment in an order fixed by their content, never by the order
they were typed in or their random ids; the model has no randomness.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable

from companion.record import stats as history
from companion.record.players import Roster

MIN_PLAYERS = 2  # a play alone says nothing about skill


class Play:
    """One finished play as the ratings see it: shown names in seat order and their ranks
    (the ranks of `stats`: winners first, then by score, equal scores tied), and its sides:
    each player alone, or the teams (issue 23: openskill rates a team from its members'
    ratings, and each member's rating moves with the team's result)."""

    __slots__ = ("id", "finished", "game", "seats", "ranks", "key", "sides")

    def __init__(self, entry: dict, show) -> None:
        summary = entry["summary"]
        self.id = entry.get("id")
        self.finished = entry.get("finished")
        self.game = history.game_key(entry)
        self.seats = seats = [show(p) for p in entry.get("players") or ()]
        raw = summary.get("scores")
        scores = {show(p): v for p, v in raw.items()} if isinstance(raw, dict) else {}
        winners = [show(w) for w in summary.get("winners") or () if isinstance(w, str)]
        teams = history.teams_of(summary, show)
        self.sides = teams if teams and sorted(p for t in teams for p in t) == sorted(seats) else None
        if self.sides is not None or summary.get("ranks"):
            ranks = history.session_ranks(seats, scores, winners, summary, show)
        elif len(winners) == 1 and all(type(v) is int for v in scores.values()) and len(scores) == len(seats):
            # the common case, without the general function's checks: one winner, whole scores
            won = scores.get(winners[0])
            low = won is not None and won == min(scores.values()) != max(scores.values())
            rest = sorted((v if low else -v, p) for p, v in scores.items() if p != winners[0])
            ranks = {winners[0]: 1}
            previous, rank = None, 1
            for n, (v, p) in enumerate(rest, 2):
                if v != previous:
                    rank, previous = n, v
                ranks[p] = rank
        else:
            low = history.direction(scores, winners) == "low"
            ranks = history.ranks(seats, scores, winners, low)
        self.ranks = [ranks[p] for p in seats]
        # the canonical order: when played, then the content (never the typing order or the id)
        self.key = (history.when(entry), self.game,
                    tuple(sorted((p.casefold(), r, str(scores.get(p))) for p, r in zip(seats, self.ranks))))


def ordered_plays(entries: Iterable[dict], roster: Roster) -> list[Play]:
    """Finished plays of 2 or more players, in a canonical order (see the module docstring)."""
    import functools

    show = functools.lru_cache(maxsize=None)(roster.show)  # a few names, shown 70,000 times
    # a co-operative play is no contest between its players: it says nothing of who is stronger
    plays = [Play(e, show) for e in entries if history.finished(e) and len(e.get("players") or ()) >= MIN_PLAYERS
             and not history.is_coop(e)]
    plays = [p for p in plays if p.sides is None or len(p.sides) >= 2]
    plays.sort(key=lambda p: p.key)
    return plays


def _shown(rating, plays: int) -> dict:
    return {"rating": round(rating.mu - 3 * rating.sigma, 2), "mu": round(rating.mu, 2),
            "sigma": round(rating.sigma, 2), "plays": plays}


CACHE_VERSION = 2
CHECKPOINT = 2000  # the tables are kept every this many plays: a change that far back rates again from there


def _rows(table: dict) -> dict:
    """A table as the cache keeps it: key -> [name, mu, sigma, plays] (floats exactly)."""
    return {k: [name, rating.mu, rating.sigma, plays] for k, (name, rating, plays) in table.items()}


def _read_rows(rows: dict) -> dict[str, list]:
    return {str(k): [str(name), float(mu), float(sigma), int(plays)] for k, (name, mu, sigma, plays) in rows.items()}


def _key(doc) -> tuple:
    """A play's order key as the cache keeps it (JSON lists) back as the tuple it was."""
    when, game, seats = doc
    return str(when), str(game), tuple((str(p), int(r), str(v)) for p, r, v in seats)


class Cache:
    """The ratings after the plays rated so far, kept in ``cache/ratings.json`` (issue 29:
    ratings add, they do not redo).

    openskill's update is sequential: the ratings after play n+1 are those after play n updated
    by that play alone. So the cache keeps, besides the tables after the last play, which plays
    those were (each session's id and the time it finished, in the order rated) and the tables
    every :data:`CHECKPOINT` plays. A new play after the last one is rated on top of the tables;
    a play undone, removed, finished again or imported with an older date rates again from the
    last checkpoint before it. Names renamed or merged rate everything again."""

    def __init__(self, doc: dict):
        self.aliases: dict = doc["aliases"]
        # which plays, in the order rated: their ids and when each finished (two texts, one
        # line per play: 50,000 plays read and written in a few milliseconds)
        self.ids: list[str] = doc["ids"].split("\n") if doc["ids"] else []
        self.done: list[str] = doc["finished"].split("\n") if doc["finished"] else []
        if len(self.ids) != len(self.done):
            raise ValueError("not one finishing time per play")
        self.one_game = bool(doc["one_game"])
        self.overall = _read_rows(doc["overall"])
        self.games = {str(g): _read_rows(t) for g, t in doc["games"].items()}
        # checkpoint: (plays before it, the last of them's key, overall, per game)
        self.checkpoints = [(int(c["n"]), _key(c["last"]), _read_rows(c["overall"]),
                             {str(g): _read_rows(t) for g, t in c["games"].items()}) for c in doc["checkpoints"]]
        self.last = _key(doc["last"]) if doc.get("last") else None
        if not all(0 < n <= len(self.ids) for n, *_ in self.checkpoints):
            raise ValueError("a checkpoint past the plays")

    @staticmethod
    def read(path: Path | None) -> dict | None:
        """The cache file's document, or None when there is none or it is damaged or foreign."""
        if path is None:
            return None
        try:
            if not path.is_file() or path.stat().st_size > 64 * 1024 * 1024:
                return None
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return doc if isinstance(doc, dict) and doc.get("version") == CACHE_VERSION else None

    @staticmethod
    def of(doc: dict | None) -> "Cache | None":
        try:
            return Cache(doc) if doc is not None else None
        except (ValueError, KeyError, TypeError, AttributeError):
            return None


def _save(path: Path | None, aliases: dict, ids: list[str], done: list[str], last: tuple | None, overall: dict,
          per_game: dict, one_game: bool, checkpoints: list, fingerprint: str | None) -> None:
    """Keep the state after the plays rated (best effort: a read-only folder just means no cache)."""
    if path is None or not ids:
        return
    import contextlib

    from companion.core.store import atomic_write_text

    doc = {"version": CACHE_VERSION, "aliases": aliases, "ids": "\n".join(ids), "finished": "\n".join(done),
           "last": last, "one_game": one_game, "overall": _rows(overall),
           "games": {g: _rows(t) for g, t in per_game.items()},
           "checkpoints": [{"n": n, "last": key, "overall": o, "games": g} for n, key, o, g in checkpoints]}
    if fingerprint:  # every play of this very history is in the tables
        doc.update(fingerprint=fingerprint, complete=True)
    with contextlib.suppress(Exception):
        atomic_write_text(path, json.dumps(doc, separators=(",", ":")))


def _load_settled(doc: dict | None, fingerprint: str | None):
    """(overall, per-game tables, one game?) of the cache when it was saved from exactly this
    history (``fingerprint``: the index's and the aliases' signatures), else None."""
    if doc is None or not fingerprint:
        return None
    try:
        if doc.get("fingerprint") != fingerprint or not doc.get("complete"):
            return None
        return _read_rows(doc["overall"]), {g: _read_rows(t) for g, t in doc["games"].items()}, bool(doc.get("one_game"))
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def _rateable(entry: dict) -> bool:
    """A play the ratings may count, as far as its index entry alone says (teams: see Play)."""
    return history.finished(entry) and len(entry.get("players") or ()) >= MIN_PLAYERS and not history.is_coop(entry)


def _resume(cache: Cache | None, entries: list[dict], roster: Roster, show):
    """Where rating may start again: (checkpoint or None for the start, the plays to rate from
    there in order, the cached order kept before it), or None when everything is rated again."""
    if cache is None or cache.aliases != roster.aliases:
        return None
    ids, done_then = cache.ids, cache.done
    position = dict(zip(ids, range(len(ids))))
    changed = len(ids)  # the first cached position whose play changed or went away
    fresh: list[dict] = []
    kept: dict[str, dict] = {}
    present: set[str] = set()
    for e in entries:
        sid = e.get("id")
        n = position.get(sid)
        if n is None:
            if _rateable(e):
                fresh.append(e)
            continue
        present.add(sid)
        done = e.get("finished")
        if done is not None and str(done) == done_then[n]:  # finished then as now: the same play
            kept[sid] = e
            continue
        changed = min(changed, n)  # undone, abandoned, finished again: rated again from there
        if _rateable(e):
            fresh.append(e)
    if len(present) < len(ids):  # a session gone (to the bin): rated again from there
        changed = min(changed, next(n for n, sid in enumerate(ids) if sid not in present))
    new = [p for p in (Play(e, show) for e in fresh) if p.sides is None or len(p.sides) >= 2]
    if cache.one_game and any(p.game != next(iter(cache.games), p.game) for p in new):
        return None  # "all games" was that one game's table: now it is a table of its own
    earliest = min((p.key for p in new), default=None)
    if changed == len(ids) and (earliest is None or cache.last is None or earliest > cache.last):
        checkpoint = (len(ids), cache.last, cache.overall, cache.games)  # the common case: after the last
    else:
        usable = [c for c in cache.checkpoints if c[0] <= changed and (earliest is None or earliest > c[1])]
        if not usable:
            return None
        checkpoint = max(usable, key=lambda c: c[0])
    start = checkpoint[0]
    again = [Play(kept[sid], show) for sid in ids[start:] if sid in kept]
    plays = sorted(again + new, key=lambda p: p.key)
    return checkpoint, plays, ids[:start], done_then[:start], [c for c in cache.checkpoints if c[0] <= start]


def _rate(model, table: dict[str, list], play: Play) -> None:
    """Rate one play into ``table`` (name key -> [name, rating, plays]): openskill's update is
    sequential, so a play is rated on top of the ratings before it."""
    if play.sides is not None:  # teams: one openskill team per side, ranked by the side's place
        rank_of = dict(zip(play.seats, play.ranks))
        sides = [[(p, p.casefold()) for p in side] for side in play.sides]
        teams = [[table[k][1] if k in table else model.rating() for _, k in side] for side in sides]
        rated = model.rate(teams, ranks=[rank_of[side[0][0]] for side in sides])
        for side, team in zip(sides, rated):
            for (p, k), rating in zip(side, team):
                row = table.get(k)
                table[k] = [p, rating, row[2] + 1 if row else 1]
        return
    keys = [p.casefold() for p in play.seats]
    teams = [[table[k][1]] if k in table else [model.rating()] for k in keys]
    for p, k, team in zip(play.seats, keys, model.rate(teams, ranks=play.ranks)):
        row = table.get(k)
        table[k] = [p, team[0], row[2] + 1 if row else 1]


def _settled_tables(settled: tuple, game: str | None) -> tuple[dict, dict]:
    """The cached tables of a history unchanged since they were saved: (overall, per game),
    one game's alone with ``--game``, and a single game's table as the overall one."""
    cached_overall, cached_games, one = settled
    if game is not None:
        cached_games = {game: cached_games[game]} if game in cached_games else {}
        cached_overall = next(iter(cached_games.values()), {})
    elif one and cached_games:
        cached_overall = next(iter(cached_games.values()))
    return cached_overall, cached_games


def compute(entries: list[dict], roster: Roster, game: str | None = None, player: str | None = None,
            since: str | None = None, cache: Path | None = None, fingerprint: str | None = None) -> dict:
    """{"model", "overall": [rows], "games": {game: [rows]}}; rows sorted best first.

    A row: name, rating (mu - 3 sigma), mu, sigma, plays. ``player`` keeps that player's rows.
    ``cache`` (a file in the data folder's cache) keeps the ratings after all the plays, used
    only for the whole record (no --game or --since): new plays are rated on top of it, and a
    change further back rates again from the last checkpoint before it (see :class:`Cache`).
    Floats are stored exactly, so the numbers are the same as rating everything again.
    """
    import functools

    from openskill.models.weng_lin.plackett_luce import PlackettLuce

    game = history.check_game(game, entries)
    since = history.parse_since(since)
    shown = roster.find(player, history.shown_players(entries, roster).values()) if player is not None else None
    model = PlackettLuce()

    def restore(rows: dict[str, list]) -> dict[str, list]:
        return {k: [name, model.rating(mu=mu, sigma=sigma), n] for k, (name, mu, sigma, n) in rows.items()}

    # issue 23: a history unchanged since the cache was saved (the same index and aliases) is
    # not even read into plays again: at 50,000 plays that alone took a second
    doc = Cache.read(cache)
    settled = _load_settled(doc, fingerprint) if since is None else None
    if settled is not None:
        cached_overall, cached_games = _settled_tables(settled, game)
        return _result(restore(cached_overall), {g: restore(t) for g, t in cached_games.items()}, shown)
    if game is not None or since is not None:
        cache = None
    show = functools.lru_cache(maxsize=None)(roster.show)  # a few names, shown 70,000 times
    resumed = _resume(Cache.of(doc), entries, roster, show) if cache is not None else None
    del doc
    if resumed is None:
        plays = ordered_plays(history.select(entries, roster, game, None, since), roster)
        one_game = len({p.game for p in plays}) <= 1  # then "all games" is that game's table: rate once
        overall: dict[str, list] = {}
        per_game: dict[str, dict[str, list]] = {}
        ids: list[str] = []
        done: list[str] = []
        checkpoints: list = []
    else:
        (_n, _last, cached_overall, cached_games), plays, ids, done, checkpoints = resumed
        per_game = {g: restore(t) for g, t in cached_games.items()}
        one_game = len(set(per_game) | {p.game for p in plays}) <= 1
        overall = next(iter(per_game.values())) if one_game and per_game else restore(cached_overall)

    last = None
    for play in plays:
        _rate(model, per_game.setdefault(play.game, {}), play)
        if not one_game:
            _rate(model, overall, play)
        ids.append(str(play.id))
        done.append(str(play.finished))
        last = play.key
        if cache is not None and len(ids) % CHECKPOINT == 0:
            checkpoints.append((len(ids), last, _rows(per_game[play.game] if one_game else overall),
                                {g: _rows(t) for g, t in per_game.items()}))
    if one_game and per_game:
        overall = next(iter(per_game.values()))
    if resumed is not None:
        # names are shown as they are now: a newer spelling of a name shows in every table
        for table in (overall, *per_game.values()):
            for row in table.values():
                row[0] = show(row[0])
        last = last if plays else resumed[0][1]
    if cache is not None and (plays or fingerprint):
        _save(cache, roster.aliases, ids, done, last, overall, per_game, one_game, checkpoints, fingerprint)
    return _result(overall, per_game, shown)


def _result(overall: dict, per_game: dict, shown: str | None) -> dict:
    def rows(table: dict[str, list]) -> list[dict]:
        out = [{"name": name, **_shown(rating, plays)} for name, rating, plays in table.values()]
        out.sort(key=lambda row: (-row["rating"], -row["mu"], row["name"].casefold()))
        if shown is not None:
            out = [row for row in out if row["name"].casefold() == shown.casefold()]
        return out

    return {
        "model": "openskill Plackett-Luce (mu 25, sigma 25/3); rating = mu - 3 sigma",
        "overall": rows(overall),
        "games": {g: rows(t) for g, t in sorted(per_game.items())},
    }
