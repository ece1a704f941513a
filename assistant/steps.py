"""The model steps of the chain: ask about a candidate, translate, verify and repair.

Each step is one prompt sent to the chat model; none of them knows about dialogues or
users, so the dialogue (above) drives them and the steps never call back up.
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from collections.abc import Callable, Generator, Iterator
from dataclasses import replace
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import Runnable, RunnableLambda

from .ambiguity import forbidden_for, get_type, section_forbidden, section_reminders
from .checks import Expectation, expected, not_a_translation, text_checks, without_markup
from .context.abstract import Summarizer
from .detection import Candidate
from .explain import fixing
from .fidelity import FIDELITY, compare, source_pieces, without_pieces
from .glossary import Glossary, check_terms
from .inputs import OPAQUE_TOKEN
from .nlp.referents import named_in_text
from .options import ChainOptions
from .parsing import Detection, clean_translation, decision_schema, parse_decisions, parse_detection
from .prompts import load_prompt, prompt_table, tagged
from .transcript import Check, Transcript, Turn
from .usage import UsageCounter, total
from .verdicts import AnswerReadings

REPAIR_BUDGET = 3
# The repairs of one translation stop once their calls have computed this many tokens (prompt tokens
# evaluated, not restored from a cache, plus tokens written): attempts alone do not bound a long text
# repaired one sentence at a time, a call per sentence. Three rewrites of a paragraph fit in it.
REPAIR_TOKEN_BUDGET = 4000
RETRY_TEMPERATURE = 0.7
DECISION_TOKENS = 8  # reply tokens per word in a decide call: '"1": "yes", '


def _failed(checks: list[Check], name: str) -> bool:
    return any(check.name == name and check.status == "fail" for check in checks)


class _RecentReadings:
    """The model's readings (decisions, questions) of the last texts it read, by their inputs: a
    file or a batch repeats segments ("Cancel", "Yes."), and a greedy call on the same inputs reads
    them the same way again. Bounded; shared by the threads of a server."""

    SIZE = 512

    def __init__(self) -> None:
        self._readings: OrderedDict[tuple, Any] = OrderedDict()
        self._lock = threading.Lock()

    def lookup(self, key: tuple, read: Callable[[], Any]) -> Any:
        with self._lock:
            if key in self._readings:
                self._readings.move_to_end(key)
                return self._readings[key]
        value = read()  # outside the lock: a model call
        with self._lock:
            self._readings[key] = value
            while len(self._readings) > self.SIZE:
                self._readings.popitem(last=False)
        return value


def _badness(checks: list[Check]) -> tuple[int, int]:
    """Order candidates: fewer contradictions first, then fewer unverifiable checks."""
    return (sum(c.status == "fail" for c in checks), sum(c.status == "unchecked" for c in checks))


def forbidden_words(expected: list[tuple[str, str]], lang: str, source: str | None = None) -> tuple[str, ...]:
    """The words that answers forbid the translator, from their (check, label) pairs, as the section
    of ``prompts/forbidden_words.yaml`` named by the check gives them: after "informal", the formal
    register's pronouns ("vous", "votre"); and when ``source`` names no third person, also the words
    that then can only mean "you" (Spanish "su", German "Sie"). The chain asks each answer's type."""
    return forbidden_for([(section_forbidden(check), label) for check, label in expected], lang, source)


def repair_reminder(check: str, expected: str, lang: str) -> str:
    """The explicit instruction that goes with ``expected`` for ``check``, as the section of
    ``prompts/reminders.yaml`` named by the check gives it (a text check's "failed"; an answer's
    type gives its own: ``AmbiguityType.reminder``)."""
    return section_reminders(check).get(expected, lang) or f"Use the {expected} form."


def _fix(wanted: Expectation, observed: str, words: tuple[str, ...], lang: str) -> str:
    """What a repair is told about a failed answer check: whom it concerns (unless the checker reads
    the whole text), the words that read wrong, and the answer's instruction (a small model
    corrects named words far more reliably than it follows a general instruction)."""
    about = "" if wanted.checker.whole_text else f"About “{wanted.turn.span}”: "
    wrong = f"{', '.join(f'“{w}”' for w in words)} {'is' if len(words) == 1 else 'are'} {observed}. " if words else ""
    return about + wrong + wanted.kind.reminder(wanted.label, lang)


