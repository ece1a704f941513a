"""The run's per-item records: one JSON line per finished (method, item), appended as each finishes.

The file is the run's memory. A killed run leaves at most one partial last line, which is
dropped on the next start; every complete line is an item that will not be run again.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import asdict
from pathlib import Path
from typing import Any, Iterator

from assistant.transcript import Transcript

from .data import Item

ITEMS_FILE = "items.jsonl"


def record_key(method: str, item: Item) -> str:
    return f"{method}/{item.id}"


def new_record(method: str, item: Item, user: str, transcript: Transcript | None, error: str | None) -> dict[str, Any]:
    """The record of one finished item: the item, the full transcript (or the error) and, later, its scores."""
    return {"key": record_key(method, item), "method": method, "user": user, "item": asdict(item),
            "transcript": transcript.to_dict() if transcript else None, "error": error, "scores": {}}


class RecordStore:
    """Append-only JSONL of records, safe to kill at any moment and to append from several threads."""

    def __init__(self, path: Path):
        self.path = path
        self._lock = threading.Lock()
        self.records: dict[str, dict[str, Any]] = {}
        if path.exists():
            self._load()

    def _load(self) -> None:
        lines = self.path.read_bytes().split(b"\n")
        kept = []
        for line in lines:
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError:
                continue  # the partial line a killed run left behind
            self.records[record["key"]] = record
            kept.append(line)
        rewritten = b"".join(line + b"\n" for line in kept)
        if rewritten != self.path.read_bytes():
            self._replace(rewritten)

    def __contains__(self, key: str) -> bool:
        return key in self.records

    def __len__(self) -> int:
        return len(self.records)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self.records.values())

    def append(self, record: dict[str, Any]) -> None:
        line = json.dumps(record, ensure_ascii=False).encode("utf-8") + b"\n"
        with self._lock:
            if record["key"] in self.records:
                return
            with open(self.path, "ab") as handle:
                handle.write(line)
                handle.flush()
                os.fsync(handle.fileno())
            self.records[record["key"]] = record

    def rewrite(self, records: list[dict[str, Any]]) -> None:
        """Replace the file atomically (after scores were added to finished records)."""
        with self._lock:
            self._replace(b"".join(json.dumps(r, ensure_ascii=False).encode("utf-8") + b"\n" for r in records))
            self.records = {r["key"]: r for r in records}

    def _replace(self, payload: bytes) -> None:
        tmp = self.path.with_suffix(".jsonl.tmp")
        tmp.write_bytes(payload)
        os.replace(tmp, self.path)
