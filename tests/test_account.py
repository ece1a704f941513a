"""The account of a translation in a translator's words: what each check read, never an internal
name, and a tick only on a check that passed."""

import pytest

from assistant.ambiguity import get_type
from assistant.explain import check_line, explain
from assistant.transcript import Alternative, Check, Transcript, Turn
from ui.messages import account_lines, checks_markdown

GENDER = dict(name="person_gender", expected="feminine", about="the lawyer")


@pytest.mark.parametrize(("check", "line"), [
    (Check(**GENDER, observed="feminine", status="pass", words=["l'avocate"]),
     "✓ the lawyer reads as a woman: « l'avocate »"),
    (Check(**GENDER, observed="masculine", status="fail", words=["l'avocat"]),
     "⚠ the lawyer should read as a woman, but « l'avocat » reads as a man"),
    (Check(**GENDER, observed="feminine", status="unchecked", words=["La", "avocat"],
           doubt="its words disagree: « avocat » masculine; « La » feminine"),
     "? not checked whether the lawyer reads as a woman: its words disagree: « avocat » masculine; « La » feminine"),
    (Check(**GENDER | {"about": "The lawyer"}, observed=None, status="unchecked"),
     "? not checked whether the lawyer reads as a woman: nothing in the translation marks it"),
    (Check(name="formality", expected="formal", observed="formal", status="pass", about="you", words=["vous"]),
     "✓ formal address: « vous »"),
    (Check(name="formality", expected="formal", observed="informal", status="fail", about="you", words=["tu", "te"]),
     "⚠ formal address was asked for, but « tu », « te » read as informal"),
    (Check(name="language", expected="fr", observed="fr", status="pass"), "✓ in French"),
    (Check(name="fidelity", expected="the source's sentences only", status="pass", words=["Je m'adresse à vous."],
           observed="removed “Je m'adresse à vous.”, which the source does not say; every sentence translates one"),
     "✂ removed « Je m'adresse à vous. »: the source does not say it"),
])
def test_a_check_reads_as_a_translator_would_say_it(check, line):
    assert check_line(check) == line


def test_no_internal_name_no_count_of_tries_and_no_tick_but_on_a_pass():
    checks = [Check(**GENDER, observed="masculine", status="fail", words=["l'avocat"], attempts=4),
              Check(name="formality", expected="formal", observed=None, status="unchecked", about="you", attempts=4),
              Check(name="length", expected="plausible", observed="implausible", status="fail", attempts=4),
              Check(name="fidelity", expected="the source's sentences only", status="fail", attempts=4,
                    observed="added “Je m'adresse à vous formellement.”", words=["Je m'adresse à vous formellement."])]
    lines = explain(Transcript("Hello", "fr", "intercpt", "fake:m", checks=checks))
    assert len(lines) == 4 and not any("✓" in line for line in lines)
    assert not [line for line in lines if any(word in line for word in (
        "person_gender", "formality", "fidelity", "tries", "length is"))]


def test_the_cards_of_the_alternatives_word_their_checks_as_the_account_does():
    checks = [Check(name="formality", expected="formal", observed="formal", status="pass", about="you", words=["vous"]),
              Check(name="length", expected="plausible", observed="plausible", status="pass")]
    assert checks_markdown(checks, "fr") == "✓ formal address: « vous »"
    assert checks_markdown(checks, "ja") == "✓ polite address: « vous »"


def test_a_japanese_answer_is_named_by_its_own_option_not_as_formal():
    """Japanese asks for plain, polite or honorific forms: the account says the person's own word."""
    options = list(get_type("formality").options("ja"))
    polite = next(option for option in options if option.startswith("polite"))
    turn = Turn("formality", "you", "Who is it said to?", options, answer=polite, answered_by="human")
    check = Check(name="formality", expected="formal", observed="formal", status="pass", about="you", words=["です"])
    lines = explain(Transcript("Can you help me?", "ja", "intercpt", "fake:m", turns=[turn], checks=[check]))
    assert lines == [f"you → polite, because you said: {polite}", "✓ polite address: « です »"]


def test_the_page_says_a_skipped_question_by_its_word_and_leaves_the_variants_to_their_cards():
    """The terminal, which has no cards, gets the question and each variant whole; the page's account names
    the word alone (its answer row says the rest) and no variant's text (its card holds it)."""
    turn = Turn("formality", "you", "Who is “you” here: someone you address formally…?", ["formal", "informal"])
    variants = [Alternative("you → formal", "Pouvez-vous m'aider ?"),
                Alternative("you → informal", "Peux-tu m'aider ?")]
    transcript = Transcript("Can you help me?", "fr", "intercpt", "fake:m", turns=[turn], alternatives=variants,
                            translation="Tu pourrais m'aider ?")
    assert explain(transcript) == ["you → not answered (Who is “you” here: someone you address formally…?)",
                                   "if you → formal: Pouvez-vous m'aider ?", "if you → informal: Peux-tu m'aider ?"]
    assert account_lines(transcript) == explain(transcript, brief=True) == ["you → not answered"]
