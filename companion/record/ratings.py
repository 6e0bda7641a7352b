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

    __slots__ = ("game", "seats", "ranks", "key", "sides")

    def __init__(self, entry: dict, show) -> None:
        summary = entry["summary"]
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


CACHE_VERSION = 1


def _digests(plays: list[Play]) -> list[str]:
    """A running fingerprint of the ordered plays: ``out[n]`` covers the first n plays."""
    import hashlib

    h = hashlib.sha256(f"ratings {CACHE_VERSION}".encode())
    out = [h.hexdigest()]
    for play in plays:
        h.update(repr((play.key, play.seats, play.ranks) if play.sides is None
                      else (play.key, play.seats, play.ranks, play.sides)).encode("utf-8"))
        out.append(h.hexdigest())
    return out


def _load_cache(path: Path | None, digests: list[str]):
    """(plays already rated, overall table, per-game tables) from the cache when its plays are
    the first of these, else (0, {}, {}). A damaged or foreign cache is ignored."""
    if path is None:
        return 0, {}, {}
    try:
        if not path.is_file() or path.stat().st_size > 64 * 1024 * 1024:
            return 0, {}, {}
        doc = json.loads(path.read_text(encoding="utf-8"))
        n = doc["n"]
        if doc["version"] != CACHE_VERSION or not isinstance(n, int) or not 0 < n < len(digests) \
                or doc["digest"] != digests[n]:
            return 0, {}, {}

        def table(rows: dict) -> dict[str, list]:
            return {k: [str(name), float(mu), float(sigma), int(plays)] for k, (name, mu, sigma, plays) in rows.items()}

        return n, table(doc["overall"]), {g: table(t) for g, t in doc["games"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return 0, {}, {}


def _save_cache(path: Path | None, n: int, digest: str, overall: dict, per_game: dict,
                fingerprint: str | None = None, one_game: bool = False) -> None:
    """Keep the state after ``n`` plays, so the next `stats --ratings` rates only newer plays
    (best effort: a read-only folder just means no cache)."""
    if path is None or n == 0:
        return
    import contextlib

    from companion.core.store import atomic_write_text

    def table(rows: dict) -> dict:
        return {k: [name, rating.mu, rating.sigma, plays] for k, (name, rating, plays) in rows.items()}

    doc = {"version": CACHE_VERSION, "n": n, "digest": digest, "overall": table(overall),
           "games": {g: table(t) for g, t in per_game.items()}, "one_game": one_game}
    if fingerprint:  # every play of this very history is in the tables
        doc.update(fingerprint=fingerprint, complete=True)
    with contextlib.suppress(Exception):
        atomic_write_text(path, json.dumps(doc, separators=(",", ":")))


def _load_settled(path: Path | None, fingerprint: str | None):
    """(overall, per-game tables, one game?) of the cache when it was saved from exactly this
    history (``fingerprint``: the index's and the aliases' signatures), else None."""
    if path is None or not fingerprint:
        return None
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        if doc.get("version") != CACHE_VERSION or doc.get("fingerprint") != fingerprint or not doc.get("complete"):
            return None

        def table(rows: dict) -> dict[str, list]:
            return {k: [str(name), float(mu), float(sigma), int(plays)] for k, (name, mu, sigma, plays) in rows.items()}

        return table(doc["overall"]), {g: table(t) for g, t in doc["games"].items()}, bool(doc.get("one_game"))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def compute(entries: list[dict], roster: Roster, game: str | None = None, player: str | None = None,
            since: str | None = None, cache: Path | None = None, fingerprint: str | None = None) -> dict:
    """{"model", "overall": [rows], "games": {game: [rows]}}; rows sorted best first.

    A row: name, rating (mu - 3 sigma), mu, sigma, plays. ``player`` keeps that player's rows.
    ``cache`` (a file in the data folder's cache) keeps the ratings after all the plays, used
    only for the whole record (no --game or --since): when the plays rated then are still the
    first ones in order, only the newer plays are rated. Floats are stored exactly, so the
    numbers are the same as rating everything again.
    """
    from openskill.models.weng_lin.plackett_luce import PlackettLuce

    game = history.check_game(game, entries)
    since = history.parse_since(since)
    shown = roster.find(player, history.shown_players(entries, roster).values()) if player is not None else None
    model = PlackettLuce()

    def restore(rows: dict[str, list]) -> dict[str, list]:
        return {k: [name, model.rating(mu=mu, sigma=sigma), n] for k, (name, mu, sigma, n) in rows.items()}

    # issue 23: a history unchanged since the cache was saved (the same index and aliases) is
    # not even read into plays again: at 50,000 plays that alone took a second
    settled = _load_settled(cache, fingerprint) if since is None else None
    if settled is not None:
        cached_overall, cached_games, one = settled
        if game is not None:
            cached_games = {game: cached_games[game]} if game in cached_games else {}
            cached_overall = next(iter(cached_games.values()), {})
        elif one and cached_games:
            cached_overall = next(iter(cached_games.values()))
        return _result(restore(cached_overall), {g: restore(t) for g, t in cached_games.items()}, shown)
    chosen = history.select(entries, roster, game, None, since)
    plays = ordered_plays(chosen, roster)
    one_game = len({p.game for p in plays}) <= 1  # then "all games" is that game's table: rate once
    if game is not None or since is not None:
        cache = None
    digests = _digests(plays) if cache is not None else []
    start, cached_overall, cached_games = _load_cache(cache, digests)

    overall = restore(cached_overall)
    per_game = {g: restore(t) for g, t in cached_games.items()}

    def rate(table: dict[str, list], play: Play) -> None:
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

    for play in plays[start:]:
        rate(per_game.setdefault(play.game, {}), play)
        if not one_game:
            rate(overall, play)
    if one_game and per_game:
        overall = next(iter(per_game.values()))
    if cache is not None and (len(plays) > start or fingerprint):
        _save_cache(cache, len(plays), digests[-1], overall, per_game, fingerprint, one_game)
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


def render(ratings: dict) -> str:
    """`stats --ratings` in the terminal: overall, then one table per game."""
    from companion.terminal.render import table

    def block(rows: list[dict]) -> str:
        return table(["player", "rating", "skill ± uncertainty", "plays"],
                     [[r["name"], f"{r['rating']:.1f}", f"{r['mu']:.1f} ± {r['sigma']:.1f}", r["plays"]] for r in rows],
                     right=(1, 3))

    if not ratings["overall"]:
        return "No finished plays of two or more players to rate yet."
    out = ["Ratings (openskill): rating = skill − 3 × uncertainty, a cautious estimate; "
           "each player starts at 25 ± 8.3 (rating 0).", "", "All games:", block(ratings["overall"])]
    for gid, rows in ratings["games"].items():
        out += ["", f"{history.title(gid)}:", block(rows)]
    return "\n".join(out)
