"""`pip install .` (not only an editable install) must carry every printed-data pack."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from long_mode import LONG

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(not (ROOT / "pyproject.toml").exists(), reason="needs the source tree")
def test_the_wheel_contains_every_data_pack(tmp_path):
    # the hook `pip wheel --no-build-isolation` calls, without pip's own start (0.4 s of CPU); pip
    # itself builds and installs the sdist below
    wheel = _built("wheel", tmp_path)
    assert wheel.name.startswith("tabletop_companion-") and wheel.suffix == ".whl"
    names = set(zipfile.ZipFile(wheel).namelist())
    packs = sorted(p.name for p in (ROOT / "data").glob("*.json"))
    assert packs, "data/ has packs"
    for pack in packs:
        assert f"companion/data/{pack}" in names
    assert "companion/terminal/cli.py" in names and "companion/contract/api.py" in names
    assert "companion/check/runner.py" in names and "companion/terminal/check.py" in names  # `companion check`
    # the German catalogue, compiled by the build (setup.py) with the standard library only
    assert "companion/locale/de/LC_MESSAGES/companion.mo" in names
    import gettext
    import io

    mo = gettext.GNUTranslations(io.BytesIO(zipfile.ZipFile(wheel).read("companion/locale/de/LC_MESSAGES/companion.mo")))
    assert mo.gettext("Usage:") == "Aufruf:"
    metadata = next(n for n in names if n.endswith("METADATA"))
    requires = [line for line in zipfile.ZipFile(wheel).read(metadata).decode().splitlines()
                if line.startswith("Requires-Dist:") and "extra ==" not in line]
    assert not any("babel" in line.lower() for line in requires)  # runs without Babel


def test_the_installed_package_finds_its_packs():
    from companion.core import datapack

    names = datapack.pack_names()
    assert set(names) == {p.stem for p in (ROOT / "data").glob("*.json")} or not (ROOT / "data").exists()
    for name in names:
        assert datapack.pack(name)["game"] == name


# -- the README's set-up lines, CI, the sdist (issue 24) ---------------------------------------------

README = ROOT / "README.md"
INSTALL = "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/companion"
TESTS = 'python3 -m venv .venv && .venv/bin/pip install ".[test]" && .venv/bin/pytest'


@pytest.mark.skipif(not README.exists(), reason="needs the source tree")
def test_the_readme_sets_up_in_a_virtual_environment_and_ci_runs_its_test_line():
    """A bare `pip install` is refused on current Debian and Ubuntu: each line makes its venv."""
    text = README.read_text(encoding="utf-8")
    lines = [line.strip() for line in text.splitlines()]
    assert INSTALL in lines and TESTS in lines
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    pattern = ci.split("grep -m1 -F '", 1)[1].split("'", 1)[0]
    found = [line for line in text.splitlines() if pattern in line]
    assert found and found[0] == TESTS  # what .ci/run runs is the README's line, verbatim
    assert 'bash -c "$line"' in ci


def _built(kind: str, tmp_path: Path) -> Path:
    """The sdist or the wheel built from the source tree (setuptools' own build_sdist or
    build_wheel, the hooks pip calls: nothing downloaded)."""
    out = tmp_path / "dist"
    code = f"from setuptools import build_meta as b; print(b.build_{kind}({str(out)!r}))"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    return out / result.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def unpacked(tmp_path_factory) -> tuple[Path, set[str]]:
    """The sdist, built once for the file's two tests (each built its own), unpacked: its
    folder and the names it carries."""
    import tarfile

    tmp_path = tmp_path_factory.mktemp("sdist")
    sdist = _built("sdist", tmp_path)
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
        tar.extractall(tmp_path / "unpacked", filter="data") if hasattr(tarfile, "data_filter") \
            else tar.extractall(tmp_path / "unpacked")
    return next((tmp_path / "unpacked").iterdir()), names


@pytest.mark.skipif(not (ROOT / "pyproject.toml").exists(), reason="needs the source tree")
def test_the_sdist_carries_tests_helpers_fixtures_docs_and_licence(unpacked):
    folder, names = unpacked
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    wanted = [n for n in tracked if n.startswith(("tests/", "docs/", "companion/", "data/", "benchmarks/"))]
    if not wanted:  # not a git checkout (an unpacked sdist itself): what is here is what it carries
        wanted = [str(p.relative_to(ROOT)) for d in ("tests", "docs") for p in (ROOT / d).rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts]
    missing = [n for n in wanted if n not in names]
    assert not missing, missing[:20]
    for name in ("LICENSE", "CHANGELOG.md", "SECURITY.md", "HACKING.md", "README.md", "tests/conftest.py",
                 "tests/shell_support.py", "tests/fixtures/axe-core/axe.min.js", "docs/trans.md"):
        assert name in names, name
    info = (folder / "PKG-INFO").read_text(encoding="utf-8")
    assert "License-Expression: MIT" in info and "License-File: LICENSE" in info
    assert "Classifier: Topic :: Games/Entertainment :: Board Games" in info


@pytest.mark.slow
@pytest.mark.skipif(not (ROOT / "pyproject.toml").exists(), reason="needs the source tree")
def test_the_unpacked_sdist_installs_with_its_test_extra_and_collects_every_test(tmp_path, unpacked):
    """`pip install ".[test]"` in the unpacked sdist, then pytest collects with no error. The
    install takes the dependencies from this environment (a new venv that sees this one's
    packages), so the check needs no network and stays a few seconds. The default run collects
    three files (the sdist's list of files is checked whole above); the long run collects every
    file (COMPANION_LONG_TESTS=1: collecting 1,900 tests takes half a minute on a busy machine)."""
    import sysconfig

    folder, _ = unpacked
    venv = tmp_path / "venv"
    # no pip of its own: this environment's pip and setuptools (seen through the .pth) build it
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "outer-environment.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    result = subprocess.run([str(python), "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index",
                             "-q", ".[test]"], cwd=folder, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    some = [] if LONG else ["tests/test_packaging.py", "tests/test_old_data_folders.py", "tests/test_trans_data.py"]
    result = subprocess.run([str(python), "-m", "pytest", "--collect-only", "-q", "-n", "0", "-p", "no:cacheprovider",
                             *some],
                            cwd=folder, capture_output=True, text=True, timeout=600,
                            env={k: v for k, v in __import__("os").environ.items() if not k.startswith("PYTEST")})
    assert result.returncode == 0, (result.stdout[-3000:], result.stderr[-2000:])
    assert not any(line.startswith("ERROR") or "error during collection" in line.lower()
                   for line in result.stdout.splitlines()), result.stdout[-2000:]
    # `-q` twice (the project's addopts and this): one line per file, "tests/test_x.py: 12"
    counts = {line.rsplit(":", 1)[0]: int(line.rsplit(":", 1)[1]) for line in result.stdout.splitlines()
              if line.startswith("tests/")}
    files = set(some) or {f"tests/{p.name}" for p in (folder / "tests").glob("test_*.py")}
    assert files - set(counts) <= {"tests/test_layout.py"} | {f for f in files if "conformance" in f}, \
        sorted(files - set(counts))
    assert sum(counts.values()) > (1000 if LONG else 20), result.stdout[-800:]
