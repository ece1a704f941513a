"""``intercpt ui``: the web app and the HTTP APIs on one port (a plugin of the ``intercpt`` console script)."""

from __future__ import annotations

import argparse
import sys

from assistant.cli.common import (add_chain_options, add_listen_arguments, add_model_argument, chain_options,
                                  load_model_with_status, model_spec)
from assistant.cli.types import CLISubcommand

# The page offers these per request; the command line sets how long contexts are bounded.
CHOSEN_IN_THE_PAGE = ("method", "max_questions", "prompts")


class UICommand(CLISubcommand):
    name = "ui"
    help = "open the web app (a chat that asks before it translates) and the DeepL, LibreTranslate and clarify APIs"

    def subparser_init(self, subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
        from assistant.cli.options import add_options

        from .server import ServerSettings

        parser = subparsers.add_parser(self.name, help=self.help, description=self.help +
                                       "; the API docs are at /docs")
        add_model_argument(parser)
        add_listen_arguments(parser, port=7860)
        add_chain_options(parser, exclude=CHOSEN_IN_THE_PAGE)
        add_options(parser.add_argument_group("sharing and bounds"), ServerSettings)
        return parser

    def validate(self, args: argparse.Namespace) -> None:
        from assistant.cli.options import from_args

        from .server import ServerSettings, exposure_warnings

        args.options = chain_options(args)
        args.settings = from_args(ServerSettings, args)
        args.warnings = exposure_warnings(args.settings, args.host)  # a bad --auth or key file fails here
        args.model = model_spec(args.model)

    def cmd(self, args: argparse.Namespace) -> int:
        import uvicorn

        from assistant.chain import Assistant
        from assistant.nlp.preload import load_language_data

        from .server import build_app

        for warning in args.warnings:
            print(f"intercpt: warning: {warning}", file=sys.stderr)
        model = load_model_with_status(args.model)
        assistant = Assistant.for_model(model, args.model, args.options)
        # A server batches concurrent requests; the in-process model serves one at a time.
        concurrency = 8 if args.model.backend in ("vllm", "openai") else 1
        load_language_data()  # before the server takes requests: no request's deadline pays for loading it
        app = build_app(assistant, str(args.model), args.settings, host=args.host, concurrency=concurrency)
        print(f"intercpt: the web app is at http://{args.host}:{args.port}/ and the API docs at /docs",
              file=sys.stderr)
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
        return 0
