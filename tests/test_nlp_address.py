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



# A string of git's French catalogue (/usr/share/locale/fr/LC_MESSAGES/git.mo) and lines of the
# subtitles AmbigMT-dev gives as context (it_resolution_en_fr.tsv).
GIT_BUG_REPORT = ("Thank you for filling out a Git bug report!\nPlease answer the following questions to help us "
                  "understand your issue.")


@pytest.mark.parametrize("text", ["Thank you, Father.", "First of all, thank you.", "Oh, thank you, Bree."])
def test_thank_you_carries_no_register_but_japanese_thanks_have_one(text):
    assert address_candidates(text, "fr") == address_candidates(text, "de") == []  # merci, danke, gracias
    [japanese] = address_candidates(text, "ja")  # ありがとう / ありがとうございます
    assert japanese.span.lower() != "you"


def test_the_you_of_thank_you_is_never_the_word_asked_about():
    [candidate] = address_candidates(GIT_BUG_REPORT, "fr")
    assert candidate.span == "your"  # "your issue": votre/ton problème
    text = "We have several thousand persons of interest on our files, Arkady, but I thank you for the alert."
    [thanked] = address_candidates(text, "es")  # le agradezco / te agradezco
    assert thanked.span == "you" and thanked.start == text.index("you")


@pytest.mark.parametrize("text", ["Change my password", "Enable password-based authentication", "Log out"])
def test_a_command_label_addresses_no_one_in_a_register(text):
    """Django's admin catalogue: a button's command is worded with the infinitive (Changer mon mot de passe)."""
    assert address_candidates(text, "fr") == []


@pytest.mark.parametrize("text", ["Sign here.", "Suggest the bungalow to this one.",
                                  "Push your relative to buy this new stove to keep their main room warm"])
def test_an_imperative_said_as_a_sentence_still_raises_formality(text):
    [candidate] = address_candidates(text, "fr")
    assert candidate.dimension == "formality"
