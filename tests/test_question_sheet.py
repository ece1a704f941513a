"""The question sheet on a fake chat model: a document's questions gathered once, grouped by what one answer
settles, then applied to every segment without asking again; and a file's repeated segments translated once,
on the fake and on the real small model."""

import polib
import pytest

from assistant.chain import Assistant
from assistant.document import DocumentTranslator, noted
from assistant.errors import InputError
from assistant.formats import read_document, translate_document, translator_segments
from assistant.profile import Profile
from assistant.sheet import build_sheet, prepared_sheet
from assistant.usage import total
from assistant.users import HumanUser
from tests.fakes import StepFake

ASK_IT = '{"ambiguous": true, "question": "What is it?", "options": ["the message", "the file"]}'
SEGMENTS = ["Can you help me?", "Alex was glad to send you a message.", "Alex left early.", "Can you help me?",
            "Delete the message or the file? Delete it?", "Ask the doctor.", "The doctor will call you."]


def sheet_of(segments=SEGMENTS, **replies):
    fake = StepFake(detect=[ASK_IT], translate=["Vous."], calls=[], **replies)
    assistant = Assistant(fake, "fake:m")
    return fake, assistant, build_sheet(assistant.steps, segments, "fr")


def test_one_question_per_register_person_and_text_with_counts_and_examples():
    fake, _, sheet = sheet_of()
    asked = [(q.id, q.ambiguity, q.key, q.segments) for q in sheet.questions]
    assert asked == [("q1", "formality", "", [1, 2, 4, 5, 6, 7]),
                     ("q2", "neutral_names", "alex", [2, 3]),
                     ("q3", "neutral_professions", "doctor", [6, 7])]
    register = sheet.questions[0]
    assert register.options[:2] == ["formal", "informal"] and "“you”" in register.question
    assert [e.segment for e in register.examples] == [1, 2, 5]  # three examples, a repeated text once
    assert register.examples[1].words == ((22, 25),) and SEGMENTS[1][22:25] == "you"
    # "it" in one string would settle that string alone: kept for review (guessed, flagged), not asked
    assert [(q.id, q.ambiguity, q.segments, q.options) for q in sheet.for_review] == [
        ("r1", "it_resolution", [5], ["the message", "the file"])]
    assert sheet.to_dict()["for_review"][0]["id"] == "r1" and sheet.to_dict()["question_count"] == 3
    # the decide call reads only segments with a person not yet on the sheet (the register of "you" needs none;
    # "doctor" also names a degree); "it" is written once
    assert fake.steps() == ["decide", "detect", "decide"]
    assert sheet.to_dict()["questions"][1]["segment_count"] == 2


def test_settled_words_are_not_on_the_sheet():
    _, _, sheet = sheet_of(["Alex was glad to send you a message."], decide=['{"1": "no"}'])
    assert [q.ambiguity for q in sheet.questions] == ["formality"]  # Alex is settled; "you" is never


def test_answers_are_applied_to_every_segment_and_nothing_is_asked_again():
    fake, assistant, sheet = sheet_of()
    sheet.answer("q1", "formal")
    sheet.answer("q2", "a woman")
    sheet.answer("r1", "the message")  # a client may still answer a question kept for review, by its id
    calls_before = len(fake.calls)
    translator = DocumentTranslator(assistant, "fr")
    transcripts = list(translator.translate_units(SEGMENTS, sheet.user(), preferences=sheet.memory()))
    turns = [turn for t in transcripts for turn in t.turns]
    assert {(t.ambiguity, t.answer, t.answered_by) for t in turns if t.ambiguity != "neutral_professions"} == {
        ("formality", "formal", "preference"), ("neutral_names", "a woman", "preference"),
        ("it_resolution", "the message", "human")}
    guessed = [t for t in turns if t.answer is None]
    assert guessed and {t.span.lower() for t in guessed} == {"the doctor"}  # skipped on the sheet: guessed
    new_calls = [step for step, _, _ in fake.calls[calls_before:]]
    # only the skipped person's segments are read again, and the one the sheet read with the same words reused
    assert new_calls.count("decide") == 1


def test_a_word_the_file_asks_about_as_a_person_gets_no_question_about_its_sense():
    ask_sense = '{"ambiguous": true, "question": "Which sense?", "options": ["a person", "a container"]}'
    fake = StepFake(detect=[ask_sense], calls=[])
    sheet = build_sheet(Assistant(fake, "fake:m").steps, ["The recipient will reply soon.", "Recipient"], "fr")
    # the column "Recipient" names a role (no gender question of its own) in the sense the file asks about
    assert [(q.ambiguity, q.key, q.segments) for q in sheet.questions] == [("neutral_professions", "recipient", [1])]
    assert "detect" not in fake.steps()  # the sense question was never written
    alone = build_sheet(Assistant(StepFake(detect=[ask_sense], calls=[]), "fake:m").steps, ["Bank"], "fr")
    assert [(q.ambiguity, q.options) for q in alone.questions] == [("polysemy", ["a person", "a container"])]


