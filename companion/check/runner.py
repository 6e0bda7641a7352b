"""Playing one game as `companion check` does, and what failed.

For one game, in data folders of its own (a temporary folder, never the user's):

1. its declared ``PLAYTHROUGH``, line by line as a shell runs it;
2. for each seed, random legal play from the playthrough's ``new`` line to the end of the game
   (or ``moves`` moves), with a twin run beside it that differs only in its secrets (see
   :mod:`companion.check`).

After every line or move: the state kept equals a fresh replay of the journal, and undo then
redo gives the same state back; after every move of a random run, every surface of every
viewer whose view is the same in both runs is the same bytes in both.
"""

from __future__ import annotations

from companion.contract.language import N_, _, ngettext  # noqa: F401

import json
import random
import shlex
import shutil
import tempfile
from pathlib import Path

from companion.check import chooser, leaks
from companion.check.surfaces import Viewed, typed

SWAP_EVERY = 3  # moves between two swaps of a dealing game's twin (see Twin.swap)
TRIES = 40  # random moves tried at one point before the run is said to be stuck
SHOWN_PER_GAME = 20  # failure lines per game at most (the rest are counted)


class Failure:
    """One thing wrong: the game, where (the playthrough's line, or a seed's move), the
    surface (or the check) and what it found."""

    def __init__(self, game: str, where: str, surface: str, found: str, details: dict | None = None):
        self.game, self.where, self.surface, self.found = game, where, surface, found
        self.details = dict(details or {})  # seed, line, move, value, twin, whose: as far as known

    def line(self) -> str:
        return f"{self.game}: {self.where}: {self.surface}: {self.found}"

    def as_json(self) -> dict:
        return {"game": self.game, "where": self.where, "surface": self.surface, "found": self.found,
                **self.details}


class Report:
    """What one game's check did and found."""

    def __init__(self, game: str):
        self.game = game
        self.failures: list[Failure] = []
        self.lines = 0  # playthrough lines run
        self.moves = 0  # random moves recorded, over every seed
        self.finished = 0  # seeds whose game reached its end
        self.seeds = 0
        self.compared = 0  # surfaces compared with the twin's
        self.at = ""  # the line or move being checked (where a failure of the game's code happened)
        self.context: dict = {}  # what a failure there says of it in JSON (seed, line, move)
        self._seen: set = set()

    def fail(self, where: str, surface: str, found: str, key=None, **details) -> None:
        """Record a failure; one with the same ``key`` as an earlier one is the same failure
        seen again (a leak stays on a page move after move) and is not repeated."""
        if key is not None:
            if key in self._seen:
                return
            self._seen.add(key)
        self.failures.append(Failure(self.game, where, surface, found, {**self.context, **details}))

    def as_json(self) -> dict:
        return {"game": self.game, "ok": not self.failures, "failures": [f.as_json() for f in self.failures],
                "playthrough_lines": self.lines, "seeds": self.seeds, "moves": self.moves,
                "finished": self.finished, "compared": self.compared}

    def summary(self) -> str:
        """One line for the game (its failures' details are their JSON's values, kept as they are)."""
        count = len(self.failures)
        verdict = _("ok") if not count else ngettext("{n} failure", "{n} failures", count).format(n=count)
        return _("{game}: {verdict} (playthrough {lines} lines; {seeds} seeds, {moves} random moves, {finished} "
                 "played to the end; {compared} surfaces compared with a twin)").format(
            game=self.game, verdict=verdict, lines=self.lines, seeds=self.seeds, moves=self.moves,
            finished=self.finished, compared=self.compared)


def state_of(replay) -> str:
    return json.dumps([replay.state, replay.ctx, replay.count], sort_keys=True, default=str)


def plain(state) -> str:
    return json.dumps(state, sort_keys=True, default=str)


