"""A file's progress as a translator reads it: segments a minute and the time left.

A segment of a small model on a CPU takes seconds, so tqdm's "0.21 segment/s" reads badly; the bar shows
tqdm's own measured rate per minute instead, and hands the same line to a page's progress bar.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tqdm import tqdm

# Hears (segments done, segments in all, "12.0 segments/min, 3:20 left") after each segment (a page's bar).
PaceReport = Callable[[int, int, str], None]
BAR_FORMAT = "{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}, {pace}]"


def pace(info: dict[str, Any]) -> str:
    """The pace line of a tqdm ``format_dict``: its smoothed rate (the mean rate until it has one) per minute,
    and the time left at that rate."""
    rate = info["rate"] or (info["n"] / info["elapsed"] if info["n"] and info["elapsed"] else None)
    if not rate:
        return "? segments/min"
    left = tqdm.format_interval((info["total"] - info["n"]) / rate)
    return f"{rate * 60:.1f} segments/min, {left} left"


class SegmentBar(tqdm):
    """tqdm's bar over a file's segments with the pace line; ``report`` hears it after each update."""

    def __init__(self, total: int, desc: str, report: PaceReport | None = None, **settings: Any):
        self.report = report
        super().__init__(total=total, desc=desc, unit="segment", bar_format=BAR_FORMAT, **settings)

    @property
    def format_dict(self) -> dict[str, Any]:
        info = super().format_dict
        return {**info, "pace": pace(info)}

    def update(self, n: float = 1) -> bool | None:
        shown = super().update(n)
        if self.report is not None:
            self.report(self.n, self.total, self.format_dict["pace"])
        return shown
