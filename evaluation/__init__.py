"""Batch evaluation of intercpt on AmbigMT-style data."""
