"""Checks on text before it reaches a model: clear messages for input that cannot be translated."""

from __future__ import annotations

import re
import unicodedata

from .errors import InputError

MAX_SOURCE_CHARS = 5000
# Chat-template control tokens of common model families, and the tags our prompts wrap user
# text in. Inside user text they would end the data block or open a new turn, so each gets
# a zero-width space inside.
_CONTROL_TOKENS = re.compile(
    r"<\|[A-Za-z_][\w.-]{0,40}\|>|\[/?INST\]|<</?SYS>>|</?s>|<(?:start|end)_of_turn>"
    r"|</?(?:source|context|clarifications|text)>"
)


def validate_source(text: str | bytes, max_chars: int = MAX_SOURCE_CHARS) -> str:
    """Return the stripped source, or raise ``InputError`` saying what is wrong with it."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError("the input is not UTF-8 text (binary data?); give plain text to translate") from None
    if "\x00" in text or _control_share(text) > 0.1:
        raise InputError("the input looks like binary data, not text; give plain text to translate")
    text = text.strip()
    if not any(ch.isalnum() or unicodedata.category(ch).startswith(("P", "S")) for ch in text):
        raise InputError("nothing to translate: the text is empty (only spaces or invisible characters)")
    if len(text) > max_chars:
        raise InputError(
            f"the text has {len(text)} characters; one request takes at most {max_chars}. "
            "Split it into paragraphs and translate them one by one"
        )
    return text


def _control_share(text: str) -> float:
    if not text:
        return 0.0
    controls = sum(1 for ch in text if ord(ch) < 32 and ch not in "\n\r\t")
    return controls / len(text)


def neutralize_control_tokens(text: str) -> str:
    """Make chat-template control tokens in user text inert, so text stays data inside a prompt."""
    return _CONTROL_TOKENS.sub(lambda m: m.group(0)[0] + "\u200b" + m.group(0)[1:], text)
