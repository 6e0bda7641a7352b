"""Take the screenshots of docs/phones.md in the real browser (headless Chromium, as the tests).

    python docs/screenshots.py        # writes docs/img/phone-player.png and docs/img/phone-table.png

A four-player Trans Europa game in a throw-away data folder: round 1 dealt, markers and a few
rails down, then Ann's page at a phone's width and the table page at a TV's.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from browser_support import chrome, quit_chrome, serve, stop  # noqa: E402

SCENE = [
    "new trans-europa --players Ann,Bob,Cy,Dan --variant special-cards",
    "round start --special three-rails",
    "start Ann E6", "start Bob K8", "start Cy H11", "start Dan N5",
    "build Ann E6-E7-E8", "build Bob K8-K9-J9", "build Cy H11-H10", "build Dan N5-M5-L5",
]


def shoot(web, url: str, path: Path, width: int) -> None:
    web.set_window_size(width, 900)
    web.get(url)
    time.sleep(0.3)
    height = web.execute_script("return document.documentElement.scrollHeight")
    web.set_window_size(width, min(height + 20, 2400))
    time.sleep(0.3)
    web.save_screenshot(str(path))
    print("wrote", path)


def main() -> None:
    home = Path(tempfile.mkdtemp(prefix="companion-shots-"))
    env = dict(os.environ, COMPANION_HOME=str(home))
    subprocess.run([sys.executable, "-m", "companion"], input="\n".join(SCENE) + "\n", text=True, env=env,
                   check=True, capture_output=True)
    proc, links = serve(home, ["Ann", "Bob", "Cy", "Dan"])
    web = chrome()
    try:
        shoot(web, links["Ann"], HERE / "img" / "phone-player.png", 412)
        shoot(web, links["table"], HERE / "img" / "phone-table.png", 1280)
    finally:
        quit_chrome(web)
        stop(proc)


if __name__ == "__main__":
    main()
