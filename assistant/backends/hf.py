"""In-process generation with transformers: the embedded default that needs no server.

The model loads once per process and is shared by every caller. Prompts are rendered
with the model's own chat template. Because prompt prefill dominates latency on a CPU,
the key/value cache of recent prompts is kept, and a new prompt that starts with the
same tokens (the constant system + few-shot prefix) only prefills its new suffix.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Generator
from pathlib import Path
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.messages import BaseMessage, convert_to_openai_messages
from langchain_core.outputs import ChatResult

from ..errors import ModelLoadError
from .bad_words import token_sequences
from .config import GenerationConfig
from .hub import first_line, hub_reachable
from .in_process import InProcessChatModel
from .request import GenerationRequest
from .results import chat_result
from .spec import MODEL_ENV_VAR, ModelSpec, resolve_local_target

OFFLINE_HINT = (
    "point at a local model instead, e.g. --model transformers:/path/to/model.gguf "
    f"(or a Hugging Face model folder), or set {MODEL_ENV_VAR}"
)


class PrefixKVCache:
    """Key/value caches of recent prompts, reused for later prompts sharing their start."""

    def __init__(self, capacity: int = 8, min_tokens: int = 16):
        self.capacity = capacity
        self.min_tokens = min_tokens
        self._entries: list[tuple[list[int], Any]] = []

    def lookup(self, ids: list[int]) -> tuple[int, Any]:
        """Longest reusable prefix of ``ids``: (token count, a private copy of its cache) or (0, None)."""
        best_len, best_cache = 0, None
        for key, cache in self._entries:
            n = _common_prefix_len(key, ids)
            n = min(n, len(ids) - 1)  # generation needs at least one token to prefill
            if n >= self.min_tokens and n > best_len:
                best_len, best_cache = n, cache
        if best_cache is None:
            return 0, None
        reused = copy.deepcopy(best_cache)
        _crop(reused, best_len)
        return best_len, reused

    def store(self, ids: list[int], cache: Any) -> None:
        """Keep the cache of a prompt (``cache`` may extend past it; it is cut to the prompt)."""
        if not _is_croppable(cache):
            return
        _crop(cache, len(ids))
        self._entries = [(k, c) for k, c in self._entries if k != ids][: self.capacity - 1]
        self._entries.insert(0, (list(ids), cache))


def _common_prefix_len(a: list[int], b: list[int]) -> int:
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n


def _is_croppable(cache: Any) -> bool:
    """Only plain attention caches can be cut back to a prefix (not SSM or sliding-window states)."""
    layers = getattr(cache, "layers", None)
    return bool(layers) and all(type(layer).__name__ == "DynamicLayer" for layer in layers)


def _crop(cache: Any, keep: int) -> None:
    excess = cache.get_seq_length() - keep
    if excess > 0:
        cache.crop(-excess)


def _stop_when(event: threading.Event) -> Any:
    """Stopping criteria for ``generate`` that end it once ``event`` is set."""
    import torch
    from transformers import StoppingCriteria, StoppingCriteriaList

    class WhenSet(StoppingCriteria):
        def __call__(self, input_ids: Any, scores: Any, **kwargs: Any) -> Any:
            return torch.full((input_ids.shape[0],), event.is_set(), dtype=torch.bool, device=input_ids.device)

    return StoppingCriteriaList([WhenSet()])


class HFEngine:
    """A loaded model and tokenizer; calls are serialized because one model uses all cores."""

    def __init__(self, model: Any, tokenizer: Any, name: str):
        self.model = model
        self.tokenizer = tokenizer
        self.name = name
        self.lock = threading.Lock()
        self.prefix_cache = PrefixKVCache()
        if tokenizer.pad_token is None:
            tokenizer.pad_token = tokenizer.eos_token

    def prompt_ids(self, messages: list[dict[str, str]]) -> list[int]:
        text = self.tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        return self.tokenizer(text, add_special_tokens=False)["input_ids"]

    def generate(self, messages: list[dict[str, str]], config: GenerationConfig) -> tuple[str, dict[str, int]]:
        """Generate one reply; returns (text, token counts incl. how many prompt tokens were reused)."""
        ids = self.prompt_ids(messages)
        new_tokens, reused = self._generate_after(ids, config)
        text = self.tokenizer.decode(new_tokens, skip_special_tokens=True)
        usage = {"input_tokens": len(ids), "output_tokens": int(new_tokens.numel()), "cached_tokens": reused}
        return text, usage

    def stream(self, messages: list[dict[str, str]], config: GenerationConfig) -> Generator[str, None, dict[str, int]]:
        """The reply piece by piece as it is decoded; returns its token counts. ``generate`` runs in a
        thread and hands its text to transformers' ``TextIteratorStreamer``; when the reader stops
        early (Stop in the page) the generation ends at its next token, so the model is free again at once."""
        from transformers import TextIteratorStreamer

        ids = self.prompt_ids(messages)
        streamer = TextIteratorStreamer(self.tokenizer, skip_prompt=True, skip_special_tokens=True)
        abandoned = threading.Event()
        failures: list[BaseException] = []
        generated: list[tuple[Any, int]] = []

        def run() -> None:
            try:
                generated.append(self._generate_after(ids, config, streamer=streamer,
                                                      stopping_criteria=_stop_when(abandoned)))
            except BaseException as err:  # noqa: BLE001 - raised again in the reader's thread
                failures.append(err)
                streamer.end()  # the reader would otherwise wait forever

        thread = threading.Thread(target=run, name="intercpt-hf-stream", daemon=True)
        thread.start()
        try:
            for piece in streamer:
                if piece:
                    yield piece
        finally:
            abandoned.set()
            thread.join()
        if failures:
            raise failures[0]
        new_tokens, reused = generated[0]
        return {"input_tokens": len(ids), "output_tokens": int(new_tokens.numel()), "cached_tokens": reused}

    def _generate_after(self, ids: list[int], config: GenerationConfig, **extra: Any) -> tuple[Any, int]:
        """Generate after the prompt ``ids``, prefilling only what the prefix cache lacks: the new
        token ids and how many prompt tokens were reused. ``extra`` goes to ``generate`` (a streamer)."""
        import torch

        with self.lock:
            reused, cache = self.prefix_cache.lookup(ids)
            input_ids = torch.tensor([ids], device=self.model.device)
            out = self.model.generate(
                input_ids=input_ids,
                attention_mask=torch.ones_like(input_ids),
                past_key_values=cache,
                return_dict_in_generate=True,
                **self._decoding(config),
                **extra,
            )
            self.prefix_cache.store(ids, out.past_key_values)
        return out.sequences[0, len(ids) :], reused

    def _decoding(self, config: GenerationConfig) -> dict[str, Any]:
        import torch

        options: dict[str, Any] = {
            "max_new_tokens": config.max_tokens,
            "pad_token_id": self.tokenizer.pad_token_id,
        }
        if config.bad_words:
            options["bad_words_ids"] = token_sequences(
                config.bad_words, lambda text: self.tokenizer(text, add_special_tokens=False)["input_ids"])
        if config.temperature > 0:
            torch.manual_seed(config.seed)
            options.update(do_sample=True, temperature=config.temperature)
        else:
            options.update(do_sample=False, temperature=None, top_p=None, top_k=None)
        return options


_ENGINES: dict[tuple[str, str | None], HFEngine] = {}
_ENGINES_LOCK = threading.Lock()


def load_engine(target: str) -> HFEngine:
    """Load a model once per process (a Hugging Face id, a model folder, a GGUF file or a ``@preset``),
    keyed by what it resolves to, so a preset and its model id share one engine."""
    key = resolve_local_target(target)
    with _ENGINES_LOCK:
        if key not in _ENGINES:
            _ENGINES[key] = _load(target)
        return _ENGINES[key]


def _load(target: str) -> HFEngine:
    from .._torch_addons import hide_broken_torch_addons

    hide_broken_torch_addons()
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    path, gguf_file = resolve_local_target(target)
    is_local = gguf_file is not None or Path(path).exists()
    if not is_local and not _in_hub_cache(path) and not hub_reachable():
        raise ModelLoadError(
            f"cannot load {target!r}: it is not in the local Hugging Face cache and the hub cannot be reached; "
            + OFFLINE_HINT
        )
    cuda = torch.cuda.is_available()
    try:
        tokenizer = AutoTokenizer.from_pretrained(path, gguf_file=gguf_file)
        model = AutoModelForCausalLM.from_pretrained(
            path,
            gguf_file=gguf_file,
            dtype="auto" if cuda else torch.float32,
            device_map="cuda" if cuda else None,
        )
    except OSError as err:
        where = f"from {path}" if is_local else f"{target!r} from the Hugging Face hub"
        raise ModelLoadError(f"cannot load model {where}: {first_line(err)}; " + OFFLINE_HINT) from err
    except (ValueError, RuntimeError, KeyError) as err:
        raise ModelLoadError(f"cannot load model {target!r}: {first_line(err)}") from err
    if not tokenizer.chat_template:
        raise ModelLoadError(f"{target!r} has no chat template; intercpt needs an instruct (chat) model")
    model.eval()
    return HFEngine(model, tokenizer, target)


def _in_hub_cache(repo_id: str) -> bool:
    from huggingface_hub import try_to_load_from_cache

    return isinstance(try_to_load_from_cache(repo_id, "config.json"), str)


class TransformersChatModel(InProcessChatModel):
    """A langchain chat model backed by an in-process transformers model; a call reads its bound
    ``GenerationRequest`` (sampling and forbidden words: transformers has no structured output)."""

    def _load_engine(self) -> HFEngine:
        return load_engine(self.target)

    @property
    def _llm_type(self) -> str:
        return "intercpt-transformers"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        config = self.generation.updated(GenerationRequest.of(kwargs))
        text, usage = self._engine.generate(convert_to_openai_messages(messages), config)
        return chat_result(_cut_at_stop(text, stop), usage)

    def _pieces(self, messages: list[dict[str, Any]], stop: list[str] | None,
                kwargs: dict[str, Any]) -> Generator[str, None, dict[str, int]] | None:
        """None (the whole reply) for a call with stop sequences, since a piece may hold only the start of one."""
        return None if stop else self._engine.stream(messages, self.generation.updated(GenerationRequest.of(kwargs)))


def _cut_at_stop(text: str, stop: list[str] | None) -> str:
    for marker in stop or []:
        text = text.split(marker, 1)[0]
    return text


def load(spec: ModelSpec, generation: GenerationConfig) -> TransformersChatModel:
    return TransformersChatModel(target=spec.target, generation=generation)
