"""F-Acc and G-Acc: does the translation carry the gold formality or gender?

The label is read off the translation by the rule-based checkers of ``assistant.checks``, the
same ones verify-and-repair uses: formality of address for formality items, the gender of
what "it" stands for in it_resolution items, the gender of the person for names and
professions. A checker that finds no marker reads nothing ("unreadable"), which the accuracy
counts as not correct and the coverage reports on its own.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from assistant import __version__
from assistant.checks import FEMININE, FORMAL, INFORMAL, MASCULINE, checker_for

from .base import SegmentMetric
from .fields import GENDER_TYPES, gold, kind, lang, translation

LABELS = {"formality": (FORMAL, INFORMAL), "gender": (MASCULINE, FEMININE)}
KINDS = {"formality": ("formality",), "gender": GENDER_TYPES}


def checked_attribute(ambiguity: str) -> str | None:
    """The gold attribute a type's translations are checked for: formality, gender, or None."""
    return next((attribute for attribute, kinds in KINDS.items() if ambiguity in kinds), None)


def observed_label(record: dict[str, Any]) -> str | None:
    """What the checker reads off the translation for the item's type (None: unreadable or not checked)."""
    checker = checker_for(kind(record))
    return checker.read(translation(record), lang(record)) if checker else None


class _GoldLabelMetric(SegmentMetric):
    """Statistics per item: [has a gold label, checker read a label, label equals gold]. Items
    without a binary gold label (formality "neutral", gender not derivable) are not counted."""

    def __init__(self, attribute: str) -> None:
        self.attribute = attribute
        self.kinds = KINDS[attribute]

    def row(self, record: dict[str, Any]) -> list[float]:
        expected = gold(record, self.attribute)
        if kind(record) not in self.kinds or expected not in LABELS[self.attribute]:
            return [0.0, 0.0, 0.0]
        observed = observed_label(record)
        return [1.0, float(observed is not None), float(observed == expected)]

    def counted(self, stats: np.ndarray) -> np.ndarray:
        return stats[:, 0] > 0

    def signature(self) -> str:
        return f"gold:{'+'.join(LABELS[self.attribute])}|checker:rules|version:{__version__}"


class LabelAccuracy(_GoldLabelMetric):
    """F-Acc (formality) or G-Acc (gender): share of gold-labelled items whose translation reads as
    the gold label; an unreadable translation (and a failed item) counts as not correct."""

    def __init__(self, attribute: str) -> None:
        super().__init__(attribute)
        self.name = f"{attribute[0]}_acc"

    def aggregate(self, totals: np.ndarray) -> float | None:
        return float(100 * totals[2] / totals[0]) if totals[0] else None

    def segment(self, record: dict[str, Any]) -> dict[str, Any]:
        labelled, _, correct = self.row(record)
        return {f"observed_{self.attribute}": observed_label(record), self.name: int(correct) if labelled else None}

    def signature(self) -> str:
        return super().signature() + "|unreadable:wrong"


class LabelCoverage(_GoldLabelMetric):
    """F-Cov or G-Cov: share of gold-labelled items whose translation the checker can read at all.
    Accuracy among the readable ones is acc / cov."""

    def __init__(self, attribute: str) -> None:
        super().__init__(attribute)
        self.name = f"{attribute[0]}_cov"

    def aggregate(self, totals: np.ndarray) -> float | None:
        return float(100 * totals[1] / totals[0]) if totals[0] else None
