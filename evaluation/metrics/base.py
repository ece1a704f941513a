"""The metric template, its result type and the lazy registry of metrics.

As in sacreBLEU, a metric first turns each record into a row of sufficient statistics and
then computes one corpus value from the summed rows. Kept rows make bootstrap confidence
intervals and paired significance tests cheap: resampling only re-weights the rows.
"""

from __future__ import annotations

import difflib
import importlib
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from assistant.errors import IntercptError

from ..records import Output

CONFIDENCE = 0.95


class MetricError(IntercptError):
    """Outputs that cannot be scored, or a metric name that does not exist."""


def references(output: Output) -> list[str]:
    """The item's reference translations; a metric needs at least one, none of them empty."""
    refs = output.item.refs
    if not refs or not all(isinstance(r, str) and r for r in refs):
        raise MetricError(f"item {output.item.id!r} needs at least one non-empty reference translation")
    return refs


def single_language(outputs: list[Output]) -> str:
    """The one target language of a group; BLEU's tokenisation and the checkers depend on it."""
    if not outputs:
        raise MetricError("no records to score")
    langs = sorted({o.item.lang for o in outputs})
    if len(langs) > 1:
        raise MetricError(f"records of one group share a target language; got {', '.join(langs)}")
    return langs[0]


@dataclass
class Score:
    """A corpus value on a 0-100 scale with its 95% bootstrap interval (None without resampling).

    ``n`` is the number of records the metric counted and ``excluded`` the number of records of
    the group it could not count (no gold label, e.g. "neutral" formality), so a table can say so.
    """

    name: str
    value: float | None
    ci_low: float | None
    ci_high: float | None
    n: int
    signature: str
    higher_is_better: bool = True
    excluded: int = 0


    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def resample_weights(n: int, bootstrap: int, seed: int) -> np.ndarray:
    """How often each of ``n`` rows is drawn in each of ``bootstrap`` resamples with replacement."""
    rng = np.random.default_rng(seed)
    return rng.multinomial(n, np.full(n, 1.0 / n), size=bootstrap).astype(np.float64)


