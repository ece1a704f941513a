"""Model calls and tokens per transcript step, on fake chat models: the counts are exact, each
dialogue counts only its own calls, in whatever thread or context it is advanced; a streamed reply
reports its tokens where the backend can, and is counted as unreported where it cannot."""

from __future__ import annotations

import contextvars
import threading
from dataclasses import asdict

from assistant.backends import ModelSpec, load_chat_model
from assistant.chain import Assistant, ChainOptions
from assistant.explain import explain
from assistant.transcript import Transcript
from assistant.usage import StepUsage, UsageCounter
from assistant.users import OracleUser, SimulatedUser
from tests.fake_openai import FakeOpenAIServer
from tests.fakes import StepFake
from tests.test_http_api import make_client

REPLY_USAGE = {"input_tokens": 100, "output_tokens": 7, "total_tokens": 107, "input_token_details": {"cache_read": 60}}
ONE_REPLY = StepUsage(calls=1, input_tokens=100, evaluated_tokens=40, output_tokens=7)
SOURCE = "Can you wait until Blair is ready?"  # the register of "you" is asked at once; the decide call reads "Blair" (a name may be a famous person's)


def reporting_fake(**queues) -> StepFake:
    return StepFake(usage=REPLY_USAGE, calls=[], **queues)


def test_each_step_counts_the_calls_made_while_it_was_open():
    fake = reporting_fake(translate=["Pouvez-vous aider le chirurgien ?"])
    transcript = Assistant(fake, "fake:m").run(SOURCE, "fr", user=OracleUser({"formality": "formal"}))
    assert fake.steps() == ["decide", "translate"]
    assert transcript.usage == {"detect": ONE_REPLY, "translate": ONE_REPLY}


def test_a_repair_counts_under_verify():
    fake = reporting_fake(translate=["Peux-tu aider le chirurgien ?", "Pouvez-vous aider le chirurgien ?"])
    transcript = Assistant(fake, "fake:m").run(SOURCE, "fr", user=OracleUser({"formality": "formal"}))
    assert fake.steps() == ["decide", "translate", "translate"]  # the second one is the rewrite
    assert transcript.usage["verify"] == ONE_REPLY
    assert sum(u.calls for u in transcript.usage.values()) == len(fake.calls)


def test_a_call_that_reports_no_tokens_is_counted_as_unreported():
    fake = StepFake(translate=["Pouvez-vous aider le chirurgien ?"], calls=[])
    transcript = Assistant(fake, "fake:m").run(SOURCE, "fr", options=ChainOptions(method="no-extra"))
    assert transcript.usage == {"translate": StepUsage(calls=1, unreported=1)}


def test_the_simulated_users_calls_are_not_the_chains():
    fake = reporting_fake(user=["formal, my bank.", "a man"], translate=["Pouvez-vous aider le chirurgien ?"])
    user = SimulatedUser(fake, "At the bank.", "fr")
    transcript = Assistant(fake, "fake:m").run(SOURCE, "fr", user=user)
    assert fake.steps() == ["decide", "user", "user", "translate"]
    assert "answer" not in transcript.usage
    assert transcript.usage == {"detect": ONE_REPLY, "translate": ONE_REPLY}


def test_dialogues_on_one_assistant_count_only_their_own_calls():
    fake = reporting_fake(translate=["Pouvez-vous aider le chirurgien ?"])
    assistant = Assistant(fake, "fake:m")
    first, second = assistant.start(SOURCE, "fr"), assistant.start(SOURCE, "fr", ChainOptions(method="no-extra"))
    first.ask_next()
    for _ in second.drive(None):
        pass
    assert second.transcript.usage == {"translate": ONE_REPLY}
    assert first.transcript.usage == {"detect": ONE_REPLY}


def test_a_dialogue_advanced_in_fresh_threads_and_contexts_still_counts_each_step():
    """As the web page does: every step of the dialogue's generator in a worker thread under a new context."""
    fake = reporting_fake(translate=["Pouvez-vous aider le chirurgien ?"])
    dialogue = Assistant(fake, "fake:m").start(SOURCE, "fr")
    steps = dialogue.drive(None)

    def advance() -> list:
        done: list = []
        thread = threading.Thread(target=lambda: done.append(contextvars.Context().run(next, steps, None)))
        thread.start()
        thread.join()
        return done

    for answer in ("formal", "a man"):
        assert advance()[0].kind == "asked"
        dialogue.answer(answer, "human")
        steps = dialogue.drive(None)
    while (step := advance()[0]) is not None and step.kind != "done":
        pass
    assert dialogue.transcript.usage == {"detect": ONE_REPLY, "translate": ONE_REPLY}


