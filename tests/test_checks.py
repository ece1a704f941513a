"""Formality and gender checkers scored against the gold labels of AmbigMT reference translations.

The reference translation of each row carries the label (formal/informal address, the
gender of the person or of what "it" stands for), so the checkers can be measured on real
sentences. Accuracy is over the rows where a checker gives a label; coverage is the share
of rows where it does. The thresholds sit a little under today's numbers, to catch a
regression without failing on noise.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.checks import (FEMININE, FORMAL, INFORMAL, MASCULINE, label_from_answer, read_formality,
                              read_gender)
from evaluation.data import load_ambigmt

# What each dev-data file checks: (label in the output, file type, gold attribute, what the
# gender is about, target language, (accuracy, coverage) floors).
CHECKER_CASES = [
    ("formality", "formality", "formality", None, "fr", (0.97, 0.95)),
    ("formality", "formality", "formality", None, "de", (0.97, 0.95)),
    ("formality", "formality", "formality", None, "es", (0.97, 0.55)),
    ("it-gender", "it_resolution", "gender", "referent", "es", (0.95, 0.80)),
    ("profession-gender", "neutral_professions", "gender", "person", "de", (0.95, 0.85)),
    ("profession-gender", "neutral_professions", "gender", "person", "es", (0.85, 0.25)),
    ("name-gender", "neutral_names", "gender", "person", "fr", (0.75, 0.25)),
    ("name-gender", "neutral_names", "gender", "person", "de", (0.75, 0.25)),
    ("name-gender", "neutral_names", "gender", "person", "es", (0.65, 0.18)),
]


def _gold_pairs(dev_data: Path, kind: str, lang: str, attribute: str) -> list[tuple[str, str]]:
    """(gold label, reference translation) for the items whose gold ``attribute`` is known."""
    items = load_ambigmt(dev_data, [kind], [lang])
    return [(i.attributes[attribute], i.refs[0]) for i in items
            if i.attributes.get(attribute) in (FORMAL, INFORMAL, MASCULINE, FEMININE)]


def _score(pairs, classify) -> tuple[float, float, int]:
    pairs = list(pairs)
    labelled = [(gold, classify(text)) for gold, text in pairs]
    covered = [(gold, label) for gold, label in labelled if label is not None]
    accuracy = sum(gold == label for gold, label in covered) / max(len(covered), 1)
    return accuracy, len(covered) / max(len(pairs), 1), len(pairs)


@pytest.mark.parametrize(("name", "kind", "attribute", "about", "lang", "floors"), CHECKER_CASES,
                         ids=[f"{c[0]}-{c[4]}" for c in CHECKER_CASES])
def test_checker_on_reference_translations(dev_data, measure, name, kind, attribute, about, lang, floors):
    def classify(text: str) -> str | None:
        return read_formality(text, lang).label if about is None else read_gender(text, lang, about=about).label

    accuracy, coverage, n = _score(_gold_pairs(dev_data, kind, lang, attribute), classify)
    measure(f"checker {name} {lang}: accuracy {accuracy:.3f}, coverage {coverage:.3f} over {n} rows "
            f"(floors {floors[0]:.2f} / {floors[1]:.2f})")
    assert accuracy >= floors[0] and coverage >= floors[1]


@pytest.mark.parametrize(("text", "lang", "label"), [
    ("Pouvez-vous m'aider ?", "fr", FORMAL), ("Tu viens ce soir ?", "fr", INFORMAL),
    ("Können Sie mir helfen?", "de", FORMAL), ("Kannst du mir helfen?", "de", INFORMAL),
    ("¿Puede usted ayudarme?", "es", FORMAL), ("¿Puedes ayudarme tú?", "es", INFORMAL),
    ("手伝っていただけますか？お願いします。", "ja", FORMAL), ("手伝ってくれる？", "ja", None),
    ("Il fait beau.", "fr", None),
])
def test_formality_on_hand_written_sentences(text, lang, label):
    assert read_formality(text, lang).label == label


@pytest.mark.parametrize(("answer", "check", "label"), [
    ("formal, speaking to my boss", "formality", FORMAL), ("informal", "formality", INFORMAL),
    ("my little brother", "formality", INFORMAL), ("generic", "formality", None),
    ("a woman", "gender", FEMININE), ("he is my uncle", "gender", MASCULINE), ("not sure", "gender", None),
])
def test_answers_are_read_as_labels(answer, check, label):
    assert label_from_answer(check, answer) == label
