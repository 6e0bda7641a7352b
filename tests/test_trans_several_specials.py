"""Several special cards at once (issue 15, item 9).

Seed 000, the last paragraph of "Variant: The Special Cards": "It is also possible, and quite
interesting, to play with several special cards at the same time." `new ... --specials-per-round
N` turns over N cards a round, `round start --special A --special B` names the cards turned over
at the table; the effects apply in the rulebook's order, and pairs whose texts cannot both hold
are refused (or, from the app's deck, set aside), each refusal changing nothing.
"""

from __future__ import annotations

import copy
import itertools
import json
import re
import shutil
from pathlib import Path

import pytest
from journal_support import edit_first

from companion.core import datapack, dealing
from companion.contract.errors import RuleError
from companion.core.session import load
from companion.core.store import Store
from companion.contract.api import Setup
from companion.games.trans.rules import TransAmerika, make_round_start
from companion.games.trans.specials import CLASHES, MAX_PER_ROUND, SPECIAL_IDS, first_clash

SEVERAL = "It is also possible, and quite interesting, to play with several special cards at the same time."
SEED = "c3" * 32
ROOT = Path(__file__).resolve().parent.parent
# A test edition's answers to the values nobody knows (made up here, never shipped).
ALIASES = {"brown": "red", "white": "blue", "pink": "green", "turquoise": "yellow", "orange": "orange"}
TEST_CHART = {"winner": 5, "missing": [4, 3, 2, 1, 0]}


# -- helpers -----------------------------------------------------------------------------------

