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
    bad_words: words the reply may not contain (bound as vLLM's ``extra_body={"bad_words": ...}``).
    """

    temperature: float = 0.0
    max_tokens: int = 512
    seed: int = 0
    bad_words: tuple[str, ...] = ()

    def updated(self, overrides: dict[str, Any]) -> "GenerationConfig":
        """This config with the decoding options a call binds (other keyword arguments are ignored)."""
        values = {k: overrides[k] for k in ("temperature", "max_tokens", "seed") if k in overrides}
        bad_words = (overrides.get("extra_body") or {}).get("bad_words")
        if bad_words:
            values["bad_words"] = tuple(bad_words)
        return replace(self, **values)
