"""Address cues on real sentences: T-V for fr/de/es, register for ja, plural "you"."""

import pytest

from assistant.nlp.address import address_candidates


@pytest.mark.parametrize("text, cue", [
    ("Could you send me the file?", "second_person"),
    ("Sit down.", "imperative"),
    ("Anna, come here.", "imperative"),
])
def test_second_person_and_imperatives_raise_formality(text, cue):
    [candidate] = address_candidates(text, "fr")
    assert candidate.dimension == "formality" and cue in candidate.cues


@pytest.mark.parametrize("text", ["Thanks, guys!", "Hi everyone, welcome.", "Is it far?", "I love New York."])
def test_japanese_register_needs_no_you(text):
    assert address_candidates(text, "fr") == []
    [candidate] = address_candidates(text, "ja")
    assert candidate.dimension == "register"


def test_statement_without_addressee_has_no_candidate():
    assert address_candidates("It is raining in Paris.", "ja") == []


@pytest.mark.parametrize("text, cue", [
    ("Both of you should go.", "Both of you"),
    ("Are you guys ready?", "you guys"),
    ("Did you all see it?", "you all"),
    ("Do you want tea, kids?", "kids"),
])
def test_plural_you(text, cue):
    [candidate] = address_candidates(text, "es")
    assert candidate.plural is True and candidate.plural_cue == cue


def test_singular_you_is_left_open():
    [candidate] = address_candidates("Do you want tea?", "de")
    assert candidate.plural is None
