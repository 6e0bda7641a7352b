"""Plugins installed as real distributions for the tests: pip, into a folder of their own,
which the companion then finds on its path through the entry point group, as any plugin."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PYPROJECT = """[build-system]
requires = ["setuptools>=77"]
build-backend = "setuptools.build_meta"

[project]
name = "{name}"
version = "0.0.1"

[project.entry-points."companion.games"]
{entry_points}

[tool.setuptools]
py-modules = [{modules}]
"""


def pip_install(source: Path, target: Path) -> None:
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--no-index", "--target", str(target), str(source)], check=True, capture_output=True, text=True)


def write_distribution(folder: Path, name: str, files: dict[str, str], entry_points: dict[str, str]) -> Path:
    """A distribution ``name`` 0.0.1 of top-level modules (file name -> text) naming the games
    ``entry_points`` (game id -> ``module:attribute``)."""
    folder.mkdir()
    modules = ", ".join(f'"{f[:-3]}"' for f in files)
    points = "\n".join(f'{k} = "{v}"' for k, v in entry_points.items())
    (folder / "pyproject.toml").write_text(PYPROJECT.format(name=name, entry_points=points, modules=modules))
    for file, text in files.items():
        (folder / file).write_text(text)
    return folder


def not_loaded(out: str) -> list[str]:
    """The `Not loaded:` lines of `games`, each joined again where it wrapped."""
    lines: list[str] = []
    for line in out.splitlines():
        if line.startswith("Not loaded:"):
            lines.append(line)
        elif lines and line.startswith("  "):
            lines[-1] += " " + line.strip()
        else:
            lines and lines.append("")
    return [line for line in lines if line]
