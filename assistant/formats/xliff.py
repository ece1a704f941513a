"""XLIFF 1.2 and 2.x through translate-toolkit's storage classes, inline codes kept.

A unit's source is its text with each inline code (1.2 ``<g>``, ``<x/>``, ``<bx/>``...; 2.x
``<pc>``, ``<ph/>``, ``<sc/>``...) written as its tag, so the placeholder mask protects it like
any tag. Writing splits the translation at those exact tags, escapes the text between them and
lets lxml rebuild the target element: a translation whose tags no longer nest is written without
them and flagged for review. Units that already have a reviewed target are left alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence
from xml.sax.saxutils import escape, quoteattr

from lxml import etree

from ..errors import InputError
from .base import Document, Unit, UnitTranslation, split_codes

NOTE_ORIGIN = "intercpt"  # the `from` (1.2) or `category` (2.x) of the notes the product writes


def read_xliff(path: Path) -> "XliffDocument":
    from translate.storage import xliff, xliff2

    try:
        version = etree.parse(str(path)).getroot().get("version", "")
    except (OSError, etree.XMLSyntaxError) as err:
        raise InputError(f"{path} is not well-formed XML: {err}") from None
    store_class = xliff2.Xliff2File if version.startswith("2.") else xliff.xlifffile
    try:
        store = store_class.parsefile(str(path))
    except (ValueError, etree.XMLSyntaxError, AssertionError) as err:  # the toolkit asserts the root element
        cause = str(err) or "its root is not an XLIFF element"
        raise InputError(f"{path} is not a readable XLIFF file: {cause}") from None
    stores, units, codes = [], [], []
    for tk_unit in store.units:
        if tk_unit.isheader() or not tk_unit.istranslatable() or not tk_unit.source:
            continue
        if tk_unit.target and not tk_unit.isfuzzy():
            continue
        text, unit_codes = _tagged(tk_unit.source_dom)
        stores.append(tk_unit)
        unit_id = (tk_unit.getid() or f"#{len(units) + 1}").replace("\x04", ":")
        units.append(Unit(id=unit_id, source=text, note=_notes(tk_unit) or None))
        codes.append(unit_codes)
    return XliffDocument(path, units, store=store, tk_units=stores, codes=codes)


def _notes(tk_unit) -> str:
    """1.2 notes sit in the trans-unit; 2.x notes in the unit around the segment."""
    if hasattr(tk_unit, "getunitelement"):
        notes = tk_unit.getunitelement().find(tk_unit.namespaced("notes"))
        return "\n".join(n.text for n in notes if n.text) if notes is not None else ""
    return tk_unit.getnotes()


def _tagged(element: etree._Element) -> tuple[str, list[str]]:
    """The element's content as text with inline codes as tags, and the list of those tags."""
    parts, codes = [element.text or ""], []
    for child in element:
        if isinstance(child.tag, str):
            name = etree.QName(child).localname
            attributes = "".join(f" {etree.QName(k).localname}={quoteattr(v)}" for k, v in child.attrib.items())
            if len(child) or child.text:
                inner, inner_codes = _tagged(child)
                opening, closing = f"<{name}{attributes}>", f"</{name}>"
                parts += [opening, inner, closing]
                codes += [opening, *inner_codes, closing]
            else:
                codes.append(f"<{name}{attributes}/>")
                parts.append(codes[-1])
        parts.append(child.tail or "")
    return "".join(parts), codes


@dataclass
class XliffDocument(Document):
    store: object = None
    tk_units: list = field(default_factory=list)
    codes: list[list[str]] = field(default_factory=list)

    def write(self, translations: Sequence[UnitTranslation], out_path: Path, target_lang: str | None = None) -> None:
        self._check_count(translations)
        if target_lang:
            self.store.settargetlanguage(target_lang)
        cleared: set[int] = set()  # the 2.x units whose notes from an earlier run are gone already
        for tk_unit, codes, translated in zip(self.tk_units, self.codes, translations):
            target, nested = _target_element(tk_unit, translated.segments[0], codes)
            tk_unit.set_target_dom(target)
            if translated.note:
                _write_note(tk_unit, translated.note, cleared)
            if translated.uncertain or not nested:
                tk_unit.markfuzzy(True)
            else:
                tk_unit.marktranslated()
        Path(out_path).write_bytes(bytes(self.store))


def _write_note(tk_unit, note: str, cleared: set[int]) -> None:
    """The product's note, in place of the one an earlier run wrote (the file's own notes kept): 1.2, a
    ``<note from="intercpt">`` in the trans-unit; 2.x, a ``<note category="intercpt">`` in the unit's
    ``<notes>``, which the schema puts before the segments (a unit's segments share it: each note once)."""
    if not hasattr(tk_unit, "getunitelement"):
        tk_unit.removenotes(origin=NOTE_ORIGIN)
        tk_unit.addnote(note, origin=NOTE_ORIGIN)
        return
    unit = tk_unit.getunitelement()
    notes = unit.find(tk_unit.namespaced("notes"))
    if notes is None:
        notes = etree.Element(tk_unit.namespaced("notes"))
        unit.insert(next((i for i, child in enumerate(unit)
                          if etree.QName(child).localname in ("originalData", "segment", "ignorable")), len(unit)), notes)
    ours = [n for n in notes if n.get("category") == NOTE_ORIGIN]
    if id(unit) not in cleared:
        cleared.add(id(unit))
        for old in ours:
            notes.remove(old)
        ours = []
    if all(n.text != note for n in ours):
        etree.SubElement(notes, tk_unit.namespaced("note"), category=NOTE_ORIGIN).text = note


def _target_element(tk_unit, text: str, codes: list[str]) -> tuple[etree._Element, bool]:
    """The <target> element for ``text``; False when its tags do not nest (they are then dropped)."""
    namespace = tk_unit.namespace
    pieces = split_codes(text, codes)
    markup = "".join(piece if is_code else escape(piece) for piece, is_code in pieces)
    try:
        return etree.fromstring(f'<target xmlns="{namespace}">{markup}</target>'), True
    except etree.XMLSyntaxError:
        plain = etree.Element(f"{{{namespace}}}target")
        plain.text = "".join(piece for piece, is_code in pieces if not is_code)
        return plain, False
