"""A name's width on the screen is counted as a terminal draws it, by wcwidth (issue 29): a
Devanagari vowel sign or a combining accent takes no column, a family emoji joined by
zero-width joiners two. Counted per code point, `अंजलि` was 5 columns, and the columns after it
in every table stood one off."""

from __future__ import annotations

from wcwidth import wcswidth

from companion.terminal.render import _width, cut, table

FAMILY = "\U0001F468\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466"


def test_widths_are_the_terminals():
    assert _width("अंजलि") == 4
    assert _width(FAMILY) == 2
    assert _width("Zoe\u0301") == 3  # e and a combining acute accent: one column
    assert _width("李雷") == 4 and _width("Ann") == 3
    assert _width("Ann\x1b") == 4 and _width("Zoë\x1b") == 3 + 4  # a control character: its escape, \x1b


def test_a_cut_never_splits_a_letter_from_its_accent_nor_an_emoji():
    assert cut("Zoe\u0301 Zoe\u0301", 4) == "Zoe\u0301…"
    assert cut(FAMILY * 3, 5) == FAMILY * 2 + "…"
    assert _width(cut("अंजलि अंजलि", 6)) <= 6


def test_table_columns_line_up_after_such_names():
    text = table(["player", "game", "wins"], [["अंजलि", "Azul", 1], ["Ann", "Azul", 2], [FAMILY, "Azul", 3]])
    rows = text.splitlines()[2:]
    assert [wcswidth(r[:r.index("Azul")]) for r in rows] == [wcswidth(rows[1][:rows[1].index("Azul")])] * 3


def test_stats_lines_up_a_devanagari_name(run):
    run(["played", "Azul", "--players", "अंजलि=3,Ann=5"], expect=0)
    out = run(["stats"], expect=0).stdout
    per_game = [line for line in out.splitlines() if "Azul" in line and line.startswith(("Ann ", "अंजलि "))]
    starts = {wcswidth(line[:line.index("Azul")]) for line in per_game}
    assert len(per_game) == 2 and len(starts) == 1, per_game
    chart = [line for line in out.splitlines() if line.startswith("    ") and ("▁" in line or "█" in line)]
    assert len({wcswidth(line[:line.index(next(c for c in line if c in "▁█"))]) for line in chart}) == 1, chart


def test_the_letters_counted_without_wcwidth_are_one_column_each_for_wcwidth_too():
    from wcwidth import wcwidth

    from companion.terminal.render import ONE_COLUMN_EACH

    quick = [chr(c) for c in range(0x20, 0x3000) if ONE_COLUMN_EACH.fullmatch(chr(c))]
    assert len(quick) > 1000 and all(wcwidth(c) == 1 for c in quick)
    assert not ONE_COLUMN_EACH.fullmatch("e\u0301") and not ONE_COLUMN_EACH.fullmatch("\u0430\u0483")
