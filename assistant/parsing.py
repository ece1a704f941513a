"""Turn a model's raw reply into clean text, tolerating the wrappers small models add."""

from __future__ import annotations

import re

from .errors import BackendError

_FENCE = re.compile(r"^```[\w-]*\n(.*?)\n?```$", re.DOTALL)
_LABEL = re.compile(r"^(?:translation|traduction|übersetzung|traducción|翻訳)\s*[:：]\s*", re.IGNORECASE)
_TAGS = re.compile(r"</?(?:source|translation)>", re.IGNORECASE)
_QUOTE_PAIRS = {'"': '"', "«": "»", "“": "”", "„": "“", "「": "」"}


def clean_translation(reply: str) -> str:
    """Strip code fences, a leading 'Translation:' label, echoed tags and wrapping quotes."""
    text = reply.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1).strip()
    text = _TAGS.sub("", text).strip()
    text = _LABEL.sub("", text).strip()
    if len(text) >= 2 and _QUOTE_PAIRS.get(text[0]) == text[-1] and text.count(text[0]) == 1 + (text[0] == text[-1]):
        text = text[1:-1].strip()
    if not text:
        raise BackendError(f"the model returned no translation (raw reply: {reply[:80]!r})")
    return text
