"""Atlantic Star: the charter agency, money, voyages ranked per sea, loans and final scores."""

from companion.games.atlantic_star.rules import AtlanticStar

__all__ = ["AtlanticStar"]
