"""What every file format offers: units to translate, and writing the translated file back."""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence


@dataclass(frozen=True)
class Unit:
    """One piece of a file to translate.

    id: unique in its document (a PO line number, an XLIFF id, a subtitle number, ...).
    source: the English text, inline codes written as tags (``<pc id="1">``, ``<r2>``).
    note: what the file tells the translator about it (comments, msgctxt, XLIFF notes), or None.
    plural: the English plural (gettext ``msgid_plural``) when the unit has plural forms.
    """

    id: str
    source: str
    note: str | None = None
    plural: str | None = None

    @property
    def segments(self) -> tuple[str, ...]:
        """The texts a translator gets for this unit: the source, then the plural if any."""
        return (self.source,) if self.plural is None else (self.source, self.plural)


@dataclass(frozen=True)
class UnitTranslation:
    """The translated segments of one unit (same count as ``Unit.segments``); ``uncertain`` asks for review;
    ``note``: which answers or guesses shaped it, for its reviewer (formats that hold notes write it)."""

    segments: tuple[str, ...]
    uncertain: bool = False
    note: str | None = None


@dataclass
class Document(ABC):
    """A file read into units; ``write`` puts translations back in the same structure."""

    path: Path
    units: list[Unit] = field(default_factory=list)

    @abstractmethod
    def write(self, translations: Sequence[UnitTranslation], out_path: Path, target_lang: str | None = None) -> None:
        """Write the file with ``translations[i]`` for ``units[i]``, everything else unchanged.

        Formats that can flag a unit for review (PO ``fuzzy``, XLIFF state) flag the uncertain ones.
        """

    def _check_count(self, translations: Sequence[UnitTranslation]) -> None:
        if len(translations) != len(self.units):
            raise ValueError(f"{len(translations)} translations for {len(self.units)} units")


def split_codes(text: str, codes: Sequence[str]) -> list[tuple[str, bool]]:
    """``text`` cut into (piece, is_code) at the exact inline-code strings ``codes``."""
    if not codes:
        return [(text, False)] if text else []
    pattern = re.compile("|".join(re.escape(code) for code in sorted(set(codes), key=len, reverse=True)))
    pieces, position = [], 0
    for match in pattern.finditer(text):
        if match.start() > position:
            pieces.append((text[position:match.start()], False))
        pieces.append((match.group(0), True))
        position = match.end()
    if position < len(text):
        pieces.append((text[position:], False))
    return pieces
