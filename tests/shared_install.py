"""What tests make once and only read afterwards: an example game pip-installed once for the
whole run and shared by every test process (:func:`installed`), a data folder prepared once per
run (:func:`prepared`), a table typed once for a module (:func:`typed`), a script's table typed
once per process and copied for each test that starts from it (:func:`scripted`).

Four test files (the exit, the German games, the secret bids and their pages) each pip-installed
the tricks example into a folder of their own, one pip each (about 1.5 s of CPU, issue 29,
item 7), and a run's workers did it again for every file. A distribution installed into a
folder is only read afterwards (put on the path, imported): here it is installed once per run
and per content of its source, into the run's shared folder (``COMPANION_TEST_SHARED``, made by
tests/conftest.py), under a lock so that two workers wanting it at once install it once.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
from pathlib import Path
from typing import Callable


def _fingerprint(source: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in source.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(str(path.relative_to(source)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:20]


def installed(source: Path, work: Path, install: Callable[[Path, Path], Path]) -> Path:
    """The site ``install(work, source)`` makes, made once per run for this content of ``source``
    (without a shared folder, simply ``install(work, source)``)."""
    shared = os.environ.get("COMPANION_TEST_SHARED")
    if not shared or not os.path.isdir(shared):
        return install(work, source)
    folder = Path(shared) / f"{source.name}-{_fingerprint(source)}"
    with open(f"{folder}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = folder / "site.txt"
        if done.exists():
            return Path(done.read_text())
        folder.mkdir(exist_ok=True)
        site = install(folder, source)
        done.write_text(str(site))
        return site


def prepared(name: str, build: Callable[[Path], None], into: Path) -> Path:
    """``into``, a copy of the folder ``build(folder)`` makes, made once per run under ``name``
    (the played sessions two test files read); without a shared folder ``build(into)`` itself."""
    import shutil

    shared = os.environ.get("COMPANION_TEST_SHARED")
    if not shared or not os.path.isdir(shared):
        build(into)
        return into
    folder = Path(shared) / name
    with open(f"{folder}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / ".made").exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            build(folder)
            (folder / ".made").write_text("")
    shutil.copytree(folder, into, dirs_exist_ok=True, ignore=shutil.ignore_patterns(".made"))
    return into


def typed(folder: Path, *commands: list[str], script: str | None = None) -> Path:
    """``folder``, a data folder with ``commands`` typed into it in this process (each
    `companion --data-dir FOLDER ARGS`), or ``script``'s lines on standard input: a table a
    module's tests read or each copy (``shutil.copytree(folder, home)``)."""
    from click.testing import CliRunner

    from companion.terminal.cli import cli

    for args in commands:
        result = CliRunner().invoke(cli, ["--data-dir", str(folder), *args])
        assert result.exit_code == 0, (args, result.output)
    if script is not None:
        result = CliRunner().invoke(cli, ["--data-dir", str(folder)], input=script)
        assert result.exit_code == 0, result.output
    return folder


_scripts: dict[str, Path] = {}


def scripted(text: str, home: Path, where: Callable[[], Path]) -> tuple[int, str, str]:
    """``text`` typed as a script (its lines on standard input) into the data folder ``home``,
    as the tests' ``script`` fixture types it: (exit status, stdout, stderr). A ``home`` not made
    yet gets a copy of the folder the same text made the first time in this process (in
    ``where()``, a new folder), with that time's answer: a module's tests that start from the
    same table type it once. A ``home`` already holding something has the text typed into it."""
    import shutil

    from click.testing import CliRunner

    from companion.terminal.cli import cli

    def typed_into(folder: Path) -> tuple[int, str, str]:
        result = CliRunner().invoke(cli, ["--data-dir", str(folder)], input=text, catch_exceptions=True)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        return result.exit_code, result.stdout, result.stderr

    if home.exists():
        return typed_into(home)
    if text not in _scripts:
        template = where() / "home"
        _scripts[text] = template
        (template.parent / "answer.json").write_text(json.dumps(typed_into(template)))
    template = _scripts[text]
    shutil.copytree(template, home, symlinks=True)
    return tuple(json.loads((template.parent / "answer.json").read_text()))
