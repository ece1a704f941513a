"""In-process backends against the machine's limit: llama.cpp and transformers on the same GGUF file.

Decoding one token reads every weight once, so on a CPU its speed is bounded by memory
bandwidth: the physical limit is bandwidth ÷ weight bytes per token. This benchmark measures,
in one run on one machine:

1. memory bandwidth (a large numpy copy on every core, best of several; bytes read + written);
2. prefill and decode tokens/s of both backends on the same model and prompt (best of three runs), and each decode
   speed as a fraction of the limit for the GGUF's quantized weights (what the model needs at
   least) and of the limit for the weights the backend actually reads (transformers computes
   in float32);
3. the same for vLLM's CPU server on the model converted to bfloat16, on every core (the
   product's setting) and on one core (vLLM's own binding, which reserves a core for its front
   end), and its start-up: uncached (a fresh compile cache), cached, and without compiling
   (``--enforce-eager``), with where the time goes (from the server's log);
4. the chain's interactive latency on each backend (submit -> first question -> translation,
   median and p90 over the sentences of serving.yaml), llama.cpp with and without its RAM cache
   of prompt states, and the same sentences on an earlier revision of the chain ("before",
   ``--before REV``, run from a git worktree of it by ``latency_at_revision.py``).

    python benchmarks/backends.py [--model FILE.gguf] [--sentences 5] [--before REV] [--no-vllm]

Results go to benchmarks/results/backends-<host>-<model>.json and .md.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from assistant.backends import vllm as vllm_backend  # noqa: E402
from assistant.backends.llamacpp import LlamaCppChatModel, thread_count  # noqa: E402
from assistant.prompts import load_prompt  # noqa: E402

from serving import address_label, default_model, log, machine, write_results  # noqa: E402
from timing import interactive_latency, warm_up_gold  # noqa: E402
import vllm_startup  # noqa: E402

TARGET_LANG = "fr"
PROMPT_TOKENS = 512
DECODE_TOKENS = 32
SPEED_RUNS = 3  # each in-process speed is the best of this many runs: one 32-token run varies by ±15 % on 2 cores
COPY_BYTES = 512 << 20
# The chain as results/serving-vm.md measured it: one detection call per flagged word, each
# writing a JSON question; transformers the embedded default; vLLM-CPU on one of two cores.
BEFORE_REVISION = "ea9db3a"


def memory_bandwidth(device: str = "cpu", repeats: int = 5) -> dict:
    """Bytes per second a copy of a large array moves (read + write): split over all cores, or on the GPU."""
    if device == "cuda":
        return gpu_memory_bandwidth(repeats)
    source = np.ones(COPY_BYTES // 8)
    target = np.empty_like(source)
    workers = os.cpu_count() or 1
    chunks = np.array_split(np.arange(len(source)), workers)
    spans = [(c[0], c[-1] + 1) for c in chunks]

    def copy(span: tuple[int, int]) -> None:
        np.copyto(target[span[0]:span[1]], source[span[0]:span[1]])

    best = float("inf")
    with ThreadPoolExecutor(workers) as pool:
        for _ in range(repeats):
            started = time.perf_counter()
            list(pool.map(copy, spans))
            best = min(best, time.perf_counter() - started)
    return {"method": f"numpy copy of {COPY_BYTES >> 20} MiB on {workers} threads, best of {repeats}",
            "gb_per_s": round(2 * COPY_BYTES / best / 1e9, 2)}


def gpu_memory_bandwidth(repeats: int) -> dict:
    import torch

    source = torch.ones(COPY_BYTES // 4, device="cuda")
    target = torch.empty_like(source)
    best = float("inf")
    for _ in range(repeats + 1):  # the first copy warms the allocator
        torch.cuda.synchronize()
        started = time.perf_counter()
        target.copy_(source)
        torch.cuda.synchronize()
        best = min(best, time.perf_counter() - started)
    return {"method": f"torch copy of {COPY_BYTES >> 20} MiB on {torch.cuda.get_device_name(0)}, best of {repeats}",
            "gb_per_s": round(2 * COPY_BYTES / best / 1e9, 2)}


def gguf_decode_bytes(path: str) -> int:
    """Bytes of the GGUF's tensors read per decoded token: all of them but the input embedding,
    of which one row is looked up (unless the output layer shares it)."""
    from gguf import GGUFReader

    sizes = {t.name: int(t.n_bytes) for t in GGUFReader(path).tensors}
    return sum(sizes.values()) - (sizes.get("token_embd.weight", 0) if "output.weight" in sizes else 0)


def prompt_text() -> str:
    """The chain's detection prompt (system text and few-shot examples), a realistic prefill."""
    prompt = load_prompt("detect")
    messages = prompt.chat_prompt(TARGET_LANG, tuple(prompt.examples)).format_messages(
        source="Are you sure?", span="you", ambiguity=address_label())
    return "\n".join(str(m.content) for m in messages)


