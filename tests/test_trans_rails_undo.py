"""Undo and redo move along the board like any other event: rails come off, markers come back,
an ended round opens again, a scored round is unscored."""

from __future__ import annotations

import re

SETUP = (
    'new trans-amerika --players Ann,Bob,Cy,Dee --entropy "x"\n'
    "round start --physical\n"
    'hand Ann --set "San Diego,Dallas,St. Louis,Cincinnati,Washington"\n'
    'hand Bob --set "Los Angeles,Chicago,Oklahoma City,Memphis,New York"\n'
    'hand Cy --set "Portland,Bismarck,Santa Fe,New Orleans,Boston"\n'
    'hand Dee --set "Sacramento,Minneapolis,Omaha,El Paso,Charleston"\n'
    "start Ann San Diego\nstart Bob Los Angeles\nstart Cy Portland\nstart Dee Omaha\n"
)
ROUTE = "San Diego-D11-E11-F11-G11-H11-I11-Dallas-J10-K9-K8-St. Louis-L6-M6-Cincinnati-O6"


def test_undo_of_a_build_takes_its_rails_off(script, run, status):
    code, out, err = script(SETUP + f"build Ann {ROUTE}\n")
    assert code == 0, err
    assert status()["rails_built"] == 15
    assert run(["rails", "Ann", "--json"], expect=0).stdout.count('"rails": 2') == 1  # Washington-O6
    out = run(["undo"], expect=0).stdout
    # wrapped at 80 columns (issue 20): at spaces, or after a hyphen between junctions
    assert " ".join(re.sub(r"-\n\s+", "-", out).split()) == f"Undid: Ann built {ROUTE}."
    st = status()
    assert st["rails_built"] == 0 and st["rails"] == [] and st["rails_left"] == 85
    assert st["players"][0]["rails"] == 0 and st["turn"] is None
    assert '"rails": 19' in run(["rails", "Ann", "--json"], expect=0).stdout
    run(["redo"], expect=0)
    assert status()["rails_built"] == 15
    run(["undo"], expect=0)
    # the lines are free again: another player may build one, and the undone build is dropped
    run(["build", "Bob", "Los Angeles-San Diego-D11"], expect=0)
    assert "Nothing to redo" in run(["redo"], expect=1).stderr
    assert [r["player"] for r in status()["rails"]] == ["Bob", "Bob"]


def test_undo_reopens_an_ended_round_and_unscores_it(script, run, status):
    code, out, err = script(SETUP + f"build Ann {ROUTE}\nbuild Ann O6-Washington\nround end --auto\n")
    assert code == 0, err
    assert [p["score"] for p in status()["players"]] == [4, 0, 0, 0]
    run(["undo"], expect=0)  # the scoring
    st = status()
    assert st["round_open"] and st["round_over"] and st["connected"] == ["Ann"]
    assert [p["score"] for p in st["players"]] == [0, 0, 0, 0]
    run(["undo"], expect=0)  # the connecting rail
    st = status()
    assert not st["round_over"] and st["connected"] == [] and st["rails_built"] == 15
    run(["build", "Bob", "Los Angeles-San Diego"], expect=0)  # the round goes on
    run(["build", "Ann", "O6-Washington"], expect=0)
    assert status()["connected"] == ["Ann"]


def test_undo_of_a_marker_frees_its_junction(script, run, status):
    code, out, err = script(SETUP)
    assert code == 0, err
    run(["undo"], expect=0)
    assert status()["players"][3]["start"] is None
    run(["start", "Cy", "Omaha"], expect=1)  # Cy's marker is down already
    run(["start", "Dee", "Portland"], expect=1)  # Cy's junction
    run(["start", "Dee", "Denver"], expect=0)
    assert status()["players"][3]["start"] == "Denver"


def test_the_next_round_starts_with_an_empty_board(script, run, status):
    code, out, err = script(SETUP + f"build Ann {ROUTE}\nbuild Ann O6-Washington\nround end --auto\n")
    assert code == 0, err
    st = status()
    assert st["rails_built"] == 16  # the last round's board stays drawn until the next deal
    run(["round", "start", "--physical"], expect=0)
    st = status()
    assert st["rails_built"] == 0 and all(p["start"] is None for p in st["players"]) and st["connected"] == []
    run(["undo"], expect=0)
    assert status()["rails_built"] == 16
