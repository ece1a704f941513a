"""Generation settings shared by every backend, so a method behaves the same on each."""

from __future__ import annotations

from dataclasses import dataclass, replace

from .request import GenerationRequest


@dataclass(frozen=True)
class GenerationConfig:
    """A model's decoding options, which a call's ``GenerationRequest`` overrides.

    temperature: 0 means greedy decoding (the default: translations should be reproducible).
    max_tokens: upper bound on generated tokens per call.
    seed: used when sampling (temperature > 0).
    bad_words: words the reply may not contain (unless a request names its own).
    """

    temperature: float = 0.0
    max_tokens: int = 512
    seed: int = 0
    bad_words: tuple[str, ...] = ()

    def updated(self, request: GenerationRequest) -> "GenerationConfig":
        """This config with the decoding options ``request`` sets."""
        values = {name: getattr(request, name) for name in ("temperature", "max_tokens", "seed")
                  if getattr(request, name) is not None}
        return replace(self, **values, bad_words=request.bad_words or self.bad_words)
