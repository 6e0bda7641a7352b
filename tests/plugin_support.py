"""Plugins installed as real distributions for the tests, into a folder of their own, which the
companion then finds on its path through the entry point group, as any plugin.

Two ways to install one: :func:`pip_install`, pip itself (kept where pip is the subject, and for
the tricks example every run shares), and :func:`install`, which writes what pip leaves in the
folder (the installed form of a wheel: the modules and ``NAME-VERSION.dist-info/`` with METADATA,
WHEEL, entry_points.txt, top_level.txt, INSTALLER, REQUESTED and RECORD, as the binary
distribution format and PEP 376/627 say) straight from the source's pyproject.toml. A pip start
with setuptools' build hooks in three more processes cost 0.7 s of CPU and 0.45 s per further
source, 8 s a run (issue 29, item 7); tests/test_plugin_install.py installs one source both ways
and holds that importlib.metadata sees the same distribution.
"""

from __future__ import annotations

import base64
import contextlib
import csv
import hashlib
import io
import json
import re
import subprocess
import sys
import tomllib
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


def install(*sources: Path, target: Path) -> None:
    """The projects at ``sources`` installed into ``target`` as pip installs them, without pip:
    each one's modules and its ``.dist-info`` written from its pyproject.toml (the setuptools
    configuration the tests' plugins use: ``packages`` or ``py-modules``, ``package-data``;
    anything else is refused, so that no source is silently installed otherwise than by pip)."""
    target.mkdir(parents=True, exist_ok=True)
    for source in sources:
        _install_one(Path(source), target)


KNOWN = {"packages", "py-modules", "package-data"}
PROJECT = {"name", "version", "description", "license", "requires-python", "dependencies", "entry-points"}


def _install_one(source: Path, target: Path) -> None:
    config = tomllib.loads((source / "pyproject.toml").read_text(encoding="utf-8"))
    project, tool = config["project"], config.get("tool", {}).get("setuptools", {})
    if (set(tool) - KNOWN or set(project) - PROJECT or not isinstance(project.get("license", ""), str)
            or set(project.get("entry-points", {})) - {"companion.games"} or project.get("dependencies")):
        raise ValueError(f"{source}: only the project's {sorted(PROJECT)}, setuptools' {sorted(KNOWN)}, "
                         "companion.games entry points and no dependencies are installed without pip (use pip_install)")
    files = [f"{m}.py" for m in tool.get("py-modules", [])]
    data = tool.get("package-data", {})
    for package in tool.get("packages", []):
        folder = package.replace(".", "/")
        files += sorted(p.relative_to(source).as_posix() for p in (source / folder).glob("*.py"))
        for pattern in data.get(package, []) + data.get("*", []) + data.get("", []):
            files += sorted(p.relative_to(source).as_posix() for p in (source / folder).glob(pattern) if p.is_file())
    tops = sorted({f.split("/")[0].removesuffix(".py") for f in files})
    name, version = project["name"], project["version"]
    info = f"{re.sub(r'[-_.]+', '_', name).lower()}-{version}.dist-info"
    record: list[tuple[str, bytes]] = []
    for file in dict.fromkeys(files):
        record.append((file, (source / file).read_bytes()))
    metadata = ["Metadata-Version: 2.4", f"Name: {name}", f"Version: {version}"]
    for key, field in (("description", "Summary"), ("license", "License-Expression"),
                       ("requires-python", "Requires-Python")):
        if isinstance(project.get(key), str):
            metadata.append(f"{field}: {project[key]}")
    points = "\n\n".join(f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in eps.items())
                          for group, eps in project.get("entry-points", {}).items())
    for file, text in (("METADATA", "\n".join(metadata) + "\n"),
                       ("WHEEL", "Wheel-Version: 1.0\nGenerator: tests/plugin_support.py\n"
                                 "Root-Is-Purelib: true\nTag: py3-none-any\n\n"),
                       ("entry_points.txt", points), ("top_level.txt", "".join(f"{t}\n" for t in tops)),
                       ("INSTALLER", "companion-tests\n"), ("REQUESTED", ""),
                       ("direct_url.json", json.dumps({"dir_info": {}, "url": source.resolve().as_uri()}))):
        record.append((f"{info}/{file}", text.encode()))
    rows = io.StringIO()
    writer = csv.writer(rows, lineterminator="\n")
    for file, content in record:
        (target / file).parent.mkdir(parents=True, exist_ok=True)
        (target / file).write_bytes(content)
        digest = base64.urlsafe_b64encode(hashlib.sha256(content).digest()).rstrip(b"=").decode()
        writer.writerow([file, f"sha256={digest}", len(content)])
    writer.writerow([f"{info}/RECORD", "", ""])
    (target / info / "RECORD").write_text(rows.getvalue())


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
