"""One table row per player per session, as the csv and BoardGameGeek exports write them: a
session of the history read into a :class:`Play` (finished ones from the index, the others
replayed for their scores so far), and the BoardGameGeek id of its game."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.contract.language import _
from companion.contract.errors import CompanionError
from companion.core.store import Store
from companion.record import stats as history
from companion.record.players import Roster


@dataclass
class Play:
    id: str
    game: str  # the history's key: a game id, or a score sheet's title
    created: str
    seats: list[str]
    scores: dict[str, Any]
    winners: list[str]
    ranks: dict[str, int]
    finished: bool
    minutes: int | None
    date: str = ""  # the calendar date it was played
    location: str = ""
    abandoned: str | None = None  # the reason ("" for none) when abandoned
    notes: tuple[str, ...] = ()
    # issue 23
    title: str = ""
    bgg_id: int | None = None
    teams: list[list[str]] | None = None
    roles: dict[str, str] = field(default_factory=dict)
    start: str | None = None
    coop: bool = False
    won: bool | None = None
    tie_break: str = ""

    def team_of(self, name: str) -> str:
        return next(("+".join(t) for t in self.teams or () if name in t), "")

    @property
    def number(self) -> int:
        """The play's id in BoardGameGeek's play XML: the session id read as a number in base
        36, so every play has its own id, the same at every export."""
        return int(self.id, 36)


class BggIds:
    """The BoardGameGeek id of each game of a history, looked up once per game: a title's
    remembered one (`--bgg-id`), else the game's pack with the players' own (`data set GAME
    bgg_id N`)."""

    def __init__(self, store: Store):
        self.store = store
        self._by_game: dict[str, int | None] = {}
        self._titles = None

    def of(self, game: str, title: str | None = None) -> int | None:
        if title:
            if self._titles is None:
                from companion.core import titles

                self._titles = titles.load(self.store)
            from companion.contract.text import name_key

            found = (self._titles.get(name_key(title)) or {}).get("bgg_id")
            return found if isinstance(found, int) else None
        if game not in self._by_game:
            self._by_game[game] = pack_bgg_id(self.store, game)
        return self._by_game[game]


def pack_bgg_id(store: Store, game: str) -> int | None:
    from companion.core import datapack

    try:
        if not datapack.has_pack(game):
            return None
        found = datapack.merged(game, store.user_values(game)).get("bgg_id")
    except CompanionError:
        return None
    return found if isinstance(found, int) and not isinstance(found, bool) and found > 0 else None


def bgg_id_of(store: Store, meta: dict) -> int | None:
    """The BoardGameGeek id of a session's game (its description: ``game`` and ``options``)."""
    title = (meta.get("options") or {}).get("title") or meta.get("title")
    return BggIds(store).of(meta["game"], title if isinstance(title, str) else None)


def notes_of(done: list[dict]) -> tuple[str, ...]:
    """The texts of the notes among a session's effective events."""
    return tuple(str(e["event"].get("text", "")) for e in done if e["event"].get("type") == "note")


def plays(store: Store, entries: list[dict], roster: Roster) -> list[Play]:
    """Finished sessions from the index (their files read for the notes only); sessions in
    play or abandoned are replayed for their scores so far."""
    from companion.core import session as sessions
    from companion.core.plugins import skipping

    out = []
    ids = BggIds(store)
    for e in entries:
        key = history.game_key(e)
        extra = {"date": history.played_date(e), "location": str(e.get("location") or ""),
                 "title": history.title(key), "bgg_id": ids.of(e["game"], e.get("title"))}
        if history.finished(e):
            r = history.Result(e, roster)
            s = sessions.load(store, e["id"])
            done, _rest = s.fold()
            options = s.meta.get("options") or {}
            start = options.get("start") if isinstance(options.get("start"), str) else None
            summary = e.get("summary") or {}
            scores = {p: None for p in r.scores} if history.no_points_entered(summary) else r.scores
            out.append(Play(r.id, r.game, e["created"], r.seats, scores, r.winners, r.ranks, True,
                            None if r.minutes is None else round(r.minutes), notes=notes_of(done), teams=r.teams,
                            roles={roster.show(p): v for p, v in (s.meta.get("roles") or {}).items()},
                            start=roster.show(start) if start else (r.seats[0] if r.seats else None),
                            coop=r.coop, won=r.won, tie_break=str(summary.get("tie_break") or ""), **extra))
            continue
        def read(sid=e["id"]):
            from companion.contract.exit import Exit

            s = sessions.load(store, sid)
            replay = s.replay()
            return s, replay, Exit(s, replay).status  # a game in play: the table's scores only

        try:  # a plugin's rules that raise skip their session alone, named (issue 22)
            ok, found = skipping(store, e["id"], read)
        except CompanionError as exc:  # one damaged session does not stop the others (issue 12)
            store.notes.append(_("Skipped: {message}").format(message=exc.message))  # the same line `sessions` gives: said once
            continue
        if not ok:
            continue
        s, replay, status = found
        seats = [roster.show(p["name"]) for p in status.get("players", [])]
        scores = {roster.show(p["name"]): None if history.no_points_entered(status) else p.get("score")
                  for p in status.get("players", [])}
        start = history.parse_time(e["created"])
        last = history.parse_time(replay.events[-1].get("at")) if replay.events else None
        minutes = round((last - start).total_seconds() / 60) if start and last and last >= start else 0
        gone = replay.abandoned
        options = s.meta.get("options") or {}
        start = options.get("start") if isinstance(options.get("start"), str) else None
        teams = status.get("teams")
        out.append(Play(e["id"], key, e["created"], seats, scores, [], {}, False, minutes,
                        abandoned=(gone.get("reason") or "") if gone else None, notes=notes_of(replay.events),
                        teams=[[roster.show(p) for p in t] for t in teams] if teams else None,
                        roles={roster.show(p): v for p, v in (s.meta.get("roles") or {}).items()},
                        start=roster.show(start) if start else (seats[0] if seats else None),
                        coop=bool(status.get("coop")), **extra))
    return out
