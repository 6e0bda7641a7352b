"""What the product keeps within one process (issue 29), each beside its anchor: the same work
done as before, with nothing kept. A shell, the phones' server and a script run many commands in
one process; each line is the CPU of one command's part, median of several runs.

1. `rails amerika --all-hands --stats` asked again: the counts of every hand kept per board
   (steiner.hand_costs) against counting the 16,807 hands anew.
2. `data set trans-europa dashed ...`: the schema check leaving out the parts found valid
   before (datapack.validate), the schema told plain once, against checking the whole merged
   values with the schema encoded again.
3. A prompt made (the shell's, a question's, a private screen's): prompt_toolkit's default key
   bindings shared (terminal/keys.py) against built for the prompt.

Run: ``.venv/bin/python benchmarks/bench_kept.py`` (about 15 seconds).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from common import median_cpu as cpu  # noqa: E402  (benchmarks/common.py)

from companion.core import datapack  # noqa: E402
from companion.games.trans import board as boards  # noqa: E402
from companion.games.trans import steiner  # noqa: E402

DASHED = ["Glasgow", "Oslo", "Dublin", "Brest", "Paris", "Wien", "Kyiv", "Riga", "Roma", "Sofia"]


def all_hands() -> tuple[float, float]:
    board = boards.load("trans-amerika")
    steiner.all_hands(board)  # the first count of the process: paid once either way
    kept = cpu(lambda: steiner.all_hands(board), 7)
    anew = cpu(lambda: steiner.all_hands(board), 5, before=steiner._hands_kept.clear)
    return kept, anew


def data_set() -> tuple[float, float]:
    check = lambda: datapack.validate("trans-europa", "dashed", DASHED, {})  # noqa: E731
    check()  # imports jsonschema: paid once either way
    kept = cpu(check, 15)
    anew = cpu(check, 15, before=lambda: (datapack._valid.clear(), datapack._plain_kept.clear()))
    return kept, anew


def prompt() -> tuple[float, float]:
    from prompt_toolkit import PromptSession
    from prompt_toolkit.application import application
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.key_binding.defaults import load_key_bindings
    from prompt_toolkit.output import DummyOutput

    from companion.terminal import keys

    with create_pipe_input() as inp:
        make = lambda: PromptSession(input=inp, output=DummyOutput())  # noqa: E731
        make()
        shared = cpu(make, 41)
        application.load_key_bindings = load_key_bindings  # prompt_toolkit's own: built per prompt
        try:
            make()
            own = cpu(make, 41)
        finally:
            keys.share_default_bindings()
    return shared, own


def main() -> None:
    print(f"{'what (CPU of one, median)':52} {'kept':>9} {'anchor':>9} {'ratio':>7}")
    for name, measure in (("rails amerika --all-hands --stats, asked again", all_hands),
                          ("data set trans-europa dashed ... (schema check)", data_set),
                          ("a prompt made (shell, question, private screen)", prompt)):
        kept, anchor = measure()
        print(f"{name:52} {kept * 1000:7.1f}ms {anchor * 1000:7.1f}ms {anchor / max(kept, 1e-9):6.1f}x")


if __name__ == "__main__":
    main()
