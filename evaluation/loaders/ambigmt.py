"""AmbigMT (Ma et al.): its TSV files, with their quirks, and how each type's gold label is derived.

Which file holds which type, and what its columns are, is data (``datasets/ambigmt/layout.yaml``);
the gold attribute an item gets is its type's ``gold`` in the ambiguity table. This module reads
the rows and holds the ways a gold value is derived from one.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from assistant.ambiguity import get_type

from ..data import Item, LoadReport
from .layouts import read_layout

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


# How a row's gold value is found, by the name a layout's ``gold`` gives.
GOLD_FROM: dict[str, Callable[[dict[str, str], LoadReport], str | None]] = {
    "column": _column,
    "gender_column": _gender_column,
    "context_pronouns": _gender_of_context,
    "reference": _reference_word,
}


@dataclass(frozen=True)
class Layout:
    """One type's files: the path pattern, the meaning of each column (``gold``: the gold label's
    column, "": unused) and how the gold value is derived from a row."""

    pattern: str
    columns: tuple[str, ...]
    gold: Callable[[dict[str, str], LoadReport], str | None]
    langs: tuple[str, ...]


def _read_layouts() -> dict[str, Layout]:
    """Each type's files, as ``datasets/ambigmt/layout.yaml`` gives them."""
    return {kind: Layout(entry["files"], tuple(entry["columns"]), GOLD_FROM[entry["gold"]], tuple(entry["langs"]))
            for kind, entry in read_layout("ambigmt").items()}


LAYOUT = _read_layouts()
AMBIGUITY_TYPES = tuple(LAYOUT)
EXPECTED = "AmbigMT's files, DIR/TYPE/TYPE_en_XX.tsv (each type's file names: datasets/ambigmt/layout.yaml)"


def types_of_family(family: str) -> tuple[str, ...]:
    """The types of AmbigMT's files whose questions settle ``family`` (``gender``: a person's gender)."""
    return tuple(kind for kind in AMBIGUITY_TYPES if get_type(kind).family == family)


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
