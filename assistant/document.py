"""Document mode: translate a text paragraph by paragraph, asking each question once.

Every answer is kept for the rest of the document (``PreferenceMemory(every_answer=True)``),
so "you" keeps one register and each person one gender throughout. Each paragraph gets
what came before as its context: an extract of the earlier paragraphs relevant to it or,
under ``extract+abstract``, a rolling summary that the model rewrites after each paragraph.
A file whose question sheet was answered is read already: its distinct segments are translated once
each, several at a time where the model batches them (``translate_read``).
"""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Iterator

from .chain import Assistant, ChainOptions, KnownQuestions, PreferenceMemory
from .context import focus_spans
from .context.abstract import Summarizer
from .context.sentences import MAX_CONTEXT_CHARS
from .errors import InputError
from .explain import decisions_note
from .glossary import Glossary
from .inputs import validate_source
from .transcript import IN_ADVANCE, Transcript, Turn
from .users import NoUser, User

MAX_DOCUMENT_CHARS = MAX_CONTEXT_CHARS
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")
_TAG = re.compile(r"<[^<>]*>")

# Called before each paragraph with (its number from 1, the paragraph count, the paragraph, its context).
ParagraphHook = Callable[[int, int, str, str | None], None]
# A file's segments in, one (translation, needs review) pair out per segment (``assistant.formats`` drives it).
SegmentTranslator = Callable[[list[str]], Iterable[tuple[str, bool]]]
# The same, with each segment's note for its unit (``noted``).
NotedTranslator = Callable[[list[str]], Iterable[tuple[str, bool, str | None]]]


def split_paragraphs(text: str) -> list[str]:
    """Paragraphs separated by blank lines, each checked like a single text; hard-wrapped lines are joined."""
    if len(text) > MAX_DOCUMENT_CHARS:
        raise InputError(f"the document has {len(text)} characters; at most {MAX_DOCUMENT_CHARS} are translated "
                         "in one run. Split it into parts")
    paragraphs = [" ".join(part.split()) for part in _PARAGRAPH_BREAK.split(text) if part.strip()]
    if not paragraphs:
        raise InputError("nothing to translate: the document is empty")
    checked = []
    for number, paragraph in enumerate(paragraphs, 1):
        try:
            checked.append(validate_source(paragraph))
        except InputError as err:
            raise InputError(f"paragraph {number}: {err}") from None
    return checked


@dataclass
class DocumentTranslation:
    """One transcript per paragraph, in order."""

    target_lang: str
    paragraphs: list[Transcript] = field(default_factory=list)

    @property
    def translation(self) -> str:
        return "\n\n".join(t.translation or "" for t in self.paragraphs)

    def asked(self) -> list[Turn]:
        """The questions actually put to the user (remembered answers excluded)."""
        return [turn for t in self.paragraphs for turn in t.turns if turn.answered_by not in IN_ADVANCE]

    def to_dict(self) -> dict[str, Any]:
        return {"target_lang": self.target_lang, "translation": self.translation,
                "paragraphs": [t.to_dict() for t in self.paragraphs]}

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)


