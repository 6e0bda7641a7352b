"""The storm engine every game's storm test uses (tests/test_storm_*.py).

A table types wrong things all evening: names nobody has, numbers no game has, stray quotes,
options with a typo, unicode, nothing at all. A hypothesis state machine types such lines,
mixed with valid ones, through the three ways in: a one-off command (`companion CMD ...`),
script mode (the line on standard input) and the interactive shell (prompt_toolkit driven
through a pipe). After every line:

* no traceback is ever shown, and `errors.log` (where an unexpected exception is logged) stays
  absent;
* `status --json` still answers;
* a refused line (exit status not 0; in the shell, an `Error:` line) leaves `status --json`
  exactly as it was, and every file of the data folder byte for byte (the shell's own
  history aside); outside the shell it says what is wrong in exactly one line;
* lines that only show things (`status`, `log`, `stats`, `export` ...) always succeed.

At the end of every run, `undo` until "Nothing to undo" gives the initial `status --json`
back. Each game's storm subclasses :class:`Storm` with its own valid commands (built from the
current state, so the storm gets deep into a game) and its own hostile names. The lines the
storms found broken are kept at the end as plain examples.
"""

from __future__ import annotations

import atexit
import contextlib
import copy
import io
import json
import shlex
import shutil
import tempfile
from pathlib import Path
from typing import Iterable

from click.testing import CliRunner
from hypothesis import HealthCheck, settings
from journal_support import record_bytes
from long_mode import scaled
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, rule
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from companion.core import session as sessions
from companion.core.app import App
from companion.terminal.cli import cli
from companion.terminal.cli import run_shell
from companion.core.store import Store

# Short by default, so that `pytest` stays under 90 s on 2 cores (issue 11); the long CI run
# (COMPANION_LONG_TESTS=1, tests/long_mode.py) runs them at full length, as release 0.1 did.
STORM_SETTINGS = settings(
    max_examples=scaled(4, 25),
    stateful_step_count=scaled(15, 25),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)

MODES = ("argv", "script", "shell")
NOT_DATA = {"shell-history", ".lock"}  # the shell's own history; the lock files (locks/ID.lock too)

# Words a table might type by mistake. None of them is a command name.
HOSTILE_WORDS = [
    "", " ", "''", '""', "'", '"', "\\", "0", "-0", "-1", "+7", "007", "1e3", "3.5", "1,000", "NaN", "inf",
    "99999999999999999999999999", "-99999999999999999999999999", str(2**63), str(-(2**63) - 1),
    "Zed", "zoë", "ZOË", "名前", "Åsa", "\u200b", "😀", "\u202eevil", "a\tb", "O'Brien", 'say "hi"',
    "Ann=", "=5", "Ann==5", "Ann=5=6", "Ann,Bob", ",", "=", "--", "-", "-x", "--no-such-option",
    "--help", "-h", "../x", "..", "a/b", "/", "*", "[", "?", "%s", "{}", "{0}", "$HOME", "`ls`", ";", "|",
    "x" * 300, "9" * 400,
]

