"""Scores of the batch evaluator, per (ambiguity type x target language x method) group.

Metrics read typed outputs (``evaluation.records.Output``: a ``Record`` of a run, or a
``ReferenceOutput`` for the checker ceiling). ``segment_scores`` gives the readable per-item
values stored with each record, ``corpus_scores`` the group's scores with bootstrap
intervals, ``paired_test`` the p-values of a method against a baseline, ``bias`` and
``error_types`` the analysis tables.
"""

from __future__ import annotations

from typing import Any

from ..records import Output, Record
from .analysis import ERROR_TYPES, bias, error_types
from .base import Metric, MetricError, Score, single_language
from .registry import (METRICS, asking_metrics, checker_metrics, metrics_for, metrics_for_outputs,
                       reads_alternatives)
from .significance import paired_test
from .table import has_gold_ambiguity

__all__ = [
    "ERROR_TYPES", "METRICS", "Metric", "MetricError", "Score", "asking_metrics", "bias", "checker_metrics",
    "corpus_scores", "error_types", "metrics_for", "metrics_for_outputs", "paired_test", "reads_alternatives",
    "segment_scores",
]


def segment_scores(record: Record) -> dict[str, Any]:
    """Per-item values of every metric reported for the record (e.g. ``observed_formality``, ``f_acc``,
    ``chrf``, ``hit@3``, ``questions``), plus ``error_types`` for intercpt records of an item with a
    gold ambiguity (on a ``none`` item, asking nothing is no error)."""
    scores: dict[str, Any] = {}
    for name in metrics_for_outputs([record]):
        scores.update(METRICS[name].segment(record))
    if record.method == "intercpt" and has_gold_ambiguity(record.item):
        scores["error_types"] = error_types(record)
    return scores


def corpus_scores(outputs: list[Output], *, names: list[str] | None = None, bootstrap: int = 1000,
                  seed: int = 0) -> dict[str, Score]:
    """The scores of one group (one target language): the named metrics, by default every metric
    reported for the group's outputs; ``bootstrap=0`` skips the confidence intervals."""
    single_language(outputs)
    names = names or metrics_for_outputs(outputs)
    return {name: METRICS[name].score(outputs, bootstrap=bootstrap, seed=seed) for name in names}
