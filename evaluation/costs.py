"""The cost side of the comparison: model calls, tokens and model time per item of each method.

Read from the finished items' transcripts (``Transcript.usage`` and ``timings``). Model time is the
chain's own: every timed step but ``answer``, which is the user's (a person, an oracle, or a simulated
user whose model calls the transcript does not count either). Each method's model time and calls are
also set against no-extra's, the plain translation, on the items both finished.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from assistant.usage import StepUsage, total

from .records import Record

REFERENCE_METHOD = "no-extra"
USER_STEPS = ("answer",)  # timed, but not the chain's model time


def _costed(records: list[Record]) -> dict[str, Record]:
    """The finished records whose transcript counted its model calls (older transcripts did not), by item id."""
    return {r.item.id: r for r in records if r.error is None and r.transcript is not None and r.transcript.usage}


def model_seconds(record: Record) -> float:
    return sum(s for step, s in record.transcript.timings.items() if step not in USER_STEPS)


def _spent(record: Record) -> StepUsage:
    return total(record.transcript.usage.values())


def cost(records: list[Record], reference: list[Record] | None) -> dict[str, Any] | None:
    """Per item of ``records`` (one method's, of one type × language): mean calls, tokens and model
    seconds; and, against ``reference`` (no-extra's on the same type × language), the ratio of the
    summed model time and calls on the items both finished. None when no record counted its calls."""
    costed = _costed(records)
    if not costed:
        return None
    n = len(costed)
    spent = total(_spent(r) for r in costed.values())
    row: dict[str, Any] = {"items": n, **{name: round(value / n, 2) for name, value in asdict(spent).items()},
                           "model_s": round(sum(model_seconds(r) for r in costed.values()) / n, 3)}
    row["vs_no_extra"] = _ratios(costed, _costed(reference or []))
    return row


def _ratios(costed: dict[str, Record], reference: dict[str, Record]) -> dict[str, Any] | None:
    shared = [i for i in costed if i in reference]
    if not shared:
        return None
    ours = (sum(model_seconds(costed[i]) for i in shared), sum(_spent(costed[i]).calls for i in shared))
    theirs = (sum(model_seconds(reference[i]) for i in shared), sum(_spent(reference[i]).calls for i in shared))
    return {"items": len(shared), "model_time": round(ours[0] / theirs[0], 2) if theirs[0] else None,
            "calls": round(ours[1] / theirs[1], 2) if theirs[1] else None}


COLUMNS = ("calls / item (streamed)", "prompt tokens / item (evaluated)", "output tokens / item", "model s / item",
           f"× {REFERENCE_METHOD}: model time, calls")


def cells(row_cost: dict[str, Any] | None) -> list[str]:
    """The report's cost cells of one row (``COLUMNS``); dashes where nothing was counted."""
    if row_cost is None:
        return ["–"] * len(COLUMNS)
    ratio = row_cost["vs_no_extra"]
    versus = (f"{_number(ratio['model_time'])}, {_number(ratio['calls'])} (n={ratio['items']})" if ratio else "–")
    unreported = f"; {row_cost['unreported']:g} unreported" if row_cost["unreported"] else ""
    return [f"{row_cost['calls']:g} ({row_cost['streamed']:g}{unreported})",
            f"{row_cost['input_tokens']:,.0f} ({row_cost['evaluated_tokens']:,.0f})",
            f"{row_cost['output_tokens']:,.0f}", f"{row_cost['model_s']:.2f}", versus]


def _number(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}×"
