"""In-process generation with llama.cpp: the embedded default on a machine without a GPU.

Decode on a CPU is bound by memory bandwidth, so the model should be read in its quantized
form: llama.cpp computes on the GGUF file directly (transformers dequantizes it to float32,
several times the bytes per token). The model loads once per process, prompts are rendered
with the chat template stored in the GGUF, and a call's ``GenerationRequest`` can constrain its
reply to a JSON schema or a list of choices and forbid words, as vLLM does.

Prompt prefill dominates latency, and the chain's prompts alternate between a few long
constant prefixes (detection, translation, the simulated user). llama.cpp reuses the common
start of the previous prompt by itself; a RAM cache of recent states also restores the
prefix of an earlier one, so alternating prompts only prefill their new suffix.
"""

from __future__ import annotations

import atexit
import json
import os
import threading
from contextlib import contextmanager
from functools import lru_cache
from collections.abc import Generator, Sequence
from pathlib import Path
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.messages import BaseMessage, convert_to_openai_messages
from langchain_core.outputs import ChatResult

from ..errors import ModelLoadError
from .bad_words import TextBan, forbidden_next, is_unspaced, token_sequences
from .config import GenerationConfig
from .hub import first_line, hub_reachable
from .presets import get_preset, is_preset_target
from .request import GenerationRequest, StructuredOutputs
from .in_process import InProcessChatModel
from .results import chat_result
from .spec import MODEL_ENV_VAR, ModelSpec, looks_like_path, resolve_local_target

INSTALL_HINT = "llama.cpp is not installed; install the extra: pip install 'intercpt[llamacpp]'"
OFFLINE_HINT = (
    "point at a local GGUF file instead, e.g. --model llamacpp:/path/to/model.gguf, "
    f"or set {MODEL_ENV_VAR}"
)
# Holds the longest chain prompt (a few-shot prefix and a 20,000-character context) and the reply.
CONTEXT_TOKENS = 8192
# llama-cpp-python's state cache copies an n_batch × vocabulary buffer of logits with every state it
# saves and restores (0.3 GB at its default 512 with Qwen's 152k vocabulary): with 128 the first
# question came ~40 % sooner (1.7 s → 1.0 s, 0.5B model, two cores) at the same prefill speed.
BATCH_TOKENS = 128
# A hub repository named without a file: its 4-bit K-quant, the usual balance of size and quality.
DEFAULT_QUANT_PATTERN = "*q4_k_m.gguf"
# Threads of the model; default: every core the process may use. llama.cpp's threads spin while
# they wait for each other, so on a machine busy with other work fewer threads can be faster.
THREADS_ENV_VAR = "INTERCPT_LLAMACPP_THREADS"
# Recent model states kept to restore a shared prefix; one state of a 1.5B model with a 2k-token
# prompt is ~0.15 GB (its KV cache and a batch of logits), so this holds the chain's prefixes.
STATE_CACHE_BYTES = 2 << 30


def _llama_cpp():
    try:
        import llama_cpp
    except ImportError as err:
        raise ModelLoadError(INSTALL_HINT) from err
    return llama_cpp


@lru_cache(maxsize=1)
def _counting_llama_class() -> type:
    """``Llama`` that records how many prompt tokens a call evaluated (the rest came from a cache) and
    the tokens it sampled, so that a streamed reply, which llama-cpp-python gives without token
    counts, reports them too."""

    class CountingLlama(_llama_cpp().Llama):
        prompt_evaluated: int | None = None
        prompt_tokens = 0
        sampled: list[int]  # set by each call's ``generate``

        def generate(self, tokens, *args, **kwargs):
            self.prompt_tokens, self.sampled = len(tokens), []
            return super().generate(tokens, *args, **kwargs)

        def eval(self, tokens):
            if self.prompt_evaluated is None:
                self.prompt_evaluated = len(tokens)
            super().eval(tokens)

        def sample(self, *args, **kwargs):
            token = super().sample(*args, **kwargs)
            self.sampled.append(token)
            return token

        def save_state(self):
            """The state without the rows of logits: llama-cpp-python copies them into every state (up to
            batch × vocabulary floats, 0.3 GB with a 150k vocabulary) though, without ``logits_all``, it
            never writes or reads them; sampling reads the context's own logits."""
            with self._without_score_rows():
                return super().save_state()

        def load_state(self, state):
            with self._without_score_rows():
                super().load_state(state)

        @contextmanager
        def _without_score_rows(self):
            rows = self.scores
            if not self._logits_all:
                self.scores = rows[:0]
            try:
                yield
            finally:
                self.scores = rows

        def call_usage(self) -> dict[str, int]:
            """The token counts of the last call, as its non-streamed reply reports them: the end of
            generation token it sampled last is no output token."""
            output = len(self.sampled)
            if output and _llama_cpp().llama_vocab_is_eog(self._model.vocab, self.sampled[-1]):
                output -= 1
            evaluated = self.prompt_tokens if self.prompt_evaluated is None else self.prompt_evaluated
            return {"input_tokens": self.prompt_tokens, "output_tokens": output,
                    "cached_tokens": self.prompt_tokens - evaluated}

    return CountingLlama


