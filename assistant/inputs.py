"""Checks on text before it reaches a model: clear messages for input that cannot be translated."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from .errors import InputError

MAX_SOURCE_CHARS = 5000
# The opaque tokens that stand for a localisation file's placeholders and inline tags while a
# model reads the text (``assistant.formats.placeholders``): not words of the text.
OPAQUE_TOKEN = re.compile(r"<x\d+/>")


def blank_opaque_tokens(text: str) -> str:
    """``text`` with each opaque token as blanks of its length: a parse sees no word there (the
    spaCy tagger reads "<x2/>" as a name), and every offset stays the source's."""
    return OPAQUE_TOKEN.sub(lambda m: " " * len(m.group(0)), text)


# The same token as a model may write it back in a question's options: "x1", "<x1>", "x1/".
OPAQUE_NAME = re.compile(r"<?/?x\d+/?>?", re.IGNORECASE)
ZERO_WIDTH_SPACE = "\u200b"
# Chat-template control tokens of the common model families. Inside text placed into a prompt they
# would end the data block or open a new turn, and so would the prompt's own tags (``</source>``),
# which the caller names (``assistant.prompts.prompt_tags`` reads them off the prompt files, so no
# list here can miss one). Each gets a zero-width space after its first character: the person
# reading the text sees nothing, the tokenizer no longer finds the token. ``<|`` is broken wherever
# it stands (Qwen/ChatML, Llama 3, Phi: any name, any length, nested or split), and so is
# DeepSeek's fullwidth ``<｜``; the rest are matched by name, in any case.
_ANGLE_TOKENS = (
    "s", "bos", "eos", "pad", "unk", "mask", "start_of_turn", "end_of_turn", "start_of_image", "end_of_image",
    "think", "tool_call", "tool_response", "tools", "image", "img",
)
_BRACKET_TOKENS = (  # Mistral's instruction and tool markers
    "INST", "SYSTEM_PROMPT", "AVAILABLE_TOOLS", "TOOL_CALLS", "TOOL_RESULTS", "TOOL_CONTENT", "THINK",
    "IMG", "IMG_BREAK", "IMG_END", "PREFIX", "MIDDLE", "SUFFIX",
)


@lru_cache(maxsize=8)
def _control_tokens(tags: tuple[str, ...]) -> re.Pattern[str]:
    names = "|".join(re.escape(name) for name in (*_ANGLE_TOKENS, *tags))
    return re.compile(
        r"<[|\uff5c]"
        r"|<</?SYS>>"
        rf"|<\s*/?\s*(?:{names})\b[^<>]{{0,200}}>"
        rf"|\[\s*/?\s*(?:{'|'.join(_BRACKET_TOKENS)})\s*\]",
        re.IGNORECASE,
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


def neutralize_control_tokens(text: str, tags: tuple[str, ...]) -> str:
    """Make chat-template control tokens and the prompt tags named in ``tags`` (``"source"`` for
    ``<source>`` and ``</source>``) in ``text`` inert, so it stays data in a prompt.

    Idempotent: an inert token is not matched again."""
    return _control_tokens(tags).sub(lambda m: m.group(0)[0] + ZERO_WIDTH_SPACE + m.group(0)[1:], text)


def names_a_placeholder(words: list[str]) -> bool:
    """Whether any of ``words`` is a file's hidden placeholder or its bare name ("<x1/>", "x1"): no word
    a person can answer about."""
    return any(OPAQUE_TOKEN.search(word) or OPAQUE_NAME.fullmatch(word.strip()) for word in words)
