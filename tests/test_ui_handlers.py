"""The web app's handlers and session store on a fake chat model (the browser tests are in test_ui.py)."""

from __future__ import annotations

import pytest

from assistant.chain import PROMPT_VARIANTS, Assistant
from tests.fakes import StepFake
from ui.handlers import SKIP, ChatHandlers
from ui.sessions import SessionStore

ASK = '{"ambiguous": true, "question": "Formal or informal?", "options": ["formal", "informal"]}'


def handlers(**queues) -> tuple[ChatHandlers, StepFake]:
    fake = StepFake(detect=queues.get("detect", [ASK]), user=queues.get("user", ["formal"]),
                    translate=queues.get("translate", ["Vous êtes sûr ?"]), calls=[])
    return ChatHandlers({v: Assistant(fake, "fake:m", prompts=v) for v in PROMPT_VARIANTS}), fake


def chat(h: ChatHandlers, message: str, session: str, *, simulate: bool = False, context: str = "") -> list[tuple]:
    return list(h.respond(message, [], "fr", "intercpt", 3, "generalist", simulate, context, None, session))


def test_a_question_waits_for_the_answer_and_the_answer_finishes_the_translation():
    h, fake = handlers()
    first = chat(h, "Are you sure?", "s1")
    question = first[-1][0][-1]
    assert "Formal or informal?" in question.content
    assert [o["value"] for o in question.options] == ["formal", "informal", "generic", SKIP]
    assert "translate" not in fake.steps()
    final = chat(h, "formal", "s1")[-1]
    messages, translation, account, transcript, session_id = final
    assert translation == "Vous êtes sûr ?" and session_id == "s1"
    assert transcript["turns"][0]["answer"] == "formal" and transcript["turns"][0]["answered_by"] == "human"
    assert "you → formal" in account
    assert h.sessions.get("s1").last.translation == "Vous êtes sûr ?"  # kept on the server, not in a widget


def test_sessions_do_not_share_a_pending_question():
    h, _ = handlers()
    chat(h, "Are you sure?", "a")
    other = chat(h, "Where is the station?", "b")[-1]
    assert other[3]["source"] == "Where is the station?"
    assert h.sessions.get("a").dialogue.pending is not None


def test_skip_gives_alternatives():
    h, _ = handlers(translate=["Tu es sûr ?", "Vous êtes sûr ?", "Tu es sûr ?"])
    chat(h, "Are you sure?", "s")
    transcript = chat(h, SKIP, "s")[-1][3]
    assert transcript["turns"][0]["answered_by"] == "none"
    assert [a["assumption"] for a in transcript["alternatives"]] == ["you → formal", "you → informal"]


def test_the_simulated_user_answers_from_the_context_while_the_person_watches():
    h, fake = handlers(user=["formal: it is my landlord"])
    outputs = chat(h, "Are you sure?", "s", simulate=True, context="Mr. Dupont, my landlord, came by.")
    titles = [m.metadata.get("title") for m in outputs[-1][0] if m.metadata]
    assert titles == ["Question about “you”", "Simulated user"]
    assert outputs[-1][3]["turns"][0]["answered_by"] == "simulated"
    assert fake.steps().count("user") == 1


@pytest.mark.parametrize(("message", "context", "simulate", "expected"), [
    ("   ", "", False, "nothing to translate"),
    ("Are you sure?", "", True, "answers from a context"),
])
def test_bad_input_is_a_message(message, context, simulate, expected):
    h, _ = handlers()
    last = chat(h, message, "s", simulate=simulate, context=context)[-1][0][-1]
    assert expected in last.content and last.content.startswith("⚠️")
    assert h.sessions.get("s").dialogue is None


def test_the_one_call_endpoint_answers_in_order():
    h, _ = handlers()
    transcript = h.translate("Are you sure?", "fr", answers=["informal"])
    assert transcript["turns"][0]["answer"] == "informal"


def test_the_session_store_drops_the_least_recently_used():
    store = SessionStore(capacity=2)
    store.get("a").last = "A"
    store.get("b")
    store.get("a")  # used again: now the most recent
    store.get("c")
    assert store.get("a").last == "A"
    assert store.get("b").last is None  # dropped, so a fresh session
