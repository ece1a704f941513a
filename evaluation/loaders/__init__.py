"""Data sets by name: what a ``--data`` value means and which loader reads it.

``--data`` takes ``NAME`` (a set that can fetch itself: ``ambigmt``, downloaded and verified
once), ``NAME:DIR`` (a registered set in a folder: ``ambigmt:DIR``, ``cocoa-mt:DIR``,
``gate:DIR``), a folder (the AmbigMT files) or a file (JSONL).

A loader is ``load(root, langs, report) -> list[Item]``: ``langs`` is None for every language
the set has; rows it cannot read go to ``report``. A set that can skip whole files by type
also takes ``types=`` (``DataSet.typed``); items of other types or languages are dropped here.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from assistant.errors import InputError

from ..data import Item, LoadReport
from ..download import ambigmt_folder
from . import ambigmt, cocoa_mt, gate


@dataclass(frozen=True)
class DataSet:
    """A named data set: its loader (``"module:function"``, imported on use), whether the loader
    takes ``types=``, where the set is when ``--data`` names it without a folder, and the layout it
    expects (said when a folder gives no items)."""

    name: str
    loader: str
    typed: bool = False
    fetch: Callable[[], Path] | None = None
    layout: str = ""

    def load(self, root: Path, types: tuple[str, ...] | None, langs: tuple[str, ...] | None,
             report: LoadReport) -> list[Item]:
        module, _, function = self.loader.partition(":")
        load = getattr(importlib.import_module(module), function)
        return load(root, langs, report, types=types) if self.typed else load(root, langs, report)


DATA_SETS: dict[str, DataSet] = {}


def register_data_set(data_set: DataSet) -> None:
    DATA_SETS[data_set.name] = data_set


# The registration point: a new data set is a module evaluation/loaders/<name>.py that reads its
# rows and derives their gold (``load``), a datasets/<name>/layout.yaml that says which ambiguity
# type its items are of, plus one line here.
register_data_set(DataSet("ambigmt", "evaluation.loaders.ambigmt:load", typed=True, fetch=ambigmt_folder,
                          layout=ambigmt.EXPECTED))
register_data_set(DataSet("jsonl", "evaluation.loaders.jsonl:load",
                          layout="one JSON object per line with src, ref or refs, lang, and optionally id, context, "
                                 "type (none: nothing is ambiguous), attributes"))
register_data_set(DataSet("cocoa-mt", "evaluation.loaders.cocoa_mt:load", layout=cocoa_mt.EXPECTED))
register_data_set(DataSet("gate", "evaluation.loaders.gate:load", layout=gate.EXPECTED))

FOLDER_SET, FILE_SET = "ambigmt", "jsonl"  # what a bare folder or file holds


def resolve(data: str) -> tuple[DataSet, Path]:
    """The data set a ``--data`` value names and where its files are."""
    name, colon, folder = data.partition(":")
    if colon and name in DATA_SETS:
        if not Path(folder).is_dir():
            raise InputError(f"--data {data}: no such folder {folder!r} (give {name}:DIR with the {name} files)")
        return DATA_SETS[name], Path(folder)
    if data in DATA_SETS and DATA_SETS[data].fetch is not None:
        return DATA_SETS[data], DATA_SETS[data].fetch()
    path = Path(data)
    if path.is_dir():
        return DATA_SETS[FOLDER_SET], path
    if path.is_file():
        return DATA_SETS[FILE_SET], path
    named = ", ".join(f"{n}:DIR" for n in DATA_SETS if n != FILE_SET)
    raise InputError(f"--data {data}: no such file or folder (give 'ambigmt', {named}, a folder or a JSONL file)")


def load_items(data: str, types: tuple[str, ...] | None, langs: tuple[str, ...] | None,
               report: LoadReport) -> list[Item]:
    """The items of ``data`` of the given types and languages (None: all the data has)."""
    data_set, root = resolve(data)
    items = [i for i in data_set.load(root, types, langs, report)
             if (not types or i.ambiguity in types) and (not langs or i.lang in langs)]
    if not items:
        raise InputError(f"no items in {data} for types {types or 'all'} and languages {langs or 'all'}"
                         + (f"; problems: {report.malformed[:3]}" if report.malformed else "")
                         + (f"; the {data_set.name} layout is {data_set.layout}" if data_set.layout else ""))
    return items
