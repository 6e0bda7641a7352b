"""A Trans round played on the recorded board, in script mode: start markers, rails, the
automatic end of the round (one winner, two winners, rails run out) and `round end --auto`.

Everything runs on the real Trans Amerika board. The hands are set at the table (physical
rounds), so the test knows them; the routes are the exact ones the solver finds (the known
19-rail hand is Ann's).
"""

from __future__ import annotations

import json

HANDS = {
    "Ann": "San Diego,Dallas,St. Louis,Cincinnati,Washington",
    "Bob": "Los Angeles,Chicago,Oklahoma City,Memphis,New York",
    "Cy": "Portland,Bismarck,Santa Fe,New Orleans,Boston",
    "Dee": "Sacramento,Minneapolis,Omaha,El Paso,Charleston",
}
MARKERS = {"Ann": "San Diego", "Bob": "Los Angeles", "Cy": "Portland", "Dee": "Omaha"}
# Ann's optimal 19-rail route without its last line (Washington-O6, a double line)
ANN_ROUTE = "San Diego-D11-E11-F11-G11-H11-I11-Dallas-J10-K9-K8-St. Louis-L6-M6-Cincinnati-O6"
# Bob joins Ann's network and reaches all his cities but Memphis, stopping one line short of it
BOB_ROUTE = "Los Angeles-San Diego, L6-M5-Chicago, O6-P5-New York, K9-J9-Oklahoma City, K9-K10-L11"


def setup(special: str | None = None) -> str:
    card = f" --special {special}" if special else ""
    lines = ['new trans-amerika --players Ann,Bob,Cy,Dee --entropy "our words"',
             f"round start --physical{card}"]
    lines += [f'hand {p} --set "{h}"' for p, h in HANDS.items()]
    lines += [f"start {p} {j}" for p, j in MARKERS.items()]
    lines += [f"build Ann {ANN_ROUTE}", f"build Bob {BOB_ROUTE}", "build Cy Portland-B3", "build Dee Omaha-J5"]
    return "\n".join(lines) + "\n"


def rails_json(run, *args) -> dict:
    return json.loads(run(["rails", *args, "--json"], expect=0).stdout)


def recorded_rails(status: dict) -> list[str]:
    return [r["line"] for r in status["rails"]]


def test_two_winners_when_the_first_rail_of_a_turn_connects_someone_else(script, status, run):
    """The rulebook's special case: Ann's first rail joins Bob's last city, she may finish her turn."""
    code, out, err = script(setup("three-rails") + "build Ann L11-Memphis,O6-Washington\n")
    assert code == 0, err
    out = out.replace("\n  ", " ")  # wrapped to 80 columns
    assert "Ann built 2 rails: L11-Memphis, O6-Washington (28 on the board, 57 left in the box)." in out
    assert "Bob and Ann have connected their cities." in out
    assert "The round has ended: Bob and Ann both win it. Score it with `round end --auto`." in out
    # one single and one double line: exactly the 3 rails' worth the card allows, so no warning
    assert "Warning" not in out.split("Ann built 2 rails")[1]
    st = status()
    assert st["connected"] == ["Bob", "Ann"] and st["round_over"] and st["finishing"] is None
    assert [p["connected"] for p in st["players"]] == [True, True, False, False]
    built = recorded_rails(st)

    code, out, err = script("round end --auto\n")
    assert code == 0, err
    st = status()
    last = st["history"][-1]
    assert last["winners"] == ["Bob", "Ann"] and last["auto"] is True
    assert [p["score"] for p in st["players"]] == [4, 4, 0, 0]
    # the counts are the exact ones `rails MAP` finds for the same board
    for p in ("Cy", "Dee"):
        alone = rails_json(run, "amerika", "--hand", HANDS[p], "--start", MARKERS[p], "--built", ",".join(built))
        assert last["missing"][p] == alone["rails"]
    assert "Missing rails counted exactly on the recorded board, 28 rails built." in out
    assert f"Cy +0 ({last['missing']['Cy']} missing)" in out


def test_the_round_ends_at_the_rail_that_connects_someone(script, status, run):
    """Ann's *second* rail joins Bob's last city: the round ends there, Bob alone wins."""
    code, out, err = script(setup("three-rails"))
    assert code == 0, err
    before = status()["rails_built"]
    code, out, err = script("build Ann Dallas-I12,L11-Memphis,O6-Washington\n")
    assert code == 1
    assert err.strip() == ("line 1: The round ended with Memphis-L11, when Bob connected: "
                           "leave out the rails after it.")
    assert status()["rails_built"] == before  # refused whole: nothing recorded
    code, out, err = script("build Ann Dallas-I12,L11-Memphis\n")
    assert code == 0, err
    assert "Bob has connected all their cities." in out
    assert "The round has ended: Bob wins it." in out
    code, out, err = script("build Ann O6-Washington\n")
    assert err.strip() == "line 1: The round is over: Bob connected. Score it with `round end --auto`."
    assert status()["rails_built"] == before + 2
    code, out, err = script("round end --auto\n")
    assert code == 0, err
    last = status()["history"][-1]
    assert last["winners"] == ["Bob"]
    assert last["missing"]["Ann"] == 1  # Washington, one single line from Bob's rails (shared: free)
    assert last["points"] == {"Ann": 3, "Bob": 4, "Cy": 0, "Dee": 0}


