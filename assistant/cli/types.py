"""The shape every subcommand module follows."""

from __future__ import annotations

import argparse


class CLISubcommand:
    """A subcommand: its name, how it adds its parser, and what it runs."""

    name: str
    help: str

    def subparser_init(self, subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
        raise NotImplementedError

    def cmd(self, args: argparse.Namespace) -> int:
        """Run the command; return the process exit code."""
        raise NotImplementedError
