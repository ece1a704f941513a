"""Asking a person on the terminal, and showing them the result."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from ..explain import explain
from ..transcript import Transcript, Turn

if TYPE_CHECKING:
    from ..sheet import Sheet


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


def ask_sheet_on_terminal(sheet: "Sheet") -> None:
    """Ask a file's open questions one after another, each with the number of segments its answer settles
    and examples with the words marked; Enter skips one (the model's guess is flagged for review)."""
    questions = sheet.open_questions()
    reviewed = [q for q in sheet.for_review if q.answer is None]
    if reviewed:
        print(f"\n{len(reviewed)} question{'s' if len(reviewed) != 1 else ''} about one segment only (segments "
              f"{', '.join(str(q.segments[0]) for q in reviewed[:10])}{', …' if len(reviewed) > 10 else ''}): "
              "guessed and flagged for review", file=sys.stderr)
    if not questions:
        return
    print(f"\n{len(questions)} question{'s' if len(questions) != 1 else ''} for the whole file "
          f"({sheet.segment_count} segments); each answer is applied everywhere it holds", file=sys.stderr)
    for number, question in enumerate(questions, 1):
        count = len(question.segments)
        print(f"\n[{number}/{len(questions)}] {count} segment{'s' if count != 1 else ''}, for example:", file=sys.stderr)
        for example in question.examples:
            print(f"    {example.segment}: {marked(example.text, example.words)}", file=sys.stderr)
        sheet.answer(question.id, ask_on_terminal(question.turn()))


def marked(text: str, words: tuple[tuple[int, int], ...]) -> str:
    """``text`` with each span of ``words`` in brackets: "Can [you] help me?"."""
    for start, end in sorted(words, reverse=True):
        text = f"{text[:start]}[{text[start:end]}]{text[end:]}"
    return text


def print_result(transcript: Transcript) -> None:
    """The translation on stdout; the account of the choices on stderr, so pipes get only the text."""
    print(transcript.translation)
    for line in explain(transcript):
        print(f"  · {line}", file=sys.stderr)
