"""A twin dealt one card differently: the secret of one or two players changes, no one else's.

Another deal seed changes every hand at once, so no player's view stays the same and only the
table's surfaces can be compared. To compare the other players' pages too, the twin is given
the same deal as its run with two cards of one recorded deal swapped (``order``: the shuffled
deck the event carries), chosen so that the table's view stays the same and at least one
player's view changes while at least one other player's does not. Replay accepts the swap (a
deal is checked by its context; only `verify` re-derives it from the seed, and the twin is
never verified).
"""

from __future__ import annotations

import copy
import json
import random

TRIES = 24  # swaps tried per deal before the twin keeps the run's deal


def _views(game, state, players) -> dict:
    return {who: json.dumps(game.view(state, who), sort_keys=True, default=str) for who in [None, *players]}


def swapped_journal(session, rng: random.Random, target: str | None = None) -> list[dict] | None:
    """The session's journal with two cards of the last recorded deal swapped (see the module's
    docstring), changing ``target``'s view (when given) and as few others as it can, or None
    when no such swap is found."""
    from companion.contract.api import deals_in
    from companion.core import session as sessions

    journal = list(session.journal)
    done, _undone = session.fold()
    dealt = next((e for e in reversed(done) if any(True for _ in deals_in(e.get("event")))), None)
    if dealt is None:
        return None
    at = next(n for n, e in enumerate(journal) if e is dealt)
    players = list(session.players)
    game = session.game
    here = _views(game, session.replay().state, players)
    deals = list(deals_in(dealt["event"]))
    fallback = None
    for _try in range(TRIES):
        k = rng.randrange(len(deals))
        order = deals[k]["order"]
        if len(order) < 2:
            continue
        i, j = rng.sample(range(len(order)), 2)
        entry = copy.deepcopy(dealt)
        changed = list(deals_in(entry["event"]))[k]["order"]
        changed[i], changed[j] = changed[j], changed[i]
        trial = journal[:at] + [entry] + journal[at + 1:]
        try:
            state = sessions.Session(session.meta, trial).replay().state
        except Exception:  # noqa: BLE001 - a swap the rules refuse: try another
            continue
        there = _views(game, state, players)
        differ = [p for p in players if here[p] != there[p]]
        if here[None] != there[None] or not differ or (len(differ) == len(players) and len(players) > 2):
            continue
        if target is None or differ == [target]:
            return trial
        if target in differ and fallback is None:
            fallback = trial
    return fallback


def rewrite(store, sid: str, journal: list[dict]) -> None:
    """Write the session's file again with ``journal`` (its description unchanged)."""
    from companion.core.store import atomic_write_text, dumps_compact

    from companion.core.store import plain_line

    path = store.session_path(sid)
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["journal"] = {str(n): entry for n, entry in enumerate(plain_line(journal), 1)}
    atomic_write_text(path, dumps_compact(doc))
    # the twin's journals of it (issue 30) are what the file now holds whole: a scratch copy
    for other in store.journal_paths(sid):
        other.unlink()
    store.forget_listing()
