"""Verify and repair: check a translation against the answers and the source, and where a check
fails ask the model steps for other drafts, within the steps' repair budgets (attempts and computed
tokens), keeping the one that agrees best.

Unlike a step, a repair is several model calls (a rewrite, a translation sentence by sentence,
sampled re-translations); what one round leaves for the next is an ``Attempt``.
"""

from __future__ import annotations

import re
from collections.abc import Generator
from dataclasses import dataclass

from .ambiguity import section_reminders
from .checks import Expectation, beside_another_gender, expected, not_a_translation, text_checks
from .explain import fixing
from .fidelity import FIDELITY, compare, without_pieces
from .glossary import check_terms
from .nlp.french_lexicon import phrase_in_gender
from .parsing import without_invented_tags
from .prompts import prompt_tags
from .steps import ModelSteps, clarifications, mark_names
from .transcript import Check, Transcript, Turn
from .usage import total
from .verdicts import AnswerReadings

FAILED = "failed"  # the label under which a text check's section of ``prompts/reminders.yaml`` says what to do


@dataclass
class Attempt:
    """Where a repair stands after each round: the draft kept (the one that agrees best so far) and
    its checks, the round it is in (the first translation is round 1; each repair call adds one), and
    the tokens the transcript had counted before the repairs (what they spent is the rest)."""

    draft: str
    checks: list[Check]
    round: int = 1
    tokens_before: int = 0


def repair_reminder(check: str, expected: str, lang: str) -> str:
    """The explicit instruction that goes with ``expected`` for ``check``, as the section of
    ``prompts/reminders.yaml`` named by the check gives it (a text check's "failed"; an answer's
    type gives its own: ``AmbiguityType.reminder``)."""
    return section_reminders(check).instruction(expected, lang)


def _fix(wanted: Expectation, observed: str, words: tuple[str, ...], lang: str) -> str:
    """What a repair is told about a failed answer check: whom it concerns (unless the checker reads
    the whole text), the words that read wrong, and the answer's instruction (a small model
    corrects named words far more reliably than it follows a general instruction)."""
    about = "" if wanted.checker.whole_text else f"About “{wanted.turn.span}”: "
    wrong = f"{', '.join(f'“{w}”' for w in words)} {'is' if len(words) == 1 else 'are'} {observed}. " if words else ""
    return about + wrong + wanted.ambiguity_type.reminder(wanted.label, lang)


def _badness(checks: list[Check]) -> tuple[int, int]:
    """Order candidates: fewer contradictions first, then fewer unverifiable checks."""
    return (sum(c.status == "fail" for c in checks), sum(c.status == "unchecked" for c in checks))


def _failed(checks: list[Check], name: str) -> bool:
    return any(check.name == name and check.status == "fail" for check in checks)


def _tokens_counted(transcript: Transcript) -> int:
    """The tokens the transcript's calls computed so far (prompt tokens evaluated, not restored from a
    cache, plus tokens written), where the steps are counted for it."""
    counted = total(transcript.usage.values())
    return counted.evaluated_tokens + counted.output_tokens


