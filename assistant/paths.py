"""Where intercpt keeps its caches and finds the data files it ships."""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

CACHE_ENV_VAR = "INTERCPT_CACHE"


def cache_dir() -> Path:
    """``$INTERCPT_CACHE`` or ``~/.cache/intercpt``: converted models, server records, downloads."""
    return Path(os.environ.get(CACHE_ENV_VAR, Path.home() / ".cache" / "intercpt"))


def shipped_dir(name: str) -> Path:
    """A data folder of the repository (``prompts``, ``datasets``): the copy installed inside the
    ``assistant`` package as ``_<name>``, or, in a source checkout, the folder at the top."""
    installed = resources.files("assistant").joinpath(f"_{name}")
    if installed.is_dir():
        return Path(str(installed))
    return Path(__file__).resolve().parent.parent / name