def rules(n=3, **options):
    """The rules, a fresh state and the pack's values with the test edition's colours."""
    g = TransAmerika()
    data = datapack.pack(g.id)["values"]
    data = dict(data, colour_aliases=dict(data["colour_aliases"], **ALIASES))
    options.setdefault("order", "rulebook")
    return g, g.initial(Setup(g.id, ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")[:n], options), data), data


def colour_of(data):
    return {c["name"]: c["colour"] for c in data["cities"]}


def finish_choices(g, s, data):
    """Every choice the cards ask for, made with the first city that fits."""
    colours = colour_of(data)
    while s["pending"]:
        p = g.waiting(s)[0]
        kind = s["pending"]["kind"]
        if kind == "return":
            s = g.apply(s, {"type": "hand-return", "player": p, "city": s["hands"][p][0]}, data)
            continue
        colour = s["pending"].get("colour")
        city = next(c for c in s["hands"][p] if kind == "pass-three" or colours[c] == colour)
        s = g.apply(s, {"type": "pass", "player": p, "city": city}, data)
    return s


def edition_values(game="trans-amerika") -> list[list[str]]:
    """The `data set` commands that give the test edition's colours."""
    return [["data", "set", game, f"colour_aliases.{key}", json.dumps(value)] for key, value in ALIASES.items()]


def set_test_values(run, game="trans-amerika"):
    for args in edition_values(game):
        run(args, expect=0)


@pytest.fixture(scope="module")
def three_with_values(tmp_path_factory):
    """A data folder where a three-player Trans Amerika was started and the test edition's
    colours typed after it, once for the module: the refused pairs' tests each copy it."""
    from shared_install import typed

    return typed(tmp_path_factory.mktemp("three") / "home",
                 ["new", "trans-amerika", "--players", "Ann,Bob,Cy"], *edition_values())


def cli_state(home):
    store = Store(home)
    s = load(store, store.current())
    return s, s.replay()


def cli_choices(run, home):
    """Make every choice due through the commands, as a script would."""
    s, replay = cli_state(home)
    colours = colour_of(replay.data)
    while replay.state["pending"]:
        st = replay.state
        p = s.game.waiting(st)[0]
        colour = st["pending"].get("colour")
        city = next(c for c in st["hands"][p] if colour is None or colours[c] == colour)
        if st["pending"]["kind"] == "return":
            run(["hand", p, "--return", city], expect=0)
        else:
            run(["pass", p, city], expect=0)
        s, replay = cli_state(home)


# -- the session option ------------------------------------------------------------------------

def test_specials_per_round_is_a_session_option_from_1_to_8(run, status, home):
    """Seed 000: "It is also possible, and quite interesting, to play with several special cards at the
    same time." The number is chosen at `new` and kept with the session."""
    run(["new", "trans-amerika", "--players", "Ann,Bob", "--variant", "special-cards",
         "--specials-per-round", "3"], expect=0)
    store = Store(home)
    assert load(store, store.current()).meta["options"]["specials_per_round"] == 3
    assert status()["specials_per_round"] == 3
    before = status()
    sessions = run(["sessions", "--json"], expect=0).stdout
    for args, message in ((["--specials-per-round", "0"], "takes 1 to 8 cards, not 0"),
                          (["--specials-per-round", str(MAX_PER_ROUND + 1)], "takes 1 to 8 cards, not 9")):
        err = run(["new", "trans-amerika", "--players", "Ann,Bob", "--variant", "special-cards", *args],
                  expect=1).stderr
        assert message in err and len(err.strip().splitlines()) == 1
    err = run(["new", "trans-amerika", "--players", "Ann,Bob", "--specials-per-round", "2"], expect=1).stderr
    assert "add --variant special-cards" in err and len(err.strip().splitlines()) == 1
    assert status() == before and run(["sessions", "--json"], expect=0).stdout == sessions
    run(["new", "trans-amerika", "--players", "Ann,Bob", "--variant", "special-cards"], expect=0)
    assert status()["specials_per_round"] == 1 and "specials_per_round" not in load(
        store, store.current()).meta["options"]


# -- cards named at the table -------------------------------------------------------------------

def test_several_cards_named_at_the_table_all_hold(run, status):
    """Seed 000: "It is also possible, and quite interesting, to play with several special cards at the
    same time." Without the variant the players agree on any cards that go
    together; `special` stays the first in the rulebook's order, `specials` lists them all."""
    run(["new", "trans-amerika", "--players", "Ann,Bob,Cy"], expect=0)
    run(["round", "start", "--special", "water-single", "--special", "generous"], expect=0)
    st = status()
    assert [c["id"] for c in st["specials"]] == ["generous", "water-single"]
    assert st["special"] == {"id": "generous", "title": "Generous chart"}
    assert st["special_text"] == "this round is scored on the generous chart" == st["specials"][0]["text"]
    assert st["specials"][1] == {"id": "water-single", "title": "Water counts single",
                                 "text": "double lines over water count as single this round"}
    assert st["special_from"] == "table"


def test_the_count_must_be_the_sessions(run, status):
    """With the variant every round turns over the session's number of cards: naming fewer or
    more is refused with what to type, and nothing changes."""
    run(["new", "trans-amerika", "--players", "Ann,Bob", "--variant", "special-cards",
         "--specials-per-round", "2"], expect=0)
    before = status()
    err = run(["round", "start", "--special", "generous"], expect=1).stderr
    assert ("This session turns over 2 special cards a round, not 1: name them all, e.g. "
            "`round start --special generous --special CARD`") in err
    err = run(["round", "start", "--special", "generous", "--special", "three-rails", "--special",
               "water-single"], expect=1).stderr
    assert "not 3" in err and len(err.strip().splitlines()) == 1
    assert status() == before
    run(["round", "start", "--special", "generous", "--special", "three-rails"], expect=0)
    assert [c["id"] for c in status()["specials"]] == ["generous", "three-rails"]


def test_a_card_named_twice_is_refused(run, status):
    """Several special cards are several cards: the same card twice is refused."""
    run(["new", "trans-amerika", "--players", "Ann,Bob"], expect=0)
    before = status()
    err = run(["round", "start", "--special", "three-rails", "--special", "three-rails"], expect=1).stderr
    assert "three-rails is named twice" in err
    assert status() == before


@pytest.mark.parametrize("pair", sorted(tuple(sorted(p, key=SPECIAL_IDS.index)) for p in CLASHES))
def test_a_pair_that_cannot_combine_is_refused_naming_both(run, status, home, three_with_values, pair):
    """Seed 000: "It is also possible, and quite interesting, to play with several special cards at the
    same time." A pair whose texts cannot both hold (docs/trans.md's table) is
    refused in one line naming both cards and why; nothing changes."""
    shutil.copytree(three_with_values, home)  # `new` for three, then the test edition's colours
    before = status()
    a, b = pair
    err = run(["round", "start", "--special", b, "--special", "water-single", "--special", a], expect=1).stderr
    assert f"{a} and {b} cannot be played together: {CLASHES[frozenset(pair)]}." in err
    assert len(err.strip().splitlines()) == 1
    assert status() == before


def test_every_other_pair_combines_and_its_choices_can_be_made():
    """Every pair not in the table deals and plays out: the choices the cards ask are made one
    card after the other, and the round can be scored."""
    pairs = [p for p in itertools.combinations(SPECIAL_IDS, 2) if frozenset(p) not in CLASHES]
    assert len(pairs) == 153 - len(CLASHES)
    for pair in pairs:
        g, s, data = rules(3)
        s = g.apply(s, make_round_start(s, data, SEED, "", "sess", special=list(pair)), data)
        assert s["specials"] == list(pair) and s["special"] == pair[0]
        s = finish_choices(g, s, data)
        assert s["effects_left"] == [] and not g.waiting(s)
        s = g.apply(s, {"type": "round-end", "winners": ["Ann"], "missing": {"Bob": 2, "Cy": 3}},
                    dict(data, charts=dict(data["charts"], generous=TEST_CHART, demanding=TEST_CHART)))
        assert s["history"][-1]["specials"] == list(pair)


# -- effects combined ------------------------------------------------------------------------------

def test_rails_a_turn_and_single_doubles_combine(script, run, status, home):
    """Seed 000: "In this round you may place up to 3 rails (instead of up to 2) on each turn",
    "every double stretch over water counts as a single stretch", "every double stretch over
    mountains counts as a single stretch": all three hold at once."""
    code, _, err = script('new trans-amerika --players Ann,Bob --entropy "x"\n'
                          "data accept trans-amerika double_kinds\n"
                          "round start --physical --special mountain-single --special three-rails "
                          "--special water-single\nstart Ann Dallas\nstart Bob Chicago\n")
    assert code == 0, err
    s, replay = cli_state(home)
    assert s.game.allowance(replay.state, 1) == 3
    costs = s.game._turn_costs(replay.state, s.game.board_of(replay.data))
    assert set(costs.values()) == {1}  # every double line is water or mountain on this board
    out = run(["build", "Bob", "Chicago-M5-M6-N7"], expect=0).stdout  # M6-N7 is double: counts 1
    assert "Warning" not in out and status()["turn"]["used"] == 3


def test_rhythm_and_build_anywhere_combine():
    """Seed 000: the 3-2-1 card ("on the round's first lap you may place up to 3") and
    build-anywhere ("each player may place up to 2 rails (or one double rail) on any free
    stretch"): its "up to 2" repeats the basic rule, so the rhythm sets the number and the rails
    may go anywhere."""
    g, s, data = rules(2)
    s = g.apply(s, make_round_start(s, data, SEED, "", "sess", special=["build-anywhere", "rhythm-321"],
                                    physical=True), data)
    for p, at in (("Ann", "Dallas"), ("Bob", "Chicago")):
        s = g.apply(s, {"type": "marker", "player": p, "junction": at}, data)
    board = g.board_of(data)
    far = []  # a single line out of three cities far from Ann's marker: off her network
    for city in ("Seattle", "Boston", "Los Angeles"):
        at = board.junction(city)
        n = next(n for n in board.adj[at] if board.cost[(min(at, n), max(at, n))] == 1)
        far.append(f"{board.name(at)}-{board.name(n)}")
    s = g.apply(s, {"type": "build", "player": "Ann", "paths": far}, data)
    assert s["track"]["turn"]["allowed"] == 3 and s["track"]["turn"]["used"] == 3
    assert g.allowance(s, 2) == 2 and g.allowance(s, 3) == 1


def test_the_chart_card_scores_a_round_with_other_cards():
    """Seed 000: "Cover the prestige point chart ... with this card" holds with three rails a
    turn: the round is scored on the generous chart."""
    g, s, data = rules(3)
    data = dict(data, charts=dict(data["charts"], generous=TEST_CHART))
    s = g.apply(s, make_round_start(s, data, SEED, "", "sess", special=["three-rails", "generous"]), data)
    s = g.apply(s, {"type": "round-end", "winners": ["Ann"], "missing": {"Bob": 1, "Cy": 2}}, data)
    assert s["history"][-1]["points"] == {"Ann": 5, "Bob": 4, "Cy": 3}


def test_deal_effects_apply_in_the_rulebooks_order():
    """Seed 000 lists the cards in order: the white card goes back ("Everyone puts their white
    city card back"), then the pink and orange cities are shown ("Each player reveals their pink
    and orange city card"), then a pink card is passed along ("pass one of their two
    same-colored cards on to their left-hand neighbor"), then three cards go left ("You repeat
    this a second and then a third time"), then the whole hands ("pass them face down to your
    left-hand neighbor"). A shown city stays shown wherever it goes."""
    g, s, data = rules(3)
    colours = colour_of(data)
    cards = ["swap-hands", "pass-three", "pass-pink", "reveal-pink-orange", "return-white"]
    s = g.apply(s, make_round_start(s, data, SEED, "", "sess", special=cards), data)
    assert s["specials"] == ["return-white", "reveal-pink-orange", "pass-pink", "pass-three", "swap-hands"]
    assert all("blue" not in {colours[c] for c in h} for h in s["hands"].values())
    shown = {c for cities in s["revealed"].values() for c in cities}
    assert {colours[c] for c in shown} == {"green", "orange"} and len(shown) == 6
    assert s["pending"]["kind"] == "pass-colour" and s["effects_left"] == ["pass-three", "swap-hands"]
    while s["pending"]["kind"] == "pass-colour":
        s = _one_choice(g, s, data)
    assert s["pending"]["kind"] == "pass-three" and s["effects_left"] == ["swap-hands"]
    while not (s["pending"]["lap"] == 3 and len(s["pending"]["chosen"]) == 2):
        s = _one_choice(g, s, data)
    chosen = dict(s["pending"]["chosen"], Cy=s["hands"]["Cy"][0])
    after_pass = {p: [c for c in s["hands"][p] if c != chosen[p]] + [chosen[g._left(s, g._left(s, p))]]
                  for p in ("Ann", "Bob", "Cy")}  # each receives from the right-hand neighbour
    s = _one_choice(g, s, data)
    assert s["pending"] is None and s["effects_left"] == []
    assert {g._left(s, p): sorted(h) for p, h in after_pass.items()} == {p: sorted(h) for p, h in s["hands"].items()}
    assert all(len(h) == 4 for h in s["hands"].values())
    held = {c for h in s["hands"].values() for c in h}
    assert {c for cities in s["revealed"].values() for c in cities} == shown & held
    for p, cities in s["revealed"].items():
        assert set(cities) <= set(s["hands"][p])


def _one_choice(g, s, data):
    colours = colour_of(data)
    p = g.waiting(s)[0]
    colour = s["pending"].get("colour")
    city = next(c for c in s["hands"][p] if colour is None or colours[c] == colour)
    return g.apply(s, {"type": "pass", "player": p, "city": city}, data)


def test_return_any_waits_for_everyone_before_the_next_card():
    """Seed 000: "Everyone looks at their 5 city cards. Then, simultaneously, each of you puts any
    one of them face down back" comes before "All of you simultaneously choose any one of your 5
    city cards and pass it": the passing starts once everyone has put a city back."""
    g, s, data = rules(2)
    s = g.apply(s, make_round_start(s, data, SEED, "", "sess", special=["pass-three", "return-any"]), data)
    assert s["pending"]["kind"] == "return" and g.waiting(s) == ["Ann", "Bob"]
    s = g.apply(s, {"type": "hand-return", "player": "Bob", "city": s["hands"]["Bob"][0]}, data)
    assert s["pending"]["kind"] == "return"
    s = g.apply(s, {"type": "hand-return", "player": "Ann", "city": s["hands"]["Ann"][0]}, data)
    assert s["pending"] == {"kind": "pass-three", "lap": 1, "chosen": {}}
    assert g.pending_text(s).startswith("pass 1 of 3: Ann, Bob must still choose")


# -- the digital deck ------------------------------------------------------------------------------

def test_the_deck_turns_over_n_cards_that_go_together_setting_the_others_aside():
    """Seed 000: "Shuffle all 19 special cards and place them as a face-down stack ... turn over
    the top card" and "It is also possible, and quite interesting, to play with several special cards at the
    same time." The deck turns over N cards; one that cannot join those already
    turned over this round is set aside and the next is turned over, all from the recorded
    shuffle, which the seed re-derives under the round's context."""
    g, s, data = rules(2, variant="special-cards", scoring="classic", specials_per_round=MAX_PER_ROUND)
    set_aside = shuffles = 0
    for number in range(1, 13):
        event = make_round_start(s, data, SEED, "", "sess")
        assert event["special"] == event["specials"][0] and len(event["specials"]) == MAX_PER_ROUND
        if "special_shuffle" in event:
            shuffles += 1
            assert event["special_shuffle"]["context"] == f"sess/{number}/special"
            assert dealing.check(event["special_shuffle"], SEED, "")
        s = g.apply(s, event, data)
        assert sorted(s["specials"]) == sorted(event["specials"]) and first_clash(s["specials"]) is None
        assert len(set(s["specials"])) == MAX_PER_ROUND
        for card in s["special_set_aside"]:  # each had a reason to be set aside
            assert card in s["specials"] or first_clash([card, *s["specials"]]) is not None
        set_aside += len(s["special_set_aside"])
        assert g.summary(s)["special_set_aside"] == s["special_set_aside"]
        s = finish_choices(g, s, data)
        s = g.apply(s, {"type": "round-end", "winners": ["Ann", "Bob"], "missing": {}}, data)
    assert set_aside > 0 and shuffles >= 5


def test_a_changed_draw_is_refused():
    """The cards in force are the deck's next ones that go together, no other."""
    g, s, data = rules(2, variant="special-cards", specials_per_round=3)
    event = make_round_start(s, data, SEED, "", "sess")
    order = event["special_shuffle"]["order"]
    kept = [event["specials"][0], *event["specials"][2:]]
    other = next(c for c in order if c not in event["specials"] and first_clash([c, *kept]) is None)
    bad = copy.deepcopy(event)
    bad["specials"][1] = other
    with pytest.raises(RuleError, match="The next special cards of the deck are not"):
        g.apply(s, bad, data)
    bad = copy.deepcopy(event)
    bad["special"] = bad["specials"][1]
    with pytest.raises(RuleError, match="first"):
        g.apply(s, bad, data)
    g.apply(s, event, data)


def test_a_deck_that_cannot_give_n_cards_that_go_together_is_refused(run, status):
    """When the players' copies leave fewer cards that go together than the session turns over,
    `round start` says so in one line and records nothing (never a draw refused afterwards)."""
    for card in SPECIAL_IDS:  # a session keeps the values it started with: set them first
        run(["data", "set", "trans-amerika", f"special_cards.{card}.copies",
             "1" if card in ("generous", "demanding") else "0"], expect=0)
    run(["new", "trans-amerika", "--players", "Ann,Bob", "--variant", "special-cards",
         "--specials-per-round", "2"], expect=0)
    before = status()
    err = run(["round", "start"], expect=1).stderr
    assert "The special-card deck cannot give 2 cards that can be played together" in err
    assert len(err.strip().splitlines()) == 1 and status() == before


def test_verify_proves_every_card_drawn(run, status, home):
    """Seed 000's deck, several cards a round: `verify` re-derives every shuffle the cards came
    from, and a card changed in the record is refused by the replay."""
    run(["new", "trans-amerika", "--players", "Ann,Bob", "--variant", "special-cards", "--scoring",
         "classic", "--specials-per-round", "4", "--entropy", "our words"], expect=0)
    set_test_values(run)
    for _ in range(5):  # 20 cards: the deck of 18 is reshuffled on the way
        run(["round", "start"], expect=0)
        cli_choices(run, home)
        run(["round", "end", "--winner", "Ann", "--winner", "Bob"], expect=0)
    run(["round", "start"], expect=0)
    cli_choices(run, home)
    run(["round", "end", "--winner", "Ann", "--missing", "Bob=13"], expect=0)
    assert status()["finished"]
    out = run(["verify"], expect=0).stdout
    shuffles = out.count("/special: matches")  # 24 cards and those set aside: 2 shuffles or more
    assert shuffles >= 2 and f"All {6 * 5 + shuffles} deals match the seed." in out  # 6 rounds of 5 stacks
    sid = status()["session"]

    def swap(entry):
        cards = entry["event"]["specials"]
        cards[1], cards[2] = cards[2], cards[1]

    edit_first(home, sid, lambda e: (e.get("event") or {}).get("type") == "round-start", swap)
    err = run(["status"], expect=1).stderr
    assert "The next special cards of the deck are not" in err


# -- screens and secrets ---------------------------------------------------------------------------

def test_status_shows_every_card_on_its_line_within_80_columns(run, status, monkeypatch):
    """Seed 000: "This special card applies for the whole round and to every one of you": with
    several, `status` names each on a line of its own (80 columns); `status --json` keeps
    `special` and `special_text` and adds `specials`."""
    monkeypatch.setenv("COLUMNS", "80")
    run(["new", "trans-amerika", "--players", "Ann,Bob,Cy", "--variant", "special-cards",
         "--specials-per-round", "3"], expect=0)
    set_test_values(run)
    out = run(["round", "start", "--special", "rhythm-321", "--special", "pass-brown", "--special",
               "mountain-single"], expect=0).stdout
    text = run(["status"], expect=0).stdout
    for screen in (out, text):
        assert all(len(line) <= 80 for line in screen.splitlines())
        assert "Special cards (3, applied in the rulebook's order):" in screen
        starts = [line for line in screen.splitlines() if re.match(r"  \S.* \([a-z0-9-]+\): ", line)]
        assert [re.search(r"\(([a-z0-9-]+)\)", line).group(1) for line in starts] == [
            "mountain-single", "rhythm-321", "pass-brown"]
    assert "Waiting: Ann passes one of their two red cities left" in text
    assert "Next: `round start`" not in text  # the round is open: the choice due is what comes next
    st = status()
    assert st["special"] == {"id": "mountain-single", "title": "Mountains count single"}
    assert st["special_text"] == "double lines over mountains count as single this round"
    assert [c["id"] for c in st["specials"]] == ["mountain-single", "rhythm-321", "pass-brown"]
    assert st["specials"][2]["text"] == "the start player took an extra red city; red cities are passed left"


def test_private_choices_stay_private_with_several_cards(run, status, home):
    """Seed 000: "each of you puts any one of them face down back" and "pass them face down to
    your left-hand neighbor": with both cards, no city of a hand reaches the shared screens."""
    run(["new", "trans-amerika", "--players", "Ann,Bob"], expect=0)
    out = run(["round", "start", "--special", "swap-hands", "--special", "return-any"], expect=0).stdout
    assert "once the choices above are made" in status()["specials"][1]["text"]  # the hands go left later
    s, replay = cli_state(home)
    secret = {c for h in replay.state["hands"].values() for c in h}
    ann = replay.state["hands"]["Ann"][0]
    said = [out, run(["hand", "Ann", "--return", ann], expect=0).stdout]
    s, replay = cli_state(home)
    bob = replay.state["hands"]["Bob"][0]
    said.append(run(["hand", "Bob", "--return", bob], expect=0).stdout)
    said += [run(["status"], expect=0).stdout, run(["status", "--json"], expect=0).stdout,
             run(["log", "--json"], expect=0).stdout, run(["log"], expect=0).stdout]
    assert not any(c in text for c in secret for text in said)
    s, replay = cli_state(home)
    assert ann not in replay.state["hands"]["Bob"] and bob not in replay.state["hands"]["Ann"]
    assert status()["specials"][1]["text"].endswith("(the app passed them)")
    assert all(len(h) == 4 for h in replay.state["hands"].values())


def test_the_shell_asks_each_choice_privately_card_after_card(home, run, capsys):
    """Seed 000: "each of you puts any one of them face down back", then "choose any one of your
    5 city cards and pass it face down": in the shell both choices are made on the private
    screen, one card after the other; once nothing is due, `pass Ann` says so and asks nothing."""
    try:
        from shell_support import Screen, drive
    except ImportError:  # tests/ imported as a package
        from tests.shell_support import Screen, drive

    run(["new", "trans-amerika", "--players", "Ann,Bob", "--entropy", "x"], expect=0)
    run(["round", "start", "--special", "pass-three", "--special", "return-any"], expect=0)
    _, replay = cli_state(home)
    ann, bob = replay.state["hands"]["Ann"], replay.state["hands"]["Bob"]
    screen = Screen()
    capsys.readouterr()
    drive(home, f"hand Ann --return\n\n{ann[0]}\nhand Bob --return\n\n{bob[0]}\npass Ann\n\n{ann[1]}\n",
          output=screen.output(), private=True)
    out, err = capsys.readouterr()
    shared, private = screen.split()
    assert "Now: pass 1 of 3: Ann, Bob must still choose a city to pass left: pass NAME" in out
    assert "Ann's choice is recorded." in out
    for city in (ann[0], bob[0], ann[1]):
        assert city not in out + err and city not in shared and city in private
        assert city not in (home / ".local" / "shell-history").read_text()
    _, replay = cli_state(home)
    assert replay.state["pending"]["chosen"] == {"Ann": ann[1]}
    run(["new", "trans-amerika", "--players", "Ann,Bob", "--entropy", "x"], expect=0)
    run(["round", "start", "--special", "water-single", "--special", "three-rails"], expect=0)
    capsys.readouterr()
    drive(home, "pass Ann\n", output=Screen().output(), private=True)
    out, err = capsys.readouterr()
    assert "No passing is due" in err and "Pass the laptop" not in out


def test_tab_offers_only_the_cards_that_can_still_join(home, run):
    """In the shell, Tab after a second `--special` offers neither a card already typed nor one
    that cannot be played with it ("Cover the prestige point chart ... with this card")."""
    from prompt_toolkit.document import Document

    from companion.core.app import App
    from companion.terminal.cli import cli
    from companion.terminal.shell import CommandCompleter, SessionView

    run(["new", "trans-amerika", "--players", "Ann,Bob"], expect=0)
    app = App(home)
    completer = CommandCompleter(app, SessionView(app), cli)
    offered = {c.text for c in completer.get_completions(Document("round start --special generous --special "), None)}
    assert "three-rails" in offered and "water-single" in offered
    assert "generous" not in offered and "demanding" not in offered


def test_a_physical_round_takes_the_hands_after_every_card():
    """Dealt at the table with the white card back and pink and orange shown: a hand has 4 cities,
    no white; the shown cities are listed. With a card that moves hands after the reveal the
    table shows them and the app lists none (it cannot tell a shown city from a passed one)."""
    g, s, data = rules(4)
    s = g.apply(s, make_round_start(s, data, SEED, "", "sess", special=["reveal-pink-orange", "return-white"],
                                    physical=True), data)
    colours = colour_of(data)
    one = {colour: next(c for c, col in colours.items() if col == colour) for colour in data["colours"]}
    with pytest.raises(RuleError, match=f"put their blue city back: leave {one['blue']} out"):  # blue is white here
        g.apply(s, {"type": "hand-set", "player": "Ann", "cities": [one[c] for c in ("green", "blue", "red", "orange")]},
                data)
    hand = [one[c] for c in ("green", "yellow", "red", "orange")]
    s = g.apply(s, {"type": "hand-set", "player": "Ann", "cities": hand}, data)
    assert s["revealed"] == {"Ann": [one["green"], one["orange"]]}
    g, s, data = rules(4)
    s = g.apply(s, make_round_start(s, data, SEED, "", "sess", special=["reveal-pink-orange", "swap-hands"],
                                    physical=True), data)
    s = g.apply(s, {"type": "hand-set", "player": "Ann", "cities": list(one.values())}, data)
    assert s["revealed"] == {}


# -- compatibility ---------------------------------------------------------------------------------

def test_one_card_rounds_are_recorded_as_before():
    """Sessions with one card a round (all of them before this) write the same events as before:
    no `specials` key, the card in `special`; such journals replay unchanged (tests/fixtures)."""
    g, s, data = rules(2, variant="special-cards")
    event = make_round_start(s, data, SEED, "", "sess")
    assert set(event) == {"type", "round", "physical", "special", "special_from", "special_shuffle", "stacks"}
    table = make_round_start(s, data, SEED, "", "sess", special="generous")
    assert "specials" not in table and table["special"] == "generous"
    s = g.apply(s, event, data)
    assert s["specials"] == [event["special"]]


def test_the_docs_list_every_pair_that_cannot_combine():
    """docs/trans.md's table names every pair the rules refuse, one pair a row."""
    text = (ROOT / "docs" / "trans.md").read_text(encoding="utf-8")
    assert SEVERAL in " ".join(text.split())  # the rule the section stands on, quoted
    table = text[text.index("| cards | why they cannot be played together |"):].split("\n\n")[0]
    listed = set()
    for row in table.splitlines()[2:]:
        pair = re.findall(r"`([a-z0-9-]+)`", row.split("|")[1])
        assert len(pair) == 2, row
        listed.add(frozenset(pair))
    assert listed == set(CLASHES)
