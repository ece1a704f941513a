"""Asking a person on the terminal, and showing them the result."""

from __future__ import annotations

import sys

from ..explain import explain
from ..transcript import Transcript, Turn


def ask_on_terminal(turn: Turn) -> str | None:
    """Print the question and its numbered options on stderr; read a number, free text, or Enter to skip."""
    print(f"\n? {turn.question}", file=sys.stderr)
    for i, option in enumerate(turn.options, 1):
        print(f"  {i}) {option}", file=sys.stderr)
    print("  (a number, your own answer, or Enter to skip)", file=sys.stderr)
    try:
        reply = input("> ").strip()
    except EOFError:
        return None
    if reply.isdigit() and 1 <= int(reply) <= len(turn.options):
        return turn.options[int(reply) - 1]
    return reply or None


def print_result(transcript: Transcript) -> None:
    """The translation on stdout; the account of the choices on stderr, so pipes get only the text."""
    print(transcript.translation)
    for line in explain(transcript):
        print(f"  · {line}", file=sys.stderr)
