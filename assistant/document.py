"""Document mode: translate a text paragraph by paragraph, asking each question once.

Every answer is kept for the rest of the document (``PreferenceMemory(every_answer=True)``),
so "you" keeps one register and each person one gender throughout. Each paragraph gets
what came before as its context: an extract of the earlier paragraphs relevant to it or,
under ``extract+abstract``, a rolling summary that the model rewrites after each paragraph.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from .chain import DEFAULT_MAX_QUESTIONS, Assistant, PreferenceMemory
from .context import focus_spans
from .context.abstract import Summarizer
from .context.sentences import MAX_CONTEXT_CHARS
from .errors import InputError
from .inputs import validate_source
from .transcript import Transcript, Turn
from .users import NoUser, User

MAX_DOCUMENT_CHARS = MAX_CONTEXT_CHARS
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")

# Called before each paragraph with (its number from 1, the paragraph count, the paragraph, its context).
ParagraphHook = Callable[[int, int, str, str | None], None]


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
        return [turn for t in self.paragraphs for turn in t.turns if turn.answered_by != "preference"]

    def to_dict(self) -> dict[str, Any]:
        return {"target_lang": self.target_lang, "translation": self.translation,
                "paragraphs": [t.to_dict() for t in self.paragraphs]}

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)


class DocumentTranslator:
    """Translates a document with one ``Assistant``; the context policy is the assistant's.

    background: what the person says about the document (``--context``); it comes first in
        every paragraph's context, before what came earlier in the document.
    """

    def __init__(self, assistant: Assistant, target_lang: str, *, method: str = "intercpt",
                 max_questions: int = DEFAULT_MAX_QUESTIONS, background: str | None = None):
        self.assistant = assistant
        self.target_lang = target_lang
        self.method = method
        self.max_questions = max_questions
        self.background = background.strip() if background and background.strip() else None
        self.summarizing = assistant.context_policy.strategy == "extract+abstract"

    def translate(self, text: str, user: User | None = None, on_paragraph: ParagraphHook | None = None
                  ) -> DocumentTranslation:
        paragraphs = split_paragraphs(text)
        memory = PreferenceMemory(every_answer=True)
        result = DocumentTranslation(self.target_lang)
        summary = ""
        for number, paragraph in enumerate(paragraphs, 1):
            context = self._context(paragraphs[:number - 1], summary, paragraph)
            if on_paragraph:
                on_paragraph(number, len(paragraphs), paragraph, context)
            # with-context has nothing to read before the first paragraph unless the person gave a background
            method = "no-extra" if self.method == "with-context" and context is None else self.method
            result.paragraphs.append(self.assistant.run(paragraph, self.target_lang, method=method,
                                                        context=context, user=user or NoUser(),
                                                        max_questions=self.max_questions, preferences=memory))
            if self.summarizing and number < len(paragraphs):
                summary = self._summarize(summary, paragraph)
        return result

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
