"""Generation settings shared by every backend, so a method behaves the same on each."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any


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

    def updated(self, overrides: dict[str, Any]) -> "GenerationConfig":
        """This config with the decoding options a call binds (other keyword arguments are ignored)."""
        return replace(self, **{k: overrides[k] for k in ("temperature", "max_tokens", "seed") if k in overrides})