def check_kept(report: Report, app, where: str, before: str | None = None) -> None:
    """Replay equals record, undo gives back the state before the last event (``before``, its
    JSON, when the caller kept it; else replayed) and redo the state after it."""
    from companion.core import session as sessions

    s, kept = app.loaded()
    fresh = sessions.load(app.store, s.id).replay()
    if state_of(kept) != state_of(fresh):
        report.fail(where, "replay", "a fresh replay of the journal differs from the state kept after the move")
    if not kept.count:
        return
    if before is None:
        before = plain(s.replay(kept.count - 1, again=True).state)
    after = plain(kept.state)
    _u, undone, _v = app.step("undo")
    if plain(undone.state) != before:
        report.fail(where, "undo", "undo did not give back the state before the move")
    _r, redone, _v = app.step("redo")
    if plain(redone.state) != after:
        report.fail(where, "undo then redo", "undo then redo did not give back the state after the move")


def playthrough(report: Report, folder: Path, lines: list[str]) -> None:
    """The declared playthrough, as a shell runs it; a secret longer than two characters on the
    table's surfaces is named (the twins of the random runs compare every value)."""
    from companion.core.app import App

    app = App(folder)
    app.pin_session()
    viewed = None
    for n, line in enumerate(lines, 1):
        where = report.at = f"playthrough line {n} `{line}`"
        report.context = {"line": n, "move": line}
        code, said = typed(app, line)
        report.lines += 1
        if code != 0:
            report.fail(where, "the line", f"refused with status {code}: {refusal(app, said)}")
            return
        if app.pinned_id() is None:
            continue
        s, replay = app.loaded()
        if viewed is None or viewed.sid != s.id:
            viewed = Viewed(app, s.id, s.players)
        check_kept(report, app, where)
        s, replay = app.loaded()
        shown = viewed.shown()
        for player in s.players:
            secret = leaks.secrets_of(s.game, replay.state, [player], None)[player]
            for (who, surface), data in shown.items():
                if who is not None:
                    continue
                found = set(leaks.words(data))
                for value in sorted(v for v in secret if len(v) > 2 and v in found):
                    report.fail(where, surface, f"shows {value!r}, a secret of {player}'s",
                                key=("playthrough", surface, player, value), value=value, whose=player)


def refusal(app, said: bytes) -> str:
    """What a refused line said, in one line; for a failure inside the code, the exception's
    own last line from the data folder's error log (the folder goes when the check ends)."""
    text = " ".join(said.decode("utf-8", "replace").split())
    log = app.store.error_log_path
    if "errors.log" in text and log.exists():
        last = [line for line in log.read_text(encoding="utf-8", errors="replace").splitlines() if line.strip()]
        text = text.split(" Details are in ")[0] + (f" [{last[-1].strip()}]" if last else "")
    return text[-300:]


def setup_lines(lines: list[str], moves: list) -> list[str]:
    """The lines a random run starts from: the playthrough's `new` and what it sets up that is
    not a move (printed values typed with `data set`, a card catalogue a game's own command
    records), never a move and never another shared command."""
    from companion.terminal.cli import COMMANDS

    made = {m.name.split(" ")[0] for m in moves}
    kept = []
    for line in lines:
        first = (shlex.split(line) or [""])[0]
        if first in ("new", "data") or (first not in made and first not in COMMANDS):
            kept.append(line)
    return kept if kept and shlex.split(kept[0])[:1] == ["new"] else []


def reseed(folder: Path, sid: str) -> None:
    """Give the twin's session another deal seed (its future deals differ; nothing else does)."""
    from companion.core import dealing

    path = folder / "sessions" / f"{sid}.json"
    text = path.read_text(encoding="utf-8")
    meta = json.loads(text)["meta"]
    old = next(iter(meta.values())).get("seed")
    if old:
        path.write_text(text.replace(old, dealing.new_seed()), encoding="utf-8")


def dealt(event) -> bool:
    from companion.contract.api import deals_in

    return any(True for _ in deals_in(event))


