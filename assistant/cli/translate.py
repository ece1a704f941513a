"""``intercpt translate``: translate one text and print the result or its transcript."""

from __future__ import annotations

import argparse

from ..languages import LANGUAGES
from .common import add_model_argument, load_model_with_status, read_text_argument
from .types import CLISubcommand


class TranslateCommand(CLISubcommand):
    name = "translate"
    help = "translate English text into French, German, Spanish or Japanese"

    def subparser_init(self, subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
        parser = subparsers.add_parser(self.name, help=self.help, description=self.help)
        parser.add_argument("text", nargs="?", help="English text; '-' or omitted reads standard input")
        parser.add_argument("--to", required=True, metavar="LANG", help=f"target language: {', '.join(LANGUAGES)}")
        add_model_argument(parser)
        parser.add_argument("--json", action="store_true", help="print the full transcript as JSON")
        return parser

    def cmd(self, args: argparse.Namespace) -> int:
        from ..backends import default_model_spec
        from ..core import Assistant
        from ..inputs import validate_source
        from ..languages import language_name

        language_name(args.to)
        source = validate_source(read_text_argument(args.text))
        spec = args.model or default_model_spec()
        assistant = Assistant(load_model_with_status(spec), spec)
        transcript = assistant.translate(source, args.to)
        print(transcript.to_json() if args.json else transcript.translation)
        return 0


def cmd_init() -> list[CLISubcommand]:
    return [TranslateCommand()]
