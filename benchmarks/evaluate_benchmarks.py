"""Run the evaluator on the field's own benchmarks (CoCoA-MT, GATE) and write their key tables.

    python benchmarks/evaluate_benchmarks.py --translator vllm:Qwen/Qwen2.5-7B-Instruct --limit 300 \\
        --concurrency 8 --cocoa-mt DIR --gate DIR [--langs fr,de,es] [--methods intercpt,no-extra] \\
        [--user oracle] [--runs runs/benchmarks] [--name NAME]

Each data set is one ``intercpt evaluate`` run (``RUNS/<set>``, resumable: rerun the command to finish
it); the translator is loaded once for all of them. Writes ``benchmarks/results/benchmarks-<name>.md``
(default name: the translator's last path part and the sample size): per data set its
benchmark-specific accuracy beside the rule-based checker's, how well the assistant asks, and the
comparison with published results; then the needless-question rate on texts with nothing to ask, every number taken from the runs' ``summary.json``. Folders
default to ``$INTERCPT_COCOA_MT_DIR`` and ``$INTERCPT_GATE_DIR``. On a GPU machine with vLLM
installed (``pip install ".[vllm]"``) run it as above; on a CPU machine use a small ``--limit``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.backends import ModelSpec, load_chat_model  # noqa: E402
from assistant.options import ChainOptions  # noqa: E402
from evaluation.config import EvalConfig  # noqa: E402
from evaluation.metrics import asking_metrics  # noqa: E402
from evaluation.report import format_cell, render_asking, render_published  # noqa: E402
from evaluation.runner import evaluate  # noqa: E402

DATA_SETS = {"cocoa-mt": "INTERCPT_COCOA_MT_DIR", "gate": "INTERCPT_GATE_DIR"}
KEY_METRICS = ("f_acc", "f_cov", "cocoa_acc", "cocoa_det_acc", "cocoa_undet", "g_acc", "g_cov", "gate_acc",
               "gate_det_acc", "gate_undet", "chrf")


def shared_loader():
    """``load_chat_model`` that loads each model once for every run of this process."""
    loaded: dict[str, object] = {}

    def load(spec: ModelSpec):
        if str(spec) not in loaded:
            loaded[str(spec)] = load_chat_model(spec)
        return loaded[str(spec)]
    return load


def key_table(summary: dict) -> list[str]:
    """Language × method rows of the benchmark's accuracies, the checker's, and chrF."""
    groups = summary["groups"]
    names = [n for n in KEY_METRICS if any(n in g["scores"] for g in groups)]
    lines = ["| type | lang | method | n | " + " | ".join(names) + " |", "|---|---|---|---|" + "---|" * len(names)]
    for g in groups:
        lines.append(f"| {g['type']} | {g['lang']} | {g['method']} | {g['n']} | "
                     + " | ".join(format_cell(g["scores"].get(n), None) for n in names) + " |")
    return lines


def render(summaries: dict[str, dict], args: argparse.Namespace, wall: float) -> str:
    lines = ["# The evaluator on CoCoA-MT and GATE", "",
             "Scores of a small model on a seeded sample are plumbing checks of the pipeline, not claims about "
             "translation quality; records/s depend on what else the machine ran.", "",
             f"- command: `python benchmarks/evaluate_benchmarks.py {' '.join(sys.argv[1:])}`",
             f"- translator `{args.translator}`, user `{args.user}`, methods {args.methods}, at most "
             f"{args.limit} items per type × language (seed {args.seed}), concurrency {args.concurrency}; "
             f"{wall:.0f} s in this invocation, model loading included (runs resumed from earlier ones give "
             "their own time below)", ""]
    for name, summary in summaries.items():
        run = summary["run"]
        data = run["data"].replace(f"{ROOT}{os.sep}", "")  # the repository's own files by their path in it
        lines += [f"## {name}", "", f"- data `{data}`, {run['items']} records ({run['failed_items']} failed), "
                  f"{run['wall_s']:.0f} s of running, {run['items_per_s'] or 0:.3f} records/s; full report: "
                  f"`{args.runs / name / 'report.md'}`", ""]
        lines += key_table(summary) + [""]
        lines += [line.replace("## ", "### ", 1) for line in render_asking(summary["groups"])]
        lines += [line.replace("## ", "### ", 1) for line in render_published(summary.get("published") or {})]
    signatures = {n: s["signature"] for summary in summaries.values() for g in summary["groups"]
                  for n, s in g["scores"].items() if n in KEY_METRICS + tuple(asking_metrics())}
    lines += ["## Signatures", ""] + [f"- {n}: `{sig}`" for n, sig in sorted(signatures.items())]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--translator", required=True, help="model spec, e.g. vllm:Qwen/Qwen2.5-7B-Instruct")
    parser.add_argument("--limit", type=int, default=300, help="items per type × language (default 300)")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--langs", default="fr,de,es")
    parser.add_argument("--methods", default="intercpt,no-extra")
    parser.add_argument("--user", default="oracle")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bootstrap", type=int, default=1000)
    for name, variable in DATA_SETS.items():
        parser.add_argument(f"--{name}", type=Path, default=os.environ.get(variable),
                            help=f"the {name} folder (default ${variable}); 'skip' leaves the set out")
    parser.add_argument("--unambiguous", type=Path, default=ROOT / "datasets" / "fixtures" / "nothing_ambiguous.jsonl",
                        help="JSONL of texts with nothing to ask (type none), for the needless-question rate; "
                             "'skip' leaves it out (default: %(default)s)")
    parser.add_argument("--runs", type=Path, default=ROOT / "runs" / "benchmarks", help="where the runs go")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    parser.add_argument("--name", help="results file name part (default: model and limit)")
    args = parser.parse_args()
    folders = {name: getattr(args, name.replace("-", "_")) for name in DATA_SETS}
    folders = {name: folder for name, folder in folders.items() if folder and str(folder) != "skip"}
    if not folders:
        parser.error("give --cocoa-mt DIR and/or --gate DIR (or set " + " / ".join(DATA_SETS.values()) + ")")
    start, load, summaries = time.perf_counter(), shared_loader(), {}
    for name, folder in folders.items():
        config = EvalConfig(out=args.runs / name, data=f"{name}:{folder}", langs=tuple(args.langs.split(",")),
                            methods=tuple(args.methods.split(",")), translator=args.translator, user=args.user,
                            limit=args.limit, seed=args.seed, concurrency=args.concurrency, bootstrap=args.bootstrap,
                            chain=ChainOptions(inclusive=name == "gate"))  # GATE scores both forms of anyone of a kind
        summaries[name] = evaluate(config, load_model=load)
    if str(args.unambiguous) != "skip":  # the baselines ask nothing: only the assistant is run
        config = EvalConfig(out=args.runs / "nothing-ambiguous", data=str(args.unambiguous),
                            langs=tuple(args.langs.split(",")), methods=("intercpt",), translator=args.translator,
                            user=args.user, seed=args.seed, concurrency=args.concurrency, bootstrap=args.bootstrap)
        summaries["nothing-ambiguous"] = evaluate(config, load_model=load)
    label = args.name or f"{args.translator.rstrip('/').rsplit('/', 1)[-1].removesuffix('.gguf')}-limit{args.limit}"
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"benchmarks-{label}.md"
    path.write_text(render(summaries, args, time.perf_counter() - start), encoding="utf-8")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
