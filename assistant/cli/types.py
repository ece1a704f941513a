"""The shape every subcommand follows, wherever it lives (the chain's commands here, ``evaluate`` and
``ui`` in their own packages): it is found through the ``intercpt.commands`` entry point group."""

from __future__ import annotations

import argparse

from ..errors import IntercptError


class PluginError(IntercptError):
    """A command plugin is missing or cannot be imported."""


class CLISubcommand:
    """A subcommand: its name, how it adds its parser, how it checks its arguments, and what it runs.

    A command module stays light at import (``intercpt --help`` imports every one); heavy
    imports go inside ``validate`` and ``cmd``. ``validate`` runs before ``cmd`` and before
    any model loads, so a wrong argument costs no model load; it may store what it parsed
    or read on ``args`` for ``cmd`` to use.
    """

    name: str
    help: str

    def subparser_init(self, subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
        raise NotImplementedError

    def validate(self, args: argparse.Namespace) -> None:
        """Check (and normalise) the arguments; raise an ``IntercptError`` subclass on bad input."""

    def cmd(self, args: argparse.Namespace) -> int:
        """Run the command; return the process exit code."""
        raise NotImplementedError
