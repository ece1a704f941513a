"""``intercpt translate``: translate one text, asking first when it is ambiguous."""

from __future__ import annotations

import argparse
import sys

from ..errors import InputError
from ..languages import LANGUAGES
from .common import (add_chain_options, add_model_argument, chain_options, load_model_with_status, model_spec,
                     read_text_argument, read_text_file)
from .types import CLISubcommand

GOLD_KEYS = ("formality", "gender", "sense", "referent")


class TranslateCommand(CLISubcommand):
    name = "translate"
    help = "translate English text into French, German, Spanish or Japanese"

    def subparser_init(self, subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
        from ..options import USER_KINDS

        parser = subparsers.add_parser(self.name, help=self.help, description=self.help)
        parser.add_argument("text", nargs="?", help="English text; '-' or omitted reads standard input")
        parser.add_argument("--file", metavar="F",
                            help="translate a UTF-8 text file paragraph by paragraph (document mode): each question "
                            "is asked once and its answer kept for the whole document")
        parser.add_argument("--to", required=True, metavar="LANG", help=f"target language: {', '.join(LANGUAGES)}")
        add_model_argument(parser)
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
        add_chain_options(parser)
        return parser

    def validate(self, args: argparse.Namespace) -> None:
        from ..document import split_paragraphs
        from ..inputs import validate_source
        from ..languages import language_name

        language_name(args.to)
        if args.file is not None and args.text is not None:
            raise InputError("give either TEXT or --file, not both")
        args.options = chain_options(args)
        args.document = read_text_file(args.file, "file") if args.file is not None else None
        if args.document is not None:
            split_paragraphs(args.document)  # a document with nothing to translate fails here
        args.source = validate_source(read_text_argument(args.text)) if args.document is None else None
        if args.context_file is not None:
            args.context = read_text_file(args.context_file, "context file")
        has_context = bool(args.context and args.context.strip())
        if args.options.method == "with-context" and not has_context:
            raise InputError("the with-context method needs a context (--context or --context-file)")
        args.user = args.user or ("human" if args.answer or sys.stdin.isatty() else "none")
        if args.user == "simulated" and not has_context:
            raise InputError("the simulated user needs a context to answer from (--context or --context-file)")
        args.gold = parse_gold(args.gold) if args.user == "oracle" else {}
        args.model = model_spec(args.model)
        args.user_model = model_spec(args.user_model) if args.user_model else args.model

    def cmd(self, args: argparse.Namespace) -> int:
        from ..chain import Assistant
        from .terminal import print_result

        options = args.options
        model = load_model_with_status(args.model)
        assistant = Assistant.for_model(model, args.model, prompts=options.prompts,
                                        context_policy=options.context_policy())
        user = build_user(args, model)
        if args.document is not None:
            return translate_document(assistant, args, user)
        transcript = assistant.run(args.source, args.to, method=options.method, context=args.context, user=user,
                                   max_questions=options.max_questions)
        if args.json:
            print(transcript.to_json())
        else:
            print_result(transcript)
        return 0


def parse_gold(items: list[str]) -> dict[str, str]:
    gold = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or key not in GOLD_KEYS or not value:
            raise InputError(f"--gold takes KEY=VALUE with KEY one of {', '.join(GOLD_KEYS)}; got {item!r}")
        gold[key] = value
    if not gold:
        raise InputError("the oracle user answers from gold labels: give them with --gold KEY=VALUE")
    return gold


def translate_document(assistant, args: argparse.Namespace, user) -> int:
    """Document mode: paragraphs on standard output, separated by blank lines; the account of each on stderr."""
    from ..document import DocumentTranslator
    from ..explain import explain

    def announce(number: int, total: int, paragraph: str, _context: str | None) -> None:
        print(f"[paragraph {number}/{total}] {paragraph[:70]}{'…' if len(paragraph) > 70 else ''}", file=sys.stderr)

    translator = DocumentTranslator(assistant, args.to, method=args.options.method,
                                    max_questions=args.options.max_questions, background=args.context)
    result = translator.translate(args.document, user, on_paragraph=announce)
    if args.json:
        print(result.to_json())
        return 0
    print(result.translation)
    for number, transcript in enumerate(result.paragraphs, 1):
        for line in explain(transcript):
            print(f"  · paragraph {number}: {line}", file=sys.stderr)
    return 0


def build_user(args: argparse.Namespace, model):
    """Whoever answers the questions, through the one factory the UI and the evaluator use too."""
    from ..backends import supports_structured_output
    from ..users import make_user, scripted_then
    from .terminal import ask_on_terminal

    user_model = None
    if args.user == "simulated":
        user_model = model if args.user_model == args.model else load_model_with_status(args.user_model)
    return make_user(args.user, target_lang=args.to, chat_model=user_model,
                     structured_output=supports_structured_output(args.user_model), context=args.context,
                     gold=args.gold, ask=scripted_then(args.answer, ask_on_terminal if sys.stdin.isatty() else None),
                     specialist=args.options.prompts == "specialist", context_policy=args.options.context_policy())
