"""The run's per-item records: one typed ``Record`` per finished (method, item), one JSON line each.

``items.jsonl`` is the run's memory. A killed run leaves at most one partial last line, which
is dropped on the next start; every complete line is an item that will not be run again, and
a key found twice (a file written by hand or by an older intercpt) keeps its first record
and is reported in ``RecordStore.duplicates``. The one exception is a record of a garbage reply
(``Record.garbage``): it counts in the report, but the next start runs its item again, and the
new record takes its place in the file.
Records are written and read through one serializer pair (``Record.to_dict``/``from_dict``)
that stamps and checks ``schema_version``, so a file from a newer intercpt is refused with
its file and line instead of being misread.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Protocol

from assistant import checks
from assistant.errors import DataError
from assistant.transcript import Transcript

from .data import Item
from .files import replace_file

ITEMS_FILE = "items.jsonl"
SCHEMA_VERSION = 1


class Output(Protocol):
    """What a metric reads of one system output: the item, the translation, the candidates
    (the translation, then the alternatives offered for skipped questions), the transcript
    (None for a failed item or a reference) and the per-item scores stored so far."""

    item: Item
    transcript: Transcript | None
    scores: dict[str, Any]

    @property
    def translation(self) -> str: ...

    def candidates(self, n: int) -> list[str]: ...


@dataclass
class Record:
    """One finished (method, item): the item, who answered, the full transcript (or the error) and the scores.

    ``garbage``: the item failed because the model server answered with something that is not a
    completion (``stopping.is_garbage_reply``); the server's fault, so the next start runs it again."""

    method: str
    user: str
    item: Item
    transcript: Transcript | None
    error: str | None = None
    scores: dict[str, Any] = field(default_factory=dict)
    garbage: bool = False

    @property
    def key(self) -> str:
        return record_key(self.method, self.item)

    @property
    def translation(self) -> str:
        """The system output; a failed item counts as an empty translation (its transcript, if any,
        is kept to show how far it got)."""
        return (self.transcript.translation if self.transcript and self.error is None else None) or ""

    def candidates(self, n: int) -> list[str]:
        alternatives = ([a.translation or "" for a in self.transcript.alternatives]
                        if self.transcript and self.error is None else [])
        return ([self.translation] + alternatives)[:n]

    @property
    def not_a_translation(self) -> bool:
        """Whether the model's final reply failed a text check (it is English, or its length is far from
        the source's: the model answered or echoed instead of translating). It stays the method's
        output and is scored as such (dropping it would flatter the method); the report counts it."""
        return checks.not_a_translation(self.transcript.checks if self.transcript and self.error is None else [])

    def to_dict(self) -> dict[str, Any]:
        return {"schema_version": SCHEMA_VERSION, "key": self.key, "method": self.method, "user": self.user,
                "item": self.item.to_dict(), "transcript": self.transcript.to_dict() if self.transcript else None,
                "error": self.error, "scores": self.scores, "garbage": self.garbage}

    @classmethod
    def from_dict(cls, data: Any, where: str = "record") -> "Record":
        """The record a ``to_dict`` wrote; ``where`` (file:line) names it in the error of an unreadable one.
        Lines written before versions were stamped have the layout of version 1."""
        if not isinstance(data, dict):
            raise DataError(f"{where}: expected a JSON object, got {type(data).__name__}")
        version = data.get("schema_version", 1)
        if version != SCHEMA_VERSION:
            raise DataError(f"{where}: record schema_version {version!r} is not the {SCHEMA_VERSION} this intercpt "
                            "reads; use the intercpt that wrote it, or start a new run directory")
        try:
            transcript = Transcript.from_dict(data["transcript"]) if data.get("transcript") else None
            return cls(method=data["method"], user=data["user"], item=Item.from_dict(data["item"]),
                       transcript=transcript,
                       error=data.get("error"), scores=dict(data.get("scores") or {}),
                       garbage=bool(data.get("garbage", False)))
        except DataError as err:
            raise DataError(f"{where}: {err}") from None
        except (KeyError, TypeError) as err:
            raise DataError(f"{where}: not an evaluation record ({err.__class__.__name__}: {err})") from None

    def to_json_line(self) -> bytes:
        return json.dumps(self.to_dict(), ensure_ascii=False).encode("utf-8") + b"\n"


@dataclass
class ReferenceOutput:
    """An item's first reference as the output, for scoring the checkers themselves: their
    F-Acc/G-Acc on references is the ceiling a system can reach. Not a run, so no transcript."""

    item: Item
    transcript: None = None
    scores: dict[str, Any] = field(default_factory=dict)

    @property
    def translation(self) -> str:
        return self.item.refs[0] if self.item.refs else ""

    def candidates(self, n: int) -> list[str]:
        return [self.translation][:n]


def record_key(method: str, item: Item) -> str:
    return f"{method}/{item.id}"


class RecordStore:
    """Append-only JSONL of records, safe to kill at any moment and to append from several threads."""

    def __init__(self, path: Path):
        self.path = path
        self._lock = threading.Lock()
        self.records: dict[str, Record] = {}
        self.duplicates: list[str] = []  # "file:line: key" of each record dropped because its key came earlier
        if path.exists():
            self._load()

    def _load(self) -> None:
        payload = self.path.read_bytes()
        kept = []
        for number, line in enumerate(payload.split(b"\n"), start=1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except ValueError:
                continue  # the partial line a killed run left behind
            record = Record.from_dict(data, f"{self.path}:{number}")
            if record.key in self.records:
                self.duplicates.append(f"{self.path}:{number}: {record.key}")
                continue
            self.records[record.key] = record
            kept.append(line)
        rewritten = b"".join(line + b"\n" for line in kept)
        if rewritten != payload:
            self._replace(rewritten)

    def __contains__(self, key: str) -> bool:
        return key in self.records

    def is_final(self, key: str) -> bool:
        """Whether ``key`` has a record the next start keeps (any but a garbage reply's)."""
        return key in self.records and not self.records[key].garbage

    def __len__(self) -> int:
        return len(self.records)

    def __iter__(self) -> Iterator[Record]:
        return iter(self.records.values())

    def append(self, record: Record) -> None:
        """Add a record; one that replaces a garbage reply's takes its place by rewriting the file."""
        line = record.to_json_line()
        with self._lock:
            if self.is_final(record.key):
                return
            if record.key in self.records:
                self.records[record.key] = record
                self._replace(b"".join(r.to_json_line() for r in self.records.values()))
                return
            with open(self.path, "ab") as handle:
                handle.write(line)
                handle.flush()
                os.fsync(handle.fileno())
            self.records[record.key] = record

    def rewrite(self, records: list[Record]) -> None:
        """Replace the file atomically (after scores were added to finished records)."""
        with self._lock:
            self._replace(b"".join(r.to_json_line() for r in records))
            self.records = {r.key: r for r in records}

    def _replace(self, payload: bytes) -> None:
        replace_file(self.path, payload)