def llamacpp_speed(path: str, text: str) -> dict:
    from assistant.backends.llamacpp import load_engine

    llama = load_engine(path).llama
    tokens = llama.tokenize(text.encode(), add_bos=False)[:PROMPT_TOKENS]
    llama.reset()
    started = time.perf_counter()
    llama.eval(tokens)
    prefill = time.perf_counter() - started
    started = time.perf_counter()
    for _ in range(DECODE_TOKENS):
        llama.eval([tokens[-1]])
    decode = time.perf_counter() - started
    llama.reset()
    return {"prompt_tokens": len(tokens), "prefill_tokens_per_s": round(len(tokens) / prefill, 1),
            "decode_tokens_per_s": round(DECODE_TOKENS / decode, 2), "weight_bytes_per_token": gguf_decode_bytes(path)}


def product_llamacpp_speed(path: str, text: str) -> dict:
    """Decode through the product's own llama.cpp chat model (LangChain, sampling, token counting), on the
    same GGUF and threads as the bare loop: a reply that copies ``text`` is streamed twice (the first
    fills the prompt cache), and the second's decode speed is its tokens after the first over the
    seconds from the first streamed piece to the last."""
    from langchain_core.messages import HumanMessage

    from assistant.backends import GenerationRequest, ModelSpec, load_chat_model

    request = GenerationRequest(max_tokens=DECODE_TOKENS + 1)
    model = request.bound_to(load_chat_model(ModelSpec.parse(f"llamacpp:{path}")))
    prompt = [HumanMessage(f"Copy this text exactly, from its first word:\n\n{text}")]
    for _ in model.stream(prompt):
        pass
    stamps, written, prompt_tokens = [], 0, 0
    for chunk in model.stream(prompt):
        if chunk.content:
            stamps.append(time.perf_counter())
        if chunk.usage_metadata:
            written, prompt_tokens = chunk.usage_metadata["output_tokens"], chunk.usage_metadata["input_tokens"]
    if written < 2 or len(stamps) < 2:
        raise RuntimeError(f"the reply was too short to time ({written} tokens)")
    return {"prompt_tokens": prompt_tokens, "prefill_tokens_per_s": None,
            "decode_tokens_per_s": round((written - 1) / (stamps[-1] - stamps[0]), 2),
            "weight_bytes_per_token": gguf_decode_bytes(path)}


def transformers_speed(path: str, text: str) -> dict:
    import torch

    from assistant.backends.hf import load_engine

    engine = load_engine(path)
    model = engine.model
    ids = engine.tokenizer(text, add_special_tokens=False, return_tensors="pt")["input_ids"][:, :PROMPT_TOKENS]
    ids = ids.to(model.device)
    sync = torch.cuda.synchronize if model.device.type == "cuda" else (lambda: None)
    with torch.inference_mode():
        sync()
        started = time.perf_counter()
        out = model(ids, use_cache=True)
        sync()
        prefill = time.perf_counter() - started
        step = ids[:, -1:]
        started = time.perf_counter()
        for _ in range(DECODE_TOKENS):
            out = model(step, past_key_values=out.past_key_values, use_cache=True)
        sync()
        decode = time.perf_counter() - started
    embedding = model.get_input_embeddings().weight
    tied = embedding.data_ptr() == model.get_output_embeddings().weight.data_ptr()
    weight_bytes = sum(p.numel() * p.element_size() for p in model.parameters())
    if not tied:
        weight_bytes -= embedding.numel() * embedding.element_size()
    return {"prompt_tokens": int(ids.shape[1]), "prefill_tokens_per_s": round(ids.shape[1] / prefill, 1),
            "decode_tokens_per_s": round(DECODE_TOKENS / decode, 2), "weight_bytes_per_token": weight_bytes,
            "dtype": str(embedding.dtype).removeprefix("torch.")}


