"""``intercpt serve``: run a vLLM OpenAI-compatible server in the foreground for other clients."""

from __future__ import annotations

import argparse

from .common import add_listen_arguments
from .types import CLISubcommand


class ServeCommand(CLISubcommand):
    name = "serve"
    help = "start a vLLM server for a model and keep it running until Ctrl-C"

    def subparser_init(self, subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
        parser = subparsers.add_parser(
            self.name,
            help=self.help,
            description=self.help + ". intercpt commands given --model vllm:<same model> reuse it. The server "
            "gets flags tuned to the chain (prefix caching, context length, KV cache, the settings hybrid "
            "SSM/attention models need); arguments after '--' override them.",
        )
        parser.add_argument("--model", metavar="SPEC",
                            help="vllm:<hf-id | local dir | file.gguf | @preset> (the 'vllm:' prefix may be left out)")
        parser.add_argument("--list-presets", action="store_true",
                            help="list the backbone presets (@name), their models and the hardware they need")
        add_listen_arguments(parser, port=8000)
        parser.add_argument("vllm_args", nargs=argparse.REMAINDER,
                            help="after '--': extra arguments passed to vLLM's server, overriding intercpt's")
        return parser

    def validate(self, args: argparse.Namespace) -> None:
        from ..backends.spec import ModelSpec
        from ..errors import ModelSpecError

        if args.list_presets:
            return
        if not args.model:
            raise ModelSpecError("serve needs --model SPEC (or --list-presets)")
        args.model = ModelSpec.parse(args.model if ":" in args.model else f"vllm:{args.model}")
        if args.model.backend not in ("vllm", "transformers"):
            raise ModelSpecError("serve launches vLLM: give vllm:<hf-id | local dir | file.gguf | @preset>")

    def cmd(self, args: argparse.Namespace) -> int:
        from ..backends import vllm

        if args.list_presets:
            print_presets()
            return 0
        spec = args.model
        model, served_name = vllm.resolve_model(spec.target)
        running = vllm.find_running(model)
        if running:
            print(f"A vLLM server for this model already runs at {running.base_url} (pid {running.pid}).")
            return 0
        extra = tuple(a for a in args.vllm_args if a != "--")
        record = vllm.ensure_server(spec.target, host=args.host, port=args.port, extra_args=extra)
        try:
            print(f"Serving {served_name} at {record.base_url}")
            print(f"Use it with --model vllm:{spec.target} (the server's API key is in its record, "
                  f"{vllm.Registry(model).record_path}, readable by you only)")
            print("Press Ctrl-C to stop.")
            vllm.wait_stopped(record)
        except KeyboardInterrupt:
            return 0
        finally:
            vllm.stop(record)
        print(f"The server stopped on its own; log: {record.log_path}")
        return 1


def print_presets() -> None:
    from rich.console import Console
    from rich.table import Table

    from ..backends.presets import hybrid_kind, presets

    table = Table("preset", "model", "family", "hardware", box=None)
    for preset in presets().values():
        kind = hybrid_kind(preset.architecture)
        table.add_row(f"@{preset.name}", preset.model, f"hybrid ({kind})" if kind else "dense", preset.hardware)
    Console(width=160).print(table)