# Lines any game's storm may type that must be refused (or at least never break anything).
GENERIC_BAD = [
    ["use", "../x"], ["use", ".."], ["use", "a/b"], ["use", "*"], ["use", "["], ["use", ""], ["use", "zzzzzzzz"],
    ["status", "--session", "../../etc/passwd"], ["log", "--session", "*"], ["--session", "", "status"],
    ["undo", "--session", ".."], ["new"], ["new", "chess", "--players", "Ann,Bob"],
    ["report", "../x"], ["report", "zzzzzzzz"], ["verify", "a/b"], ["verify", "zzzzzzzz"],
    ["data", "show", "chess"], ["data", "show", "scoresheet"], ["data", "set", "chess", "x", "1"],
    ["import", "/nonexistent/companion-export.json"], ["import", ""], ["import", "."],
    ["export", "--format", "yaml"], ["export", "--game", "chess"], ["export", "--player", "Nobody"],
    ["stats", "--since", "yesterday"], ["stats", "--since", "2026-13-45"], ["stats", "--game", "chess"],
    ["stats", "--player", "Nobody"], ["player", "rename", "Nobody", "Somebody"], ["player", "merge", "Nobody", "X"],
    ["board", "../x"], ["board", "chess"], ["help", "nosuch"], ["help", "new", "chess"], ["sessions", "--game"],
    ["sessions", "--json", "--json", "extra"], ["undo", "extra"], ["redo", "--all"], ["finish", "now"],
    # issue 12: hostile names, numbers beyond the one bound, a data folder switched mid-script,
    # a line over the length cap, paths for session ids
    ["new", "scoresheet", "--players", "Ann,-x"], ["new", "scoresheet", "--players=-x,Ann"],
    ["new", "scoresheet", "--players", "A\u202eB,Bob"], ["new", "scoresheet", "--players", "Iso\u2066,Bob"],
    ["new", "scoresheet", "--players", "Zoe\u0308,Zo\u00eb"], ["player", "rename", "--", "Ann", "-x"],
    ["player", "rename", "Ann", "An\u202en"], ["data", "set", "atlantic-star", "refresh_cost", "1e300"],
    ["data", "set", "atlantic-star", "refresh_cost", "100000000000000000000000"],
    ["data", "set", "atlantic-star", "refresh_cost", "NaN"], ["status", "--data-dir", "elsewhere"],
    ["log", "x" * 10_050], ["use", "../../outside/victim"], ["status", "--session", "AAAAAAAA/.."],
    ["shell", "extra"], ["games", "--json"], ["status", "--jsn"], ["status", "--JSON"], ["log", "-j"],
    ["companion"], ["companion", "companion"], ["exit", "now"], ["quit", "now"], ["--"], ["--session", "zz"],
    ["--session"], ["companion", "--"], ["shell"], ["companion", "shell"],
]

# Lines that only show things: they must always succeed while a session is current.
GENERIC_READS = [
    ["status"], ["status", "--json"], ["log"], ["log", "--json"], ["sessions"], ["sessions", "--json"],
    ["games"], ["help"], ["help", "status"], ["report"], ["stats"], ["stats", "--json"], ["players"],
    ["export"], ["export", "--format", "csv"], ["export", "--format", "bgg"], ["data", "check"],
]


def quote(word: str) -> str:
    return shlex.quote(word)


def join(words: Iterable[str]) -> str:
    return " ".join(quote(w) for w in words)


def typo(word: str, draw) -> str:
    """A one-character slip: a letter dropped, doubled, swapped or changed, or the case changed."""
    if not word:
        return "x"
    i = draw(st.integers(0, len(word) - 1))
    kind = draw(st.sampled_from(["drop", "double", "swap", "change", "case"]))
    if kind == "drop":
        return word[:i] + word[i + 1:]
    if kind == "double":
        return word[:i] + word[i] + word[i:]
    if kind == "swap" and i + 1 < len(word):
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    if kind == "case":
        return word.swapcase()
    return word[:i] + draw(st.sampled_from("xqZ-=é'\"")) + word[i + 1:]


@st.composite
def mutated(draw, base: st.SearchStrategy, extra_words: list[str]) -> str:
    """A valid command line with one to three slips: the lines a tired table types."""
    words = list(draw(base))
    vocabulary = HOSTILE_WORDS + extra_words
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["replace", "drop", "insert", "repeat", "typo", "swap"]))
        i = draw(st.integers(0, max(len(words) - 1, 0)))
        if op == "insert" or not words:
            words.insert(i, draw(st.sampled_from(vocabulary)))
        elif op == "replace" and i > 0:  # the command word stays: the storm aims at the arguments
            words[i] = draw(st.sampled_from(vocabulary))
        elif op == "drop" and len(words) > 1:
            del words[i]
        elif op == "repeat":
            words.insert(i, words[i])
        elif op == "typo":
            words[i] = typo(words[i], draw)
        elif op == "swap" and len(words) > 1:
            j = draw(st.integers(0, len(words) - 1))
            words[i], words[j] = words[j], words[i]
    line = join(words) if draw(st.booleans()) else " ".join(words)  # quoted, or raw as typed
    if draw(st.integers(0, 7)) == 0:  # cut off mid-line (an unbalanced quote, a half option)
        line = line[: draw(st.integers(0, len(line)))]
    return line


