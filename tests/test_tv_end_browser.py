"""The TV's end fits one screen (issue 31, item 6): on a real Chromium at 1920x1080, the winner
and every row of the scores and of the final breakdown are on the first screen, without
scrolling (a TV cannot scroll); what no longer matters (an empty market, the agency) is gone."""

from __future__ import annotations

import json

import pytest

import browser_support as b
from serve_support import TEST_SHIPS


def tv_sees_it_all(home, players) -> tuple[str, list]:
    """(the table page's text, [what is below the first screen]) at 1920x1080."""
    proc, links = b.serve(home, players)
    web = b.chrome(1920, 1080)
    try:
        web.get(links["table"])
        b.drawn(web)
        below = web.execute_script(
            "var h = window.innerHeight, out = [];"
            "document.querySelectorAll('.winner, section.scores tr, section.final tr, section.wide table tr')"
            ".forEach(function(e){ var r = e.getBoundingClientRect();"
            " if (r.bottom > h || r.top < 0) out.push(e.innerText.slice(0, 60) + ' @' + Math.round(r.bottom)); });"
            "return out;")
        text = b.body_text(web)
        return text, below
    finally:
        b.quit_chrome(web)
        b.stop(proc)


def transatlantic_to_its_end(run) -> None:
    """Four players, each with a sailing ship and two steamships, to the final sheets (the
    cards and surcharges are TEST values, typed as a group would type theirs)."""
    extra = [["BRITANNIC", "--year", "1874", "--flag", "white", "--price", "60"],
             ["ELBE", "--year", "1881", "--flag", "blue", "--price", "80"],
             ["THERMOPYLAE", "--year", "1868", "--flag", "none", "--kind", "sail"],
             ["HQ RED", "--year", "1890", "--flag", "red", "--price", "60", "--kind", "hq"]]
    for ship in [*TEST_SHIPS, *extra]:
        run(["ship", "add", *ship], expect=0)
    run(["data", "set", "transatlantic", "market.surcharges", "[0, 10, 20, 30, 40, 50]"], expect=0)
    run(["new", "transatlantic", "--players", "Ann,Bob,Cy,Dee"], expect=0)
    for p, ship in zip(["Ann", "Bob", "Cy", "Dee"], ["ARIEL", "SIRIUS", "FLYING CLOUD", "THERMOPYLAE"]):
        run(["own", p, ship], expect=0)
    stack = ["NUBIAN", "HAMMONIA", "DEVONIA", "GERMANIC", "UMBRIA", "ABYSSINIA", "BRITANNIC", "ELBE"]
    run(["reveal", *stack[:4]], expect=0)
    stack = stack[4:]
    status = lambda: json.loads(run(["status", "--json"], expect=0).stdout)  # noqa: E731
    for _ in range(4):
        due = status().get("opening_due")
        if not due:
            break
        market = [m["ship"] for m in json.loads(run(["market", "--json"], expect=0).stdout) if m["ship"]]
        if not market:
            run(["reveal", stack.pop(0)], expect=0)
            market = [m["ship"] for m in json.loads(run(["market", "--json"], expect=0).stdout) if m["ship"]]
        run(["buy", due, market[0]], expect=0)
    run(["reveal", "HQ RED"], expect=0)
    for _ in range(12):
        end = status()["end"]
        if end and end.get("turns_left") == 0:
            break
        run(["next"], expect=0)
    for p, sheet in zip(["Ann", "Bob", "Cy", "Dee"], ["white=3,red=2,blue=1", "blue=7,white=2,red=1",
                                                       "red=2,white=1,blue=1", "white=4,red=3,blue=1"]):
        run(["final", p, "--cash", "250", "--sheet", sheet, "--rows", "2", "--next-row", "1"], expect=0)
    assert status()["finished"]


def test_transatlantics_end_fits_a_tv(run, home):
    transatlantic_to_its_end(run)
    text, below = tv_sees_it_all(home, ["Ann", "Bob", "Cy", "Dee"])
    assert "The game is over: " in text and "The final score" in text
    assert "The market" not in text and "The docks" not in text  # what no longer matters is gone
    assert below == []


def test_atlantic_stars_end_fits_a_tv(script, home):
    from test_atlantic_star_script import FOUR_PLAYER_GAME, TEST_VP, vp_lines

    code, _out, err = script(vp_lines(TEST_VP) + FOUR_PLAYER_GAME)
    assert (code, err) == (0, "")
    text, below = tv_sees_it_all(home, ["Ann", "Bob", "Cy", "Di"])
    assert "The game is over: Ann wins." in text and "The final score, place by place" in text
    assert "The charter agency" not in text
    assert below == []


@pytest.mark.parametrize("rounds", [8])
def test_a_score_sheets_end_fits_a_tv(run, home, rounds):
    run(["new", "scoresheet", "--title", "Carcassonne", "--players", "Ann,Bob,Cy,Dee"], expect=0)
    for n in range(rounds):
        run(["add", f"Ann={n + 3}", f"Bob={2 * n}", f"Cy={n}", "Dee=4"], expect=0)
    run(["finish"], expect=0)
    text, below = tv_sees_it_all(home, ["Ann", "Bob", "Cy", "Dee"])
    assert "The game is over: Bob wins." in text
    assert below == []


SIX_PLAYER_TRANS = """\
new trans-amerika --players Ann,Bob,Cy,Dee,Eve,Fay --entropy "pizza"
round start
round end --winner Bob --missing Cy=2 --missing Ann=6 --missing Dee=3 --missing Eve=4 --missing Fay=1
round start
round end --winner Cy --missing Bob=1 --missing Ann=3 --missing Dee=3 --missing Eve=4 --missing Fay=1
round start
round end --winner Dee --missing Bob=5 --missing Ann=5 --missing Cy=3 --missing Eve=4 --missing Fay=6
round start
round end --winner Bob --missing Cy=5 --missing Ann=6 --missing Dee=3 --missing Eve=4 --missing Fay=7
round start
round end --winner Bob --missing Cy=5 --missing Ann=6 --missing Dee=3 --missing Eve=4 --missing Fay=7
"""


def test_a_six_player_trans_end_fits_a_tv_with_everyones_cities(script, home):
    """Six players, five rounds: the winner, the scores round by round and every player's last
    cities on the first screen (issue 31: the last cities were below the fold); no "next round"
    once the game is over, and the result said once, large."""
    code, _out, err = script(SIX_PLAYER_TRANS)
    assert (code, err) == (0, "")
    text, below = tv_sees_it_all(home, ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"])
    assert "The game is over: Bob wins." in text and "Everyone's cities (last round)" in text
    assert "next: round 6" not in text
    assert text.count("The game is over: Bob wins.") == 1
    assert below == []
