"""`stats --ratings`: openskill ratings checked against a hand computation, ties, 2 to 6
players, and the same numbers whatever order the plays were typed in."""

from __future__ import annotations

import json
import math


def ratings(run, *args, data_dir=None):
    pre = ["--data-dir", str(data_dir)] if data_dir else []
    return json.loads(run([*pre, "stats", "--ratings", "--json", *args], expect=0).stdout)


def by_name(rows):
    return {r["name"]: r for r in rows}


def hand_plackett_luce(mus, sigmas, ranks):
    """Weng and Lin's Plackett-Luce update (their Algorithm 4) written out from the paper,
    with openskill's defaults: beta = 25/6, tau = 25/300 added to sigma before the play,
    gamma = sigma / c, kappa = 0.0001."""
    beta, tau, kappa = 25 / 6, 25 / 300, 0.0001
    var = [s * s + tau * tau for s in sigmas]
    c = math.sqrt(sum(v + beta * beta for v in var))
    e = [math.exp(m / c) for m in mus]
    n = len(mus)
    big_c = [sum(e[s] for s in range(n) if ranks[s] >= ranks[q]) for q in range(n)]
    a = [sum(1 for s in range(n) if ranks[s] == ranks[q]) for q in range(n)]
    out = []
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] > ranks[i]:
                continue
            p = e[i] / big_c[q]
            omega += (var[i] / c) * ((1.0 if q == i else 0.0) - p) / a[q]
            delta += (math.sqrt(var[i]) / c) * (var[i] / c ** 2) * p * (1 - p) / a[q]
        out.append((mus[i] + omega, math.sqrt(var[i] * max(1 - delta, kappa))))
    return out


def test_a_hand_checked_three_player_example(run):
    # Ann wins, Bob and Cy tie second: ranks 1, 2, 2, everyone new (mu 25, sigma 25/3)
    run(["played", "scoresheet", "--players", "Ann=30,Bob=20,Cy=20"], expect=0)
    got = by_name(ratings(run)["overall"])
    # by hand: c^2 = 3 * ((25/3)^2 + (25/300)^2 + (25/6)^2) = 260.4375, c = 16.1381;
    # Ann: omega = (69.4514 / c) * (1 - 1/3) = +2.8690 -> mu 27.869;
    # Bob, Cy: omega = (69.4514 / c) * (-1/3 + (1 - 1/2)/2 - (1/2)/2) = -1.4345 -> mu 23.566;
    # Ann: delta = (8.3337 / c) * (69.4514 / c^2) * (1/3)(2/3) = 0.03060 -> sigma 8.2052
    assert (got["Ann"]["mu"], got["Bob"]["mu"], got["Cy"]["mu"]) == (27.87, 23.57, 23.57)
    assert got["Ann"]["sigma"] == 8.21 and got["Bob"]["sigma"] == got["Cy"]["sigma"] == 8.06
    assert got["Ann"]["rating"] == round(27.869049 - 3 * 8.205243, 2)
    hand = hand_plackett_luce([25.0] * 3, [25 / 3] * 3, [1, 2, 2])
    for (mu, sigma), name in zip(hand, ["Ann", "Bob", "Cy"]):
        assert abs(got[name]["mu"] - mu) < 0.006 and abs(got[name]["sigma"] - sigma) < 0.006
    assert abs(hand[0][0] - 27.8690) < 1e-4 and abs(hand[1][0] - 23.5655) < 1e-4 and abs(hand[0][1] - 8.2052) < 1e-4
    # a second play follows the same formula from the first's beliefs: Cy now beats Ann, Bob last
    run(["played", "scoresheet", "--players", "Ann=20,Bob=10,Cy=30"], expect=0)
    got = by_name(ratings(run)["overall"])
    second = hand_plackett_luce([hand[0][0], hand[1][0], hand[2][0]], [hand[0][1], hand[1][1], hand[2][1]], [2, 3, 1])
    for (mu, sigma), name in zip(second, ["Ann", "Bob", "Cy"]):
        assert abs(got[name]["mu"] - mu) < 0.006 and abs(got[name]["sigma"] - sigma) < 0.006


PLAYS = [
    ("scoresheet", "Ann=10,Bob=8,Cy=3", "2026-01-01"),
    ("scoresheet", "Bob=12,Cy=12,Dee=1,Eve=4", "2026-01-01"),  # same day, a tie for first
    ("trans-europa", "Ann=4,Bob=0,Cy=2,Dee=1,Eve=3,Fay=5", "2026-01-02"),  # six players
    ("transatlantic", "Ann=40,Bob=35", "2026-01-03"),  # two players
    ("scoresheet", "Cy=9,Ann=9", "2026-01-03"),  # a shared win
]