@contextmanager
def without_amx_repacking(llama_cpp):
    """Load without the extra weight layouts when the build has AMX kernels: on AMX CPUs (Sapphire
    Rapids and later) llama.cpp's AMX matrix product crashes the process at the first decode
    (ggml-org/llama.cpp#20824). The library has no constructor option for it, so the default
    model parameters it starts from are adjusted while the model loads."""
    if b"AMX_INT8 = 1" not in llama_cpp.llama_print_system_info():
        yield
        return
    default_params = llama_cpp.llama_model_default_params

    def params_without_extra_buffers():
        params = default_params()
        params.use_extra_bufts = False
        return params

    llama_cpp.llama_model_default_params = params_without_extra_buffers
    try:
        yield
    finally:
        llama_cpp.llama_model_default_params = default_params


def thread_count() -> int:
    if os.environ.get(THREADS_ENV_VAR, "").strip():
        try:
            return max(1, int(os.environ[THREADS_ENV_VAR]))
        except ValueError:
            raise ModelLoadError(f"{THREADS_ENV_VAR} must be a whole number of threads, "
                                 f"not {os.environ[THREADS_ENV_VAR]!r}") from None
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def choice_grammar(choices: Sequence[str]) -> str:
    """A GBNF grammar whose only sentences are the given choices, verbatim."""
    return "root ::= " + " | ".join(json.dumps(c, ensure_ascii=False) for c in choices)


