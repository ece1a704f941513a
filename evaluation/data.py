"""Evaluation items: the AmbigMT TSV files (with their quirks) and a generic JSONL format.

Every source becomes an ``Item``: id, English source, reference(s), context, gold
attributes (formality, gender, sense), ambiguity type and target language. Rows that
cannot be read are reported with file and line and skipped, never fatal.
"""

from __future__ import annotations

import csv
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

AMBIGUITY_TYPES = ("formality", "it_resolution", "polysemy", "neutral_names", "neutral_professions")

# Per type: the file name pattern and the meaning of each column in the data rows. The
# formality header names four columns, but every row has an empty second field, so rows
# are read by position; neutral_names de/fr rows end with an empty extra field.
AMBIGMT_LAYOUT: dict[str, tuple[str, tuple[str, ...]]] = {
    "formality": ("formality/formality_en_{lang}.tsv", ("formality", "", "context", "src", "ref")),
    "it_resolution": ("it_resolution/it_resolution_en_{lang}.tsv", ("src", "ref", "context", "gender")),
    "neutral_names": ("neutral_names/gender_neutral_names_en_{lang}.tsv", ("src", "ref", "context")),
    "neutral_professions": ("neutral_professions/neutral_professions_en_{lang}.tsv", ("context", "src", "ref")),
    "polysemy": ("polysemy/polysemy_en_{lang}.tsv", ("src", "ref", "context")),
}
AMBIGMT_LANGS = {t: ("de", "es") if t == "neutral_professions" else ("de", "es", "fr") for t in AMBIGUITY_TYPES}

_MASCULINE = re.compile(r"\b(?:he|him|his|himself)\b", re.IGNORECASE)
_FEMININE = re.compile(r"\b(?:she|her|hers|herself)\b", re.IGNORECASE)


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


def gender_from_pronouns(text: str) -> str | None:
    """Masculine or feminine by the English third-person pronouns of a text; None on a tie or none."""
    masculine, feminine = len(_MASCULINE.findall(text)), len(_FEMININE.findall(text))
    if masculine == feminine:
        return None
    return "masculine" if masculine > feminine else "feminine"


def load_ambigmt(root: Path, types: Iterable[str] = AMBIGUITY_TYPES, langs: Iterable[str] = ("fr", "de", "es"),
                 report: LoadReport | None = None) -> list[Item]:
    """Items of the AmbigMT files under ``root`` for the given types and languages (missing pairs are skipped)."""
    report = report if report is not None else LoadReport()
    items: list[Item] = []
    for kind in types:
        if kind not in AMBIGMT_LAYOUT:
            raise ValueError(f"unknown ambiguity type {kind!r}; choose from: {', '.join(AMBIGUITY_TYPES)}")
        pattern, columns = AMBIGMT_LAYOUT[kind]
        for lang in langs:
            if lang not in AMBIGMT_LANGS[kind]:
                continue
            path = root / pattern.format(lang=lang)
            if not path.exists():
                report.malformed.append(f"{path}: file not found")
                continue
            items += _read_tsv(path, kind, lang, columns, report)
    return items


def _read_tsv(path: Path, kind: str, lang: str, columns: tuple[str, ...], report: LoadReport) -> list[Item]:
    items = []
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        next(reader, None)
        for line, row in enumerate(reader, start=2):
            if len(row) < len(columns):
                report.malformed.append(f"{path}:{line}: {len(row)} fields, expected {len(columns)}")
                continue
            fields = {name: value.strip() for name, value in zip(columns, row) if name}
            if not fields.get("src") or not fields.get("ref"):
                report.malformed.append(f"{path}:{line}: empty source or reference")
                continue
            attributes = _gold(kind, fields, report)
            items.append(Item(id=f"{kind}-{lang}-{line}", src=fields["src"], refs=[fields["ref"]],
                              context=fields.get("context", ""), type=kind, lang=lang, attributes=attributes))
    return items


def _gold(kind: str, fields: dict[str, str], report: LoadReport) -> dict[str, str]:
    if kind == "formality":
        return {"formality": fields["formality"]} if fields.get("formality") else {}
    if kind == "it_resolution":
        return {"gender": fields["gender"]} if fields.get("gender") in ("masculine", "feminine") else {}
    if kind == "polysemy":
        return {"sense": fields["ref"]}
    gender = gender_from_pronouns(fields.get("context", ""))
    if gender is None:
        report.gender_not_derived += 1
        return {}
    return {"gender": gender}


def load_jsonl(path: Path, report: LoadReport | None = None) -> list[Item]:
    """Items from a JSONL file: ``id, src, ref | refs, context, attributes, type, lang`` per line."""
    report = report if report is not None else LoadReport()
    items = []
    with open(path, encoding="utf-8") as handle:
        for line, text in enumerate(handle, start=1):
            if not text.strip():
                continue
            try:
                data = json.loads(text)
                refs = data["refs"] if "refs" in data else [data["ref"]]
                if not isinstance(refs, list) or not all(isinstance(r, str) for r in refs) or not data["src"]:
                    raise ValueError("'ref' must be a string and 'refs' a list of strings")
                items.append(Item(id=str(data.get("id", f"{path.stem}-{line}")), src=data["src"], refs=refs,
                                  context=data.get("context", ""), type=data.get("type", "unknown"),
                                  lang=data["lang"], attributes=dict(data.get("attributes", {}))))
            except (ValueError, KeyError, TypeError) as err:
                report.malformed.append(f"{path}:{line}: {err.__class__.__name__}: {err}")
    return items
