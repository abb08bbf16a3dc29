"""Tabula: a Discord bot for dice race games."""

__version__ = "0.1.0"
