"""Glossaries: the translator's required term translations, found in a source and checked in a translation.

Files: DeepL's CSV/TSV glossary format (``source,target`` per line, optionally with the
language codes as two more columns, or a header row of ``source,target`` or of language codes
such as ``en,fr``) and TBX (read with translate-toolkit). Terms are matched through spaCy
lemmas so that inflected forms count ("bank accounts" has "bank account"; "comptes bancaires"
has "compte bancaire"). A glossary's source terms go into spaCy ``PhraseMatcher``s built once
(their lemmas from one ``nlp.pipe`` batch), so finding terms in a text costs one parse of the
text whatever the glossary's size; the terms found are checked against one parse of the
translation. A glossary holds at most ``MAX_GLOSSARY_ENTRIES`` entries in at most
``MAX_GLOSSARY_BYTES`` (DeepL's own limit per glossary). Where no spaCy pipeline for the target
language is installed, a target term is found by word stems instead: each word's first ``len - 2`` letters (at least 4,
accents and case ignored), or, for text without spaces, the term itself as a substring.
Entries come from a file, so ``prompt_lines`` renders them as quoted data, never as instructions.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import re
import threading
import unicodedata
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import deadlines
from .errors import InputError
from .transcript import Check, Term

MAX_TERM_CHARS = 200
MAX_GLOSSARY_BYTES = 10 * 1024 * 1024  # DeepL's limit per glossary (10 MiB)
MAX_GLOSSARY_ENTRIES = 100_000
MAX_LEMMA_VARIANTS = 8  # patterns a term may add to mix its words' lemmas and forms
TERMS_BATCH = 1000  # terms parsed at once when a matcher is built; a request's deadline is checked between batches
LEMMA_PIPES = ("tok2vec", "tagger", "morphologizer", "attribute_ruler", "lemmatizer")
_HEADER_WORDS = {("source", "target"), ("source term", "target term"), ("term", "translation")}
TARGET_PIPELINES = {
    "fr": ("fr_core_news_sm", "fr_core_news_md", "fr_core_news_lg"),
    "es": ("es_core_news_sm", "es_core_news_md", "es_core_news_lg"),
    "de": ("de_core_news_sm", "de_core_news_md", "de_core_news_lg"),
    "ja": ("ja_ginza",),
}


class GlossaryTooLarge(InputError):
    """A glossary over ``MAX_GLOSSARY_ENTRIES`` entries or ``MAX_GLOSSARY_BYTES`` bytes."""


def check_glossary_bytes(size: int, name: str) -> None:
    """Refuse a glossary of ``size`` bytes before reading it, when it is larger than one glossary may be."""
    if size > MAX_GLOSSARY_BYTES:
        raise GlossaryTooLarge(f"{name}: {size} bytes; a glossary takes at most {MAX_GLOSSARY_BYTES} bytes "
                               f"({MAX_GLOSSARY_BYTES / (1024 * 1024):g} MiB)")


@dataclass
class Glossary:
    """Term pairs from English (``source_lang``) to ``target_lang`` (None when the file does not say)."""

    entries: list[Term]
    source_lang: str = "en"
    target_lang: str | None = None
    _matcher: "SourceTerms | None" = field(default=None, repr=False, compare=False)
    _building: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    @classmethod
    def load(cls, path: str | Path, target_lang: str | None = None) -> "Glossary":
        """A CSV, TSV or TBX glossary; for TBX, ``target_lang`` picks the language when it has several."""
        path = Path(path)
        suffix = path.suffix.lower()
        if not path.is_file():
            raise InputError(f"{path}: no such glossary file")
        check_glossary_bytes(path.stat().st_size, str(path))
        if suffix in (".csv", ".tsv"):
            glossary = _read_delimited(path, "\t" if suffix == ".tsv" else ",")
        elif suffix == ".tbx":
            glossary = _read_tbx(path, target_lang)
        else:
            raise InputError(f"{path.name}: unsupported glossary type {suffix!r}; use .csv, .tsv or .tbx")
        if not glossary.entries:
            raise InputError(f"{path}: the glossary has no entries")
        _check_entry_count(len(glossary.entries), str(path))
        return glossary.into(target_lang, str(path))

    def into(self, target_lang: str | None, name: str = "the glossary") -> "Glossary":
        """This glossary into ``target_lang``, sharing its matcher once built; refused when it is into another
        language."""
        if target_lang and self.target_lang and self.target_lang != target_lang:
            raise InputError(f"{name} is a glossary into {self.target_lang!r}, not {target_lang!r}")
        return replace(self, target_lang=self.target_lang or target_lang)

    def prepare(self) -> "Glossary":
        """Build the matcher of the source terms now, once: a glossary's creation pays for it, not a translation."""
        with self._building:
            if self._matcher is None:
                self._matcher = SourceTerms(self.entries)
        return self

    def terms_in(self, source: str) -> list[Term]:
        """The entries whose source term occurs in ``source`` in any inflected form, in glossary order."""
        self.prepare()
        return self._matcher.found_in(source)

    @staticmethod
    def prompt_lines(entries: list[Term]) -> list[str]:
        """One line per entry, both terms as JSON strings: a term cannot add a line or read as an instruction."""
        return [f"{json.dumps(e.source, ensure_ascii=False)} → {json.dumps(e.target, ensure_ascii=False)}"
                for e in entries]


