"""Target languages the assistant translates into (the source is always English)."""

from __future__ import annotations

import locale
import re
from functools import lru_cache

from .errors import InputError

LANGUAGES: dict[str, str] = {
    "fr": "French",
    "de": "German",
    "es": "Spanish",
    "ja": "Japanese",
}
# Regions a language is written for that no locale of the C library's table names: Latin American
# Spanish (UN M.49 419), which DeepL's API takes as ES-419.
MORE_REGIONS: dict[str, tuple[str, ...]] = {"es": ("419",)}
_LOCALE_NAME = re.compile(r"([a-z]{2,3})_([a-z]{2})(?:[.@].*)?")


@lru_cache(maxsize=1)
def _regions() -> dict[str, frozenset[str]]:
    """The regions each target language has a locale for (fr_CA, de_AT, es_MX, ja_JP…), as Python's copy
    of the C library's locale table lists them, lower-cased."""
    found: dict[str, set[str]] = {lang: set(MORE_REGIONS.get(lang, ())) for lang in LANGUAGES}
    for name in locale.locale_alias:
        match = _LOCALE_NAME.fullmatch(name)
        if match and match[1] in found:
            found[match[1]].add(match[2])
    return {lang: frozenset(regions) for lang, regions in found.items()}


def target_language(code: str) -> str | None:
    """The target language a language tag names: its code (``fr``, ``FR``) or a regional variant that
    exists (``fr-CA``, ``es-419``, ``DE-AT``); None for anything else (``fr-zzz``, ``fr-XX``, ``it``)."""
    lang, dash, region = code.strip().lower().partition("-")
    if lang not in LANGUAGES or (dash and region not in _regions()[lang]):
        return None
    return lang


def language_name(code: str) -> str:
    """English name of a supported target language code; a clear error otherwise."""
    try:
        return LANGUAGES[code.strip().lower()]
    except KeyError:
        supported = ", ".join(LANGUAGES)
        raise InputError(f"unsupported target language {code!r}; choose one of: {supported}") from None
