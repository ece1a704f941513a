"""F-Acc and G-Acc: does the translation carry the gold formality or gender?

One accuracy and one coverage metric per checker metric prefix (``f``: formality, ``g``:
gender), reported for every ambiguity type whose checker (``assistant.checks.checker_for``)
has that prefix. The label is read off the translation by that checker, the same one
verify-and-repair uses, and compared with the item's gold attribute of its type
(``AmbiguityType.gold``). A checker that finds no marker reads nothing ("unreadable"),
which the accuracy counts as not correct and the coverage reports on its own.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from assistant import __version__
from assistant.checks import CHECKERS, checker_for

from ..records import Output
from .base import SegmentMetric
from .table import entry, gold_of


def observed_label(output: Output) -> str | None:
    """What the item type's checker reads off the translation (None: unreadable, or no checker)."""
    checker = checker_for(output.item.ambiguity)
    return checker.read(output.translation, output.item.lang) if checker else None


def prefix_labels(prefix: str) -> tuple[str, ...]:
    """The labels the checkers of a metric prefix read, in the checkers' order."""
    return tuple(dict.fromkeys(label for c in CHECKERS.values() if c.metric == prefix for label in c.labels))


class CheckerMetric(SegmentMetric):
    """Statistics per item: [has a gold label, checker read a label, label equals gold]. Items
    without a gold label the checker can read (formality "neutral", gender not derivable) are not counted."""

    suffix: str

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.name = f"{prefix}_{self.suffix}"

    def reported_for(self, ambiguity: str) -> bool:
        checker = checker_for(ambiguity)
        return checker is not None and checker.metric == self.prefix

    def row(self, output: Output) -> list[float]:
        checker = checker_for(output.item.ambiguity)
        expected = gold_of(output.item)
        if checker is None or checker.metric != self.prefix or expected not in checker.labels:
            return [0.0, 0.0, 0.0]
        observed = observed_label(output)
        return [1.0, float(observed is not None), float(observed == expected)]

    def counted(self, stats: np.ndarray) -> np.ndarray:
        return stats[:, 0] > 0

    def signature(self) -> str:
        return f"gold:{'+'.join(prefix_labels(self.prefix))}|checker:rules|version:{__version__}"


class LabelAccuracy(CheckerMetric):
    """F-Acc or G-Acc: share of gold-labelled items whose translation reads as the gold label;
    an unreadable translation (and a failed item) counts as not correct."""

    suffix = "acc"

    def aggregate(self, totals: np.ndarray) -> float | None:
        return float(100 * totals[2] / totals[0]) if totals[0] else None

    def segment(self, output: Output) -> dict[str, Any]:
        labelled, _, correct = self.row(output)
        return {f"observed_{entry(output.item.ambiguity).gold}": observed_label(output),
                self.name: int(correct) if labelled else None}

    def signature(self) -> str:
        return super().signature() + "|unreadable:wrong"


class LabelCoverage(CheckerMetric):
    """F-Cov or G-Cov: share of gold-labelled items whose translation the checker can read at all.
    Accuracy among the readable ones is acc / cov."""

    suffix = "cov"

    def aggregate(self, totals: np.ndarray) -> float | None:
        return float(100 * totals[1] / totals[0]) if totals[0] else None