class SourceTerms:
    """A glossary's source terms in one spaCy ``PhraseMatcher``, run over two views of a text's words
    (punctuation and spaces left out): their lemmas and their lower-case forms.

    A term's word matches a text's word when the text word's lemma is the term word's lemma or the
    term word itself (glossary terms are dictionary forms, and a lone term gets a poorer lemma than
    the same word in a sentence), or when both are the same form. So a term's patterns are each mix
    of its words' lemmas and forms (up to ``MAX_LEMMA_VARIANTS``, else the all-lemma and the all-form
    ones): most terms are their own lemmas and need one. The terms' lemmas come from one
    ``nlp.pipe`` batch with only the pipes lemmas need.
    """

    def __init__(self, entries: list[Term]):
        from spacy.matcher import PhraseMatcher

        from .nlp.pipelines import english_pipeline

        self._nlp = nlp = english_pipeline()
        self._entries = entries
        self._positions: dict[str, list[int]] = {}
        for position, entry in enumerate(entries):
            self._positions.setdefault(entry.source, []).append(position)
        self._sources = list(self._positions)
        self._matcher = PhraseMatcher(nlp.vocab, attr="ORTH")
        deadline = deadlines.current()  # in a server's request, building stops when the request is over
        for key, doc in enumerate(nlp.pipe(self._sources, batch_size=TERMS_BATCH, disable=_not_lemma_pipes(nlp))):
            if deadline is not None and key % TERMS_BATCH == 0:
                deadline.check()
            variants = _lemma_variants(_words(doc))
            if variants:
                self._matcher.add(str(key), [_word_doc(nlp.vocab, variant) for variant in variants])

    def found_in(self, source: str) -> list[Term]:
        """The entries whose source term is in ``source``, in glossary order."""
        nlp = self._nlp
        words = _words(nlp(source, disable=_not_lemma_pipes(nlp)))
        keys = {match_id for view in zip(*words) for match_id, _, _ in self._matcher(_word_doc(nlp.vocab, view))}
        sources = (self._sources[int(nlp.vocab.strings[key])] for key in keys)
        return [self._entries[p] for p in sorted(p for source in sources for p in self._positions[source])]


def _not_lemma_pipes(nlp) -> list[str]:
    """The pipes a lemma does not need (the parser, entities): left out where only lemmas are read."""
    return [name for name in nlp.pipe_names if name not in LEMMA_PIPES]


def _word_doc(vocab, words: tuple[str, ...]):
    """A spaCy ``Doc`` of these words alone: a view of a text's words, or a term's pattern."""
    from spacy.tokens import Doc

    return Doc(vocab, words=list(words))


