"""SubRip ``.srt`` through the ``srt`` library: one unit per subtitle, timings kept.

A subtitle's lines are joined into one sentence for the translator; the translation is
wrapped back into at most as many lines as the subtitle had, balanced, each within
``SUBTITLE_WIDTH`` characters where possible (a longer translation gets more lines).
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import srt

from ..errors import InputError
from .base import Document, Unit, UnitTranslation

SUBTITLE_WIDTH = 42  # characters per line, the common broadcast and streaming limit


def read_srt(path: Path, text: str) -> "SrtDocument":
    try:
        subtitles = list(srt.parse(text))
    except srt.SRTParseError as err:
        raise InputError(f"{path} is not a valid SubRip file: {err}") from None
    units = [Unit(id=str(s.index), source=" ".join(s.content.split())) for s in subtitles if s.content.strip()]
    return SrtDocument(path, units, subtitles=subtitles)


def wrap_subtitle(text: str, lines: int, width: int = SUBTITLE_WIDTH) -> list[str]:
    """``text`` in at most ``lines`` balanced lines of at most ``width`` characters, else in lines of ``width``."""
    lines = max(1, lines)
    for line_width in range(max(1, math.ceil(len(text) / lines)), width + 1):
        wrapped = textwrap.wrap(text, line_width, break_long_words=False)
        if len(wrapped) <= lines:
            return wrapped
    return textwrap.wrap(text, width, break_long_words=False)


@dataclass
class SrtDocument(Document):
    subtitles: list[srt.Subtitle] = field(default_factory=list)

    def write(self, translations: Sequence[UnitTranslation], out_path: Path, target_lang: str | None = None) -> None:
        self._check_count(translations)
        by_index = {unit.id: translated for unit, translated in zip(self.units, translations)}
        for subtitle in self.subtitles:
            translated = by_index.get(str(subtitle.index))
            if translated is not None:
                source_lines = len(subtitle.content.strip().splitlines())
                subtitle.content = "\n".join(wrap_subtitle(translated.segments[0], source_lines))
        Path(out_path).write_text(srt.compose(self.subtitles, reindex=False), encoding="utf-8")
