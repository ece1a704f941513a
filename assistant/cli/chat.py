"""``intercpt chat``: a terminal session of sentences, questions and translations."""

from __future__ import annotations

import argparse

from ..languages import LANGUAGES
from .common import (add_chain_options, add_model_argument, chain_options, load_glossary, load_model_with_status,
                     model_spec)
from .types import CLISubcommand

QUIT = {"/quit", "/exit", ":q"}
# A chat session has no context to read, so the options that bound one do not apply.
NO_CONTEXT = ("context_strategy", "context_budget", "context_encoder")


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
        parser.add_argument("--glossary", metavar="F",
                            help="term translations to keep: a CSV or TSV file (source,target per line) or TBX")
        add_chain_options(parser, exclude=NO_CONTEXT)
        return parser

    def validate(self, args: argparse.Namespace) -> None:
        from ..errors import InputError
        from ..languages import language_name

        language_name(args.to)
        args.options = chain_options(args)
        if args.options.method == "with-context":
            raise InputError("chat has no context to read: use --method intercpt or no-extra")
        args.glossary = load_glossary(args.glossary, args.to)
        args.model = model_spec(args.model)

    def cmd(self, args: argparse.Namespace) -> int:
        from ..chain import Assistant
        from ..dialogue import PreferenceMemory
        from ..errors import InputError
        from ..languages import language_name
        from .terminal import ask_on_terminal, print_result

        options = args.options
        assistant = Assistant.for_model(load_model_with_status(args.model), args.model, options)
        preferences = PreferenceMemory()
        user = assistant.user("human", args.to, ask=ask_on_terminal)
        print(f"Translating into {language_name(args.to)}. Type English text; an empty line or /quit ends.")
        while True:
            try:
                line = input("en> ").strip()
            except EOFError:
                break
            if not line or line in QUIT:
                break
            try:
                transcript = assistant.run(line, args.to, user=user, preferences=preferences,
                                           glossary=args.glossary)
            except InputError as err:
                print(f"intercpt: {err}")
                continue
            print_result(transcript)
        return 0