class Repair:
    """One translation's verify-and-repair: what every draft is checked against, and what the drafts
    taught so far (the words that gave a person the wrong gender, the sentences cut as echoes)."""

    def __init__(self, steps: ModelSteps, transcript: Transcript, turns: list[Turn]):
        self.steps = steps
        self.transcript = transcript
        self.turns = turns
        self.lang = transcript.target_lang
        self.wanted = [e for e in expected(turns) if e.label]
        self.prompt_lines = clarifications(transcript, turns)
        self.readings = AnswerReadings(transcript.source, self.lang)
        self.wrong_forms: dict[str, None] = {}
        self.removed: dict[str, tuple] = {}  # a text whose added sentences were cut -> those sentences

    def rounds(self, translation: str) -> Generator[str, None, tuple[str, list[Check]]]:
        """See ``repairing``."""
        draft = self.without_echoes(translation)
        checks, fixes = self.evaluate(draft)
        draft, checks, fixes = self.regendered(draft, checks, fixes)
        attempt = Attempt(draft, checks, tokens_before=_tokens_counted(self.transcript))
        if fixes and self.may_try(attempt):
            yield self.announce(attempt)
            self.consider(attempt, self.steps.rewrite(self.transcript, attempt.draft, fixes, self.turns,
                                                      avoid=tuple(self.wrong_forms)))
        if (not_a_translation(attempt.checks) or _failed(attempt.checks, FIDELITY)) and self.may_try(attempt):
            yield self.announce(attempt)
            by_sentence = self.steps.translate_by_sentence(self.transcript, self.turns)
            if by_sentence is not None:
                self.consider(attempt, by_sentence)
        while _badness(attempt.checks)[0] and self.may_try(attempt):  # an unchecked answer is no failure
            yield self.announce(attempt)
            self.consider(attempt, self.steps.translate(self.transcript, self.turns, sample_seed=attempt.round,
                                                        avoid=tuple(self.wrong_forms)))
        for check in self.readings.settled(attempt.checks):
            check.attempts = attempt.round
        return attempt.draft, attempt.checks

    def evaluate(self, text: str) -> tuple[list[Check], list[str]]:
        """The checks of ``text``, and the fix each failed check asks for."""
        source, lang = self.transcript.source, self.lang
        checks = text_checks(source, text, lang)
        fixes = [repair_reminder(check.name, FAILED, lang) for check in checks if check.status == "fail"]
        fidelity = compare(source, text, lang, self.prompt_lines)
        checks += [check for check in [fidelity.check(self.removed.get(text, ()))] if check is not None]
        fixes += fidelity.fixes()
        for answer in self.wanted:
            check, reading = self.readings.check(answer.checker.name, answer.label, answer.turn.span, text)
            checks.append(check)
            if check.status == "fail":
                fixes.append(_fix(answer, reading.label, reading.evidence, lang))
                self.wrong_forms.update(dict.fromkeys(reading.inflected))
        return checks + check_terms(self.transcript.terms, text, lang), fixes

    def regendered(self, text: str, checks: list[Check], fixes: list[str]) -> tuple[str, list[Check], list[str]]:
        """Where a French person's words read as the gender the answer did not give (« l'utilisateur »
        after "a woman": the small model keeps the noun it knows), the same words in the answered gender
        from the lexicon (« l'utilisatrice », « la destinataire »), kept if the text then agrees better:
        no model call, where a rewrite often keeps the noun. Only for a person the source names alone or
        beside people of the same gender ("Sender and Recipient", both women): beside another, the words
        read may be the other's (a translator who put the lawyer first).
        Otherwise ``text`` as it was."""
        if self.lang != "fr":
            return text, checks, fixes
        people = [answer for answer in self.wanted if answer.checker.about_mention]
        about_people = {answer.checker.name for answer in people}
        answered = {answer.turn.span: answer.label for answer in people if answer.label}
        changed = text
        for check in checks:
            if check.about is None or check.name not in about_people or check.status != "fail" \
                    or beside_another_gender(self.transcript.source, check.about, check.expected, answered):
                continue
            for phrase in check.words:
                found = re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", changed)
                if found is None:
                    continue
                before = re.findall(r"\w+['’]?", changed[:found.start()])[-1:]
                other = phrase_in_gender(phrase, check.expected, before[0] if before else None)
                if other is not None:
                    changed = changed[:found.start()] + other + changed[found.end():]
        if changed == text:
            return text, checks, fixes
        after, after_fixes = self.evaluate(changed)
        return (changed, after, after_fixes) if _badness(after) < _badness(checks) else (text, checks, fixes)

    def may_try(self, attempt: Attempt) -> bool:
        """Whether another attempt fits both repair budgets: attempts, and tokens the repairs computed."""
        spent = _tokens_counted(self.transcript) - attempt.tokens_before
        return attempt.round <= self.steps.repair_budget and spent < self.steps.repair_token_budget

    def announce(self, attempt: Attempt) -> str:
        """What the next round fixes, for a person who waits on it: "Fixing the register, try 1 of 2"."""
        return f"Fixing {fixing(attempt.checks)}, try {attempt.round} of {self.steps.repair_budget}"

    def consider(self, attempt: Attempt, candidate: str) -> None:
        """Count the round; keep ``candidate`` if it agrees better than the draft kept."""
        attempt.round += 1
        candidate = self.without_echoes(candidate)
        checks, _ = self.evaluate(candidate)
        if _badness(checks) < _badness(attempt.checks):
            attempt.draft, attempt.checks = candidate, checks

    def without_echoes(self, translation: str) -> str:
        """``translation`` without the tags marking the answered people that it echoed, and without the
        sentences that restate the prompt's own lines (a small model translates "Address the person
        formally…" and appends it), where cutting them leaves a text that adds nothing and leaves out
        no more than before (what was cut is kept for the fidelity check); otherwise as it is, for
        the repair. No model call."""
        source, lang = self.transcript.source, self.lang
        marks = mark_names()
        translation = without_invented_tags(translation, source, marks, frozenset(prompt_tags()) - marks)
        found = compare(source, translation, lang, self.prompt_lines)
        if not found.added:
            return translation
        trimmed = without_pieces(translation, found.added)
        after = compare(source, trimmed, lang, self.prompt_lines)
        if after.added or len(after.omitted) > len(found.omitted):
            return translation
        self.removed[trimmed] = found.added
        return trimmed


def repairing(steps: ModelSteps, transcript: Transcript, translation: str, turns: list[Turn] | None = None
              ) -> Generator[str, None, tuple[str, list[Check]]]:
    """Check ``translation`` against the answers in ``turns`` (default: the transcript's; and its
    length against the source's and its language, which catch a model that answered or obeyed the
    text instead of translating it, and its sentences against the source's: ``fidelity``); a
    sentence restating the prompt's own lines is cut first, without a model call. Where a check fails
    (not where one could not read its answer: another attempt is no likelier to be read, and costs a
    translation), repair: first, without a model call, a French person's words put in the answered
    gender from the lexicon (``Repair.regendered``); then, within the steps' repair budgets
    (attempts and tokens), a targeted rewrite of the words a failed check names (pronouns, verb
    forms, a person's noun and agreement; a sentence added or left out; the whole text when it is
    not a translation), then, for a text
    that is still not a translation or still adds or leaves out a sentence, one sentence at a time,
    then sampled re-translations; the text that agrees best is kept. Every attempt is decoded with
    the words the answers forbid, and with the words that gave a person the wrong gender in an
    earlier attempt ("procureur" after "a woman"). Before each repair round it yields what the round
    fixes ("Fixing the register, try 1 of 2"), for a person who waits on it; returns the translation
    kept and its checks."""
    return Repair(steps, transcript, transcript.turns if turns is None else turns).rounds(translation)


def verify_and_repair(steps: ModelSteps, transcript: Transcript, translation: str, turns: list[Turn] | None = None
                      ) -> tuple[str, list[Check]]:
    """``repairing``, without announcing its rounds: the translation kept and its checks."""
    rounds = repairing(steps, transcript, translation, turns)
    while True:
        try:
            next(rounds)
        except StopIteration as done:
            return done.value
