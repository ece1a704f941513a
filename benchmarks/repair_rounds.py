"""What each repair round buys: the failed answer checks it removes, and what it costs.

    python benchmarks/repair_rounds.py [--model PATH.gguf] [--rounds 3] [--limit 60] [--seed 1]
                                       [--sets gate cocoa-mt] [--out benchmarks/results/repair-rounds.md]

Runs the chain in-process (llama.cpp, greedy, the oracle answering from the gold labels) with a repair
budget of ``--rounds`` on the evaluator's seeded sample of ``--limit`` French items per set and type, and
records every repair round: whether the draft kept before it failed an answer check (a gender, the
register) and whether that failure is gone after it, read as passing (a verified fix) or no longer
readable (unchecked: nothing shows the fix), with the round's model calls and seconds; and what is
delivered: the model calls of all the items, how many of them every answer check reads as kept or
any as failed, and chrF against the reference of the gold answer (sacreBLEU). The chain's default
budget (``assistant.steps.REPAIR_BUDGET``) is set from what the later rounds buy here.
A test model's numbers: plumbing, not quality.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from unittest import mock

from sacrebleu.metrics import CHRF

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.ambiguity import ambiguity_types  # noqa: E402
from assistant.backends import GenerationConfig, ModelSpec, load_chat_model  # noqa: E402
from assistant.chain import Assistant  # noqa: E402
from assistant.repair import Repair  # noqa: E402
from assistant.usage import total  # noqa: E402
from evaluation.data import LoadReport  # noqa: E402
from evaluation.loaders import cocoa_mt, gate  # noqa: E402
from evaluation.runner import select_items  # noqa: E402

MODEL = Path("/root/.cache/test-models/qwen2.5-coder-1.5b/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf")
DATA = ROOT.parent / "shared" / "datasets"
LOADERS = {"gate": (gate, "gate"), "cocoa-mt": (cocoa_mt, "cocoa-mt")}
LANG = "fr"
ANSWER_CHECKS = {t.check for t in ambiguity_types().values() if t.check}  # the checks that read an answer


def answer_checks(checks, status: str) -> int:
    """How many of ``checks`` that read an answer have ``status`` ("fail", "unchecked")."""
    return sum(c.status == status for c in checks if c.name in ANSWER_CHECKS)


class RoundLog:
    """Every repair round of a run: (item, round, failures before, failures and unchecked after, seconds)."""

    def __init__(self):
        self.rounds: list[dict] = []
        self.item = ""
        self.started = 0.0  # when the round under way was announced
        self.delivered: list[dict] = []  # what each item delivered (``delivered``)

    def patch(self):
        """``Repair.consider`` recorded: the product's own rounds, observed, not changed."""
        log, consider = self, Repair.consider

        def recorded(repair, attempt, candidate):
            before, started = attempt.checks, log.started
            consider(repair, attempt, candidate)
            log.rounds.append({"item": log.item, "round": attempt.round - 1,
                               "failed_before": answer_checks(before, "fail"),
                               "failed_after": answer_checks(attempt.checks, "fail"),
                               "unchecked_after": answer_checks(attempt.checks, "unchecked"),
                               "seconds": time.perf_counter() - started})
            log.started = time.perf_counter()

        return mock.patch.object(Repair, "consider", recorded)


def delivered(item, transcript) -> dict:
    """What an item delivered: its translation and reference, model calls, answer checks failed or unread."""
    return {"ref": item.refs[0], "translation": transcript.translation,
            "calls": total(transcript.usage.values()).calls,
            "failed": answer_checks(transcript.checks, "fail"), "unchecked": answer_checks(transcript.checks, "unchecked")}


def run(args: argparse.Namespace) -> tuple[RoundLog, dict[str, int]]:
    spec = ModelSpec.parse(f"llamacpp:{args.model}")
    assistant = Assistant(load_chat_model(spec, GenerationConfig(temperature=0.0, seed=0)), str(spec),
                          repair_budget=args.rounds)
    log, items_run = RoundLog(), {}
    with log.patch():
        for name in args.sets:
            loader, folder = LOADERS[name]
            items = select_items(loader.load(args.data / folder, [LANG], LoadReport()), args.limit, args.seed)
            items_run[name] = len(items)
            for item in items:
                log.item = f"{name}:{item.id}"
                user = assistant.user("oracle", item.lang, gold=item.attributes)
                dialogue = assistant.start(item.src, item.lang)
                for step in dialogue.drive(user):
                    if step.kind == "repairing":
                        log.started = time.perf_counter()  # the round starts with its announcement
                log.delivered.append(delivered(item, dialogue.transcript))
    return log, items_run


def render(log: RoundLog, items_run: dict[str, int], args: argparse.Namespace, revision: str) -> str:
    first_failed: dict[str, int] = {}
    for r in log.rounds:
        first_failed.setdefault(r["item"], r["failed_before"])
    repaired = [item for item, failed in first_failed.items() if failed]
    tried, verified, unreadable, seconds = Counter(), Counter(), Counter(), defaultdict(float)
    for r in log.rounds:
        if r["item"] not in repaired or r["failed_before"] == 0:
            continue  # a round after the answers pass, or one spent on a text check only
        tried[r["round"]] += 1
        seconds[r["round"]] += r["seconds"]
        if r["failed_after"] == 0:
            (verified if r["unchecked_after"] == 0 else unreadable)[r["round"]] += 1
    lines = [f"# Repair rounds on {args.model.name} (llama.cpp), {revision}", "",
             f"`python benchmarks/repair_rounds.py --rounds {args.rounds} --limit {args.limit} --seed {args.seed} "
             f"--sets {' '.join(args.sets)}`: the evaluator's seeded sample of French items per set and type "
             f"({', '.join(f'{n} {k}' for k, n in items_run.items())} items), greedy, the oracle answering "
             "from the gold labels. A round counts where the draft kept before it failed an answer check; "
             "\"verified\": the failure is gone and the check reads a pass, \"unreadable\": gone because "
             "the checker no longer reads the answer. A test model's numbers: plumbing, not quality.", "",
             f"Items whose first translation failed an answer check: {len(repaired)} of "
             f"{sum(items_run.values())}.", "",
             "| round | rounds run | failures verified fixed | failures made unreadable | still failing | s / round |",
             "|---|---|---|---|---|---|"]
    for n in sorted(tried):
        lines.append(f"| {n} | {tried[n]} | {verified[n]} | {unreadable[n]} | "
                     f"{tried[n] - verified[n] - unreadable[n]} | {seconds[n] / tried[n]:.1f} |")
    chrf = CHRF()
    score = chrf.corpus_score([d["translation"] for d in log.delivered], [[d["ref"] for d in log.delivered]])
    n = len(log.delivered)
    lines += ["", f"Delivered: {n} items, {sum(d['calls'] for d in log.delivered)} model calls; every answer check "
              f"read as kept in {sum(not d['failed'] and not d['unchecked'] for d in log.delivered)}, one failing in "
              f"{sum(bool(d['failed']) for d in log.delivered)}; chrF {score.score:.1f} against the reference of "
              f"the gold answer ({chrf.get_signature().format()})."]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", type=Path, default=MODEL)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--rounds", type=int, default=3, help="the repair budget to measure under")
    parser.add_argument("--limit", type=int, default=60, help="items per set and type")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sets", nargs="+", choices=sorted(LOADERS), default=["gate", "cocoa-mt"])
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "repair-rounds.md")
    args = parser.parse_args()
    revision = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True,
                              text=True).stdout.strip() or "unknown revision"
    log, items_run = run(args)
    text = render(log, items_run, args, revision)
    args.out.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
