"""Trans's rules in their corners (issue 29, item 5), each from seed 000's own words: the
special case when the box is empty, `round end` during a finishing turn, rails out of turn
and the 3-2-1 card's laps.

The board: Ann needs only J10-Dallas (single) and Bob, after it, only P7-Richmond (single);
Dee's 60 rails bring the box (85 rails on Trans Amerika) down to 1 before Bob's turn.
"""

from __future__ import annotations

from serve_support import moves_on, post_move, site_and_client

PLAYERS = "Ann,Bob,Cy,Dee"
HANDS = {"Ann": "San Diego,Cincinnati,St. Louis,Dallas,Washington",
         "Bob": "Los Angeles,Chicago,Kansas City,Memphis,Richmond",
         "Cy": "Seattle,Duluth,Omaha,El Paso,Boston",
         "Dee": "Portland,Helena,Denver,Houston,New York"}
MARKERS = "start Ann Washington\nstart Bob Dallas\nstart Cy San Diego\nstart Dee Denver\n"
SETUP = (f"new trans-amerika --players {PLAYERS}\nround start --physical{{card}}\n"
         + "".join(f'hand {p} --set "{h}"\n' for p, h in HANDS.items()) + MARKERS)
ANN = ("build Ann Washington-O6-Cincinnati-M6-L6-St. Louis-K8-K9-J10,Cincinnati-N5-Chicago,"
       "St. Louis-K7-Kansas City,K8-L9-Memphis,Washington-P7\n")
BOB_CY = "build Bob Dallas-I11\nbuild Cy San Diego-D11-E11-F11-G11-H11-I11,San Diego-Los Angeles\n"
DEE_FILL = ("build Dee F5-Denver,G5-Denver,E6-Denver,Denver-G6,Denver-F7,Denver-G7,E4-F5,F4-F5,E5-F5,G4-G5,"
            "G5-H5,D6-E6,E6-E7,G6-H6,G6-H7,F7-E8,F7-F8,G7-G8,E3-E4,F3-E4,D4-E4,G3-F4,Salt Lake City-E5,"
            "H3-G4,G4-H4,H5-Omaha,C6-D6,D6-D7,E7-D8,H6-I6,H6-I7,H7-H8,E8-E9,E8-Santa Fe,F8-G9,G8-H9,"
            "Helena-E3,E2-E3,D3-E3,F2-F3,C4-D4,G2-G3,C5-Salt Lake City,Bismarck-H3,H3-I3,H4-I4,Omaha-J5,"
            "B6-C6,C6-C7,D7-C8,D8-D9,I6-J6,I7-I8,H8-Oklahoma City,E9-Phoenix,E9-E10,Santa Fe-F10,G9-G10,"
            "H9-H10,D1-Helena\n")
LAST_RAIL = SETUP.format(card="") + ANN + BOB_CY + DEE_FILL + "build Ann Cincinnati-O5\n"
FINISHING = SETUP.format(card="") + ANN + BOB_CY + "build Dee Denver-F5\nbuild Ann Cincinnati-O5\n"


def flat(text: str) -> str:
    return " ".join(text.split())


def test_the_special_case_with_the_last_rail_in_the_box_ends_the_round(script, status, run):
    """Seed 000: "Special case: if, by placing your first rail, you connect the 5th city of
    another player, you may still finish your current turn before the round ends." and
    "Should you have used up all the rails, the round also ends." Bob's first rail is the
    85th: nothing is left to finish the turn with, so the round ends at once."""
    code, out, err = script(LAST_RAIL)
    assert code == 0, err
    assert status()["rails_left"] == 1
    out = flat(run(["build", "Bob", "J10-Dallas"], expect=0).stdout)
    assert "(85 on the board, 0 left in the box)" in out
    assert "The round has ended: Ann wins it. Score it with `round end --auto`." in out
    assert "may place the rest of this turn" not in out
    st = status()
    assert st["round_over"] and st["finishing"] is None and st["builder"] is None and st["rails_left"] == 0
    assert "The round is over" in run(["build", "Bob", "P7-Richmond"], expect=1).stderr
    out = flat(run(["round", "end", "--auto"], expect=0).stdout)
    assert "Ann +4 (connected), Bob +3 (1 missing)" in out


def test_the_phones_round_with_the_last_rail_in_the_box_scores_itself(script, status, run, home):
    """The same from the phones: Bob's tap on the box's last rail ends and scores the round
    (rulebook: "Should you have used up all the rails, the round also ends."); no page offers
    rails that are not there."""
    code, out, err = script(LAST_RAIL)
    assert code == 0, err
    site, client, links = site_and_client(home, status()["session"], PLAYERS.split(","))
    assert post_move(client, links["Ann"], "end-turn").status_code == 303
    assert post_move(client, links["Bob"], "build", {"path": "J10-Dallas"}).status_code == 303
    st = status()
    assert not st["round_open"] and st["history"][-1]["winners"] == ["Ann"]
    assert st["history"][-1]["missing"]["Bob"] == 1
    for p in PLAYERS.split(","):
        assert "build" not in moves_on(client.get(f"/p/{links[p]}").text)


