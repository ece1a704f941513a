import pytest

from assistant.errors import BackendError, InputError
from assistant.inputs import validate_source
from assistant.languages import language_name
from assistant.parsing import clean_translation


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
