"""Does prompt-lookup decoding make a translation faster on llama.cpp? Side by side in one run.

A translation copies names, numbers, codes and addresses from its source, so drafting the next tokens from
the prompt (llama-cpp-python's ``LlamaPromptLookupDecoding``) could save decode steps. The same GGUF is
loaded with the product's context, batch and threads, without a draft model and with drafts of 4 and 10
tokens; each translates the same texts (chosen for their names and numbers) through the product's own
no-extra prompt into French, greedily, once to warm up and once timed. Printed and written to
``benchmarks/results/prompt-lookup-<model>.md``: the median seconds per translation, output tokens per
second, the ratio to no draft, and whether the output stayed the same.

    python benchmarks/prompt_lookup.py --model FILE.gguf
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
LANG = "fr"
DRAFTS = (0, 4, 10)  # tokens drafted per step; 0: no draft model
TEXTS = ("The meeting with Dr. Alvarez is on 14 March 2025 at 10:30 in room B-204.",
         "Please send the invoice INV-2024-0098 to accounts@example.com before Friday.",
         "Your order #55821 has shipped and will arrive at 12 Rue de Rivoli within 3 days.",
         "Blair said the new printer on the third floor is out of toner again.",
         "We have sent you an email. If you have not received it, please check your spam folder.")


def messages(text: str) -> list[dict[str, str]]:
    """The product's no-extra translation prompt for ``text``, as chat messages."""
    from assistant.prompts import load_prompt

    prompt = load_prompt("translate")
    roles = {"system": "system", "human": "user", "ai": "assistant"}
    return [{"role": roles[m.type], "content": str(m.content)}
            for m in prompt.chat_prompt(LANG, tuple(prompt.examples)).format_messages(source=text)]


def timed_translations(model: str, draft: int) -> list[tuple[float, int, str]]:
    """(seconds, output tokens, text) of each text's second translation with a ``draft``-token lookup."""
    from llama_cpp import Llama
    from llama_cpp.llama_speculative import LlamaPromptLookupDecoding

    from assistant.backends.llamacpp import BATCH_TOKENS, CONTEXT_TOKENS, thread_count

    threads = thread_count()
    # A draft is checked against the logits of every drafted position, so it needs them all kept (without
    # ``logits_all`` llama-cpp-python sizes that array for one batch and fails on a longer prompt).
    llama = Llama(model_path=model, n_ctx=CONTEXT_TOKENS, n_batch=BATCH_TOKENS, n_threads=threads,
                  n_threads_batch=threads, verbose=False, logits_all=bool(draft),
                  draft_model=LlamaPromptLookupDecoding(num_pred_tokens=draft) if draft else None)
    prompts = [messages(text) for text in TEXTS]  # built once, outside the timed calls
    runs = []
    for timed in (False, True):
        for prompt in prompts:
            started = time.perf_counter()
            reply = llama.create_chat_completion(prompt, temperature=0, max_tokens=160)
            if timed:
                runs.append((time.perf_counter() - started, reply["usage"]["completion_tokens"],
                             reply["choices"][0]["message"]["content"].strip()))
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, help="a GGUF chat model")
    args = parser.parse_args()
    results = {draft: timed_translations(args.model, draft) for draft in DRAFTS}
    plain = statistics.median(seconds for seconds, _, _ in results[0])
    lines = [f"# Prompt-lookup decoding on llama.cpp ({Path(args.model).name}, {len(TEXTS)} texts into {LANG})", "",
             "Greedy, the product's no-extra prompt, context and threads; median of the second (warm) translation "
             "of each text. A test model's timing, on this machine: a plumbing measure, not a quality claim.", "",
             "| draft tokens | median s | output tok/s | × no draft | outputs as without a draft |",
             "|---|---|---|---|---|"]
    for draft, runs in results.items():
        median = statistics.median(seconds for seconds, _, _ in runs)
        speed = sum(tokens for _, tokens, _ in runs) / sum(seconds for seconds, _, _ in runs)
        same = sum(text == base for (_, _, text), (_, _, base) in zip(runs, results[0]))
        lines.append(f"| {draft or 'none'} | {median:.2f} | {speed:.1f} | {median / plain:.2f} | {same}/{len(runs)} |")
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"prompt-lookup-{Path(args.model).stem}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
