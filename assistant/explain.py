"""A short account of the choices behind a translation, for the person who reads it."""

from __future__ import annotations

from .checks import expectations
from .transcript import Transcript
from .usage import total

WHO = {"human": "you said", "preference": "you said earlier", "simulated": "the simulated user said",
       "oracle": "the gold label says"}


def explain(transcript: Transcript) -> list[str]:
    """Lines such as "you → formal, because you said: speaking to my boss"."""
    lines = []
    for turn in transcript.turns:
        if not turn.answer:
            lines.append(f"{turn.span} → not answered ({turn.question})")
            continue
        label = next((label for _, label in expectations([turn])), None)
        who = WHO.get(turn.answered_by, f"{turn.answered_by} said")
        lines.append(f"{turn.span} → {label + ', because ' if label else ''}{who}: {turn.answer}")
    for settled in transcript.settled:
        lines.append(f"{settled.span} → not asked: {settled.evidence}")
    for check in transcript.checks:
        if check.name == "length" and check.status == "pass":
            continue
        tries = f" after {check.attempts} tries" if check.attempts > 1 else ""
        if check.status == "pass":
            lines.append(f"checked: {check.name} is {check.observed}{tries}")
        elif check.status == "fail":
            lines.append(f"warning: {check.name} should be {check.expected} but is {check.observed}{tries}")
        else:
            lines.append(f"could not check {check.name}: nothing in the translation marks it")
    for alternative in transcript.alternatives:
        lines.append(f"if {alternative.assumption}: {alternative.translation}")
    if transcript.usage:
        lines.append(cost(transcript))
    return lines


def cost(transcript: Transcript) -> str:
    """What the translation cost, e.g. "cost: 3 model calls, 1,420 tokens"."""
    spent = total(transcript.usage.values())
    line = f"cost: {spent.calls} model call{'s' if spent.calls != 1 else ''}, {spent.tokens:,} tokens"
    if spent.unreported:
        line += f" ({spent.unreported} call{'s' if spent.unreported != 1 else ''} reported no tokens)"
    return line