class DocumentTranslator:
    """Translates a document with one ``Assistant``, under ``options`` (the assistant's by default);
    the context policy is the assistant's.

    background: what the person says about the document (``--context``); it comes first in
        every paragraph's context, before what came earlier in the document.
    glossary: term translations the whole document keeps (given to the translator and checked).
    """

    def __init__(self, assistant: Assistant, target_lang: str, options: ChainOptions | None = None, *,
                 background: str | None = None, glossary: Glossary | None = None):
        self.assistant = assistant
        self.target_lang = target_lang
        self.options = options or assistant.options
        self.background = background.strip() if background and background.strip() else None
        self.glossary = glossary
        self.summarizing = assistant.context_policy.strategy == "extract+abstract"

    def translate(self, text: str, user: User | None = None, on_paragraph: ParagraphHook | None = None,
                  preferences: PreferenceMemory | None = None) -> DocumentTranslation:
        result = DocumentTranslation(self.target_lang)
        result.paragraphs.extend(self.translate_units(split_paragraphs(text), user, on_paragraph, preferences))
        return result

    def translate_units(self, units: list[str], user: User | None = None, on_unit: ParagraphHook | None = None,
                        preferences: PreferenceMemory | None = None) -> Iterator[Transcript]:
        """Each unit's transcript, in order, as soon as it is done; every answer is kept for the later units.

        ``preferences`` may hold answers given in advance (an API request's formality)."""
        memory = preferences or PreferenceMemory(every_answer=True)
        summary = ""
        for number, unit in enumerate(units, 1):
            context = self._context(units[:number - 1], summary, unit)
            if on_unit:
                on_unit(number, len(units), unit, context)
            # with-context has nothing to read before the first unit unless the person gave a background
            options = self.options
            if options.method == "with-context" and context is None:
                options = replace(options, method="no-extra")
            yield self.assistant.run(unit, self.target_lang, options, context=context, user=user or NoUser(),
                                     preferences=memory, glossary=self.glossary)
            if self.summarizing and number < len(units):
                summary = self._summarize(summary, unit)

    def translate_read(self, units: list[str], known: KnownQuestions, user: User | None = None,
                       preferences: PreferenceMemory | None = None) -> Iterator[Transcript]:
        """Each unit's transcript, in order, for a document read before (``known``: its question sheet,
        answered): nothing is asked during the translation, so the same text under the same answers
        translates the same way, and a repeated unit gets its first occurrence's transcript for nothing.
        Up to the assistant's ``in_flight`` distinct units go to the model at once (a server batches
        them). A unit's context is the background alone: no step of a read unit reads what came before."""
        def run(unit: str) -> Transcript:
            return self.assistant.run(unit, self.target_lang, self.options, context=self.background,
                                      user=user or NoUser(), preferences=preferences, glossary=self.glossary,
                                      known=known)

        translated: dict[str, Transcript] = {}
        distinct = list(dict.fromkeys(units))
        pool = ThreadPoolExecutor(max_workers=self.assistant.in_flight, thread_name_prefix="segment")
        try:
            done = zip(distinct, pool.map(run, distinct))
            for unit in units:
                while unit not in translated:
                    first, transcript = next(done)
                    translated[first] = transcript
                yield translated[unit]
        finally:  # a failed or abandoned file sends no more units
            pool.shutdown(cancel_futures=True)

    def segment_translator(self, user: User | None, record: list[Transcript],
                           preferences: PreferenceMemory | None = None,
                           known: KnownQuestions | None = None) -> SegmentTranslator:
        """A file format's segment translator: each segment through the chain (its transcript goes to
        ``record``), flagged for review when a check failed; with ``known`` (the file's answered sheet)
        each distinct segment is translated once (``translate_read``). A segment with no words (a lone
        placeholder) is kept as it is."""
        def translate(segments: list[str]) -> Iterator[tuple[str, bool]]:
            worded = [s for s in segments if _has_words(s)]
            done = (self.translate_units(worded, user, preferences=preferences) if known is None
                    else self.translate_read(worded, known, user, preferences))
            for segment in segments:
                if not _has_words(segment):
                    yield segment, False
                    continue
                transcript = next(done)
                record.append(transcript)
                yield transcript.translation or "", any(check.status == "fail" for check in transcript.checks)

        return translate

    def _context(self, earlier: list[str], summary: str, paragraph: str) -> str | None:
        """The background, then what came before: the rolling summary, or an extract of the earlier paragraphs."""
        if self.summarizing:
            before = summary
        else:
            before = self.assistant.context_policy.apply("\n\n".join(earlier), paragraph,
                                                         focus_spans(paragraph, self.target_lang)).text
        return "\n\n".join(part for part in (self.background, before) if part) or None

    def _summarize(self, summary: str, paragraph: str) -> str:
        """The summary so far rewritten with ``paragraph``, from an extract within the budget."""
        so_far = "\n\n".join(part for part in (summary, paragraph) if part)
        bounded = self.assistant.context_policy.apply(so_far, paragraph, focus_spans(paragraph, self.target_lang),
                                                      Summarizer(self.assistant.chat_model, self.target_lang))
        return bounded.summary or bounded.text


def noted(translate: SegmentTranslator, record: list[Transcript]) -> NotedTranslator:
    """``translate`` with each segment's note (which answers or guesses shaped it) and every segment whose
    question nobody answered flagged for review: the model guessed, and a reviewer should know."""
    def run(segments: list[str]) -> Iterator[tuple[str, bool, str | None]]:
        seen = 0
        for text, uncertain in translate(segments):
            transcript = record[-1] if len(record) > seen else None  # a segment without words has none
            seen = len(record)
            guessed = transcript is not None and any(turn.answer is None for turn in transcript.turns)
            yield text, uncertain or guessed, decisions_note(transcript) if transcript else None

    return run


def _has_words(segment: str) -> bool:
    """Whether a segment has a letter outside its tags and masked placeholders."""
    return any(ch.isalpha() for ch in _TAG.sub("", segment))
