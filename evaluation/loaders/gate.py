"""GATE (Rarrick et al., 2023): English sentences in which one to three people have no gender cue,
with a translation for every combination of their genders into Spanish, French and Italian.

Upstream layout (github.com/MicrosoftTranslator/GATE): ``data/XX/XX_{2,4,8}_variants.tsv`` with a
header row. Columns: ``labels source`` then one column per variant, named by the gender of each
entity in order (``f m``; ``ff fm mf mm``; ``fff ffm fmf mff fmm mfm mmf mmm``, in that order
upstream), then ``kw_s kw_f kw_m`` and, in newer files, ``data_split`` (dev/test). Keyword fields
list the entities separated by ``;`` (4 and 8 variants), coreferent mentions of one entity joined
by ``=``, the head word in ``[brackets]`` when other words are given, and ``(yo)`` for a dropped
subject pronoun. Variant columns are read by their header names, not by position.

Each source gives one item per variant. Attributes: ``genders`` (per entity, ``;``-joined),
``gender`` when every entity has the same one, ``kw_s``, ``kw_f``, ``kw_m``, ``labels``,
``variants`` and ``split`` when the file has one. ``gender`` is the gold attribute the ambiguity
table names, so the oracle user answers a gender question through the table ("a woman" for
``ff``, whichever of the two women was asked about) and G-Acc counts the item; a mixed variant
(``fm``) has no single answer that is right for any person asked about, so it has no ``gender``:
the oracle skips the question (the translation then offers both readings) and only the GATE
keyword metric, which scores each entity, counts the item.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from pathlib import Path

from assistant.checks import FEMININE, MASCULINE
from assistant.errors import DataError
from evaluation.data import Item, LoadReport
from evaluation.loaders.layouts import item_type

TYPE = item_type("gate")  # the ambiguity type of every item, as datasets/gate/layout.yaml says
LANGS = ("es", "fr", "it")
VARIANT_COUNTS = (2, 4, 8)
SPLITS = ("dev", "test")
KEYWORD_COLUMNS = ("kw_s", "kw_f", "kw_m")
GENDER_OF = {"f": FEMININE, "m": MASCULINE}
_VARIANT = re.compile(r"^[fm]+$")
EXPECTED = "DIR/data/XX/XX_{2,4,8}_variants.tsv with XX in ES, FR, IT (DIR may also be the data folder itself)"


def data_folder(root: Path) -> Path:
    """``root/data`` or ``root`` itself, whichever holds a language folder; DataError otherwise."""
    for folder in (root / "data", root):
        if any(_table(folder, lang, n).is_file() for lang in LANGS for n in VARIANT_COUNTS):
            return folder
    raise DataError(f"--data gate:{root}: not the GATE layout; expected {EXPECTED}")


def load(root: Path, langs: Iterable[str] | None, report: LoadReport, split: str | None = None,
         variants: Iterable[int] = VARIANT_COUNTS) -> list[Item]:
    """One item per variant of every row, for ``langs`` (None: es, fr, it) and the files with
    ``variants`` translations per source; ``split`` (dev/test) keeps the rows so marked (None: all).
    Item ids: ``gate-{lang}-{n}v-{line}-{variant}``."""
    folder = data_folder(root)
    if split is not None and split not in SPLITS:
        raise DataError(f"--data gate:{root}: unknown split {split!r}; choose from: {', '.join(SPLITS)}")
    items: list[Item] = []
    for lang in LANGS if langs is None else list(dict.fromkeys(langs)):
        if lang not in LANGS:
            continue  # GATE has no such target language
        tables = [_table(folder, lang, n) for n in variants if _table(folder, lang, n).is_file()]
        if not tables:
            report.malformed.append(f"{_table(folder, lang, 2)}: not found (nor the 4- or 8-variant file)")
        for path in tables:
            items += _read_table(path, lang, split, report)
    return items


def _table(folder: Path, lang: str, variants: int) -> Path:
    code = lang.upper()
    return folder / code / f"{code}_{variants}_variants.tsv"


def _read_table(path: Path, lang: str, split: str | None, report: LoadReport) -> list[Item]:
    with open(path, newline="", encoding="utf-8-sig") as handle:
        rows = csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        header = next(rows, [])
        names = [name.strip() for name in header]
        variant_names = [name for name in names if _VARIANT.match(name)]
        missing = [name for name in ("labels", "source", *KEYWORD_COLUMNS) if name not in names]
        if missing or not variant_names or len({len(v) for v in variant_names}) != 1:
            report.malformed.append(f"{path}:1: header {'/'.join(names)} lacks {', '.join(missing) or 'variant columns'}; "
                                    "file skipped")
            return []
        if split is not None and "data_split" not in names:
            raise DataError(f"{path} has no data_split column (an older GATE release); load it without a split")
        entities = len(variant_names[0])
        items = []
        for line, row in enumerate(rows, start=2):
            if not any(field.strip() for field in row):
                continue
            if len(row) != len(names):
                report.malformed.append(f"{path}:{line}: {len(row)} fields, expected {len(names)}")
                continue
            fields = {name: value.strip() for name, value in zip(names, row)}
            if split is not None and fields["data_split"] != split:
                continue
            problem = _row_problem(fields, variant_names, entities)
            if problem:
                report.malformed.append(f"{path}:{line}: {problem}")
                continue
            attributes = {key: fields[key] for key in ("labels", *KEYWORD_COLUMNS)}
            attributes.update(variants=str(len(variant_names)), dataset="gate")
            if fields.get("data_split"):
                attributes["split"] = fields["data_split"]
            for variant in variant_names:
                genders = [GENDER_OF[letter] for letter in variant]
                gold = {"genders": ";".join(genders), **({"gender": genders[0]} if len(set(genders)) == 1 else {})}
                items.append(Item(id=f"gate-{lang}-{len(variant_names)}v-{line}-{variant}", src=fields["source"],
                                  refs=[fields[variant]], context="", ambiguity=TYPE, lang=lang,
                                  attributes={**gold, **attributes}))
    return items


def _row_problem(fields: dict[str, str], variant_names: list[str], entities: int) -> str | None:
    """Why a row cannot be used (empty text, keyword fields that do not name every entity), or None."""
    empty = [name for name in ("source", *variant_names, "kw_f", "kw_m") if not fields[name]]
    if empty:
        return f"empty {', '.join(empty)}"
    if entities > 1:
        counts = {name: len(fields[name].split(";")) for name in ("kw_f", "kw_m")}
        if any(count != entities for count in counts.values()):
            return f"keywords for {counts} entities, expected {entities} (';'-separated)"
    return None
