"""The BoardGameGeek export: the play-log XML of BoardGameGeek's plays, one <play> per session."""

from __future__ import annotations

from typing import Iterable
from xml.etree import ElementTree as ET

from companion.core.store import Store
from companion.record import stats as history
from companion.record.players import Roster
from companion.record.plays import plays

BGG_TERMS = "https://boardgamegeek.com/xmlapi/termsofuse"


def first_plays(everyone: Iterable[dict], roster: Roster) -> set[tuple[str, str]]:
    """(session id, player key) of each player's first play of each game in the whole history
    (BoardGameGeek's ``new``, issue 29): in the order the plays were played, abandoned games
    not counted, a player renamed or merged counted as the one player they are now."""
    seen: set[tuple[str, str]] = set()
    out: set[tuple[str, str]] = set()
    for e in sorted((e for e in everyone if not history.abandoned(e)),
                    key=lambda e: (history.when(e), str(e.get("created") or ""), e["id"])):
        game = history.game_key(e).casefold()
        for name in e.get("players") or ():
            key = roster.key(name)
            if (key, game) not in seen:
                seen.add((key, game))
                out.add((e["id"], key))
    return out


def export_bgg(store: Store, entries: list[dict], roster: Roster, everyone: list[dict] | None = None) -> str:
    """The play-log XML of BoardGameGeek's plays (one <play> per session).

    Every play has its own id, the same at every export (the session id read in base 36);
    ``objectid`` is the game's BoardGameGeek id where it is known (the built-in games' packs, a
    title's `--bgg-id`, `data set GAME bgg_id N`), else 0, and ``item name`` is the game's
    title; the session id goes in ``<comments>``; a session in play is ``incomplete="1"``.
    Dates are local calendar dates, lengths whole minutes; a player's ``color`` is their
    colour or role (`--roles`); ``new`` is 1 for a player's first play of that game in the
    whole history (``everyone``: the index; the entries exported when not given).
    """
    chosen = plays(store, entries, roster)
    firsts = first_plays(entries if everyone is None else everyone, roster)
    root = ET.Element("plays", {"username": "", "userid": "0", "total": str(len(chosen)), "page": "1",
                                "termsofuse": BGG_TERMS})
    for play in chosen:
        node = ET.SubElement(root, "play", {
            "id": str(play.number), "date": play.date, "quantity": "1", "length": str(play.minutes or 0),
            "incomplete": "0" if play.finished else "1", "nowinstats": "0", "location": play.location,
        })
        item = ET.SubElement(node, "item", {"name": play.title or history.title(play.game), "objecttype": "thing",
                                            "objectid": str(play.bgg_id or 0)})
        ET.SubElement(ET.SubElement(item, "subtypes"), "subtype", {"value": "boardgame"})
        comments = [f"Tabletop Companion session {play.id} ({play.game})"]
        if play.teams:
            comments.append("teams: " + ", ".join("+".join(t) for t in play.teams))
        if play.coop and play.finished:
            comments.append("co-operative: " + ("won together" if play.won else "lost together"))
        if play.tie_break:
            comments.append(f"tie settled by {play.tie_break}")
        if play.abandoned is not None:
            comments.append("abandoned" + (f": {play.abandoned}" if play.abandoned else ", no result"))
        comments += list(play.notes)
        ET.SubElement(node, "comments").text = "\n".join(comments)
        players = ET.SubElement(node, "players")
        for seat, name in enumerate(play.seats, 1):
            score = play.scores.get(name)
            ET.SubElement(players, "player", {
                "username": "", "userid": "0", "name": name, "startposition": str(seat),
                "color": play.roles.get(name, ""),
                "score": "" if score is None else str(score),
                "new": "1" if (play.id, name.casefold()) in firsts else "0", "rating": "0",
                "win": "1" if play.finished and name in play.winners else "0",
            })
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
