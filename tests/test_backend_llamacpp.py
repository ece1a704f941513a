"""The in-process llama.cpp backend: spec routing and the default (fast), and on the real GGUF model
the chat template, prefix reuse, constrained replies and the whole chain."""

from __future__ import annotations

import json
import sys
import time

import pytest
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel

from assistant.backends import DEFAULT_MODEL, ModelSpec, default_model_spec, load_chat_model, supports_structured_output
from assistant.backends import GenerationRequest, StructuredOutputs, llamacpp, spec
from assistant.chain import Assistant
from assistant.errors import ModelLoadError
from assistant.users import OracleUser
from tests.test_bad_words import assert_forbidden_words_stay_out


# ----- specs and the default (no model)


@pytest.mark.parametrize(("installed", "backend"), [(True, "llamacpp"), (False, "transformers")])
def test_a_gguf_without_a_prefix_runs_on_llamacpp_where_installed(monkeypatch, installed, backend):
    monkeypatch.setattr(spec, "llamacpp_installed", lambda: installed)
    assert ModelSpec.parse("/models/q.gguf").backend == backend
    assert ModelSpec.parse("Qwen/Qwen2.5-1.5B-Instruct").backend == "transformers"
    assert ModelSpec.parse("./models/qwen-folder").backend == "transformers"
    assert ModelSpec.parse("transformers:/models/q.gguf").backend == "transformers"


def test_llamacpp_specs_parse():
    assert (ModelSpec.parse("llamacpp:/models/q.gguf").backend, ModelSpec.parse("llamacpp:/models/q.gguf").target) == (
        "llamacpp", "/models/q.gguf")
    assert ModelSpec.parse("llamacpp:@qwen2.5-1.5b").target == "@qwen2.5-1.5b"
    assert supports_structured_output(ModelSpec.parse("llamacpp:/models/q.gguf"))
    assert not supports_structured_output(ModelSpec.parse("transformers:/models/q.gguf"))


@pytest.mark.parametrize(
    ("installed", "gpu", "expected"),
    [(True, False, "llamacpp:@qwen2.5-1.5b"), (True, True, DEFAULT_MODEL), (False, False, DEFAULT_MODEL)],
)
def test_the_default_model_runs_on_llamacpp_on_a_cpu_machine(monkeypatch, installed, gpu, expected):
    monkeypatch.delenv("INTERCPT_MODEL", raising=False)
    monkeypatch.setattr(spec, "llamacpp_installed", lambda: installed)
    monkeypatch.setattr(spec, "has_gpu", lambda: gpu)
    assert default_model_spec() == expected
    monkeypatch.setenv("INTERCPT_MODEL", "transformers:/m/q.gguf")
    assert default_model_spec() == "transformers:/m/q.gguf"


def test_the_cpu_default_preset_names_a_gguf_file():
    repo, file = llamacpp.model_source("@qwen2.5-1.5b")
    assert file.endswith(".gguf") and (repo == "file" or repo.endswith("-GGUF"))


def test_model_sources_and_their_errors(tmp_path):
    assert llamacpp.model_source("someone/Model-GGUF") == ("someone/Model-GGUF", llamacpp.DEFAULT_QUANT_PATTERN)
    with pytest.raises(ModelLoadError, match="names no GGUF file"):
        llamacpp.model_source("@falcon-h1-0.5b")
    with pytest.raises(ModelLoadError, match="not found"):
        llamacpp.model_source(str(tmp_path / "absent.gguf"))
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(ModelLoadError, match="llama.cpp runs GGUF files"):
        llamacpp.model_source(str(tmp_path))