def test_an_it_question_of_a_string_that_recurs_stays_on_the_sheet():
    repeated = "Delete the message or the file? Delete it?"
    _, _, sheet = sheet_of(["Can you help me?", repeated, "Can you help me?", repeated])
    assert [(q.ambiguity, q.segments) for q in sheet.questions] == [("formality", [1, 2, 3, 4]),
                                                                    ("it_resolution", [2, 4])]
    assert sheet.for_review == []


def test_a_profile_answers_a_question_kept_for_review():
    _, _, sheet = sheet_of()
    profile = Profile()
    profile.put("referent", SEGMENTS[4], "the file")
    sheet.apply_profile(profile)
    assert [(q.id, q.answer, q.answered_by) for q in sheet.for_review] == [("r1", "the file", "profile")]


def test_one_person_in_both_numbers_is_one_question_whose_answer_holds_for_both():
    segments = ["A user signed in.", "Some users are waiting.", "The user left."]
    fake, assistant, sheet = sheet_of(segments)
    people = [q for q in sheet.questions if q.ambiguity != "formality"]
    assert [(q.span, [other.span for other in q.also], q.segments) for q in people] == [
        ("A user", ["Some users"], [1, 2, 3])]
    assert sheet.to_dict()["questions"][-1]["also_answers"] == ["Some users"]
    sheet.answer(people[0].id, "a woman")
    transcripts = list(DocumentTranslator(assistant, "fr").translate_units(segments, sheet.user(),
                                                                         preferences=sheet.memory()))
    answers = {(turn.span, turn.answer, turn.answered_by) for t in transcripts for turn in t.turns}
    assert answers == {("A user", "a woman", "preference"), ("Some users", "women", "preference"),
                       ("The user", "a woman", "preference")}
    profile = Profile()
    assert sheet.record_in(profile) == 2 and profile.answers["people"] == {"user": "a woman", "users": "women"}


def test_a_hyphenated_role_is_one_question_in_both_numbers_apart_from_its_last_part():
    """"co-worker" and "co-workers" are one role, folded by the whole word's lemma: the plain "worker" of another
    segment stays a question of its own."""
    segments = ["A co-worker signed in.", "Some co-workers are waiting.", "A worker left."]
    _, _, sheet = sheet_of(segments)
    people = [q for q in sheet.questions if q.ambiguity != "formality"]
    assert sorted((q.span, [other.span for other in q.also], q.segments) for q in people) == [
        ("A co-worker", ["Some co-workers"], [1, 2]), ("A worker", [], [3])]


def test_the_person_an_imperative_addresses_and_you_are_one_question():
    """Strings of tests/data/formats/accounts_200.po (django-allauth): « Soyez patient, patiente » and « Vous êtes
    déjà connecté, connectée » say the gender of one person, the user the file speaks to."""
    segments = ["Be patient, you are sending too many requests.", "You are already logged in as <x1/>."]
    fake, assistant, sheet = sheet_of(segments)
    people = [q for q in sheet.questions if q.ambiguity != "formality"]
    assert [(q.span, q.key, q.segments, [other.span for other in q.also]) for q in people] == [
        ("You", "you", [1, 2], ["Be patient"])]  # the question names "you", not the command
    sheet.answer(people[0].id, "a woman")
    transcripts = list(DocumentTranslator(assistant, "fr").translate_units(segments, sheet.user(),
                                                                         preferences=sheet.memory()))
    answers = {(turn.span, turn.answer, turn.answered_by) for t in transcripts for turn in t.turns
               if turn.ambiguity != "formality"}
    assert answers == {("Be patient", "a woman", "preference"), ("You", "a woman", "preference")}


def test_a_file_translated_in_reading_order_asks_the_addressee_once_for_you_too():
    """Without a sheet (``translate --file`` asking as it reads), the answer about the person told "Be patient"
    is the answer for the next string's "you"."""
    segments = ["Be patient, you are sending too many requests.", "You are already logged in as <x1/>."]
    fake, assistant, _ = sheet_of(segments)
    asked = []
    user = HumanUser(lambda turn: asked.append(turn.span) or ("a woman" if "man or a woman" in turn.question
                                                              else "formal"))
    transcripts = list(DocumentTranslator(assistant, "fr").translate_units(segments, user))
    assert [span for span in asked if span != "you"] == ["Be patient"]
    assert ("You", "a woman", "preference") in [(t.span, t.answer, t.answered_by) for t in transcripts[1].turns]


def test_unknown_question_ids_are_refused():
    _, _, sheet = sheet_of(["Can you help me?"])
    with pytest.raises(InputError, match="no question 'q9' on this sheet; its questions are q1"):
        sheet.answer("q9", "formal")


def test_a_profile_answers_the_sheet_and_takes_its_new_answers():
    _, _, sheet = sheet_of()
    profile = Profile()
    profile.put("formality", "fr", "informal")
    profile.put("gender", "alex", "a woman")
    sheet.apply_profile(profile)
    assert [(q.id, q.answer, q.answered_by) for q in sheet.questions if q.answer] == [
        ("q1", "informal", "profile"), ("q2", "a woman", "profile")]
    sheet.answer("q3", "a man")
    sheet.answer("r1", "the file")
    assert sheet.record_in(profile) == 2
    assert profile.answers["people"] == {"alex": "a woman", "doctor": "a man"}
    assert profile.answers["referents"] == {SEGMENTS[4]: "the file"}


