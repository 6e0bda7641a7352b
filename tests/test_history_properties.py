"""Properties of `stats` on any history: head-to-head is symmetric, counts add up, streaks fit."""

from __future__ import annotations

from long_mode import scaled
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.record import stats as history
from companion.record.players import Roster

NAMES = ["Ann", "Bob", "Cy", "Dee", "ann"]


@st.composite
def histories(draw):
    entries = []
    for n in range(draw(st.integers(0, 12))):
        seated = draw(st.lists(st.sampled_from(NAMES[:4]), min_size=1, max_size=4, unique=True))
        if draw(st.booleans()) and "Ann" in seated:
            seated[seated.index("Ann")] = "ann"  # the same player, spelt differently
        finished = draw(st.booleans())
        scores = {p: draw(st.integers(-5, 20)) for p in seated}
        lowest = draw(st.booleans())
        winners = history.ranks(seated, scores, [], lowest)
        winners = [p for p, r in winners.items() if r == 1]
        day = f"2026-01-{n + 1:02d}"
        entries.append({
            "id": f"h{n:07d}", "game": draw(st.sampled_from(["scoresheet", "trans-europa"])), "players": seated,
            "created": f"{day}T10:00:00+00:00", "finished": f"{day}T11:00:00+00:00" if finished else None,
            "summary": {"finished_at": f"{day}T11:00:00+00:00", "round": 3, "scores": scores, "winners": winners}
            if finished else None,
        })
    return entries


@settings(max_examples=scaled(40, 150), deadline=None)  # all 150 in the long run
@given(histories())
def test_stats_invariants(entries):
    s = history.compute(entries, Roster({}, entries))
    finished = [e for e in entries if e["finished"]]
    assert s["sessions"] == len(finished)
    assert len(s["unfinished"]) == len(entries) - len(finished)
    seats = sum(len(e["players"]) for e in finished)
    assert sum(p["sessions"] for p in s["players"]) == seats
    assert sum(p["wins"] for p in s["players"]) == sum(len(e["summary"]["winners"]) for e in finished)
    for p in s["players"]:
        assert 0 <= p["wins"] <= p["sessions"] and 0 <= p["win_rate"] <= 1
        assert 0 <= p["current_streak"] <= p["longest_streak"] <= p["wins"]
        assert sum(g["sessions"] for g in p["games"].values()) == p["sessions"]
        assert len(p["recent"]) == min(p["sessions"], history.RECENT)
    h = s["head_to_head"]
    for a, row in h.items():
        for b, cell in row.items():
            mirror = h[b][a]
            assert (cell["wins"], cell["losses"], cell["draws"]) == (mirror["losses"], mirror["wins"], mirror["draws"])
    assert sum(g["sessions"] for g in s["games"]) == len(finished)
    assert {p["name"].casefold() for p in s["players"]} <= {"ann", "bob", "cy", "dee"}
