"""`pip install .` (not only an editable install) must carry every printed-data pack."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(not (ROOT / "pyproject.toml").exists(), reason="needs the source tree")
def test_the_wheel_contains_every_data_pack(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", str(tmp_path), str(ROOT)],
        capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    wheel = next(tmp_path.glob("tabletop_companion-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    packs = sorted(p.name for p in (ROOT / "data").glob("*.json"))
    assert packs, "data/ has packs"
    for pack in packs:
        assert f"companion/data/{pack}" in names
    assert "companion/terminal/cli.py" in names and "companion/games/api.py" in names


def test_the_installed_package_finds_its_packs():
    from companion.core import datapack

    names = datapack.pack_names()
    assert set(names) == {p.stem for p in (ROOT / "data").glob("*.json")} or not (ROOT / "data").exists()
    for name in names:
        assert datapack.pack(name)["game"] == name