def test_round_end_during_a_finishing_turn_is_refused_with_the_command_to_end_it(script, status, run):
    """Seed 000: "you may still finish your current turn before the round ends. Because of
    this, it can happen (very rarely) that two of you have connected your 5 cities." Bob's
    next rail (P7-Richmond) would make him a co-winner, so `round end --auto` while he still
    has a rail's worth is refused, naming `end-turn Bob`; nothing is recorded."""
    code, out, err = script(FINISHING + "build Bob J10-Dallas\n")
    assert code == 0, err
    assert status()["finishing"] == "Bob"
    err = flat(run(["round", "end", "--auto"], expect=1).stderr)
    assert err.startswith("Error: Bob is still finishing the turn in which Ann connected (1 rail's worth left; "
                          "rulebook: \"you may still finish your current turn before the round ends\")")
    assert "`build Bob ...`, or `end-turn Bob` if Bob places no more; then `round end --auto`." in err
    assert status()["round_open"] and status()["finishing"] == "Bob"
    err = flat(run(["round", "end", "--winner", "Ann", "--missing", "Bob=1", "--missing", "Cy=18",
                    "--missing", "Dee=15"], expect=1).stderr)
    assert "Bob is still finishing the turn" in err
    run(["end-turn", "Bob"], expect=0)
    assert "Ann +4 (connected), Bob +3 (1 missing)" in flat(run(["round", "end", "--auto"], expect=0).stdout)


def test_a_rail_out_of_turn_is_recorded_with_a_note_naming_whose_turn_it_is(script, status, run):
    """Seed 000: "The starting player begins, then play continues in turn." Ann starts; Cy's
    rail first would be recorded with a note naming Ann (a board typed in afterwards may be
    right); Bob after Ann's single rail is in turn (Ann placed "up to two rails"), Dee after
    Bob's single rail is not: Cy was skipped, and `status` says Bob's turn is in progress."""
    code, out, err = script(SETUP.format(card="") + "build Ann Washington-P7\n")
    assert code == 0, err
    assert "Note" not in out
    assert "Note" not in run(["build", "Bob", "Dallas-I11"], expect=0).stdout  # Ann placed 1 of 2: Bob next
    out = flat(run(["build", "Dee", "Denver-F5"], expect=0).stdout)
    assert ("Note: by the turns recorded it was Bob's turn to build, not Dee's; this is taken as Dee's turn "
            "all the same (their lap 1). If Bob built, `undo` and `build Bob ...`.") in out
    assert status()["turn"]["out_of_turn"] == "Bob"
    assert "Note" not in run(["build", "Dee", "Denver-G5"], expect=0).stdout  # the same turn goes on: said once


def test_the_3_2_1_allowance_follows_the_laps_actually_played(script, status, run):
    """Seed 000, the 3-2-1 card: "on the round's first lap you may place up to 3, on the second
    up to 2, and on the third at most 1." Cy builds before Ann, the start player: Ann's first
    turn is still her first lap, 3 rails, not 2."""
    code, out, err = script(SETUP.format(card=" --special rhythm-321"))
    assert code == 0, err
    out = flat(run(["build", "Cy", "San Diego-D11"], expect=0).stdout)
    assert "it was Ann's turn to build, not Cy's" in out
    run(["build", "Dee", "Denver-F5"], expect=0)
    out = flat(run(["build", "Ann", "Washington-P7"], expect=0).stdout)
    assert "it was Dee's turn to build, not Ann's" not in out  # Dee's turn was not spent: said as Ann's turn
    turn = status()["turn"]
    assert turn["player"] == "Ann" and turn["lap"] == 1 and turn["allowed"] == 3
    out = run(["build", "Ann", "P7-Richmond"], expect=0).stdout
    assert "Warning" not in out  # 2 of 3 rails: lap 1
    run(["build", "Bob", "Dallas-I11"], expect=0)
    run(["build", "Cy", "D11-E11"], expect=0)
    assert status()["turn"]["lap"] == 2 and status()["turn"]["allowed"] == 2


def test_a_session_started_before_keeps_counting_laps_by_the_seats(script, status, run, home):
    """A session recorded before issue 29 (no ``laps`` in its options) replays as it was played:
    its laps are the seats wrapping past the start player, so nothing it recorded changes."""
    from companion.core.store import Store

    code, out, err = script(SETUP.format(card=" --special rhythm-321"))
    assert code == 0, err
    path = Store(home).root / "sessions" / f"{status()['session']}.json"
    text = path.read_text()
    assert ',"laps":"played"' in text
    path.write_text(text.replace(',"laps":"played"', ""))
    run(["build", "Cy", "San Diego-D11"], expect=0)
    run(["build", "Dee", "Denver-F5"], expect=0)
    run(["build", "Ann", "Washington-P7"], expect=0)
    assert status()["turn"]["lap"] == 2 and status()["turn"]["allowed"] == 2
