"""Which repair lever makes a small model obey an answered formality question?

    python benchmarks/repair_levers.py --model PATH.gguf [--per-lang 8] [--langs fr es]

Runs the real GGUF model in-process through llama.cpp (llama-cpp-python) with the product's own
prompts (translate_clarified with the oracle answer and its reminder; rewrite) on CoCoA-MT train
sources whose gold is informal and that the pre-pass asks about, and scores every output with the
data set's contrastive rule (marked phrases of the references). Levers, each from the same greedy
first translation:
  resample   up to 3 sampled re-translations (temperature 0.7), the first the checker accepts
  rewrite    one targeted rewrite of the pronouns and verb forms (prompts/rewrite.yaml), checked
  rewrite+resample  the product's verify-and-repair order: rewrite, then re-samples
  logit_bias a greedy translation with the other register's single-token pronouns forbidden
Writes benchmarks/results/repair-levers.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from langchain_core.messages import convert_to_openai_messages  # noqa: E402

from assistant.checks import read_formality  # noqa: E402
from assistant.detection import find_candidates  # noqa: E402
from assistant.prompts import load_prompt  # noqa: E402
from assistant.steps import repair_reminder  # noqa: E402
from evaluation.data import LoadReport  # noqa: E402
from evaluation.loaders import cocoa_mt  # noqa: E402
from evaluation.metrics.contrastive import classify_contrastive  # noqa: E402

# The formal register's words, forbidden when the answer was informal (single tokens only: a
# multi-token word cannot be banned without banning its first piece everywhere).
FORMAL_WORDS = {"fr": ["vous", "Vous", "votre", "Votre", "vos", "Vos"],
                "es": ["usted", "Usted", "ustedes", "su", "Su", "sus"],
                "de": ["Sie", "Ihnen", "Ihr", "Ihre", "Ihren", "Ihrem", "Ihrer"]}
QUESTION = "Who is “you”: someone you address formally, informally, several people, or people in general?"


class Levers:
    def __init__(self, model_path: str, threads: int) -> None:
        import llama_cpp
        from llama_cpp import llama_cpp as low_level

        from assistant.backends.llamacpp import without_amx_repacking

        with without_amx_repacking(low_level):  # the backend's own guard for AMX CPUs
            self.llm = llama_cpp.Llama(model_path=model_path, n_ctx=4096, n_threads=threads, verbose=False, seed=0)
        self.llm.set_cache(llama_cpp.LlamaRAMCache(capacity_bytes=2 << 30))  # the prompts' few-shot prefixes
        self.calls = 0
        self.seconds = 0.0

    def chat(self, prompt: str, lang: str, inputs: dict, temperature: float = 0.0, seed: int | None = None,
             logit_bias: dict[int, float] | None = None) -> str:
        messages = convert_to_openai_messages(load_prompt(prompt).chat_prompt(lang).format_messages(**inputs))
        start = time.perf_counter()
        reply = self.llm.create_chat_completion(messages, temperature=temperature, seed=seed, max_tokens=160,
                                                logit_bias=logit_bias)
        self.calls += 1
        self.seconds += time.perf_counter() - start
        return reply["choices"][0]["message"]["content"].strip()

    def banned(self, lang: str) -> dict[int, float]:
        ids = {}
        for word in FORMAL_WORDS.get(lang, []):
            for text in (word, " " + word):
                tokens = self.llm.tokenize(text.encode(), add_bos=False, special=False)
                if len(tokens) == 1:
                    ids[tokens[0]] = -100.0
        return ids


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--data", type=Path, default=Path("/work/shared/datasets/cocoa-mt"))
    parser.add_argument("--langs", nargs="+", default=["fr", "es"])
    parser.add_argument("--per-lang", type=int, default=8)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "repair-levers.md")
    args = parser.parse_args()
    levers = Levers(args.model, args.threads)
    names = ["greedy", "resample", "rewrite", "rewrite+resample", "logit_bias"]
    scores = {lang: {n: [0, 0] for n in names} for lang in args.langs}  # [informal, determined]
    lines = []
    for lang in args.langs:
        items = [i for i in cocoa_mt.load(args.data, [lang], LoadReport(), split="train")
                 if i.attributes["formality"] == "informal" and any(
                     c.ambiguity == "formality" for c in find_candidates(i.src, lang))][: args.per_lang]
        for item in items:
            reminder = repair_reminder("formality", "informal", lang)
            clarified = {"source": item.src, "clarifications": f"Q: {QUESTION} A: informal\n{reminder}"}
            outputs = {"greedy": levers.chat("translate_clarified", lang, clarified)}
            first = outputs["greedy"]
            ok = read_formality(first, lang) == "informal"
            outputs["resample"] = first
            for seed in (1, 2, 3):
                if read_formality(outputs["resample"], lang) == "informal":
                    break
                outputs["resample"] = levers.chat("translate_clarified", lang, clarified, 0.7, seed)
            outputs["rewrite"] = first if ok else levers.chat(
                "rewrite", lang, {"source": item.src, "translation": first, "fix": reminder})
            outputs["rewrite+resample"] = outputs["rewrite"]
            for seed in (2, 3):
                if read_formality(outputs["rewrite+resample"], lang) == "informal":
                    break
                outputs["rewrite+resample"] = levers.chat("translate_clarified", lang, clarified, 0.7, seed)
            outputs["logit_bias"] = levers.chat("translate_clarified", lang, clarified, logit_bias=levers.banned(lang))
            for name, text in outputs.items():
                label = classify_contrastive(text, item.attributes["formal_annotated"],
                                             item.attributes["informal_annotated"])
                scores[lang][name][0] += label == "informal"
                scores[lang][name][1] += label is not None
            lines.append(f"- {lang} `{item.src}` → greedy: `{first}` / rewrite: `{outputs['rewrite']}` / "
                         f"logit_bias: `{outputs['logit_bias']}`")
            print(lang, {n: scores[lang][n] for n in names}, flush=True)
    table = ["| lang | lever | informal / determined (contrastive) |", "| --- | --- | --- |"]
    for lang in args.langs:
        for name in names:
            right, determined = scores[lang][name]
            share = f"{100 * right / determined:.0f} %" if determined else "n/a"
            table.append(f"| {lang} | {name} | {share} ({right}/{determined}) |")
    text = (f"# Repair levers on {Path(args.model).name} (llama.cpp, {args.threads} threads)\n\n"
            f"CoCoA-MT train, first {args.per_lang} informal-gold sources per language that the pre-pass asks "
            f"about; oracle answer \"informal\" with its reminder; {levers.calls} model calls, "
            f"{levers.seconds / max(levers.calls, 1):.1f} s per call on a shared 2-core CPU. Small samples: "
            "a direction, not a precise rate.\n\n" + "\n".join(table) + "\n\n## Outputs\n\n" + "\n".join(lines) + "\n")
    args.out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
