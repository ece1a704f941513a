"""The web app's handlers and session store on a fake chat model (the browser tests are in test_ui.py)."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from langchain_core.messages import AIMessageChunk
from langchain_core.outputs import ChatGenerationChunk

from assistant.ambiguity import get_type
from assistant.backends import GenerationRequest
from assistant.chain import Assistant, ChainOptions
from assistant.errors import InputError
from assistant.transcript import Alternative, Transcript
from tests.fakes import StepFake
from ui.handlers import PICKED, SETTING, ChatHandlers, ChatOptions, preferences_from, read_upload
from ui.labels import SKIP, model_display_name
from ui.messages import account_markdown, describe_error, highlighted_source, variants_note
from ui.sessions import SessionStore

ASK = '{"ambiguous": true, "question": "Formal or informal?", "options": ["formal", "informal"]}'


def handlers(**queues) -> tuple[ChatHandlers, StepFake]:
    fake = StepFake(detect=queues.get("detect", [ASK]), user=queues.get("user", ["formal"]),
                    translate=queues.get("translate", ["Pouvez-vous m'aider ?"]), calls=[])
    return ChatHandlers(Assistant(fake, "fake:m")), fake


def chat(h: ChatHandlers, message: str, session: str, *, simulate: bool = False, context: str = "") -> list[tuple]:
    return list(h.respond(message, [], "fr", "intercpt", 3, "generalist", simulate, context, None, session))


def test_a_question_waits_for_the_answer_and_the_answer_finishes_the_translation():
    h, fake = handlers()
    first = chat(h, "Can you help me?", "s1")
    question = first[-1][0][-1]
    assert "“you”" in question.content
    assert [o["value"] for o in question.options] == [*get_type("formality").options("fr"), SKIP]
    assert "translate" not in fake.steps()
    final = chat(h, "formal", "s1")[-1]
    messages, translation, account, transcript, session_id = final
    assert translation == "Pouvez-vous m'aider ?" and session_id == "s1"
    assert transcript["turns"][0]["answer"] == "formal" and transcript["turns"][0]["answered_by"] == "human"
    assert "you → formal" in account
    assert h.sessions.get("s1").last.translation == "Pouvez-vous m'aider ?"  # kept on the server, not in a widget


def test_sessions_do_not_share_a_pending_question():
    h, _ = handlers()
    chat(h, "Can you help me?", "a")
    other = chat(h, "Where is the station?", "b")[-1]
    assert other[3]["source"] == "Where is the station?"
    assert h.sessions.get("a").dialogue.pending is not None


def test_skip_shows_the_translation_first_then_both_forms():
    h, _ = handlers(translate=["Peux-tu m'aider ?", "Pouvez-vous m'aider ?", "Peux-tu m'aider ?"])
    chat(h, "Can you help me?", "s")
    finished = [output[3] for output in chat(h, SKIP, "s") if "translation" in output[3]]  # not gr.update()
    assert finished[0]["translation"] == "Peux-tu m'aider ?" and finished[0]["alternatives"] == []
    transcript = finished[-1]
    assert transcript["turns"][0]["answered_by"] == "none" and transcript["alternatives_requested"]
    assert [a["assumption"] for a in transcript["alternatives"]] == ["you → formal", "you → informal"]


def test_stop_ends_the_alternatives_between_two():
    h, fake = handlers(translate=["Peux-tu m'aider ?", "Pouvez-vous m'aider ?", "Peux-tu m'aider ?"])
    chat(h, "Can you help me?", "s")
    outputs = h.respond(SKIP, [], "fr", "intercpt", 3, "generalist", False, "", None, "s")
    while "translation" not in next(outputs)[3]:  # up to the translation, on screen before any alternative
        pass
    next(outputs)  # the first alternative
    h.stop("s")
    assert list(outputs) == [] and len(h.sessions.get("s").last.alternatives) == 1
    assert fake.steps().count("translate") == 2


def test_the_simulated_user_answers_from_the_context_while_the_person_watches():
    h, fake = handlers(user=["formal: it is my landlord"])
    outputs = chat(h, "Can you help me?", "s", simulate=True, context="Mr. Dupont, my landlord, came by.")
    titles = [m.metadata.get("title") for m in outputs[-1][0] if m.metadata]
    assert titles == ["Question about “you”", "Simulated user"]
    assert outputs[-1][3]["turns"][0]["answered_by"] == "simulated"
    assert fake.steps().count("user") == 1


@pytest.mark.parametrize(("message", "context", "simulate", "expected"), [
    ("   ", "", False, "nothing to translate"),
    ("Can you help me?", "", True, "answers from a context"),
])
def test_bad_input_is_a_message(message, context, simulate, expected):
    h, _ = handlers()
    last = chat(h, message, "s", simulate=simulate, context=context)[-1][0][-1]
    assert expected in last.content and last.content.startswith("⚠️")
    assert h.sessions.get("s").dialogue is None


def test_the_one_call_endpoint_answers_in_order():
    h, _ = handlers()
    transcript = h.translate("Can you help me?", "fr", answers=["informal"])
    assert transcript["turns"][0]["answer"] == "informal"


def test_the_session_store_drops_the_least_recently_used():
    store = SessionStore(capacity=2)
    store.get("a").last = "A"
    store.get("b")
    store.get("a")  # used again: now the most recent
    store.get("c")
    assert store.get("a").last == "A"
    assert store.get("b").last is None  # dropped, so a fresh session


def test_a_new_text_while_a_question_is_pending_starts_a_new_dialogue():
    h, _ = handlers(detect=[ASK, "NO"], translate=["Où est la gare ?"])
    chat(h, "Can you help me?", "s")
    transcript = chat(h, "Where is the station?", "s")[-1][3]
    assert transcript["source"] == "Where is the station?" and transcript["turns"] == []
    assert h.sessions.get("s").dialogue is None


def test_a_text_that_replaces_an_open_question_says_so_in_the_chat():
    h, _ = handlers(detect=[ASK, "NO"], translate=["Où est la gare ?"])
    chat(h, "Can you help me?", "s")
    messages = chat(h, "Where is the station?", "s")[-1][0]
    assert "“Can you help me?” is left untranslated" in messages[0].content
    assert not any("left untranslated" in m.content for m in chat(h, "Where is it?", "s")[-1][0])


def test_undo_forgets_the_translation_of_the_text_it_takes_back():
    h, _ = handlers()
    chat(h, "Can you help me?", "s")
    chat(h, "formal", "s")
    h.undo("s")
    assert h.sessions.get("s").last is None
    assert "no answer to change" in list(h.change_answer("s", 0, "informal", ChatOptions()))[-1].messages[-1].content


def test_a_reloaded_page_gets_back_its_session_or_what_the_browser_kept_of_it():
    now = [0.0]
    h, fake = handlers(translate=["Pouvez-vous m'aider ?", "Peux-tu m'aider ?"])
    h.sessions = SessionStore(max_idle_s=60, clock=lambda: now[0])
    chat(h, "Can you help me?", "s")
    assert h.restore("s", None, None).dialogue is not None  # the server's own: the question still open
    chat(h, "formal", "s")
    kept = h.page_state("s")
    now[0] = 61  # the server forgot it; the browser did not
    session = h.restore("s", kept["source"], kept["transcript"])
    assert session.source == "Can you help me?" and session.last.translation == "Pouvez-vous m'aider ?"
    assert list(h.change_answer("s", 0, "informal", ChatOptions()))[-1].transcript.translation == "Peux-tu m'aider ?"


def test_the_word_marked_is_the_one_asked_about_not_an_earlier_one_spelled_the_same():
    source = "Thank you for the form. Can you sign it?"
    assert highlighted_source(source, "you", source.index("Can") + 4)[1] == ("you", "in question")
    assert highlighted_source(source, "you", source.index("Can") + 4)[0] == ("Thank you for the form. Can ", None)
    assert highlighted_source(source, "you")[0] == ("Thank ", None)  # no offset: the first whole word


def test_a_free_answer_counts_only_when_marked_as_an_answer():
    h, _ = handlers()
    chat(h, "Can you help me?", "s")
    transcript = chat(h, "answer: speaking to my boss", "s")[-1][3]
    assert transcript["source"] == "Can you help me?"
    assert transcript["turns"][0]["answer"] == "speaking to my boss"
    chat(h, "Can you help me?", "t")
    options = ChatOptions()
    views = list(h.turn("my landlord, so formal", options, "t", as_answer=True))
    assert views[-1].transcript.turns[0].answer == "my landlord, so formal"


def test_an_answer_without_an_open_question_translates_nothing():
    h, fake = handlers()
    # an answer button clicked in an evicted session (or "answer: …"): it must not become a text to translate
    clicked = list(h.turn("formal", ChatOptions(), "gone", as_answer=True))[-1]
    typed = chat(h, "answer: formal", "gone")[-1][0][-1]
    assert clicked.failed and "no longer open" in clicked.messages[-1].content and "no longer open" in typed.content
    assert "translate" not in fake.steps()


def test_expired_sessions_are_forgotten_and_the_answer_is_refused():
    now = [0.0]
    h, fake = handlers()
    h.sessions = SessionStore(max_idle_s=60, clock=lambda: now[0])
    chat(h, "Can you help me?", "s")
    now[0] = 61
    last = list(h.turn("formal", ChatOptions(), "s", as_answer=True))[-1]
    assert "no longer open" in last.messages[-1].content and "translate" not in fake.steps()


def test_the_session_store_is_safe_from_several_threads():
    store = SessionStore(capacity=8)
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda i: store.get(f"s{i % 20}"), range(4000)))
    assert len(store._sessions) == 8


def test_stop_leaves_nothing_pending_even_when_the_stopped_run_finds_a_question_later():
    h, _ = handlers()
    views = h.turn("Can you help me?", ChatOptions(), "s")
    next(views)  # "Looking for ambiguities…" shown, detection not yet done
    assert h.stop("s").startswith("Stopped")
    rest = list(views)  # the stopped run's thread goes on and finds the question
    assert rest == [] and h.sessions.get("s").dialogue is None
    transcript = chat(h, "Where is the station?", "s")[-1][3]  # taken as a new text, not as the answer
    assert transcript["source"] == "Where is the station?"


@pytest.mark.parametrize("reset", ["clear", "undo"])
def test_clear_and_undo_drop_the_pending_question(reset):
    h, _ = handlers(detect=[ASK, "NO"], translate=["Où est la gare ?"])
    chat(h, "Can you help me?", "s")
    getattr(h, reset)("s")
    assert h.sessions.get("s").dialogue is None
    assert chat(h, "Where is the station?", "s")[-1][3]["source"] == "Where is the station?"


class StreamingFake(StepFake):
    """Streams the first translation word by word, as a model server does (langchain gives
    ``_stream`` no run manager to read the prompt's tag from: only the translation streams)."""

    def _stream(self, messages, stop=None, run_manager=None, **kwargs):
        self.calls.append(("translate", messages, GenerationRequest.of(kwargs)))
        reply = self.translate.pop(0) if len(self.translate) > 1 else self.translate[0]
        for word in re.findall(r"\S+\s*", reply):
            yield ChatGenerationChunk(message=AIMessageChunk(content=word))


def test_the_translation_streams_token_by_token_with_the_elapsed_time():
    fake = StreamingFake(detect=["NO"], translate=["Où est la gare ?"], calls=[])
    h = ChatHandlers(Assistant(fake, "fake:m"))
    outputs = chat(h, "Where is the station?", "s")
    drafts = [o[1] for o in outputs if isinstance(o[1], str)]
    assert drafts[:6] == ["", "Où ", "Où est ", "Où est la ", "Où est la gare ", "Où est la gare ?"]
    assert set(drafts[6:]) == {"Où est la gare ?"}
    statuses = [m.content for o in outputs for m in o[0] if (m.metadata or {}).get("status") == "pending"]
    assert any(s.startswith("Translating…") and s.endswith(" s)") for s in statuses)


def test_the_status_line_says_what_runs_and_for_how_long():
    h, _ = handlers()
    views = h.turn("Can you help me?", ChatOptions(), "s")
    next(views)
    assert h.activity("s").startswith("⏳ Looking for ambiguities… ") and h.activity("s").endswith(" s")
    list(views)  # the question is asked: nothing runs
    assert h.activity("s") == "" and h.activity("unknown") == ""


def test_the_question_names_its_word_and_its_buttons_say_what_they_mean():
    h, _ = handlers()
    question = chat(h, "Could you call me tomorrow?", "s")[-1][0][-1]
    assert "“you”" in question.content  # the model's "Formal or informal?" gets the word in front
    labels = {o["value"]: o["label"] for o in question.options}
    assert "vous" in labels["formal"] and "tu" in labels["informal"] and labels[SKIP] != SKIP
    assert highlighted_source("Could you call me?", "you") == [("Could ", None), ("you", "in question"),
                                                               (" call me?", None)]


def test_a_preference_answers_without_asking_and_the_account_says_so():
    h, fake = handlers(translate=["Pourriez-vous m'appeler ?"])
    views = list(h.turn("Could you call me?", ChatOptions(register="formal"), "s"))
    transcript = views[-1].transcript
    assert "detect" not in fake.steps()
    assert transcript.turns[0].answer == "formal" and transcript.turns[0].answered_by == SETTING
    assert "you → formal, because your setting" in account_markdown(transcript)


@pytest.mark.parametrize("inclusive", [False, True])
def test_the_inclusive_forms_box_asks_about_anyone_of_a_kind_only_when_ticked(inclusive):
    h, _ = handlers(translate=["N'importe quel utilisateur peut commenter."])
    options = ChatOptions.from_page(ChainOptions(), "fr", "intercpt", 3.0, "generalist", inclusive, False, None, None,
                                    None, None)
    assert options.chain.inclusive is inclusive
    last = list(h.turn("Any user can post a comment.", options, "s"))[-1]
    assert (last.pending.span if last.pending else None) == ("Any user" if inclusive else None)


def test_a_named_person_preference_is_applied():
    memory = preferences_from("ask me", "Blair: a woman\nSam = man")
    assert {(k, t.answer) for k, t in memory.answered.items() if k[0] == "neutral_names"} == {
        (("neutral_names", "blair"), "a woman"), (("neutral_names", "sam"), "a man")}
    with pytest.raises(InputError, match="Blair: a woman"):
        preferences_from("ask me", "Blair is a woman")


def test_change_an_answer_translates_again_without_asking():
    h, fake = handlers(translate=["Pouvez-vous m'aider ?", "Peux-tu m'aider ?"])
    chat(h, "Can you help me?", "s")
    chat(h, "formal", "s")
    detections = fake.steps().count("detect")
    views = list(h.change_answer("s", 0, "informal", ChatOptions()))
    transcript = views[-1].transcript
    assert transcript.translation == "Peux-tu m'aider ?" and transcript.turns[0].answer == "informal"
    assert fake.steps().count("detect") == detections  # nothing asked again
    assert h.sessions.get("s").last is transcript


def test_use_an_alternative_makes_it_the_translation_and_its_assumption_the_answer():
    h, _ = handlers(translate=["Peux-tu m'aider ?", "Pouvez-vous m'aider ?", "Peux-tu m'aider ?"])
    chat(h, "Can you help me?", "s")
    chat(h, SKIP, "s")
    chosen = h.use_alternative("s", 0)
    assert chosen.translation == "Pouvez-vous m'aider ?" and chosen.turns[0].answer == "formal"
    assert chosen.turns[0].answered_by == PICKED  # the person picked a card; they said nothing
    assert h.sessions.get("s").last is chosen and len(chosen.alternatives) == 2


@pytest.mark.parametrize(("cards", "says"), [
    (["Pouvez-vous m'aider ?", "Peux-tu m'aider ?"], "_Assumes **you → formal**: the card “If you → formal”"),
    (["Vous pouvez m'aider ?", "Peux-tu m'aider ?"], "_The model's own guess, which assumes neither option"),
    (["Pouvez-vous m'aider ?", "Pouvez-vous m'aider ?"], "_The same under every option"),
    ([], ""),
])
def test_the_line_under_the_translation_says_which_card_it_is(cards, says):
    transcript = Transcript("Can you help me?", "fr", "intercpt", "fake:m", translation="Pouvez-vous m'aider ?")
    transcript.alternatives = [Alternative(f"you → {option}", text) for option, text in zip(("formal", "informal"),
                                                                                           cards)]
    assert variants_note(transcript).startswith(says)


def test_backend_errors_show_a_short_cause_and_log_the_detail(caplog):
    class Down(StepFake):
        def _generate(self, *args, **kwargs):
            raise ConnectionError("HTTPConnectionPool(host='10.0.0.7', port=8000): Max retries exceeded")

    fake = Down(detect=[ASK], calls=[])
    h = ChatHandlers(Assistant(fake, "fake:m"))
    last = chat(h, "Blair is tired.", "s")[-1][0][-1]
    assert "could not be reached" in last.content and "10.0.0.7" not in last.content
    assert "10.0.0.7" in caplog.text


def test_error_messages_name_no_command_line_flags():
    assert describe_error(InputError("the simulated user needs a context (--context or --context-file)")) == \
        "the simulated user needs a context"


@pytest.mark.parametrize(("name", "content", "expected"), [
    ("notes.txt", "Mr. Dupont is my landlord.".encode(), None),
    ("notes.pdf", b"%PDF-1.4", "not a .txt file"),
    ("notes.txt", "é".encode("latin-1") * 10, "not UTF-8"),
    ("notes.txt", b"a" * 200_001, "larger than 200 KB"),
])
def test_an_upload_is_checked_when_it_arrives(tmp_path, name, content, expected):
    path = tmp_path / name
    path.write_bytes(content)
    if expected is None:
        assert read_upload(str(path)) == "Mr. Dupont is my landlord."
    else:
        with pytest.raises(InputError, match=expected):
            read_upload(str(path))


def test_the_model_box_shows_a_name_not_a_path():
    assert model_display_name("transformers:/root/models/qwen-0.5b-q4.gguf") == "qwen-0.5b-q4 (transformers)"
    assert model_display_name("Qwen/Qwen2.5-1.5B-Instruct") == "Qwen/Qwen2.5-1.5B-Instruct (transformers)"


def test_retry_runs_the_newest_text_again_even_after_an_answer_was_given():
    h, fake = handlers(translate=["Pouvez-vous m'aider ?"])
    chat(h, "Can you help me?", "s")
    chat(h, "formal", "s")
    views = list(h.retry("s", ChatOptions()))
    assert views[-1].pending is not None and views[-1].source == "Can you help me?"
    assert list(ChatHandlers(h.assistant).retry("new", ChatOptions()))[-1].failed


def test_retry_and_undo_go_back_to_the_text_an_answer_answered():
    from ui.app import text_start

    history = [{"role": "user", "content": "Can you help me?"}, {"role": "assistant", "content": "Who is “you”?"},
               {"role": "user", "content": "skip — offer me the variants"}, {"role": "assistant", "content": "…"},
               {"role": "user", "content": [{"type": "text", "text": "Can you help me?"}]},  # as the page sends it
               {"role": "assistant", "content": "Who is “you”?"}]
    assert text_start(history, "Can you help me?") == 4
    assert text_start(history, "Can you help me?", upto=2) == 0
    assert text_start(history, "Where is the station?") is None


def test_a_repair_after_the_draft_says_so_and_its_text_replaces_the_draft():
    h, _ = handlers(translate=["Peux-tu m'aider ?", "Pouvez-vous m'aider ?"])
    chat(h, "Can you help me?", "s")
    seen = []
    for view in h.turn("formal", ChatOptions(), "s"):
        seen.append((view.draft, [m.content for m in view.messages if (m.metadata or {}).get("status") == "pending"],
                     h.activity("s")))
    statuses = [status for _, shown, _ in seen for status in shown]
    assert any(s.startswith("Checking the translation…") for s in statuses)
    fixing = [(draft, activity) for draft, shown, activity in seen
              if any(s.startswith("Fixing the register, try 1 of 2…") for s in shown)]
    assert fixing and fixing[0] == ("Peux-tu m'aider ?", fixing[0][1])  # the draft stays while it is fixed
    assert fixing[0][1].startswith("⏳ Fixing the register, try 1 of 2… ")  # the page's status line
    assert view.transcript.translation == "Pouvez-vous m'aider ?"
