"""Word ``.docx`` through python-docx: one unit per paragraph (body, tables, headers, footers).

How a translated paragraph is spread over its runs: consecutive runs with the same formatting
(Word splits runs for spell-check and revision marks) form one group; when a paragraph has
several groups, each is written ``<rN>…</rN>`` in the unit's source, so the tags travel through
the translation (masked like any inline tag) and mark which words are bold, italic or linked
in the target language, where word order differs. Each group's text goes into its first run
(keeping that run's formatting) and its other runs are emptied. Runs holding anything but text
(images, fields) are never touched; a whitespace-only group joins the group before it. Text that
a translation puts outside every tag joins the group before it. A paragraph flagged uncertain
gets a Word comment asking for review.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Sequence

from ..errors import InputError
from .base import Document, Unit, UnitTranslation, split_codes
from .packages import unpacked_package

_TEXT_CHILDREN = {"rPr", "t", "tab", "br", "cr"}
_OPENING = re.compile(r"<r(\d+)>")
REVIEW_COMMENT = "Please review this translation."


def read_docx(path: Path) -> "WordDocument":
    """The paragraphs of a package unpacked within bounds; a damaged one is an ``InputError``."""
    import docx

    package = unpacked_package(path, "Word .docx")
    try:
        word = docx.Document(package)
        units, groups = _units(word)
    except _damaged_package_errors() as err:
        raise InputError(f"{path} is not a readable Word .docx file: {err}") from None
    return WordDocument(path, units, word=word, groups=groups)


def _damaged_package_errors() -> tuple[type[Exception], ...]:
    """What python-docx raises on a package that is a zip but not a sound Word document: it trusts
    the parts and relationships it finds, so a missing part is a KeyError, a missing attribute an
    AttributeError or TypeError, broken XML lxml's error, on reading or on writing back."""
    from docx.exceptions import PythonDocxError
    from docx.opc.exceptions import OpcError
    from docx.oxml.exceptions import XmlchemyError
    from lxml import etree

    return OpcError, PythonDocxError, XmlchemyError, etree.LxmlError, KeyError, ValueError, AttributeError, TypeError


def _units(word) -> tuple[list[Unit], list[list[list]]]:
    """One unit per paragraph with text, and the run groups its tags stand for."""
    units, groups = [], []
    for number, paragraph in enumerate(_paragraphs(word), 1):
        text_groups = _text_groups(paragraph)
        if not text_groups:
            continue
        if len(text_groups) == 1:
            source = "".join(r.text for r in text_groups[0])
        else:
            source = "".join(f"<r{n}>{''.join(r.text for r in g)}</r{n}>" for n, g in enumerate(text_groups, 1))
        units.append(Unit(id=f"p{number}", source=source))
        groups.append(text_groups)
    return units, groups


def _paragraphs(word) -> Iterator:
    """Every paragraph in reading order: the body with its tables, then headers and footers."""
    yield from _container_paragraphs(word)
    for section in word.sections:
        for part in (section.header, section.footer):
            if not part.is_linked_to_previous:
                yield from _container_paragraphs(part)


def _container_paragraphs(container) -> Iterator:
    from docx.table import Table

    for item in container.iter_inner_content():
        if isinstance(item, Table):
            for row in item.rows:
                for cell in row.cells:
                    yield from _container_paragraphs(cell)
        else:
            yield item


def _text_groups(paragraph) -> list[list]:
    """The run groups with text; a whitespace-only group joins the text group before it (else after it)."""
    merged: list[list] = []
    pending: list = []
    for group in _run_groups(paragraph):
        if "".join(run.text for run in group).strip():
            merged.append(pending + group)
            pending = []
        elif merged:
            merged[-1] += group
        else:
            pending += group
    return merged


def _run_groups(paragraph) -> list[list]:
    """Consecutive text-only runs with the same formatting; any other run ends a group."""
    from lxml import etree

    groups: list[list] = []
    previous_key = None
    for run in paragraph.runs:
        if any(etree.QName(child).localname not in _TEXT_CHILDREN for child in run._r):
            previous_key = None
            continue
        key = etree.tostring(run._r.rPr) if run._r.rPr is not None else b""
        if groups and key == previous_key:
            groups[-1].append(run)
        else:
            groups.append([run])
        previous_key = key
    return groups


@dataclass
class WordDocument(Document):
    word: object = None
    groups: list[list[list]] = field(default_factory=list)

    def write(self, translations: Sequence[UnitTranslation], out_path: Path, target_lang: str | None = None) -> None:
        self._check_count(translations)
        try:
            self._write(translations, out_path)
        except _damaged_package_errors() as err:
            raise InputError(f"{self.path} cannot be written back as a Word .docx file: {err}") from None

    def _write(self, translations: Sequence[UnitTranslation], out_path: Path) -> None:
        for groups, translated in zip(self.groups, translations):
            texts = _texts_per_group(translated.segments[0], len(groups))
            for group, text in zip(groups, texts):
                group[0].text = text
                for run in group[1:]:
                    run.text = ""
            comment = "\n".join(filter(None, [REVIEW_COMMENT if translated.uncertain else None, translated.note]))
            if comment:
                self.word.add_comment(groups[0][0], text=comment, author="intercpt")
        self.word.save(str(out_path))


def _texts_per_group(translation: str, count: int) -> list[str]:
    """The text each run group gets: what its tags enclose, plus untagged text that follows them."""
    if count == 1:
        return [translation]
    codes = [tag for n in range(1, count + 1) for tag in (f"<r{n}>", f"</r{n}>")]
    texts, current, last = [""] * count, None, 0
    for piece, is_code in split_codes(translation, codes):
        opening = _OPENING.fullmatch(piece) if is_code else None
        if opening:
            current = last = int(opening.group(1)) - 1
        elif is_code:
            current = None
        else:
            texts[last if current is None else current] += piece
    return texts
