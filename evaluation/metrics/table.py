"""The evaluator's view of the ambiguity table (``assistant.ambiguity``).

A type the table does not know (a JSONL item of type "unknown") has no gold attribute or
headline metric (and ``checker_for`` gives it no checker): it is scored with the text metrics only.
"""

from __future__ import annotations

from assistant.ambiguity import AmbiguityType, ambiguity_types

from ..data import Item

SENSE = "sense"  # the gold attribute of word-sense types: the target word that carries the sense
DEFAULT_HEADLINE = "chrf"


def entry(kind: str) -> AmbiguityType | None:
    return ambiguity_types().get(kind)


def has_gold_ambiguity(item: Item) -> bool:
    """Whether the item's type is one the table knows (``none``, or a JSONL type outside it, is not)."""
    return entry(item.type) is not None


def gold_of(item: Item) -> str | None:
    """The item's gold value of its type's gold attribute (formality, gender, sense), if the data gives one."""
    kind = entry(item.type)
    return item.attributes.get(kind.gold) if kind and kind.gold else None


def is_sense(kind: str) -> bool:
    """Whether a type's gold is a target word (polysemy): hit@n and chrF@n are reported for it."""
    found = entry(kind)
    return found is not None and found.gold == SENSE


def headline(kind: str) -> str:
    """The metric that decides which baseline is best for a type (the paper's headline per type)."""
    found = entry(kind)
    return found.headline if found else DEFAULT_HEADLINE
