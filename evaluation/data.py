"""Evaluation items: what every data set loader (``evaluation.loaders``) turns its rows into.

Every source becomes an ``Item``: id, English source, reference(s), context, gold
attributes (named by the ambiguity table's ``gold``: formality, gender, sense), ambiguity
type and target language. Rows that cannot be read are reported in a ``LoadReport`` with
file and line and skipped, never fatal.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

NO_AMBIGUITY = "none"  # the type of an item whose gold says nothing in it is ambiguous
UNKNOWN_TYPE = "unknown"  # the type of an item whose data names none: scored with the text metrics only


@dataclass
class Item:
    """One evaluation item; ``ambiguity``: the name of its ambiguity type (the data sets' and the
    records' ``type``)."""

    id: str
    src: str
    refs: list[str]
    context: str
    ambiguity: str
    lang: str
    attributes: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The item as the records store it."""
        return {("type" if name == "ambiguity" else name): value for name, value in asdict(self).items()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Item":
        return cls(**{("ambiguity" if name == "type" else name): value for name, value in data.items()})


@dataclass
class LoadReport:
    """What loading skipped, so a run can say how its numbers were counted."""

    malformed: list[str] = field(default_factory=list)
    gender_not_derived: int = 0
