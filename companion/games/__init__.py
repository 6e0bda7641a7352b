"""The games the companion knows, loaded only when needed (start-up stays fast)."""

from __future__ import annotations

import importlib
import importlib.util

from companion.errors import CompanionError

# game id -> "module:class". The order is the order `games` lists them in.
GAMES: dict[str, str] = {
    "trans-europa": "companion.games.trans:TransEuropa",
    "trans-amerika": "companion.games.trans:TransAmerika",
    "transatlantic": "companion.games.transatlantic:Transatlantic",
    "atlantic-star": "companion.games.atlantic_star:AtlanticStar",
    "scoresheet": "companion.games.scoresheet:ScoreSheet",
}

_cache: dict = {}


def available() -> list[str]:
    """Game ids whose rules module is present in this installation."""
    out = []
    for gid, target in GAMES.items():
        module = target.split(":")[0]
        if importlib.util.find_spec(module) is not None:
            out.append(gid)
    return out


def get(game_id: str):
    """The rules object of ``game_id``, or a refusal listing the games."""
    if game_id not in _cache:
        target = GAMES.get(game_id)
        if target is None or game_id not in available():
            raise CompanionError(f"There is no game {game_id!r}: the games are {', '.join(available())}.")
        module, cls = target.split(":")
        _cache[game_id] = getattr(importlib.import_module(module), cls)()
    return _cache[game_id]