def _lemma_variants(words: tuple[tuple[str, str], ...]) -> list[tuple[str, ...]]:
    """The word sequences a text may show for a term (in its lemmas or its forms): each word as its
    lemma or as itself."""
    if not words:
        return []
    choices = [tuple(dict.fromkeys(word)) for word in words]
    if math.prod(len(choice) for choice in choices) <= MAX_LEMMA_VARIANTS:
        return list(itertools.product(*choices))
    return list(dict.fromkeys(zip(*words)))


def _check_entry_count(count: int, name: str) -> None:
    if count > MAX_GLOSSARY_ENTRIES:
        raise GlossaryTooLarge(f"{name}: more than {MAX_GLOSSARY_ENTRIES} entries; a glossary takes at most "
                               f"{MAX_GLOSSARY_ENTRIES}")


def terms_check(source: str, translation: str, glossary: Glossary) -> list[Check]:
    """For each glossary term in the source: pass when its target term is in the translation, inflected or not."""
    return check_terms(glossary.terms_in(source), translation, glossary.target_lang)


def check_terms(entries: list[Term], translation: str, target_lang: str | None) -> list[Check]:
    """One ``terms`` check per entry: pass when its target term is in the translation, inflected or not."""
    found = find_target_terms([entry.target for entry in entries], translation, target_lang)
    return [Check(name="terms", expected=f"{entry.source} → {entry.target}", observed=observed,
                  status="pass" if observed is not None else "fail") for entry, observed in zip(entries, found)]


def find_target_terms(terms: list[str], translation: str, target_lang: str | None) -> list[str | None]:
    """For each term, the words of ``translation`` that are it, or None: one parse of the translation,
    and the terms parsed in one batch."""
    nlp = target_pipeline(target_lang) if target_lang and terms else None
    if nlp is None:
        return [_find_by_stems(term, translation) for term in terms]
    doc = nlp(translation)
    tokens = [t for t in doc if not (t.is_punct or t.is_space)]
    words = _words(tokens)
    found: list[str | None] = []
    for term in _target_terms_words(target_lang, tuple(terms)):
        span = _find(term, words)
        found.append(None if span is None else doc[tokens[span[0]].i:tokens[span[1] - 1].i + 1].text)
    return found


@lru_cache(maxsize=256)
def _target_terms_words(lang: str, terms: tuple[str, ...]) -> tuple[tuple[tuple[str, str], ...], ...]:
    """The words of each term, parsed in one batch: a translation and its repairs check the same terms."""
    return tuple(_words(doc) for doc in target_pipeline(lang).pipe(terms))


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


def _words(tokens) -> tuple[tuple[str, str], ...]:
    """(lemma, lower-case form) of each word, punctuation and spaces left out."""
    return tuple((t.lemma_.lower(), t.lower_) for t in tokens if not (t.is_punct or t.is_space))


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
    """Entries row by row, so that a file with too many of them is refused before they are all held."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"{path} is not UTF-8 text; save the glossary as UTF-8") from None
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    source_lang, target_lang, entries, first = "en", None, [], True
    try:
        for row in reader:
            row = [cell.strip() for cell in row]
            if not any(row):
                continue
            if first:
                first = False
                if _is_header(row):
                    header = [c.lower() for c in row[:2]]
                    if _is_language(header[0]):
                        source_lang, target_lang = header
                    continue
            if len(row) < 2 or not row[0] or not row[1]:
                raise InputError(f"{path}, line {reader.line_num}: expected a source term and a target term")
            if len(row) >= 4 and _is_language(row[2].lower()) and _is_language(row[3].lower()):
                source_lang, target_lang = row[2].lower(), row[3].lower()
            entries.append(_entry(path, reader.line_num, row[0], row[1]))
            _check_entry_count(len(entries), str(path))
    except csv.Error as err:
        raise InputError(f"{path} is not a valid {'TSV' if delimiter == chr(9) else 'CSV'} glossary: {err}") from None
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
