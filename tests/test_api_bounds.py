"""The real ``intercpt ui`` under careless or hostile clients: every input a request carries is bounded,
bodies that cannot be read strictly are refused in the API's own error format, only delivered work
is billed, and a ``/v1/clarify`` answer is tied to the question it names."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tests.fake_openai import FakeOpenAIServer
from tests.live_server import intercpt_ui

QUOTA = 1_000_000
MODEL_SLOTS = 8  # requests ``intercpt ui`` lets use an OpenAI-compatible server at once
TWO_QUESTIONS = "Can you thank the nurse?"  # the register of "you", then the nurse's gender


@pytest.fixture(scope="module")
def fake():
    with FakeOpenAIServer() as server:
        yield server


@pytest.fixture(scope="module")
def live(fake, tmp_path_factory):
    with intercpt_ui(f"openai:{fake.url}#fake", "--character-limit", str(QUOTA), "--queue-size", "0",
                     tmp_path=tmp_path_factory.mktemp("live")) as server:
        yield server


@pytest.fixture(autouse=True)
def healthy_backend(fake):
    fake.mode, fake.delay = "ok", 0.0
    yield
    fake.mode, fake.delay = "ok", 0.0


def used(live) -> int:
    return httpx.get(f"{live.url}/v2/usage", timeout=30).json()["character_count"]


def start(live, text: str = TWO_QUESTIONS) -> dict:
    response = httpx.post(f"{live.url}/v1/clarify", json={"text": text, "target_lang": "fr"}, timeout=120)
    assert response.status_code == 200, response.text
    return response.json()


def answer(live, session: str, *answers: tuple[str, str | None]) -> httpx.Response:
    return httpx.post(f"{live.url}/v1/clarify/{session}", timeout=120,
                      json={"answers": [{"question": qid, "answer": value} for qid, value in answers]})


def test_a_huge_clarify_answer_is_refused_before_any_model_reads_it(live, fake):
    body = start(live, "Where is it?")  # an open question: free text is an answer
    before, calls = used(live), fake.requests
    huge = answer(live, body["session"], ("q1", "a vase " * 285_715))  # 2,000,005 characters
    assert huge.status_code == 413 and "has 2000005 characters; it takes at most 5000" in huge.json()["detail"]
    assert fake.requests == calls and used(live) == before
    done = answer(live, body["session"], ("q1", "a vase"))
    assert done.status_code == 200 and done.json()["done"], done.text
    assert used(live) == before + len("a vase")  # the answer the models read is billed
    assert max(fake.prompt_chars) < 20_000  # no prompt carries more than a bounded text


def test_a_context_past_the_bound_is_refused(live):
    before = used(live)
    response = httpx.post(f"{live.url}/v2/translate", timeout=60,
                          json={"text": ["Hi"], "target_lang": "FR", "context": "x" * 5001})
    assert response.status_code == 413 and "the context has 5001 characters" in response.json()["message"]
    assert used(live) == before


def test_deeply_nested_json_is_a_400_in_each_apis_format(live):
    nested = b"[" * 100_000 + b"]" * 100_000
    for path, field in (("/v2/translate", "message"), ("/translate", "error"), ("/v1/clarify", "detail")):
        response = httpx.post(f"{live.url}{path}", content=b'{"text": ' + nested + b', "target_lang": "FR"}',
                              headers={"Content-Type": "application/json"}, timeout=60)
        assert response.status_code == 400 and response.json()[field] == "the JSON body is nested too deeply"
    assert live.alive()


def test_a_chunked_body_past_the_bound_is_a_413(live):
    def twelve_megabytes():
        for _ in range(12):
            yield b"x" * (1024 * 1024)

    response = httpx.post(f"{live.url}/v2/translate", content=twelve_megabytes(), timeout=60,
                          headers={"Content-Type": "application/json"})
    assert response.status_code == 413 and response.json()["message"] == "the request is larger than 10 MB"
    assert live.alive()
    small = httpx.post(f"{live.url}/v2/translate", content=iter([b'{"text": ["Hi"], ', b'"target_lang": "FR"}']),
                       headers={"Content-Type": "application/json"}, timeout=60)
    assert small.status_code == 200, small.text  # a chunked body within the bound is read as ever


def test_invalid_utf8_in_a_form_body_is_refused_not_replaced(live):
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    for path, body, field in (("/v2/translate", b"text=caf\xe9&target_lang=FR", "message"),
                              ("/v2/translate", b"text=caf%E9&target_lang=FR", "message"),
                              ("/translate", b"q=caf%C3%28&target=fr", "error")):
        response = httpx.post(f"{live.url}{path}", content=body, headers=form, timeout=60)
        assert response.status_code == 400 and response.json()[field] == "the form body is not valid UTF-8"
    fine = httpx.post(f"{live.url}/v2/translate", content="text=café&target_lang=FR".encode(), headers=form,
                      timeout=60)
    assert fine.status_code == 200 and fine.json()["translations"][0]["billed_characters"] == 4


def test_invalid_utf8_in_a_multipart_field_is_refused_not_read_as_latin1(live, fake):
    po = b'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Could you sign?"\nmsgstr ""\n'
    before, calls = used(live), fake.requests
    for field, value in (("context", b"caf\xe9"), ("target", b"fr\xff"), ("formality", b"mor\xc3\x28")):
        response = httpx.post(f"{live.url}/translate_file", data={"target": "fr", field: value},
                              files={"file": ("app.po", po)}, timeout=60)
        assert response.status_code == 400 and response.json() == {
            "error": f"the form field '{field}' is not valid UTF-8"}, response.text
    deepl = httpx.post(f"{live.url}/v2/translate", data={"text": b"caf\xe9", "target_lang": "FR"},
                       files={"unused": ("a.txt", b"")}, timeout=60)  # multipart, not form-encoded
    assert deepl.status_code == 400 and deepl.json() == {"message": "the form field 'text' is not valid UTF-8"}
    assert fake.requests == calls and used(live) == before
    fine = httpx.post(f"{live.url}/translate_file", data={"target": "fr", "context": "Un café.".encode()},
                      files={"file": ("app.po", po)}, timeout=60)
    assert fine.status_code == 200, fine.text
    assert used(live) == before + len("Could you sign?") + len("Un café.")  # the context, read as UTF-8


def test_refused_and_failed_requests_are_not_billed(live, fake):
    before = used(live)
    nul = httpx.post(f"{live.url}/v2/translate", json={"text": ["\u0000" * 40], "target_lang": "FR"}, timeout=60)
    assert nul.status_code == 400 and "binary data" in nul.json()["message"]
    assert used(live) == before
    fake.mode = "error"
    failed = httpx.post(f"{live.url}/v2/translate", json={"text": ["Can you help me?"], "target_lang": "FR"},
                        timeout=120)
    assert failed.status_code >= 500
    started = httpx.post(f"{live.url}/v1/clarify", json={"text": "Blair is tired.", "target_lang": "fr"},
                         timeout=120)
    assert started.status_code >= 500
    assert used(live) == before
    fake.mode = "ok"
    done = httpx.post(f"{live.url}/v2/translate", json={"text": ["Can you help me?"], "target_lang": "FR",
                                                        "context": "a note to my boss"}, timeout=120)
    assert done.status_code == 200 and done.json()["translations"][0]["billed_characters"] == 16 + 17
    assert used(live) == before + 16 + 17  # the text and the context the models read with it


def test_a_busy_server_bills_nothing(live, fake):
    fake.delay = 3.0
    before, calls = used(live), fake.requests
    holders = [threading.Thread(target=httpx.post, args=(f"{live.url}/v2/translate",), daemon=True,
                                kwargs={"json": {"text": ["Hello."], "target_lang": "FR"}, "timeout": 120})
               for _ in range(MODEL_SLOTS)]
    for holder in holders:
        holder.start()
    while fake.requests < calls + MODEL_SLOTS:  # every place at the model is taken (--queue-size 0)
        threading.Event().wait(0.05)
    busy_clarify = httpx.post(f"{live.url}/v1/clarify", json={"text": "Can you help me?", "target_lang": "fr"},
                              timeout=60)
    busy_file = httpx.post(f"{live.url}/translate_file", data={"target": "fr"}, timeout=60,
                           files={"file": ("notes.txt", b"Can you help me?\n")})
    for holder in holders:
        holder.join(120)
    assert busy_clarify.status_code == 429 and "busy" in busy_clarify.json()["detail"]
    assert busy_file.status_code == 429 and "busy" in busy_file.json()["error"]
    assert used(live) == before + MODEL_SLOTS * len("Hello.")


def test_concurrent_answers_on_one_session_answer_their_question_once(live, fake):
    body = start(live)
    assert [(q["id"], q["ambiguity"]) for q in body["questions"]] == [("q1", "formality")]
    fake.delay = 0.3
    with ThreadPoolExecutor(3) as pool:
        replies = list(pool.map(lambda _: answer(live, body["session"], ("q1", "informal")), range(3)))
    assert [reply.status_code for reply in replies] == [200] * 3, [reply.text for reply in replies]
    states = [reply.json() for reply in replies]
    assert all(state == states[0] for state in states)  # one answered, the others saw it answered
    (gender,) = states[0]["questions"]
    assert gender["id"] == "q2" and gender["ambiguity"] != "formality" and "informal" not in gender["options"]
    done = answer(live, body["session"], ("q1", "informal"), ("q2", gender["options"][1])).json()
    turns = {turn["ambiguity"]: turn for turn in done["transcript"]["turns"]}
    assert turns["formality"]["answer"] == "informal" and turns[gender["ambiguity"]]["answer"] == gender["options"][1]
    assert [turn["answered_by"] for turn in done["transcript"]["turns"]] == ["human", "human"]


def test_an_answer_names_its_question_takes_its_options_and_is_idempotent(live, fake):
    body = start(live)
    session = body["session"]
    wrong = answer(live, session, ("q2", "formal"))
    assert wrong.status_code == 400 and "no question 'q2' in this session (the pending one is q1)" in wrong.text
    outside = answer(live, session, ("q1", "a woman"))
    assert outside.status_code == 400 and "not one of its options" in outside.json()["detail"]
    plain = httpx.post(f"{live.url}/v1/clarify/{session}", json={"answers": ["formal"]}, timeout=60)
    assert plain.status_code == 400 and "each answer names its question" in plain.json()["detail"]
    first = answer(live, session, ("q1", "formal"))
    assert first.status_code == 200 and first.json()["questions"][0]["id"] == "q2"
    calls, before = fake.requests, used(live)
    again = answer(live, session, ("q1", "formal"))
    assert again.json() == first.json() and fake.requests == calls and used(live) == before
    conflict = answer(live, session, ("q1", "informal"))
    assert conflict.status_code == 409 and "already answered 'formal'" in conflict.json()["detail"]
    done = answer(live, session, ("q2", None))
    repeated = answer(live, session, ("q2", None))
    assert done.json()["done"] and repeated.json() == done.json() and used(live) == before
