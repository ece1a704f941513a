"""The transcript of one chain run: the single record shared by the CLI, the UI and the evaluator."""

from __future__ import annotations

import json
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any, Iterator

SCHEMA_VERSION = 1


@dataclass
class Transcript:
    """What was asked, who answered, what came out, and how long each step took.

    ``timings`` maps a step name to seconds; ``context`` is what the caller supplied
    (the translator only sees it with the with-context method).
    """

    source: str
    target_lang: str
    method: str
    model: str
    context: str | None = None
    translation: str | None = None
    timings: dict[str, float] = field(default_factory=dict)
    schema_version: int = SCHEMA_VERSION

    @contextmanager
    def timed(self, step: str) -> Iterator[None]:
        """Add the wall time of the ``with`` body to ``timings[step]``."""
        start = time.perf_counter()
        try:
            yield
        finally:
            elapsed = time.perf_counter() - start
            self.timings[step] = round(self.timings.get(step, 0.0) + elapsed, 4)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Transcript":
        return cls(**data)
