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


def metrics_for(ambiguity: str) -> list[str]:
    """The metric names reported for an ambiguity type (chrF for every type, also unknown ones)."""
    register_checker_metrics()
    return [name for name in METRICS if METRICS[name].reported_for(ambiguity)]


def reads_alternatives(ambiguity: str) -> bool:
    """Whether a metric reported for an ambiguity type reads the alternatives: only then are they
    worth their model calls (two more translations and their checks)."""
    return any(METRICS[name].reads_alternatives for name in metrics_for(ambiguity))


def metrics_for_outputs(outputs: list) -> list[str]:
    """The metric names reported for a group of outputs: those reported for at least one of them
    (its type, its method and the data it carries)."""
    register_checker_metrics()
    return [name for name in METRICS if any(METRICS[name].reported_for_output(o) for o in outputs)]


def checker_metrics() -> list[str]:
    """The names of the metrics that read a label off the translation, by the rule-based checkers or by a
    benchmark's own markers (their ceiling is measured on the references)."""
    from .accuracy import CheckerMetric
    from .contrastive import ThreeWayMetric

    register_checker_metrics()
    return [name for name in METRICS if isinstance(METRICS[name], (CheckerMetric, ThreeWayMetric))]


def asking_metrics() -> list[str]:
    """The names of the metrics of how well the assistant asks (reported in their own table)."""
    from .asking import AskingMetric

    return [name for name in METRICS if isinstance(METRICS[name], AskingMetric)]


register_checker_metrics()
# The benchmarks' own accuracies (reported only for items that carry their annotations), after the checkers'.
for _prefix, _class in (("cocoa", "CocoaFormality"), ("gate", "GateGender")):
    for _statistic in ("acc", "det_acc", "undet"):
        METRICS.register(f"{_prefix}_{_statistic}", f"evaluation.metrics.contrastive:{_class}", statistic=_statistic)
METRICS.register("ask_recall", "evaluation.metrics.asking:AskRecall")
METRICS.register("question_precision", "evaluation.metrics.asking:QuestionPrecision")
METRICS.register("questions_per_item", "evaluation.metrics.asking:QuestionsPerItem")
METRICS.register("needless_rate", "evaluation.metrics.asking:NeedlessQuestionRate")
