"""``intercpt evaluate``: run the chain and its baselines over AmbigMT-style data and report the scores.

A plugin of the ``intercpt`` console script; its options are generated from ``EvalConfig``'s
fields (and the ``ChainOptions`` nested in it). Fields marked ``sweep`` may be given several
times: one run per combination, plus scaling plots.
"""

from __future__ import annotations

import argparse
import dataclasses
import shlex
import sys
from itertools import product

from assistant.cli.types import CLISubcommand


def swept_fields(config_class: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(config_class) if f.metadata.get("sweep"))


class EvaluateCommand(CLISubcommand):
    name = "evaluate"
    help = "score the chain and its baselines on AmbigMT, CoCoA-MT, GATE or a JSONL data set (resumable)"

    def subparser_init(self, subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
        from assistant.cli.options import add_options

        from .config import EvalConfig

        parser = subparsers.add_parser(
            self.name, help=self.help, description=self.help + ". Rerun the same command to finish a killed run; "
            "give --translator or --user several times for a sweep (one sub-run each, plus scaling plots).")
        add_options(parser, EvalConfig, repeatable=swept_fields(EvalConfig))
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")
        return parser

    def validate(self, args: argparse.Namespace) -> None:
        """Build the config of every run, so a bad value fails before any model loads."""
        from assistant.cli.options import from_args

        from .config import EvalConfig

        swept = {name: getattr(args, name) for name in swept_fields(EvalConfig) if hasattr(args, name)}
        args.configs = [from_args(EvalConfig, args, **dict(zip(swept, values))) for values in product(*swept.values())]
        args.swept = swept

    def cmd(self, args: argparse.Namespace) -> int:
        from .console import print_summary
        from .runner import evaluate
        from .sweep import run_sweep

        config = args.configs[0]
        resume = shlex.join(["intercpt", *sys.argv[1:]])  # rerunning the same command resumes
        if len(args.configs) == 1:
            summary = evaluate(config, progress=not args.no_progress, resume_command=resume)
            print_summary(summary, str(config.out / "report.md"))
            return 0
        run_sweep(config, args.swept.get("translator", [config.translator]), args.swept.get("user", [config.user]),
                  progress=not args.no_progress, resume_command=resume)
        print(f"sweep report: {config.out / 'sweep.md'}")
        return 0