def vllm_part(path: str, text: str, sentences: list[str], device: str) -> dict:
    """vLLM's start-up (uncached, cached, without compiling), its token speed on every core and on
    one, and the chain's interactive latency on it; one server at a time, each stopped after."""
    from transformers import AutoTokenizer

    folder = Path(vllm_backend.resolve_model(path)[0])
    prompt_ids = AutoTokenizer.from_pretrained(folder)(text, add_special_tokens=False)["input_ids"][:PROMPT_TOKENS]
    weight_bytes = vllm_startup.weight_bytes_per_token(folder)
    result = {"startup": {}, "speed": {}}
    with tempfile.TemporaryDirectory(prefix="vllm-cache-") as cache:
        # (start-up, environment over the product's serving defaults, flags, the row of the token-speed table)
        settings = (("uncached (fresh compile cache)", {}, (), None),
                    ("cached", {}, (), "vLLM, every core"),
                    ("vLLM's AOT compilation (its default)", {"VLLM_USE_AOT_COMPILE": "1"}, (), None),
                    ("cached, --enforce-eager", {}, ("--enforce-eager",), "vLLM, every core, --enforce-eager"),
                    ("cached, one core (vLLM's binding)", {"VLLM_CPU_NUM_OF_RESERVED_CPU": "1"}, (), "vLLM, one core")
                    )[:None if device == "cpu" else -1]  # a GPU server has no core binding to compare
        for name, env, flags, speed_row in settings:
            log(f"  vLLM {name}: starting")
            with vllm_startup.server(path, cache_root=Path(cache), env=env, extra_args=flags) as (
                    record, startup):
                result["startup"][name] = startup
                log(f"    ready after {startup['ready_s']} s ({startup})")
                if speed_row is None:
                    continue
                speed = vllm_startup.token_speed(record, prompt_ids, DECODE_TOKENS)
                result["speed"][speed_row] = {**speed, "weight_bytes_per_token": weight_bytes}
                log(f"    prefill {speed['prefill_tokens_per_s']} tok/s, decode {speed['decode_tokens_per_s']} tok/s")
                if name == "cached":
                    result["interactive"] = interactive_latency(f"vllm:{path}", sentences, TARGET_LANG)
    return result


def before_latency(revision: str, specs: dict[str, str], sentences: list[str]) -> dict:
    """The interactive latency of an earlier revision of the chain, from a git worktree of it."""
    results = {}
    with tempfile.TemporaryDirectory(prefix="intercpt-before-") as parent:
        checkout = Path(parent) / revision
        subprocess.run(["git", "-C", str(HERE.parent), "worktree", "add", "--detach", str(checkout), revision],
                       check=True, capture_output=True)
        try:
            for name, spec in specs.items():
                log(f"  {name} at {revision}")
                env = dict(os.environ, PYTHONPATH=str(checkout))
                done = subprocess.run([sys.executable, str(HERE / "latency_at_revision.py"), spec, TARGET_LANG,
                                       json.dumps(warm_up_gold()), *sentences],
                                      cwd=checkout, env=env, capture_output=True, text=True, check=False)
                if done.returncode != 0:
                    raise RuntimeError(f"{name} at {revision} failed: {done.stderr[-2000:]}")
                results[name] = json.loads(done.stdout.strip().splitlines()[-1])
        finally:
            subprocess.run(["git", "-C", str(HERE.parent), "worktree", "remove", "--force", str(checkout)],
                           check=False, capture_output=True)
    return results


def with_limits(speed: dict, bandwidth: float, gguf_bytes: int) -> dict:
    """Decode speed as a fraction of the bandwidth limit for the GGUF's bytes and for the bytes read."""
    gguf_limit = bandwidth / gguf_bytes
    own_limit = bandwidth / speed["weight_bytes_per_token"]
    return {**speed, "limit_tokens_per_s_gguf": round(gguf_limit, 1),
            "fraction_of_gguf_limit": round(speed["decode_tokens_per_s"] / gguf_limit, 3),
            "limit_tokens_per_s_own_weights": round(own_limit, 1),
            "fraction_of_own_limit": round(speed["decode_tokens_per_s"] / own_limit, 3)}


