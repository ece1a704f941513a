"""The generic JSONL data format: ``id, src, ref | refs, context, attributes, type, lang`` per line.

Every row is checked here, field by field, so a bad row is reported with its file and line
instead of failing an item mid-run (or every item, on every resume). ``type`` is one of the ambiguity
table's types; ``"type": "none"`` marks an item whose gold says there is nothing to ask about, and
``"unknown"`` (or no type) one scored with the text metrics only.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable

from assistant.ambiguity import ambiguity_types
from assistant.context.sentences import MAX_CONTEXT_CHARS
from assistant.inputs import MAX_SOURCE_CHARS
from assistant.languages import LANGUAGES

from ..data import NO_AMBIGUITY, UNKNOWN_TYPE, Item, LoadReport


class RowError(ValueError):
    """What is wrong with one row, in words."""


def load(path: Path, langs: Iterable[str] | None = None, report: LoadReport | None = None) -> list[Item]:
    """Every valid row of the file (the caller keeps the languages and types it wants);
    invalid rows, and rows that repeat an earlier id, are reported with file and line."""
    report = report if report is not None else LoadReport()
    items: list[Item] = []
    seen: dict[str, int] = {}
    for line, raw in enumerate(path.read_bytes().split(b"\n"), start=1):
        if not raw.strip():
            continue
        try:
            item = parse_row(raw, default_id=f"{path.stem}-{line}")
            if item.id in seen:
                raise RowError(f"id {item.id!r} repeats the row of line {seen[item.id]}")
        except RowError as err:
            report.malformed.append(f"{path}:{line}: {err}")
            continue
        seen[item.id] = line
        items.append(item)
    return items


def parse_row(raw: bytes, default_id: str) -> Item:
    """One line as an item; ``RowError`` says which field is wrong and why."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as err:
        raise RowError(f"not UTF-8 text (byte {err.start})") from None
    except ValueError as err:
        raise RowError(f"not JSON ({err})") from None
    if not isinstance(data, dict):
        raise RowError(f"expected a JSON object, got {type(data).__name__}")
    item_id = data.get("id", default_id)
    if isinstance(item_id, bool) or not isinstance(item_id, (str, int)) or not str(item_id).strip():
        raise RowError("'id' must be a non-empty string or a number")
    if "refs" in data:
        refs = data["refs"]
        if not isinstance(refs, list) or not refs or not all(_text(r) for r in refs):
            raise RowError("'refs' must be a non-empty list of non-empty strings")
    elif "ref" in data:
        refs = [data["ref"]]
        if not _text(data["ref"]):
            raise RowError("'ref' must be a non-empty string")
    else:
        raise RowError("no reference: give 'ref' (a string) or 'refs' (a list of strings)")
    return Item(id=str(item_id), src=_field(data, "src", required=True, limit=MAX_SOURCE_CHARS), refs=refs,
                context=_field(data, "context", limit=MAX_CONTEXT_CHARS), ambiguity=_ambiguity(data),
                lang=_language(data), attributes=_attributes(data))


def _text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _field(data: dict, name: str, *, required: bool = False, limit: int | None = None) -> str:
    value = data.get(name)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()):
        raise RowError(f"'{name}' must be a {'non-empty ' if required else ''}string, got {_shown(value)}")
    if limit is not None and len(value) > limit:
        raise RowError(f"'{name}' has {len(value)} characters; at most {limit} can be read")
    return value


def _ambiguity(data: dict) -> str:
    """A type of the ambiguity table, ``none`` (nothing to ask) or ``unknown``; left out, ``unknown``."""
    ambiguity = _field(data, "type") or UNKNOWN_TYPE
    known = [*ambiguity_types(), NO_AMBIGUITY, UNKNOWN_TYPE]
    if ambiguity not in known:
        raise RowError(f"'type' must be one of {', '.join(known)}, got {_shown(ambiguity)}")
    return ambiguity


def _language(data: dict) -> str:
    lang = data.get("lang")
    if lang not in LANGUAGES:
        raise RowError(f"'lang' must be one of {', '.join(LANGUAGES)}, got {_shown(lang)}")
    return lang


def _attributes(data: dict) -> dict[str, str]:
    attributes = data.get("attributes", {}) or {}
    if not isinstance(attributes, dict) or not all(isinstance(v, str) for v in attributes.values()):
        raise RowError("'attributes' must be an object of strings (e.g. {\"formality\": \"formal\"})")
    return dict(attributes)


def _shown(value: Any) -> str:
    return "nothing" if value is None else f"{type(value).__name__} {json.dumps(value)[:40]}"
