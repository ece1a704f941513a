"""CoCoA-MT (Nadejde et al., Findings of NAACL 2022): formality-controlled translation with a formal
and an informal professional reference per English source, and the formality markers of each
reference annotated as ``[F]…[/F]``.

Upstream layout (github.com/amazon-science/contrastive-controlled-mt, folder ``CoCoA-MT``)::

    CoCoA-MT/{train,test}/en-XX/formality-control.{split}.{domain}.en-XX[.en]
                                formality-control.{split}.{domain}.en-XX.{formal,informal}[.XX]
                                formality-control.{split}.{domain}.en-XX.{formal,informal}.annotated[.XX]

The train files of most pairs end with a language code (``.en``, ``.formal.fr``); the test files and
every en-ja file have none, and the Portuguese pair is named ``en-ptpt`` inside folder ``en-pt``.
Both spellings are read. Train has the domains telephony and topical_chat, test adds call_center.

Each source gives two items, one per formality level: the reference is that level's plain
reference; the attributes carry both annotated references for the contrastive metric
(``evaluation.metrics.contrastive``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from assistant.ambiguity import get_type
from assistant.errors import DataError
from evaluation.data import Item, LoadReport
from evaluation.loaders.layouts import item_type

FOLDER = "CoCoA-MT"
SPLITS = ("test", "train")
LEVELS = ("formal", "informal")
REFERENCES = LEVELS + tuple(f"{level}.annotated" for level in LEVELS)
TYPE = item_type("cocoa-mt")  # the ambiguity type of every item, as datasets/cocoa-mt/layout.yaml says
_SOURCE = re.compile(r"^formality-control\.(?P<split>train|test)\.(?P<domain>[a-z_-]+)\.en-[a-z]+(?:\.en)?$")
EXPECTED = (f"DIR/{FOLDER}/{{test,train}}/en-XX/formality-control.SPLIT.DOMAIN.en-XX[.en] with its "
            ".formal[.XX], .informal[.XX], .formal.annotated[.XX] and .informal.annotated[.XX] files "
            f"(DIR may also be the {FOLDER} folder itself)")


def dataset_folder(root: Path) -> Path:
    """The ``CoCoA-MT`` folder: ``root`` itself or its child of that name; DataError otherwise."""
    for folder in (root / FOLDER, root):
        if any((folder / split).is_dir() for split in SPLITS):
            return folder
    raise DataError(f"--data cocoa-mt:{root}: not the CoCoA-MT layout; expected {EXPECTED}")


def default_split(folder: Path) -> str:
    """The test split when it is there (the benchmark's own), else train."""
    return next(split for split in SPLITS if (folder / split).is_dir())


def load(root: Path, langs: Iterable[str] | None, report: LoadReport, split: str | None = None) -> list[Item]:
    """Two items per English source of ``split`` (default: test if present, else train) for the
    target languages ``langs`` (None: every pair present). Item ids name the split:
    ``cocoa-mt-{split}-{lang}-{domain}-{line}-{formal|informal}``."""
    folder = dataset_folder(root)
    split = split or default_split(folder)
    if split not in SPLITS:
        raise DataError(f"--data cocoa-mt:{root}: unknown split {split!r}; choose from: {', '.join(SPLITS)}")
    split_dir = folder / split
    pairs = {path.name.removeprefix("en-"): path for path in sorted(split_dir.glob("en-*")) if path.is_dir()}
    if not pairs:
        present = [s for s in SPLITS if (folder / s).is_dir()]
        raise DataError(f"--data cocoa-mt:{root}: no {split_dir}/en-XX folders (splits present: "
                        f"{', '.join(present) or 'none'}); expected {EXPECTED}")
    items: list[Item] = []
    for lang in sorted(pairs) if langs is None else list(dict.fromkeys(langs)):
        if lang not in pairs:
            report.malformed.append(f"{split_dir / ('en-' + lang)}: not found (pairs here: {', '.join(sorted(pairs))})")
            continue
        sources = sorted(p for p in pairs[lang].iterdir() if (m := _SOURCE.match(p.name)) and m["split"] == split)
        if not sources:
            report.malformed.append(f"{pairs[lang]}: no formality-control.{split}.DOMAIN.en-{lang}[.en] source file")
        for source in sources:
            items += _read_domain(source, lang, split, report)
    return items


def _read_domain(source: Path, lang: str, split: str, report: LoadReport) -> list[Item]:
    domain = _SOURCE.match(source.name)["domain"]
    stem = source.name.removesuffix(".en")
    paths: dict[str, Path] = {}
    for key in REFERENCES:
        candidates = [source.with_name(f"{stem}.{key}.{lang}"), source.with_name(f"{stem}.{key}")]
        found = next((path for path in candidates if path.is_file()), None)
        if found is None:
            report.malformed.append(f"{candidates[0]}: not found (nor {candidates[1].name}); domain {domain} skipped")
            return []
        paths[key] = found
    sources = _read_lines(source)
    texts = {key: _read_lines(path) for key, path in paths.items()}
    for key, lines in texts.items():
        if len(lines) != len(sources):
            report.malformed.append(f"{paths[key]}: {len(lines)} lines, expected {len(sources)} as in {source.name}; "
                                    f"domain {domain} skipped")
            return []
    items = []
    for index, src in enumerate(sources):
        line = index + 1
        row = {key: lines[index].strip() for key, lines in texts.items()}
        empty = ([source] if not src.strip() else []) + [paths[key] for key, text in row.items() if not text]
        if empty:
            report.malformed.append(f"{empty[0]}:{line}: empty segment; source skipped")
            continue
        for level in LEVELS:
            items.append(Item(
                id=f"cocoa-mt-{split}-{lang}-{domain}-{line}-{level}", src=src.strip(), refs=[row[level]], context="",
                ambiguity=TYPE, lang=lang,
                attributes={get_type(TYPE).gold: level, "formal_annotated": row["formal.annotated"],
                            "informal_annotated": row["informal.annotated"], "domain": domain, "split": split,
                            "dataset": "cocoa-mt"}))
    return items


def _read_lines(path: Path) -> list[str]:
    """Lines without their ends; only ``\\n`` ends a line (``str.splitlines`` would also split at
    U+2028 or U+0085 inside a segment and shift every later line of the parallel files)."""
    lines = path.read_text(encoding="utf-8-sig").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]
