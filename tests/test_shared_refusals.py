"""Issue 27: the refusals every game shares are worded once (companion.contract.errors), so
the framework, each game's rules and the phones' pages say the same words."""

from pathlib import Path

from companion.contract.errors import game_over

ROOT = Path(__file__).resolve().parent.parent / "companion"


def test_game_over_has_one_wording():
    assert game_over() == "The game is over: only `undo` can change it now."
    assert game_over("on the laptop") == "The game is over: only `undo` (on the laptop) can change it now."


def test_no_module_words_the_game_over_refusal_itself():
    """Only contract/errors.py holds the words; a game or a surface calls game_over()."""
    found = [str(path.relative_to(ROOT.parent)) for path in ROOT.rglob("*.py")
             if not (path.name == "errors.py" and path.parent.name == "contract")
             and "The game is over: only" in path.read_text(encoding="utf-8")]
    assert not found, found


def test_a_move_after_the_end_is_refused_in_those_words(run):
    run(["new", "scoresheet", "--players", "Ann,Bob", "--target", "10"], expect=0)
    run(["add", "Ann=10", "Bob=3"], expect=0)
    out = run(["add", "Ann=1", "Bob=1"])
    assert out.exit_code != 0
    assert game_over() in out.output + (out.stderr or "")
