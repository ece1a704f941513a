"""Plain ``.txt``: paragraphs separated by blank lines (as in document mode), hard-wrapped lines joined."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from .base import Document, Unit, UnitTranslation

_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")


def read_txt(path: Path, text: str) -> "TextDocument":
    paragraphs = [" ".join(part.split()) for part in _PARAGRAPH_BREAK.split(text) if part.strip()]
    return TextDocument(path, [Unit(id=str(number), source=p) for number, p in enumerate(paragraphs, 1)])


@dataclass
class TextDocument(Document):
    def write(self, translations: Sequence[UnitTranslation], out_path: Path, target_lang: str | None = None) -> None:
        self._check_count(translations)
        Path(out_path).write_text("\n\n".join(t.segments[0] for t in translations) + "\n", encoding="utf-8")