def test_one_player_connects_on_their_own_turn(script, status):
    code, out, err = script(setup())
    assert code == 0, err
    code, out, err = script("build Bob K10-Memphis\n")
    assert code == 0, err
    assert "Bob has connected all their cities." in out and "Bob wins it" in out
    assert "Warning" not in out  # a new turn: one double line is the 2 rails' worth a turn allows
    code, out, err = script("round end --auto\n")
    assert code == 0, err
    last = status()["history"][-1]
    assert last["winners"] == ["Bob"] and set(last["missing"]) == {"Ann", "Cy", "Dee"}
    assert last["missing"]["Ann"] == 1  # P5-Washington: Bob's rails to New York pass one line away


def test_when_the_rails_run_out_everyone_scores_by_missing_rails(script, status, run):
    # a test box of 16 rails, not the printed 85, so that the round runs out quickly
    run(["data", "set", "trans-amerika", "rails", "16"], expect=0)
    code, out, err = script(
        'new trans-amerika --players Ann,Bob,Cy,Dee --entropy "x"\nround start --physical\n'
        + "".join(f'hand {p} --set "{h}"\n' for p, h in HANDS.items())
        + "".join(f"start {p} {j}\n" for p, j in MARKERS.items())
        + f"build Ann {ANN_ROUTE}\n"
    )
    assert code == 0, err
    assert "(15 on the board, 1 left in the box)" in out
    code, out, err = script("build Bob Los Angeles-San Diego,L6-M5\n")
    assert err.strip() == "line 1: Only 1 of the 16 rails are left in the box: build at most 1."
    code, out, err = script("build Bob Los Angeles-San Diego\n")
    assert code == 0, err
    assert "Every rail is on the board and nobody connected: the round has ended." in out
    st = status()
    assert st["rails_out"] and st["round_over"] and st["rails_left"] == 0
    assert "All 16 rails are on the board" in script("build Cy Portland-B3\n")[2]
    assert "drop --winner" in script("round end --auto --winner Ann\n")[2]
    code, out, err = script("round end --auto\n")
    assert code == 0, err
    assert out.startswith("The rails ran out. Round 1 scored: Ann +2 (2 missing)")
    last = status()["history"][-1]
    assert last["rails_out"] and last["winners"] == [] and last["missing"]["Ann"] == 2


def test_auto_needs_a_connection_or_says_who_connected(script, status):
    """A board not fully recorded: --auto refuses to guess, --winner names who connected."""
    code, out, err = script(setup())
    assert code == 0, err
    code, out, err = script("round end --auto\n")
    assert code == 1 and "Nobody's cities are connected on the recorded board yet" in err
    assert "--auto --winner NAME" in err
    code, out, err = script("round end --auto --missing Bob=3\n")
    assert code == 1 and "--auto counts the missing rails on the board: drop --missing." in err
    code, out, err = script("round end --auto --winner Cy\n")
    assert code == 0, err
    last = status()["history"][-1]
    assert last["winners"] == ["Cy"] and last["auto"]
    assert last["missing"]["Ann"] == 1 and last["missing"]["Bob"] == 1  # P5-Washington, L11-Memphis
    assert last["points"]["Ann"] == 3 and last["points"]["Bob"] == 3 and last["points"]["Cy"] == 4


def test_the_finisher_who_ends_the_turn_early_ends_the_round(script, status, run):
    """The special case, then Ann ends the turn instead of finishing it: the round is over on
    the board (nobody builds next) and `round end --auto` scores it, Bob alone winning. Before,
    the round waited for a builder nobody was."""
    code, out, err = script(setup() + "build Ann L11-Memphis\n")
    assert code == 0, err
    st = status()
    assert st["connected"] == ["Bob"] and st["finishing"] == "Ann" and not st["round_over"]
    code, out, err = script("end-turn Ann\n")
    assert code == 0, err
    assert "The round has ended: Bob wins it. Score it with `round end --auto`." in out.replace("\n  ", " ")
    st = status()
    assert st["round_over"] and st["finishing"] is None and st["turn"]["player"] == "Ann"
    assert run(["build", "Dee", "J5-J4"], expect=1).stderr.strip().startswith("Error: The round is over: Bob connected.")
    assert run(["build", "Ann", "O6-Washington"], expect=1).exit_code == 1  # her turn is over too
    code, out, err = script("round end --auto\n")
    assert code == 0, err
    assert status()["history"][-1]["winners"] == ["Bob"]


def test_the_finisher_who_spends_the_turn_without_connecting_ends_the_round(script, status):
    """The special case, then Ann's second rail does not connect her: the turn's rails' worth is
    spent, so the round is over with Bob alone connected."""
    code, out, err = script(setup() + "build Ann L11-Memphis\nbuild Ann Dallas-I12\n")
    assert code == 0, err
    assert out.replace("\n  ", " ").rstrip().endswith("The round has ended: Bob wins it. Score it with `round end --auto`.")
    st = status()
    assert st["connected"] == ["Bob"] and st["round_over"] and st["finishing"] is None
    code, out, err = script("round end --auto\n")
    assert code == 0, err
    assert status()["history"][-1]["winners"] == ["Bob"]