class LlamaCppEngine:
    """A loaded GGUF model; calls are serialized because one model uses all cores."""

    def __init__(self, llama: Any, name: str):
        self.llama = llama
        self.name = name
        self.lock = threading.Lock()

    def generate(self, messages: list[dict[str, Any]], config: GenerationConfig, stop: list[str] | None = None,
                 structured: StructuredOutputs | None = None) -> tuple[str, dict[str, int]]:
        """Generate one reply; returns (text, token counts incl. how many prompt tokens were reused)."""
        options = self._constraint(structured) | self._forbidding(config.bad_words)
        with self.lock:
            self.llama.prompt_evaluated = None
            response = self.llama.create_chat_completion(
                messages=messages,
                temperature=config.temperature,
                seed=config.seed,
                max_tokens=config.max_tokens,
                stop=stop,
                **options,
            )
            evaluated = self.llama.prompt_evaluated
        usage = response["usage"]
        prompt_tokens = usage["prompt_tokens"]
        cached = prompt_tokens - evaluated if evaluated is not None else 0
        counts = {"input_tokens": prompt_tokens, "output_tokens": usage["completion_tokens"], "cached_tokens": cached}
        return response["choices"][0]["message"]["content"] or "", counts

    def stream(self, messages: list[dict[str, Any]], config: GenerationConfig,
               stop: list[str] | None = None) -> Generator[str, None, dict[str, int]]:
        """The reply piece by piece as llama.cpp decodes it (the lock is held until it is complete);
        returns its token counts."""
        with self.lock:
            self.llama.prompt_evaluated = None
            chunks = self.llama.create_chat_completion(messages=messages, temperature=config.temperature,
                                                       seed=config.seed, max_tokens=config.max_tokens, stop=stop,
                                                       stream=True, **self._forbidding(config.bad_words))
            for chunk in chunks:
                piece = chunk["choices"][0]["delta"].get("content")
                if piece:
                    yield piece
            return self.llama.call_usage()

    def _forbidding(self, words: tuple[str, ...]) -> dict[str, Any]:
        """A logits processor that forbids ``words`` (none without words): Japanese ones as text
        wherever they appear, the others as their token sequences."""
        if not words:
            return {}
        import numpy as np

        sequences = token_sequences([w for w in words if not is_unspaced(w)],
                                    lambda text: self.llama.tokenize(text.encode(), add_bos=False, special=False))
        unspaced = tuple(sorted(w for w in words if is_unspaced(w)))
        text_ban = self._text_ban(unspaced) if unspaced else None

        def forbid(ids: Any, scores: Any) -> Any:
            for token in forbidden_next(sequences, ids):
                scores[token] = -np.inf
            if text_ban is not None:
                tail = self.llama.detokenize(list(ids[-text_ban.longest:])) if len(ids) else b""
                scores[np.asarray(text_ban.forbidden(tail), dtype=np.intp)] = -np.inf
            return scores

        return {"logits_processor": _llama_cpp().LogitsProcessorList([forbid])}

    @lru_cache(maxsize=8)
    def _text_ban(self, words: tuple[str, ...]) -> TextBan:
        """The ban of ``words`` over this model's vocabulary (built once per list: it scans every token)."""
        return TextBan(words, self._vocabulary())

    @lru_cache(maxsize=1)
    def _vocabulary(self) -> tuple[bytes, ...]:
        return tuple(self.llama.detokenize([i]) for i in range(self.llama.n_vocab()))

    @staticmethod
    def _constraint(structured: StructuredOutputs | None) -> dict[str, Any]:
        """A request's structured output as llama.cpp arguments: a JSON schema, or a grammar of the choices."""
        if structured is None:
            return {}
        if structured.json is not None:
            return {"response_format": {"type": "json_object", "schema": dict(structured.json)}}
        return {"grammar": _llama_cpp().LlamaGrammar.from_string(choice_grammar(structured.choice), verbose=False)}


_ENGINES: dict[str, LlamaCppEngine] = {}
_ENGINES_LOCK = threading.Lock()


@atexit.register
def _close_engines() -> None:
    """Free the models while the library is still whole (its own destructor fails at interpreter exit)."""
    for engine in _ENGINES.values():
        engine.llama.close()


def load_engine(target: str, state_cache: bool = True) -> LlamaCppEngine:
    """Load a GGUF model once per process (a file, a hub repository or a ``@preset``),
    keyed by what it resolves to, so a preset and its file share one engine."""
    source = model_source(target)
    key = f"{source[0]}:{source[1]}:{state_cache}"
    with _ENGINES_LOCK:
        if key not in _ENGINES:
            _ENGINES[key] = _load(target, source, state_cache)
        return _ENGINES[key]


def model_source(target: str) -> tuple[str, str]:
    """(``file``, local path) or (hub repository, file name or pattern) for a spec target."""
    if is_preset_target(target):
        preset = get_preset(target)
        if preset.gguf is None:
            raise ModelLoadError(f"preset {target} names no GGUF file for llama.cpp; "
                                 f"run it with transformers:{target} or vllm:{target}")
        return _cached_hub_file(preset.gguf.repo, preset.gguf.file)
    if looks_like_path(target):
        folder, gguf_file = resolve_local_target(target)
        if gguf_file is None:
            raise ModelLoadError(f"{target} holds no .gguf file; llama.cpp runs GGUF files "
                                 f"(run a Hugging Face model folder with transformers:{target})")
        return "file", str(Path(folder) / gguf_file)
    return target, DEFAULT_QUANT_PATTERN


def _cached_hub_file(repo: str, file: str) -> tuple[str, str]:
    from huggingface_hub import try_to_load_from_cache

    cached = try_to_load_from_cache(repo, file)
    return ("file", cached) if isinstance(cached, str) else (repo, file)


