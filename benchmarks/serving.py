"""Serving benchmark: is the chain faster on vLLM, and do hybrid backbones scale better with context?

Four measurements, on one machine and one model (the real small test model unless --model):

1. evaluator throughput: items/s of the same AmbigMT slice, transformers in-process and
   sequential vs vLLM with K requests in flight;
2. prefix caching: the server's hit rate over those evaluation runs, and the time to the first
   token of the chain's detection prompt with its few-shot prefix cached vs not;
3. interactive latency: the UI's path (submit -> first question -> final translation) on the
   embedded transformers backend and on vLLM, median and p90;
4. backbone scaling: latency and per-request cache memory vs prompt length for the dense test
   model and a same-size hybrid SSM/attention model with random weights.

    python benchmarks/serving.py [--quick] [--parts 1,2,3,4] [--model FILE.gguf | DIR]

Results go to benchmarks/results/serving-<host>.json and .md. vLLM servers started here use
the intercpt cache ($INTERCPT_CACHE) and are stopped at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

from assistant.backends import vllm as vllm_backend  # noqa: E402
from assistant.backends.presets import server_env  # noqa: E402
from assistant.ambiguity import REGISTER, preset_types  # noqa: E402
from assistant.paths import cache_dir  # noqa: E402
from assistant.prompts import load_prompt  # noqa: E402

from backbones import build_hybrid, parameter_count, state_bytes  # noqa: E402
from timing import (CacheUsageSampler, bearer, chat_latency, interactive_latency, stream_completion,  # noqa: E402
                    summary, warm)

TARGET_LANG = "fr"


def log(message: str) -> None:
    print(message, flush=True)


def address_label() -> str:
    """The detection prompt's phrase for the question about "you": the label of the type a register
    setting answers."""
    return preset_types(REGISTER)[0].label


# ----- 1. evaluator throughput (and 2a, the prefix-cache hit rate over those runs)


def throughput(model_path: str, data: Path, settings: dict) -> dict:
    from evaluation.config import EvalConfig
    from evaluation.runner import Evaluation

    def run(spec: str, concurrency: int) -> dict:
        """One evaluation run's loop (items in, records out), timed by the runner itself; no report."""
        with tempfile.TemporaryDirectory(prefix="intercpt-bench-") as out:
            config = EvalConfig(out=Path(out), data=str(data), types=tuple(settings["eval_types"]),
                                langs=tuple(settings["eval_langs"]), methods=("intercpt",), translator=spec,
                                user="oracle", limit=settings["eval_items"], seed=0, concurrency=concurrency)
            with Evaluation(config) as evaluation:
                evaluation.run(progress=False)
                session = evaluation.run_info["sessions"][-1]
                failed = sum(record.error is not None for record in evaluation.records())
        return {"items": session["items"], "failed": failed, "wall_s": session["wall_s"],
                "items_per_s": round(session["items"] / session["wall_s"], 4)}

    hf_spec, vllm_spec = f"transformers:{model_path}", f"vllm:{model_path}"
    result: dict = {"slice": {k: settings[k] for k in ("eval_types", "eval_langs", "eval_items")},
                    "method": "intercpt", "user": "oracle"}
    for spec in (hf_spec, vllm_spec):  # load and warm both (model load and server start are not measured)
        warm(spec)
    result["transformers_sequential"] = run(hf_spec, 1)
    log(f"  transformers, sequential: {result['transformers_sequential']['items_per_s']:.3f} items/s")
    base_url = vllm_backend.ensure_server(model_path).base_url
    before = vllm_backend.prefix_cache_stats(base_url)
    result["vllm"] = {}
    for k in settings["concurrency"]:
        result["vllm"][str(k)] = run(vllm_spec, k)
        result["vllm"][str(k)]["ratio_to_transformers"] = round(
            result["vllm"][str(k)]["items_per_s"] / result["transformers_sequential"]["items_per_s"], 2)
        log(f"  vLLM, K={k}: {result['vllm'][str(k)]['items_per_s']:.3f} items/s "
            f"({result['vllm'][str(k)]['ratio_to_transformers']}x)")
    used = vllm_backend.prefix_cache_stats(base_url) - before
    result["prefix_cache_over_evaluation"] = {"prompt_tokens": used.queries, "cached_tokens": used.hits,
                                              "hit_rate": round(used.hit_rate, 3)}
    log(f"  prefix cache over the vLLM evaluation runs: {used.hit_rate:.1%} of {used.queries:.0f} prompt tokens")
    return result


# ----- 2b. time to the first token, few-shot prefix cached vs not


