"""The evaluator's view of the ambiguity table (``assistant.ambiguity``).

A type the table does not know (a JSONL item of type "unknown") has no gold attribute or
headline metric (and ``checker_for`` gives it no checker): it is scored with the text metrics only.
"""

from __future__ import annotations

from assistant.ambiguity import AmbiguityType, ambiguity_types

from ..data import Item

SENSE = "sense"  # the gold attribute of word-sense types: the target word that carries the sense
DEFAULT_HEADLINE = "chrf"


def entry(ambiguity: str) -> AmbiguityType | None:
    return ambiguity_types().get(ambiguity)


def has_gold_ambiguity(item: Item) -> bool:
    """Whether the item's type is one the table knows (``none``, or a JSONL type outside it, is not)."""
    return entry(item.ambiguity) is not None


def gold_of(item: Item) -> str | None:
    """The item's gold value of its type's gold attribute (formality, gender, sense), if the data gives one."""
    found = entry(item.ambiguity)
    return item.attributes.get(found.gold) if found and found.gold else None


def is_sense(ambiguity: str) -> bool:
    """Whether a type's gold is a target word (polysemy): hit@n and chrF@n are reported for it."""
    found = entry(ambiguity)
    return found is not None and found.gold == SENSE


def headline(ambiguity: str) -> str:
    """The metric that decides which baseline is best for a type (the paper's headline per type)."""
    found = entry(ambiguity)
    return found.headline if found else DEFAULT_HEADLINE
