"""The in-process transformers backend on the real small test model."""

import time

import pytest
from langchain_core.messages import HumanMessage, SystemMessage

from assistant.backends import ModelSpec, load_chat_model
from assistant.backends.config import GenerationConfig
from assistant.backends.hf import PrefixKVCache, load_engine
from assistant.chain import Assistant, ChainOptions
from assistant.errors import ModelLoadError
from tests.test_bad_words import assert_forbidden_words_stay_out

pytestmark = pytest.mark.real_model


def test_translates_a_sentence(hf_model, test_model_path):
    transcript = Assistant(hf_model, f"transformers:{test_model_path}").run("Where is the station?", "de",
                                                                            ChainOptions(method="no-extra"))
    assert transcript.translation.strip()
    assert transcript.translation != "Where is the station?"
    print(f"\n[transformers] de: {transcript.translation!r} in {transcript.timings['translate']:.2f}s")


def test_model_loads_once_per_process(hf_model, test_model_path):
    again = load_chat_model(ModelSpec.parse(f"transformers:{test_model_path}"))
    assert load_engine(again.target) is load_engine(hf_model.target)


def test_shared_prefix_is_reused_and_changes_nothing(hf_model):
    system = SystemMessage("You translate English into French. Reply with the translation only. " * 4)
    prompt = [system, HumanMessage("The cat sleeps.")]
    engine = load_engine(hf_model.target)
    engine.prefix_cache = PrefixKVCache()
    cold = hf_model.invoke(prompt)
    warm_other = hf_model.invoke([system, HumanMessage("The dog barks.")])
    warm_same = hf_model.invoke(prompt)
    assert cold.usage_metadata["input_token_details"]["cache_read"] == 0
    assert warm_other.usage_metadata["input_token_details"]["cache_read"] > 40
    assert warm_same.content == cold.content


def test_batch_generates_one_reply_per_prompt(hf_model):
    system = SystemMessage("Translate English into Spanish. Reply with the translation only.")
    replies = hf_model.batch([[system, HumanMessage("Good morning.")], [system, HumanMessage("Thank you very much.")]])
    assert len(replies) == 2 and all(r.content.strip() for r in replies)


def test_forbidden_words_never_appear_in_the_reply(hf_model):
    assert_forbidden_words_stay_out(hf_model)


def test_stop_sequences_cut_the_reply(hf_model):
    reply = hf_model.invoke("Count from 1 to 10 separated by commas.", stop=["5"])
    assert "5" not in reply.content and "6" not in reply.content


def test_a_reply_streams_in_pieces_that_join_to_the_whole_reply_with_its_token_counts(hf_model):
    """Compared from one state of the prefix cache: a prompt prefilled whole and one whose prefix the cache holds
    may round differently on some processors and pick another word (as llama.cpp's do, test_backend_llamacpp)."""
    prompt = [SystemMessage("Translate English into French. Reply with the translation only."),
              HumanMessage("Good morning, how are you today? I hope the weather is fine where you live.")]
    hf_model.invoke(prompt)  # the prompt now cached, as it is for both calls compared
    chunks = list(hf_model.stream(prompt))
    pieces = [chunk.content for chunk in chunks]
    assert len([p for p in pieces if p]) >= 2, pieces
    whole = hf_model.invoke(prompt)
    assert "".join(pieces) == whole.content  # greedy decoding: the same text either way
    streamed = sum(chunks[1:], chunks[0]).usage_metadata  # the stream ends with the reply's token counts
    assert (streamed["input_tokens"], streamed["output_tokens"]) == (whole.usage_metadata["input_tokens"],
                                                                     whole.usage_metadata["output_tokens"])


def test_a_stream_left_early_frees_the_model_at_once(hf_model):
    engine = load_engine(hf_model.target)
    pieces = engine.stream([{"role": "user", "content": "Count from 1 to 300, separated by commas."}],
                           GenerationConfig(max_tokens=500))
    assert next(pieces)
    started = time.monotonic()
    pieces.close()  # what a cancelled page request does to the generator
    assert time.monotonic() - started < 5  # not the hundreds of tokens left to write
    assert not engine.lock.locked()


def test_missing_or_wrong_files_give_clear_errors(tmp_path):
    with pytest.raises(ModelLoadError, match="not found"):
        load_chat_model(ModelSpec.parse(f"transformers:{tmp_path / 'absent.gguf'}"))
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(ModelLoadError, match="not a .gguf file"):
        load_chat_model(ModelSpec.parse(f"transformers:{tmp_path / 'notes.txt'}"))
    with pytest.raises(ModelLoadError, match="no config.json"):
        load_chat_model(ModelSpec.parse(f"transformers:{tmp_path}"))
