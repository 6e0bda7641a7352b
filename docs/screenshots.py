"""Take the screenshots of docs/phones.md in the real browser (headless Chromium, as the tests).

    python docs/screenshots.py        # writes the pictures of docs/img/

A four-player Trans Amerika round in a throw-away data folder, dealt at the table (so the
pictures are the same every time): the start markers down and Ann half-way through her turn.
Ann's phone (390x844, touch) shows the board to tap, Bob's phone that it is Ann's turn, and
the TV (1920x1080) the table page. Then a Transatlantic opening: Bob's phone with the market's
prices to buy from.
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

from browser_support import phone, quit_chrome, serve, stop  # noqa: E402

HANDS = {"Ann": "San Diego,Dallas,St. Louis,Cincinnati,Washington",
         "Bob": "Los Angeles,Chicago,Oklahoma City,Memphis,New York",
         "Cy": "Portland,Bismarck,Santa Fe,New Orleans,Boston",
         "Dee": "Sacramento,Minneapolis,Omaha,El Paso,Charleston"}
TRANS = [
    'new trans-amerika --players Ann,Bob,Cy,Dee --entropy "game night"',
    "round start --physical",
    *[f'hand {p} --set "{h}"' for p, h in HANDS.items()],
    "start Ann Dallas", "start Bob Chicago", "start Cy Boston", "start Dee Omaha",
    "build Ann Dallas-J10",
]
TRANSATLANTIC = [  # TEST values: nobody here has the printed cards
    "ship add ARIEL --year 1865 --flag none --kind sail",
    "ship add SIRIUS --year 1860 --flag none --kind sail",
    'ship add "FLYING CLOUD" --year 1851 --flag none --kind sail',
    "ship add NUBIAN --year 1875 --flag white --price 30",
    "ship add DEVONIA --year 1877 --flag red --price 50",
    "ship add GERMANIC --year 1874 --flag white --price 40",
    "ship add HAMMONIA --year 1882 --flag blue --price 70",
    "ship add ABYSSINIA --year 1870 --flag red --price 30",
    "ship add UMBRIA --year 1884 --flag red --price 90",
    "data set transatlantic market.surcharges '[0, 10, 20, 30, 40, 50]'",
    "new transatlantic --players Ann,Bob,Cy",
    "own Ann ARIEL", "own Bob SIRIUS", 'own Cy "FLYING CLOUD"',
    "reveal NUBIAN DEVONIA GERMANIC HAMMONIA ABYSSINIA UMBRIA",
]


def shoot(url: str, path: Path, width: int, height: int, ratio: float = 2.0) -> None:
    """The page as the device shows it: its first screen, ``width`` x ``height`` CSS pixels."""
    web = phone(width, height, ratio=ratio)
    try:
        web.get(url)
        time.sleep(0.5)
        web.save_screenshot(str(path))
        print("wrote", path)
    finally:
        quit_chrome(web)


def scene(lines: list[str]) -> Path:
    home = Path(tempfile.mkdtemp(prefix="companion-shots-"))
    env = dict(os.environ, COMPANION_HOME=str(home))
    subprocess.run([sys.executable, "-m", "companion"], input="\n".join(lines) + "\n", text=True, env=env,
                   check=True, capture_output=True)
    return home


def main() -> None:
    img = HERE / "img"
    home = scene(TRANS)
    proc, links = serve(home, list(HANDS))
    try:
        shoot(links["Ann"], img / "phone-turn.png", 390, 844)
        shoot(links["Bob"], img / "phone-player.png", 390, 844)
        shoot(links["table"], img / "phone-table.png", 1920, 1080, ratio=1.0)
    finally:
        stop(proc)
    home = scene(TRANSATLANTIC)
    proc, links = serve(home, ["Ann", "Bob", "Cy"])
    try:
        shoot(links["Bob"], img / "phone-market.png", 390, 844)
    finally:
        stop(proc)


if __name__ == "__main__":
    main()
