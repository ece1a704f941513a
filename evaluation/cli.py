"""``intercpt evaluate``: run the chain and its baselines over AmbigMT-style data and report the scores.

A plugin of the ``intercpt`` console script; its options are generated from ``EvalConfig``.
"""

from __future__ import annotations

import argparse
import dataclasses
from itertools import product

from assistant.cli.types import CLISubcommand

# Given several times, these make a sweep: one run per translator × user.
SWEPT = ("translator", "user")


class EvaluateCommand(CLISubcommand):
    name = "evaluate"
    help = "score the chain and its baselines on AmbigMT or a JSONL data set (resumable)"

    def subparser_init(self, subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
        from assistant.cli.options import add_options

        from .runner import EvalConfig

        parser = subparsers.add_parser(
            self.name, help=self.help, description=self.help + ". Rerun the same command to finish a killed run; "
            "give --translator or --user several times for a sweep (one sub-run each, plus scaling plots).")
        add_options(parser, EvalConfig, repeatable=SWEPT)
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")
        return parser

    def validate(self, args: argparse.Namespace) -> None:
        """Build every run's config, so a bad value fails before any model loads."""
        from assistant.cli.options import from_args

        from .runner import EvalConfig

        sweep = {name: getattr(args, name) for name in SWEPT if hasattr(args, name)}
        args.configs = [from_args(EvalConfig, args, **dict(zip(sweep, values)))
                        for values in product(*sweep.values())]

    def cmd(self, args: argparse.Namespace) -> int:
        from .runner import evaluate
        from .sweep import run_sweep

        first = args.configs[0]
        if len(args.configs) == 1:
            evaluate(first, progress=not args.no_progress)
            print(f"report: {first.out / 'report.md'}")
            return 0
        base = {f.name: getattr(first, f.name) for f in dataclasses.fields(first) if f.name not in ("out", *SWEPT)}
        translators = list(dict.fromkeys(c.translator for c in args.configs))
        users = list(dict.fromkeys(c.user for c in args.configs))
        run_sweep(first.out, translators, users, base, progress=not args.no_progress)
        print(f"sweep report: {first.out / 'sweep.md'}")
        return 0

