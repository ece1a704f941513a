"""``intercpt translate``: translate one text, asking first when it is ambiguous."""

from __future__ import annotations

import argparse
import sys

from ..errors import InputError
from ..languages import LANGUAGES
from ..users import USER_KINDS
from .common import (add_chain_arguments, add_model_argument, load_model_with_status, make_assistant, read_context,
                     read_text_argument)
from .types import CLISubcommand


class TranslateCommand(CLISubcommand):
    name = "translate"
    help = "translate English text into French, German, Spanish or Japanese"

    def subparser_init(self, subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
        parser = subparsers.add_parser(self.name, help=self.help, description=self.help)
        parser.add_argument("text", nargs="?", help="English text; '-' or omitted reads standard input")
        parser.add_argument("--to", required=True, metavar="LANG", help=f"target language: {', '.join(LANGUAGES)}")
        add_model_argument(parser)
        add_chain_arguments(parser)
        context = parser.add_mutually_exclusive_group()
        context.add_argument("--context", metavar="TEXT", help="background the simulated user or with-context reads")
        context.add_argument("--context-file", metavar="F", help="read the context from a UTF-8 text file")
        parser.add_argument("--user", choices=USER_KINDS, default=None,
                            help="who answers questions: human (default on a terminal or with --answer), "
                            "simulated (an LM reading the context), oracle (from --gold labels), none (skip)")
        parser.add_argument("--answer", action="append", default=[], metavar="TEXT",
                            help="answer the next question with TEXT (repeat for later questions)")
        parser.add_argument("--user-model", metavar="SPEC", help="model of the simulated user (default: --model)")
        parser.add_argument("--gold", action="append", default=[], metavar="KEY=VALUE",
                            help="oracle labels: formality=formal|informal|neutral, gender=masculine|feminine, "
                            "sense=WORD, referent=TEXT")
        parser.add_argument("--json", action="store_true", help="print the full transcript as JSON")
        return parser

    def cmd(self, args: argparse.Namespace) -> int:
        from ..backends import default_model_spec
        from ..inputs import validate_source
        from ..languages import language_name
        from .terminal import print_result

        language_name(args.to)
        source = validate_source(read_text_argument(args.text))
        context = read_context(args)
        user_kind = args.user or ("human" if args.answer or sys.stdin.isatty() else "none")
        gold = parse_gold(args.gold) if user_kind == "oracle" else {}
        if user_kind == "simulated" and not (context and context.strip()):
            raise InputError("the simulated user needs a context to answer from (--context or --context-file)")
        spec = args.model or default_model_spec()
        model = load_model_with_status(spec)
        assistant = make_assistant(model, spec, args.prompts)
        user = build_user(user_kind, args, model, spec, context, gold)
        transcript = assistant.run(source, args.to, method=args.method, context=context, user=user,
                                   max_questions=args.max_questions)
        if args.json:
            print(transcript.to_json())
        else:
            print_result(transcript)
        return 0


def parse_gold(items: list[str]) -> dict[str, str]:
    gold = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or key not in ("formality", "gender", "sense", "referent") or not value:
            raise InputError(f"--gold takes KEY=VALUE with KEY one of formality, gender, sense, referent; got {item!r}")
        gold[key] = value
    if not gold:
        raise InputError("the oracle user answers from gold labels: give them with --gold KEY=VALUE")
    return gold


def build_user(kind: str, args: argparse.Namespace, model, spec: str, context: str | None, gold: dict[str, str]):
    from ..users import HumanUser, NoUser, OracleUser, SimulatedUser, scripted_then
    from .terminal import ask_on_terminal

    if kind == "human":
        return HumanUser(scripted_then(args.answer, ask_on_terminal if sys.stdin.isatty() else None))
    if kind == "simulated":
        user_model = model if args.user_model in (None, spec) else load_model_with_status(args.user_model)
        return SimulatedUser(user_model, context, args.to, specialist=args.prompts == "specialist")
    if kind == "oracle":
        return OracleUser(gold)
    return NoUser()


def cmd_init() -> list[CLISubcommand]:
    return [TranslateCommand()]
