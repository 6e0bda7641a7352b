"""Plugins installed as real distributions for the tests: pip, into a folder of their own,
which the companion then finds on its path through the entry point group, as any plugin."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from pathlib import Path

PYPROJECT = """[build-system]
requires = ["setuptools>=77"]
build-backend = "setuptools.build_meta"

[project]
name = "{name}"
version = "{version}"

[project.entry-points."companion.games"]
{entry_points}

[tool.setuptools]
{code} = [{modules}]
"""

# The three rules every game needs, at their simplest, for a plugin's source text (a class body).
SIMPLEST_RULES = '''
    def initial(self, setup, data):
        return {"players": list(setup.players)}

    def result(self, s):
        return None

    def summary(self, s):
        return {"players": [{"name": p, "score": 0} for p in s["players"]], "round": 0}
'''


def pip_install(*sources: Path, target: Path) -> None:
    """The projects at ``sources`` installed into ``target`` by one pip (each pip start takes seconds)."""
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--no-index", "--target", str(target), *map(str, sources)], check=True, capture_output=True, text=True)


def write_distribution(folder: Path, name: str, files: dict[str, str], entry_points: dict[str, str],
                       version: str = "0.0.1", packages: list[str] | None = None) -> Path:
    """A distribution ``name`` of its files (path -> text: top-level modules, or the
    ``packages`` named) naming the games ``entry_points`` (game id -> ``module:attribute``)."""
    folder.mkdir()
    names = packages if packages is not None else [f[:-3] for f in files]
    points = "\n".join(f'{k} = "{v}"' for k, v in entry_points.items())
    (folder / "pyproject.toml").write_text(PYPROJECT.format(
        name=name, version=version, entry_points=points, code="packages" if packages is not None else "py-modules",
        modules=", ".join(f'"{n}"' for n in names)))
    for file, text in files.items():
        (folder / file).parent.mkdir(parents=True, exist_ok=True)
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


@contextlib.contextmanager
def on_path(site: Path, packages: tuple[str, ...], last: bool = False):
    """Distributions installed into ``site`` found by the registry like any plugin while the
    block runs (``site`` put first on this process's path, or ``last``, after the companion's
    own distribution), then taken off again with their ``packages``' modules and the commands
    made from them, so the next test sees only what it installs itself."""
    import importlib

    from companion.core import registry

    if last:
        sys.path.append(str(site))
    else:
        sys.path.insert(0, str(site))
    importlib.invalidate_caches()
    registry.use_cache_file(None)
    registry.forget()
    try:
        yield site
    finally:
        sys.path.remove(str(site))
        for name in [m for m in sys.modules if m.split(".")[0] in packages]:
            del sys.modules[name]
        from companion.terminal import declared  # its commands, made once per moves module

        for name in [m for m in declared._built if m.split(".")[0] in packages]:
            del declared._built[name]
        importlib.invalidate_caches()
        registry.forget()


def run_here(args: list[str], env: dict, input: str | None = None) -> subprocess.CompletedProcess:
    """`companion ARGS` through its command line in this process (a plugin put on the path by
    :func:`on_path`), answered as a process's run is: exit status, stdout, stderr. ``env`` is
    the command's environment's changes (a value None: the variable removed while it runs).
    A process of its own for each command cost its start, two thirds of a plugin test file."""
    from click.testing import CliRunner

    from companion.terminal.cli import cli

    done = CliRunner().invoke(cli, list(args), input=input, env=env, catch_exceptions=True)
    if done.exception is not None and not isinstance(done.exception, SystemExit):
        raise done.exception
    return subprocess.CompletedProcess(["companion", *args], done.exit_code, done.stdout, done.stderr)
