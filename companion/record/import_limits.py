"""Limits of an import file: generous for any real group, small enough that a hostile file
cannot exhaust memory or time. Read as ``limits.MAX_...`` where they are used, so a test
that lowers one lowers it everywhere."""

from companion.contract.numbers import LARGEST

MAX_FILE_BYTES = 256 * 1024 * 1024
MAX_SESSIONS = 200_000
MAX_JOURNAL = 100_000
MAX_SESSION_CHARS = 16 * 1024 * 1024
MAX_STRING = 100_000
MAX_DEPTH = 64
MAX_INT = LARGEST  # the one bound of companion.contract.numbers: every way in agrees
