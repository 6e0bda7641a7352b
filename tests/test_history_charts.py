"""Honest charts: every line of one chart shares its scale, and the scale is printed."""

from __future__ import annotations

import json

from companion.terminal.render import scale_words, sparkline


def test_sparkline_with_a_shared_scale():
    assert sparkline([7], 0, 14) != sparkline([14], 0, 14)
    assert sparkline([7, 14], 0, 14) == "▅█"
    assert sparkline([0, 7], 0, 14) == "▁▅"
    assert sparkline([7]) == "▄", "one value alone has no scale"
    assert scale_words(0, 52) == "▁ = 0 … █ = 52"


def test_stats_recent_scores_are_per_game_on_one_scale(run):
    run(["played", "scoresheet", "--players", "Ann=7,Bob=14"], expect=0)
    run(["played", "scoresheet", "--players", "Ann=14,Bob=0"], expect=0)
    run(["played", "trans-europa", "--players", "Ann=5,Bob=0"], expect=0)
    text = run(["stats"], expect=0).stdout
    block = text.split("Recent scores per game")[1]
    assert "Score sheet (▁ = 0 … █ = 14)" in block and "Trans Europa (▁ = 0 … █ = 5)" in block
    sheet = block.split("Trans Europa")[0]
    assert "Ann  ▅█  7 14" in sheet and "Bob  █▁  14 0" in sheet, "7 is half way, 14 the top, for both"
    assert "win rate (bar: 0 … 100%)" in text
    only = run(["stats", "--game", "trans-europa"], expect=0).stdout
    assert "Score sheet (" not in only and "Trans Europa (▁ = 0 … █ = 5)" in only
    st = json.loads(run(["stats", "--json"], expect=0).stdout)
    ann = next(p for p in st["players"] if p["name"] == "Ann")
    assert ann["games"]["scoresheet"]["recent"] == [7, 14] and ann["recent"] == [7, 14, 5]


def test_stats_html_draws_one_chart_per_game(run, tmp_path):
    run(["played", "scoresheet", "--players", "Ann=7,Bob=14"], expect=0)
    run(["played", "trans-europa", "--players", "Ann=5,Bob=0"], expect=0)
    out = tmp_path / "s.html"
    run(["stats", "--html", str(out)], expect=0)
    html = out.read_text(encoding="utf-8")
    assert "Score sheet: each player&#x27;s last scores" in html and "Trans Europa: each player&#x27;s last scores" in html


def test_report_shares_one_scale_between_players(run):
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    run(["add", "Ann=7", "Bob=1"], expect=0)
    run(["add", "Ann=0", "Bob=20"], expect=0)
    text = run(["report"], expect=0).stdout
    assert "by round (▁ = 0 … █ = 21)" in text
    assert "Ann          7             ▁▃▃" in text and "Bob         21             ▁▁█" in text
