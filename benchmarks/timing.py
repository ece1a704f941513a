"""Measuring a model from outside: a vLLM server's request latency, time to first token and cache
usage, and the chain's interactive latency on any backend."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import httpx
import numpy as np


# One text per kind of prompt the measured sentences use: the decision and translation prompts for
# "you" alone, and for "you" with a word that agrees with it (a gender question too).
WARM_UP = ("Are you ready?", "Can you help me?")


def warm_up_gold() -> dict[str, str]:
    """The oracle's labels for the warm-up texts: "you" is formal and a person a woman (under the gold
    attributes of the types a page's register and people settings answer)."""
    from assistant.ambiguity import PERSON, REGISTER, preset_types
    from assistant.checks import FEMININE, FORMAL

    return {preset_types(REGISTER)[0].gold: FORMAL, preset_types(PERSON)[0].gold: FEMININE}


def warm(spec: str, target_lang: str = "fr", model=None) -> None:
    """Load the model (or start the server) and fill the prompt caches with a chain run per kind of prompt."""
    from assistant.backends import ModelSpec, load_chat_model
    from assistant.chain import Assistant
    from assistant.users import OracleUser

    parsed = ModelSpec.parse(spec)
    model = model or load_chat_model(parsed)
    for text in WARM_UP:
        Assistant.for_model(model, parsed).run(text, target_lang, user=OracleUser(warm_up_gold()))


def interactive_latency(spec: str, sentences: list[str], target_lang: str, model=None) -> dict:
    """The UI's path on a warm model (``model``, or the one ``spec`` loads): seconds from submitting
    a sentence to the first question and to the translation, for a person who picks the first option at once."""
    from assistant.backends import ModelSpec, load_chat_model
    from assistant.chain import Assistant
    from assistant.users import make_user

    parsed = ModelSpec.parse(spec)
    model = model or load_chat_model(parsed)
    assistant = Assistant.for_model(model, parsed)
    warm(spec, target_lang, model)
    first_option = make_user("human", target_lang=target_lang, ask=lambda t: t.options[0] if t.options else "yes")
    to_question, to_translation, asked = [], [], 0
    for sentence in sentences:
        started = time.perf_counter()
        dialogue = assistant.start(sentence, target_lang)
        for step in dialogue.drive(first_option):
            if step.kind == "asked" and not dialogue.transcript.turns:
                to_question.append(time.perf_counter() - started)
                asked += 1
        to_translation.append(time.perf_counter() - started)
    return {"sentences": len(sentences), "asked": asked, "to_first_question_s": summary(to_question),
            "to_translation_s": summary(to_translation)}


def summary(values: list[float]) -> dict[str, float | int | None]:
    """Median and 90th percentile (and the count) of a list of seconds."""
    if not values:
        return {"n": 0, "median": None, "p90": None}
    return {"n": len(values), "median": round(float(np.median(values)), 3),
            "p90": round(float(np.percentile(values, 90)), 3)}


@dataclass
class Completion:
    """One streamed completion: seconds to the first token and to the last, and tokens generated."""

    ttft_s: float
    total_s: float
    tokens: int

    @property
    def decode_s_per_token(self) -> float | None:
        return (self.total_s - self.ttft_s) / (self.tokens - 1) if self.tokens > 1 else None


def bearer(api_key: str) -> dict[str, str]:
    """The header a server started by intercpt wants: its own API key, from its record."""
    return {"Authorization": f"Bearer {api_key}"}


def stream_completion(base_url: str, model: str, prompt_ids: list[int], max_tokens: int, api_key: str) -> Completion:
    """Send token ids (exactly this many prompt tokens) and time the streamed reply; EOS is ignored
    so every request decodes ``max_tokens`` tokens whatever the weights say."""
    body = {"model": model, "prompt": prompt_ids, "max_tokens": max_tokens, "temperature": 0.0,
            "ignore_eos": True, "stream": True}
    started = time.perf_counter()
    first, tokens = None, 0
    with httpx.stream("POST", f"{base_url}/completions", json=body, headers=bearer(api_key), timeout=1800) as reply:
        reply.raise_for_status()
        for line in reply.iter_lines():
            if not line.startswith("data: ") or line == "data: [DONE]":
                continue
            first = first or time.perf_counter()
            tokens += 1
    done = time.perf_counter()
    return Completion(ttft_s=(first or done) - started, total_s=done - started, tokens=tokens)


def chat_latency(base_url: str, model: str, messages: list[dict], api_key: str, max_tokens: int = 1) -> float:
    """Seconds for a chat request that generates ``max_tokens`` tokens (1: the time to the first token)."""
    body = {"model": model, "messages": messages, "max_tokens": max_tokens, "temperature": 0.0}
    started = time.perf_counter()
    httpx.post(f"{base_url}/chat/completions", json=body, headers=bearer(api_key), timeout=1800).raise_for_status()
    return time.perf_counter() - started


class CacheUsageSampler:
    """Polls the server's ``vllm:kv_cache_usage_perc`` while a request runs and keeps the peak."""

    def __init__(self, base_url: str, interval_s: float = 0.05):
        self.url = base_url.removesuffix("/v1") + "/metrics"
        self.interval_s = interval_s
        self.peak = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)

    def _poll(self) -> None:
        from prometheus_client.parser import text_string_to_metric_families

        with httpx.Client(timeout=5) as client:
            while not self._stop.is_set():
                try:
                    text = client.get(self.url).text
                except httpx.HTTPError:
                    text = ""
                for family in text_string_to_metric_families(text):
                    if family.name == "vllm:kv_cache_usage_perc":
                        self.peak = max([self.peak] + [s.value for s in family.samples])
                self._stop.wait(self.interval_s)

    def __enter__(self) -> "CacheUsageSampler":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
