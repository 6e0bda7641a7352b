"""The tests' cheap install of a plugin (plugin_support.install: the installed form of a wheel
written straight into a folder) checked against pip itself: the same sources installed both
ways must be the same distributions to importlib.metadata (name, version, entry points, files,
top-level names, metadata fields) and load the same games, so every plugin test that installs
the cheap way tests what a pip-installed plugin does."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import importlib
import shutil
from importlib import metadata
from pathlib import Path

import pytest
from long_mode import LONG
from plugin_support import install, on_path, pip_install, write_distribution

ROOT = Path(__file__).resolve().parent.parent
TRICKS = ROOT / "docs" / "examples" / "companion-tricks"  # packages, package-data in subfolders
# Top-level modules, a name with a dot and capitals (its dist-info folder's name is normalised).
ONE = {"one_rules.py": "from companion.games.scoresheet.rules import ScoreSheet\n\n\nclass One(ScoreSheet):\n"
                       "    id = 'one'\n    title = 'One'\n",
       "one_moves.py": "MOVES = []\n"}
# What only the installer writes differently (its name; pip's own byte-compiled files).
INSTALLERS = {"INSTALLER", "direct_url.json", "RECORD"}


@pytest.fixture(scope="module")
def sites(tmp_path_factory) -> dict[str, list[Path]]:
    """The tricks example installed by pip (the install every run shares, tricks_support) and by
    plugin_support.install; in the long run also a distribution of top-level modules with a
    name to normalise, by a pip of its own (1.2 s of CPU) and directly."""
    import tricks_support

    work = tmp_path_factory.mktemp("both")
    pip = [tricks_support.install(work / "pip")]
    sources = [work / TRICKS.name]
    shutil.copytree(TRICKS, sources[0])  # built from a copy: nothing is written into the repository
    if LONG:
        pip.append(work / "pip-one")
        pip_install(write_distribution(work / "pip-source", "companion.One", ONE, {"one": "one_rules:One"},
                                       version="2.0"), target=pip[-1])
        sources.append(write_distribution(work / "companion-one", "companion.One", ONE, {"one": "one_rules:One"},
                                          version="2.0"))
    install(*sources, target=work / "direct")
    return {"pip": pip, "direct": [work / "direct"]}


def seen(folders: list[Path]) -> dict:
    """What importlib.metadata sees in ``folders``: each distribution's name, version, entry
    points, top-level names, metadata fields and files (the dist-info's own named apart)."""
    out = {}
    for dist in metadata.distributions(path=[str(f) for f in folders]):
        site = Path(dist._path).parent  # type: ignore[attr-defined]
        files = {str(f) for f in dist.files if f.suffix != ".pyc"}  # pip's byte-compiled copies
        info = {f for f in files if ".dist-info/" in f}
        out[dist.name] = {
            "version": dist.version,
            "entry points": sorted((ep.group, ep.name, ep.value) for ep in dist.entry_points),
            "top level": dist.read_text("top_level.txt").split(),
            "metadata": sorted(dist.metadata.items()),
            "files": sorted(files - info),
            "contents": {f: (site / f).read_bytes() for f in sorted(files - info)},
            "dist-info": sorted(Path(f).name for f in info if Path(f).name not in INSTALLERS),
            "folder": Path(dist._path).name,  # type: ignore[attr-defined]
        }
    return out


def test_the_direct_install_is_what_pip_installs(sites):
    pip, direct = seen(sites["pip"]), seen(sites["direct"])
    assert sorted(pip) == ["companion-tricks", "companion.One"] if LONG else ["companion-tricks"]
    assert direct == pip
    assert ({p.name for p in sites["direct"][0].iterdir()}
            == {p.name for site in sites["pip"] for p in site.iterdir()} - {"__pycache__"})
    for dist in metadata.distributions(path=[str(f) for way in sites.values() for f in way]):
        for file in dist.files:  # every file the RECORD names is there, with its hash and size
            if file.hash is not None and file.suffix != ".pyc":
                digest = hashlib.new(file.hash.mode, file.read_binary()).digest()
                assert base64.urlsafe_b64encode(digest).rstrip(b"=").decode() == file.hash.value, file
                assert file.size == len(file.read_binary())


@pytest.mark.parametrize("way", ["pip", "direct"])
def test_the_registry_loads_the_games_either_way(sites, way):
    from companion.core import registry

    with contextlib.ExitStack() as paths:
        for site in sites[way]:
            paths.enter_context(on_path(site, ("tricks_companion", "one_rules", "one_moves")))
        targets = registry.targets()
        assert targets["tricks"] == ("tricks_companion.rules:Tricks", "companion-tricks", "1.0.0")
        assert registry.get("tricks").title
        modules = ["tricks_companion.rules", "tricks_companion.views"]
        if LONG:
            assert targets["one"] == ("one_rules:One", "companion.One", "2.0")
            modules += ["one_rules", "one_moves"]
        for module in modules:
            assert any(Path(importlib.import_module(module).__file__).is_relative_to(site) for site in sites[way])
