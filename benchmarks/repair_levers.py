"""Which repair lever makes a small model obey an answered formality question?

    python benchmarks/repair_levers.py --model PATH.gguf [--per-lang 8] [--langs fr es de]

Runs the real GGUF model in-process through the product's llama.cpp engine with the product's
own prompts (translate_clarified with the oracle answer and its reminder; rewrite) on CoCoA-MT
train sources whose gold is informal and that the pre-pass asks about, and scores every output
with the data set's contrastive rule (marked phrases of the references). Levers, each from the
same greedy first translation:
  resample   up to 3 sampled re-translations (temperature 0.7), the first the checker accepts
  rewrite    one targeted rewrite of the pronouns and verb forms (prompts/rewrite.yaml), checked
  rewrite+resample  rewrite, then re-samples
  forbidden  the greedy translation decoded without the formal register's words
             (prompts/forbidden_words.yaml), as the chain now translates after an answer
  product    the chain's order: that translation, then a rewrite and re-samples, all decoded
             without those words
Writes benchmarks/results/repair-levers.md.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from langchain_core.messages import convert_to_openai_messages  # noqa: E402

from assistant.ambiguity import forbidden_for, get_type  # noqa: E402
from assistant.backends.config import GenerationConfig  # noqa: E402
from assistant.backends.llamacpp import load_engine, thread_count  # noqa: E402
from assistant.checks import INFORMAL, read_formality  # noqa: E402
from assistant.detection import find_candidates  # noqa: E402
from assistant.prompts import load_prompt  # noqa: E402
from evaluation.data import LoadReport  # noqa: E402
from evaluation.loaders import cocoa_mt  # noqa: E402
from evaluation.metrics.contrastive import classify_contrastive  # noqa: E402

QUESTION = "Who is “you”: someone you address formally, informally, several people, or people in general?"


class Levers:
    """The model calls of the levers, counted and timed."""

    def __init__(self, model_path: str) -> None:
        self.engine = load_engine(model_path)
        self.calls = 0
        self.seconds = 0.0

    def chat(self, prompt: str, lang: str, inputs: dict, temperature: float = 0.0, seed: int = 0,
             bad_words: tuple[str, ...] = ()) -> str:
        messages = convert_to_openai_messages(load_prompt(prompt).chat_prompt(lang).format_messages(**inputs))
        config = GenerationConfig(temperature=temperature, seed=seed, max_tokens=160, bad_words=bad_words)
        start = time.perf_counter()
        text, _ = self.engine.generate(messages, config)
        self.calls += 1
        self.seconds += time.perf_counter() - start
        return text.strip()


def share(right: int, of: int) -> str:
    return f"{100 * right / of:.0f} % ({right}/{of})" if of else "n/a (0/0)"


def informal(text: str, lang: str) -> bool:
    return read_formality(text, lang) == INFORMAL


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--data", type=Path, default=Path(os.environ.get(
        "INTERCPT_COCOA_MT_DIR", ROOT.parent / "shared" / "datasets" / "cocoa-mt")))
    parser.add_argument("--langs", nargs="+", default=["fr", "es"])
    parser.add_argument("--per-lang", type=int, default=8)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "repair-levers.md")
    args = parser.parse_args()
    levers = Levers(args.model)
    names = ["greedy", "resample", "rewrite", "rewrite+resample", "forbidden", "product"]
    # [informal, determined] by the data set's contrastive rule, then by the product's checker
    scores = {lang: {n: [0, 0, 0, 0] for n in names} for lang in args.langs}
    lines = []
    for lang in args.langs:
        items = [i for i in cocoa_mt.load(args.data, [lang], LoadReport(), split="train")
                 if i.attributes[get_type(i.ambiguity).gold] == INFORMAL and any(
                     c.ambiguity == i.ambiguity for c in find_candidates(i.src, lang))][: args.per_lang]
        for item in items:
            kind = get_type(item.ambiguity)
            banned = forbidden_for([(kind.forbidden, INFORMAL)], lang, item.src)
            reminder = kind.reminder(INFORMAL, lang)
            clarified = {"source": item.src, "clarifications": f"Q: {QUESTION} A: informal\n{reminder}"}
            first = levers.chat("translate_clarified", lang, clarified)
            outputs = {"greedy": first, "resample": first}
            for seed in (1, 2, 3):
                if informal(outputs["resample"], lang):
                    break
                outputs["resample"] = levers.chat("translate_clarified", lang, clarified, 0.7, seed)
            outputs["rewrite"] = first if informal(first, lang) else levers.chat(
                "rewrite", lang, {"source": item.src, "translation": first, "fix": reminder})
            outputs["rewrite+resample"] = outputs["rewrite"]
            for seed in (2, 3):
                if informal(outputs["rewrite+resample"], lang):
                    break
                outputs["rewrite+resample"] = levers.chat("translate_clarified", lang, clarified, 0.7, seed)
            outputs["forbidden"] = levers.chat("translate_clarified", lang, clarified, bad_words=banned)
            outputs["product"] = outputs["forbidden"]
            if not informal(outputs["product"], lang):
                outputs["product"] = levers.chat("rewrite", lang, {"source": item.src, "translation": outputs["product"],
                                                                   "fix": reminder}, bad_words=banned)
            for seed in (2, 3):
                if informal(outputs["product"], lang):
                    break
                outputs["product"] = levers.chat("translate_clarified", lang, clarified, 0.7, seed, bad_words=banned)
            for name, text in outputs.items():
                label = classify_contrastive(text, item.attributes["formal_annotated"],
                                             item.attributes["informal_annotated"])
                read = read_formality(text, lang)
                for offset, found in ((0, label), (2, read)):
                    scores[lang][name][offset] += found == INFORMAL
                    scores[lang][name][offset + 1] += found is not None
            lines.append(f"- {lang} `{item.src}` → greedy: `{first}` / rewrite: `{outputs['rewrite']}` / "
                         f"forbidden: `{outputs['forbidden']}`")
            print(lang, {n: scores[lang][n] for n in names}, flush=True)
    table = ["| lang | lever | informal / determined (CoCoA-MT contrastive) | informal / read (the checker) |",
             "| --- | --- | --- | --- |"]
    for lang in args.langs:
        for name in names:
            counts = scores[lang][name]
            table.append(f"| {lang} | {name} | {share(counts[0], counts[1])} | {share(counts[2], counts[3])} |")
    text = (f"# Repair levers on {Path(args.model).name} (llama.cpp, {thread_count()} threads)\n\n"
            f"CoCoA-MT train, first {args.per_lang} informal-gold sources per language that the pre-pass asks "
            f"about; oracle answer \"informal\" with its reminder; {levers.calls} model calls, "
            f"{levers.seconds / max(levers.calls, 1):.1f} s per call. A plumbing check of a small test model on "
            "small samples: a direction, not a precise rate and not a claim about translation quality.\n\n"
            + "\n".join(table) + "\n\n## Outputs\n\n" + "\n".join(lines) + "\n")
    args.out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
