"""Junction names, paths and the board drawing, on the shipped boards and small cut-outs.

A junction is named by the column letter and row number printed on the drawing's margins,
and by its city's name or abbreviation; a path is junctions joined by '-', and every step
must be a line of the board. Refusals are one line naming the bad step.
"""

from __future__ import annotations

import pytest

from companion.games.trans import board as boards
from companion.games.trans import boardview
from companion.games.trans.board import Board
from companion.contract.errors import CompanionError, RuleError
from companion.terminal.render import draw


def to_text(view, width: int = 100, color: bool = False) -> str:
    """A board view drawn by the terminal's renderer (issue 20: boardview makes views now)."""
    return draw(view, width=width, colour=color)


@pytest.fixture(scope="module")
def amerika() -> Board:
    return boards.load("trans-amerika")


@pytest.fixture(scope="module")
def europa() -> Board:
    return boards.load("trans-europa")


def piece(double_kinds=None) -> Board:
    """The north-west corner of the Amerika board (Seattle, Portland, Helena), as literals."""
    return Board.from_values({
        "board": {
            "rows": ["oooo", "oooo", "oooo"],
            "double_edges": [[[0, 0], [1, 0]], [[0, 0], [1, 1]], [[0, 1], [1, 1]], [[0, 1], [1, 2]],
                             [[0, 2], [1, 2]], [[2, 0], [2, 1]], [[2, 1], [3, 1]], [[3, 1], [3, 2]]],
            "disputed_double_edges": [],
        },
        "cities": [
            {"name": "Seattle", "colour": "green", "xy": [0, 0], "dashed": True},
            {"name": "Portland", "colour": "green", "xy": [0, 1], "dashed": False},
            {"name": "Helena", "colour": "blue", "xy": [3, 1], "dashed": False},
        ],
        "colours": ["green", "blue"],
        "double_kinds": double_kinds,
    }, "trans-amerika")


# -- names ----------------------------------------------------------------------------------
def test_junctions_are_named_by_column_letter_and_row_number(amerika, europa):
    assert amerika.coord[amerika.junction("Seattle")] == "B1"
    assert amerika.coord[amerika.junction("Portland")] == "A2"
    assert amerika.coord[amerika.junction("Jacksonville")] == "O13"
    assert europa.coord[europa.junction("Paris")] == "F7"
    for b in (amerika, europa):
        assert len(set(b.coord)) == len(b.xy)
        assert all(b.junction(name) == v for v, name in enumerate(b.coord))


def test_a_column_zigzags_down_the_board(amerika):
    """Row by row, a junction's neighbours below are in its own column and the next one."""
    for v, (x, y) in enumerate(amerika.xy):
        below = [n for n in amerika.adj[v] if amerika.xy[n][1] == y + 1]
        columns = sorted(amerika.column[n] - amerika.column[v] for n in below)
        assert set(columns) <= ({-1, 0} if y % 2 == 0 else {0, 1})


def test_cities_abbreviations_and_coordinates_all_name_junctions(amerika, europa):
    assert amerika.junction("San Diego") == amerika.junction("SDi") == amerika.junction("C11")
    assert amerika.junction("st louis") == amerika.junction("St. Louis")
    assert europa.junction("Zurich") == europa.junction("Zürich") == europa.junction("zür")
    assert amerika.junction("c011") == amerika.junction("C11")
    assert amerika.name(amerika.junction("C11")) == "San Diego"
    assert amerika.name(amerika.junction("D11")) == "D11"


def test_abbreviations_are_unique_and_three_letters(amerika, europa):
    for b in (amerika, europa):
        labels = [c.abbr for c in b.cities]
        assert len({boards.fold(a) for a in labels}) == len(labels) == 35
        assert all(len(a) == 3 for a in labels)
    assert {c.name: c.abbr for c in amerika.cities}["Salt Lake City"] == "SLC"


def test_an_unknown_junction_is_refused_with_a_suggestion(amerika):
    with pytest.raises(RuleError, match="no junction called 'Dalas'.*Did you mean Dallas"):
        amerika.junction("Dalas")
    with pytest.raises(RuleError, match="no junction called 'Z99'"):
        amerika.junction("Z99")


def test_maps_are_named_as_people_say_them():
    assert boards.resolve_map("Amerika") == boards.resolve_map("america") == "trans-amerika"
    assert boards.resolve_map("europa") == "trans-europa"
    with pytest.raises(CompanionError, match="type amerika or europa"):
        boards.resolve_map("asia")


# -- paths ------------------------------------------------------------------------------------
def test_a_path_is_junctions_joined_by_dashes(europa):
    edges = europa.parse_path("Paris-E7-E6-D6")
    assert [europa.edge_name(e) for e in edges] == ["E7-Paris", "E6-E7", "D6-E6"]
    assert europa.parse_path(" paris - e7 ") == europa.parse_path("Paris-E7")


def test_a_step_that_is_not_a_line_is_refused_naming_it(europa):
    with pytest.raises(RuleError) as err:
        europa.parse_path("Paris-E6-E8")
    message = str(err.value)
    assert "E6-E8 is not a line on the board" in message
    assert "\n" not in message


