"""``intercpt translate``: translate one text, asking first when it is ambiguous."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict

from ..ambiguity import ANY_VALUE, ambiguity_types
from ..errors import InputError
from ..languages import LANGUAGES
from .common import (add_chain_options, add_model_argument, chain_options, load_glossary, load_model_with_status,
                     model_spec, read_text_argument, read_text_file)
from .sheet import add_sheet_arguments, answer_sheet, read_sheet_files, use_sheet
from .types import CLISubcommand


def gold_labels() -> dict[str, tuple[str, ...]]:
    """The gold labels an oracle answers from: each attribute the ambiguity table's types read their
    gold from, with the values their oracles know (``WORD``: any value, a word sense)."""
    labels: dict[str, dict[str, None]] = {}
    for kind in ambiguity_types().values():
        if kind.gold:
            labels.setdefault(kind.gold, {}).update(dict.fromkeys(kind.oracle))
    return {key: tuple("WORD" if value == ANY_VALUE else value for value in values) for key, values in labels.items()}


class TranslateCommand(CLISubcommand):
    name = "translate"
    help = "translate English text into French, German, Spanish or Japanese"

    def subparser_init(self, subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
        from ..options import USER_KINDS

        parser = subparsers.add_parser(self.name, help=self.help, description=self.help)
        parser.add_argument("text", nargs="?", help="English text; '-' or omitted reads standard input")
        parser.add_argument("--file", metavar="F",
                            help="translate a file, asking each question once for the whole document: a .txt "
                            "paragraph by paragraph (on standard output unless --out), or a .po/.pot, .xlf/.xliff, "
                            ".srt or .docx file into a file of the same structure, placeholders and tags kept")
        parser.add_argument("--out", metavar="F",
                            help="where --file's translation goes (default for a .po, .xliff, .srt or .docx: "
                            "the input's name with the language added, e.g. messages.fr.po)")
        parser.add_argument("--glossary", metavar="F",
                            help="term translations to keep: a CSV or TSV file (source,target per line) or TBX")
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
                            help="oracle labels: " + ", ".join(f"{key}={'|'.join(values)}"
                                                               for key, values in gold_labels().items()))
        parser.add_argument("--alternatives", action="store_true",
                            help="also translate under each option of a question left unanswered (two more "
                            "translations, each checked)")
        parser.add_argument("--json", action="store_true", help="print the full transcript as JSON")
        add_sheet_arguments(parser)
        add_chain_options(parser)
        return parser

    def validate(self, args: argparse.Namespace) -> None:
        from ..document import split_paragraphs
        from ..inputs import validate_source
        from ..languages import language_name

        language_name(args.to)
        if args.file is not None and args.text is not None:
            raise InputError("give either TEXT or --file, not both")
        if args.out is not None and args.file is None:
            raise InputError("--out names where --file's translation goes; give --file too")
        if args.alternatives and args.file is not None:
            raise InputError("--alternatives translates one text under each option; a --file's guesses are flagged instead")
        args.options = chain_options(args)
        read_sheet_files(args)
        args.glossary = load_glossary(args.glossary, args.to)
        args.units_file = read_units_file(args.file, args.out, args.to) if args.file is not None else None
        args.document = None
        if args.file is not None and args.units_file is None:
            args.document = read_text_file(args.file, "file")
            split_paragraphs(args.document)  # a document with nothing to translate fails here
        args.source = validate_source(read_text_argument(args.text)) if args.file is None else None
        if args.context_file is not None:
            args.context = read_text_file(args.context_file, "context file")
        has_context = bool(args.context and args.context.strip())
        if args.options.method == "with-context" and not has_context:
            raise InputError("the with-context method needs a context (--context or --context-file)")
        args.user = args.user or ("human" if args.answer or sys.stdin.isatty() else "none")
        if args.user == "simulated" and not has_context:
            raise InputError("the simulated user needs a context to answer from (--context or --context-file)")
        args.sheet = use_sheet(args)
        args.gold = parse_gold(args.gold) if args.user == "oracle" else {}
        args.model = model_spec(args.model)
        args.user_model = model_spec(args.user_model) if args.user_model else args.model

    def cmd(self, args: argparse.Namespace) -> int:
        from ..chain import Assistant
        from .terminal import print_result

        options = args.options
        model = load_model_with_status(args.model)
        assistant = Assistant.for_model(model, args.model, options)
        user, preferences, sheet = build_user(args, assistant), None, None
        if args.sheet:
            answered = answer_sheet(assistant, args, file_segments(args))
            if answered is None:
                return 0  # --plan: the sheet is printed, nothing is translated
            preferences, user, sheet = answered
        if args.units_file is not None:
            return translate_units_file(assistant, args, user, preferences, sheet)
        if args.document is not None:
            return translate_document(assistant, args, user, preferences)
        transcript = assistant.run(args.source, args.to, context=args.context, user=user, glossary=args.glossary,
                                   alternatives=args.alternatives)
        if args.json:
            print(transcript.to_json())
        else:
            print_result(transcript)
        return 0


def parse_gold(items: list[str]) -> dict[str, str]:
    keys = gold_labels()
    gold = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or key not in keys or not value:
            raise InputError(f"--gold takes KEY=VALUE with KEY one of {', '.join(keys)}; got {item!r}")
        gold[key] = value
    if not gold:
        raise InputError("the oracle user answers from gold labels: give them with --gold KEY=VALUE")
    return gold


def file_segments(args: argparse.Namespace) -> list[str]:
    """The texts ``--file``'s translator will be given, in order: what its question sheet reads."""
    from ..document import split_paragraphs
    from ..formats import translator_segments

    return translator_segments(args.units_file[0]) if args.units_file is not None else split_paragraphs(args.document)


