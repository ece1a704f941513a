"""``intercpt chat``: a terminal session of sentences, questions and translations."""

from __future__ import annotations

import argparse

from ..languages import LANGUAGES
from .common import add_chain_arguments, add_model_argument, load_model_with_status
from .types import CLISubcommand

QUIT = {"/quit", "/exit", ":q"}


class ChatCommand(CLISubcommand):
    name = "chat"
    help = "translate sentence after sentence on the terminal, answering questions as they come"

    def subparser_init(self, subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
        parser = subparsers.add_parser(
            self.name, help=self.help,
            description=self.help + '. Answers that state a lasting preference ("always formal") are '
            "remembered for the session. An empty line or /quit ends it.",
        )
        parser.add_argument("--to", required=True, metavar="LANG", help=f"target language: {', '.join(LANGUAGES)}")
        add_model_argument(parser)
        add_chain_arguments(parser)
        return parser

    def cmd(self, args: argparse.Namespace) -> int:
        from ..backends import default_model_spec
        from ..chain import Assistant
        from ..dialogue import PreferenceMemory
        from ..errors import InputError
        from ..languages import language_name
        from ..users import HumanUser
        from .terminal import ask_on_terminal, print_result

        language_name(args.to)
        spec = args.model or default_model_spec()
        assistant = Assistant.for_model(load_model_with_status(spec), spec, prompts=args.prompts)
        preferences = PreferenceMemory()
        user = HumanUser(ask_on_terminal)
        print(f"Translating into {language_name(args.to)}. Type English text; an empty line or /quit ends.")
        while True:
            try:
                line = input("en> ").strip()
            except EOFError:
                break
            if not line or line in QUIT:
                break
            try:
                transcript = assistant.run(line, args.to, method=args.method, user=user,
                                           max_questions=args.max_questions, preferences=preferences)
            except InputError as err:
                print(f"intercpt: {err}")
                continue
            print_result(transcript)
        return 0


def cmd_init() -> list[CLISubcommand]:
    return [ChatCommand()]
