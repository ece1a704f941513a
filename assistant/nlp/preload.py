"""The language data every translation reads, loaded now rather than on first use: a server loads it before
it takes requests, so its first requests do not spend their deadlines loading spaCy and word lists."""

from __future__ import annotations

from ..languages import LANGUAGES
from . import language, lexicon
from .pipelines import english_pipeline


def load_language_data() -> None:
    """Load the English pipeline, WordNet's lists (people and their wider kinds, well-known people, nouns,
    adjectives, verbs said of or done to people, kinship, places, organisations, composers), the name list and each
    language's stop words (each is loaded once per process and kept). The target languages' pipelines and the French
    lexicon, which only the check of a person's gender reads, still load on first use: together they would hold
    about 200 MB more from the start."""
    english_pipeline()
    lexicon.person_nouns()
    lexicon.wider_person_nouns()
    lexicon.wordnet_nouns()
    lexicon.wordnet_adjectives()
    lexicon.person_verbs()
    lexicon.object_verbs()
    lexicon.kinship_nouns()
    lexicon.place_nouns()
    lexicon.organisation_nouns()
    lexicon.well_known_people()
    lexicon.composers_of_music()
    lexicon.name_detector()
    for lang in ("en", *LANGUAGES):
        language.stop_words(lang)
