"""vLLM servers under measurement: each started with one setting, timed to ready, measured, stopped.

A server's start-up is read back from its own log: weight loading, the engine's initialisation
(profiling, KV cache, warm-up including torch.compile) and whether the compile cache was loaded,
so a cold start can be split into what it spends its time on.
"""

from __future__ import annotations

import os
import random
import re
import time
from contextlib import contextmanager
from pathlib import Path

from assistant.backends import vllm as vllm_backend

from timing import stream_completion

LOG_TIMES = {
    "weights_s": re.compile(r"Loading weights took ([\d.]+) seconds"),
    "engine_init_s": re.compile(r"init engine \(profile, create kv cache, warmup model\) took ([\d.]+) s"),
}
COMPILE_CACHE = (("loaded", "Directly load AOT compilation"), ("load failed, recompiled", "Compiling model again"),
                 ("compiled and saved", "saved AOT compiled function"))


@contextmanager
def server(model_path: str, *, cache_root: Path, env: dict[str, str] | None = None, extra_args: tuple[str, ...] = ()):
    """A vLLM server for the model with this compile cache and environment (over the product's
    defaults); yields (record, start-up).

    The GGUF is converted before the clock starts: the conversion is cached and not vLLM's."""
    vllm_backend.resolve_model(model_path)
    settings = {"VLLM_CACHE_ROOT": str(cache_root), **(env or {})}
    saved = {name: os.environ.get(name) for name in settings}
    os.environ.update(settings)
    try:
        started = time.perf_counter()
        record = vllm_backend.ensure_server(model_path, extra_args=extra_args, progress=False)
        ready_s = time.perf_counter() - started
        try:
            yield record, {"ready_s": round(ready_s, 1), **startup_profile(Path(record.log_path), record.port)}
        finally:
            vllm_backend.stop(record)
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def startup_profile(log_path: Path, port: int) -> dict:
    """Where the start-up went, from the last start recorded in the server's log."""
    text = log_path.read_text(errors="replace")
    text = text[text.rfind(f"'port': {port}"):] if f"'port': {port}" in text else text
    profile = {}
    for name, pattern in LOG_TIMES.items():
        found = pattern.findall(text)
        profile[name] = float(found[-1]) if found else None
    cores = re.findall(r"core ids=\[([\d, ]*)\]", text)
    profile["cores"] = f"[{cores[-1]}]" if cores else None
    profile["compile_cache"] = next((label for label, line in COMPILE_CACHE if line in text), "not used")
    return profile


def token_speed(record, prompt_ids: list[int], decode_tokens: int, repeats: int = 3) -> dict:
    """Prefill and decode tokens/s of a streamed completion of exactly these prompt tokens.

    Each repeat starts with a different token, so no prompt is found in the prefix cache."""
    rng = random.Random(0)
    prefill, decode = [], []
    for _ in range(repeats):
        ids = [rng.randrange(1000, 30000)] + prompt_ids
        completion = stream_completion(record.base_url, record.served_name, ids, decode_tokens, record.api_key)
        prefill.append(len(ids) / completion.ttft_s)
        decode.append(1 / completion.decode_s_per_token)
    return {"prompt_tokens": len(prompt_ids) + 1, "prefill_tokens_per_s": round(sorted(prefill)[repeats // 2], 1),
            "decode_tokens_per_s": round(sorted(decode)[repeats // 2], 2)}


def weight_bytes_per_token(folder: Path) -> int:
    """Bytes of a safetensors model's weights read per decoded token (the input embedding is one
    looked-up row unless the output layer is the same matrix)."""
    from safetensors import safe_open

    sizes = {}
    for file in folder.glob("*.safetensors"):
        with safe_open(str(file), "np") as weights:
            for name in weights.keys():
                tensor = weights.get_slice(name)
                shape, dtype = tensor.get_shape(), tensor.get_dtype()
                count = 1
                for dim in shape:
                    count *= dim
                sizes[name] = count * DTYPE_BYTES[dtype]
    embedding = next((n for n in sizes if n.endswith("embed_tokens.weight")), None)
    separate_output = any(n.endswith("lm_head.weight") for n in sizes)
    return sum(sizes.values()) - (sizes[embedding] if embedding and separate_output else 0)


DTYPE_BYTES = {"BF16": 2, "F16": 2, "F32": 4, "F64": 8, "I8": 1, "U8": 1, "I32": 4, "I64": 8}
