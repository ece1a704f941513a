"""Generation settings shared by every backend, so a method behaves the same on each."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GenerationConfig:
    """Decoding options.

    temperature: 0 means greedy decoding (the default: translations should be reproducible).
    max_tokens: upper bound on generated tokens per call.
    seed: used when sampling (temperature > 0).
    """

    temperature: float = 0.0
    max_tokens: int = 512
    seed: int = 0
