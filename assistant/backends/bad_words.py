"""Words a reply must not contain, as the token sequences a decoder forbids.

The chain sends them as vLLM does (``extra_body={"bad_words": [...]}``): a vLLM server forbids
them itself, the in-process backends through these helpers, with vLLM's meaning: the last token
of a word's sequence is forbidden once the reply ends with the tokens before it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence


def token_sequences(words: Iterable[str], encode: Callable[[str], list[int]]) -> list[list[int]]:
    """Each word as the tokenizer writes it at the start of a text and after a space."""
    sequences = {tuple(encode(variant)) for word in words for variant in (word, " " + word)}
    return [list(s) for s in sorted(sequences) if s]


def forbidden_next(sequences: list[list[int]], ids: Sequence[int]) -> set[int]:
    """The tokens that would complete a forbidden sequence after ``ids``."""
    tail = list(ids)
    return {s[-1] for s in sequences if len(s) == 1 or tail[len(tail) - len(s) + 1:] == s[:-1]}
