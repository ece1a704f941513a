"""The question sheet on a fake chat model: a document's questions gathered once, grouped by what one answer
settles, then applied to every segment without asking again."""

import pytest

from assistant.chain import Assistant
from assistant.document import DocumentTranslator
from assistant.errors import InputError
from assistant.profile import Profile
from assistant.sheet import build_sheet
from tests.fakes import StepFake

ASK_IT = '{"ambiguous": true, "question": "What is it?", "options": ["the message", "the file"]}'
SEGMENTS = ["Can you help me?", "Alex sent you a message.", "Alex is here, and she is happy.", "Can you help me?",
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
                     ("q3", "neutral_professions", "doctor", [6, 7]),
                     ("q4", "it_resolution", SEGMENTS[4], [5])]
    register = sheet.questions[0]
    assert register.options[:2] == ["formal", "informal"] and "“you”" in register.question
    assert [e.segment for e in register.examples] == [1, 2, 5]  # three examples, a repeated text once
    assert register.examples[1].words == ((10, 13),) and SEGMENTS[1][10:13] == "you"
    assert sheet.questions[3].options == ["the message", "the file"]
    # the decide call reads only segments with a person not yet on the sheet (the register of "you" needs none);
    # "it" is written once
    assert fake.steps() == ["decide", "detect", "decide"]
    assert sheet.to_dict()["questions"][1]["segment_count"] == 2


def test_settled_words_are_not_on_the_sheet():
    _, _, sheet = sheet_of(["Alex sent you a message."], decide=['{"1": "no"}'])
    assert [q.ambiguity for q in sheet.questions] == ["formality"]  # Alex is settled; "you" is never


def test_answers_are_applied_to_every_segment_and_nothing_is_asked_again():
    fake, assistant, sheet = sheet_of()
    sheet.answer("q1", "formal")
    sheet.answer("q2", "a woman")
    sheet.answer("q4", "the message")
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
    sheet.answer("q4", "the file")
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
