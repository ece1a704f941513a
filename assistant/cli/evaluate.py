"""``intercpt evaluate``: run the chain and its baselines over AmbigMT-style data and report the scores."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import InputError
from .common import add_context_arguments, context_policy_from
from .types import CLISubcommand


def _csv(value: str) -> tuple[str, ...]:
    parts = tuple(p.strip() for p in value.split(",") if p.strip())
    if not parts:
        raise argparse.ArgumentTypeError("expected a comma-separated list")
    return parts


def _positive(value: str) -> int:
    number = int(value)
    if number < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return number


class EvaluateCommand(CLISubcommand):
    name = "evaluate"
    help = "score the chain and its baselines on AmbigMT or a JSONL data set (resumable)"

    def subparser_init(self, subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
        from ..chain import DEFAULT_MAX_QUESTIONS, METHODS, PROMPT_VARIANTS

        parser = subparsers.add_parser(
            self.name, help=self.help, description=self.help + ". Rerun the same command to finish a killed run; "
            "give --translator or --user several times for a sweep (one sub-run each, plus scaling plots).")
        parser.add_argument("--data", default="ambigmt", metavar="PATH|ambigmt",
                            help="'ambigmt' (downloaded and verified once, or $INTERCPT_AMBIGMT_DIR), a folder "
                            "with the AmbigMT files, or a JSONL file (default: %(default)s)")
        parser.add_argument("--types", type=_csv, default=None, metavar="T1,T2",
                            help="ambiguity types to keep (default: all the data has)")
        parser.add_argument("--langs", type=_csv, default=("fr", "de", "es"), metavar="L1,L2",
                            help="target languages (default: fr,de,es)")
        parser.add_argument("--methods", type=_csv, default=METHODS, metavar="M1,M2",
                            help=f"any of {', '.join(METHODS)} (default: all)")
        parser.add_argument("--translator", action="append", default=None, metavar="SPEC",
                            help="translator model spec (default: $INTERCPT_MODEL or the default model); repeat "
                            "for a sweep")
        parser.add_argument("--user", action="append", default=None, metavar="SPEC|oracle|none",
                            help="who answers intercpt's questions: oracle (gold labels, default), none, or a model "
                            "spec for a simulated user that reads the context; repeat for a sweep")
        parser.add_argument("--limit", type=_positive, default=None, metavar="N",
                            help="at most N items per type × language, a seeded sample (default: all)")
        parser.add_argument("--seed", type=int, default=0, help="sampling and bootstrap seed (default: %(default)s)")
        parser.add_argument("--out", required=True, type=Path, metavar="DIR", help="run directory (resumable)")
        parser.add_argument("--concurrency", type=_positive, default=1, metavar="K",
                            help="items in flight at once; a vLLM server batches them (default: %(default)s)")
        parser.add_argument("--prompts", default="generalist", choices=PROMPT_VARIANTS,
                            help="detection and simulated-user prompts (default: %(default)s)")
        parser.add_argument("--max-questions", type=int, default=DEFAULT_MAX_QUESTIONS, metavar="J",
                            help="questions per item at most (default: %(default)s)")
        parser.add_argument("--bootstrap", type=_positive, default=1000, metavar="B",
                            help="bootstrap resamples for confidence intervals and tests (default: %(default)s)")
        parser.add_argument("--comet", default=None, metavar="MODEL",
                            help="also score with COMET (a checkpoint path, or a hub name on a machine with network); "
                            "runs in its own environment, created on first use")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")
        add_context_arguments(parser)
        return parser

    def cmd(self, args: argparse.Namespace) -> int:
        from evaluation.runner import EvalConfig, evaluate
        from evaluation.sweep import run_sweep

        from ..backends import default_model_spec
        from ..chain import METHODS

        unknown = [m for m in args.methods if m not in METHODS]
        if unknown:
            raise InputError(f"unknown method(s) {', '.join(unknown)}; choose from: {', '.join(METHODS)}")
        context_policy_from(args)  # a bad budget or strategy fails here, before any model loads
        translators = args.translator or [default_model_spec()]
        users = args.user or ["oracle"]
        base = dict(data=args.data, types=args.types, langs=args.langs, methods=args.methods, limit=args.limit,
                    seed=args.seed, prompts=args.prompts, max_questions=args.max_questions,
                    context_strategy=args.context_strategy, context_budget=args.context_budget,
                    context_encoder=args.context_encoder, concurrency=args.concurrency, bootstrap=args.bootstrap,
                    comet=args.comet)
        if len(translators) == 1 and len(users) == 1:
            config = EvalConfig(out=args.out, translator=translators[0], user=users[0], **base)
            evaluate(config, progress=not args.no_progress)
            print(f"report: {args.out / 'report.md'}")
        else:
            run_sweep(args.out, translators, users, base, progress=not args.no_progress)
            print(f"sweep report: {args.out / 'sweep.md'}")
        return 0


def cmd_init() -> list[CLISubcommand]:
    return [EvaluateCommand()]