class Metric(ABC):
    """Statistics per output, summed, then one aggregate (see the module docstring).

    ``ambiguities`` names the ambiguity types the metric is reported for (None: every type); a metric
    whose types come from the ambiguity table overrides ``reported_for`` instead. ``methods``
    names the methods it is reported for (None: every method; the asking metrics: intercpt only);
    ``reads_alternatives``: it reads the translations under the options of a skipped question. And
    ``reported_for_output`` decides per output (a metric that needs data only some data sets carry,
    such as CoCoA-MT's annotated references, checks for it there).
    """

    name: str
    ambiguities: tuple[str, ...] | None = None
    methods: tuple[str, ...] | None = None
    higher_is_better: bool = True
    reads_alternatives: bool = False  # the evaluator computes an item's alternatives only for such a metric

    @abstractmethod
    def measure(self, records: list[Output]) -> tuple[np.ndarray, str]:
        """One row of statistics per record (shape n x k) and the signature of the computation."""

    @abstractmethod
    def aggregate(self, totals: np.ndarray) -> float | None:
        """The corpus value from summed rows; None where nothing was counted."""

    def reported_for(self, ambiguity: str) -> bool:
        """Whether the metric is reported for an ambiguity type."""
        return self.ambiguities is None or ambiguity in self.ambiguities

    def reported_for_output(self, output: Output) -> bool:
        """Whether the metric is reported for a group holding this output (its type, its method, its data)."""
        method = getattr(output, "method", None)  # a reference output belongs to no method
        return self.reported_for(output.item.ambiguity) and (self.methods is None or method in self.methods)

    def counted(self, stats: np.ndarray) -> np.ndarray:
        """Which rows the metric counts (all, unless it needs a gold label)."""
        return np.ones(len(stats), dtype=bool)

    def segment(self, output: Output) -> dict[str, Any]:
        """Readable per-item values for items.jsonl; corpus-only metrics (BLEU) give none."""
        return {}

    def values(self, stats: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """The aggregate under each resample's row weights (NaN where it is undefined)."""
        totals = weights @ stats
        return np.array([np.nan if (v := self.aggregate(t)) is None else v for t in totals], dtype=np.float64)

    def score(self, records: list[Output], *, bootstrap: int = 1000, seed: int = 0) -> Score:
        """The corpus score of one group, with a percentile bootstrap interval over its records."""
        stats, signature = self.measure(records)
        counted = int(self.counted(stats).sum())
        value = self.aggregate(stats.sum(axis=0))
        low = high = None
        if value is not None and bootstrap > 0 and len(records) > 1:
            samples = self.values(stats, resample_weights(len(records), bootstrap, seed))
            samples = samples[~np.isnan(samples)]
            if samples.size:
                tail = (1 - CONFIDENCE) / 2 * 100
                low, high = (float(x) for x in np.percentile(samples, [tail, 100 - tail]))
                signature += f"|bs:{bootstrap}|seed:{seed}"
        return Score(self.name, value, low, high, counted, signature, self.higher_is_better,
                     excluded=len(records) - counted)


class SegmentMetric(Metric):
    """A metric whose statistics row is computed from each record on its own."""

    @abstractmethod
    def row(self, output: Output) -> list[float]:
        """The statistics of one record."""

    @abstractmethod
    def signature(self) -> str:
        """The options that define the metric, e.g. ``nrefs:1|checker:rules|unreadable:wrong``."""

    def measure(self, records: list[Output]) -> tuple[np.ndarray, str]:
        stats = np.array([self.row(r) for r in records], dtype=np.float64)
        return stats, self.signature()


class Registry(Mapping[str, Metric]):
    """Metric names mapped to ``"module:Class"`` targets, imported and built on first use.

    Unknown names get a "did you mean" answer (lm-evaluation-harness's registry does the same).
    """

    def __init__(self) -> None:
        self._targets: dict[str, tuple[str, dict[str, Any]]] = {}
        self._built: dict[str, Metric] = {}

    def register(self, name: str, target: str, **options: Any) -> None:
        """Add ``name``; ``target`` is ``"module:Class"`` and ``options`` its constructor arguments."""
        if name in self._targets:
            raise ValueError(f"metric {name!r} is registered already")
        self._targets[name] = (target, options)

    def __getitem__(self, name: str) -> Metric:
        if name not in self._built:
            if name not in self._targets:
                raise MetricError(self._unknown(name))
            target, options = self._targets[name]
            module, _, attr = target.partition(":")
            metric = getattr(importlib.import_module(module), attr)(**options)
            if metric.name != name:
                raise ValueError(f"registry name {name!r} does not match the metric's name {metric.name!r}")
            self._built[name] = metric
        return self._built[name]

    def __contains__(self, name: object) -> bool:
        return name in self._targets

    def get(self, name: str, default: Metric | None = None) -> Metric | None:
        return self[name] if name in self._targets else default

    def __iter__(self) -> Iterator[str]:
        return iter(self._targets)

    def __len__(self) -> int:
        return len(self._targets)

    def _unknown(self, name: str) -> str:
        close = difflib.get_close_matches(name, self._targets, n=3)
        hint = f"; did you mean {' or '.join(close)}?" if close else ""
        return f"unknown metric {name!r}{hint} (known: {', '.join(self._targets)})"


class ShareMetric(SegmentMetric):
    """The share (0-100) of the counted items that meet a condition: each row is
    [counted, met], and an item that is not counted (no gold to judge it by) scores None."""

    def counted(self, stats: np.ndarray) -> np.ndarray:
        return stats[:, 0] > 0

    def aggregate(self, totals: np.ndarray) -> float | None:
        return float(100 * totals[1] / totals[0]) if totals[0] else None

    def segment(self, output: Any) -> dict[str, Any]:
        counted, met = self.row(output)
        return {self.name: int(met) if counted else None}
