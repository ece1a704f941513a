"""Dialogue state: the pending question, the answers so far, and what a session remembers.

A ``Dialogue`` advances one step per call, so a caller that waits for a person between
steps (the browser) drives it the same way as one that answers at once (the CLI):
``drive(user)`` runs it as far as ``user`` can answer and reports each step on the way.
"""

from __future__ import annotations

import re
from collections.abc import Generator, Iterator
from dataclasses import dataclass, replace
from typing import Any, Protocol

from .ambiguity import family_of, get_type, sharing
from .checks import FORMAL, expected
from .detection import Candidate, candidates_in, parse, settled_by_text
from .nlp.coreference import GENDERED_PRONOUNS, PRONOUN_EVIDENCE
from .parsing import clean_translation
from .repair import repairing, verify_and_repair
from .steps import ModelSteps
from .transcript import IN_ADVANCE, Alternative, Settled, Transcript, Turn
from .users import User

_LASTING = re.compile(r"\b(?:always|from now on|every time|for the rest)\b", re.IGNORECASE)


class KnownQuestions(Protocol):
    """What a reading of the whole document (a file's question sheet) found for a candidate of one of its
    texts: the question to put (answered or not), or None where the text leaves nothing open."""

    def question_for(self, candidate: Candidate, source: str) -> Turn | None: ...


@dataclass(frozen=True)
class Step:
    """What ``Dialogue.drive`` just did: ``asked`` (``turn`` is pending), ``answered`` (``turn`` got
    its answer or was skipped), ``translating``, ``token`` (``text`` is the next piece of the
    first translation, as the model writes it; verification may still replace it), ``checking``
    (the draft is complete and being verified), ``repairing`` (``text`` says which repair round
    runs: "Fixing the register, try 1 of 2"; the translation kept replaces the draft), or ``done``
    (the transcript is complete)."""

    kind: str
    turn: Turn | None = None
    text: str = ""


