"""A model server that hangs, fails, answers garbage or does not stream, against the real ``intercpt ui``
over HTTP: every API request comes back within its deadline with a status and a message in its API's
own format, the queue is free again at once, and the work of a client that left stops (or never
starts). Also the OpenAI-compatible backend on its own, and the deadline on any chat model."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import httpx
import pytest

from assistant import deadlines
from assistant.backends.config import GenerationConfig
from assistant.backends.openai import chat_model
from assistant.chain import Assistant
from assistant.errors import BackendError, DeadlineExceeded, OutageError, RequestCancelled
from tests.fake_openai import FakeOpenAIServer
from tests.fakes import StepFake
from tests.live_server import LiveServer, intercpt_ui
from ui.api.gate import Gate

DEADLINE_S = 5.0
SLACK_S = 6.0  # a busy 2-core machine: start-up of a request, the retry's back-off, the reply
RUNNING = 8  # requests ``intercpt ui`` lets use a model server at once
QUEUE = 4
SOURCE = "Could you sign?"  # with formality "more", one model call: the reply is a formal French translation
REPLY = "Pourriez-vous signer ?"

# One request per API, and the field its errors come in.
API_CALLS = {
    "deepl": ("/v2/translate", {"text": [SOURCE], "target_lang": "FR", "formality": "more"}, "message"),
    "libre": ("/translate", {"q": SOURCE, "source": "en", "target": "fr", "formality": "more"}, "error"),
    "clarify": ("/v1/clarify", {"text": SOURCE, "target_lang": "fr", "formality": "more"}, "detail"),
}


@dataclass
class Backend:
    fake: FakeOpenAIServer
    live: LiveServer | None

    def post(self, api: str = "deepl", timeout: float = 60.0, **changes) -> tuple[httpx.Response, float]:
        """One request to ``api`` (its body with ``changes``); the response and the seconds it took."""
        path, body, _ = API_CALLS[api]
        started = time.monotonic()
        response = httpx.post(self.live.url + path, json={**body, **changes}, timeout=timeout)
        return response, time.monotonic() - started

    def settle(self, seconds: float = 1.0) -> int:
        """The model server's request count once it has stayed the same for ``seconds``."""
        while True:
            count = self.fake.requests
            time.sleep(seconds)
            if self.fake.requests == count:
                return count


@pytest.fixture(scope="module")
def backend(tmp_path_factory):
    state = Backend(FakeOpenAIServer().__enter__(), None)
    try:
        with intercpt_ui(f"openai:{state.fake.url}#fake", "--request-timeout", str(DEADLINE_S), "--queue-size",
                         str(QUEUE), "--rate-limit", "10000", tmp_path=tmp_path_factory.mktemp("deadlines")) as live:
            state.live = live
            first, _ = state.post()  # the server loaded its language data before it took requests
            assert first.status_code == 200, f"{first.text}\n{live.output()}"
            yield state
    finally:
        state.fake.__exit__(None, None, None)  # the one standing in for a stopped one, if a test stopped it


@pytest.fixture(autouse=True)
def healthy(request):
    """Each test starts on a model server that answers at once."""
    if "backend" in request.fixturenames:
        fake = request.getfixturevalue("backend").fake
        fake.mode, fake.delay = "ok", 0.0
    yield


