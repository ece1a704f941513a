"""Every metric by name (built on first use) and which ones a type of ambiguity is reported with."""

from __future__ import annotations

from .base import Registry

METRICS = Registry()
METRICS.register("bleu", "evaluation.metrics.text:CorpusBleu")
METRICS.register("chrf", "evaluation.metrics.text:CorpusChrf")
METRICS.register("f_acc", "evaluation.metrics.accuracy:LabelAccuracy", attribute="formality")
METRICS.register("f_cov", "evaluation.metrics.accuracy:LabelCoverage", attribute="formality")
METRICS.register("g_acc", "evaluation.metrics.accuracy:LabelAccuracy", attribute="gender")
METRICS.register("g_cov", "evaluation.metrics.accuracy:LabelCoverage", attribute="gender")
METRICS.register("hit@1", "evaluation.metrics.text:HitAtN", n=1)
METRICS.register("hit@3", "evaluation.metrics.text:HitAtN", n=3)
METRICS.register("chrf@3", "evaluation.metrics.text:ChrfAtN", n=3)
METRICS.register("comet", "evaluation.metrics.comet:CometMean")


def metrics_for(kind: str) -> list[str]:
    """The metric names reported for an ambiguity type (chrF for every type, also unknown ones)."""
    return [name for name in METRICS if METRICS[name].reported_for(kind)]
