"""intercpt: a translation assistant that asks before it guesses."""

__version__ = "0.1.0"
