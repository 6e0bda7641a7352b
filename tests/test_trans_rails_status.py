"""What `status`, `status --json` and `board` show of the recorded board, keeping every key
they had before the board was recorded."""

from __future__ import annotations

from companion.core.app import App
from companion.contract.declare import At
from companion.games.trans import views  # issue 20: the screens are views (were commands.render_board/render_map)
from companion.terminal.render import draw

SETUP = (
    'new trans-amerika --players Ann,Bob,Cy,Dee --entropy "x"\n'
    "round start --physical\n"
    'hand Ann --set "San Diego,Dallas,St. Louis,Cincinnati,Washington"\n'
    "start Ann San Diego\nstart Bob Los Angeles\nstart Cy E5\n"
)
OLD_KEYS = {"players", "round", "round_open", "finished", "winners", "map", "scoring", "variant", "start_player",
            "special", "special_text", "special_from", "physical", "revealed", "waiting_for", "pending", "history",
            "session", "game", "title", "created", "finished_at", "commitment"}
NEW_KEYS = {"rails_built", "rails_left", "rails", "connected", "round_over", "rails_out", "finishing", "turn",
            "balanced", "balance"}


def test_status_json_keeps_its_keys_and_adds_the_board(script, status, run):
    run(["new", "trans-amerika", "--players", "Ann,Bob", "--entropy", "x"], expect=0)
    fresh = status()
    assert OLD_KEYS | NEW_KEYS <= set(fresh)
    assert fresh["rails_built"] == 0 and fresh["rails_left"] == 85 and fresh["turn"] is None
    assert set(fresh["players"][0]) == {"name", "score", "rounds", "cities", "start", "connected", "network", "rails"}
    code, out, err = script(SETUP + "start Dee Omaha\nbuild Ann San Diego-D11\nbuild Bob Los Angeles-San Diego\n")
    assert code == 0, err
    st = status()
    assert st["rails_built"] == 2 and st["rails_left"] == 83
    assert st["rails"] == [{"line": "San Diego-D11", "player": "Ann"}, {"line": "Los Angeles-San Diego", "player": "Bob"}]
    ann, bob, cy, dee = st["players"]
    assert (ann["start"], bob["start"], cy["start"], dee["start"]) == ("San Diego", "Los Angeles", "E5", "Omaha")
    assert ann["network"] == ["Ann", "Bob"] and bob["network"] == ["Ann", "Bob"] and cy["network"] == ["Cy"]
    assert (ann["rails"], bob["rails"], cy["rails"]) == (1, 1, 0)
    assert not any(p["connected"] for p in st["players"]) and st["connected"] == [] and not st["round_over"]
    assert st["turn"]["player"] == "Bob" and st["turn"]["number"] == 2


def test_status_text_says_where_the_board_stands(script, run):
    code, out, err = script(SETUP)
    assert code == 0, err
    text = run(["status"], expect=0).stdout
    text = unwrap(text)  # long lines wrap at 80 columns, continued indented
    assert "Start markers: Ann San Diego, Bob Los Angeles, Cy E5, Dee -. Rails: 0 on the board, 85 left in the box." in text
    assert "Next: `start NAME JUNCTION` for Dee, then `build NAME PATH`." in text
    code, out, err = script("start Dee Omaha\nbuild Ann San Diego-D11\nbuild Bob Los Angeles-San Diego\n")
    text = run(["status"], expect=0).stdout
    assert "Shared networks: Ann and Bob." in text
    assert "Turn 2 (lap 1): Bob, 1 of 2 rails' worth placed." in text
    assert "Next: `build NAME PATH` as the rails go down" in text


def test_the_session_board_draws_markers_and_rails_by_player(script, run, home):
    code, out, err = script(SETUP + "start Dee Omaha\nbuild Ann San Diego-D11-E11\nbuild Cy E5-F5\n")
    assert code == 0, err
    text = run(["board"], expect=0).stdout
    assert "Round 1: 3 rails on the board, 82 left in the box." in text
    assert "◆ ━━━ Ann: start San Diego; 2 rails built; own network" in text
    assert "◆ ━━━ Cy: start E5; 1 rail built; own network" in text
    assert "◆" in text.split("Junctions:")[0]  # Cy's marker stands on a junction without a city
    assert "━━━" in text.split("Junctions:")[0]
    from companion.core import session

    app = App(home, interactive=True)
    s = session.load(app.store, app.store.current())
    coloured = draw(views.board_view(At(s, s.replay(), None, host=app)), colour=True)
    # issue 20: the players' colours are their seat colours, the same on every screen and page
    assert "\x1b[1;38;5;161m" in coloured  # Ann's rails and legend line: the first seat's red
    assert "\x1b[1;38;5;62m" in coloured  # Bob's blue


def test_board_map_uses_the_players_values_and_real_orange(run, home):
    app = App(home, interactive=True)
    text = draw(views.map_view(At(host=app), "trans-amerika"), colour=True)
    assert "38;5;208" in text  # orange cities in orange (256 colours), not in bright red
    plain = run(["board", "amerika"], expect=0).stdout
    assert "SDi" in plain and "\x1b[" not in plain


def unwrap(text: str) -> str:
    """The text with every wrapped line joined again (a continuation starts with spaces)."""
    import re

    return re.sub(r"\n +(?=\S)", " ", text)
