"""Options and helpers that several subcommands share (the chain's and the front ends')."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..backends.spec import MODEL_ENV_VAR, SPEC_FORMS, ModelSpec, default_model_spec
from ..errors import InputError


def add_model_argument(parser: argparse.ArgumentParser) -> None:
    """``--model SPEC``, parsed once, in ``validate``, by ``model_spec``."""
    parser.add_argument("--model", default=None, metavar="SPEC",
                        help=f"model to use: {'; '.join(SPEC_FORMS.values())} "
                        f"(default: ${MODEL_ENV_VAR} or {default_model_spec()})")


def model_spec(text: str | None) -> ModelSpec:
    """The parsed ``--model``, or the default model: a one-line ModelSpecError if it is malformed."""
    return ModelSpec.parse(text or default_model_spec())


def add_chain_options(parser: argparse.ArgumentParser, *, exclude: tuple[str, ...] = ()) -> None:
    """The chain's options (``ChainOptions``), generated from its fields."""
    from ..options import ChainOptions
    from .options import add_options

    add_options(parser.add_argument_group("the chain"), ChainOptions, exclude=exclude)


def chain_options(args: argparse.Namespace):
    """The ChainOptions the options describe; a bad combination fails here, before any model loads."""
    from ..options import ChainOptions
    from .options import from_args

    return from_args(ChainOptions, args)


def read_text_argument(text: str | None) -> str:
    """The TEXT argument, or standard input when it is '-' or omitted and input is piped."""
    from ..inputs import MAX_SOURCE_CHARS

    if text is not None and text != "-":
        return text
    if text is None and sys.stdin.isatty():
        raise InputError("give the text to translate as an argument, or pipe it on standard input")
    most = 4 * (MAX_SOURCE_CHARS + 1)  # UTF-8 takes at most 4 bytes a character
    data = sys.stdin.buffer.read(most + 1)
    if len(data) > most:
        raise InputError(f"standard input holds more than {MAX_SOURCE_CHARS} characters, the most one request "
                         "takes; translate a long text with --file (paragraph by paragraph)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("standard input is not UTF-8 text (binary data?)") from None


def read_text_file(path: str | Path, what: str) -> str:
    """A UTF-8 text file, or an InputError that says why it cannot be read."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InputError(f"the {what} {path} is not UTF-8 text (binary data?)") from None
    except OSError as err:
        raise InputError(f"cannot read the {what} {path}: {err.strerror or err}") from None


def load_glossary(path: str | None, target_lang: str):
    """The ``--glossary`` file, read before any model loads (a bad one fails in one line)."""
    from ..glossary import Glossary

    return Glossary.load(path, target_lang) if path is not None else None


def load_model_with_status(spec: ModelSpec):
    """Load a chat model (for a parsed ModelSpec) while a status line tells the person what is happening."""
    from rich.console import Console

    from ..backends import load_chat_model

    with Console(stderr=True).status(f"Loading {spec} (the first load can take a minute)…"):
        return load_chat_model(spec)


def add_listen_arguments(parser: argparse.ArgumentParser, *, port: int) -> None:
    """``--host`` and ``--port`` of a server a command starts."""
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default: %(default)s)")
    parser.add_argument("--port", type=port_number, default=port, help="port to listen on (default: %(default)s)")


def port_number(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, got {text!r}") from None
    if not 0 < port < 65536:
        raise argparse.ArgumentTypeError(f"a port is between 1 and 65535, not {port}")
    return port
