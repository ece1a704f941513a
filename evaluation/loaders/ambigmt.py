"""AmbigMT (Ma et al.): its TSV layout, with its quirks, and how each type's gold label is derived.

The gold attribute an item gets is its type's ``gold`` in the ambiguity table; this module
only says where the value comes from in each file.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from assistant.ambiguity import get_type

from ..data import Item, LoadReport

_MASCULINE = re.compile(r"\b(?:he|him|his|himself)\b", re.IGNORECASE)
_FEMININE = re.compile(r"\b(?:she|her|hers|herself)\b", re.IGNORECASE)
_GENDERS = ("masculine", "feminine")


def gender_from_pronouns(text: str) -> str | None:
    """Masculine or feminine by the English third-person pronouns of a text; None on a tie or none."""
    masculine, feminine = len(_MASCULINE.findall(text)), len(_FEMININE.findall(text))
    if masculine == feminine:
        return None
    return "masculine" if masculine > feminine else "feminine"


def _column(fields: dict[str, str], report: LoadReport) -> str | None:
    return fields.get("gold") or None


def _gender_column(fields: dict[str, str], report: LoadReport) -> str | None:
    return fields["gold"] if fields.get("gold") in _GENDERS else None


def _reference_word(fields: dict[str, str], report: LoadReport) -> str | None:
    return fields["ref"]


def _gender_of_context(fields: dict[str, str], report: LoadReport) -> str | None:
    gender = gender_from_pronouns(fields.get("context", ""))
    if gender is None:
        report.gender_not_derived += 1
    return gender


@dataclass(frozen=True)
class Layout:
    """One type's files: the path pattern, the meaning of each column (``gold``: the gold label's
    column, "": unused) and how the gold value is derived from a row."""

    pattern: str
    columns: tuple[str, ...]
    gold: Callable[[dict[str, str], LoadReport], str | None]
    langs: tuple[str, ...] = ("de", "es", "fr")


# The formality header names four columns, but every row has an empty second field, so rows
# are read by position; neutral_names de/fr rows end with an empty extra field.
LAYOUT: dict[str, Layout] = {
    "formality": Layout("formality/formality_en_{lang}.tsv", ("gold", "", "context", "src", "ref"), _column),
    "it_resolution": Layout("it_resolution/it_resolution_en_{lang}.tsv", ("src", "ref", "context", "gold"),
                            _gender_column),
    "neutral_names": Layout("neutral_names/gender_neutral_names_en_{lang}.tsv", ("src", "ref", "context"),
                            _gender_of_context),
    "neutral_professions": Layout("neutral_professions/neutral_professions_en_{lang}.tsv", ("context", "src", "ref"),
                                  _gender_of_context, langs=("de", "es")),
    "polysemy": Layout("polysemy/polysemy_en_{lang}.tsv", ("src", "ref", "context"), _reference_word),
}
AMBIGUITY_TYPES = tuple(LAYOUT)


def load(root: Path, langs: Iterable[str] | None = None, report: LoadReport | None = None,
         types: Iterable[str] | None = None) -> list[Item]:
    """Items of the AmbigMT files under ``root`` for the given types and languages (None: all of them;
    pairs AmbigMT does not have are skipped, a missing file is reported)."""
    report = report if report is not None else LoadReport()
    items: list[Item] = []
    for ambiguity in types or AMBIGUITY_TYPES:
        if ambiguity not in LAYOUT:
            raise ValueError(f"unknown ambiguity type {ambiguity!r}; choose from: {', '.join(AMBIGUITY_TYPES)}")
        layout = LAYOUT[ambiguity]
        for lang in langs or layout.langs:
            if lang not in layout.langs:
                continue
            path = root / layout.pattern.format(lang=lang)
            if not path.exists():
                report.malformed.append(f"{path}: file not found")
                continue
            items += _read_tsv(path, ambiguity, lang, layout, report)
    return items


def _read_tsv(path: Path, ambiguity: str, lang: str, layout: Layout, report: LoadReport) -> list[Item]:
    attribute = get_type(ambiguity).gold
    items = []
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        next(reader, None)
        for line, row in enumerate(reader, start=2):
            if len(row) < len(layout.columns):
                report.malformed.append(f"{path}:{line}: {len(row)} fields, expected {len(layout.columns)}")
                continue
            fields = {name: value.strip() for name, value in zip(layout.columns, row) if name}
            if not fields.get("src") or not fields.get("ref"):
                report.malformed.append(f"{path}:{line}: empty source or reference")
                continue
            gold = layout.gold(fields, report)
            items.append(Item(id=f"{ambiguity}-{lang}-{line}", src=fields["src"], refs=[fields["ref"]],
                              context=fields.get("context", ""), ambiguity=ambiguity, lang=lang,
                              attributes={attribute: gold} if gold else {}))
    return items