class Twin:
    """A run and its twin: two data folders, the same session, different secrets."""

    def __init__(self, root: Path, start: Path, sid: str, players: list[str], deal: bool):
        from companion.core.app import App

        self.root, self.sid, self.players, self.deal = root, sid, players, deal
        self.a = App(start, session_override=sid)
        self.b_dir = root / "twin"
        self.b = self.viewed_b = None
        self.viewed_a = Viewed(self.a, sid, players)  # the links, made before the copy
        self.sync()

    def swap(self, rng: random.Random, target: str | None = None) -> None:
        """The twin made again from the run with two cards of the deal just recorded swapped
        (:mod:`companion.check.deals`), when such a swap exists."""
        from companion.check import deals
        from companion.core.app import App

        s, _replay = self.a.loaded()
        journal = deals.swapped_journal(s, rng, target)
        if journal is None:
            return
        self.deal, kept = False, self.deal
        self.sync()
        self.deal = kept
        deals.rewrite(self.b.store, self.sid, journal)
        self.b = App(self.b_dir, session_override=self.sid)
        self.viewed_b = Viewed(self.b, self.sid, self.players)

    def sync(self) -> None:
        """The twin made again from the run (after the two parted publicly), with its own deal
        seed when it is to differ in its deals (else only in its private choices)."""
        from companion.core.app import App

        shutil.rmtree(self.b_dir, ignore_errors=True)
        shutil.copytree(self.a.data_dir, self.b_dir)
        if self.deal:
            reseed(self.b_dir, self.sid)
        self.b = App(self.b_dir, session_override=self.sid)
        self.viewed_b = Viewed(self.b, self.sid, self.players)


def random_run(report: Report, folder: Path, game_id: str, start: list[str], seed: int, moves: int) -> None:
    from companion.core import registry
    from companion.core.app import App

    report.context = {"seed": seed}
    home = folder / "run"
    app = App(home)
    app.pin_session()
    for line in start:
        code, said = typed(app, line)
        if code != 0:
            report.fail(f"seed {seed}", "setting up", f"`{line}` refused: {refusal(app, said)}")
            return
    s, _replay = app.loaded()
    # odd seeds: the twin is dealt other cards (every hand differs; the table's surfaces are
    # compared); even seeds: the same deal but for two cards swapped (one or two players' hands
    # differ; the other players' pages are compared too); both: other private choices
    twin = Twin(folder, home, s.id, list(s.players), deal=bool(seed % 2))
    game = s.game
    all_moves = list(registry.parts(game_id).get("MOVES") or [])
    report.seeds += 1
    swaps = seed // 2  # the twins' swaps so far (the first varies another player's hand on each seed)
    for step in range(1, moves + 1):
        sa, ra = twin.a.loaded()
        if ra.over:
            report.finished += 1
            return
        made = None
        before = plain(ra.state)
        for attempt in range(TRIES):
            rng = random.Random(f"{seed}/{step}/{attempt}")
            found = chooser.candidates(sa, ra, twin.a, all_moves)
            if not found:
                break
            move, actor = rng.choice(found)
            state = rng.getstate()
            choice = chooser.draw(sa, ra, twin.a, move, actor, rng)
            try:
                made = chooser.make(twin.a, choice)
            except chooser.Refused:
                sa, ra = twin.a.loaded()
                continue
            except Exception as exc:  # noqa: BLE001 - the game's own code raised: that is the failure
                report.fail(f"seed {seed}, move {step} `{choice.words()}`", "the move",
                            f"raised {type(exc).__name__}: {exc}", step=step, move=choice.words())
                return
            rng.setstate(state)
            sb, rb = twin.b.loaded()
            other = chooser.draw(sb, rb, twin.b, move, actor, rng, shift=1)
            try:
                chooser.make(twin.b, other)
            except Exception:  # noqa: BLE001 - the twin could not follow: it is made again below
                twin.sync()
            break
        if made is None:
            return  # nothing random was accepted here: the run stops (the summary counts it short)
        report.moves += 1
        where = report.at = f"seed {seed}, move {step} `{choice.words()}`"
        report.context = {"seed": seed, "step": step, "move": choice.words()}
        check_kept(report, twin.a, where, before if len(made) == 1 else None)
        for kind in ("undo", "redo"):  # the same in the twin, so that its journal keeps step
            twin.b.step(kind)
        if not twin.deal and game.deals:
            # the twin is dealt differently after each deal, and every few moves again with
            # another player's hand changed, so that each player's secret is varied in turn
            if any(dealt(outcome.event) for outcome in made) or step % SWAP_EVERY == 0:
                swaps += 1
                twin.swap(random.Random(f"{seed}/{step}/swap"), twin.players[swaps % len(twin.players)])
        compare(report, twin, game, where, seed)
    sa, ra = twin.a.loaded()
    if ra.over:
        report.finished += 1


