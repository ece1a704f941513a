"""Entry point of the ``intercpt`` console script."""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys

from .. import __version__
from ..errors import IntercptError

COMMAND_MODULES = ("ui", "translate", "chat", "evaluate", "serve")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="intercpt",
        description="A translation assistant that asks a clarifying question before it guesses.",
    )
    parser.add_argument("--version", action="version", version=f"intercpt {__version__}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    for module_name in COMMAND_MODULES:
        module = importlib.import_module(f"{__package__}.{module_name}")
        for command in module.cmd_init():
            command.subparser_init(subparsers).set_defaults(dispatch_function=command.cmd)
    return parser


def main(argv: list[str] | None = None) -> int:
    # Library progress bars and warnings would bury the one line a user needs.
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    os.environ.setdefault("TQDM_DISABLE", "1")
    # Turn SIGTERM into a normal exit so servers this process started are shut down.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    args = build_parser().parse_args(argv)
    try:
        return args.dispatch_function(args)
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
