"""Where the outputs lean and where the interactive chain goes wrong: label bias and error types."""

from __future__ import annotations

from collections import Counter
from typing import Any

from assistant.checks import label_from_answer
from assistant.checks import checker_for

from .accuracy import LABELS, checked_attribute, observed_label
from .fields import family, gold, kind

UNREADABLE, UNKNOWN = "unreadable", "unknown"
ERROR_TYPES = ("no_question", "wrong_phenomenon", "answer_contradicts_gold", "ignored_answer")


def bias(records: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Gold against output distribution of formality (formality items) and gender (it_resolution,
    names, professions), as counts and shares (fractions of ``n``). Gold "neutral" formality and
    a gender the data does not give count as themselves (``unknown``); an output the checker
    cannot read (or a failed item) counts as ``unreadable``. Types without such a label are left out.
    """
    gold_counts: dict[str, Counter] = {}
    output_counts: dict[str, Counter] = {}
    for record in records:
        attribute = checked_attribute(kind(record))
        if attribute is None:
            continue
        gold_counts.setdefault(attribute, Counter())[gold(record, attribute) or UNKNOWN] += 1
        output_counts.setdefault(attribute, Counter())[observed_label(record) or UNREADABLE] += 1
    summary = {}
    for attribute, golds in gold_counts.items():
        n = sum(golds.values())
        expected = {label: golds[label] for label in (*LABELS[attribute], *sorted(set(golds) - set(LABELS[attribute])))}
        output = {label: output_counts[attribute][label] for label in (*LABELS[attribute], UNREADABLE)}
        summary[attribute] = {"n": n, "gold": expected, "output": output,
                              "gold_shares": {k: v / n for k, v in expected.items()},
                              "output_shares": {k: v / n for k, v in output.items()}}
    return summary


def error_types(record: dict[str, Any]) -> list[str]:
    """The errors of the paper's analysis that can be told apart automatically, for an intercpt
    record (other methods and failed items have none):

    - ``no_question``: nothing was asked;
    - ``wrong_phenomenon``: questions were asked, none about the item's type (names and
      professions count as one gender phenomenon);
    - ``answer_contradicts_gold``: an answer about the item's type asks for the label opposite
      to the gold one (read by ``label_from_answer``; it_resolution answers name a noun, which
      carries no readable label, so they never count);
    - ``ignored_answer``: a final check of an answered phenomenon failed.
    """
    transcript = record.get("transcript")
    if record.get("method") != "intercpt" or not transcript:
        return []
    turns = transcript.get("turns") or []
    if not turns:
        return ["no_question"]
    errors = []
    on_topic = [t for t in turns if family(t["ambiguity"]) == family(kind(record))]
    if not on_topic:
        errors.append("wrong_phenomenon")
    if any(_contradicts(record, turn) for turn in on_topic):
        errors.append("answer_contradicts_gold")
    answered = {_check(turn) for turn in turns if turn.get("answer")} - {None}
    if any(c["name"] in answered and c["status"] == "fail" for c in transcript.get("checks") or []):
        errors.append("ignored_answer")
    return errors


def _check(turn: dict[str, Any]) -> str | None:
    checker = checker_for(turn["ambiguity"])
    return checker.name if checker else None


def _contradicts(record: dict[str, Any], turn: dict[str, Any]) -> bool:
    checker = checker_for(turn["ambiguity"])
    if not checker or not turn.get("answer"):
        return False
    expected, said = gold(record, checker.answers), label_from_answer(checker.answers, turn["answer"])
    return expected in checker.labels and said is not None and said != expected
