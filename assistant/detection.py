"""The spaCy pre-pass: find words that may make a translation ambiguous, before any LM call.

It steers the translator LM to concrete words and keeps it from questioning text that has
nothing to ask about (no candidate: no question, no detection call at all). Each ambiguity
type of the table names the rule that finds its candidates (``detect``); the rules live in
``RULES`` and receive the parsed source.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .ambiguity import AmbiguityType, ambiguity_types
from .nlp.pipelines import english_pipeline

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
class Candidate:
    """A word that may be ambiguous: its type, its text and where it starts in the source."""

    ambiguity: str
    span: str
    start: int


@dataclass(frozen=True)
class Parsed:
    """A source and its parse (``[pr]`` placeholders read as "they"), handed to every rule."""

    source: str
    doc: Any


# A rule yields (span, start) pairs for one ambiguity type.
Rule = Callable[[Parsed, AmbiguityType], list[tuple[str, int]]]
RULES: dict[str, Rule] = {}


def rule(name: str) -> Callable[[Rule], Rule]:
    """Register a pre-pass rule under the name the ambiguity table uses in ``detect``."""

    def register(function: Rule) -> Rule:
        RULES[name] = function
        return function

    return register


def parse(source: str) -> Parsed:
    return Parsed(source, english_pipeline()(source.replace(PLACEHOLDER, "they")))


def find_candidates(source: str, target_lang: str) -> list[Candidate]:
    """Candidates in source order, at most one per (type, word), for types that matter in ``target_lang``."""
    parsed = parse(source)
    found = [
        Candidate(kind.name, span, start)
        for kind in ambiguity_types().values()
        if kind.detect and target_lang in kind.languages
        for span, start in RULES[kind.detect](parsed, kind)
    ]
    unique: dict[tuple[str, str], Candidate] = {}
    for candidate in sorted(found, key=lambda c: c.start):
        unique.setdefault((candidate.ambiguity, candidate.span.lower()), candidate)
    return list(unique.values())


def _has_gender_cue(doc: Any) -> bool:
    return any(t.lower_ in GENDERED_PRONOUNS for t in doc)


@rule("single_word")
def _single_word(parsed: Parsed, kind: AmbiguityType) -> list[tuple[str, int]]:
    words = [t for t in parsed.doc if t.is_alpha]
    return [(words[0].text, words[0].idx)] if len(words) == 1 else []


@rule("second_person")
def _second_person(parsed: Parsed, kind: AmbiguityType) -> list[tuple[str, int]]:
    first = next((t for t in parsed.doc if t.lower_ in SECOND_PERSON), None)
    return [(first.text, first.idx)] if first else []


@rule("referential_it")
def _referential_it(parsed: Parsed, kind: AmbiguityType) -> list[tuple[str, int]]:
    dummy_starts = {m.start() for m in _DUMMY_IT.finditer(parsed.source)}
    return [
        (t.text, t.idx) for t in parsed.doc
        if t.lower_ == "it" and t.dep_ != "expl" and t.idx not in dummy_starts
    ][:1]


@rule("person_names")
def _person_names(parsed: Parsed, kind: AmbiguityType) -> list[tuple[str, int]]:
    doc = parsed.doc
    if _has_gender_cue(doc):
        return []
    people = [
        (ent.text, ent.start_char) for ent in doc.ents
        if ent.label_ == "PERSON" and (ent.start == 0 or doc[ent.start - 1].lower_ not in TITLES)
    ]
    # Small pipelines miss many first names; an untyped proper noun in a person's role counts too.
    people += [
        (t.text, t.idx) for t in doc
        if t.pos_ == "PROPN" and not t.ent_type_ and t.dep_ in ("nsubj", "nsubjpass", "poss")
        and (t.i == 0 or doc[t.i - 1].lower_ not in TITLES)
    ]
    if not people and PLACEHOLDER in parsed.source:
        people.append((PLACEHOLDER, parsed.source.index(PLACEHOLDER)))
    return people


@rule("lexicon_nouns")
def _lexicon_nouns(parsed: Parsed, kind: AmbiguityType) -> list[tuple[str, int]]:
    if _has_gender_cue(parsed.doc):
        return []
    return [(t.text, t.idx) for t in parsed.doc if t.pos_ == "NOUN" and t.lemma_.lower() in kind.lexicon]
