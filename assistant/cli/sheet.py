"""The question sheet on the command line: ``--plan`` prints it, ``--answers-file`` and ``--profile`` answer
it, and a terminal asks what is left, one question after another, before the file is translated."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from ..errors import InputError

SHEET_FLAGS = ("plan", "answers_file", "profile")


def add_sheet_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("question sheet (with --file: every question asked once, before translating)")
    group.add_argument("--plan", nargs="?", const="json", choices=("json", "yaml"),
                       help="print the file's question sheet (JSON, or YAML) and exit without translating")
    group.add_argument("--answers-file", metavar="A",
                       help="answer the sheet from a project profile (YAML: register per language, people, senses, "
                       "referents); the questions it does not answer are guessed and flagged for review")
    group.add_argument("--profile", metavar="FILE",
                       help="the project's saved answers: read if it exists, and every new answer written back")


def read_sheet_files(args: argparse.Namespace) -> None:
    """Read ``--answers-file`` and ``--profile`` before any model loads (a bad file fails in one line); the
    glossary the profile names stands in for a missing ``--glossary``."""
    from ..profile import glossary_path, load_profile

    given = _sheet_flags(args)
    if given and args.file is None:
        raise InputError(f"{given[0]} works on the question sheet of a --file; give --file too")
    if given and args.answer:
        raise InputError("--answer answers questions in reading order; answer a question sheet with --answers-file "
                         "or on the terminal")
    args.answers = load_profile(args.answers_file) if args.answers_file else None
    args.project = load_profile(args.profile, missing_ok=True) if args.profile else None
    if args.glossary is None:
        named = next((glossary_path(p, f) for p, f in ((args.project, args.profile), (args.answers, args.answers_file))
                      if p is not None and p.glossary), None)
        args.glossary = str(named) if named else None
    elif args.project is not None:
        args.project.glossary = os.path.relpath(Path(args.glossary).resolve(), Path(args.profile).resolve().parent)


def use_sheet(args: argparse.Namespace) -> bool:
    """Whether a file is asked about up front: with a sheet flag, or where a person answers on the terminal
    (``--answer`` keeps asking in reading order; a simulated user or an oracle answers each text)."""
    given = _sheet_flags(args)
    wanted = bool(given) or (args.file is not None and args.user == "human" and not args.answer)
    if given and (args.options.method != "intercpt" or args.user not in ("human", "none")):
        raise InputError(f"{given[0]}: a question sheet is answered by a person, with the intercpt method "
                         "(not --user simulated or oracle, nor a baseline)")
    return wanted and args.options.method == "intercpt"


def _sheet_flags(args: argparse.Namespace) -> list[str]:
    """The sheet's options given, as written on the command line."""
    return [f"--{name.replace('_', '-')}" for name in SHEET_FLAGS if getattr(args, name)]


def answer_sheet(assistant, args: argparse.Namespace, segments: list[str]):
    """Build the sheet, answer it (files, then the terminal), keep new answers in the profile; the memory and
    the user that apply the answers and the sheet itself (its questions, put without a detection call),
    or None where ``--plan`` printed the sheet instead."""
    from ..profile import Profile, save_profile
    from ..sheet import prepared_sheet
    from .terminal import ask_sheet_on_terminal

    known = (args.project or Profile()).updated_with(args.answers or Profile())
    sheet = prepared_sheet(assistant.steps, segments, args.to, known, progress=not args.json)
    if args.plan:
        print(render_sheet(sheet, args.plan))
        return None
    if args.user == "human" and sys.stdin.isatty():
        ask_sheet_on_terminal(sheet)
    if args.project is not None:
        added = sheet.record_in(args.project)
        save_profile(args.project, args.profile)
        print(f"{added} new answer{'s' if added != 1 else ''} saved in {args.profile}", file=sys.stderr)
    return sheet.memory(known), sheet.user(known), sheet


def render_sheet(sheet, form: str) -> str:
    import yaml

    data = sheet.to_dict()
    if form == "yaml":
        return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1000, default_flow_style=None).rstrip()
    return json.dumps(data, ensure_ascii=False, indent=2)