class Dialogue:
    """One source text on its way through detect → ask → answer → translate → verify."""

    def __init__(self, steps: ModelSteps, transcript: Transcript, max_questions: int,
                 preferences: "PreferenceMemory | None" = None, alternatives: bool = False,
                 known: KnownQuestions | None = None):
        self.steps = steps
        self.transcript = transcript
        self.max_questions = max_questions
        self.preferences = preferences
        self.known = known
        self.alternatives_wanted = alternatives
        self.pending: Turn | None = None
        self._queue: list[Turn | Candidate] | None = None
        # (type, words) of each person question -> the pronouns the parse could not attribute that may be theirs
        self._pronouns: dict[tuple[str, str], tuple[str, ...]] = {}
        self._likely: dict[tuple[str, str], tuple[str, ...]] = {}
        self._formal_only: set[tuple[str, str]] = set()  # questions whose answer shows only where "you" is formal

    def drive(self, user: User | None) -> Iterator[Step]:
        """Ask, let ``user`` answer, translate: one ``Step`` per event. With ``user=None`` (a person
        who answers later) it stops after the first pending question; call ``answer`` and then
        ``drive`` again to go on."""
        while (turn := self.ask_next()) is not None:
            yield Step("asked", turn)
            if user is None:
                return
            with self.transcript.timed("answer"):
                reply = user.answer(turn, self.transcript.source)
            self.answer(reply, user.name)
            yield Step("answered", turn)
        yield Step("translating")
        yield from self._translate()
        yield Step("done")

    def ask_next(self) -> Turn | None:
        """Find the next clarifying question and hold it as ``pending`` (the pending one again while it
        waits): the detection and its model calls run here. None when there is nothing (more) to ask."""
        if self.pending is not None:
            return self.pending
        t = self.transcript
        with t.timed("detect"):
            if self._queue is None:
                self._queue = self._plan()
            while self._queue and sum(turn.answered_by not in IN_ADVANCE for turn in t.turns) < self.max_questions:
                item = self._queue.pop(0)
                if isinstance(item, Turn) and item.answered_by in IN_ADVANCE:
                    self._record(item)  # answered before: applied without asking again
                    continue
                context = t.bounded_context.text if t.bounded_context else None
                turn = item if isinstance(item, Turn) else self.steps.ask(t.source, t.target_lang, item, context)
                if turn is not None:
                    self.pending = turn
                    return turn
        return None

    def _plan(self) -> list[Turn | Candidate]:
        """What may be asked, by the table's rank and then in source order (the register of "you"
        before a person's gender, so that a cap on questions leaves out the lesser ones): remembered
        answers, then the questions ``known`` found where the document was read before (no model
        call), else the questions with fixed options that are open (``open_questions``) and the
        candidates whose question the model writes when their turn comes."""
        t = self.transcript
        if not self.max_questions:
            return []
        parsed = parse(t.source, t.target_lang, self.steps.options.inclusive)
        candidates = candidates_in(parsed)
        t.settled = settled_by_text(parsed)
        remembered = {c: self.preferences.recall(c) for c in candidates} if self.preferences else {}
        unknown = [c for c in candidates if not remembered.get(c)]
        if self.known is not None:
            read = {c: turn for c in unknown if (turn := self.known.question_for(c, t.source))}
        else:
            read = self._read(unknown)
        plan = [remembered.get(c) or read[c] for c in candidates if remembered.get(c) or c in read]
        self._pronouns = {(c.ambiguity, c.span): c.pronouns for c in candidates if c.pronouns}
        self._likely = {(c.ambiguity, c.span): c.likely_for for c in candidates if c.likely_for}
        self._formal_only = {(c.ambiguity, c.span) for c in candidates if c.formal_only}
        return self._later_first(sorted(plan, key=lambda item: get_type(item.ambiguity).rank))

    def _later_first(self, plan: list[Turn | Candidate]) -> list[Turn | Candidate]:
        """``plan`` with the people a pronoun may refer to asked in reverse order, and the one a reader most
        often takes it for (``Candidate.likely_for``) last: a pronoun mostly takes up an earlier person (the
        subject), so the others are more often the people left open, and once they are answered with the
        other gender the pronoun settles the last (``_eliminate``)."""
        plan = list(plan)
        for pronoun in {p for pronouns in self._pronouns.values() for p in pronouns}:
            places = [n for n, item in enumerate(plan)
                      if pronoun in self._pronouns.get((item.ambiguity, item.span), ())]
            order = sorted((plan[n] for n in reversed(places)),
                           key=lambda item: pronoun in self._likely.get((item.ambiguity, item.span), ()))
            for n, item in zip(places, order):
                plan[n] = item
        return plan

    def _read(self, candidates: list[Candidate]) -> dict[Candidate, Turn | Candidate]:
        """Each candidate's question with fixed options where the decide call reads it as open (one call;
        those it reads as settled are noted in the transcript and left out), and each other candidate
        itself: the model writes its question when its turn comes."""
        t = self.transcript
        fixed = [c for c in candidates if get_type(c.ambiguity).fixed_question(c.span, t.target_lang)]
        opened = {(turn.ambiguity, turn.span): turn for turn in open_questions(self.steps, t.source, t.target_lang,
                                                                              fixed)}
        t.settled += [Settled(family_of(c.ambiguity), c.span, None, "model", "the model read the text as settling it")
                      for c in fixed if (c.ambiguity, c.span) not in opened]
        return {c: opened[(c.ambiguity, c.span)] if c in fixed else c
                for c in candidates if c not in fixed or (c.ambiguity, c.span) in opened}

    def answer(self, reply: str | None, answered_by: str) -> None:
        """Record the reply to the pending question (None or blank means skipped); a reply the
        session's preferences keep is remembered there."""
        if self.pending is None:
            raise RuntimeError("there is no pending question to answer")
        reply = reply.strip() if reply and reply.strip() else None
        self.pending.answer = reply
        self.pending.answered_by = answered_by if reply else "none"
        self._record(self.pending)
        if self.preferences and reply:
            self.preferences.remember(self.pending, reply)
        self.pending = None

    def _record(self, turn: Turn) -> None:
        self.transcript.turns.append(turn)
        self._eliminate(turn)
        self._drop_formal_only(turn)

    def _drop_formal_only(self, answered: Turn) -> None:
        """Once "you" is answered as informal or generic, a question whose answer only the formal register would
        show ("help you": « ayudarlo », « ayudarla », but « ayudarte ») changes nothing, and is not asked."""
        register = next((e for e in expected([answered]) if FORMAL in e.checker.labels), None)
        if self._queue is None or register is None or register.label == FORMAL:
            return
        for item in [item for item in self._queue if (item.ambiguity, item.span) in self._formal_only]:
            self._queue.remove(item)
            self.transcript.settled.append(Settled(
                family_of(item.ambiguity), item.span, None, "text",
                f"{answered.span!r} is {answered.answer}: its gender shows only in the formal register"))

    def _eliminate(self, answered: Turn) -> None:
        """A pronoun the parse could not attribute refers to one of the people it may refer to: once all
        but one of them are answered with the other gender, it is the last one's, whose question is
        dropped and whose gender is recorded as settled by the text ("Stiggs sneered at the goon when
        he appeared": after "Stiggs is a woman", "he" is the goon)."""
        pronouns = self._pronouns.get((answered.ambiguity, answered.span), ())
        if self._queue is None or not pronouns:
            return
        genders = {(e.turn.ambiguity, e.turn.span): e.label for e in expected(self.transcript.turns) if e.label}
        for pronoun in pronouns:
            gender = GENDERED_PRONOUNS.get(pronoun.lower())
            left = [key for key, theirs in self._pronouns.items()
                    if pronoun in theirs and genders.get(key, gender) == gender]
            if len(left) != 1:
                continue
            waiting = [item for item in self._queue if (item.ambiguity, item.span) == left[0]
                       and not (isinstance(item, Turn) and item.answer)]  # a saved answer is the person's word
            for item in waiting:
                self._queue.remove(item)
                self.transcript.settled.append(Settled(
                    family_of(item.ambiguity), item.span, gender, "text",
                    f"{PRONOUN_EVIDENCE} {pronoun!r} refers to it: {answered.span!r} is {answered.answer}"))

    def _translate(self) -> Iterator[Step]:
        """Translate with the answers (streamed), verify and repair; the alternatives too where they were
        asked for at the start."""
        t = self.transcript
        if self.pending is not None:
            self.answer(None, "none")
        with t.timed("translate"):
            draft = ""
            for piece in self.steps.stream_translation(t):
                draft += piece
                yield Step("token", text=piece)
            translation = clean_translation(draft)
        with t.timed("verify"):
            yield Step("checking")
            t.translation, t.checks = yield from _announced(repairing(self.steps, t, translation))
        if self.alternatives_wanted:
            for _ in self.alternatives():
                pass

    def skipped_question(self) -> Turn | None:
        """The first skipped question with fixed options: the one whose alternatives can be offered."""
        lang = self.transcript.target_lang
        return next((turn for turn in self.transcript.turns
                     if turn.answer is None and len(get_type(turn.ambiguity).options(lang)) >= 2), None)

    def alternatives(self) -> Iterator[Alternative]:
        """The verified translation under each of two options of the skipped question, one at a time
        (each costs a translation and its checks, so a caller may stop between them); each is added to
        the transcript, which records that they were asked for. Nothing is computed unless asked:
        most readers of a translation never read its alternatives."""
        t = self.transcript
        t.alternatives_requested = True
        skipped = self.skipped_question()
        if skipped is None or t.alternatives:
            return
        for option in skipped.options[:2]:
            with t.timed("alternatives"):
                assumed = replace(skipped, answer=option, answered_by="assumed")
                turns = [assumed if turn is skipped else turn for turn in t.turns]
                draft = self.steps.translate(t, turns)
                translation, checks = verify_and_repair(self.steps, t, draft, turns)
                alternative = Alternative(f"{skipped.span} → {option}", translation, checks)
                t.alternatives.append(alternative)
            yield alternative


