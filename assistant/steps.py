"""The model steps of the chain: decide which candidates to ask about, ask, translate, rewrite.

Each step is one prompt sent to the chat model; none of them knows about dialogues, users or
repairs, so the dialogue and the repair (above) drive them and the steps never call back up.
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import Runnable, RunnableLambda

from .ambiguity import forbidden_for, get_type
from .backends import GenerationRequest, StructuredOutputs
from .checks import expected, without_markup
from .context.abstract import Summarizer
from .detection import Candidate
from .fidelity import source_pieces
from .glossary import Glossary
from .inputs import names_a_placeholder
from .nlp.referents import named_before, named_in_text
from .options import ChainOptions
from .parsing import Detection, clean_translation, decision_schema, parse_decisions, parse_detection
from .prompts import clarification_line, load_prompt, marked, prompt_table, tagged
from .transcript import Transcript, Turn
from .usage import UsageCounter

# The budgets of a translation's repair (``assistant.repair``): at most this many rounds after the
# first translation, and its calls stop once they have computed this many tokens (prompt tokens
# evaluated, not restored from a cache, plus tokens written): rounds alone do not bound a long text
# repaired one sentence at a time, a call per sentence. Three rewrites of a paragraph fit in it.
# Two rounds: on GATE with the 1.5B test model a third round removed no failure in 7 tries
# (benchmarks/results/repair-rounds.md).
REPAIR_BUDGET = 2
REPAIR_TOKEN_BUDGET = 4000
RETRY_TEMPERATURE = 0.7
DECISION_TOKENS = 8  # reply tokens per word in a decide call: '"1": "yes", '


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


def mark_tags() -> dict[str, dict[str, str]]:
    """The check that reads an answer -> its label -> the tag that marks the words of the person so
    answered in the source the translator reads (``prompts/reminders.yaml``'s ``marks``)."""
    return prompt_table("reminders")["marks"]


def mark_names() -> frozenset[str]:
    """Every tag that marks a person's words."""
    return frozenset(tag for labels in mark_tags().values() for tag in labels.values())


def answered_marks(source: str, turns: list[Turn]) -> list[tuple[int, int, str]]:
    """Where the source names each person an answer gives a gender the table marks, and its tag: told
    only in lines after the text, the 1.5B test model's first translation failed the answered gender
    in 21 of 60 GATE fr items (19 of another 60), with a woman's words marked (``<female>the
    bearer</female>``) in 14 (13)."""
    return [(turn.start, turn.start + len(turn.span), tag) for e in expected(turns)
            if (tag := mark_tags().get(e.checker.name, {}).get(e.label)) and (turn := e.turn).start is not None
            and source[turn.start:turn.start + len(turn.span)] == turn.span]


def clarifications(transcript: Transcript, turns: list[Turn]) -> list[str]:
    """What the translator is told beyond the source: each answer with its type's reminder for what
    it means (and for what it says beside: "several"), then the glossary terms the source contains.
    Beside a reminder, which says what to do, the question is stated as the table's brief one."""
    lang = transcript.target_lang
    lines = []
    for turn in (t for t in turns if t.answer):
        reminders = [wanted.ambiguity_type.reminder(label, lang) for wanted in expected([turn])
                     for label in [wanted.label, *wanted.notes] if label]
        brief = get_type(turn.ambiguity).brief_question(turn.span, lang) if any(reminders) else None
        lines += [clarification_line(brief or turn.question, turn.answer), *reminders]
    if transcript.terms:
        lines += [prompt_table("reminders")["terms"], *Glossary.prompt_lines(transcript.terms)]
    return lines


def _about_the_whole_text(transcript: Transcript, turns: list[Turn]) -> bool:
    """Whether every answer is about the whole text (its register) and no glossary term is told: those
    answers go before the text (``prompts/translate_addressed.yaml`` says why), the others after it."""
    answered = [turn for turn in turns if turn.answer]
    wanted = expected(answered)
    return not transcript.terms and len(wanted) == len(answered) and all(e.checker.whole_text for e in wanted)


class ModelSteps:
    """The chain's calls to one chat model.

    options: the chain's options; of them the steps read the prompt variant (``generalist``
        detection prompts show examples of every ambiguity type, ``specialist`` ones only the
        type the pre-pass found).
    repair_budget: how many rounds the repair of a translation may make (``assistant.repair``);
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

    def under(self, options: ChainOptions) -> "ModelSteps":
        """These steps under a request's ``options`` (its prompts, inclusive forms): a copy, sharing the model and
        what it has read."""
        steps = copy.copy(self)
        steps.options = options
        return steps

    def counted_for(self, transcript: Transcript, options: ChainOptions | None = None) -> "ModelSteps":
        """These steps, under ``options`` (these steps' by default), with every model call counted in
        ``transcript.usage``, under the step the transcript has open when the call starts. A copy, since
        one ``ModelSteps`` serves concurrent dialogues; the count rides on the model's own callbacks, so
        it holds in whatever thread or context the dialogue is advanced."""
        counted = self.under(options or self.options)
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
        words = "\n".join(f'{i}. "{c.span}": {get_type(c.ambiguity).label}'
                           for i, c in enumerate(candidates, 1))
        schema = decision_schema(len(candidates)) if self.structured_output else None
        verdicts = None
        for seed in (None, 1):
            chain = self._chain("decide", target_lang, groups or tuple(load_prompt("decide").examples), seed=seed,
                                json_schema=schema, max_tokens=DECISION_TOKENS * len(candidates) + 4)
            verdicts = parse_decisions(chain.invoke({"source": source, "words": words}), len(candidates))
            if verdicts is not None:
                break
        return verdicts or [True] * len(candidates)

    @staticmethod
    def fixed_turn(candidate: Candidate, target_lang: str) -> Turn:
        ambiguity_type = get_type(candidate.ambiguity)
        return Turn(ambiguity=candidate.ambiguity, span=candidate.span,
                    question=ambiguity_type.fixed_question(candidate.span, target_lang),
                    options=list(ambiguity_type.options(target_lang)), start=candidate.start)

    def ask(self, source: str, target_lang: str, candidate: Candidate, context: str | None = None) -> Turn | None:
        """The question about ``candidate`` (see ``_question``), or None; a text read before with the
        same context gets the same question again without a model call."""
        turn = self._seen.lookup(("ask", source, target_lang, candidate, context, self.options.prompts),
                                 lambda: self._question(source, target_lang, candidate, context))
        return replace(turn) if turn is not None else None  # its answer goes into a copy of its own

    def _question(self, source: str, target_lang: str, candidate: Candidate, context: str | None) -> Turn | None:
        """One detection call for a type with open options ("it", a word's sense), in which the model
        writes the options, and the question where the table has none (retried once, sampling, if
        unparsable): a question, or None. Where the type wants options from the text, only those
        naming a noun phrase of the source or of its ``context`` are kept: a person cannot answer a
        question about invented things or about grammar. Where just one is kept and the source names
        it before "it", outside its clause, the text says what "it" is (``named_before``): no
        question. With fewer than two, the person names the thing in their own words, under the
        table's open question, or no question when the table has none."""
        ambiguity_type = get_type(candidate.ambiguity)
        prompt = load_prompt("detect")
        groups = (candidate.ambiguity,) if self.options.specialist else tuple(prompt.examples)
        inputs = {"source": source, "span": candidate.span, "ambiguity": ambiguity_type.label}
        fixed_question = ambiguity_type.open_question(candidate.span, target_lang) \
            if ambiguity_type.options_in_text else None
        detection = None
        for seed in (None, 1):
            schema = Detection.model_json_schema() if self.structured_output else None
            detection = parse_detection(self._chain("detect", target_lang, groups, seed=seed, json_schema=schema)
                                        .invoke(inputs), question_fixed=fixed_question is not None)
            if detection is not None:
                break
        if detection is None or not detection.ambiguous:
            return None
        options = list(ambiguity_type.options(target_lang)) or detection.options[:4]
        if names_a_placeholder([detection.question, *options]):
            return None  # a file's hidden placeholder ("<x1/>") is no word a person can answer about
        question = detection.question
        if ambiguity_type.options_in_text:
            options = named_in_text(options, source, context)
            if len(options) == 1 and named_before(options[0], source, candidate.start):
                return None  # one thing of the text, named before "it": the translation names it too
            if len(options) < 2:  # what "it" is lies outside the text: the person names it in their own words
                options = []
            # the table's question names the words asked about; a small model's own often does not
            # ("What is the exception instance?" for "it"), so where the table has one the model writes none
            question = fixed_question or (question if options else None)
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
        return forbidden_for([(e.ambiguity_type.forbidden, e.label) for e in answers if e.label],
                             transcript.target_lang, transcript.source)

    def _translation_prompt(self, transcript: Transcript, turns: list[Turn] | None,
                            source: str | None = None) -> tuple[str, dict[str, str]]:
        source = transcript.source if source is None else source
        if transcript.method == "with-context":
            return "translate_context", {"context": self.context_for_translator(transcript), "source": source}
        turns = transcript.turns if turns is None else turns
        lines = clarifications(transcript, turns)
        if not lines:
            return "translate", {"source": source}
        if source == transcript.source:  # a part of it (one sentence) is translated without marks
            source = marked(source, answered_marks(source, turns))
        name = "translate_addressed" if _about_the_whole_text(transcript, turns) else "translate_clarified"
        return name, {"source": source, "clarifications": "\n".join(lines)}

    def context_for_translator(self, transcript: Transcript) -> str:
        """The context the dialogue bounded, or under ``extract+abstract`` its summary (written once,
        kept in the transcript)."""
        bounded = transcript.bounded_context
        if bounded.strategy == "extract+abstract" and bounded.summary is None:
            bounded.summary = Summarizer(self.chat_model, transcript.target_lang)(bounded.text)
        return bounded.summary or bounded.text

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
        forbidden."""
        key = (prompt_name, lang, groups)
        if key not in self._prompt_cache:
            self._prompt_cache[key] = load_prompt(prompt_name).chat_prompt(lang, groups)
        request = GenerationRequest(
            temperature=None if seed is None else RETRY_TEMPERATURE, seed=seed, max_tokens=max_tokens,
            bad_words=bad_words,
            structured_outputs=None if json_schema is None else StructuredOutputs(json=json_schema))
        model = request.bound_to(self.chat_model)
        chain = self._prompt_cache[key] | model | StrOutputParser()
        chain = chain | RunnableLambda(clean_translation) if clean else chain
        return tagged(chain, prompt_name)
