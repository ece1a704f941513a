"""Reading the fields the metrics need out of an evaluation record (one line of items.jsonl).

A record is a plain dict: ``key``, ``method``, ``item`` (the ``Item`` as a dict), ``transcript``
(``Transcript.to_dict()``, or None when the run failed), ``error`` and ``scores``. Keeping the
access here means a malformed record fails with one message naming it, not a bare KeyError.
"""

from __future__ import annotations

from typing import Any

from assistant.errors import IntercptError
from assistant.transcript import Transcript
from evaluation.data import Item
from evaluation.records import new_record

GENDER_TYPES = ("it_resolution", "neutral_names", "neutral_professions")


class MetricError(IntercptError):
    """Records that cannot be scored, or a metric name that does not exist."""


def item(record: dict[str, Any]) -> dict[str, Any]:
    try:
        return record["item"]
    except (KeyError, TypeError):
        raise MetricError(f"record {_name(record)} has no 'item'; expected the runner's items.jsonl layout") from None


def kind(record: dict[str, Any]) -> str:
    return item(record).get("type", "unknown")


def lang(record: dict[str, Any]) -> str:
    try:
        return item(record)["lang"]
    except KeyError:
        raise MetricError(f"record {_name(record)} has no target language ('item.lang')") from None


def references(record: dict[str, Any]) -> list[str]:
    refs = item(record).get("refs") or []
    if not refs or not all(isinstance(r, str) and r for r in refs):
        raise MetricError(f"record {_name(record)} needs at least one non-empty reference translation")
    return refs


def gold(record: dict[str, Any], attribute: str) -> str | None:
    """The item's gold label for ``attribute`` (formality, gender, sense), if the data gives one."""
    return (item(record).get("attributes") or {}).get(attribute)


def family(ambiguity: str) -> str:
    """Names and professions are one phenomenon (a person's gender); the other types stand alone."""
    return "gender" if ambiguity in ("neutral_names", "neutral_professions") else ambiguity


def translation(record: dict[str, Any]) -> str:
    """The system output; a failed item counts as an empty translation."""
    transcript = record.get("transcript") or {}
    return transcript.get("translation") or ""


def candidates(record: dict[str, Any], n: int) -> list[str]:
    """The first ``n`` of: the translation, then the alternatives offered for skipped questions."""
    transcript = record.get("transcript") or {}
    alternatives = [a.get("translation") or "" for a in transcript.get("alternatives") or []]
    return ([translation(record)] + alternatives)[:n]


def single_language(records: list[dict[str, Any]]) -> str:
    """The one target language of a group; BLEU's tokenisation and the checkers depend on it."""
    if not records:
        raise MetricError("no records to score")
    langs = sorted({lang(r) for r in records})
    if len(langs) > 1:
        raise MetricError(f"records of one group share a target language; got {', '.join(langs)}")
    return langs[0]


def reference_record(source: Item) -> dict[str, Any]:
    """A record whose translation is the item's first reference. Scoring such records measures the
    checkers themselves: their F-Acc/G-Acc on references is the ceiling a system can reach."""
    transcript = Transcript(source=source.src, target_lang=source.lang, method="reference", model="reference",
                            context=source.context or None, translation=source.refs[0])
    return new_record("reference", source, "none", transcript, None)


def _name(record: Any) -> str:
    return repr(record.get("key", "?")) if isinstance(record, dict) else repr(record)[:60]