def test_a_missing_package_asks_for_the_extra(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # import fails as if not installed
    llamacpp._counting_llama_class.cache_clear()
    (tmp_path / "m.gguf").write_bytes(b"GGUF")
    with pytest.raises(ModelLoadError, match=r"pip install 'intercpt\[llamacpp\]'"):
        load_chat_model(ModelSpec.parse(f"llamacpp:{tmp_path / 'm.gguf'}"))
    llamacpp._counting_llama_class.cache_clear()


def test_a_hub_model_offline_fails_in_one_line(monkeypatch, llama_cpp_available):
    monkeypatch.setattr(llamacpp, "hub_reachable", lambda: False)
    with pytest.raises(ModelLoadError, match="hub cannot be reached; point at a local GGUF file") as info:
        load_chat_model(ModelSpec.parse("llamacpp:someone/Absent-Model-GGUF"))
    assert "\n" not in str(info.value)


def test_a_choice_grammar_allows_the_choices_verbatim():
    assert llamacpp.choice_grammar(["formal", 'say "hi"', "été"]) == 'root ::= "formal" | "say \\"hi\\"" | "été"'



def test_the_state_cache_counts_the_logits_each_state_copies(llama_cpp_available):
    import llama_cpp
    import numpy as np

    def state(tokens: int) -> llama_cpp.llama.LlamaState:
        return llama_cpp.llama.LlamaState(input_ids=np.zeros(tokens, dtype=np.intc),
                                          scores=np.zeros((512, 1000), dtype=np.single), n_tokens=tokens,
                                          llama_state=b"kv" * 100, llama_state_size=200, seed=0)

    one = state(4)
    cache = llamacpp.state_cache_for(llama_cpp, capacity_bytes=3 * one.scores.nbytes)
    for first in range(6):
        cache[(first, 1, 2)] = state(3)
    assert len(cache.cache_state) == 2  # 3 states would hold more than 3 logit copies' worth
    assert cache.cache_size <= 3 * one.scores.nbytes and (5, 1, 2) in cache



def test_a_full_state_cache_keeps_one_state_per_fixed_prompt(llama_cpp_available):
    import llama_cpp
    import numpy as np

    def state(tokens: int) -> llama_cpp.llama.LlamaState:
        return llama_cpp.llama.LlamaState(input_ids=np.zeros(tokens, dtype=np.intc),
                                          scores=np.zeros((4, 100), dtype=np.single), n_tokens=tokens,
                                          llama_state=b"kv", llama_state_size=2, seed=0)

    cache = llamacpp.state_cache_for(llama_cpp, capacity_bytes=3 * (state(8).scores.nbytes + 2 + 32))
    decide = (1, 1, 1, 1, 1, 1, 7, 7)  # a fixed prompt used once, then texts under another fixed prompt
    cache[decide] = state(8)
    for text in range(2, 8):
        cache[(2, 2, 2, 2, 2, 2, text, text)] = state(8)
    assert list(cache.cache_state) == [decide, (2, 2, 2, 2, 2, 2, 6, 6), (2, 2, 2, 2, 2, 2, 7, 7)]
    assert cache[(1, 1, 1, 1, 1, 1, 9)] is cache.cache_state[decide]  # its prefix is restored, not evaluated


# ----- the real model


class City(BaseModel):
    city: str
    country: str


SYSTEM = ("You are a careful assistant. Answer briefly and precisely. " * 12).strip()


@pytest.fixture
def model(embedded_model):
    """The session's llama.cpp model (conftest), which the other real-model tests share."""
    return embedded_model


@pytest.mark.real_model
def test_a_reply_comes_through_the_models_chat_template(model):
    reply = model.invoke([SystemMessage("Reply in French."), HumanMessage("Say hello.")])
    assert reply.content.strip() and "<|im_" not in reply.content
    assert model._engine.llama.chat_format == "chat_template.default"  # the template stored in the GGUF
    assert reply.usage_metadata["input_tokens"] > 10 and reply.usage_metadata["output_tokens"] > 0


@pytest.mark.real_model
def test_prompts_sharing_a_prefix_reuse_it_even_when_prompts_alternate(model, measure):
    def ask(system: str, question: str):
        start = time.perf_counter()
        reply = GenerationRequest(max_tokens=8).bound_to(model).invoke([SystemMessage(system), HumanMessage(question)])
        return reply.usage_metadata, time.perf_counter() - start

    other = "You translate English into German. " * 12
    first, cold = ask(SYSTEM, "What is the capital of France?")
    second, warm = ask(SYSTEM, "What is the capital of Spain?")
    assert second["input_token_details"]["cache_read"] >= second["input_tokens"] - 12
    ask(other, "Good morning.")  # another prefix in between, as the chain's prompts alternate
    third, restored = ask(SYSTEM, "What is the capital of Italy?")
    assert third["input_token_details"]["cache_read"] >= third["input_tokens"] - 12
    measure(f"llama.cpp 0.5B, {first['input_tokens']}-token prompt: cold {cold:.2f} s, shared prefix {warm:.2f} s, "
            f"prefix restored after another prompt {restored:.2f} s")


@pytest.mark.real_model
def test_a_fixed_prompt_used_once_keeps_its_prefix_while_another_fills_the_cache(model, llama_cpp_available):
    import llama_cpp

    llama = model._engine.llama
    shared_cache = llama.cache

    def ask(system: str, question: str):
        reply = GenerationRequest(max_tokens=4).bound_to(model).invoke([SystemMessage(system), HumanMessage(question)])
        return reply.usage_metadata

    ask(SYSTEM, "What is the capital of France?")
    one_state = next(reversed(shared_cache.cache_state.values()))
    size = one_state.llama_state_size + one_state.scores.nbytes + one_state.input_ids.nbytes
    llama.set_cache(llamacpp.state_cache_for(llama_cpp, capacity_bytes=int(3.5 * size)))  # room for three states
    try:
        ask(SYSTEM, "What is the capital of France?")
        for text in ("Good morning.", "Good night.", "See you soon.", "Thank you.", "Welcome back."):
            ask("You translate English into German. " * 12, text)
        again = ask(SYSTEM, "What is the capital of Italy?")
        assert again["input_token_details"]["cache_read"] >= again["input_tokens"] - 12
    finally:
        llama.set_cache(shared_cache)


@pytest.mark.real_model
def test_a_saved_state_holds_no_rows_of_logits_and_a_restored_one_gives_the_same_reply(model):
    def ask(question: str):
        return GenerationRequest(temperature=0, max_tokens=16).bound_to(model).invoke(
            [SystemMessage(SYSTEM), HumanMessage(question)])

    first = ask("Name three colours.")
    states = list(model._engine.llama.cache.cache_state.values())
    assert states and all(state.scores.nbytes == 0 and state.n_tokens > 0 for state in states)
    ask("Name three animals.")  # the context now holds another prompt
    again = ask("Name three colours.")  # restored from its state, not evaluated again
    assert again.content == first.content
    assert again.usage_metadata["input_token_details"]["cache_read"] >= again.usage_metadata["input_tokens"] - 1


@pytest.mark.real_model
def test_a_json_schema_constrains_the_reply(model):
    request = GenerationRequest(structured_outputs=StructuredOutputs(json=City.model_json_schema()), max_tokens=64)
    reply = request.bound_to(model).invoke(
        "Which city is the capital of France, and in which country is it?")
    assert City.model_validate_json(reply.content).city


@pytest.mark.real_model
def test_a_choice_constraint_gives_exactly_one_choice(model):
    choices = ["formal", "informal", "generic"]
    constrained = GenerationRequest(structured_outputs=StructuredOutputs(choice=tuple(choices)),
                                    max_tokens=16).bound_to(model)
    reply = constrained.invoke("Tell me a long story about a dragon.")
    assert reply.content in choices


@pytest.mark.real_model
def test_forbidden_words_never_appear_in_the_reply(model):
    assert_forbidden_words_stay_out(model)


@pytest.mark.real_model
def test_the_chain_runs_end_to_end(model, test_model_path, measure):
    model_spec = ModelSpec.parse(f"llamacpp:{test_model_path}")
    assistant = Assistant.for_model(model, model_spec)
    assert assistant.structured_output
    transcript = assistant.run("Are you sure?", "fr", user=OracleUser({"formality": "formal"}))
    you = [turn for turn in transcript.turns if turn.span.lower() == "you"]
    assert you and you[0].question and you[0].answer == "formal" and you[0].answered_by == "oracle"
    assert transcript.translation.strip()
    measure(f"chain on llama.cpp 0.5B: {transcript.translation!r}; timings {json.dumps(transcript.timings)}")


@pytest.mark.real_model
def test_a_reply_streams_token_by_token_as_the_whole_reply(model):
    """Compared from one state of llama.cpp's cache: a first call evaluates the whole prompt at once, a later one
    reuses what llama.cpp kept of it and evaluates only the rest, and on some processors the two round differently
    and pick another word ("comment ça va" the first time, "comment allez-vous" after)."""
    prompt = "Translate into French: Good morning, how are you?"
    model.invoke(prompt)  # the prompt now cached, as it is for both calls compared
    pieces = [chunk.content for chunk in model.stream(prompt)]
    assert len(pieces) > 2 and "".join(pieces) == model.invoke(prompt).content


@pytest.mark.real_model
@pytest.mark.parametrize("max_tokens", [64, 3])  # ended by the model, cut at the limit
def test_a_streamed_reply_reports_the_token_counts_of_the_whole_reply(model, max_tokens):
    prompt = "Translate into French: Where is the station?"
    chunks = list(GenerationRequest(max_tokens=max_tokens).bound_to(model).stream(prompt))
    streamed = sum(chunks[1:], chunks[0]).usage_metadata
    whole = GenerationRequest(max_tokens=max_tokens).bound_to(model).invoke(prompt).usage_metadata
    assert streamed["input_tokens"] == whole["input_tokens"] > 10
    assert streamed["output_tokens"] == whole["output_tokens"] > 0
    assert 0 <= streamed["input_token_details"]["cache_read"] < streamed["input_tokens"]


@pytest.mark.real_model
def test_the_inverted_forms_are_forbidden_as_the_model_writes_them(test_model_path, llama_cpp_available):
    from assistant.backends.bad_words import forbidden_next, token_sequences
    from assistant.ambiguity import forbidden_words

    llama = llamacpp.load_engine(str(test_model_path)).llama
    encode = lambda text: llama.tokenize(text.encode(), add_bos=False, special=False)  # noqa: E731
    sequences = token_sequences(forbidden_words([("formality", "informal")], "fr"), encode)
    *written, last = encode("Pouvez-vous")  # "-vous" is one token, not " vous"
    assert last in forbidden_next(sequences, written)


@pytest.mark.real_model
def test_japanese_endings_are_forbidden_inside_the_tokens_the_model_merges_them_into(test_model_path,
                                                                                     llama_cpp_available):
    from assistant.ambiguity import forbidden_words

    engine = llamacpp.load_engine(str(test_model_path))
    encode = lambda text: engine.llama.tokenize(text.encode(), add_bos=False, special=False)  # noqa: E731
    ban = engine._text_ban(tuple(sorted(forbidden_words([("formality", "informal")], "ja"))))
    merged = encode("ありがとうございます") + encode("行きました")  # each ending inside a longer token
    assert set(merged) - set(encode("行")) <= set(ban.forbidden(b""))
    plain = encode("ありがとう。駅に行った。")
    assert not set(plain) & set(ban.forbidden(b""))
