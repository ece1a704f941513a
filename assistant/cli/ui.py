"""``intercpt ui``: the browser app on one model."""

from __future__ import annotations

import argparse

from .common import add_model_argument, load_model_with_status
from .types import CLISubcommand


class UICommand(CLISubcommand):
    name = "ui"
    help = "open the web app: a chat that asks before it translates"

    def subparser_init(self, subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
        parser = subparsers.add_parser(self.name, help=self.help, description=self.help)
        add_model_argument(parser)
        parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default: %(default)s)")
        parser.add_argument("--port", type=int, default=7860, help="port to listen on (default: %(default)s)")
        return parser

    def cmd(self, args: argparse.Namespace) -> int:
        from ui.app import build_demo

        from ..backends import ModelSpec, default_model_spec
        from ..chain import PROMPT_VARIANTS, Assistant

        spec = args.model or default_model_spec()
        model = load_model_with_status(spec)
        assistants = {variant: Assistant.for_model(model, spec, prompts=variant) for variant in PROMPT_VARIANTS}
        # A server batches concurrent requests; the in-process model serves one at a time.
        concurrency = 8 if ModelSpec.parse(spec).backend in ("vllm", "openai") else 1
        demo = build_demo(assistants, spec, concurrency=concurrency)
        demo.queue(default_concurrency_limit=concurrency).launch(server_name=args.host, server_port=args.port)
        return 0


def cmd_init() -> list[CLISubcommand]:
    return [UICommand()]
