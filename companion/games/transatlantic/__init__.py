"""Transatlantic: the ship market, docks, the end trigger and final scoring."""

from companion.games.transatlantic.rules import Transatlantic

__all__ = ["Transatlantic"]
