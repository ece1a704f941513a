"""Is a method's difference from a baseline more than chance? A paired bootstrap test per metric."""

from __future__ import annotations

import numpy as np

from ..records import Output
from .base import MetricError, resample_weights
from .registry import METRICS

# Below this many paired items a bootstrap says nothing: with one item every resample is that
# item, and any difference at all would come out "significant".
MIN_PAIRED_ITEMS = 10


def align(system: list[Output], baseline: list[Output]) -> tuple[list[Output], list[Output]]:
    """The records of the items both sides have, in the same order (an unfinished run may lack some)."""
    by_id = [_by_item_id(records, side) for records, side in ((system, "system"), (baseline, "baseline"))]
    shared = [key for key in by_id[0] if key in by_id[1]]
    if not shared:
        raise MetricError("system and baseline have no item in common to compare")
    return [by_id[0][key] for key in shared], [by_id[1][key] for key in shared]


def paired_test(system: list[Output], baseline: list[Output], names: list[str], *,
                bootstrap: int = 1000, seed: int = 0) -> dict[str, float | None]:
    """Two-sided paired bootstrap p-value per metric (Koehn 2004) over the items both sides have,
    aligned by item id.

    Each resample draws the same items for both sides; the p-value is the share of resampled
    differences at least as far from the observed difference as that is from zero (the
    null-centred distribution), with +1 smoothing, so identical systems get p = 1. None where
    a metric has no value on either side, and for every metric when ``bootstrap`` is 0 or
    fewer than ``MIN_PAIRED_ITEMS`` items are shared.
    sacreBLEU's own ``PairedTest`` is not used: it counts a zero difference as significant
    (identical systems get p = 1/(B+1)) and takes its seed from the environment.
    """
    system, baseline = align(system, baseline)
    weights = resample_weights(len(system), bootstrap, seed)
    p_values: dict[str, float | None] = {}
    for name in names:
        metric = METRICS[name]
        if bootstrap < 1 or len(system) < MIN_PAIRED_ITEMS:
            p_values[name] = None
            continue
        (sys_stats, _), (base_stats, _) = metric.measure(system), metric.measure(baseline)
        sys_value, base_value = metric.aggregate(sys_stats.sum(axis=0)), metric.aggregate(base_stats.sum(axis=0))
        if sys_value is None or base_value is None:
            p_values[name] = None
            continue
        observed = sys_value - base_value
        differences = metric.values(sys_stats, weights) - metric.values(base_stats, weights)
        differences = differences[~np.isnan(differences)]
        extreme = int(np.sum(np.abs(differences - observed) >= abs(observed)))
        p_values[name] = (extreme + 1) / (differences.size + 1)
    return p_values


def _by_item_id(records: list[Output], side: str) -> dict[str, Output]:
    by_id: dict[str, Output] = {}
    for record in records:
        key = record.item.id
        if key in by_id:
            raise MetricError(f"item {key!r} appears twice in the {side} records")
        by_id[key] = record
    return by_id
