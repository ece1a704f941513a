"""Formality and gender checkers scored against the gold labels of AmbigMT reference translations.

The reference translation of each row carries the label (formal/informal address, the
gender of the person or of what "it" stands for), so the checkers can be measured on real
sentences, through the evaluator's own F-Acc/G-Acc metrics (the numbers are the ceiling a
system can reach). The floors are on the accuracy among the rows where a checker gives a
label (acc / cov) and on the coverage, a little under today's numbers, to catch a
regression without failing on noise.
"""

from __future__ import annotations

import pytest

from assistant.checks import FEMININE, FORMAL, INFORMAL, MASCULINE, label_from_answer, read_formality
from evaluation.loaders import ambigmt
from evaluation.metrics import corpus_scores
from evaluation.records import ReferenceOutput

# What each dev-data file checks: (name, file type, metric prefix, target language,
# (accuracy among readable rows, coverage) floors).
CHECKER_CASES = [
    ("formality", "formality", "f", "fr", (0.97, 0.95)),
    ("formality", "formality", "f", "de", (0.97, 0.95)),
    ("formality", "formality", "f", "es", (0.97, 0.55)),
    ("it-gender", "it_resolution", "g", "es", (0.95, 0.80)),
    ("profession-gender", "neutral_professions", "g", "de", (0.95, 0.85)),
    ("profession-gender", "neutral_professions", "g", "es", (0.85, 0.25)),
    ("name-gender", "neutral_names", "g", "fr", (0.75, 0.25)),
    ("name-gender", "neutral_names", "g", "de", (0.75, 0.25)),
    ("name-gender", "neutral_names", "g", "es", (0.65, 0.18)),
]


@pytest.mark.parametrize(("name", "kind", "prefix", "lang", "floors"), CHECKER_CASES,
                         ids=[f"{c[0]}-{c[3]}" for c in CHECKER_CASES])
def test_checker_on_reference_translations(dev_data, measure, name, kind, prefix, lang, floors):
    records = [ReferenceOutput(item) for item in ambigmt.load(dev_data, [lang], types=[kind])]
    scores = corpus_scores(records, names=[f"{prefix}_acc", f"{prefix}_cov"], bootstrap=0)
    accuracy, coverage = scores[f"{prefix}_acc"], scores[f"{prefix}_cov"]
    readable_accuracy = accuracy.value / coverage.value
    measure(f"checker {name} {lang}: {prefix}_acc {accuracy.value:.1f}, {prefix}_cov {coverage.value:.1f}, "
            f"accuracy where readable {readable_accuracy:.3f} over {accuracy.n} rows "
            f"({accuracy.excluded} without gold; floors {floors[0]:.2f} / {floors[1]:.2f})")
    assert readable_accuracy >= floors[0] and coverage.value / 100 >= floors[1]


@pytest.mark.parametrize(("text", "lang", "label"), [
    ("Pouvez-vous m'aider ?", "fr", FORMAL), ("Tu viens ce soir ?", "fr", INFORMAL),
    ("Können Sie mir helfen?", "de", FORMAL), ("Kannst du mir helfen?", "de", INFORMAL),
    ("¿Puede usted ayudarme?", "es", FORMAL), ("¿Puedes ayudarme tú?", "es", INFORMAL),
    ("手伝っていただけますか？お願いします。", "ja", FORMAL), ("手伝ってくれる？", "ja", INFORMAL),
    ("Il fait beau.", "fr", None),
])
def test_formality_on_hand_written_sentences(text, lang, label):
    assert read_formality(text, lang) == label


@pytest.mark.parametrize(("answer", "check", "label"), [
    ("formal, speaking to my boss", "formality", FORMAL), ("informal", "formality", INFORMAL),
    ("my little brother", "formality", INFORMAL), ("generic", "formality", None),
    ("a woman", "gender", FEMININE), ("he is my uncle", "gender", MASCULINE), ("not sure", "gender", None),
])
def test_answers_are_read_as_labels(answer, check, label):
    assert label_from_answer(check, answer) == label
