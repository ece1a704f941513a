"""Readers of evaluation data sets in their upstream layouts, one module per data set.

Each module has ``load(root, langs, report, split=...) -> list[Item]``: ``root`` is the folder the
user named with ``--data NAME:DIR``, ``langs`` the target languages to keep (None: every one the
data has), ``report`` collects the rows that were skipped. A folder with the wrong layout raises
``DataError`` naming the paths that were expected, before any file is read.
"""
