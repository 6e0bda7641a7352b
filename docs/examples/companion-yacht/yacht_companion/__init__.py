"""Yacht for Tabletop Companion: an example of a game that lives outside the companion."""
