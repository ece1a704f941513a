"""Measuring a vLLM server from outside: request latency, time to first token, cache usage."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import httpx
import numpy as np


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