def test_the_profile_answers_people_the_sheet_did_not_list():
    profile = Profile()
    profile.put("gender", "sam", "a man")
    profile.put("formality", "fr", "formal")
    _, _, sheet = sheet_of(["Thank you."])
    memory = sheet.memory(profile)
    assert memory.answered[("neutral_names", "sam")].answer == "a man"
    assert memory.answered[("formality", "")].answer == "formal"


def test_identical_segments_after_the_sheet_cost_one_translation_and_no_detection():
    """The sheet read every segment: translating the file asks the model nothing again, and a segment met
    before is not translated again."""
    segments = ["Can you help me?", "Alex was glad to send you a message.", "Can you help me?", "Alex was glad to send you a message.",
                "Can you help me?"]
    fake = StepFake(translate=["Pouvez-vous m’aider ?"], calls=[])
    assistant = Assistant(fake, "fake:m")
    sheet = build_sheet(assistant.steps, segments, "fr")
    sheet.answer("q1", "formal")
    calls_before = len(fake.calls)
    record = []
    translate = DocumentTranslator(assistant, "fr").segment_translator(sheet.user(), record, sheet.memory(), sheet)
    translated = list(translate(segments))
    assert fake.steps()[calls_before:] == ["translate", "translate"]  # one per distinct segment, no decide call
    assert [text for text, _ in translated] == ["Pouvez-vous m’aider ?"] * 5
    assert record[0] is record[2] is record[4] and record[1] is record[3]
    person = [turn for turn in record[1].turns if turn.ambiguity == "neutral_names"]
    assert [(t.answer, t.answered_by) for t in person] == [(None, "none")]  # skipped on the sheet: guessed, flagged


@pytest.mark.real_model
def test_real_model_translates_a_file_s_repeated_segments_once(embedded_model, embedded_spec, tmp_path, measure):
    """A catalogue whose strings recur under several contexts (Django's admin strings, four times each), on
    the 0.5B model: after the sheet, fewer model calls than segments, and one translation per source."""
    sources = ["Your password was changed.", "You don’t have permission to view or edit anything."]
    catalogue = polib.POFile()
    catalogue.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
    for place in ("login", "admin", "profile", "email"):
        catalogue += [polib.POEntry(msgctxt=place, msgid=source, msgstr="") for source in sources]
    catalogue.save(str(tmp_path / "repeated.po"))
    assistant = Assistant(embedded_model, embedded_spec, structured_output=True)
    document = read_document(tmp_path / "repeated.po")
    sheet = prepared_sheet(assistant.steps, translator_segments(document), "fr")
    sheet.answer(next(q.id for q in sheet.questions if q.ambiguity == "formality"), "formal")
    record = []
    translate = DocumentTranslator(assistant, "fr").segment_translator(sheet.user(), record, sheet.memory(), sheet)
    translate_document(document, tmp_path / "repeated.fr.po", noted(translate, record), target_lang="fr",
                       progress=False)
    translated = {id(t): t for t in record}.values()  # a repeated segment's transcript is its first occurrence's
    calls = total(usage for t in translated for usage in t.usage.values()).calls
    assert len(translated) == len(sources) and 0 < calls < len(catalogue), calls
    written = polib.pofile(str(tmp_path / "repeated.fr.po"))
    for source in sources:
        texts = {entry.msgstr for entry in written if entry.msgid == source}
        assert len(texts) == 1 and texts != {""}, texts
    measure(f"file with repeated segments, 0.5B on llama.cpp: {len(catalogue)} segments, {len(sources)} distinct, "
            f"{calls} model calls after the sheet")


@pytest.mark.real_model
def test_real_model_sheet_asks_a_role_once_in_both_numbers_and_keeps_a_one_string_it_for_review(embedded_model,
                                                                                                 embedded_spec):
    """Real catalogue strings (django-allauth, django-postman, wagtail; tests/data/formats/accounts_200.po and
    tests/data/catalogue_it.yaml) on the 0.5B model: "A user" and "some users" are one question, and an "it"
    that one string leaves open is kept for review, not asked."""
    segments = ["A user is already registered with this email address.", "Writing to some users is not possible: <x1/>.",
                "You may edit it again below."]
    assistant = Assistant(embedded_model, embedded_spec, structured_output=True)
    sheet = prepared_sheet(assistant.steps, segments, "fr")
    people = [q for q in sheet.questions if q.key == "user"]
    assert [(q.span, [o.span for o in q.also], q.segments) for q in people] == [("A user", ["some users"], [1, 2])]
    assert all(q.ambiguity != "it_resolution" for q in sheet.questions)
    assert [(q.id, q.ambiguity, q.segments) for q in sheet.for_review] == [("r1", "it_resolution", [3])]
    sheet.answer(people[0].id, "a woman")
    assert sheet.memory().answered[("group_gender", "users")].answer == "women"