def translate_document(assistant, args: argparse.Namespace, user, preferences=None) -> int:
    """Document mode: paragraphs on standard output, separated by blank lines; the account of each on stderr."""
    from ..document import DocumentTranslator
    from ..explain import explain

    def announce(number: int, total: int, paragraph: str, _context: str | None) -> None:
        print(f"[paragraph {number}/{total}] {paragraph[:70]}{'…' if len(paragraph) > 70 else ''}", file=sys.stderr)

    translator = DocumentTranslator(assistant, args.to, background=args.context, glossary=args.glossary)
    result = translator.translate(args.document, user, on_paragraph=announce, preferences=preferences)
    if args.json:
        print(result.to_json())
        return 0
    print(result.translation)
    for number, transcript in enumerate(result.paragraphs, 1):
        for line in explain(transcript):
            print(f"  · paragraph {number}: {line}", file=sys.stderr)
    return 0


def read_units_file(path: str, out: str | None, target_lang: str):
    """``--file`` read as translation units (with where they go), or None for text in document mode."""
    from pathlib import Path

    from ..formats import FORMATS, read_document

    source = Path(path)
    if out is None and (source.suffix.lower() == ".txt" or source.suffix.lower() not in FORMATS):
        return None  # any other file is text: document mode, on standard output
    document = read_document(source)
    if not document.units:
        raise InputError(f"{source}: nothing to translate (every unit is empty or already translated)")
    target = Path(out) if out is not None else source.with_name(f"{source.stem}.{target_lang}{source.suffix}")
    if target.resolve() == source.resolve():
        raise InputError(f"--out {target} would overwrite the file being translated; name another file")
    return document, target


def translate_units_file(assistant, args: argparse.Namespace, user, preferences=None, sheet=None) -> int:
    """A localisation file: every unit through the chain with one memory of answers (after an answered
    ``sheet``, each distinct unit once), written in the same structure; placeholders checked per unit. The
    account goes to stderr, or the record to stdout (--json)."""
    from ..document import DocumentTranslator, noted
    from ..formats import translate_document

    document, out = args.units_file
    translator = DocumentTranslator(assistant, args.to, background=args.context, glossary=args.glossary)
    transcripts: list = []
    report = translate_document(document, out, noted(translator.segment_translator(user, transcripts, preferences,
                                                                                   sheet), transcripts),
                                target_lang=args.to, progress=not args.json)
    asked = [turn for t in transcripts for turn in t.turns if turn.answered_by != "preference"]
    if args.json:
        print(json.dumps(file_record(report, out, transcripts), ensure_ascii=False, indent=2))
        return 0
    print(f"{len(document.units)} units translated into {out}", file=sys.stderr)
    for turn in asked:
        print(f"  · asked once for the whole file: {turn.question} → {turn.answer or 'skipped'}", file=sys.stderr)
    for unit, check in zip(document.units, report.checks):
        if check.status == "fail":
            print(f"  · unit {unit.id}: placeholders {check.observed}; flagged for review", file=sys.stderr)
    return 0


def file_record(report, out, transcripts: list) -> dict:
    """What ``--file … --json`` prints: each unit's placeholder check and every segment's transcript."""
    return {"file": str(report.document.path), "out": str(out),
            "units": [{"id": unit.id, "placeholders": asdict(check)}
                      for unit, check in zip(report.document.units, report.checks)],
            "transcripts": [t.to_dict() for t in transcripts]}


def build_user(args: argparse.Namespace, assistant):
    """Whoever answers the questions, made the way the UI and the evaluator make one: a simulated user
    on ``--user-model`` is that model's Assistant's."""
    from ..chain import Assistant, scripted_then
    from .terminal import ask_on_terminal

    if args.user == "simulated" and args.user_model != args.model:
        assistant = Assistant.for_model(load_model_with_status(args.user_model), args.user_model, args.options)
    return assistant.user(args.user, args.to, context=args.context, gold=args.gold,
                          ask=scripted_then(args.answer, ask_on_terminal if sys.stdin.isatty() else None))
