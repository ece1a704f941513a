"""The fidelity check: a sentence the translation adds (above all one that restates the prompt's own
instructions) or leaves out is found, cut or repaired, and never shown as checked.

Sources and references are CoCoA-MT train's (telephony, en-fr, formal); the appended sentences are the
ones a real model run appended, quoted in the report of the fault.
"""

import pytest

import assistant.fidelity as fidelity
from assistant.chain import Assistant, ChainOptions
from assistant.fidelity import compare
from assistant.repair import repair_reminder
from assistant.users import HumanUser
from tests.fakes import StepFake

SOURCE = "That hurts your stomach, okay. I think you're lactose intolerant."
REFERENCE = "Cela vous fait mal au ventre, d'accord. Je pense que vous êtes intolérant au lactose."
ECHOES = ("Je m'adresse à vous formellement.", 'Je vous prie de vous adresser formellement, avec "vous" et ses verbes.')
FORMAL = [repair_reminder("formality", "formal", "fr")]


def check(checks, name):
    return next(c for c in checks if c.name == name)


def run(fake, source=SOURCE):
    return Assistant(fake, "fake:model").run(source, "fr", user=HumanUser(lambda turn: "formal"))


@pytest.mark.parametrize("echo", ECHOES)
def test_a_translated_instruction_appended_to_a_right_translation_is_cut_without_a_model_call(echo):
    fake = StepFake(translate=[f"{REFERENCE} {echo}"], calls=[])
    transcript = run(fake)
    assert transcript.translation == REFERENCE
    found = check(transcript.checks, "fidelity")
    assert found.status == "pass" and f"removed “{echo}”" in found.observed
    assert fake.steps().count("translate") == 1  # no repair: cutting it costs nothing
    assert all(c.status == "pass" for c in transcript.checks if c.name in ("length", "language", "formality"))


@pytest.mark.parametrize("echo", ["A: formal", "A: vous"])
def test_an_answer_restated_on_a_line_of_its_own_is_cut_however_short(echo):
    """benchmarks/fidelity.py's 0.5B run delivered "…\nA: Sie": two words, too few for the encoder."""
    fake = StepFake(translate=[f"{REFERENCE}\n{echo}"], calls=[])
    transcript = run(fake)
    assert transcript.translation == REFERENCE
    assert f"removed “{echo}”" in check(transcript.checks, "fidelity").observed


def test_a_left_out_sentence_fails_the_check_and_the_repair_is_told_which():
    source = "That's another thing. You have to think on your feet because they always do things that are unexpected."
    reference = "C'est autre chose. Vous devez être réactif, car ils font toujours des choses inattendues."
    first_only = "C'est autre chose."
    assert compare(source, first_only, "fr", FORMAL).check().status == "fail"
    fake = StepFake(translate=[first_only, reference], calls=[])
    transcript = run(fake, source)
    assert transcript.translation == reference and check(transcript.checks, "fidelity").status == "pass"
    rewrite = [messages for step, messages, _ in fake.calls if step == "translate"][1][-1].content
    assert "Translate “You have to think on your feet because they always do things that are unexpected.” too" in rewrite


def test_a_prompt_line_restated_in_place_of_a_source_sentence_is_found_though_the_counts_match():
    """The 0.5B test model, told the answer "informal" into German (benchmarks/fidelity.py), replaced the
    source's last question by its translation of the prompt's question: as many sentences as the source."""
    source = "I am sorry, yes, and so it is pretty interesting. So what has been your experience travelling abroad?"
    reply = 'Ich bin sehr bereit, und so ist es pretty interesting. Wie hat die "du" von "du" addressed?'
    lines = ["Q: How is the “you” of “your” addressed? A: informal",
             repair_reminder("formality", "informal", "de")]
    found = compare(source, reply, "de", lines)
    assert [p.text for p in found.added] == ['Wie hat die "du" von "du" addressed?']
    assert [p.text for p in found.omitted] == ["So what has been your experience travelling abroad?"]
    right = "Es tut mir leid, ja, und es ist ziemlich interessant. Was hast du also im Ausland erlebt?"
    assert compare(source, right, "de", lines).signal == "one for one"  # no prompt words: no encoder run