def test_usage_survives_the_round_trip_and_an_older_transcript_reads_with_none():
    fake = reporting_fake(translate=["Pouvez-vous aider le chirurgien ?"])
    transcript = Assistant(fake, "fake:m").run(SOURCE, "fr", options=ChainOptions(method="no-extra"))
    again = Transcript.from_dict(transcript.to_dict())
    assert again.usage == transcript.usage == {"translate": ONE_REPLY}
    older = {k: v for k, v in transcript.to_dict().items() if k != "usage"} | {"schema_version": 3}
    assert Transcript.from_dict(older).usage == {}


def test_a_streamed_translation_reports_its_tokens_from_an_openai_compatible_server():
    with FakeOpenAIServer(reply="Pouvez-vous aider le chirurgien ?") as server:
        assistant = Assistant(load_chat_model(ModelSpec.parse(f"openai:{server.url}#fake")), "fake")
        transcript = assistant.run(SOURCE, "fr", options=ChainOptions(method="no-extra"))
        assert server.bodies[-1]["stream"] and server.bodies[-1]["stream_options"] == {"include_usage": True}
        assert transcript.usage == {"translate": StepUsage(calls=1, streamed=1, input_tokens=1, evaluated_tokens=1,
                                                           output_tokens=1)}
        assert explain(transcript)[-1] == "cost: 1 model call, 2 tokens"
        server.stream_usage = False  # a server that does not count a streamed reply
        transcript = assistant.run(SOURCE, "fr", options=ChainOptions(method="no-extra"))
        assert transcript.usage == {"translate": StepUsage(calls=1, streamed=1, unreported=1)}
        assert explain(transcript)[-1] == "cost: 1 model call, 0 tokens (1 call reported no tokens)"


def test_a_reply_a_server_would_not_stream_keeps_its_tokens():
    with FakeOpenAIServer(reply="Pouvez-vous aider le chirurgien ?", mode="whole") as server:
        assistant = Assistant(load_chat_model(ModelSpec.parse(f"openai:{server.url}#fake")), "fake")
        transcript = assistant.run(SOURCE, "fr", options=ChainOptions(method="no-extra"))
        assert server.requests == 2  # the stream read as empty, then the whole reply
        assert transcript.usage["translate"] == StepUsage(calls=1, streamed=1, input_tokens=1, evaluated_tokens=1,
                                                          output_tokens=1)


def test_a_counter_without_a_transcript_sums_every_call():
    fake = reporting_fake(translate=["Pouvez-vous aider le chirurgien ?"])
    counter = UsageCounter()
    fake.callbacks = [counter]
    transcript = Assistant(fake, "fake:m").run(SOURCE, "fr", user=OracleUser({"formality": "formal"}))
    assert counter.total == ONE_REPLY + ONE_REPLY == sum(transcript.usage.values(), StepUsage())


def test_the_clarify_apis_transcript_counts_each_step_over_its_requests():
    client = make_client(reporting_fake(translate=["Pouvez-vous aider le chirurgien ?"]))
    started = client.post("/v1/clarify", json={"text": SOURCE, "target_lang": "fr"}).json()
    for question, answer in (("q1", "formal"), ("q2", "a man")):
        answered = client.post(f"/v1/clarify/{started['session']}",
                               json={"answers": [{"question": question, "answer": answer}]}).json()
    assert answered["transcript"]["usage"] == {"detect": asdict(ONE_REPLY), "translate": asdict(ONE_REPLY)}


def test_alternatives_asked_for_later_in_another_thread_count_under_alternatives():
    fake = reporting_fake(translate=["Pouvez-vous aider le chirurgien ?"])
    dialogue = Assistant(fake, "fake:m").start(SOURCE, "fr")
    for _ in dialogue.drive(OracleUser({"gender": "feminine"})):  # no formality label: the question is skipped
        pass
    assert "alternatives" not in dialogue.transcript.usage
    before = len(fake.calls)
    thread = threading.Thread(target=lambda: contextvars.Context().run(list, dialogue.alternatives()))
    thread.start()
    thread.join()
    assert len(dialogue.transcript.alternatives) == 2
    assert dialogue.transcript.usage["alternatives"].calls == len(fake.calls) - before >= 2
    assert dialogue.transcript.usage["alternatives"].output_tokens == 7 * (len(fake.calls) - before)
