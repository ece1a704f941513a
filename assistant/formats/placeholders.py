"""Protect placeholders and inline tags from the model: mask them as opaque tokens, restore them after.

What counts as a placeholder is translate-toolkit's placeable parsers (the ones its checks and
editors use): HTML/XML tags and XLIFF inline codes, Python ``%s``/``%(name)d``, printf ``%d``,
and brace fields ``{name}``/``{0}``/``{{x}}``. Each occurrence becomes ``<xN/>``, a short empty
tag that models copy through a translation unchanged; ``placeholder_check`` then says whether
the translation kept every one exactly once.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from ..transcript import Check

_TOKEN = re.compile(r"<\s*x\s*(\d+)\s*/?\s*>", re.IGNORECASE)


@lru_cache(maxsize=1)
def _parsers() -> tuple:
    from translate.storage.placeables import general

    return (general.XMLTagPlaceable.parse, general.PythonFormattingPlaceable.parse,
            general.FormattingPlaceable.parse, general.BracePlaceable.parse)


def find_placeholders(text: str) -> list[str]:
    """The placeholders and tags of ``text`` in order, each occurrence once."""
    return [part for part, is_placeholder in _pieces(text) if is_placeholder]


def _pieces(text: str) -> list[tuple[str, bool]]:
    """``text`` cut into (piece, is_placeholder); a printf match with a space in it ("100% done") is prose."""
    from translate.storage.placeables import StringElem, general, parse

    pieces: list[tuple[str, bool]] = []
    for elem in parse(StringElem(text), list(_parsers())).flatten():
        piece = str(elem)
        is_placeholder = type(elem) is not StringElem and (
            isinstance(elem, general.XMLTagPlaceable) or not any(c.isspace() for c in piece))
        if pieces and not is_placeholder and not pieces[-1][1]:
            pieces[-1] = (pieces[-1][0] + piece, False)
        else:
            pieces.append((piece, is_placeholder))
    return pieces


@dataclass(frozen=True)
class Masked:
    """A text with its placeholders replaced by ``<xN/>`` tokens, and what each token stands for."""

    text: str
    originals: tuple[str, ...]

    def restore(self, translation: str) -> str:
        """Put the originals back; a token the text never had is left as it is (the check reports it)."""
        def original(match: re.Match) -> str:
            index = int(match.group(1)) - 1
            return self.originals[index] if 0 <= index < len(self.originals) else match.group(0)

        return _TOKEN.sub(original, translation)


def mask(text: str) -> Masked:
    """Replace every placeholder occurrence by its own numbered token."""
    parts, originals = [], []
    for piece, is_placeholder in _pieces(text):
        if is_placeholder:
            originals.append(piece)
            parts.append(f"<x{len(originals)}/>")
        else:
            parts.append(piece)
    return Masked("".join(parts), tuple(originals))


def placeholder_check(source: str, translation: str) -> Check:
    """Pass when the translation has every placeholder of the source exactly as often, and no other."""
    expected, observed = Counter(find_placeholders(source)), Counter(find_placeholders(translation))
    problems = []
    for placeholder in expected:
        if observed[placeholder] < expected[placeholder]:
            problems.append(f"missing {placeholder}")
        elif observed[placeholder] > expected[placeholder]:
            problems.append(f"duplicated {placeholder}")
    problems += [f"unexpected {placeholder}" for placeholder in observed if placeholder not in expected]
    return Check(name="placeholders", expected=" ".join(expected.elements()) or "none",
                 observed="; ".join(problems) or " ".join(observed.elements()) or "none",
                 status="fail" if problems else "pass")