# Any text at all, as long as it is one line (the shell's control keys are tested elsewhere).
junk = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r\x00\x03\x04\x1b\x7f"),
    max_size=40,
).map(lambda s: "".join(c if c == "\t" or ord(c) >= 32 else " " for c in s))


def weighted(*choices: tuple[int, st.SearchStrategy]) -> st.SearchStrategy:
    """One of the strategies, each as often as its weight says."""
    return st.one_of(*[strategy for weight, strategy in choices for _ in range(weight)])


def one_line(text: str) -> str:
    return "".join(" " if c in "\n\r\x00" else c for c in text)


_copied: dict[str, dict] = {}


def copying_replay(session: sessions.Session) -> dict:
    """The state as replay computed it before issue 12: ``Game.apply`` at every event, which
    copies the whole state each time (quadratic, but obviously isolated). Computed once per
    process for the same description and events (the last 16 kept): a test asks again for the
    state of a journal it has not changed (issue 29, item 7); each caller gets its own copy."""
    done, _ = session.fold()
    key = json.dumps([session.meta, [entry["event"] for entry in done]], sort_keys=True, default=repr)
    if key not in _copied:
        data = dict(session.meta.get("data") or {})
        state = session.game.initial(session.setup, data)
        for entry in done:
            data = sessions.with_frozen(data, entry["event"])
            state = session.game.apply(state, entry["event"], data)
        while len(_copied) >= 16:
            del _copied[next(iter(_copied))]
        _copied[key] = state
    return copy.deepcopy(_copied[key])