def test_the_same_plays_give_the_same_numbers_whatever_the_typing_order(run, tmp_path):
    for folder, order in ((tmp_path / "a", PLAYS), (tmp_path / "b", list(reversed(PLAYS)))):
        for game, players, day in order:
            run(["--data-dir", str(folder), "played", game, "--players", players, "--played-on", day], expect=0)
    a, b = ratings(run, data_dir=tmp_path / "a"), ratings(run, data_dir=tmp_path / "b")
    assert a == b
    assert set(a["games"]) == {"scoresheet", "trans-europa", "transatlantic"}
    assert {r["name"] for r in a["overall"]} == {"Ann", "Bob", "Cy", "Dee", "Eve", "Fay"}
    assert by_name(a["overall"])["Ann"]["plays"] == 4
    fay = by_name(a["games"]["trans-europa"])["Fay"]
    assert fay["mu"] > 25 and fay["sigma"] < 25 / 3, "won a six-player game: up, and surer"


def test_ratings_in_the_terminal_show_the_uncertainty_and_filters(run):
    for game, players, day in PLAYS:
        run(["played", game, "--players", players, "--played-on", day], expect=0)
    text = run(["stats", "--ratings"], expect=0).stdout
    assert "skill ± uncertainty" in text and "All games:" in text and "Trans Europa:" in text
    assert " ± " in text.split("All games:")[1]
    only = ratings(run, "--player", "fay")
    assert [r["name"] for r in only["overall"]] == ["Fay"]
    assert set(ratings(run, "--game", "transatlantic")["games"]) == {"transatlantic"}
    since = by_name(ratings(run, "--since", "2026-01-03")["overall"])
    assert {n: r["plays"] for n, r in since.items()} == {"Ann": 2, "Bob": 1, "Cy": 1}
    assert "leave out --html" in run(["stats", "--ratings", "--html", "x.html"], expect=1).stderr


def test_no_plays_to_rate(run):
    assert "No finished plays" in run(["stats", "--ratings"], expect=0).stdout


def test_the_ratings_order_of_finish_is_the_one_stats_uses():
    import random

    from companion.record import ratings as skill
    from companion.record import stats as history
    from companion.record.players import Roster

    rng = random.Random(16)
    roster = Roster({}, [])
    for _ in range(3000):
        names = [f"P{i}" for i in range(rng.randint(2, 6))]
        scores = {p: rng.randint(-3, 6) for p in names}
        pick = rng.random()
        if pick < 0.3:
            winners = [p for p, v in scores.items() if v == max(scores.values())]  # ties shared
        elif pick < 0.6:
            winners = [p for p, v in scores.items() if v == min(scores.values())][:1]  # won low
        else:
            winners = [rng.choice(names)]
        entry = {"id": "x", "game": "g", "players": names, "created": "2026-01-01", "finished": "2026-01-01",
                 "summary": {"scores": scores, "winners": winners}}
        expected = history.Result(entry, roster).ranks
        assert skill.Play(entry, roster.show).ranks == [expected[p] for p in names], (scores, winners)


def test_the_cache_gives_the_numbers_of_rating_everything_again(run, home):
    cache = home / ".local" / "cache" / "ratings.json"
    for game, players, day in PLAYS:
        run(["played", game, "--players", players, "--played-on", day], expect=0)
    first = ratings(run)
    assert cache.is_file()

    def fresh():
        cache.unlink(missing_ok=True)
        return ratings(run)

    # a newer play: only it is rated on top of the cache
    run(["played", "scoresheet", "--players", "Ann=1,Fay=9", "--played-on", "2026-01-04"], expect=0)
    resumed = ratings(run)
    assert resumed != first and resumed == fresh()
    # an older play typed in later: the cached plays are no longer the first, all is rated again
    ratings(run)
    run(["played", "scoresheet", "--players", "Dee=7,Eve=2", "--played-on", "2025-12-31"], expect=0)
    assert ratings(run) == fresh()
    # a rename changes the shown names: rated again, under the new name
    ratings(run)
    run(["player", "rename", "Fay", "Faye"], expect=0)
    renamed = ratings(run)
    assert renamed == fresh() and "Faye" in {r["name"] for r in renamed["overall"]}
    # a damaged or doctored cache is ignored
    cache.write_text('{"version": 1, "n": 1, "digest": "x", "overall": 5}', encoding="utf-8")
    assert ratings(run) == fresh()
    cache.write_text("not json", encoding="utf-8")
    assert ratings(run) == fresh()
    # filtered views never use or write the cache
    before = cache.read_bytes()
    ratings(run, "--game", "scoresheet")
    ratings(run, "--since", "2026-01-02")
    assert cache.read_bytes() == before


def test_the_cache_of_one_game_grows_into_several(run, home):
    run(["played", "scoresheet", "--players", "Ann=3,Bob=1", "--played-on", "2026-02-01"], expect=0)
    run(["played", "scoresheet", "--players", "Ann=1,Bob=3,Cy=2", "--played-on", "2026-02-02"], expect=0)
    ratings(run)
    run(["played", "trans-europa", "--players", "Cy=5,Ann=1", "--played-on", "2026-02-03"], expect=0)
    resumed = ratings(run)
    (home / ".local" / "cache" / "ratings.json").unlink()
    assert resumed == ratings(run)
    assert by_name(resumed["overall"])["Ann"]["plays"] == 3
