"""Dialogue state: the pending question, the answers so far, and what a session remembers.

A ``Dialogue`` advances one step per call, so a caller that waits for a person between
steps (the browser) drives it the same way as one that answers at once (the CLI).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from .detection import Candidate, ambiguity_types, find_candidates
from .transcript import Alternative, Transcript, Turn

if TYPE_CHECKING:
    from .core import Assistant

_LASTING = re.compile(r"\b(?:always|from now on|every time|for the rest)\b", re.IGNORECASE)


class Dialogue:
    """One source text on its way through detect → ask → answer → translate → verify."""

    def __init__(self, assistant: "Assistant", transcript: Transcript, max_questions: int):
        self.assistant = assistant
        self.transcript = transcript
        self.max_questions = max_questions
        self.pending: Turn | None = None
        self._candidates: list[Candidate] | None = None

    def next_question(self) -> Turn | None:
        """The next clarifying question, or None when there is nothing (more) to ask."""
        if self.pending is not None:
            return self.pending
        t = self.transcript
        with t.timed("detect"):
            if self._candidates is None:
                self._candidates = find_candidates(t.source, t.target_lang) if self.max_questions else []
            while self._candidates and len(t.turns) < self.max_questions:
                turn = self.assistant.ask(t.source, t.target_lang, self._candidates.pop(0))
                if turn is not None:
                    self.pending = turn
                    return turn
        return None

    def answer(self, reply: str | None, answered_by: str) -> None:
        """Record the reply to the pending question; None or blank means skipped."""
        if self.pending is None:
            raise RuntimeError("there is no pending question to answer")
        reply = reply.strip() if reply and reply.strip() else None
        self.pending.answer = reply
        self.pending.answered_by = answered_by if reply else "none"
        self.transcript.turns.append(self.pending)
        self.pending = None

    def finish(self) -> Transcript:
        """Translate with the answers, offer alternatives for skipped questions, verify and repair."""
        t = self.transcript
        if self.pending is not None:
            self.answer(None, "none")
        with t.timed("translate"):
            translation = self.assistant.translate_transcript(t)
        with t.timed("verify"):
            t.translation, t.checks = self.assistant.verify_and_repair(t, translation)
        with t.timed("alternatives"):
            t.alternatives = self._alternatives()
        return t

    def _alternatives(self) -> list[Alternative]:
        """For the first skipped question with fixed options, the verified translation under each of two."""
        skipped = next(
            (turn for turn in self.transcript.turns
             if turn.answer is None and len(ambiguity_types()[turn.ambiguity].options) >= 2),
            None,
        )
        if skipped is None:
            return []
        alternatives = []
        for option in skipped.options[:2]:
            assumed = replace(skipped, answer=option, answered_by="assumed")
            turns = [assumed if turn is skipped else turn for turn in self.transcript.turns]
            draft = self.assistant.translate_transcript(self.transcript, turns)
            translation, checks = self.assistant.verify_and_repair(self.transcript, draft, turns)
            alternatives.append(Alternative(f"{skipped.span} → {option}", translation, checks))
        return alternatives


class PreferenceMemory:
    """Answers that state a lasting preference ("always formal"), reused for the rest of a session."""

    def __init__(self) -> None:
        self.by_ambiguity: dict[str, str] = {}

    def remember(self, turn: Turn, answer: str) -> None:
        if _LASTING.search(answer):
            self.by_ambiguity[turn.ambiguity] = answer

    def lookup(self, turn: Turn) -> str | None:
        return self.by_ambiguity.get(turn.ambiguity)
