"""The export formats are declared once (companion.record.formats): `export`'s `--format`
choices and help, the refusal of `exporting.export_to` and the docs all list exactly the
registry's formats, in its order, so a format added there is added everywhere or fails here."""

import re
from pathlib import Path

import click
import pytest

from companion.contract.errors import CompanionError
from companion.core.store import Store
from companion.record import exporting, formats
from companion.terminal.history import export

ROOT = Path(__file__).resolve().parents[1]


def format_option() -> click.Option:
    return next(p for p in export.params if p.name == "fmt")


def test_the_command_offers_exactly_the_registry():
    assert tuple(format_option().type.choices) == formats.NAMES == tuple(formats.FORMATS)
    assert formats.names(formats.HISTORY) + formats.names(formats.PLAY) == formats.NAMES


def test_the_help_names_each_format_with_its_line(run):
    shown = " ".join(run(["export", "--help"], expect=0).output.split())
    for fmt in formats.FORMATS.values():
        assert "\n" not in fmt.help
        assert f"{fmt.name}: {fmt.help}" in shown
    assert format_option().help == formats.help_text()


def documented_formats() -> list[str]:
    """The formats named by the bullets of docs/history.md's "Exports." paragraph, in order."""
    text = (ROOT / "docs" / "history.md").read_text(encoding="utf-8")
    part = text[text.index("**Exports.**"):]
    part = part[:part.index("\n\n", part.index("\n- "))]
    names: list[str] = []
    for line in part.splitlines():
        if line.startswith("- `export"):
            names += re.findall(r"--format ([a-z][a-z-]*)", line)
    return names


def test_the_docs_list_exactly_the_registry():
    assert documented_formats() == list(formats.NAMES)


def test_export_to_refuses_what_it_cannot_write_naming_the_registry(tmp_path):
    store = Store(tmp_path)
    with pytest.raises(CompanionError) as refused:
        exporting.export_to(store, "xml", None)
    assert refused.value.message == f"There is no export format 'xml': choose {', '.join(formats.NAMES)}."
    for name in formats.names(formats.PLAY):
        with pytest.raises(CompanionError) as refused:
            exporting.export_to(store, name, None)
        assert f"`export ID --format {name}`" in refused.value.message
        assert refused.value.message.endswith(f"choose {', '.join(formats.names(formats.HISTORY))}.")
    assert not any(tmp_path.iterdir())  # a refusal changes nothing


def test_every_history_format_writes_an_empty_history(tmp_path):
    store = Store(tmp_path)
    for name in formats.names(formats.HISTORY):
        text, entries = exporting.export(store, name)
        assert entries == [] and text
