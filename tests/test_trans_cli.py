"""Trans commands through the command line: new, round start/end, hand, pass, status, verify."""

from __future__ import annotations

import json

import pytest

from companion.core.app import App
from companion.terminal.cli import run_line
from companion.core.session import load
from companion.core.store import Store

AMERIKA_DASHED = {
    "Buffalo", "Duluth", "San Diego", "Seattle", "Boston", "Richmond", "Atlanta", "Houston",
    "Denver", "Kansas City",
}
# A test edition's answers to the values nobody knows (made up here, never shipped).
TEST_VALUES = [
    ("colour_aliases.brown", '"red"'), ("colour_aliases.white", '"blue"'),
    ("colour_aliases.pink", '"green"'), ("colour_aliases.turquoise", '"yellow"'),
    ("colour_aliases.orange", '"orange"'),  # never assumed to be the board's orange (issue 15)
]


@pytest.fixture
def game(run):
    def _game(players="Ann,Bob,Cy,Dee", map_="trans-amerika", *extra):
        result = run(["new", map_, "--players", players, "--entropy", "our words", *extra], expect=0)
        return result.stdout
    return _game


def state(home):
    store = Store(home)
    s = load(store, store.current())
    return s, s.replay().state


def log_length(run):
    return len(json.loads(run(["log", "--json"], expect=0).stdout))


def test_new_with_options_and_start_player(game, status):
    out = game("Ann,Bob,Cy", "trans-europa", "--start", "Bob", "--variant", "special-cards", "--scoring", "classic")
    assert "Trans Europa with Bob, Cy, Ann (Bob starts)" in out and "commitment" in out
    st = status()
    assert st["map"] == "europa" and st["scoring"] == "classic" and st["variant"] == "special-cards"
    assert st["start_player"] == "Bob" and [p["score"] for p in st["players"]] == [13, 13, 13]
    assert st["special"] is None and st["revealed"] == {} and st["round"] == 0


def test_new_refuses_bad_player_counts_and_options(run):
    assert "takes 2 to 6 players" in run(["new", "trans-amerika", "--players", "Ann"], expect=1).stderr
    assert "2 to 6" in run(["new", "trans-amerika", "--players", "A,B,C,D,E,F,G"], expect=1).stderr
    run(["new", "trans-amerika", "--players", "Ann,Bob", "--scoring", "golf"], expect=2)


def test_round_start_deals_secretly_and_hand_shows_one_player(game, run, status, home):
    game()
    out = run(["round", "start"], expect=0).stdout
    assert "Round 1 started: Ann starts." in out and "hand NAME" in out
    _, st = state(home)
    secret = [c for hand in st["hands"].values() for c in hand]
    assert not any(c in out for c in secret)
    shown = status()
    assert "hands" not in shown and not any(c in json.dumps(shown) for c in secret)
    assert not any(c in run(["status"], expect=0).stdout for c in secret)
    assert not any(c in run(["log"], expect=0).stdout for c in secret)
    mine = run(["hand", "bob"], expect=0).stdout
    assert all(c in mine for c in st["hands"]["Bob"])
    assert not any(c in mine for c in st["hands"]["Ann"])
    assert "no player called 'Zed'" in run(["hand", "Zed"], expect=1).stderr
    assert "still open" in run(["round", "start"], expect=1).stderr


def test_hand_goes_to_the_private_screen_in_the_shell(game, run, home):
    game()
    run(["round", "start"], expect=0)
    shown = []
    app = App(home, show_private=lambda owner, text: shown.append((owner, text)))
    assert run_line(app, "hand Cy") == (0, None)
    _, st = state(home)
    assert shown[0][0] == "Cy" and all(c in shown[0][1] for c in st["hands"]["Cy"])


def test_round_end_scores_and_shows_the_hands(game, run, status, home):
    game()
    run(["round", "start"], expect=0)
    _, st = state(home)
    out = run(["round", "end", "--winner", "Ann", "--missing", "Bob=1", "--missing", "Cy=3",
               "--missing", "Dee=5"], expect=0).stdout.replace("\n  ", " ") + "\n"  # wrapped to 80 columns
    assert "Round 1 scored: Ann +4 (connected), Bob +3 (1 missing), Cy +1 (3 missing), Dee +0 (5 missing)." in out
    assert "Next: `round start` (Bob starts)." in out
    assert all(c in out for hand in st["hands"].values() for c in hand)  # every hand is public now
    s = status()
    assert [p["score"] for p in s["players"]] == [4, 3, 1, 0] and s["start_player"] == "Bob"
    assert all(c in run(["hand", "Dee"], expect=0).stdout for c in st["hands"]["Dee"])
    text = run(["status"], expect=0).stdout
    assert "R1" in text and "████" in text and "toward 13" in text


