"""Colour codes written by the companion itself (issue 29): rich, with Pygments and
markdown-it-py, was installed for one call to a private method (``Style._make_ansi_codes``) that
turned a style name into SGR codes. The codes below are the ones rich 15 gave for each style
the views use; they are kept, and rich is no longer a dependency nor imported."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import requires

from companion.terminal.render import colour_256, sgr

# style -> SGR parameters, as rich 15 made them (Style.parse(...)._make_ansi_codes(EIGHT_BIT))
FROM_RICH = {
    "strong": "1", "muted": "2", "warn": "1;33", "error": "1;31", "good": "32", "code": "36", "reverse": "7",
    "line": "38;5;244", "water": "1;96", "mountain": "1;38;5;249", "route": "1;35", "built": "1;37",
    "player:0": "1;38;5;161", "player:1": "1;38;5;62", "player:2": "1;38;5;71", "player:3": "1;38;5;209",
    "player:4": "1;38;5;91", "player:5": "1;38;5;81", "colour:yellow": "1;38;5;178", "colour:red": "1;38;5;166",
    "colour:orange": "1;38;5;208", "colour:green": "1;38;5;65", "colour:blue": "1;38;5;26",
    "colour:white": "1;38;5;255", "colour:pink": "1;38;5;175", "colour:brown": "1;38;5;95",
    "colour:turquoise": "1;38;5;37", "colour:grey": "1;38;5;244", "colour:black": "1;38;5;234",
    "colour:purple": "1;38;5;97", "colour:#ff8800": "1;38;5;208", "strong+colour:red": "1;38;5;166",
    "muted+code": "2;36", "line+dim": "2;38;5;244", "warn+reverse": "1;7;33", "": "", "unknown": "",
}


def test_each_style_keeps_its_colour_codes():
    assert {style: sgr(style) for style in FROM_RICH} == FROM_RICH
    assert [colour_256(c) for c in ("#000000", "#7f7f7f", "#808080", "#ffffff")] == \
        ["38;5;16", "38;5;243", "38;5;244", "38;5;231"]  # greys on the grey ramp, its ends black and white


def test_colour_is_drawn_without_rich():
    code = ("import sys\nfrom companion.terminal.render import _Painter\n"
            "print(repr(_Painter(True).paint('Ann', 'player:0')), 'rich' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["'\\x1b[1;38;5;161mAnn\\x1b[0m'", "False"]


def test_rich_is_not_a_dependency():
    assert not [r for r in requires("tabletop-companion") or [] if r.split(";")[0].strip().startswith("rich")]
