"""The scores a finished run prints in the terminal: each group's headline, the benchmark's own
accuracies and how well the assistant asked, so a person sees the result without opening report.md."""

from __future__ import annotations

from typing import Any

from .metrics.registry import asking_metrics, checker_metrics
from .metrics.table import headline
from .report import format_cell


def terminal_columns(groups: list[dict[str, Any]]) -> list[str]:
    """The metrics worth a glance, in a fixed order: headlines, then the label-reading metrics
    (checkers and benchmark markers), then the asking metrics; only those some group reports."""
    present = {name for row in groups for name in row["scores"]}
    wanted = [headline(row["type"]) for row in groups] + checker_metrics() + asking_metrics()
    return [name for name in dict.fromkeys(wanted) if name in present and not name.endswith("_cov")]


def print_summary(summary: dict[str, Any], report: str) -> None:
    """One row per type × language × method with the scores as report.md writes them (95 % bootstrap
    interval where computed, ``*`` where significantly better than the best baseline)."""
    from rich.console import Console
    from rich.table import Table

    groups = summary["groups"]
    names = terminal_columns(groups)
    table = Table(title=f"{summary['run']['translator']} · user {summary['run']['user']} · "
                        f"{summary['run']['items']} records ({summary['run']['failed_items']} failed)")
    for column in ["type", "lang", "method", "n", *names]:
        table.add_column(column, justify="left" if column in ("type", "lang", "method") else "right")
    for row in groups:
        table.add_row(row["type"], row["lang"], row["method"], str(row["n"]),
                      *(format_cell(row["scores"].get(name), (row["significance"] or {}).get("p", {}).get(name))
                        for name in names))
    console = Console()
    if not console.is_terminal:  # a log file or a pipe: one line per row rather than folded headers
        console = Console(width=240)
    console.print(table)
    console.print(f"report: {report}")

