"""A session: a game, its options and players, the printed values it froze, and an event log.

The state is never stored: it is the replay of the log through the game's pure rules. The
journal on disk is append-only (``do``, ``undo``, ``redo`` and ``reveal`` entries), so nothing
recorded is ever lost; the *effective* event list is the fold of that journal, which is what
undo and redo move along. A new action after an undo drops the undone events from the effective
list (they stay in the journal).

This module gathers the names of the five that do the work, so that `sessions.record`,
`sessions.load` and the rest read as before: seating (a new session's players), framework (one
event folded), journal (a session and its replay), recording (writes under the lock) and index
(the summaries `sessions` and `stats` read).
"""

# One bound for every number on every way in (LARGEST stays importable from here).
from companion.contract.numbers import LARGEST, check_numbers  # noqa: F401
from companion.core.framework import (  # noqa: F401
    GENERIC_EVENTS, NOTE_MAX, PLAYED_KEYS, TIE_BREAK_MAX, _apply_generic, apply_event, check_played,
    context_finished, describe_event, is_points, new_context,
)
from companion.core.journal import (  # noqa: F401
    Later, Replay, SNAPSHOT_EVERY, SNAPSHOT_FORMAT, Session, check_deal_contexts, load, rules_version,
    snapshot_fits, with_frozen, with_pairs,
)
from companion.core.recording import (  # noqa: F401
    MakeEvent, Recorded, _deals, _extended, _record, create, fresh, record, reveal, step, supplied_value,
)

# A new session's players and the index are read only by the commands that make or list
# sessions: their names are found here when first asked for (a `status` imports neither).
_SEATING = ("ID_ALPHABET", "ID_LENGTH", "LOCATION_MAX", "NAME_BAD_STARTS", "NAME_MAX", "check_players", "clock",
            "new_id", "parse_location", "parse_played_on", "seat_from")
_INDEX = ("INDEX_STAMP_VERSION", "QUIET_NS", "SUMMARY_KEYS", "_checked_index", "_entry_of", "_index_stamp",
          "_read_index_stamp", "_sync_index", "_write_index_stamp", "ended", "heal_index", "index", "index_summary",
          "minutes_between", "rebuild_index")


def __getattr__(name: str):
    if name in _SEATING:
        from companion.core import seating as module
    elif name in _INDEX:
        from companion.core import index as module
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = globals()[name] = getattr(module, name)
    return value