def _load(target: str, source: tuple[str, str], state_cache: bool) -> LlamaCppEngine:
    llama_cpp = _llama_cpp()
    threads = thread_count()
    options = {"n_ctx": CONTEXT_TOKENS, "n_batch": BATCH_TOKENS, "n_threads": threads, "n_threads_batch": threads,
               "verbose": False}
    where, name = source
    try:
        with without_amx_repacking(llama_cpp.llama_cpp):
            llama = _construct(target, where, name, options)
    except (ValueError, OSError, RuntimeError) as err:
        raise ModelLoadError(f"cannot load {target!r} with llama.cpp: {first_line(err)}") from err
    if not llama.metadata.get("tokenizer.chat_template"):
        raise ModelLoadError(f"{target!r} has no chat template; intercpt needs an instruct (chat) model")
    if state_cache:
        llama.set_cache(state_cache_for(llama_cpp, STATE_CACHE_BYTES))
    return LlamaCppEngine(llama, target)


def state_cache_for(llama_cpp: Any, capacity_bytes: int) -> Any:
    """llama-cpp-python's RAM cache of model states, kept within ``capacity_bytes`` of what the states
    really hold. Its own count is the KV bytes alone, while a state may also copy rows of logits (the
    product's ``save_state`` leaves them out; llama-cpp-python's own copies up to 0.3 GB), so over a long
    evaluation the process grew until the system killed it. When full it drops first a state whose prompt a newer one
    mostly shares (an older text under the same fixed prompt), not simply the oldest: twenty
    translations in a row would otherwise push out the decide call's prefix, and the next decision
    would evaluate its whole prompt again (9.8 s instead of 1.1 s with the 1.5B test model)."""

    class StateCache(llama_cpp.LlamaRAMCache):
        @property
        def cache_size(self) -> int:
            return sum(state.llama_state_size + state.scores.nbytes + state.input_ids.nbytes
                       for state in self.cache_state.values())

        def __setitem__(self, key: Sequence[int], value: Any) -> None:
            key = tuple(key)
            self.cache_state.pop(key, None)
            self.cache_state[key] = value
            while self.cache_size > self.capacity_bytes and self.cache_state:
                del self.cache_state[_evicted(list(self.cache_state), llama_cpp.llama.Llama.longest_token_prefix)]

    return StateCache(capacity_bytes=capacity_bytes)


def _evicted(keys: list[tuple[int, ...]], shared: Any) -> tuple[int, ...]:
    """Of the cached prompts, oldest first, the one to drop: the oldest that a newer one shares at least
    half of (``shared`` counts the common first tokens), so every fixed prompt keeps a state; else the
    oldest."""
    for index, key in enumerate(keys):
        if any(2 * shared(key, newer) >= len(key) for newer in keys[index + 1:]):
            return key
    return keys[0]


def _construct(target: str, where: str, name: str, options: dict[str, Any]) -> Any:
    if where == "file":
        return _counting_llama_class()(model_path=name, **options)
    if not hub_reachable():
        raise ModelLoadError(f"cannot load {target!r}: it is not in the local Hugging Face cache and the hub "
                             "cannot be reached; " + OFFLINE_HINT)
    return _counting_llama_class().from_pretrained(repo_id=where, filename=name, **options)


class LlamaCppChatModel(InProcessChatModel):
    """A langchain chat model backed by an in-process llama.cpp model.

    A call reads its bound ``GenerationRequest``: sampling, forbidden words and a structured output."""

    state_cache: bool = True
    def _load_engine(self) -> LlamaCppEngine:
        return load_engine(self.target, self.state_cache)

    @property
    def _llm_type(self) -> str:
        return "intercpt-llamacpp"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        request = GenerationRequest.of(kwargs)
        text, usage = self._engine.generate(convert_to_openai_messages(messages), self.generation.updated(request),
                                            stop, request.structured_outputs)
        return chat_result(text, usage)

    def _pieces(self, messages: list[dict[str, Any]], stop: list[str] | None,
                kwargs: dict[str, Any]) -> Generator[str, None, dict[str, int]] | None:
        """None (the whole reply) for a reply constrained to a schema or a choice; others stream
        (forbidden words included)."""
        request = GenerationRequest.of(kwargs)
        if request.structured_outputs is not None:
            return None
        return self._engine.stream(messages, self.generation.updated(request), stop)


def load(spec: ModelSpec, generation: GenerationConfig) -> LlamaCppChatModel:
    return LlamaCppChatModel(target=spec.target, generation=generation)
