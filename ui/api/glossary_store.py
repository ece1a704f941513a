"""The glossaries created through the API (DeepL's glossary endpoints), kept per key within bounds."""

from __future__ import annotations

import tempfile
import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from assistant.errors import InputError
from assistant.glossary import (MAX_GLOSSARY_BYTES, MAX_GLOSSARY_ENTRIES, Glossary, GlossaryTooLarge,
                               check_glossary_bytes)

from . import ApiError
from .auth import Account

MAX_GLOSSARIES_PER_KEY = 100
# What one key's glossaries may hold together: two glossaries of the largest size (each costs memory for its matcher).
MAX_GLOSSARY_ENTRIES_PER_KEY = 2 * MAX_GLOSSARY_ENTRIES
MAX_GLOSSARY_BYTES_PER_KEY = 2 * MAX_GLOSSARY_BYTES
GLOSSARY_RETRY_S = 10  # Retry-After for a glossary refused while another is being built


@dataclass
class StoredGlossary:
    """A glossary created through the API: DeepL's description of it, and the parsed entries."""

    glossary_id: str
    name: str
    source_lang: str
    target_lang: str
    creation_time: str
    glossary: Glossary
    size_bytes: int

    def info(self) -> dict[str, Any]:
        return {"glossary_id": self.glossary_id, "name": self.name, "ready": True, "source_lang": self.source_lang,
                "target_lang": self.target_lang, "creation_time": self.creation_time,
                "entry_count": len(self.glossary.entries)}

    def tsv(self) -> str:
        return "".join(f"{entry.source}\t{entry.target}\n" for entry in self.glossary.entries)


class GlossaryStore:
    """Each key's glossaries, in memory; one glossary's matcher is built at a time (it costs CPU)."""

    def __init__(self) -> None:
        self._glossaries: dict[str | None, OrderedDict[str, StoredGlossary]] = {}
        self._lock = threading.Lock()
        self._build = threading.Lock()

    def create(self, account: Account, name: str, source_lang: str, target_lang: str, entries: str,
               entries_format: str) -> StoredGlossary:
        """Parse ``entries`` (DeepL's TSV or CSV) with the glossary reader the CLI uses, and build its matcher
        now, once: 413 for a glossary over the bounds of one, 456 when the key's glossaries would hold too much,
        429 while another glossary is being built (a large one takes a core for a minute)."""
        if entries_format not in ("tsv", "csv"):
            raise ApiError(400, f"entries_format must be tsv or csv, not {entries_format!r}")
        if source_lang.lower() != "en":
            raise ApiError(400, "glossaries translate from English (source_lang EN)")
        size = len(entries.encode("utf-8"))
        try:
            check_glossary_bytes(size, "entries")
        except GlossaryTooLarge as err:
            raise ApiError(413, str(err)) from None
        if not self._build.acquire(blocking=False):
            raise ApiError(429, "busy building another glossary, try again in a moment",
                           {"Retry-After": str(GLOSSARY_RETRY_S)})
        try:
            glossary = parse_entries(entries, entries_format, target_lang.lower())
            stored = StoredGlossary(uuid.uuid4().hex, name, "en", target_lang.lower(),
                                    datetime.now(timezone.utc).isoformat(timespec="milliseconds"), glossary, size)
            with self._lock:
                self._check_room(account, stored)
            glossary.prepare()  # stops at the request's deadline, or once its client has left
        finally:
            self._build.release()
        with self._lock:
            self._check_room(account, stored)  # another request of this key may have taken the room meanwhile
            self._glossaries.setdefault(account.key, OrderedDict())[stored.glossary_id] = stored
        return stored

    def _check_room(self, account: Account, new: StoredGlossary) -> None:
        """456 when the key's glossaries and ``new`` together are more than a key may keep."""
        mine = list(self._glossaries.get(account.key, {}).values())
        if len(mine) >= MAX_GLOSSARIES_PER_KEY:
            raise ApiError(456, f"glossary limit reached: at most {MAX_GLOSSARIES_PER_KEY} a key; delete one")
        entries = sum(len(g.glossary.entries) for g in mine) + len(new.glossary.entries)
        if entries > MAX_GLOSSARY_ENTRIES_PER_KEY:
            raise ApiError(456, f"glossary limit reached: this key's glossaries would hold {entries} entries, at most "
                           f"{MAX_GLOSSARY_ENTRIES_PER_KEY}; delete one")
        size = sum(g.size_bytes for g in mine) + new.size_bytes
        if size > MAX_GLOSSARY_BYTES_PER_KEY:
            raise ApiError(456, f"glossary limit reached: this key's glossaries would hold {size} bytes, at most "
                           f"{MAX_GLOSSARY_BYTES_PER_KEY}; delete one")

    def of(self, account: Account) -> list[StoredGlossary]:
        return list(self._glossaries.get(account.key, {}).values())

    def get(self, account: Account, glossary_id: str) -> StoredGlossary:
        found = self._glossaries.get(account.key, {}).get(glossary_id)
        if found is None:
            raise ApiError(404, f"no glossary {glossary_id!r}")
        return found

    def delete(self, account: Account, glossary_id: str) -> None:
        self.get(account, glossary_id)
        with self._lock:
            del self._glossaries[account.key][glossary_id]


def parse_entries(entries: str, entries_format: str, target_lang: str) -> Glossary:
    """DeepL's glossary entries through ``Glossary.load`` (the one reader of CSV and TSV glossaries)."""
    with tempfile.TemporaryDirectory(prefix="intercpt-glossary-") as folder:
        path = Path(folder) / f"entries.{entries_format}"
        path.write_text(entries, encoding="utf-8")
        try:
            return Glossary.load(path, target_lang)
        except InputError as err:
            status = 413 if isinstance(err, GlossaryTooLarge) else 400
            raise ApiError(status, str(err).replace(str(path), "entries")) from None