def test_an_invented_sentence_is_found_where_the_counts_match_only_by_a_sentence_break_of_the_parse():
    """The 0.5B test model (benchmarks/fidelity.py, informal): the English parse cuts the source after
    "Cats are chill", the reply translates it whole and invents a sentence, two pieces each."""
    source = "Cats are chill and they just sit up under your bed and if they want to be pet, they'll let you pet them"
    reply = ("Les chats sont chill et ils just s'assument sous le bed et si ils veulent être pet, ils feront appel à eux.\n"
             "C'est une réunion.")
    found = compare(source, reply, "fr", [repair_reminder("formality", "informal", "fr")])
    assert [p.text for p in found.added] == ["C'est une réunion."] and found.signal == "encoder"


def test_a_sentence_said_again_with_its_placeholder_replaced_is_cut():
    """The 1.5B test model on a django-postman string (benchmarks/sheet_po.py), after "the user" is a woman."""
    source = "You have received a message from the user '<x1/>'."
    kept = "Vous avez reçu un message de l'utilisateur '<x1/>'."
    found = compare(source, f"{kept} Vous avez reçu un message de l'utilisateur 'elle'.", "fr", [])
    assert [p.text for p in found.added] == ["Vous avez reçu un message de l'utilisateur 'elle'."]


def test_a_sentence_said_again_in_other_words_is_cut():
    """The 1.5B test model on a django-postman string (benchmarks/sheet_po.py): the second sentence says the
    first again in other words (its own words and the first's share less than 70 %), and reads more like the
    first than like the source."""
    source = "On <x1/>, you asked to send a message to the user '<x2/>'."
    kept = "On vous a demandé de vous envoyer un message à l'utilisateur '<x2/>'."
    again = "Vous avez demandé à envoyer un message à l'utilisateur 'elle'."
    assert [p.text for p in compare(source, f"{kept} {again}", "fr", []).added] == [again]


def gender_answer_lines(span, answer="a woman"):
    """What the chain tells the translator beside the source for ``answer`` about ``span``."""
    from assistant.steps import clarifications
    from assistant.transcript import Transcript, Turn

    turn = Turn(ambiguity="neutral_professions", span=span, question=f"Is “{span}” a man or a woman?",
                options=["a man", "a woman"], answer=answer)
    return clarifications(Transcript(source="", target_lang="fr", method="intercpt", model="fake:model"), [turn])


@pytest.mark.parametrize("said, delivered", [
    ("L'avocate, qui est une femme, a dit que le contrat était prêt.", "L'avocate a dit que le contrat était prêt."),
    ("L'avocate a dit que le contrat était prêt, et c'est une femme.", "L'avocate a dit que le contrat était prêt."),
    ("L'avocate – qui est une femme – a dit que le contrat était prêt.", "L'avocate a dit que le contrat était prêt."),
])
def test_a_clause_restating_an_answer_inside_a_sentence_is_cut(said, delivered):
    """A run delivered « …, qui est une femme » inside a sentence that translates the source: the
    sentence stays, the clause goes, with its comma."""
    source = "The lawyer said the contract was ready."
    fake = StepFake(decide=['{"1": "yes"}'], translate=[said], calls=[])
    transcript = Assistant(fake, "fake:model").run(source, "fr", user=HumanUser(lambda turn: "a woman"))
    assert transcript.translation == delivered
    assert "removed “" in check(transcript.checks, "fidelity").observed


def test_a_clause_that_translates_the_source_is_not_taken_for_an_answer():
    source = "The lawyer, a woman of forty, said the contract was ready."
    reference = "L'avocate, une femme de quarante ans, a dit que le contrat était prêt."
    assert compare(source, reference, "fr", gender_answer_lines("The lawyer")).added == ()


def test_an_addition_that_cannot_be_cut_cleanly_is_repaired_and_failing_is_shown_as_failing():
    fake = StepFake(translate=[f"{ECHOES[1]} {REFERENCE}"[:60]], calls=[])  # the echo, and half the translation
    transcript = run(fake)
    found = check(transcript.checks, "fidelity")
    assert found.status == "fail" and "left out" in found.observed
    assert fake.steps().count("translate") > 1


