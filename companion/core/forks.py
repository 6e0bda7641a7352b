"""A session two laptops continued from the same point (issue 30): how its fork is told, and
its resolution.

Why a fork stops the session: each branch holds actions someone was told were recorded. The
companion cannot know which the table meant, so it shows both on every laptop and records
nothing more until a person chooses (``companion sync resolve ID``): keep one branch (the
other's entries stay in its journal, set aside, never deleted), or play both, one after the
other, where the rules accept it (a score sheet's rounds). The choice is an entry appended to
the choosing laptop's journal (companion.core.journals), so it travels like any action and
every laptop reaches the same session.
"""

from __future__ import annotations

from companion.contract.errors import CompanionError, StoreError
from companion.contract.language import _, ngettext
from companion.core.journal import Session, load
from companion.core.journals import RESOLVE, Fork, branch_names
from companion.core.store import Store, now, plain_line


def moves_on(n: int, laptop: str) -> str:
    """"3 moves on Ann's laptop": one branch, as `status` and `sync resolve` name it."""
    return ngettext("{count} move on {laptop}", "{count} moves on {laptop}", n).format(count=n, laptop=laptop)


def describe(sid: str, fork: Fork) -> str:
    """One line naming the branches: "Session ID forked after move 4: 3 moves on Ann's laptop;
    2 moves on Bob's laptop. ..." (moves: the events the game recorded)."""
    named = branch_names(fork)
    branches = "; ".join(moves_on(b["moves"], named[b["first"]]) for b in fork.branches)
    if fork.moves:
        text = _("Session {id} forked after move {move}: {branches}. Nothing more is recorded until you choose: "
                 "`companion sync resolve {id} --keep LAPTOP` keeps one, `--both` plays them one after the other.")
    else:
        text = _("Session {id} forked at its start: {branches}. Nothing more is recorded until you choose: "
                 "`companion sync resolve {id} --keep LAPTOP` keeps one, `--both` plays them one after the other.")
    return text.format(id=sid, move=fork.moves, branches=branches)


def resolve(store: Store, sid: str, keep: str | None = None, both: bool = False) -> tuple[Session, str]:
    """Resolve session ``sid``'s fork: keep the branch of laptop ``keep`` (its name or id, or
    the first letters of its id), or ``both`` in the order they began. Refused in one line,
    changing nothing, when there is no fork, the laptop is not one of the branches', or the
    rules refuse the branches played one after the other. Returns the session after it and
    one line saying what was done."""
    from companion.core.index import before_append, session_entry

    if both and keep:
        raise CompanionError(_("Choose one: `--keep LAPTOP` or `--both`, not both. Nothing was changed."))
    with store.writing_session(sid):
        session = load(store, sid)
        fork = session.fork
        if fork is None:
            raise CompanionError(_("Session {id} has no fork: nothing to resolve (`status` shows it).").format(id=sid))
        named = branch_names(fork)
        choices = ", ".join(f"{n} = " + (f"{named[b['first']]} ({b['device']})" if named[b["first"]] == b["name"]
                                          else named[b["first"]]) for n, b in enumerate(fork.branches, 1))
        if both:
            kept = list(fork.branches)
        elif keep:
            wanted = keep.strip().casefold()
            kept = [b for b in fork.branches if b["device"] == wanted or b["name"].casefold() == wanted]
            if not kept and wanted.isdigit() and 1 <= int(wanted) <= len(fork.branches):  # as `status` lists them
                kept = [fork.branches[int(wanted) - 1]]
            if not kept:
                kept = [b for b in fork.branches if wanted and b["device"].startswith(wanted)]
            if len(kept) != 1:
                text = (_("{laptop} matches several branches: give one of {choices}. Nothing was changed.") if kept
                        else _("{laptop} is not a laptop of this fork: give one of {choices}. Nothing was changed."))
                raise CompanionError(text.format(laptop=repr(keep), choices=choices))
        else:
            raise CompanionError(_("Say which to keep: `companion sync resolve {id} --keep LAPTOP` (one of {choices}), "
                                   "or `--both`. Nothing was changed.").format(id=sid, choices=choices))
        meta, merged = store.read_merged(sid)
        played = list(merged.line)
        for branch in kept:
            played += merged.branch_entries(branch)
        try:
            Session(meta, plain_line(played)).replay()
        except StoreError as exc:
            reason = exc.message.split("(", 1)[-1].rsplit(")", 1)[0] if "(" in exc.message else exc.message
            raise CompanionError(_("The rules refuse playing these branches one after the other ({reason}): keep one "
                                   "with `--keep LAPTOP`. Nothing was changed.").format(reason=reason)) from None
        firsts = [b["first"] for b in kept]
        entry = {"kind": RESOLVE, "parent": fork.at, "keep": firsts,
                 "aside": [b["first"] for b in fork.branches if b["first"] not in firsts],
                 "tips": {b["first"]: b["tip"] for b in fork.branches}, "at": now()}
        before_append(store, sid)  # its entry loses the fork: the index first (companion.core.index)
        store.append(sid, entry)
        after = load(store, sid)
        with store.writing():
            store.index_put_or_note(session_entry(after, after.replay()), sid)
    played_ = "; ".join(moves_on(b["moves"], named[b["first"]]) for b in kept)
    if both:
        said = _("Played one after the other: {branches}. Session {id} goes on from there on every laptop once "
                 "they sync.").format(branches=played_, id=sid)
    else:
        aside = [b for b in fork.branches if b not in kept]
        said = _("Kept {kept}. Session {id} goes on from there on every laptop once they sync.").format(
            kept=played_, id=sid) if not aside else _("Kept {kept}; set aside (kept in the journal, not played): {aside}. Session {id} goes on from there "
                 "on every laptop once they sync.").format(
            kept=played_, aside="; ".join(moves_on(b["moves"], named[b["first"]]) for b in aside), id=sid)
    return after, said