def test_a_path_refuses_unknown_names_single_junctions_and_repeats(europa):
    with pytest.raises(RuleError, match="no junction called 'Lutetia'"):
        europa.parse_path("Paris-Lutetia")
    with pytest.raises(RuleError, match="single junction"):
        europa.parse_path("Paris")
    with pytest.raises(RuleError, match="twice"):
        europa.parse_path("Paris-E7-Paris")
    with pytest.raises(RuleError, match="goes nowhere"):
        europa.parse_path("Paris-Paris")


def test_several_paths_make_one_list_of_lines(amerika):
    edges = amerika.parse_paths(["Seattle-B2, Portland-B2", "Seattle-B2"])
    assert [amerika.edge_name(e) for e in edges] == ["Seattle-B2", "Portland-B2"]


def test_a_city_name_holding_a_dash_still_parses():
    board = Board.from_values({
        "board": {"rows": ["ooo"], "double_edges": [], "disputed_double_edges": []},
        "cities": [{"name": "Winston-Salem", "colour": "red", "xy": [0, 0], "dashed": False}],
        "colours": ["red"],
    }, "trans-amerika")
    assert [board.edge_name(e) for e in board.parse_path("Winston-Salem-B1-C1")] == [
        "Winston-Salem-B1", "B1-C1"]


def test_paths_listed_back_as_few_walks(amerika):
    edges = amerika.parse_paths(["Seattle-B2-C2", "B2-Portland"])
    walks = boards.paths(edges)
    assert sum(len(w) - 1 for w in walks) == 3
    assert len(walks) == 2


# -- costs and the network --------------------------------------------------------------------
def test_double_lines_cost_two(amerika):
    assert amerika.cost[amerika.parse_path("Seattle-C1")[0]] == 2
    assert amerika.cost[amerika.parse_path("Seattle-Portland")[0]] == 1
    assert sum(1 for c in amerika.cost.values() if c == 2) == 109
    assert len(amerika.cost) == 509 and len(amerika.xy) == 188


def test_double_kinds_may_be_given_as_paths_of_junction_names():
    board = piece({"water": ["Seattle-C1"], "mountain": [[[2, 0], [2, 1]]]})
    costs = board.costs(["water"])
    assert costs[board.parse_path("Seattle-C1")[0]] == 1
    assert costs[board.parse_path("Seattle-B2")[0]] == 2
    costs = board.costs(["water", "mountain"])
    assert sum(1 for c in costs.values() if c == 2) == 6


def test_a_kind_that_is_not_water_or_mountain_is_refused():
    with pytest.raises(RuleError, match="type water or mountain"):
        piece({"water": []}).costs(["lava"])


def test_the_network_is_every_junction_joined_to_the_start_by_rails(amerika):
    built = amerika.parse_paths(["Seattle-B2-C2", "E5-F5"])
    network = amerika.network(amerika.junction("Seattle"), built)
    assert {amerika.name(v) for v in network} == {"Seattle", "B2", "C2"}


def test_two_or_three_players_draw_from_the_cards_without_dashed_border(amerika):
    assert [len(cs) for cs in amerika.hands_colours()] == [7] * 5
    assert [len(cs) for cs in amerika.hands_colours(3)] == [5] * 5
    assert "San Diego" not in {c.name for cs in amerika.hands_colours(2) for c in cs}


# -- the drawing ----------------------------------------------------------------------------
def test_every_junction_sits_under_its_column_letter_beside_its_row_number(amerika, europa):
    for b in (amerika, europa):
        lines = to_text(boardview.draw(b, legend=False), width=200).split("\n")
        header = lines[0]
        for v, (x, y) in enumerate(b.xy):
            line = lines[1 + 2 * y]
            col = 4 * b.column[v] + 2 * (y % 2) + boardview.MARGIN
            letter_at = col + 1 if y % 2 == 0 else col - 1
            assert header[letter_at] == b.coord[v][0]
            assert line[:4].strip() == str(y + 1) == line.split()[-1]
            city = b.city_at(v)
            assert line[col - 1:col + 2] == city.abbr if city else line[col] == "•"


def test_the_drawing_marks_double_lines_and_lists_the_cities(amerika):
    text = to_text(boardview.draw(amerika), width=120)
    assert "Sea══•" in text  # Seattle's double line east
    assert "═══ ‖ double line, 2 rails" in text
    assert "SDi San Diego" in text and "SLC Salt Lake City" in text


def test_disputed_double_lines_are_marked(europa):
    text = to_text(boardview.draw(europa), width=120)
    assert "=?= ? disputed double (counted 2)" in text


def test_rails_and_start_markers_are_drawn_in_the_players_colours(amerika):
    built = amerika.parse_paths(["Seattle-B2-C2"])
    drawing = boardview.draw(amerika, rails={e: "player:0" for e in built},  # issue 20: the view's style names
                             markers={amerika.junction("E5"): "player:0"},
                             notes=[("Ann: red", "player:0")])
    plain = to_text(drawing, width=120)
    assert "◆" in plain and "Ann: red" in plain
    assert "╲" in plain and "━━━" in plain
    coloured = to_text(drawing, width=120, color=True)
    assert "\x1b[1;38;5;161m" in coloured  # the first seat's red, bold
