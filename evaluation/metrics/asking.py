"""How well the assistant asks: ask recall, question precision, questions per item, needless questions.

An item's gold ambiguity is its type, when the ambiguity table knows it. A question (a transcript
``Turn``) concerns that ambiguity when it is of the same family (``assistant.ambiguity.family_of``:
questions about a name, a profession or a group all ask for a gender) and, where the item's gold words
are known, asks about one of them. Gold words are named by the data (GATE's ``kw_s``, a JSONL
item's ``span`` attribute; ``;`` and ``=`` separate entities and mentions, brackets are dropped) or
derived from the source as the type's ``gold_words`` in the table says (AmbigMT): the forms of "you"
(``second_person``), "it" (``it``), the known first names and ``[pr]`` placeholders (``first_names``),
person nouns and ``[pr]`` (``person_nouns``), every word (``every_word``). Words are compared in lower case,
a final "s" ignored ("workers" asks about "worker"). Without gold words, a question of the right
family concerns the item. An item of type ``none`` says nothing in it is ambiguous: every question
asked on it is needless.

Only the intercpt method asks, so these metrics are reported for it alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np

from assistant import __version__
from assistant.ambiguity import family_of
from assistant.nlp.source_roles import PLACEHOLDER
from assistant.transcript import IN_ADVANCE, Turn

from ..data import NO_AMBIGUITY, Item
from ..records import Output
from .base import SegmentMetric, ShareMetric
from .table import entry, has_gold_ambiguity

SECOND_PERSON = frozenset({"you", "your", "yours", "yourself", "yourselves"})
DATA_WORDS = ("span", "kw_s")  # item attributes in which a data set names the ambiguous words
_WORD = re.compile(r"\[pr\]|\w+")
_BRACKETS = re.compile(r"[\[\]]")


def words(text: str) -> set[str]:
    """The lower-cased words of a text, a final "s" dropped (``[pr]`` stays one word)."""
    found = (w.lower() for w in _WORD.findall(text))
    return {w[:-1] if w.endswith("s") and len(w) > 3 else w for w in found}


def _named_by_data(item: Item) -> set[str] | None:
    for key in DATA_WORDS:
        if item.attributes.get(key):
            mentions = re.split(r"[;=]", item.attributes[key])
            return {w for mention in mentions for w in words(_BRACKETS.sub(" ", mention))}
    return None


def _first_names(item: Item) -> set[str]:
    from assistant.nlp.lexicon import name_gender

    names = {w for w in re.findall(r"\b[A-Z][a-z]+\b", item.src) if name_gender(w)[0]}
    return words(" ".join(names)) | _placeholders(item)


def _placeholders(item: Item) -> set[str]:
    """AmbigMT's removed pronoun, where the item has one: a question about it asks about the person."""
    return {PLACEHOLDER} if PLACEHOLDER in item.src.lower() else set()


def _person_nouns(item: Item) -> set[str]:
    from assistant.nlp.lexicon import person_noun

    return {w for w in words(item.src) if person_noun(w)} | _placeholders(item)


# How the ambiguous words of a type are found in a source the data does not annotate, by the name
# the table's ``gold_words`` gives.
DERIVED_WORDS: dict[str, Callable[[Item], set[str]]] = {
    "second_person": lambda item: words(item.src) & words(" ".join(SECOND_PERSON)),
    "it": lambda item: words(item.src) & {"it"},
    "first_names": _first_names,
    "person_nouns": _person_nouns,
    "every_word": lambda item: words(item.src),
}


def gold_words(item: Item) -> set[str]:
    """The words of the item's source that carry its ambiguity (empty: not known)."""
    named = _named_by_data(item)
    if named is not None:
        return named
    found = entry(item.ambiguity)
    derive = DERIVED_WORDS.get(found.gold_words) if found is not None and found.gold_words else None
    return derive(item) if derive else set()


def concerns_gold(turn: Turn, item: Item, gold: set[str] | None = None) -> bool:
    """Whether a question asks about the item's gold ambiguity (see the module docstring)."""
    if not has_gold_ambiguity(item) or family_of(turn.ambiguity) != family_of(item.ambiguity):
        return False
    gold = gold_words(item) if gold is None else gold
    return not gold or bool(words(turn.span) & gold)


def _turns(output: Output) -> list[Turn]:
    """The questions put to the answerer: not those a project profile (``--profile``) answered in advance."""
    return [t for t in output.transcript.turns if t.answered_by not in IN_ADVANCE] if output.transcript else []


class AskingMetric(SegmentMetric):
    """A metric of the questions asked; only the interactive method asks."""

    methods = ("intercpt",)

    def reported_for(self, ambiguity: str) -> bool:
        return entry(ambiguity) is not None or ambiguity == NO_AMBIGUITY

    def signature(self) -> str:
        return f"family:table|words:data-or-derived|match:word,plural-s|version:{__version__}"


class AskRecall(ShareMetric, AskingMetric):
    """Share of items with a gold ambiguity on which a question about it was asked."""

    name = "ask_recall"

    def reported_for(self, ambiguity: str) -> bool:
        return entry(ambiguity) is not None

    def row(self, output: Output) -> list[float]:
        if not has_gold_ambiguity(output.item):
            return [0.0, 0.0]
        gold = gold_words(output.item)
        return [1.0, float(any(concerns_gold(t, output.item, gold) for t in _turns(output)))]


class QuestionPrecision(AskingMetric):
    """Share of the questions asked that concern the item's gold ambiguity (all questions on a
    ``none`` item are off); items with no question are not counted."""

    name = "question_precision"

    def row(self, output: Output) -> list[float]:
        turns = _turns(output)
        gold = gold_words(output.item) if has_gold_ambiguity(output.item) else set()
        return [float(len(turns)), float(sum(concerns_gold(t, output.item, gold) for t in turns))]

    def counted(self, stats: np.ndarray) -> np.ndarray:
        return stats[:, 0] > 0

    def aggregate(self, totals: np.ndarray) -> float | None:
        return float(100 * totals[1] / totals[0]) if totals[0] else None

    def segment(self, output: Output) -> dict[str, Any]:
        return {"questions_on_gold": int(self.row(output)[1])}


class QuestionsPerItem(AskingMetric):
    """Mean number of questions asked per item (not a percentage)."""

    name = "questions_per_item"
    higher_is_better = False

    def row(self, output: Output) -> list[float]:
        return [1.0, float(len(_turns(output)))]

    def aggregate(self, totals: np.ndarray) -> float | None:
        return float(totals[1] / totals[0]) if totals[0] else None

    def segment(self, output: Output) -> dict[str, Any]:
        return {"questions": len(_turns(output))}


class NeedlessQuestionRate(ShareMetric, AskingMetric):
    """Share of items whose gold says nothing is ambiguous (type ``none``) on which a question was asked."""

    name = "needless_rate"
    higher_is_better = False

    def reported_for(self, ambiguity: str) -> bool:
        return ambiguity == NO_AMBIGUITY

    def row(self, output: Output) -> list[float]:
        if output.item.ambiguity != NO_AMBIGUITY:
            return [0.0, 0.0]
        return [1.0, float(bool(_turns(output)))]
