"""A context split into sentences by spaCy, each knowing where it lies in the text."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterator

from ..nlp.pipelines import english_pipeline
from ..errors import InputError

# Parsing cost grows with the text: beyond this a person is asked for the part that matters.
MAX_CONTEXT_CHARS = 200_000
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")


@dataclass(frozen=True)
class Sentence:
    """One context sentence: its index, its spaCy span, and where its paragraph starts in the context."""

    index: int
    span: Any
    base: int

    @property
    def tokens(self) -> list[Any]:
        """The counted tokens (whitespace excluded, as in ``count_tokens``)."""
        return [token for token in self.span if not token.is_space]

    def offset(self, token: Any) -> int:
        """Where ``token`` starts in the context."""
        return self.base + token.idx

    def end_of(self, token: Any) -> int:
        """Where ``token`` ends in the context."""
        return self.base + token.idx + len(token.text)

    @property
    def start(self) -> int:
        return self.offset(self.tokens[0])

    @property
    def end(self) -> int:
        return self.end_of(self.tokens[-1])


def split_sentences(context: str) -> list[Sentence]:
    """The sentences of ``context`` in order; paragraphs are parsed separately, so a long
    text is parsed in pieces of bounded size."""
    if len(context) > MAX_CONTEXT_CHARS:
        raise InputError(f"the context has {len(context)} characters; at most {MAX_CONTEXT_CHARS} can be read. "
                         "Give the part that concerns the text")
    if "\x00" in context:
        raise InputError("the context looks like binary data, not text")
    offsets, texts = zip(*_paragraphs(context)) if context.strip() else ((), ())
    sentences: list[Sentence] = []
    for offset, doc in zip(offsets, english_pipeline().pipe(texts)):
        for sent in doc.sents:
            if sent.text.strip():
                sentences.append(Sentence(len(sentences), sent, offset))
    return sentences


def _paragraphs(text: str) -> Iterator[tuple[int, str]]:
    start = 0
    for brk in _PARAGRAPH_BREAK.finditer(text):
        if text[start:brk.start()].strip():
            yield start, text[start:brk.start()]
        start = brk.end()
    if text[start:].strip():
        yield start, text[start:]
