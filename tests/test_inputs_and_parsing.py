import pytest

from assistant.errors import BackendError, InputError
from assistant.inputs import validate_source
from assistant.languages import language_name
from assistant.parsing import clean_translation, without_invented_tags


def test_source_is_stripped():
    assert validate_source("  Hello there.\n") == "Hello there."


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("   \n\t", "empty"),
        ("abc\x00def", "binary"),
        (b"\xff\xfe\x00\x81", "not UTF-8"),
        ("x" * 6000, "at most 5000"),
    ],
)
def test_bad_sources(text, message):
    with pytest.raises(InputError, match=message):
        validate_source(text)


def test_unsupported_language_names_the_supported_ones():
    assert language_name("FR") == "French"
    with pytest.raises(InputError, match="fr, de, es, ja"):
        language_name("it")


@pytest.mark.parametrize(
    ("reply", "clean"),
    [
        ("Wo ist der Bahnhof?", "Wo ist der Bahnhof?"),
        ("  Translation: Wo ist der Bahnhof?\n", "Wo ist der Bahnhof?"),
        ('"Wo ist der Bahnhof?"', "Wo ist der Bahnhof?"),
        ("«Où est la gare ?»", "Où est la gare ?"),
        ("```\nOù est la gare ?\n```", "Où est la gare ?"),
        ("<translation>Où est la gare ?</translation>", "Où est la gare ?"),
        ('"Oui", dit-il, "non".', '"Oui", dit-il, "non".'),
    ],
)
def test_clean_translation(reply, clean):
    assert clean_translation(reply) == clean


def test_empty_reply_is_a_backend_error():
    with pytest.raises(BackendError, match="no translation"):
        clean_translation("  <translation> </translation> ")


MARKS = frozenset({"female", "male"})


@pytest.mark.parametrize("reply, source, kept", [
    # the 1.5B test model's echoes of the marks around a person's words, as written and translated
    ("Il est difficile d'être <femme>la porteuse</femme> de mauvaises nouvelles.", "the bearer",
     "Il est difficile d'être la porteuse de mauvaises nouvelles."),
    ("Quand <il> était petit, il jouait.", "When he was small", "Quand il était petit, il jouait."),
    ("La <female> juge a parlé.", "The judge spoke.", "La juge a parlé."),
    # the source's own markup and a file's placeholders stay
    ("Cliquez <b>ici</b> pour <x1/>.", "Click <b>here</b> to <x1/>.", "Cliquez <b>ici</b> pour <x1/>."),
])
def test_tags_the_source_does_not_have_are_cut_keeping_their_words(reply, source, kept):
    assert without_invented_tags(reply, source, MARKS) == kept