def test_two_winners_and_rails_out(game, run, status):
    game("Ann,Bob,Cy")
    run(["round", "start"], expect=0)
    run(["round", "end", "--winner", "Ann", "--winner", "Cy", "--missing", "Bob=2"], expect=0)
    run(["round", "start"], expect=0)
    out = run(["round", "end", "--rails-out", "--missing", "Ann=1", "--missing", "Bob=2",
               "--missing", "Cy=9"], expect=0).stdout
    assert out.startswith("The rails ran out.")
    assert [p["score"] for p in status()["players"]] == [7, 4, 4]


@pytest.mark.parametrize("args, message", [
    (["--winner", "Ann", "--missing", "Bob=1", "--missing", "Cy=1"], "--missing Dee=N"),
    (["--winner", "Ann", "--missing", "Ann=1", "--missing", "Bob=1", "--missing", "Cy=1", "--missing", "Dee=1"],
     "Ann connected"),
    (["--winner", "Ann", "--missing", "Bob=0", "--missing", "Cy=1", "--missing", "Dee=1"], "at least 1"),
    (["--winner", "Ann", "--missing", "Bob=-3", "--missing", "Cy=1", "--missing", "Dee=1"], "at least 1"),
    (["--rails-out", "--winner", "Ann", "--winner", "Bob", "--missing", "Cy=1", "--missing", "Dee=1"],
     "--rails-out"),
    (["--winner", "Zed", "--missing", "Bob=1", "--missing", "Cy=1", "--missing", "Dee=1"], "no player called 'Zed'"),
])
def test_round_end_refusals_change_nothing(game, run, args, message):
    game()
    run(["round", "start"], expect=0)
    before = log_length(run)
    result = run(["round", "end", *args], expect=1)
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert log_length(run) == before


def test_round_end_non_integer_count_is_a_usage_error(game, run):
    game()
    run(["round", "start"], expect=0)
    result = run(["round", "end", "--winner", "Ann", "--missing", "Bob=2.5"], expect=2)
    assert "not a whole number" in result.stderr
    assert log_length(run) == 1


def test_round_end_without_an_open_round(game, run):
    game()
    assert "No round is open" in run(["round", "end", "--winner", "Ann", "--missing", "Bob=1"], expect=1).stderr


def test_physical_round_and_hand_set_refusals(game, run, status, home):
    game("Ann,Bob,Cy")
    out = run(["round", "start", "--physical"], expect=0).stdout
    assert "Deal the cities at the table" in out
    assert status()["physical"] is True
    out = run(["hand", "Ann", "--set", "Portland,Helena,Omaha,El Paso,New York"], expect=0).stdout
    assert out.strip() == "Ann's hand recorded (5 cities)."
    # an unquoted city with a space arrives split: it is joined again
    run(["hand", "Bob", "--set", "Medford,Chicago,Santa", "Fe,Dallas,Winston"], expect=0)
    assert state(home)[1]["hands"]["Bob"][2] == "Santa Fe"
    cases = [
        ("Cy", "Sacramento,Paris,Omaha,Phoenix,Charleston", "no city 'Paris'"),
        ("Cy", "Sacramento,Bismarck,Omaha,Phoenix,Charleston", "already recorded in another player's hand"),
        ("Cy", "Sacramento,Los Angeles,St. Louis,Phoenix,Charleston", "both green"),
        ("Cy", "Seattle,Bismarck,St. Louis,Phoenix,Charleston", "dashed-border"),
        ("Zed", "Sacramento", "no player called 'Zed'"),
    ]
    before = log_length(run)
    for name, cities, message in cases:
        result = run(["hand", name, "--set", cities], expect=1)
        assert message in result.stderr, result.stderr
    assert log_length(run) == before
    assert "not recorded" in run(["hand", "Cy"], expect=1).stderr
    # issue 12: the refusal names neither the card another player holds nor its holder
    err = run(["hand", "Cy", "--set", "Sacramento,Bismarck,Omaha,Phoenix,Charleston"], expect=1).stderr
    assert "Omaha" not in err and "Ann" not in err and "Bob" not in err


def test_hand_set_refused_in_a_dealt_round(game, run):
    game()
    run(["round", "start"], expect=0)
    assert "The app dealt this round" in run(["hand", "Ann", "--set", "Portland"], expect=1).stderr
    assert "not both" in run(["hand", "Ann", "--set", "A", "--return", "B"], expect=2).stderr


def test_special_card_named_at_the_table_and_its_meaning(game, run, status):
    game()
    out = run(["round", "start", "--special", "rhythm-321"], expect=0).stdout
    out = " ".join(out.split())  # the line wraps at 80 columns (issue 15, several cards)
    assert "Special card: Rhythm 3-2-1 (rhythm-321): rails per turn by lap: lap 1: 3, lap 2: 2, lap 3: 1" in out
    assert status()["special"] == {"id": "rhythm-321", "title": "Rhythm 3-2-1"}
    assert "lap 1: 3" in run(["status"], expect=0).stdout
    assert run(["round", "start", "--special", "joker"], expect=2).exit_code == 2