def first_token_latency(model_path: str, sentences: list[str], repeats: int) -> dict:
    record = vllm_backend.ensure_server(model_path)
    prompt = load_prompt("detect")
    template = prompt.chat_prompt(TARGET_LANG, tuple(prompt.examples))
    label = address_label()

    def messages(sentence: str, nonce: str = "") -> list[dict]:
        from langchain_core.messages import convert_to_openai_messages

        rendered = convert_to_openai_messages(template.format_messages(source=sentence, span="you", ambiguity=label))
        if nonce:  # a unique first line: no block of this prompt is in the cache
            rendered[0]["content"] = f"[{nonce}]\n{rendered[0]['content']}"
        return rendered

    chat_latency(record.base_url, record.served_name, messages(sentences[0]), record.api_key)  # the prefix is now cached
    cached, uncached, hits = [], [], []
    for sentence in sentences[1:repeats + 1]:
        before = vllm_backend.prefix_cache_stats(record.base_url)
        cached.append(chat_latency(record.base_url, record.served_name, messages(sentence), record.api_key))
        hits.append((vllm_backend.prefix_cache_stats(record.base_url) - before).hit_rate)
        uncached.append(chat_latency(record.base_url, record.served_name, messages(sentence, uuid.uuid4().hex),
                                   record.api_key))
    result = {"prompt": "detect (generalist, fr)", "prompt_tokens": _prompt_tokens(record, messages(sentences[0])),
              "cached_s": summary(cached), "uncached_s": summary(uncached),
              "hit_rate_of_cached_requests": round(sum(hits) / len(hits), 3)}
    result["speedup"] = round(result["uncached_s"]["median"] / result["cached_s"]["median"], 1)
    log(f"  TTFT of the detection prompt ({result['prompt_tokens']} tokens): cached {result['cached_s']['median']} s, "
        f"uncached {result['uncached_s']['median']} s ({result['speedup']}x)")
    return result


def _prompt_tokens(record, messages: list[dict]) -> int:
    import httpx

    body = {"model": record.served_name, "messages": messages, "max_tokens": 1}
    reply = httpx.post(f"{record.base_url}/chat/completions", json=body, headers=bearer(record.api_key),
                       timeout=600).json()
    return reply["usage"]["prompt_tokens"]


# ----- 3. interactive latency on the UI's path


def interactive(model_path: str, sentences: list[str]) -> dict:
    result = {}
    for name, spec in (("transformers (embedded)", f"transformers:{model_path}"), ("vLLM", f"vllm:{model_path}")):
        result[name] = interactive_latency(spec, sentences, TARGET_LANG)
        log(f"  {name}: first question median {result[name]['to_first_question_s']['median']} s "
            f"(p90 {result[name]['to_first_question_s']['p90']}), translation median "
            f"{result[name]['to_translation_s']['median']} s (p90 {result[name]['to_translation_s']['p90']})")
    embedded, served = result["transformers (embedded)"], result["vLLM"]
    result["vllm_speedup"] = {key: _ratio(embedded[key]["median"], served[key]["median"])
                              for key in ("to_first_question_s", "to_translation_s")}
    log(f"  vLLM speed-up (medians): first question {result['vllm_speedup']['to_first_question_s']}x, "
        f"translation {result['vllm_speedup']['to_translation_s']}x")
    return result


def _ratio(slow: float | None, fast: float | None) -> float | None:
    return round(slow / fast, 1) if slow and fast else None


# ----- 4. backbone scaling with context length


