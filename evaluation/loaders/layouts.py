"""Each data set's layout file (``datasets/<set>/layout.yaml``): which ambiguity type its items are of.

Which data holds which type is data, so the loaders read it here rather than name a type
themselves: AmbigMT's file gives each type's files and columns, CoCoA-MT's and GATE's the one
type of all their items.
"""

from __future__ import annotations

from typing import Any

import yaml

from assistant.paths import shipped_dir

LAYOUT_FILE = "layout.yaml"


def read_layout(data_set: str) -> dict[str, Any]:
    """The layout file of the data set in ``datasets/<data_set>/``."""
    path = shipped_dir("datasets") / data_set / LAYOUT_FILE
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def item_type(data_set: str) -> str:
    """The ambiguity type every item of a one-type data set is of."""
    return read_layout(data_set)["type"]
