"""Words a reply must not contain, as the token sequences a decoder forbids.

The chain names them in a request's ``bad_words`` as vLLM does: a vLLM server forbids them
itself, the in-process backends through these helpers, with vLLM's meaning: the last token
of a word's sequence is forbidden once the reply ends with the tokens before it. Words of a script
written without spaces (Japanese) are forbidden as text instead (``TextBan``), wherever they appear.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable, Sequence


def token_sequences(words: Iterable[str], encode: Callable[[str], list[int]]) -> list[list[int]]:
    """Each word as the tokenizer writes it at the start of a text and after a space."""
    sequences = {tuple(encode(variant)) for word in words for variant in (word, " " + word)}
    return [list(s) for s in sorted(sequences) if s]


def forbidden_next(sequences: list[list[int]], ids: Sequence[int]) -> set[int]:
    """The tokens that would complete a forbidden sequence after ``ids``."""
    tail = list(ids)
    return {s[-1] for s in sequences if len(s) == 1 or tail[len(tail) - len(s) + 1:] == s[:-1]}


# Kana and CJK ideographs: scripts written without spaces, whose tokenizers merge a word with its
# neighbours (Qwen2.5 writes ありがとうございます and きました as one token each), so that forbidding
# the word's own tokens misses it; such words are forbidden as text wherever it appears.
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def is_unspaced(word: str) -> bool:
    """Whether ``word`` is written in a script without spaces (Japanese kana or kanji)."""
    return bool(_UNSPACED.search(word))


class TextBan:
    """Forbid strings anywhere in a reply, whichever tokens spell them: a token that contains one
    is never allowed, and a token that would finish one is not allowed once the reply ends with the
    rest of it. Works on the tokens' bytes, so byte-level tokens that split a character count too.

    ``vocabulary``: each token id's bytes (index = id)."""

    def __init__(self, words: Iterable[str], vocabulary: Sequence[bytes]):
        self.words = sorted({w.encode() for w in words if w})
        self.longest = max((len(w) for w in self.words), default=0)
        self.always = sorted(i for i, token in enumerate(vocabulary) if any(w in token for w in self.words))
        ordered = sorted((token, i) for i, token in enumerate(vocabulary) if token)
        keys = [token for token, _ in ordered]
        self.finishing: dict[bytes, list[int]] = {}
        for word in self.words:
            for cut in range(1, len(word)):
                rest = word[cut:]
                start = bisect.bisect_left(keys, rest)
                end = start
                while end < len(keys) and keys[end].startswith(rest):
                    end += 1
                self.finishing.setdefault(word[:cut], []).extend(i for _, i in ordered[start:end])

    def forbidden(self, tail: bytes) -> list[int]:
        """The token ids not allowed after a reply that ends with ``tail`` (its last ``longest`` bytes suffice)."""
        banned = list(self.always)
        for start, ids in self.finishing.items():
            if tail.endswith(start):
                banned += ids
        return banned
