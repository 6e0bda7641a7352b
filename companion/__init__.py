"""Tabletop Companion: a scorekeeper and fair dealer for real board games at a real table."""

__version__ = "0.1.0"
