"""Options and helpers that several subcommands share."""

from __future__ import annotations

import argparse
import sys

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