def test_markup_lines_stay_and_an_appended_line_is_cut():
    source = f"<p>\n{SOURCE.replace(' I think', chr(10) + 'I think')}\n</p>"
    lines = REFERENCE.replace(" Je pense", "\nJe pense")
    transcript = run(StepFake(translate=[f"<p>\n{lines}\n{ECHOES[0]}\n</p>"], calls=[]), source)
    assert transcript.translation == f"<p>\n{lines}\n</p>"
    assert check(transcript.checks, "fidelity").status == "pass"


def test_two_short_source_sentences_joined_into_one_by_the_translator_are_not_flagged():
    source = "because that's handmade or, I mean it is meant to disintegrate basically in a year"
    reference = "parce que c'est fait main ou c'est censé se décomposer en un an"
    assert len(fidelity.source_pieces(source)) == 2 and len(fidelity.translation_pieces(reference, "fr")) == 1
    found = compare(source, reference, "fr", FORMAL).check()
    assert found.status == "pass", found.observed


@pytest.mark.parametrize("source, reference", [
    ("Sure, may I also get your ZIP code and street name, please?",
     "Bien sûr. Puis-je également avoir votre code postal et le nom de la rue, s'il vous plaît ?"),
    ("No I don't know, do you have any idea, if yes how much was the first purchase?",
     "Je ne sais pas. Avez-vous une idée ? Si c'est le cas, combien a coûté le premier achat ?"),
])
def test_one_source_sentence_split_at_its_commas_by_the_translator_is_not_flagged(source, reference):
    """CoCoA-MT train's references: a translator makes two or three sentences of one."""
    assert len(fidelity.translation_pieces(reference, "fr")) > len(fidelity.source_pieces(source))
    found = compare(source, reference, "fr", FORMAL).check()
    assert found.status == "pass", found.observed


def test_without_the_sentence_encoder_the_check_degrades_and_says_what_it_could_not_read(monkeypatch):
    monkeypatch.setattr(fidelity, "encoder_available", lambda: False)
    found = compare(SOURCE, REFERENCE, "fr", FORMAL)
    assert found.signal == "words" and found.check().status == "pass"
    assert "left-out sentences not read" in found.check().observed


@pytest.mark.real_model
def test_a_real_run_records_the_fidelity_check(embedded_model, embedded_spec):
    transcript = Assistant(embedded_model, embedded_spec).run("Oh my God! Why do you pay so much?", "fr",
                                                               options=ChainOptions(method="no-extra"))
    found = check(transcript.checks, "fidelity")
    assert found.status == "pass", (transcript.translation, found.observed)


def test_tags_of_the_prompt_the_reply_repeats_are_cut_and_the_source_s_own_are_kept():
    """A real 0.5B reply to a .po string (tests/data/formats/accounts_200.po) ended with the prompt's empty
    "<clarifications>" block; the source's placeholders stay."""
    source = ("The change to your account originates from:\n\n- IP address: <x1/>\n- Browser: <x2/>")
    reply = ("La modification de votre compte provient de :\n\n- Adresse IP : <x1/>\n- Navigateur : <x2/>\n\n"
             "<clarifications>\n</clarifications>")
    fake = StepFake(translate=[reply], calls=[])
    transcript = run(fake, source)
    assert transcript.translation == reply.split("\n\n<clarifications>")[0]
    assert "removed “<clarifications>”" in check(transcript.checks, "fidelity").observed
    assert fake.steps().count("translate") == 1
    assert compare("Hello <b>you</b>.", "Bonjour <b>vous</b>.", "fr", FORMAL).added == ()


def test_a_sentence_said_twice_beyond_the_source_s_count_is_cut():
    """A real 0.5B reply to one string of tests/data/formats/accounts_200.po: the sentence, then again."""
    source = "A user is already registered with this email address."
    reply = ("Un autre compte est déjà enregistrée avec cet adresse email.\n"
             "Les utilisateurs sont déjà enregistrés avec cet adresse email.")
    found = compare(source, reply, "fr", FORMAL)
    assert [p.text for p in found.added] == [reply.split("\n")[1]]
    two = "That hurts your stomach, okay. I think you're lactose intolerant."
    assert compare(two, REFERENCE, "fr", FORMAL).added == ()  # as many sentences as the source: none said twice
