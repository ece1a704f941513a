"""Measuring a model from outside: a vLLM server's request latency, time to first token and cache
usage, and the chain's interactive latency on any backend."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import httpx
import numpy as np


def warm(spec: str, target_lang: str = "fr", model=None) -> None:
    """Load the model (or start the server) and fill the prompt caches with one chain run."""
    from assistant.backends import load_chat_model
    from assistant.core import Assistant
    from assistant.users import OracleUser

    model = model or load_chat_model(spec)
    Assistant.for_model(model, spec).run("Are you sure?", target_lang, user=OracleUser({"formality": "formal"}))


def interactive_latency(spec: str, sentences: list[str], target_lang: str, model=None) -> dict:
    """The UI's path on a warm model (``model``, or the one ``spec`` loads): seconds from submitting
    a sentence to the first question and to the translation, for a person who picks the first option at once."""
    from assistant.backends import load_chat_model
    from assistant.core import Assistant

    model = model or load_chat_model(spec)
    assistant = Assistant.for_model(model, spec)
    warm(spec, target_lang, model)
    to_question, to_translation, asked = [], [], 0
    for sentence in sentences:
        started = time.perf_counter()
        dialogue = assistant.start(sentence, target_lang)
        turn = dialogue.next_question()
        if turn is not None:
            to_question.append(time.perf_counter() - started)
            asked += 1
        while turn is not None:
            dialogue.answer(turn.options[0] if turn.options else "yes", "human")
            turn = dialogue.next_question()
        dialogue.finish()
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


def stream_completion(base_url: str, model: str, prompt_ids: list[int], max_tokens: int) -> Completion:
    """Send token ids (exactly this many prompt tokens) and time the streamed reply; EOS is ignored
    so every request decodes ``max_tokens`` tokens whatever the weights say."""
    body = {"model": model, "prompt": prompt_ids, "max_tokens": max_tokens, "temperature": 0.0,
            "ignore_eos": True, "stream": True}
    started = time.perf_counter()
    first, tokens = None, 0
    with httpx.stream("POST", f"{base_url}/completions", json=body, timeout=1800) as reply:
        reply.raise_for_status()
        for line in reply.iter_lines():
            if not line.startswith("data: ") or line == "data: [DONE]":
                continue
            first = first or time.perf_counter()
            tokens += 1
    done = time.perf_counter()
    return Completion(ttft_s=(first or done) - started, total_s=done - started, tokens=tokens)


def chat_latency(base_url: str, model: str, messages: list[dict], max_tokens: int = 1) -> float:
    """Seconds for a chat request that generates ``max_tokens`` tokens (1: the time to the first token)."""
    body = {"model": model, "messages": messages, "max_tokens": max_tokens, "temperature": 0.0}
    started = time.perf_counter()
    httpx.post(f"{base_url}/chat/completions", json=body, timeout=1800).raise_for_status()
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