def clarifications(transcript: Transcript, turns: list[Turn]) -> list[str]:
    """What the translator is told beyond the source: each answer with its type's reminder for what
    it means (and for what it says beside: "several"), then the glossary terms the source contains."""
    lang = transcript.target_lang
    lines = []
    for turn in (t for t in turns if t.answer):
        lines.append(f"Q: {turn.question} A: {turn.answer}")
        for wanted in expected([turn]):
            lines += [wanted.kind.reminder(label, lang) for label in [wanted.label] if label]
            lines += [wanted.kind.reminder(note, lang) for note in wanted.notes]
    if transcript.terms:
        lines += [prompt_table("reminders")["terms"], *Glossary.prompt_lines(transcript.terms)]
    return lines


def _may_refer(candidate: Candidate) -> str:
    """The decide call's hint that a pronoun the parse could not attribute may settle this person."""
    if not candidate.pronouns:
        return ""
    quoted = " or ".join(f'"{p}"' for p in candidate.pronouns)
    return f"; {quoted} may refer to this person"


def _one_referent_each(candidates: list[Candidate], verdicts: list[bool]) -> list[bool]:
    """A pronoun settles one person at most: when the model takes every candidate of a pronoun as
    settled, none of them is (the one the text leaves open must not be silently settled)."""
    verdicts = list(verdicts)
    for pronoun in {p for c in candidates for p in c.pronouns}:
        sharing = [i for i, c in enumerate(candidates) if pronoun in c.pronouns]
        if len(sharing) > 1 and not any(verdicts[i] for i in sharing):
            for i in sharing:
                verdicts[i] = True
    return verdicts