class Storm(RuleBasedStateMachine):
    """The engine: subclasses set SETUP and define ``valid`` (and may add hostile lines)."""

    GAME = "scoresheet"
    SETUP: list[list[str]] = []  # command lines (as words) that start the session; must succeed
    OPENING: str = ""  # script lines played after SETUP, to start the storm deep in a game
    NAMES: list[str] = []  # game words worth misspelling (players, seas, cities, ships ...)
    _templates: dict = {}

    def __init__(self):
        super().__init__()
        template, self.sid, self.initial = self.template()
        self.root = Path(tempfile.mkdtemp(prefix="companion-storm-"))
        shutil.copytree(template, self.root, dirs_exist_ok=True)
        self.runner = CliRunner()
        self.trail: list[str] = []  # the lines typed so far, for the failure message
        self.store = Store(self.root)
        self.before = self.status()

    @classmethod
    def template(cls) -> tuple[Path, str, dict]:
        """The data folder every run starts from, built once per storm: (folder, session, status
        right after `new`, which undoing everything must give back)."""
        if cls not in Storm._templates:
            builder = cls.__new__(cls)
            builder.root = Path(tempfile.mkdtemp(prefix="companion-storm-template-"))
            builder.runner = CliRunner()
            builder.trail = ["(template)"]
            builder.prepare()
            for words in cls.SETUP:
                builder.must(words)
            builder.sid = json.loads(builder.must(["status", "--json"])[1])["session"]
            initial = builder.status()
            if cls.OPENING:
                code, out, err = builder.invoke([], input=cls.OPENING)
                assert code == 0, ("the opening must play", err)
            Storm._templates[cls] = (builder.root, builder.sid, initial)
            atexit.register(shutil.rmtree, builder.root, True)
        return Storm._templates[cls]

    # -- hooks for each game ------------------------------------------------------------------
    def prepare(self) -> None:
        """Anything the data folder needs before SETUP (a ship catalogue, printed values)."""

    def valid(self) -> st.SearchStrategy:
        """Command lines (lists of words) the rules should accept in the current state."""
        raise NotImplementedError

    def hostile(self) -> list[list[str]]:
        """The game's own lines that should be refused (unknown cities, impossible numbers ...)."""
        return []

    def reads(self) -> list[list[str]]:
        """The game's own lines that only show things and must succeed."""
        return []

    ANSWERS: list[str] = []  # answers that make sense to the game's questions in the shell

    def asking(self) -> list[list[str]]:
        """Lines after which the shell asks questions (a value left out, a card not known)."""
        return []

    # -- state as the tests see it ---------------------------------------------------------------
    def replay(self) -> sessions.Replay:
        """The session replayed (kept while its file is unchanged: a long game takes a while)."""
        raw = self.store.session_path(self.sid).read_bytes()
        if getattr(self, "_replayed", (None,))[0] != raw:
            self._replayed = (raw, sessions.load(self.store, self.sid).replay())
        return self._replayed[1]

    @property
    def state(self) -> dict:
        return self.replay().state

    # -- the three ways in -----------------------------------------------------------------------
    def invoke(self, words: list[str], input: str | None = None) -> tuple[int, str, str]:
        result = self.runner.invoke(cli, ["--data-dir", str(self.root), *words], input=input)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise AssertionError(f"{words!r} let {type(result.exception).__name__} escape") from result.exception
        return result.exit_code, result.stdout, result.stderr

    def shell(self, text: str) -> tuple[int, str, str]:
        """Type ``text`` into a fresh shell; the input ends there (Ctrl-D answers any question)."""
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            with create_pipe_input() as pipe:
                pipe.send_text(text + "\n")
                pipe.close()
                with create_app_session(input=pipe, output=DummyOutput()):
                    run_shell(App(self.root), input=pipe, output=DummyOutput())
        stopped = "Error:" in err.getvalue() or "Stopped; nothing was recorded." in err.getvalue()
        return (1 if stopped else 0), out.getvalue(), err.getvalue()

    def type_line(self, line: str, mode: str, words: list[str] | None = None) -> tuple[int, str, str]:
        if mode == "shell":
            return self.shell(line)
        if mode == "argv":
            if words is None:
                try:
                    words = shlex.split(line, comments=True)
                except ValueError:
                    words = None
            if words is not None and words[:1] != ["shell"]:
                return self.invoke(words)
        return self.invoke([], input=line + "\n")

    def must(self, words: list[str]) -> tuple[int, str, str]:
        code, out, err = self.invoke(words)
        assert code == 0, (words, out, err)
        return code, out, err

    def status(self) -> dict:
        code, out, err = self.invoke(["status", "--json", "--session", self.sid])
        assert code == 0, ("status --json must always answer", self.trail, err)
        return json.loads(out)

    def files(self) -> dict[str, bytes]:
        # cache/ holds only what is derived from the data (replay snapshots, the ratings, the
        # index's last check, the names' spellings: deleting it loses nothing), which a command
        # that only shows things may keep (issue 23); and the index's record of checks (issue 30)
        return {str(p.relative_to(self.root)): record_bytes(p) for p in sorted(self.root.rglob("*"))
                if p.is_file() and p.name not in NOT_DATA and not p.name.endswith(".lock")
                and p.relative_to(self.root).parts[:2] != (".local", "cache")}

    # -- one line, and what must hold after it ---------------------------------------------------
    def step(self, line: str, mode: str, words: list[str] | None = None, must_succeed: bool = False,
             answers: bool = False) -> int:
        line = line if answers else one_line(line)
        self.trail.append(f"[{mode}] {line}")
        files = self.files()
        code, out, err = self.type_line(line, mode, words)
        where = f"after {self.trail!r}"
        assert "Traceback" not in out + err, (where, out, err)
        assert "Something went wrong" not in err, (where, err)
        assert not (self.root / ".local" / "errors.log").exists(), (where, (self.root / ".local" / "errors.log").read_text())
        if mode != "shell":  # no control character from data or input reaches the terminal (issue 12)
            assert not any(c in out + err for c in "\x1b\x07\u202e\u2066"), (where, out, err)
        if must_succeed:  # a line that only shows things: it answers, and writes nothing
            assert code == 0, (where, out, err)
            assert self.files() == files, f"a line that only shows things wrote to the data folder {where}"
        after = self.status()
        if code and not answers:
            assert after == self.before, f"a refused line changed the status {where}: {err}"
            assert self.files() == files, f"a refused line changed the data folder {where}: {err}"
            if mode != "shell":
                lines = [x for x in err.splitlines() if x.strip()]
                assert len(lines) == 1, f"a refusal must be one line {where}: {err!r}"
        if self.store.current() != self.sid:  # a `use` or `new` that worked: back to our session
            self.must(["use", self.sid])
        self.before = after
        return code

    # -- the rules of the storm ------------------------------------------------------------------
    @rule(data=st.data(), mode=st.sampled_from(MODES))
    def valid_line(self, data, mode):
        words = list(data.draw(self.valid(), label="valid"))
        self.step(join(words), mode, words=words)

    @rule(data=st.data(), mode=st.sampled_from(MODES))
    def mistyped_line(self, data, mode):
        self.step(data.draw(mutated(self.valid(), self.NAMES), label="mistyped"), mode)

    @rule(data=st.data(), mode=st.sampled_from(MODES))
    def known_bad_line(self, data, mode):
        game_bad = self.hostile()
        pool = GENERIC_BAD + [["new", self.GAME, *rest] for rest in (
            [], ["--players", ""], ["--players", ",,"], ["--players", "A" * 30 + ",B"], ["--players", "Ann,ann"],
            ["--players", "Ann,Bob", "--start", "Zed"], ["--players", "Ann\tB,Cy"], ["--players", "A=1,B"],
            ["--players", ",".join(f"P{i}" for i in range(40))])]
        words = data.draw(st.sampled_from(game_bad + pool if game_bad else pool), label="bad")
        self.step(join(words), mode, words=words)

    @rule(line=junk, mode=st.sampled_from(MODES))
    def junk_line(self, line, mode):
        self.step(line, mode)

    @rule(data=st.data(), mode=st.sampled_from(MODES))
    def read_line(self, data, mode):
        words = data.draw(st.sampled_from(GENERIC_READS + self.reads()), label="read")
        self.step(join(words), mode, words=words, must_succeed=True)

    @rule(mode=st.sampled_from(MODES), kind=st.sampled_from(["undo", "redo"]))
    def undo_or_redo(self, mode, kind):
        self.step(kind, mode, words=[kind])

    @rule(data=st.data())
    def answered_in_the_shell(self, data):
        """A line the shell asks questions about, answered with anything at all. (Answers it does
        not ask for run as commands, so this rule checks only that nothing breaks.)"""
        words = data.draw(st.sampled_from(self.asking() or [["status"]]), label="asking")
        answers = data.draw(st.lists(st.sampled_from(HOSTILE_WORDS + self.ANSWERS), max_size=4), label="answers")
        self.step("\n".join([join(words), *answers]), "shell", answers=True)

    def teardown(self):
        try:
            self.replay_matches_the_copying_replay()
            self.undo_everything()
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def replay_matches_the_copying_replay(self) -> None:
        """Replay changes one working state in place (issue 12): it must give exactly the state
        of the old replay, which deep-copied the whole state at every event."""
        session = sessions.load(self.store, self.sid)
        assert session.replay().state == copying_replay(session), f"replay differs after {self.trail!r}"

    def undo_everything(self) -> None:
        """`undo` until "Nothing to undo", as a script (one `undo` a line, stopped by the first
        refusal): a command a line cost a start of the command line each, a second a storm."""
        limit = 2 * len(sessions.load(self.store, self.sid).journal) + 2
        code, out, err = self.invoke([], input=f"undo --session {self.sid}\n" * limit)
        if not code:
            raise AssertionError(f"undo never reached the start after {self.trail!r}")
        assert "Nothing to undo" in err and err.count("\n") == 1, (self.trail, err)
        assert self.status() == self.initial, f"undoing everything did not give the start back after {self.trail!r}"