def markdown(results: dict) -> str:
    m, bw = results["machine"], results["memory_bandwidth"]
    lines = [f"# In-process backends against the machine's limit ({results['started']})", "",
             f"Machine: {m['cpus']} × {m['cpu']}, load average {m.get('load_average_at_start', 0):.1f} at the start; "
             f"model: `{results['model']}`; llama.cpp threads: {results.get('llamacpp_threads')}.", "",
             f"Memory bandwidth: **{bw['gb_per_s']} GB/s** ({bw['method']}).", "",
             "## Tokens per second", "",
             f"Prefill of {next(iter(results['speed'].values()))['prompt_tokens']} tokens of the chain's detection prompt, "
             f"then {DECODE_TOKENS} decoded tokens, best of {SPEED_RUNS} runs each. The decode limit is bandwidth ÷ "
             "weight bytes read per token: "
             f"{results['gguf_weight_bytes_per_token'] / 1e6:.0f} MB for the GGUF's quantized weights.", "",
             "| backend | weights read per token | prefill tok/s | decode tok/s | of the GGUF limit | "
             "of the limit for its own weights |", "| --- | --- | --- | --- | --- | --- |"]
    for name, s in results["speed"].items():
        lines.append(f"| {name} | {s['weight_bytes_per_token'] / 1e6:.0f} MB | {s['prefill_tokens_per_s'] or '—'} | "
                     f"{s['decode_tokens_per_s']} | {s['fraction_of_gguf_limit']:.0%} "
                     f"(limit {s['limit_tokens_per_s_gguf']}) | {s['fraction_of_own_limit']:.0%} "
                     f"(limit {s['limit_tokens_per_s_own_weights']}) |")
    bare, product = (results["speed"].get(k) for k in ("llama.cpp", "llama.cpp through the product"))
    if bare and product:
        lines += ["", f"The product's llama.cpp decode (its chat model, streamed, sampling and counting tokens) runs at "
                  f"**{product['decode_tokens_per_s'] / bare['decode_tokens_per_s']:.0%}** of the bare `Llama.eval` "
                  "loop's on the same GGUF and threads (its prefill is cached by the first of two runs, so it has none)."]
    if results.get("vllm_startup"):
        lines += ["", "vLLM reads the model converted to bfloat16; \"one core\" is vLLM-CPU's own thread binding, "
                  "which reserves a core for its front end (`VLLM_CPU_NUM_OF_RESERVED_CPU=1`); the product's "
                  "setting is every core.", "", "## vLLM start-up", "",
                  "Seconds from launching the server to its first healthy answer (the GGUF already converted); "
                  "weights and engine initialisation (profiling, KV cache, warm-up with torch.compile) from the "
                  "server's log.", "",
                  "| start | ready s | weights s | engine init s | compile cache | cores |",
                  "| --- | --- | --- | --- | --- | --- |"]
        lines += [f"| {name} | {v['ready_s']} | {v['weights_s']} | {v['engine_init_s']} | {v['compile_cache']} | "
                  f"{v['cores']} |" for name, v in results["vllm_startup"].items()]
        lines += ["", "The product's CPU setting (`assistant/backends/presets.yaml`) is every core and "
                  "`VLLM_USE_AOT_COMPILE=0` (the \"cached\" row): with vLLM's ahead-of-time compilation, the "
                  "vLLM-CPU build saves the compiled model but fails to load it back (\"load failed, "
                  "recompiled\" once the cache holds it), and compiles again at every start. `--enforce-eager` skips compilation altogether at the decode speed shown above."]
    lines += ["", "## Interactive latency (the UI's path)", "",
              "Warm model; the person picks the first option at once. \"before\" rows run the same sentences on "
              f"revision `{results.get('before_revision', '-')}` of the chain (one detection call per flagged "
              "word, each writing its question; vLLM on vLLM-CPU's own binding) in the same run.", "",
              "| backend | questions asked | to first question, median / p90 s | to translation, median / p90 s |",
              "| --- | --- | --- | --- |"]
    for name, v in results["interactive"].items():
        lines.append(f"| {name} | {v['asked']}/{v['sentences']} | {v['to_first_question_s']['median']} / "
                     f"{v['to_first_question_s']['p90']} | {v['to_translation_s']['median']} / "
                     f"{v['to_translation_s']['p90']} |")
    lines += ["", f"Total time: {results['wall_s']:.0f} s.", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default=None, help="GGUF file (default: the test model)")
    parser.add_argument("--sentences", type=int, default=5, help="sentences of the interactive path (default: 5)")
    parser.add_argument("--before", default=BEFORE_REVISION,
                        help="git revision whose chain gives the 'before' latency rows, or 'none' (default: %(default)s)")
    parser.add_argument("--no-vllm", action="store_true", help="leave vLLM out (it takes minutes to start)")
    parser.add_argument("--device", choices=("cpu", "cuda"), default="cpu",
                        help="cuda: the GPU's bandwidth is the limit, transformers and vLLM run there, and "
                             "llama.cpp (the CPU build of the llamacpp extra) is left out (default: %(default)s)")
    parser.add_argument("--out", type=Path, default=HERE / "results", help="results folder (default: %(default)s)")
    args = parser.parse_args(argv)
    for name in ("HF_HUB_DISABLE_PROGRESS_BARS", "TQDM_DISABLE"):  # keep the output to the measurements
        os.environ.setdefault(name, "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    model_path = args.model or default_model()
    if not model_path:
        parser.error("no model: give --model or set INTERCPT_TEST_MODEL")
    sentences = yaml.safe_load((HERE / "serving.yaml").read_text())["sentences"][:args.sentences]
    started = time.perf_counter()
    results = {"started": datetime.now(timezone.utc).isoformat(timespec="seconds"), "machine": machine(),
               "model": Path(model_path).name, "decode_tokens": DECODE_TOKENS, "llamacpp_threads": thread_count()}
    log("1. memory bandwidth")
    results["memory_bandwidth"] = bandwidth = memory_bandwidth(args.device)
    results["device"] = args.device
    in_process = {"llama.cpp": llamacpp_speed, "llama.cpp through the product": product_llamacpp_speed,
                  "transformers": transformers_speed}
    if args.device == "cuda":
        in_process.pop("llama.cpp")
        in_process.pop("llama.cpp through the product")
    log(f"  {bandwidth['gb_per_s']} GB/s")
    log("2. prefill and decode tokens/s")
    text = prompt_text()
    gguf_bytes = results["gguf_weight_bytes_per_token"] = gguf_decode_bytes(model_path)
    results["speed"] = {}
    for name, measure in in_process.items():
        fastest = max((measure(model_path, text) for _ in range(SPEED_RUNS)), key=lambda run: run["decode_tokens_per_s"])
        speed = with_limits(fastest, bandwidth["gb_per_s"] * 1e9, gguf_bytes)
        results["speed"][name] = speed
        log(f"  {name}: prefill {speed['prefill_tokens_per_s']} tok/s, decode {speed['decode_tokens_per_s']} tok/s "
            f"= {speed['fraction_of_gguf_limit']:.0%} of the GGUF limit ({speed['limit_tokens_per_s_gguf']} tok/s)")
    results["interactive"] = {}
    if not args.no_vllm:
        log("3. vLLM: start-up, tokens/s on every core and on one, interactive latency")
        served = vllm_part(model_path, text, sentences, args.device)
        results["vllm_startup"] = served["startup"]
        for name, speed in served["speed"].items():
            results["speed"][name] = with_limits(speed, bandwidth["gb_per_s"] * 1e9, gguf_bytes)
        results["interactive"]["vLLM"] = served["interactive"]
    log("4. interactive latency")
    variants = {
        "llama.cpp": (f"llamacpp:{model_path}", None),
        "llama.cpp, no state cache": (f"llamacpp:{model_path}", lambda: LlamaCppChatModel(target=model_path,
                                                                                          state_cache=False)),
        "transformers": (f"transformers:{model_path}", None),
    }
    if args.device == "cuda":
        variants = {"transformers": variants["transformers"]}
    for name, (spec, model) in variants.items():
        result = results["interactive"][name] = interactive_latency(spec, sentences, TARGET_LANG,
                                                                     model() if model else None)
        log(f"  {name}: first question median {result['to_first_question_s']['median']} s "
            f"(p90 {result['to_first_question_s']['p90']}), translation median {result['to_translation_s']['median']} s")
    if args.before != "none":
        before = {"transformers": f"transformers:{model_path}"} | ({} if args.no_vllm else {"vLLM": f"vllm:{model_path}"})
        results["before_revision"] = args.before
        for name, result in before_latency(args.before, before, sentences).items():
            results["interactive"][f"before ({args.before}): {name}"] = result
            log(f"  before, {name}: first question median {result['to_first_question_s']['median']} s, "
                f"translation median {result['to_translation_s']['median']} s")
    results["wall_s"] = round(time.perf_counter() - started, 1)
    write_results(results, args.out / f"backends-{results['machine']['host']}-{Path(model_path).stem}",
                  markdown(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
