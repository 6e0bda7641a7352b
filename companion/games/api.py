"""Moved to ``companion.contract.api`` (issue 27): the contract is the bottom floor now.

This name stays so that plugins written before keep loading; it is the very same module, so
classes and functions are identical under both names. `games --verbose` names the new place.
"""
import sys

from companion.contract import api as _moved

sys.modules[__name__] = _moved