def scaling(model_path: str, settings: dict) -> dict:
    dense_model, _ = vllm_backend.resolve_model(model_path)
    dense_record = vllm_backend.ensure_server(model_path)
    hybrid_folder = build_hybrid(cache_dir() / "benchmark-models", Path(dense_model))
    pool_gib = float(server_env(vllm_backend.device()).get("VLLM_CPU_KVCACHE_SPACE", "nan"))
    result = {"note": ("dense: the test model (trained weights); hybrid: random weights with the same shapes as a "
                       "trained model of its config (speed does not depend on the weights); prompts are random "
                       "token ids, decoding ignores end-of-sequence"),
              "decode_tokens": settings["decode_tokens"], "cache_pool_gib": pool_gib, "models": {}}
    backbones = (("dense", Path(dense_model), dense_record), ("hybrid", hybrid_folder, None))
    for kind, folder, record in backbones:
        if record is None:
            log(f"  starting vLLM for the {kind} model (first start compiles)…")
            record = vllm_backend.ensure_server(str(folder))
        config = json.loads((folder / "config.json").read_text())
        rows = []
        rng = random.Random(0)
        stream_completion(record.base_url, record.served_name, [rng.randrange(1000, 30000) for _ in range(64)], 2,
                          record.api_key)
        for tokens in settings["context_lengths"]:
            prompt = [rng.randrange(1000, 30000) for _ in range(tokens)]
            with CacheUsageSampler(record.base_url) as usage:
                completion = stream_completion(record.base_url, record.served_name, prompt, settings["decode_tokens"],
                                               record.api_key)
            rows.append({"context_tokens": tokens, "ttft_s": round(completion.ttft_s, 3),
                         "total_s": round(completion.total_s, 3),
                         "decode_ms_per_token": round(1000 * completion.decode_s_per_token, 1),
                         "cache_peak_fraction": round(usage.peak, 5),
                         "cache_peak_mb": round(usage.peak * pool_gib * 1024, 1) if pool_gib == pool_gib else None,
                         "state_mb_computed": round(state_bytes(config, tokens + settings["decode_tokens"]) / 1e6, 1)})
            log(f"  {kind:6} {tokens:5} tokens: TTFT {rows[-1]['ttft_s']:7.2f} s, decode "
                f"{rows[-1]['decode_ms_per_token']:6.1f} ms/token, cache {rows[-1]['cache_peak_mb']} MB "
                f"(computed {rows[-1]['state_mb_computed']} MB)")
        result["models"][kind] = {"architecture": config["architectures"][0],
                                  "parameters_m": round(parameter_count(folder) / 1e6), "rows": rows}
    dense_rows, hybrid_rows = result["models"]["dense"]["rows"], result["models"]["hybrid"]["rows"]
    result["hybrid_to_dense"] = [
        {"context_tokens": d["context_tokens"], "ttft": round(h["ttft_s"] / d["ttft_s"], 2),
         "decode": round(h["decode_ms_per_token"] / d["decode_ms_per_token"], 2),
         "cache": round(h["cache_peak_mb"] / d["cache_peak_mb"], 2) if d["cache_peak_mb"] else None}
        for d, h in zip(dense_rows, hybrid_rows)]
    return result


# ----- report


def machine() -> dict:
    import torch

    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor()) if Path("/proc/cpuinfo").exists() else ""
    info = {"host": socket.gethostname(), "cpus": os.cpu_count(), "cpu": cpu, "device": vllm_backend.device(),
            "python": platform.python_version(), "torch": torch.__version__}
    if torch.cuda.is_available():
        info["gpu"] = torch.cuda.get_device_name(0)
    try:
        info["load_average_at_start"] = os.getloadavg()[0]
    except OSError:
        pass
    return info


def markdown(results: dict) -> str:
    lines = [f"# Serving benchmark ({results['started']})", "",
             f"Machine: {results['machine']['cpus']} × {results['machine']['cpu']} ({results['machine']['device']}), "
             f"load average {results['machine'].get('load_average_at_start', 0):.1f} at the start; "
             f"model: `{Path(results['model']).name}`; settings: {results['settings_name']}.", ""]
    t = results.get("throughput")
    if t:
        lines += ["## 1. Evaluator throughput", "",
                  f"{t['transformers_sequential']['items']} AmbigMT dev items ({', '.join(t['slice']['eval_types'])}, "
                  f"{', '.join(t['slice']['eval_langs'])}), method intercpt, oracle user.", "",
                  "| backend | concurrency | items/s | × transformers |", "| --- | --- | --- | --- |",
                  f"| transformers in-process | 1 | {t['transformers_sequential']['items_per_s']:.3f} | 1.0 |"]
        lines += [f"| vLLM | {k} | {v['items_per_s']:.3f} | {v['ratio_to_transformers']} |" for k, v in t["vllm"].items()]
        p = t["prefix_cache_over_evaluation"]
        lines += ["", f"Prefix-cache hit rate over the vLLM evaluation runs: **{p['hit_rate']:.1%}** "
                  f"({p['cached_tokens']:.0f} of {p['prompt_tokens']:.0f} prompt tokens).", ""]
    f = results.get("first_token")
    if f:
        lines += ["## 2. Time to first token, few-shot prefix cached vs not", "",
                  f"The chain's {f['prompt']} prompt, {f['prompt_tokens']} tokens, on vLLM.", "",
                  "| prefix | median s | p90 s |", "| --- | --- | --- |",
                  f"| cached (hit rate {f['hit_rate_of_cached_requests']:.0%}) | {f['cached_s']['median']} | "
                  f"{f['cached_s']['p90']} |",
                  f"| not cached | {f['uncached_s']['median']} | {f['uncached_s']['p90']} |", "",
                  f"Speed-up from the cache: **{f['speedup']}x**.", ""]
    i = results.get("interactive")
    if i:
        lines += ["## 3. Interactive latency (the UI's path)", "",
                  "| backend | questions asked | to first question, median / p90 s | to translation, median / p90 s |",
                  "| --- | --- | --- | --- |"]
        lines += [f"| {name} | {v['asked']}/{v['sentences']} | {v['to_first_question_s']['median']} / "
                  f"{v['to_first_question_s']['p90']} | {v['to_translation_s']['median']} / {v['to_translation_s']['p90']} |"
                  for name, v in i.items() if name != "vllm_speedup"]
        lines += ["", f"vLLM is **{i['vllm_speedup']['to_first_question_s']}x** faster to the first question and "
                  f"**{i['vllm_speedup']['to_translation_s']}x** to the translation (medians; the person answers "
                  "at once with the first option).", ""]
    s = results.get("scaling")
    if s:
        lines += ["## 4. Backbone scaling with context length", "", s["note"] + ".", ""]
        for kind, model in s["models"].items():
            lines.append(f"- {kind}: `{model['architecture']}`, {model['parameters_m']}M parameters")
        lines += ["", "| model | context tokens | TTFT s | decode ms/token | cache MB (peak, measured) | state MB (computed) |",
                  "| --- | --- | --- | --- | --- | --- |"]
        for kind, model in s["models"].items():
            lines += [f"| {kind} | {r['context_tokens']} | {r['ttft_s']} | {r['decode_ms_per_token']} | "
                      f"{r['cache_peak_mb']} | {r['state_mb_computed']} |" for r in model["rows"]]
        lines += ["", "| context tokens | hybrid/dense TTFT | hybrid/dense decode | hybrid/dense cache |",
                  "| --- | --- | --- | --- |"]
        lines += [f"| {r['context_tokens']} | {r['ttft']} | {r['decode']} | {r['cache']} |" for r in s["hybrid_to_dense"]]
        lines.append("")
    lines += [f"Total time: {results['wall_s']:.0f} s.", ""]
    return "\n".join(lines)


