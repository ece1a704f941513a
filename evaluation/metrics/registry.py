"""Every metric by name (built on first use) and which ones a type of ambiguity is reported with.

The checker metrics come from the checkers: one accuracy and one coverage per metric prefix
(``f_acc``, ``f_cov``, ``g_acc``, ``g_cov``), so a new checker brings its own columns.
"""

from __future__ import annotations

from assistant.checks import CHECKERS

from .base import Registry

METRICS = Registry()
METRICS.register("bleu", "evaluation.metrics.text:CorpusBleu")
METRICS.register("chrf", "evaluation.metrics.text:CorpusChrf")
METRICS.register("hit@1", "evaluation.metrics.text:HitAtN", n=1)
METRICS.register("hit@3", "evaluation.metrics.text:HitAtN", n=3)
METRICS.register("chrf@3", "evaluation.metrics.text:ChrfAtN", n=3)
METRICS.register("comet", "evaluation.metrics.comet:CometMean")


def register_checker_metrics() -> None:
    """One accuracy and one coverage metric per checker metric prefix, for every checker registered
    so far (a checker registered later, e.g. with a new ambiguity type, brings its columns too)."""
    for prefix in dict.fromkeys(checker.metric for checker in CHECKERS.values()):
        if f"{prefix}_acc" not in METRICS:
            METRICS.register(f"{prefix}_acc", "evaluation.metrics.accuracy:LabelAccuracy", prefix=prefix)
            METRICS.register(f"{prefix}_cov", "evaluation.metrics.accuracy:LabelCoverage", prefix=prefix)


def metrics_for(kind: str) -> list[str]:
    """The metric names reported for an ambiguity type (chrF for every type, also unknown ones)."""
    register_checker_metrics()
    return [name for name in METRICS if METRICS[name].reported_for(kind)]


def checker_metrics() -> list[str]:
    """The names of the metrics that score the checkers' reading (their ceiling is measured on references)."""
    from .accuracy import CheckerMetric

    register_checker_metrics()
    return [name for name in METRICS if isinstance(METRICS[name], CheckerMetric)]


register_checker_metrics()
