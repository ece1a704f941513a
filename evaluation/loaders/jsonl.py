"""The generic JSONL data format: ``id, src, ref | refs, context, attributes, type, lang`` per line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable

from ..data import Item, LoadReport


def load(path: Path, langs: Iterable[str] | None = None, report: LoadReport | None = None) -> list[Item]:
    """Every readable row of the file (the caller keeps the languages and types it wants);
    unreadable rows are reported with file and line."""
    report = report if report is not None else LoadReport()
    items = []
    with open(path, encoding="utf-8") as handle:
        for line, text in enumerate(handle, start=1):
            if not text.strip():
                continue
            try:
                data = json.loads(text)
                refs = data["refs"] if "refs" in data else [data["ref"]]
                if not isinstance(refs, list) or not all(isinstance(r, str) for r in refs) or not data["src"]:
                    raise ValueError("'ref' must be a string and 'refs' a list of strings")
                items.append(Item(id=str(data.get("id", f"{path.stem}-{line}")), src=data["src"], refs=refs,
                                  context=data.get("context", ""), type=data.get("type", "unknown"),
                                  lang=data["lang"], attributes=dict(data.get("attributes", {}))))
            except (ValueError, KeyError, TypeError) as err:
                report.malformed.append(f"{path}:{line}: {err.__class__.__name__}: {err}")
    return items
