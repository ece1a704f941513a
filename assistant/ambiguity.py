"""The ambiguity table (``prompts/ambiguities.yaml``): everything the product knows of each type.

One entry per type says where it matters, which pre-pass rule finds it, what a person may
answer, which checker verifies it, how an oracle answers from a gold label and which metric
heads its report, so adding a type means adding one entry (and, if it needs one, a rule or
a checker registered under the name the entry gives).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from .errors import InputError
from .nlp.address import addressee
from .paths import shipped_dir

TABLE_FILE = "ambiguities.yaml"
DEFAULT_OPTIONS = "default"
ANY_VALUE = "*"
DEFAULT_RANK = 9  # a type the table does not rank is asked after the ranked ones


@dataclass(frozen=True)
class AmbiguityType:
    """One entry of the table; see the comments at the top of ``prompts/ambiguities.yaml``."""

    name: str
    label: str
    languages: tuple[str, ...]
    family: str
    detect: str | None
    check: str | None
    gold: str | None
    oracle: Mapping[str, str]
    headline: str
    rank: int = DEFAULT_RANK
    options_by_lang: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    question_by_lang: Mapping[str, str] = field(default_factory=dict)
    lexicon: frozenset[str] = field(default_factory=frozenset)
    options_in_text: bool = False

    def options(self, lang: str) -> tuple[str, ...]:
        """The answer buttons for ``lang``; empty when the translator model proposes them."""
        return self.options_by_lang.get(lang) or self.options_by_lang.get(DEFAULT_OPTIONS, ())

    def fixed_question(self, span: str, lang: str) -> str | None:
        """The table's question about ``span`` when the type has options in ``lang``; None when the
        translator model writes the question (open options: what "it" is, a word's sense). A question
        about address names its person as ``{addressee}``: the span may be a verb."""
        question = self.question_by_lang.get(lang) or self.question_by_lang.get(DEFAULT_OPTIONS)
        return question.format(span=span, addressee=addressee(span)) if question and self.options(lang) else None

    def open_question(self, span: str, lang: str) -> str | None:
        """The table's question for a type whose options the model proposes: it names the words asked
        about, with the model's options or, where those cannot be used, without (the person answers
        in their own words); None when the table has none."""
        question = self.question_by_lang.get(lang) or self.question_by_lang.get(DEFAULT_OPTIONS)
        return question.format(span=span) if question and not self.options(lang) else None

    def oracle_answer(self, gold: Mapping[str, str]) -> str | None:
        """What an oracle says when the item's gold label is known; None when the data gives none."""
        value = gold.get(self.gold) if self.gold else None
        if not value:
            return None
        template = self.oracle.get(value) or self.oracle.get(ANY_VALUE)
        return template.format(value=value) if template else None


def parse_table(data: Mapping[str, Any]) -> dict[str, AmbiguityType]:
    """Build the types from the table's YAML mapping (a type name to its entry)."""
    return {
        name: AmbiguityType(
            name=name,
            label=entry["label"],
            languages=tuple(entry["languages"]),
            family=entry.get("family", name),
            detect=entry.get("detect"),
            check=entry.get("check"),
            gold=entry.get("gold"),
            oracle=dict(entry.get("oracle") or {}),
            headline=entry.get("headline", "chrf"),
            rank=entry.get("rank", DEFAULT_RANK),
            options_by_lang={lang: tuple(opts) for lang, opts in (entry.get("options") or {}).items()},
            question_by_lang=_by_lang(entry.get("question")),
            lexicon=frozenset(entry.get("lexicon") or ()),
            options_in_text=bool(entry.get("options_in_text")),
        )
        for name, entry in data.items()
    }


def _by_lang(value: str | Mapping[str, str] | None) -> dict[str, str]:
    """A question given once (every language) or per language with a ``default``."""
    if value is None:
        return {}
    return {DEFAULT_OPTIONS: value} if isinstance(value, str) else dict(value)


def table_path() -> Path:
    """Where the table is read from: the copy shipped with the prompts."""
    return shipped_dir("prompts") / TABLE_FILE


@lru_cache(maxsize=1)
def ambiguity_types() -> dict[str, AmbiguityType]:
    """Every type of the table, read once per process."""
    return parse_table(yaml.safe_load(table_path().read_text(encoding="utf-8")))


def get_type(name: str) -> AmbiguityType:
    """The type called ``name``; an unknown name gets the close ones."""
    known = ambiguity_types()
    if name not in known:
        close = difflib.get_close_matches(name, known, n=2)
        hint = f" (did you mean {' or '.join(close)}?)" if close else ""
        raise InputError(f"unknown ambiguity type {name!r}{hint}; known: {', '.join(known)}")
    return known[name]


def family_of(name: str) -> str:
    """The family of a type (a type outside the table is its own family)."""
    entry = ambiguity_types().get(name)
    return entry.family if entry else name