def _announced(rounds: Generator[str, None, Any]) -> Generator[Step, None, Any]:
    """Each repair round ``rounds`` announces as a ``repairing`` step; what ``rounds`` returns."""
    while True:
        try:
            said = next(rounds)
        except StopIteration as done:
            return done.value
        yield Step("repairing", text=said)


def open_questions(steps: ModelSteps, source: str, target_lang: str, fixed: list[Candidate]) -> list[Turn]:
    """The table's question for each of the ``fixed``-option candidates that the text leaves open, as one
    decide call reads them; those the pre-pass is sure of (the table's ``decided``) are asked without it,
    and so is a person a pronoun the parse could not attribute may refer to: on the two-people set of
    real sentences the test models' reading of the pronoun dropped the open person (1.5B: 94 % asked
    without the call, 87 % with it) for few needless questions saved, and the person's answers settle
    the pronoun instead (``Dialogue._eliminate``)."""
    sure = [c for c in fixed if c.pronouns or not get_type(c.ambiguity).decided_for(c.may_be_a_thing)]
    return [*steps.decide(source, target_lang, [c for c in fixed if c not in sure]),
            *(steps.fixed_turn(c, target_lang) for c in sure)]


class PreferenceMemory:
    """Answers reused for the rest of a session, without asking again.

    In a chat only answers that state a lasting preference ("always formal") are kept, one
    per ambiguity type. In a document (``every_answer``) every answer is kept as its type's
    ``remember`` says: for the session ("you" keeps one register throughout), for the word (each
    person, name or profession word, one gender and each word one sense) or for its text only
    ("it" is asked afresh, since it stands for different things in different places).
    """

    def __init__(self, every_answer: bool = False, answered_by: str = "preference") -> None:
        self.every_answer = every_answer
        self.answered_by = answered_by  # who the transcript says answered: "profile" for a project profile's
        self.answered: dict[tuple[str, str], Turn] = {}

    def remember(self, turn: Turn, answer: str) -> None:
        key = self._key(turn.ambiguity, turn.span)
        if key is not None and (self.every_answer or _LASTING.search(answer)):
            self.answered[key] = replace(turn, answer=answer)

    def recall(self, candidate: Candidate) -> Turn | None:
        """The remembered answer for ``candidate`` as a turn answered by the memory's ``answered_by``, or None.
        The turn has no place in the text, so the translator reads the answer without the person's words marked:
        marked in a catalogue's short strings, the 1.5B test model left them in English (« Recipient non
        définie », « pour user », accounts_200.po), where unmarked it translated them."""
        key = self._key(candidate.ambiguity, candidate.span)
        if key is None:
            return None
        # its own type's answer, else that of a type that asks the same of the same word (``sharing``): "a woman"
        # for the person told "Be patient" is the answer for "you"
        known = next((self.answered[other, key[1]] for other in sharing(candidate.ambiguity)
                      if (other, key[1]) in self.answered), None)
        return replace(known, ambiguity=candidate.ambiguity, span=candidate.span,
                       answered_by=self.answered_by) if known else None

    def _key(self, ambiguity: str, span: str) -> tuple[str, str] | None:
        """Under which key an answer is kept: per type and word, or per type (the type's ``remember``)."""
        word = get_type(ambiguity).memory_key(span, self.every_answer)
        return None if word is None else (ambiguity, word)
