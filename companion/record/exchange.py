"""The record's exchange with other tools and other laptops, by one name: the exports (json,
csv, BoardGameGeek play XML; companion.record.formats declares them) and the hostile json
import. The work is done in the modules named below, each readable in one sitting; this one
only gathers their names for callers written before the split (issue 27), and none of them
imports it back.

- ``formats``: the export formats, declared once; ``exporting``: `export` of the history.
- ``json_export``: the json export's file format; ``plays``, ``csv_export``, ``bgg_export``:
  the rows of the csv and BoardGameGeek exports.
- ``import_limits``, ``import_values``, ``import_checks``, ``import_rules``: the hostile
  import's reading, everything checked before anything is written.
- ``import_merge`` (and ``import_undo``): the locked import, merging sessions, names, titles.
"""

from __future__ import annotations

from companion.record.bgg_export import BGG_TERMS, export_bgg, first_plays
from companion.record.csv_export import CSV_COLUMNS, FORMULA_STARTS, export_csv, safe_cell
from companion.record.exporting import export, export_to, selection, unfinished_dealt
from companion.record.formats import NAMES as FORMATS
from companion.record.import_checks import (KINDS, META_KEYS, META_REQUIRED, TOP_KEYS, Bundle, read_bundle,
                                            read_bundle_sized)
from companion.record.import_limits import (MAX_DEPTH, MAX_FILE_BYTES, MAX_INT, MAX_JOURNAL, MAX_SESSION_CHARS,
                                            MAX_SESSIONS, MAX_STRING)
from companion.record.import_merge import IMPORT_TRIES, Imported, compare, import_bundle, import_file, incoming_titles
from companion.record.import_rules import check_deals, replay_check
from companion.record.import_undo import write_files
from companion.record.import_values import KIND_NAMES, TIME_EXAMPLE, Refused, parse
from companion.record.json_export import (FORMAT, SESSION_HEAD, VERSION, export_json, session_document, titles_of,
                                          write_json)
from companion.record.plays import BggIds, Play, bgg_id_of, notes_of, pack_bgg_id, plays

__all__ = [
    "BGG_TERMS", "BggIds", "Bundle", "CSV_COLUMNS", "FORMAT", "FORMATS", "FORMULA_STARTS", "IMPORT_TRIES", "Imported",
    "KINDS", "KIND_NAMES", "MAX_DEPTH", "MAX_FILE_BYTES", "MAX_INT", "MAX_JOURNAL", "MAX_SESSIONS",
    "MAX_SESSION_CHARS", "MAX_STRING", "META_KEYS", "META_REQUIRED", "Play", "Refused", "SESSION_HEAD", "TIME_EXAMPLE",
    "TOP_KEYS", "VERSION", "bgg_id_of", "check_deals", "compare", "export", "export_bgg", "export_csv", "export_json",
    "export_to", "first_plays", "import_bundle", "import_file", "incoming_titles", "notes_of", "pack_bgg_id", "parse",
    "plays", "read_bundle", "read_bundle_sized", "replay_check", "safe_cell", "selection", "session_document",
    "titles_of", "unfinished_dealt", "write_files", "write_json",
]
