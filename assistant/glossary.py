"""Glossaries: the translator's required term translations, found in a source and checked in a translation.

Files: DeepL's CSV/TSV glossary format (``source,target`` per line, optionally with the
language codes as two more columns, or a header row of ``source,target`` or of language codes
such as ``en,fr``) and TBX (read with translate-toolkit). Terms are matched through spaCy
lemmas so that inflected forms count ("bank accounts" has "bank account"; "comptes bancaires"
has "compte bancaire"). Where no spaCy pipeline for the target language is installed, a
target term is found by word stems instead: each word's first ``len - 2`` letters (at least 4,
accents and case ignored), or, for text without spaces, the term itself as a substring.
Entries come from a file, so ``prompt_lines`` renders them as quoted data, never as instructions.
"""

from __future__ import annotations

import csv
import json
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from .errors import InputError
from .transcript import Check, Term

MAX_TERM_CHARS = 200
_HEADER_WORDS = {("source", "target"), ("source term", "target term"), ("term", "translation")}
TARGET_PIPELINES = {
    "fr": ("fr_core_news_sm", "fr_core_news_md", "fr_core_news_lg"),
    "es": ("es_core_news_sm", "es_core_news_md", "es_core_news_lg"),
    "de": ("de_core_news_sm", "de_core_news_md", "de_core_news_lg"),
    "ja": ("ja_ginza",),
}


@dataclass
class Glossary:
    """Term pairs from English (``source_lang``) to ``target_lang`` (None when the file does not say)."""

    entries: list[Term]
    source_lang: str = "en"
    target_lang: str | None = None
    _lemmas: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict, repr=False)

    @classmethod
    def load(cls, path: str | Path, target_lang: str | None = None) -> "Glossary":
        """A CSV, TSV or TBX glossary; for TBX, ``target_lang`` picks the language when it has several."""
        path = Path(path)
        suffix = path.suffix.lower()
        if not path.is_file():
            raise InputError(f"{path}: no such glossary file")
        if suffix in (".csv", ".tsv"):
            glossary = _read_delimited(path, "\t" if suffix == ".tsv" else ",")
        elif suffix == ".tbx":
            glossary = _read_tbx(path, target_lang)
        else:
            raise InputError(f"{path.name}: unsupported glossary type {suffix!r}; use .csv, .tsv or .tbx")
        if not glossary.entries:
            raise InputError(f"{path}: the glossary has no entries")
        if target_lang and glossary.target_lang and glossary.target_lang != target_lang:
            raise InputError(f"{path} is a glossary into {glossary.target_lang!r}, not {target_lang!r}")
        glossary.target_lang = glossary.target_lang or target_lang
        return glossary

    def terms_in(self, source: str) -> list[Term]:
        """The entries whose source term occurs in ``source`` in any inflected form, in glossary order."""
        from .nlp.pipelines import english_pipeline

        nlp = english_pipeline()
        words = _words(nlp(source))
        found = []
        for entry in self.entries:
            if entry.source not in self._lemmas:
                self._lemmas[entry.source] = _words(nlp(entry.source))
            if _find(self._lemmas[entry.source], words) is not None:
                found.append(entry)
        return found

    @staticmethod
    def prompt_lines(entries: list[Term]) -> list[str]:
        """One line per entry, both terms as JSON strings: a term cannot add a line or read as an instruction."""
        return [f"{json.dumps(e.source, ensure_ascii=False)} → {json.dumps(e.target, ensure_ascii=False)}"
                for e in entries]


def terms_check(source: str, translation: str, glossary: Glossary) -> list[Check]:
    """For each glossary term in the source: pass when its target term is in the translation, inflected or not."""
    return check_terms(glossary.terms_in(source), translation, glossary.target_lang)


def check_terms(entries: list[Term], translation: str, target_lang: str | None) -> list[Check]:
    """One ``terms`` check per entry: pass when its target term is in the translation, inflected or not."""
    checks = []
    for entry in entries:
        observed = find_target_term(entry.target, translation, target_lang)
        checks.append(Check(name="terms", expected=f"{entry.source} → {entry.target}", observed=observed,
                            status="pass" if observed is not None else "fail"))
    return checks


def find_target_term(term: str, translation: str, target_lang: str | None) -> str | None:
    """The words of ``translation`` that are ``term`` (by lemma, or by stem without a pipeline), or None."""
    nlp = target_pipeline(target_lang) if target_lang else None
    if nlp is not None:
        doc = nlp(translation)
        span = _find(_words(nlp(term)), _words(doc))
        if span is None:
            return None
        tokens = [t for t in doc if not (t.is_punct or t.is_space)]
        return doc[tokens[span[0]].i:tokens[span[1] - 1].i + 1].text
    return _find_by_stems(term, translation)


