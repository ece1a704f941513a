"""``intercpt ui``: the browser app on one model (a plugin of the ``intercpt`` console script)."""

from __future__ import annotations

import argparse

from assistant.cli.common import (add_chain_options, add_listen_arguments, add_model_argument, chain_options,
                                  load_model_with_status, model_spec)
from assistant.cli.types import CLISubcommand

# The page offers these per request; the command line sets how long contexts are bounded.
CHOSEN_IN_THE_PAGE = ("method", "max_questions", "prompts")


class UICommand(CLISubcommand):
    name = "ui"
    help = "open the web app: a chat that asks before it translates"

    def subparser_init(self, subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
        parser = subparsers.add_parser(self.name, help=self.help, description=self.help)
        add_model_argument(parser)
        add_listen_arguments(parser, port=7860)
        add_chain_options(parser, exclude=CHOSEN_IN_THE_PAGE)
        return parser

    def validate(self, args: argparse.Namespace) -> None:
        args.options = chain_options(args)
        args.model = model_spec(args.model)

    def cmd(self, args: argparse.Namespace) -> int:
        from assistant.chain import PROMPT_VARIANTS, Assistant

        from .app import build_demo

        model = load_model_with_status(args.model)
        assistants = {variant: Assistant.for_model(model, args.model, prompts=variant,
                                                   context_policy=args.options.context_policy())
                      for variant in PROMPT_VARIANTS}
        # A server batches concurrent requests; the in-process model serves one at a time.
        concurrency = 8 if args.model.backend in ("vllm", "openai") else 1
        demo = build_demo(assistants, str(args.model), concurrency=concurrency)
        demo.queue(default_concurrency_limit=concurrency).launch(server_name=args.host, server_port=args.port)
        return 0
