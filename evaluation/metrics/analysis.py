"""Where the outputs lean and where the interactive chain goes wrong: label bias and error types."""

from __future__ import annotations

from collections import Counter
from typing import Any

from assistant.checks import CHECKERS, checker_for, expectations
from assistant.transcript import Turn

from ..records import Output, Record
from .accuracy import observed_label
from .table import entry

UNREADABLE, UNKNOWN = "unreadable", "unknown"
ERROR_TYPES = ("no_question", "wrong_phenomenon", "answer_contradicts_gold", "ignored_answer")


def bias(outputs: list[Output]) -> dict[str, dict[str, Any]]:
    """Gold against output distribution of each checked gold attribute (formality for formality
    items; gender for what "it" is, names and professions), as counts and shares (fractions of
    ``n``). A gold value the checker cannot read ("neutral" formality) or one the data does not
    give (``unknown``) counts as itself; an output the checker cannot read (or a failed item)
    counts as ``unreadable``. Types without a checker are left out.
    """
    labels: dict[str, tuple[str, ...]] = {}
    gold_counts: dict[str, Counter] = {}
    output_counts: dict[str, Counter] = {}
    for output in outputs:
        checker, ambiguity_type = checker_for(output.item.ambiguity), entry(output.item.ambiguity)
        if checker is None or not ambiguity_type.gold:
            continue
        labels.setdefault(ambiguity_type.gold, checker.labels)
        gold = output.item.attributes.get(ambiguity_type.gold)
        gold_counts.setdefault(ambiguity_type.gold, Counter())[gold or UNKNOWN] += 1
        output_counts.setdefault(ambiguity_type.gold, Counter())[observed_label(output) or UNREADABLE] += 1
    summary = {}
    for attribute, golds in gold_counts.items():
        n = sum(golds.values())
        known = labels[attribute]
        expected = {label: golds[label] for label in (*known, *sorted(set(golds) - set(known)))}
        output = {label: output_counts[attribute][label] for label in (*known, UNREADABLE)}
        summary[attribute] = {"n": n, "gold": expected, "output": output,
                              "gold_shares": {k: v / n for k, v in expected.items()},
                              "output_shares": {k: v / n for k, v in output.items()}}
    return summary


def error_types(record: Record) -> list[str]:
    """The errors of the paper's analysis that can be told apart automatically, for an intercpt
    record (other methods and failed items have none):

    - ``no_question``: nothing was asked;
    - ``wrong_phenomenon``: questions were asked, none about the item's phenomenon (the table's
      ``family``: names and professions are one, a person's gender);
    - ``answer_contradicts_gold``: an answer about the item's phenomenon asks for the label
      opposite to the gold one, as the chain itself reads it (``assistant.checks.expectations``;
      an answer naming a noun carries no readable label and never counts);
    - ``ignored_answer``: a final check of an answered phenomenon failed.
    """
    transcript = record.transcript
    if record.method != "intercpt" or transcript is None:
        return []
    if not transcript.turns:
        return ["no_question"]
    errors = []
    on_topic = [t for t in transcript.turns if _family(t.ambiguity) == _family(record.item.ambiguity)]
    if not on_topic:
        errors.append("wrong_phenomenon")
    if any(_contradicts(record, turn) for turn in on_topic):
        errors.append("answer_contradicts_gold")
    answered = {checker.name for turn in transcript.turns if turn.answer and (checker := checker_for(turn.ambiguity))}
    if any(check.name in answered and check.status == "fail" for check in transcript.checks):
        errors.append("ignored_answer")
    return errors


def _family(ambiguity: str) -> str:
    found = entry(ambiguity)
    return found.family if found else ambiguity


def _contradicts(record: Record, turn: Turn) -> bool:
    """Whether the label the chain reads off the answer (``expectations``) is the opposite of the gold one."""
    expected = record.item.attributes.get(entry(turn.ambiguity).gold or "")
    return any(expected in CHECKERS[checker].labels and said != expected
               for checker, said in expectations([turn]))
