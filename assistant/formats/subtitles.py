"""SubRip ``.srt`` through the ``srt`` library: one unit per subtitle, timings kept.

A subtitle's lines are joined into one sentence for the translator; the translation is
wrapped back into at most as many lines as the subtitle had, balanced, each within
``SUBTITLE_WIDTH`` characters where possible (a longer translation gets more lines).
"""

from __future__ import annotations

import math
import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import srt

from ..errors import InputError
from .base import Document, Unit, UnitTranslation

SUBTITLE_WIDTH = 42  # characters per line, the common broadcast and streaming limit
MAX_DIGITS = 20  # a subtitle's number or time never needs more; srt's pattern slows as runs of digits grow
_LONG_NUMBER = re.compile(rf"\d{{{MAX_DIGITS + 1}}}")


def read_srt(path: Path, text: str) -> "SrtDocument":
    """The subtitles; a text that is not SubRip, or whose times overflow, is an ``InputError``."""
    try:
        subtitles = list(srt.parse(text[:_subtitles_end(path, text)]))
    except (srt.SRTParseError, ValueError, OverflowError) as err:
        raise InputError(f"{path} is not a valid SubRip file: {err}") from None
    units = [Unit(id=str(s.index), source=" ".join(s.content.split())) for s in subtitles if s.content.strip()]
    return SrtDocument(path, units, subtitles=subtitles)


def _subtitles_end(path: Path, text: str) -> int:
    """Where the last subtitle ends, the text read one subtitle after the other from its start.

    ``srt.parse`` searches past what it cannot read, retrying its pattern at every position: a few KB
    of digits or blank lines that start no subtitle cost it minutes. Matched in place, each position
    is tried once, and anything but blank space after the last subtitle is refused at once. Its cost
    still grows with the square of a run of digits, so runs longer than ``MAX_DIGITS`` are refused."""
    if long_number := _LONG_NUMBER.search(text):
        line = text.count("\n", 0, long_number.start()) + 1
        raise InputError(f"{path} is not a valid SubRip file: line {line} has a number of more than {MAX_DIGITS} "
                         "digits")
    position = 0
    while match := srt.SRT_REGEX.match(text, position):
        position = match.end()
    if text[position:].strip():
        line = text.count("\n", 0, position) + 1
        raise InputError(f"{path} is not a valid SubRip file: line {line} does not start a subtitle "
                         "(a number, then a line 00:00:01,000 --> 00:00:02,000)")
    return position


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
