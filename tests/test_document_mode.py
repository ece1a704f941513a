"""Document mode: paragraph by paragraph, each question asked once, answers applied throughout."""

import json

import pytest

from assistant.checks import read_formality
from assistant.chain import Assistant, ChainOptions
from assistant.errors import InputError
from assistant.document import DocumentTranslator, split_paragraphs
from assistant.users import HumanUser, NoUser
from tests.fakes import StepFake

LETTER = ("Thank you for your letter.\n\nCan you send me the report?\n\n"
          "Blair will be glad to call you tomorrow.\n\nBlair is sure that you are right.")


def distinct(turns):
    return [(t.ambiguity, t.span.lower()) for t in turns]


def test_paragraphs_are_split_on_blank_lines_and_wrapped_lines_joined():
    assert split_paragraphs("One line\nwrapped.\n\n \n\nTwo.\n") == ["One line wrapped.", "Two."]


@pytest.mark.parametrize(("text", "message"), [
    ("\n \n", "the document is empty"),
    ("Fine.\n\n" + "x" * 6000, "paragraph 2: the text has 6000 characters"),
    ("Fine.\n\nbad\x00data", "paragraph 2: the input looks like binary data"),
])
def test_bad_documents_get_a_clear_message(text, message):
    with pytest.raises(InputError, match=message):
        split_paragraphs(text)


def test_each_question_is_asked_once_and_its_answer_applied_in_every_paragraph():
    fake = StepFake(translate=["Vous avez raison."], calls=[])
    asked = []
    user = HumanUser(lambda turn: asked.append(turn.question) or {"formality": "formal"}.get(turn.ambiguity, "a woman"))
    result = DocumentTranslator(Assistant(fake, "fake:m"), "fr").translate(LETTER, user)

    assert "“your”" in asked[0] and asked[1:] == ["Is Blair a man or a woman?"]  # "Thank you" is a greeting
    assert fake.steps().count("decide") == 1  # nor do remembered answers and the register of "you"
    assert distinct(result.asked()) == [("formality", "your"), ("neutral_names", "blair")]
    for transcript in result.paragraphs:
        assert [t.answer for t in transcript.turns if t.ambiguity == "formality"] == ["formal"]
    assert [t.answered_by for t in result.paragraphs[3].turns] == ["preference", "preference"]
    prompts = [m[-1].content for step, m, _ in fake.calls if step == "translate" and "<clarifications>" in m[-1].content]
    assert len(prompts) >= 4 and all("vous" in prompt for prompt in prompts)  # the formal reminder, every time
    assert result.translation == "\n\n".join(["Vous avez raison."] * 4)


def test_it_is_asked_afresh_and_a_skipped_question_may_come_back():
    ask_it = '{"ambiguous": true, "question": "What is it?", "options": ["a hat", "a car"]}'
    fake = StepFake(detect=[ask_it], translate=["Il est là."], calls=[])
    document = "I saw a hat and a car. Where is it?\n\nI saw a hat and a car. Where was it?"
    result = DocumentTranslator(Assistant(fake, "fake:m"), "fr").translate(document, NoUser())
    assert [len(t.turns) for t in result.paragraphs] == [1, 1]
    assert fake.steps().count("detect") == 2


def test_later_paragraphs_read_an_extract_of_what_came_before():
    fake = StepFake(detect=['{"ambiguous": false}'], translate=["Elle est là."], calls=[])
    document = "Sam called her mother on Sunday.\n\nThe weather was fine.\n\nSam is here."
    result = DocumentTranslator(Assistant(fake, "fake:m"), "fr", ChainOptions(method="with-context"),
                                background="A family story.").translate(document)
    first, _, last = result.paragraphs
    assert first.method == "with-context" and first.context == "A family story."
    assert "Sam called her mother" in last.context and last.context.startswith("A family story.")
    assert "Sam called her mother" in fake.calls[-1][1][-1].content


def test_the_first_paragraph_without_background_has_nothing_to_read_for_with_context():
    fake = StepFake(detect=['{"ambiguous": false}'], translate=["Bonjour."], calls=[])
    result = DocumentTranslator(Assistant(fake, "fake:m"), "fr",
                                ChainOptions(method="with-context")).translate("Hello.\n\nBye.")
    assert [t.method for t in result.paragraphs] == ["no-extra", "with-context"]