class ModelSteps:
    """The chain's calls to one chat model.

    options: the chain's options; of them the steps read the prompt variant (``generalist``
        detection prompts show examples of every ambiguity type, ``specialist`` ones only the
        type the pre-pass found).
    repair_budget: how many sampled re-translations verify-and-repair may try;
    repair_token_budget: the tokens its calls may compute for one translation (counted where the
        steps are ``counted_for`` a transcript), whichever bound comes first.
    structured_output: the backend constrains replies to a JSON schema, so detection
        replies always parse; otherwise they are parsed tolerantly.
    """

    def __init__(self, chat_model: BaseChatModel, *, options: ChainOptions = ChainOptions(),
                 repair_budget: int = REPAIR_BUDGET, repair_token_budget: int = REPAIR_TOKEN_BUDGET,
                 structured_output: bool = False):
        self.chat_model = chat_model
        self.options = options
        self.repair_budget = repair_budget
        self.repair_token_budget = repair_token_budget
        self._seen = _RecentReadings()  # shared by the counted copies: identical segments are read once
        self.structured_output = structured_output
        self._prompt_cache: dict[tuple, ChatPromptTemplate] = {}

    def counted_for(self, transcript: Transcript, options: ChainOptions | None = None) -> "ModelSteps":
        """These steps, under ``options`` (these steps' by default), with every model call counted in
        ``transcript.usage``, under the step the transcript has open when the call starts. A copy, since
        one ``ModelSteps`` serves concurrent dialogues; the count rides on the model's own callbacks, so
        it holds in whatever thread or context the dialogue is advanced."""
        counted = copy.copy(self)
        counted.options = options or self.options
        counted.chat_model = self.chat_model.with_config(callbacks=[UsageCounter(transcript.open_step_usage)])
        return counted

    def decide(self, source: str, target_lang: str, candidates: list[Candidate]) -> list[Turn]:
        """One call for all candidates whose type has fixed options: the model only says which ones the
        text leaves open, and each of those gets the table's question. An unreadable reply is retried
        once, sampling; if it stays unreadable every candidate is asked about (the pre-pass found
        them, and asking beats guessing)."""
        if not candidates:
            return []
        verdicts = self._seen.lookup(("decide", source, target_lang, tuple(candidates), self.options.prompts),
                                     lambda: self._decisions(source, target_lang, candidates))
        return [self.fixed_turn(c, target_lang) for c, open_ in zip(candidates, verdicts) if open_]

    def _decisions(self, source: str, target_lang: str, candidates: list[Candidate]) -> list[bool]:
        """The decide call's verdict for each candidate: does the text leave it open?"""
        groups = tuple(dict.fromkeys(c.ambiguity for c in candidates)) if self.options.specialist else None
        words = "\n".join(f'{i}. "{c.span}": {get_type(c.ambiguity).label}{_may_refer(c)}'
                           for i, c in enumerate(candidates, 1))
        schema = decision_schema(len(candidates)) if self.structured_output else None
        verdicts = None
        for seed in (None, 1):
            chain = self._chain("decide", target_lang, groups or tuple(load_prompt("decide").examples), seed=seed,
                                json_schema=schema, max_tokens=DECISION_TOKENS * len(candidates) + 4)
            verdicts = parse_decisions(chain.invoke({"source": source, "words": words}), len(candidates))
            if verdicts is not None:
                break
        return _one_referent_each(candidates, verdicts or [True] * len(candidates))

    @staticmethod
    def fixed_turn(candidate: Candidate, target_lang: str) -> Turn:
        kind = get_type(candidate.ambiguity)
        return Turn(ambiguity=candidate.ambiguity, span=candidate.span,
                    question=kind.fixed_question(candidate.span, target_lang), options=list(kind.options(target_lang)),
                    start=candidate.start)

    def ask(self, source: str, target_lang: str, candidate: Candidate, context: str | None = None) -> Turn | None:
        """The question about ``candidate`` (see ``_question``), or None; a text read before with the
        same context gets the same question again without a model call."""
        turn = self._seen.lookup(("ask", source, target_lang, candidate, context, self.options.prompts),
                                 lambda: self._question(source, target_lang, candidate, context))
        return replace(turn) if turn is not None else None  # its answer goes into a copy of its own

    def _question(self, source: str, target_lang: str, candidate: Candidate, context: str | None) -> Turn | None:
        """One detection call for a type with open options ("it", a word's sense), in which the model
        writes the question and its options (retried once, sampling, if unparsable): a question, or None.
        Where the type wants options from the text, only those naming a noun phrase of the source or
        of its ``context`` are kept: a person cannot answer a question about invented things or about
        grammar. With fewer than two, the table's open question is asked instead (the person names
        the thing), or none when the table has none."""
        kind = get_type(candidate.ambiguity)
        prompt = load_prompt("detect")
        groups = (candidate.ambiguity,) if self.options.specialist else tuple(prompt.examples)
        inputs = {"source": source, "span": candidate.span, "ambiguity": kind.label}
        detection = None
        for seed in (None, 1):
            schema = Detection.model_json_schema() if self.structured_output else None
            detection = parse_detection(self._chain("detect", target_lang, groups, seed=seed, json_schema=schema)
                                        .invoke(inputs))
            if detection is not None:
                break
        if detection is None or not detection.ambiguous:
            return None
        options = list(kind.options(target_lang)) or detection.options[:4]
        if OPAQUE_TOKEN.search(" ".join([detection.question, *options])):
            return None  # a file's hidden placeholder ("<x1/>") is no word a person can answer about
        question = detection.question
        if kind.options_in_text:
            options = named_in_text(options, source, context)
            if len(options) < 2:  # what "it" is lies outside the text: the person names it in their own words
                options = []
            # the table's question names the words asked about; a small model's own often does not
            # ("What is the exception instance?" for "it")
            question = kind.open_question(candidate.span, target_lang) or (question if options else None)
            if question is None:
                return None
        return Turn(ambiguity=candidate.ambiguity, span=candidate.span, question=question, options=options,
                    start=candidate.start)

    def translate(self, transcript: Transcript, turns: list[Turn] | None = None, sample_seed: int | None = None,
                  source: str | None = None, avoid: tuple[str, ...] = ()) -> str:
        """Translate by the transcript's method, conditioned on the answered ``turns`` (default: its own);
        ``source`` translates a part of the transcript's source instead of all of it; ``avoid``:
        words forbidden on top of the answers'.

        Each answer whose meaning the checks can read ("formal, my boss" -> formal) is followed
        by an explicit instruction for the target language, which small models follow far
        more reliably than the answer alone.
        """
        name, inputs = self._translation_prompt(transcript, turns, source)
        return self._chain(name, transcript.target_lang, None, clean=True, seed=sample_seed,
                           bad_words=self._forbidden(transcript, turns) + avoid).invoke(inputs)

    def translate_by_sentence(self, transcript: Transcript, turns: list[Turn]) -> str | None:
        """Each sentence (and each line) of the source on its own, joined as the source joins them: a
        small model that drops or answers part of a longer text translates a single sentence
        faithfully. Markup alone (a chat-template token) is kept as it is. None for a single sentence."""
        source = transcript.source
        bounds = [(piece.start, piece.end) for piece in source_pieces(source)]
        if len(bounds) < 2:
            return None
        pieces = []
        for i, (start, end) in enumerate(bounds):
            piece = source[start:end]
            pieces.append(self.translate(transcript, turns, source=piece) if without_markup(piece) else piece)
            if i + 1 < len(bounds):
                pieces.append(source[end:bounds[i + 1][0]] or " ")
        return "".join(pieces)

    def stream_translation(self, transcript: Transcript) -> Iterator[str]:
        """The first translation as the model writes it, piece by piece (cleaned once it is complete)."""
        name, inputs = self._translation_prompt(transcript, None)
        return self._chain(name, transcript.target_lang, None, bad_words=self._forbidden(transcript, None)).stream(inputs)

    @staticmethod
    def _forbidden(transcript: Transcript, turns: list[Turn] | None) -> tuple[str, ...]:
        """What the answers forbid the translation to write (the other register's pronouns: a small
        model told "informal" still wrote "vous"; "su" too where the source names no third person),
        forbidden while decoding."""
        answers = expected(transcript.turns if turns is None else turns)
        return forbidden_for([(e.kind.forbidden, e.label) for e in answers if e.label], transcript.target_lang,
                             transcript.source)

    def _translation_prompt(self, transcript: Transcript, turns: list[Turn] | None,
                            source: str | None = None) -> tuple[str, dict[str, str]]:
        source = transcript.source if source is None else source
        if transcript.method == "with-context":
            return "translate_context", {"context": self.context_for_translator(transcript), "source": source}
        lines = clarifications(transcript, transcript.turns if turns is None else turns)
        if not lines:
            return "translate", {"source": source}
        return "translate_clarified", {"source": source, "clarifications": "\n".join(lines)}

    def context_for_translator(self, transcript: Transcript) -> str:
        """The context the dialogue bounded, or under ``extract+abstract`` its summary (written once,
        kept in the transcript)."""
        bounded = transcript.bounded_context
        if bounded.strategy == "extract+abstract" and bounded.summary is None:
            bounded.summary = Summarizer(self.chat_model, transcript.target_lang)(bounded.text)
        return bounded.summary or bounded.text

    def verify_and_repair(self, transcript: Transcript, translation: str, turns: list[Turn] | None = None
                          ) -> tuple[str, list[Check]]:
        """``repairing``, without announcing its rounds: the translation kept and its checks."""
        rounds = self.repairing(transcript, translation, turns)
        while True:
            try:
                next(rounds)
            except StopIteration as done:
                return done.value

    def repairing(self, transcript: Transcript, translation: str, turns: list[Turn] | None = None
                  ) -> Generator[str, None, tuple[str, list[Check]]]:
        """Check ``translation`` against the answers in ``turns`` (and its length against the source's
        and its language, which catch a model that answered or obeyed the text instead of translating
        it, and its sentences against the source's: ``fidelity``); a sentence restating the prompt's
        own lines is cut first, without a model call. Where a check fails (not where one could not
        read its answer: another attempt is no likelier to be read, and costs a translation), repair
        within the repair budgets (attempts and tokens): first a targeted rewrite of the words a
        failed check names (pronouns, verb forms, a person's noun and agreement; a sentence added or
        left out; the whole text when it is not a translation), then, for a text that is still not a
        translation or still adds or leaves out a sentence, one sentence at a time, then sampled
        re-translations; the text that agrees best is kept. Every attempt is
        decoded with the words the answers forbid, and with the words that gave a person the wrong
        gender in an earlier attempt ("procureur" after "a woman"). Before each repair round it
        yields what the round fixes ("Fixing the register, try 1 of 3"), for a person who waits on
        it; returns the translation kept and its checks."""
        turns = transcript.turns if turns is None else turns
        wanted = [e for e in expected(turns) if e.label]
        lang = transcript.target_lang
        wrong_forms: dict[str, None] = {}
        prompt_lines = clarifications(transcript, turns)
        removed: dict[str, tuple] = {}  # a text whose added sentences were cut -> those sentences
        readings = AnswerReadings(transcript.source, lang)

        def evaluate(text: str) -> tuple[list[Check], list[str]]:
            """The checks of ``text``, and the fix each failed answer check asks for."""
            checks = text_checks(transcript.source, text, lang)
            fixes = [repair_reminder(check.name, "failed", lang) for check in checks if check.status == "fail"]
            fidelity = compare(transcript.source, text, lang, prompt_lines)
            checks += [check for check in [fidelity.check(removed.get(text, ()))] if check is not None]
            fixes += fidelity.fixes()
            for answer in wanted:
                check, reading = readings.check(answer.checker.name, answer.label, answer.turn.span, text)
                checks.append(check)
                if check.status == "fail":
                    fixes.append(_fix(answer, reading.label, reading.evidence, lang))
                    wrong_forms.update(dict.fromkeys(reading.inflected))
            return checks + check_terms(transcript.terms, text, lang), fixes

        translation = self.without_echoes(transcript, translation, prompt_lines, removed)
        checks, fixes = evaluate(translation)
        attempts = 1
        before = total(transcript.usage.values())

        def may_try() -> bool:
            spent = total(transcript.usage.values()) - before  # the repairs' calls, counted where metered
            return attempts <= self.repair_budget and spent.evaluated_tokens + spent.output_tokens < self.repair_token_budget

        def consider(candidate: str) -> None:
            """Count the attempt; keep the candidate if it agrees better."""
            nonlocal translation, checks, attempts
            attempts += 1
            candidate = self.without_echoes(transcript, candidate, prompt_lines, removed)
            candidate_checks, _ = evaluate(candidate)
            if _badness(candidate_checks) < _badness(checks):
                translation, checks = candidate, candidate_checks

        def announce() -> str:
            return f"Fixing {fixing(checks)}, try {attempts} of {self.repair_budget}"

        if fixes and may_try():
            yield announce()
            consider(self.rewrite(transcript, translation, fixes, turns, avoid=tuple(wrong_forms)))
        if (not_a_translation(checks) or _failed(checks, FIDELITY)) and may_try():
            yield announce()
            by_sentence = self.translate_by_sentence(transcript, turns)
            if by_sentence is not None:
                consider(by_sentence)
        while _badness(checks)[0] and may_try():  # an unchecked answer is no failure
            yield announce()
            consider(self.translate(transcript, turns, sample_seed=attempts, avoid=tuple(wrong_forms)))
        for check in readings.settled(checks):
            check.attempts = attempts
        return translation, checks

    @staticmethod
    def without_echoes(transcript: Transcript, translation: str, prompt_lines: list[str], removed: dict) -> str:
        """``translation`` without the sentences that restate the prompt's own lines (a small model
        translates "Address the person formally…" and appends it), where cutting them leaves a text
        that adds nothing and leaves out no more than before (what was cut goes in ``removed``);
        otherwise as it is, for the repair. No model call."""
        found = compare(transcript.source, translation, transcript.target_lang, prompt_lines)
        if not found.added:
            return translation
        trimmed = without_pieces(translation, found.added)
        after = compare(transcript.source, trimmed, transcript.target_lang, prompt_lines)
        if after.added or len(after.omitted) > len(found.omitted):
            return translation
        removed[trimmed] = found.added
        return trimmed

    def rewrite(self, transcript: Transcript, translation: str, fixes: list[str],
                turns: list[Turn] | None = None, avoid: tuple[str, ...] = ()) -> str:
        """One call that corrects only what ``fixes`` name in ``translation`` (a lever that works on
        every backend; a small model follows "change tu to vous" far better than it re-translates
        in the other register); ``avoid``: words forbidden on top of the answers'."""
        inputs = {"source": transcript.source, "translation": translation, "fix": "\n".join(fixes)}
        return self._chain("rewrite", transcript.target_lang, None, clean=True,
                           bad_words=self._forbidden(transcript, turns) + avoid).invoke(inputs)

    def _chain(self, prompt_name: str, lang: str, groups: tuple[str, ...] | None, clean: bool = False,
               seed: int | None = None, json_schema: dict | None = None, max_tokens: int | None = None,
               bad_words: tuple[str, ...] = ()) -> Runnable:
        """Prompt | model | parser; greedy unless ``seed`` is given, then sampled with that seed;
        with ``json_schema``, the backend is asked to constrain the reply to it; ``bad_words`` are
        forbidden (vLLM's own field; the in-process backends read it too)."""
        key = (prompt_name, lang, groups)
        if key not in self._prompt_cache:
            self._prompt_cache[key] = load_prompt(prompt_name).chat_prompt(lang, groups)
        options: dict = {} if seed is None else {"temperature": RETRY_TEMPERATURE, "seed": seed}
        if max_tokens is not None:
            options["max_tokens"] = max_tokens
        if bad_words:
            options["extra_body"] = {"bad_words": list(bad_words)}
        if json_schema is not None:
            options["response_format"] = {"type": "json_schema",
                                          "json_schema": {"name": prompt_name, "schema": json_schema}}
        model = self.chat_model.bind(**options) if options else self.chat_model
        chain = self._prompt_cache[key] | model | StrOutputParser()
        chain = chain | RunnableLambda(clean_translation) if clean else chain
        return tagged(chain, prompt_name)
