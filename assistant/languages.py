"""Target languages the assistant translates into (the source is always English)."""

from __future__ import annotations

from .errors import InputError

LANGUAGES: dict[str, str] = {
    "fr": "French",
    "de": "German",
    "es": "Spanish",
    "ja": "Japanese",
}


def language_name(code: str) -> str:
    """English name of a supported target language code; a clear error otherwise."""
    try:
        return LANGUAGES[code.strip().lower()]
    except KeyError:
        supported = ", ".join(LANGUAGES)
        raise InputError(f"unsupported target language {code!r}; choose one of: {supported}") from None
