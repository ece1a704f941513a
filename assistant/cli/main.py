"""Entry point of the ``intercpt`` console script.

Subcommands are plugins: each is an entry point of the ``intercpt.commands`` group naming a
``CLISubcommand`` class, so the front ends (``evaluate``, ``ui``) live in their own packages and
this package never imports them. Only the chosen command is imported; ``intercpt --help``
imports them all to list them.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import typing
from importlib.metadata import EntryPoint, entry_points

from .. import __version__
from ..errors import IntercptError
from .types import CLISubcommand, PluginError

COMMAND_GROUP = "intercpt.commands"


class ArgumentParser(argparse.ArgumentParser):
    """Usage errors on one line, with where to read more, instead of the whole usage block.

    Abbreviated options are refused: with options generated from config fields, an abbreviation
    would silently change meaning when a field is added (``--method`` would match ``--methods``)."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> typing.NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def command_entry_points() -> dict[str, EntryPoint]:
    found = {ep.name: ep for ep in entry_points(group=COMMAND_GROUP)}
    if not found:
        raise PluginError(f"no intercpt commands are installed (no {COMMAND_GROUP!r} entry points): "
                         "install the package, e.g. pip install -e .")
    return found


def load_command(entry_point: EntryPoint) -> CLISubcommand:
    """The command an entry point names; a broken one is a one-line PluginError, not a traceback."""
    try:
        command = entry_point.load()()
    except Exception as err:  # noqa: BLE001 - any failure of a plugin's import is reported the same way
        raise PluginError(f"the {entry_point.name!r} command ({entry_point.value}) cannot be loaded: "
                         f"{type(err).__name__}: {err}") from None
    if not isinstance(command, CLISubcommand):
        raise PluginError(f"the {entry_point.name!r} command ({entry_point.value}) is not a CLISubcommand")
    return command


def chosen_command(argv: list[str], names: set[str]) -> str | None:
    """The command named on the command line (the first word; the top level has no options with values)."""
    first = next((arg for arg in argv if not arg.startswith("-")), None)
    return first if first in names else None


def build_parser(argv: list[str]) -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="intercpt",
        description="A translation assistant that asks a clarifying question before it guesses.",
    )
    parser.add_argument("--version", action="version", version=f"intercpt {__version__}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    found = command_entry_points()
    chosen = chosen_command(argv, set(found))
    for name, entry_point in sorted(found.items()):
        if chosen is not None and name != chosen:
            continue
        try:
            command = load_command(entry_point)
        except PluginError as err:
            if chosen is not None:
                raise
            print(f"intercpt: warning: {err}", file=sys.stderr)  # the other commands still work
            continue
        command.subparser_init(subparsers).set_defaults(command=command)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # Library progress bars and warnings would bury the one line a user needs.
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    os.environ.setdefault("TQDM_DISABLE", "1")
    # Turn SIGTERM into a normal exit so servers this process started are shut down.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    try:
        args = build_parser(argv).parse_args(argv)
        args.command.validate(args)
        return args.command.cmd(args)
    except IntercptError as err:
        print(f"intercpt: error: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("intercpt: interrupted", file=sys.stderr)
        return 130
    except Exception as err:  # noqa: BLE001 - a server failing mid-request must not print a traceback wall
        if type(err).__module__.startswith("openai"):
            print(f"intercpt: error: the model server failed: {err}", file=sys.stderr)
            return 1
        raise


if __name__ == "__main__":
    sys.exit(main())
