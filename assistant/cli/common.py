"""Options and helpers that several subcommands share."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..backends import MODEL_ENV_VAR, default_model_spec
from ..backends.spec import SPEC_FORMS
from ..errors import InputError


def add_model_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--model",
        default=None,
        metavar="SPEC",
        help=f"model to use: {'; '.join(SPEC_FORMS.values())} "
        f"(default: ${MODEL_ENV_VAR} or {default_model_spec()})",
    )


def read_text_argument(text: str | None) -> str:
    """The TEXT argument, or standard input when it is '-' or omitted and input is piped."""
    if text is not None and text != "-":
        return text
    if text is None and sys.stdin.isatty():
        raise InputError("give the text to translate as an argument, or pipe it on standard input")
    data = sys.stdin.buffer.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("standard input is not UTF-8 text (binary data?)") from None


def load_model_with_status(spec: str):
    """Load a chat model while a status line tells the person what is happening."""
    from rich.console import Console

    from ..backends import load_chat_model

    with Console(stderr=True).status(f"Loading {spec} (the first load can take a minute)…"):
        return load_chat_model(spec)


def add_chain_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of the chain shared by ``translate`` and ``chat``."""
    from ..chain import DEFAULT_MAX_QUESTIONS, METHODS, PROMPT_VARIANTS

    parser.add_argument("--method", default="intercpt", choices=METHODS,
                        help="intercpt asks before translating; with-context translates given the context; "
                        "no-extra translates the text alone (default: %(default)s)")
    parser.add_argument("--max-questions", type=int, default=DEFAULT_MAX_QUESTIONS, metavar="J",
                        help="ask at most J questions per text (default: %(default)s)")
    parser.add_argument("--prompts", default="generalist", choices=PROMPT_VARIANTS,
                        help="detection prompts with examples of every ambiguity type, or of the one found "
                        "(default: %(default)s)")


def add_context_arguments(parser: argparse.ArgumentParser) -> None:
    """How much of a long context the simulated user and the with-context translator read."""
    from ..context import DEFAULT_BUDGET, DEFAULT_STRATEGY, ENCODERS, STRATEGIES

    group = parser.add_argument_group("long contexts")
    group.add_argument("--context-strategy", default=DEFAULT_STRATEGY, choices=STRATEGIES,
                       help="extract: the most relevant sentences within the budget; extract+abstract: also a model "
                       "summary of them; truncate-head: drop the beginning, keep the last tokens; truncate-tail: "
                       "drop the end, keep the first tokens; full: all of it (default: %(default)s)")
    group.add_argument("--context-budget", type=int, default=DEFAULT_BUDGET, metavar="TOKENS",
                       help="most context tokens read, counted as spaCy word tokens (default: %(default)s)")
    group.add_argument("--context-encoder", default=None, choices=sorted(ENCODERS),
                       help="a local sentence encoder that adds meaning to the extract's relevance score "
                       "(needs its package; default: none)")


def context_policy_from(args: argparse.Namespace):
    """The ContextPolicy the --context-* options describe (checked before any model loads)."""
    from ..context import ContextPolicy

    return ContextPolicy(strategy=args.context_strategy, budget=args.context_budget, encoder=args.context_encoder)


def read_context(args: argparse.Namespace) -> str | None:
    """--context TEXT or --context-file F (UTF-8 text)."""
    if args.context_file is None:
        return args.context
    try:
        return Path(args.context_file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(f"cannot read the context file {args.context_file}: {err}") from None