@lru_cache(maxsize=None)
def target_pipeline(lang: str) -> Any | None:
    """The first installed spaCy pipeline for ``lang`` (lemmas only: no parser, no entities), or None."""
    import spacy

    for name in TARGET_PIPELINES.get(lang, ()):
        try:
            return spacy.load(name, exclude=["parser", "ner"])
        except (OSError, ImportError):
            continue
    return None


def _words(doc) -> tuple[tuple[str, str], ...]:
    """(lemma, lower-case form) of each word, punctuation and spaces left out."""
    return tuple((t.lemma_.lower(), t.lower_) for t in doc if not (t.is_punct or t.is_space))


def _find(term: tuple[tuple[str, str], ...], words: tuple[tuple[str, str], ...]) -> tuple[int, int] | None:
    """Where ``term`` occurs in ``words`` as consecutive words.

    A word matches a term word when its lemma is the term word's lemma or the term word itself
    (glossary terms are dictionary forms, and a lone term gets a poorer lemma than the same word
    in a sentence), or when both are the same form.
    """
    if not term:
        return None
    for start in range(len(words) - len(term) + 1):
        if all(w[0] in t or w[1] == t[1] for w, t in zip(words[start:], term)):
            return start, start + len(term)
    return None


def _plain(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text.casefold()) if not unicodedata.combining(c))


def _find_by_stems(term: str, translation: str) -> str | None:
    term_words, words = re.findall(r"\w+", _plain(term)), re.findall(r"\w+", translation)
    if not term_words:
        return None
    if " " not in term.strip() and _plain(term) in _plain(translation) and not re.search(r"\s", translation):
        return term
    stems = [w[:max(4, len(w) - 2)] for w in term_words]
    for start in range(len(words) - len(stems) + 1):
        window = words[start:start + len(stems)]
        if all(_plain(w).startswith(s) for w, s in zip(window, stems)):
            return " ".join(window)
    return None


def _read_delimited(path: Path, delimiter: str) -> Glossary:
    try:
        rows = list(csv.reader(path.read_text(encoding="utf-8-sig").splitlines(), delimiter=delimiter))
    except UnicodeDecodeError:
        raise InputError(f"{path} is not UTF-8 text; save the glossary as UTF-8") from None
    except csv.Error as err:
        raise InputError(f"{path} is not a valid {'TSV' if delimiter == chr(9) else 'CSV'} glossary: {err}") from None
    rows = [(number, [cell.strip() for cell in row]) for number, row in enumerate(rows, 1) if any(c.strip() for c in row)]
    source_lang, target_lang = "en", None
    if rows and _is_header(rows[0][1]):
        first = [c.lower() for c in rows.pop(0)[1][:2]]
        if _is_language(first[0]):
            source_lang, target_lang = first
    entries = []
    for number, row in rows:
        if len(row) < 2 or not row[0] or not row[1]:
            raise InputError(f"{path}, line {number}: expected a source term and a target term")
        if len(row) >= 4 and _is_language(row[2].lower()) and _is_language(row[3].lower()):
            source_lang, target_lang = row[2].lower(), row[3].lower()
        entries.append(_entry(path, number, row[0], row[1]))
    return Glossary(entries, source_lang, target_lang)


def _is_header(row: list[str]) -> bool:
    first = tuple(c.lower() for c in row[:2])
    return first in _HEADER_WORDS or (len(first) == 2 and all(_is_language(c) for c in first))


def _is_language(code: str) -> bool:
    from translate.lang.data import languages

    return code in languages


def _entry(path: Path, where: int | str, source: str, target: str) -> Term:
    source, target = " ".join(source.split()), " ".join(target.split())
    if len(source) > MAX_TERM_CHARS or len(target) > MAX_TERM_CHARS:
        raise InputError(f"{path}, entry {where}: a term is longer than {MAX_TERM_CHARS} characters")
    return Term(source, target)


def _read_tbx(path: Path, target_lang: str | None) -> Glossary:
    from lxml import etree
    from translate.storage import tbx

    try:
        store = tbx.tbxfile.parsefile(str(path))
    except (etree.XMLSyntaxError, ValueError) as err:
        raise InputError(f"{path} is not a readable TBX file: {err}") from None
    xml_lang = "{http://www.w3.org/XML/1998/namespace}lang"
    entries, langs = [], set()
    for number, unit in enumerate(store.units, 1):
        terms = {node.get(xml_lang, "").lower(): unit.getNodeText(node) for node in unit.getlanguageNodes()}
        source = terms.get("en") or terms.get("en-us") or terms.get("en-gb")
        targets = {lang: text for lang, text in terms.items() if not lang.startswith("en") and text}
        target = targets.get(target_lang) if target_lang else next(iter(targets.values()), None)
        if source and target:
            entries.append(_entry(path, number, source, target))
            langs.add(target_lang or next(iter(targets)))
    return Glossary(entries, "en", target_lang or (langs.pop() if len(langs) == 1 else None))