def default_model() -> str | None:
    if os.environ.get("INTERCPT_TEST_MODEL"):
        return os.environ["INTERCPT_TEST_MODEL"]
    fetch = REPO.parent / "shared" / "models" / "fetch-test-model"
    if fetch.exists():
        out = subprocess.run([str(fetch), "qwen2.5-coder-0.5b"], capture_output=True, text=True, check=False)
        return out.stdout.strip().splitlines()[-1] if out.returncode == 0 and out.stdout.strip() else None
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer items, sentences and context lengths")
    parser.add_argument("--parts", default="1,2,3,4", help="which measurements to run (default: %(default)s)")
    parser.add_argument("--model", default=None, help="GGUF file or model folder (default: the test model)")
    parser.add_argument("--data", type=Path,
                        default=Path(os.environ.get("INTERCPT_AMBIGMT_DIR", REPO.parent / "shared" / "datasets" /
                                                    "ambigmt-dev")),
                        help="AmbigMT folder for part 1 (default: $INTERCPT_AMBIGMT_DIR)")
    parser.add_argument("--out", type=Path, default=HERE / "results", help="results folder (default: %(default)s)")
    args = parser.parse_args(argv)
    for name in ("HF_HUB_DISABLE_PROGRESS_BARS", "TQDM_DISABLE"):  # keep the output to the measurements
        os.environ.setdefault(name, "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    model_path = args.model or default_model()
    if not model_path:
        parser.error("no model: give --model or set INTERCPT_TEST_MODEL")
    config = yaml.safe_load((HERE / "serving.yaml").read_text())
    settings_name = "quick" if args.quick else "full"
    settings = config[settings_name]
    sentences = config["sentences"]
    parts = {p.strip() for p in args.parts.split(",")}
    started = time.perf_counter()
    results = {"started": datetime.now(timezone.utc).isoformat(timespec="seconds"), "machine": machine(),
               "model": Path(model_path).name, "settings_name": settings_name, "settings": settings}
    # The vLLM servers started on the way are stopped when this process exits.
    if "1" in parts:
        log("1. evaluator throughput")
        results["throughput"] = throughput(model_path, args.data, settings)
    if "2" in parts:
        log("2. time to first token, prefix cached vs not")
        results["first_token"] = first_token_latency(model_path, sentences, settings["ttft_repeats"])
    if "3" in parts:
        log("3. interactive latency")
        results["interactive"] = interactive(model_path, sentences[:settings["interactive_sentences"]])
    if "4" in parts:
        log("4. backbone scaling with context length")
        results["scaling"] = scaling(model_path, settings)
    results["wall_s"] = round(time.perf_counter() - started, 1)
    write_results(results, args.out / f"serving-{results['machine']['host']}", markdown(results))
    return 0


def write_results(results: dict, stem: Path, report: str) -> None:
    """``stem``.json (every measurement) and ``stem``.md (the report), and the report on the terminal."""
    stem.parent.mkdir(parents=True, exist_ok=True)
    json_path, md_path = stem.parent / f"{stem.name}.json", stem.parent / f"{stem.name}.md"  # stems hold dots
    json_path.write_text(json.dumps(results, indent=2) + "\n")
    md_path.write_text(report)
    log("\n" + report)
    log(f"written: {json_path} and {md_path}")


if __name__ == "__main__":
    sys.exit(main())
