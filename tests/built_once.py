"""A data folder that takes long to build (a session of hundreds of recorded actions, each
written and synced as the store does) is built once per test process and copied for each
test that asks for it (issue 29: building the same 230-action session again took 5-10 s of
each of a dozen tests). Each test still gets its own folder, to change as it likes."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path
from typing import Callable, TypeVar

T = TypeVar("T")
_built: dict[tuple, tuple[Path, object]] = {}
_made: list[str] = []
atexit.register(lambda: [shutil.rmtree(d, ignore_errors=True) for d in _made])


def built_once(home: Path, key: tuple, build: Callable[[Path], T]) -> T:
    """``build(home)``'s folder and answer: built for ``key`` the first time in this process
    and copied to ``home`` afterwards; built in place when ``home`` already holds something."""
    if home.exists():
        return build(home)
    if key not in _built:
        made = tempfile.mkdtemp(prefix="companion-built-")
        _made.append(made)
        template = Path(made) / "home"
        _built[key] = (template, build(template))
    template, answer = _built[key]
    home.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(template, home, symlinks=True)
    return answer  # type: ignore[return-value]