def test_a_card_naming_an_unknown_colour_asks_for_the_value(game, run, status):
    game()
    result = run(["round", "start", "--special", "return-white"], expect=1)
    assert "companion data set trans-amerika colour_aliases.white" in result.stderr
    assert status()["round"] == 0
    run(["data", "set", "trans-amerika", "colour_aliases.white", '"blue"'], expect=0)
    out = run(["round", "start", "--special", "return-white"], expect=0).stdout
    assert "the blue city went back" in out
    assert [p["cities"] for p in status()["players"]] == [4, 4, 4, 4]


def test_reveal_card_shows_cities_publicly(game, run, status, home):
    game()
    run(["data", "set", "trans-amerika", "colour_aliases.pink", '"green"'], expect=0)
    run(["data", "set", "trans-amerika", "colour_aliases.orange", '"orange"'], expect=0)  # never assumed (issue 15)
    run(["round", "start", "--special", "reveal-pink-orange"], expect=0)
    _, st = state(home)
    revealed = status()["revealed"]
    assert set(revealed) == {"Ann", "Bob", "Cy", "Dee"}
    text = run(["status"], expect=0).stdout
    assert all(c in text for cities in revealed.values() for c in cities)


def test_return_any_and_pass_commands(game, run, home):
    game("Ann,Bob")
    out = run(["round", "start", "--special", "return-any"], expect=0).stdout
    assert "Now: Ann, Bob must still put a city back: hand NAME --return CITY" in out
    _, st = state(home)
    city = st["hands"]["Bob"][1]
    out = run(["hand", "Bob", "--return", *city.split()], expect=0).stdout
    assert "Bob put a city back and plays with 4." in out and "Now: Ann must" in out
    assert "already" in run(["hand", "Bob", "--return", st["hands"]["Bob"][0]], expect=1).stderr
    assert "Ann must still" in run(["round", "end", "--winner", "Ann", "--missing", "Bob=1"], expect=1).stderr
    out = run(["hand", "Ann", "--return", st["hands"]["Ann"][0]], expect=0).stdout
    assert "the round can be played" in out
    run(["round", "end", "--winner", "Ann", "--missing", "Bob=1"], expect=0)

    out = run(["round", "start", "--special", "pass-three"], expect=0).stdout  # Bob starts round 2
    assert "pass 1 of 3: Ann, Bob must still choose" in out
    for lap in range(3):
        for p in ("Bob", "Ann"):
            _, st = state(home)
            out = run(["pass", p, *st["hands"][p][0].split()], expect=0).stdout
            assert f"{p}'s choice is recorded." in out
    assert "All cards are passed" in out
    assert "No passing is due" in run(["pass", "Ann", state(home)[1]["hands"]["Ann"][0]], expect=1).stderr


def test_pass_a_colour_tells_whose_choice_is_due(game, run, home):
    game("Ann,Bob,Cy")
    run(["data", "set", "trans-amerika", "colour_aliases.orange", '"orange"'], expect=0)  # never assumed (issue 15)
    out = run(["round", "start", "--special", "pass-orange"], expect=0).stdout
    assert "Now: Ann passes one of their two orange cities left: pass Ann CITY" in out
    _, st = state(home)
    colours = {c["name"]: c["colour"] for c in load(Store(home), Store(home).current()).replay().data["cities"]}
    assert "It is Ann's turn" in run(["pass", "Bob", st["hands"]["Bob"][0]], expect=1).stderr
    for p in ("Ann", "Bob", "Cy"):
        _, st = state(home)
        orange = [c for c in st["hands"][p] if colours[c] == "orange"]
        out = run(["pass", p, *orange[0].split()], expect=0).stdout
    assert "All cards are passed" in out


def test_swap_hands_is_done_by_the_app(game, run, home):
    game("Ann,Bob")
    out = run(["round", "start", "--special", "swap-hands"], expect=0).stdout
    assert "plays the hand of their right neighbour" in " ".join(out.split())  # wrapped at 80 columns


