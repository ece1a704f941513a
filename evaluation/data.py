"""Evaluation items: what every data set loader (``evaluation.loaders``) turns its rows into.

Every source becomes an ``Item``: id, English source, reference(s), context, gold
attributes (named by the ambiguity table's ``gold``: formality, gender, sense), ambiguity
type and target language. Rows that cannot be read are reported in a ``LoadReport`` with
file and line and skipped, never fatal.
"""

from __future__ import annotations

from dataclasses import dataclass, field

NO_AMBIGUITY = "none"  # the type of an item whose gold says nothing in it is ambiguous
UNKNOWN_TYPE = "unknown"  # the type of an item whose data names none: scored with the text metrics only


@dataclass
class Item:
    """One evaluation item."""

    id: str
    src: str
    refs: list[str]
    context: str
    type: str
    lang: str
    attributes: dict[str, str] = field(default_factory=dict)


@dataclass
class LoadReport:
    """What loading skipped, so a run can say how its numbers were counted."""

    malformed: list[str] = field(default_factory=list)
    gender_not_derived: int = 0
