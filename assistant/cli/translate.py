"""``intercpt translate``: translate one text, asking first when it is ambiguous."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import InputError
from ..languages import LANGUAGES
from ..users import USER_KINDS
from .common import (add_chain_arguments, add_context_arguments, add_model_argument, context_policy_from,
                     load_model_with_status, read_context, read_text_argument)
from .types import CLISubcommand


class TranslateCommand(CLISubcommand):
    name = "translate"
    help = "translate English text into French, German, Spanish or Japanese"

    def subparser_init(self, subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
        parser = subparsers.add_parser(self.name, help=self.help, description=self.help)
        parser.add_argument("text", nargs="?", help="English text; '-' or omitted reads standard input")
        parser.add_argument("--file", metavar="F",
                            help="translate a UTF-8 text file paragraph by paragraph (document mode): each question "
                            "is asked once and its answer kept for the whole document")
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
        add_context_arguments(parser)
        return parser

    def cmd(self, args: argparse.Namespace) -> int:
        from ..backends import default_model_spec
        from ..chain import Assistant
        from ..inputs import validate_source
        from ..languages import language_name
        from ..document import split_paragraphs
        from .terminal import print_result

        language_name(args.to)
        if args.file is not None and args.text is not None:
            raise InputError("give either TEXT or --file, not both")
        document = read_document(args.file) if args.file is not None else None
        if document is not None:
            split_paragraphs(document)  # a bad document fails before the model loads
        source = validate_source(read_text_argument(args.text)) if document is None else None
        context = read_context(args)
        policy = context_policy_from(args)
        user_kind = args.user or ("human" if args.answer or sys.stdin.isatty() else "none")
        gold = parse_gold(args.gold) if user_kind == "oracle" else {}
        if user_kind == "simulated" and not (context and context.strip()):
            raise InputError("the simulated user needs a context to answer from (--context or --context-file)")
        spec = args.model or default_model_spec()
        model = load_model_with_status(spec)
        assistant = Assistant.for_model(model, spec, prompts=args.prompts, context_policy=policy)
        user = build_user(user_kind, args, model, spec, context, gold, policy)
        if document is not None:
            return translate_document(assistant, document, args, context, user)
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


def read_document(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{path} is not UTF-8 text (binary data?)") from None
    except OSError as err:
        raise InputError(f"cannot read {path}: {err.strerror or err}") from None


def translate_document(assistant, document: str, args: argparse.Namespace, context: str | None, user) -> int:
    """Document mode: paragraphs on standard output, separated by blank lines; the account of each on stderr."""
    from ..explain import explain
    from ..document import DocumentTranslator

    def announce(number: int, total: int, paragraph: str, _context: str | None) -> None:
        print(f"[paragraph {number}/{total}] {paragraph[:70]}{'…' if len(paragraph) > 70 else ''}", file=sys.stderr)

    translator = DocumentTranslator(assistant, args.to, method=args.method, max_questions=args.max_questions,
                                    background=context)
    result = translator.translate(document, user, on_paragraph=announce)
    if args.json:
        print(result.to_json())
        return 0
    print(result.translation)
    for number, transcript in enumerate(result.paragraphs, 1):
        for line in explain(transcript):
            print(f"  · paragraph {number}: {line}", file=sys.stderr)
    return 0


def build_user(kind: str, args: argparse.Namespace, model, spec: str, context: str | None, gold: dict[str, str],
               context_policy=None):
    from ..users import HumanUser, NoUser, OracleUser, SimulatedUser, scripted_then
    from .terminal import ask_on_terminal

    if kind == "human":
        return HumanUser(scripted_then(args.answer, ask_on_terminal if sys.stdin.isatty() else None))
    if kind == "simulated":
        from ..backends import supports_structured_output

        user_spec = args.user_model or spec
        user_model = model if user_spec == spec else load_model_with_status(user_spec)
        return SimulatedUser(user_model, context, args.to, specialist=args.prompts == "specialist",
                             context_policy=context_policy, structured_output=supports_structured_output(user_spec))
    if kind == "oracle":
        return OracleUser(gold)
    return NoUser()


def cmd_init() -> list[CLISubcommand]:
    return [TranslateCommand()]