def test_extract_plus_abstract_keeps_a_rolling_summary():
    fake = StepFake(summary=["Sam, a woman, called her mother."], detect=['{"ambiguous": false}'],
                       translate=["Elle est là."], calls=[])
    assistant = Assistant(fake, "fake:m", ChainOptions(context_strategy="extract+abstract"))
    result = DocumentTranslator(assistant, "fr").translate("Sam called her mother.\n\nSam is here.\n\nSam left.")
    assert fake.steps().count("summary") == 2  # after each paragraph but the last
    assert [t.context for t in result.paragraphs] == [None] + ["Sam, a woman, called her mother."] * 2
    summary_prompt = [m for step, m, _ in fake.calls if step == "summary"][1][-1].content
    assert "Sam, a woman, called her mother." in summary_prompt and "Sam is here." in summary_prompt


def test_the_document_record_carries_every_paragraph():
    fake = StepFake(translate=["Merci."], calls=[])
    result = DocumentTranslator(Assistant(fake, "fake:m"), "fr").translate("Thank you.\n\nSee you.", NoUser())
    data = json.loads(result.to_json())
    assert data["translation"] == "Merci.\n\nMerci." and len(data["paragraphs"]) == 2
    assert data["paragraphs"][0]["source"] == "Thank you."


@pytest.mark.parametrize(("make", "extra", "message"), [
    (None, [], "cannot read"),
    (lambda path: path.write_text("Hi.\n\n"), ["Hello"], "either TEXT or --file"),
    (lambda path: path.write_text("\n  \n"), [], "the document is empty"),
    (lambda path: path.write_bytes(b"\xff\xfe\x00binary"), [], "not UTF-8 text"),
    (lambda path: path.write_text("Hi."), ["--context-budget", "2"], "budget must be at least 8"),
])
def test_cli_document_mode_refuses_bad_input_in_one_line(intercpt_cli, tmp_path, make, extra, message):
    path = tmp_path / "doc.txt"
    if make:
        make(path)
    result = intercpt_cli("translate", "--file", str(path), "--to", "fr", *extra)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode == 1 and len(lines) == 1, result.stderr
    assert lines[0].startswith("intercpt: error:") and message in lines[0]


@pytest.mark.real_model
def test_cli_document_mode_keeps_one_register_and_asks_once(intercpt_cli, embedded_spec, tmp_path, measure):
    document = tmp_path / "letter.txt"
    document.write_text("Can you help me with the report?\n\n"
                        "Could you send it to me before Friday?\n", encoding="utf-8")
    result = intercpt_cli("translate", "--file", str(document), "--to", "fr", "--json", "--max-questions", "1",
                          "--answer", "formal, I am writing to my director", "--model", embedded_spec, timeout=1800)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    paragraphs = data["paragraphs"]
    assert len(paragraphs) == 2
    turns = [turn for p in paragraphs for turn in p["turns"]]
    asked = [(t["ambiguity"], t["span"].lower()) for t in turns if t["answered_by"] != "preference"]
    assert asked and len(asked) == len(set(asked)), turns  # each distinct question once
    assert all(t["answer"] == "formal, I am writing to my director" for t in turns if t["ambiguity"] == "formality")
    registers = [read_formality(p["translation"], "fr") for p in paragraphs]
    assert "informal" not in registers, registers  # one register: "vous", or none that can be read
    # (a translation without a marker is left as it is, "unchecked": a re-translation costs a call a
    # check that failed earns, and one that read nothing did not)
    for paragraph, register in zip(paragraphs, registers):  # a paragraph the model left untranslated says so
        checks = {c["name"]: c["status"] for c in paragraph["checks"]}
        assert register == "formal" or checks.get("formality") != "pass", paragraph
    assert "\n\n" in data["translation"]
    measure(f"document mode 0.5B on llama.cpp, 2 paragraphs: registers {registers}; questions asked {asked}; "
            f"seconds {[round(sum(p['timings'].values()), 1) for p in paragraphs]}")