def compare(report: Report, twin: Twin, game, where: str, seed: int) -> None:
    """Every surface of every viewer whose view is the same in both runs: the same bytes."""
    _sa, ra = twin.a.loaded()
    _sb, rb = twin.b.loaded()
    views = {}
    for who in [None, *twin.players]:
        here = json.dumps(game.view(ra.state, who), sort_keys=True, default=str)
        there = json.dumps(game.view(rb.state, who), sort_keys=True, default=str)
        views[who] = here == there
    if not views[None]:
        twin.sync()  # the two runs parted publicly (a round ended in one): the twin starts again
        return
    if all(views.values()):
        return  # nothing differs that anyone could leak
    same = [who for who, equal in views.items() if equal]
    shown_a, shown_b = twin.viewed_a.shown(same), twin.viewed_b.shown(same)
    for (who, surface), data in shown_a.items():
        report.compared += 1
        if data == shown_b[(who, surface)]:
            continue
        here, there, around = leaks.first_difference(data, shown_b[(who, surface)])
        secrets = leaks.secrets_of(game, ra.state, twin.players, who)
        apart = [p for p in twin.players if p != who and not views[p]]  # whose secrets the twins differ in
        whose = leaks.owner(here, secrets) or (apart[0] if len(apart) == 1 else None)
        said = (f"a secret of {whose}'s: " if whose else
                f"a secret ({', '.join(apart)}'s deal): " if apart else "what differs: ")
        context = f" in {around!r}" if around and around != here else ""
        report.fail(where, surface, f"shows {said}{here!r}{context} (its twin, with other secrets, shows {there!r})",
                    key=(seed, who, surface), value=here, twin=there, whose=whose)


def guarded(report: Report, what: str, run, *args) -> None:
    """Run one part of the check; the game's code raising there is that part's failure, named
    where it happened (the last move or line begun), and the check goes on with the next part."""
    report.at, report.context = what, {}
    try:
        run(*args)
    except Exception as exc:  # noqa: BLE001 - a game's bug is a finding of the check, never its end
        import traceback

        frame = traceback.extract_tb(exc.__traceback__)[-1]
        report.fail(report.at, "the game's code", f"raised {type(exc).__name__}: {exc} "
                                                  f"({Path(frame.filename).name} line {frame.lineno})")


def scratch() -> str | None:
    """Where the runs' data folders go: memory when the system has a folder there (every move
    is written with fsync, and nothing of a check needs to survive it), else the temporary one."""
    import os

    shm = "/dev/shm"
    return shm if os.path.isdir(shm) and os.access(shm, os.W_OK) else None


def check(game_id: str, seeds: int = 3, moves: int = 60) -> Report:
    """Check one installed game (see the module's docstring)."""
    from companion.core import registry

    report = Report(game_id)
    try:
        lines = list((registry.parts(game_id).get("PLAYTHROUGH") or {}).get(game_id) or [])
    except Exception as exc:  # noqa: BLE001 - a game that cannot be loaded is this check's failure
        report.fail("loading", "the game", f"{type(exc).__name__}: {exc}")
        return report
    if not lines:
        report.fail("loading", "PLAYTHROUGH", f"declares no playthrough for {game_id}")
        return report
    start = setup_lines(lines, list(registry.parts(game_id).get("MOVES") or []))
    work = Path(tempfile.mkdtemp(prefix=f"companion-check-{game_id}-", dir=scratch()))
    # every data folder made here points the registry's cache of installed games at itself: the
    # process's own (a shell's) is given back afterwards, not left pointing at a deleted folder
    cache = getattr(registry, "_cache_path", None)
    try:
        guarded(report, "the playthrough", playthrough, report, work / "playthrough", lines)
        if not start:
            report.fail("playthrough", "new", "the playthrough has no `new` line to start random runs from")
            return report
        for seed in range(1, seeds + 1):
            guarded(report, f"seed {seed}", random_run, report, work / f"seed-{seed}", game_id, start, seed, moves)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        registry.use_cache_file(cache)
    return report
