"""Formality and gender checkers scored against the gold labels of AmbigMT reference translations.

The reference translation of each row carries the label (formal/informal address, the
gender of the person or of what "it" stands for), so the checkers can be measured on real
sentences. Accuracy is over the rows where a checker gives a label; coverage is the share
of rows where it does. The thresholds sit a little under today's numbers, to catch a
regression without failing on noise.
"""

from __future__ import annotations

import csv
import os
import re
from pathlib import Path

import pytest

from assistant.checks import (FEMININE, FORMAL, INFORMAL, MASCULINE, label_from_answer, read_formality,
                              read_gender)

DEV_DATA = Path(os.environ.get("INTERCPT_AMBIGMT_DIR", Path(__file__).resolve().parents[2] / "shared" / "datasets"
                                / "ambigmt-dev"))

# (accuracy, coverage) floors per language.
FORMALITY_FLOORS = {"fr": (0.97, 0.95), "de": (0.97, 0.95), "es": (0.97, 0.55)}
IT_GENDER_FLOORS = {"es": (0.95, 0.80)}
PROFESSION_GENDER_FLOORS = {"de": (0.95, 0.85), "es": (0.85, 0.25)}
NAME_GENDER_FLOORS = {"fr": (0.75, 0.25), "de": (0.75, 0.25), "es": (0.65, 0.18)}


@pytest.fixture(scope="module")
def dev_data() -> Path:
    if DEV_DATA.is_dir():
        return DEV_DATA
    message = f"AmbigMT dev data not found at {DEV_DATA}; set INTERCPT_AMBIGMT_DIR"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def _rows(path: Path):
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        next(reader)
        yield from reader


def _english_gender(context: str) -> str | None:
    masculine = len(re.findall(r"\b(?:he|him|his|himself)\b", context, re.IGNORECASE))
    feminine = len(re.findall(r"\b(?:she|her|hers|herself)\b", context, re.IGNORECASE))
    return None if masculine == feminine else MASCULINE if masculine > feminine else FEMININE


def _score(pairs, classify) -> tuple[float, float, int]:
    pairs = list(pairs)
    labelled = [(gold, classify(text)) for gold, text in pairs]
    covered = [(gold, label) for gold, label in labelled if label is not None]
    accuracy = sum(gold == label for gold, label in covered) / max(len(covered), 1)
    return accuracy, len(covered) / max(len(pairs), 1), len(pairs)


def _report(measure, name: str, lang: str, accuracy: float, coverage: float, n: int,
            floors: tuple[float, float]):
    measure(f"checker {name} {lang}: accuracy {accuracy:.3f}, coverage {coverage:.3f} over {n} rows "
            f"(floors {floors[0]:.2f} / {floors[1]:.2f})")
    assert accuracy >= floors[0] and coverage >= floors[1]


@pytest.mark.parametrize("lang", sorted(FORMALITY_FLOORS))
def test_formality_checker_on_reference_translations(dev_data, lang, measure):
    rows = _rows(dev_data / "formality" / f"formality_en_{lang}.tsv")
    pairs = [(row[0], row[-1]) for row in rows if row[0] in (FORMAL, INFORMAL)]
    _report(measure, "formality", lang, *_score(pairs, lambda t: read_formality(t, lang).label), FORMALITY_FLOORS[lang])


@pytest.mark.parametrize("lang", sorted(IT_GENDER_FLOORS))
def test_referent_gender_checker_on_it_resolution(dev_data, lang, measure):
    rows = _rows(dev_data / "it_resolution" / f"it_resolution_en_{lang}.tsv")
    pairs = [(row[3].strip(), row[1]) for row in rows if row[3].strip() in (MASCULINE, FEMININE)]
    classify = lambda t: read_gender(t, lang, about="referent").label  # noqa: E731
    _report(measure, "it-gender", lang, *_score(pairs, classify), IT_GENDER_FLOORS[lang])


@pytest.mark.parametrize("lang", sorted(PROFESSION_GENDER_FLOORS))
def test_person_gender_checker_on_professions(dev_data, lang, measure):
    rows = _rows(dev_data / "neutral_professions" / f"neutral_professions_en_{lang}.tsv")
    pairs = [(_english_gender(ctx), trg) for ctx, _src, trg, *_ in rows if _english_gender(ctx)]
    classify = lambda t: read_gender(t, lang).label  # noqa: E731
    _report(measure, "profession-gender", lang, *_score(pairs, classify), PROFESSION_GENDER_FLOORS[lang])


@pytest.mark.parametrize("lang", sorted(NAME_GENDER_FLOORS))
def test_person_gender_checker_on_names(dev_data, lang, measure):
    rows = _rows(dev_data / "neutral_names" / f"gender_neutral_names_en_{lang}.tsv")
    pairs = [(_english_gender(row[2]), row[1]) for row in rows if _english_gender(row[2])]
    classify = lambda t: read_gender(t, lang).label  # noqa: E731
    _report(measure, "name-gender", lang, *_score(pairs, classify), NAME_GENDER_FLOORS[lang])


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