def test_after_the_app_swaps_the_hands_each_player_knows_the_cities_handed_on(game, run, home):
    """Seed 000, swap-hands: "Memorize your 5 city cards well. Then pass them face down to your
    left-hand neighbor ... you now know not only your current 5 cards, but also those of your
    left-hand neighbor." The app passed them, so each player's own screen shows both hands;
    no shared screen shows either."""
    from companion.core.app import App
    from companion.web.views import status_blocks  # issue 20: Ann's page is made from status_view (was web.py)

    game("Ann,Bob,Cy")
    run(["round", "start", "--special", "swap-hands"], expect=0)
    _, st = state(home)
    mine = run(["hand", "Ann", "--print"], expect=0).stdout
    assert "You handed your cities to Bob, who plays them" in mine
    assert all(c in mine for c in st["hands"]["Ann"] + st["hands"]["Bob"])
    assert not any(c in mine for c in st["hands"]["Cy"]), "Cy's cities are not Ann's to know"
    s = App(home).session()
    from companion.contract.exit import Exit

    page = "".join(status_blocks(Exit(s, s.replay(), "Ann")))
    assert "The cities you handed to Bob" in page and all(c in page for c in st["hands"]["Bob"])
    assert not any(c in page for c in st["hands"]["Cy"])
    shared = run(["status"], expect=0).stdout + run(["log"], expect=0).stdout + run(["status", "--json"], expect=0).stdout
    assert not any(c in shared for h in st["hands"].values() for c in h)


def test_two_or_three_players_never_see_a_dashed_card(game, run, home):
    game("Ann,Bob,Cy", "trans-amerika", "--scoring", "classic")  # all connecting: it never ends
    for _ in range(8):
        run(["round", "start"], expect=0)
        _, st = state(home)
        assert not {c for h in st["hands"].values() for c in h} & AMERIKA_DASHED
        run(["round", "end", "--winner", "Ann", "--winner", "Bob", "--winner", "Cy"], expect=0)


def test_europa_with_three_players_asks_for_its_dashed_cards(game, run, status):
    game("Ann,Bob,Cy", "trans-europa")
    result = run(["round", "start"], expect=1)
    assert "companion data set trans-europa dashed" in result.stderr
    assert status()["round"] == 0


def test_variant_draws_special_cards_and_says_how_the_deck_is_made(game, run, status, home):
    game("Ann,Bob", "trans-amerika", "--variant", "special-cards", "--scoring", "classic")
    for key, value in TEST_VALUES:
        run(["data", "set", "trans-amerika", key, value], expect=0)
    seen = set()
    for _ in range(6):
        out = run(["round", "start"], expect=0).stdout
        assert "Special-card deck:" in out and "one card per printed variant" in out
        s, st = state(home)
        seen.add(st["special"])
        while st["pending"]:
            p = s.game.waiting(st)[0]
            colour = st["pending"].get("colour")
            city = next(c for c in st["hands"][p] if colour is None or c in st["hands"][p] and
                        any(x["name"] == c and x["colour"] == colour for x in s.replay().data["cities"]))
            if st["pending"]["kind"] == "return":
                run(["hand", p, "--return", city], expect=0)
            else:
                run(["pass", p, city], expect=0)
            s, st = state(home)
        run(["round", "end", "--winner", "Ann", "--winner", "Bob"], expect=0)
    assert len(seen) == 6
    assert status()["special_deck"] == {"left": 12, "size": 18, "one_per_variant": True}


def test_game_over_refuses_everything_but_undo_and_verify_checks_the_deals(game, run, status):
    game("Ann,Bob")
    before_end = None
    for n in range(4):
        run(["round", "start"], expect=0)
        if n == 3:
            assert "not over" in run(["verify"], expect=1).stderr
        out = run(["round", "end", "--winner", "Ann", "--missing", "Bob=4"], expect=0).stdout
    assert "Game over: Ann wins." in out
    st = status()
    assert st["finished"] and st["winners"] == ["Ann"] and set(st["hands"]) == {"Ann", "Bob"}
    before_end = log_length(run)
    assert "game is over" in run(["round", "start"], expect=1).stderr
    assert "game is over" in run(["round", "end", "--winner", "Ann", "--missing", "Bob=1"], expect=1).stderr
    assert "game is over" in run(["pass", "Ann", "Dallas"], expect=1).stderr
    assert "game is over" in run(["hand", "Ann", "--set", "Dallas"], expect=1).stderr
    assert log_length(run) == before_end
    out = run(["verify"], expect=0).stdout
    assert "All 20 deals match the seed." in out and "matches the seed" in out
    run(["undo"], expect=0)
    assert not status()["finished"] and status()["round_open"]
    assert "hands" not in status()


def test_data_check_lists_the_unknown_trans_values(run):
    out = run(["data", "check"], expect=0).stdout
    for key in ("trans-europa dashed", "trans-amerika charts.generous", "trans-amerika colour_aliases.white",
                "trans-amerika special_cards.swap-hands.copies", "trans-amerika double_kinds"):
        assert key in out
    assert "trans-amerika dashed" not in out


def test_board_draws_the_map_and_the_session_s_board(game, run):
    assert "San Diego" in run(["board", "trans-amerika"], expect=0).stdout
    game()
    assert "Zürich" not in run(["board"], expect=0).stdout
    assert "Seattle" in run(["board"], expect=0).stdout
