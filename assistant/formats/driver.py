"""Translate a whole file with any translator: mask placeholders, translate, restore, check, write.

The translator is a callable that gets every segment of the document at once, in document
order (so a chain can ask each question once per document), and returns or yields exactly one
translation per segment: a string, a ``(text, uncertain)`` pair, or a ``(text, uncertain, note)``
triple whose note goes into the unit's notes. Yielding lets the progress bar advance as segments are done.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Union

from ..transcript import Check
from .base import Document, Unit, UnitTranslation
from .pace import PaceReport, SegmentBar
from .placeholders import mask, placeholder_check

Translated = Union[str, tuple[str, bool], tuple[str, bool, Union[str, None]]]
TranslateUnits = Callable[[list[str]], Iterable[Translated]]


@dataclass
class FileTranslation:
    """What was translated: the units, their translations and each unit's placeholder check."""

    document: Document
    translations: list[UnitTranslation] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)

    @property
    def failed(self) -> list[Unit]:
        return [unit for unit, check in zip(self.document.units, self.checks) if check.status == "fail"]


def translate_file(in_path: str | Path, out_path: str | Path, translate_units: TranslateUnits, *,
                   target_lang: str | None = None, progress: bool = True) -> FileTranslation:
    """Read ``in_path``, translate every unit with ``translate_units`` and write ``out_path``."""
    from . import read_document

    return translate_document(read_document(in_path), out_path, translate_units,
                              target_lang=target_lang, progress=progress)


def translator_segments(document: Document) -> list[str]:
    """The texts a translator is given for ``document``, in order: every unit's segments, placeholders masked."""
    return [mask(segment).text for unit in document.units for segment in unit.segments]


def translate_document(document: Document, out_path: str | Path, translate_units: TranslateUnits, *,
                       target_lang: str | None = None, progress: bool = True,
                       report: PaceReport | None = None) -> FileTranslation:
    """Translate ``document``'s units; a unit whose placeholders did not survive is flagged uncertain.
    ``progress`` shows a bar on the terminal; ``report`` hears the pace after each segment (a page's bar)."""
    sources = [segment for unit in document.units for segment in unit.segments]
    masked = [mask(segment) for segment in sources]
    results = translate_units([m.text for m in masked])
    restored: list[tuple[str, bool, str | None]] = []
    with SegmentBar(len(masked), f"translating {document.path.name}", report,
                    disable=not (progress or report), file=None if progress else io.StringIO()) as bar:
        for result, segment_mask in zip(results, masked, strict=True):
            text, uncertain, note = (result, False, None) if isinstance(result, str) else (*result, None)[:3]
            restored.append((segment_mask.restore(text), uncertain, note))
            bar.update()
    report = FileTranslation(document)
    position = 0
    for unit in document.units:
        count = len(unit.segments)
        texts, flags, notes = zip(*restored[position:position + count])
        checks = [placeholder_check(source, text) for source, text in zip(unit.segments, texts)]
        failed = next((c for c in checks if c.status == "fail"), checks[0])
        report.checks.append(failed)
        note = "\n".join(dict.fromkeys(note for note in notes if note)) or None
        report.translations.append(UnitTranslation(tuple(texts), any(flags) or failed.status == "fail", note))
        position += count
    document.write(report.translations, Path(out_path), target_lang)
    return report
