"""Localisation files in and out: read a file into translation units, write the translated file back.

``read_document(path)`` picks the format by extension; ``translate_file`` runs a translator over
every unit with placeholders protected and writes a file of the same structure.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import InputError
from .base import Document, Unit, UnitTranslation
from .driver import FileTranslation, translate_document, translate_file, translator_segments

FORMATS = {".po": "gettext PO", ".pot": "gettext PO template", ".xlf": "XLIFF", ".xliff": "XLIFF",
           ".srt": "SubRip subtitles", ".docx": "Word", ".txt": "plain text"}

__all__ = ["FORMATS", "Document", "FileTranslation", "Unit", "UnitTranslation", "read_document",
           "translate_document", "translate_file", "translator_segments"]


def read_document(path: str | Path) -> Document:
    """The file's units; a clear ``InputError`` for a missing, unsupported, malformed or mis-encoded file."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        supported = ", ".join(FORMATS)
        raise InputError(f"{path.name}: unsupported file type {suffix or '(no extension)'!r}; use one of: {supported}")
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    if suffix in (".po", ".pot"):
        from .po import read_po

        return read_po(path)
    if suffix in (".xlf", ".xliff"):
        from .xliff import read_xliff

        return read_xliff(path)
    if suffix == ".docx":
        from .word import read_docx

        return read_docx(path)
    text = _read_utf8(path)
    if suffix == ".srt":
        from .subtitles import read_srt

        return read_srt(path, text)
    from .plaintext import read_txt

    return read_txt(path, text)


def _read_utf8(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as err:
        raise InputError(f"{path} is not UTF-8 text (byte {err.start}); save it as UTF-8 and try again") from None
