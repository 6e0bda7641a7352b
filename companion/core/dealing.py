"""Verifiable shuffling and dealing.

Every session that deals has a 256-bit secret seed from :mod:`secrets`. At `new` the players
see its SHA-256 commitment; the words they add (``--entropy``) are mixed in, so nobody alone
chooses the cards. Each shuffle is a Fisher-Yates driven by an HMAC-SHA256 byte stream keyed by
the seed, with the entropy and a context (session, round, deck) as the message, and rejection
sampling so that every index is exactly uniform. ``random.shuffle`` is not used: its output may
change between Python versions, and then old deals could no longer be verified.

When the game is over, `verify` reveals the seed and re-derives every recorded deal: anyone can
check that the seed matches the commitment shown at the start and that no deal was changed.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any, Iterator, Sequence, TypeVar

from companion.contract.api import deals_in  # noqa: F401  (read here too, by `verify`)

T = TypeVar("T")


def new_seed() -> str:
    """A fresh 256-bit secret seed, as 64 hex digits."""
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    """SHA-256 of the seed's bytes: shown at the start, checked at the end."""
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def _message(entropy: str, context: str) -> bytes:
    # Length-prefixed so that ("ab", "c") and ("a", "bc") can never give the same stream.
    e = entropy.encode("utf-8")
    c = context.encode("utf-8")
    return len(e).to_bytes(4, "big") + e + len(c).to_bytes(4, "big") + c


def stream(seed: str, entropy: str, context: str) -> Iterator[int]:
    """An endless stream of bytes: HMAC-SHA256(seed, message || counter) block after block."""
    key = bytes.fromhex(seed)
    base = _message(entropy, context)
    counter = 0
    while True:
        block = hmac.new(key, base + counter.to_bytes(8, "big"), hashlib.sha256).digest()
        yield from block
        counter += 1


def _below(source: Iterator[int], n: int) -> int:
    """A uniform integer in [0, n) by rejection sampling over 64-bit draws."""
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        value = int.from_bytes(bytes(next(source) for _ in range(8)), "big")
        if value < limit:
            return value % n


def shuffle(items: Sequence[T], seed: str, entropy: str, context: str) -> list[T]:
    """A new list: ``items`` in the order the seed, entropy and context decide (Fisher-Yates)."""
    out = list(items)
    source = stream(seed, entropy, context)
    for i in range(len(out) - 1, 0, -1):
        j = _below(source, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def context(session: str, round_no: Any, deck: str) -> str:
    """The context string of one shuffle: which session, which round, which deck."""
    return f"{session}/{round_no}/{deck}"


def record(deck: Sequence[Any], seed: str, entropy: str, ctx: str) -> dict:
    """Shuffle ``deck`` and describe the deal as an event carries it, so `verify` can redo it."""
    return {"context": ctx, "deck": list(deck), "order": shuffle(deck, seed, entropy, ctx)}


def check(deal: dict, seed: str, entropy: str) -> bool:
    """Whether a recorded deal is exactly what the seed gives for its deck and context."""
    return shuffle(deal["deck"], seed, entropy, deal["context"]) == deal["order"]


