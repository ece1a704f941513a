"""Which language a translation is written in, told apart from English: enough to notice a model
that answered, obeyed or echoed the text in English instead of translating it.

Whitespace languages are told apart by spaCy's stop-word lists (the words only one of the two
languages uses: "the", "and", "would" against "le", "und", "pero"); Japanese by its script. No
verdict for text with no such cue (a name, a number, a one-word reply), so a caller can tell "could
not be judged" from "English".
"""

from __future__ import annotations

import importlib
import re
from functools import lru_cache

_WORD = re.compile(r"[^\W\d_]+")
_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff66-\uff9f]")
_LATIN_LETTER = re.compile(r"[A-Za-z]")
# Japanese text often carries Latin names and terms; below this share of Japanese characters among
# its letters a reply reads as not Japanese.
MIN_JAPANESE_SHARE = 0.3


@lru_cache(maxsize=None)
def stop_words(lang: str) -> frozenset[str]:
    return frozenset(importlib.import_module(f"spacy.lang.{lang}.stop_words").STOP_WORDS)


def is_target_not_english(text: str, lang: str) -> bool | None:
    """True when ``text`` reads as ``lang``, False when it reads as English, None without a cue."""
    if lang == "ja":
        japanese, latin = len(_JAPANESE.findall(text)), len(_LATIN_LETTER.findall(text))
        if japanese + latin == 0:
            return None
        return japanese / (japanese + latin) >= MIN_JAPANESE_SHARE
    english, target = stop_words("en"), stop_words(lang)
    words = [word.lower() for word in _WORD.findall(text)]
    english_only = sum(word in english - target for word in words)
    target_only = sum(word in target - english for word in words)
    if english_only == target_only == 0:
        return None
    return target_only >= english_only