def assert_error(response: httpx.Response, status: int, field: str, words: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert list(body) == [field] and words in body[field], body


# --- (a) a hung model server ----------------------------------------------------------------------

def test_a_hung_model_server_answers_every_request_by_its_deadline_and_locks_nothing(backend):
    backend.fake.mode = "hang"
    with ThreadPoolExecutor(RUNNING + QUEUE) as pool:
        results = list(pool.map(lambda _: backend.post(), range(RUNNING + QUEUE)))
    for response, took in results:
        assert took < DEADLINE_S + SLACK_S, f"{took:.1f} s"
        assert response.status_code == 503, response.text
        assert response.headers["retry-after"].isdigit()
        assert list(response.json()) == ["message"] and response.json()["message"]
    messages = {response.json()["message"] for response, _ in results}
    assert any("did not answer within" in m for m in messages), messages  # those that had reached the model
    assert any("deadline" in m for m in messages), messages  # those still waiting in the queue

    backend.fake.mode = "ok"
    response, took = backend.post()
    assert response.status_code == 200, response.text
    assert response.json()["translations"][0]["text"] == REPLY


# --- (b) a client that leaves -----------------------------------------------------------------------

def test_the_work_of_a_client_that_left_stops_at_its_next_model_call(backend):
    backend.fake.delay = 2.0
    before = backend.settle()
    # Without formality the text raises a question: its decision, then the translations, are several calls.
    with pytest.raises(httpx.ReadTimeout):
        backend.post(timeout=1.0, formality="default")
    assert backend.settle(3.0) - before == 1  # the call under way when it left, and no other


def test_a_request_whose_client_left_while_it_waited_never_starts(backend):
    backend.fake.delay = 2.0
    before = backend.settle()
    with ThreadPoolExecutor(RUNNING) as pool:
        blockers = [pool.submit(backend.post) for _ in range(RUNNING)]
        while backend.fake.requests < before + RUNNING:  # every place at the model is taken
            time.sleep(0.05)
        with pytest.raises(httpx.ReadTimeout):
            backend.post(timeout=1.0)  # waits in the queue, then its client gives up
        assert all(blocker.result()[0].status_code == 200 for blocker in blockers)
    assert backend.settle(3.0) - before == RUNNING  # one call per blocker, none for the request that left


# --- (c) a model server that fails, is stopped, or answers garbage ------------------------------------

@pytest.mark.parametrize("api", list(API_CALLS))
def test_a_failing_model_server_is_a_prompt_503_in_each_apis_format(backend, api):
    backend.fake.mode = "error"
    response, took = backend.post(api)
    assert_error(response, 503, API_CALLS[api][2], "the model server failed (HTTP 500)")
    assert response.headers["retry-after"].isdigit()
    assert took < SLACK_S


@pytest.mark.parametrize("api", list(API_CALLS))
def test_garbage_from_the_model_server_is_a_502_in_each_apis_format(backend, api):
    backend.fake.mode = "garbage"
    response, took = backend.post(api)
    assert_error(response, 502, API_CALLS[api][2], "not a chat completion")
    assert took < SLACK_S


def test_a_stopped_model_server_is_a_prompt_503_in_each_apis_format(backend):
    port = backend.fake.server_address[1]
    backend.fake.__exit__(None, None, None)
    try:
        for api, (_, _, field) in API_CALLS.items():
            response, took = backend.post(api)
            assert_error(response, 503, field, "cannot be reached")
            assert took < SLACK_S
    finally:
        backend.fake = FakeOpenAIServer(port=port).__enter__()
    response, _ = backend.post()
    assert response.status_code == 200, response.text


# --- (d) a model server that does not stream --------------------------------------------------------

@pytest.mark.parametrize("api", ["deepl", "libre"])
def test_a_model_server_that_does_not_stream_still_translates(backend, api):
    backend.fake.mode = "whole"
    response, _ = backend.post(api)
    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["translations"][0]["text"] if api == "deepl" else body["translatedText"]) == REPLY


# --- the backend and the deadline on their own --------------------------------------------------------

def test_the_backend_takes_the_whole_reply_from_a_server_that_does_not_stream():
    with FakeOpenAIServer(mode="whole") as fake:
        model = chat_model(fake.url, "fake", GenerationConfig())
        assert "".join(chunk.content for chunk in model.stream("Translate: hi")) == REPLY
        assert fake.requests == 2  # the stream that came back empty, then the whole reply
        assert "".join(chunk.content for chunk in model.stream("Translate: hi")) == REPLY
        assert fake.requests == 3  # from then on, the whole reply at once


@pytest.mark.parametrize("mode, error, words", [("error", OutageError, "HTTP 500"),
                                                ("garbage", BackendError, "not a chat completion")])
def test_the_backend_turns_a_failing_server_into_the_chains_errors(mode, error, words):
    with FakeOpenAIServer(mode=mode) as fake:
        model = chat_model(fake.url, "fake", GenerationConfig())
        with pytest.raises(error, match=words):
            "".join(chunk.content for chunk in model.stream("hi"))
        with pytest.raises(error, match=words):
            model.invoke("hi")


def test_the_backend_waits_for_a_hung_server_no_longer_than_the_deadline_and_never_after_it():
    with FakeOpenAIServer(mode="hang") as fake:
        model = chat_model(fake.url, "fake", GenerationConfig())
        started = time.monotonic()
        with deadlines.within(deadlines.Deadline(2.0)):
            with pytest.raises(OutageError, match="did not answer within"):
                model.invoke("hi")
            assert time.monotonic() - started < 2.0 + SLACK_S
            tries = fake.requests
            with pytest.raises(DeadlineExceeded):
                model.invoke("hi")
        assert fake.requests == tries  # a call after the deadline is never sent


def test_a_cancelled_request_stops_any_chat_model_at_its_next_call():
    class LeavesAfterTheFirstCall(StepFake):
        def _generate(self, messages, stop=None, run_manager=None, **kwargs):
            deadlines.current().cancel()
            return super()._generate(messages, stop, run_manager, **kwargs)

    fake = LeavesAfterTheFirstCall(translate=[REPLY], calls=[])
    with deadlines.within(deadlines.Deadline(60.0)), pytest.raises(RequestCancelled):
        Assistant(fake, "fake:m").run("Can you help me? I trust the doctor.", "fr")
    assert len(fake.calls) == 1


def test_a_queued_request_leaves_the_gate_at_its_deadline_or_when_its_client_leaves():
    gate = Gate(concurrency=1, queue_size=2)
    with gate.enter():
        started = time.monotonic()
        with deadlines.within(deadlines.Deadline(0.5)), pytest.raises(DeadlineExceeded):
            with gate.enter():
                pass
        assert 0.5 <= time.monotonic() - started < 2.0
        gone = deadlines.Deadline(60.0)
        gone.cancel()
        with deadlines.within(gone), pytest.raises(RequestCancelled):
            with gate.enter():
                pass
    with deadlines.within(deadlines.Deadline(1.0)), gate.enter():
        pass  # the place each request held came back
