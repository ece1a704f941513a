"""gettext ``.po``/``.pot`` through polib: msgid → msgstr, msgid_plural → msgstr[n].

Entries already translated (and not fuzzy) are left alone: a human translation is never
overwritten. Comments, flags, occurrences and the header are kept; ``Language`` and, when
missing, ``Plural-Forms`` are set for the target language from translate-toolkit's table.
The file's own ``nplurals`` is a count read from the input, so it is bounded: no language needs
more than ``MAX_PLURAL_FORMS`` (Arabic's six, the most in translate-toolkit's table).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import polib

from ..errors import InputError
from .base import Document, Unit, UnitTranslation

_NPLURALS = re.compile(r"nplurals\s*=\s*(\d+)")
MAX_PLURAL_FORMS = 6
NOTE_PREFIX = "intercpt: "  # the translator comment lines the product writes (and replaces on the next run)


def read_po(path: Path) -> "PoDocument":
    try:
        catalog = polib.pofile(str(path), wrapwidth=0)
    except (OSError, ValueError, UnicodeDecodeError) as err:
        raise InputError(f"{path} is not a readable gettext PO file: {err}") from None
    entries = [e for e in catalog if not e.obsolete and e.msgid and (not e.translated() or "fuzzy" in e.flags)]
    units = [Unit(id=str(e.linenum), source=e.msgid, note=_note(e), plural=e.msgid_plural or None) for e in entries]
    return PoDocument(path, units, catalog=catalog, entries=entries, nplurals=_declared_nplurals(catalog, path))


def _declared_nplurals(catalog: polib.POFile, path: Path) -> int | None:
    """The header's ``nplurals`` (None when absent or a template's ``INTEGER``); out of range is refused."""
    header = catalog.metadata.get("Plural-Forms", "")
    found = _NPLURALS.search(header)
    if not found or "INTEGER" in header:
        return None
    declared = found.group(1)
    if len(declared) > 3 or not 1 <= int(declared) <= MAX_PLURAL_FORMS:
        raise InputError(f"{path}: Plural-Forms declares nplurals={declared[:12]}; a language has between 1 and "
                         f"{MAX_PLURAL_FORMS} plural forms")
    return int(declared)


def _with_note(comment: str, note: str) -> str:
    """A translator comment with the product's note in place of the one an earlier run wrote."""
    kept = [line for line in comment.splitlines() if not line.startswith(NOTE_PREFIX)]
    return "\n".join([*kept, *(NOTE_PREFIX + line for line in note.splitlines())])


def _note(entry: polib.POEntry) -> str | None:
    parts = [f"context: {entry.msgctxt}" if entry.msgctxt else "", entry.comment, entry.tcomment]
    return "\n".join(p for p in parts if p) or None


@dataclass
class PoDocument(Document):
    catalog: polib.POFile = None  # type: ignore[assignment]
    entries: list[polib.POEntry] = field(default_factory=list)
    nplurals: int | None = None

    def write(self, translations: Sequence[UnitTranslation], out_path: Path, target_lang: str | None = None) -> None:
        self._check_count(translations)
        nplurals = self._nplurals(target_lang)
        for entry, translated in zip(self.entries, translations):
            if entry.msgid_plural:
                singular, plural = translated.segments
                # nplurals 1 (Japanese): the one form is the plural; otherwise form 0 is the singular.
                forms = [plural] if nplurals == 1 else [singular] + [plural] * (nplurals - 1)
                entry.msgstr_plural = dict(enumerate(forms))
            else:
                entry.msgstr = translated.segments[0]
            if translated.note:
                entry.tcomment = _with_note(entry.tcomment, translated.note)
            if translated.uncertain and "fuzzy" not in entry.flags:
                entry.flags.append("fuzzy")
            elif not translated.uncertain and "fuzzy" in entry.flags:
                entry.flags.remove("fuzzy")
                entry.previous_msgid = entry.previous_msgid_plural = entry.previous_msgctxt = None
        try:
            self.catalog.save(str(out_path))
        except ValueError as err:  # polib sorts references by their numbers, which Python caps at 4300 digits
            raise InputError(f"{self.path} cannot be written back as a PO file: {err}") from None

    def _nplurals(self, target_lang: str | None) -> int:
        """From the file's Plural-Forms header, else the target language's (set in the header), else 2."""
        if target_lang:
            self.catalog.metadata["Language"] = target_lang
        if self.nplurals is not None:
            return self.nplurals
        from translate.lang.data import languages

        language = target_lang or self.catalog.metadata.get("Language", "")
        if language in languages:
            _, nplurals, rule = languages[language]
            self.catalog.metadata["Plural-Forms"] = f"nplurals={nplurals}; plural={rule};"
            return nplurals
        return 2
