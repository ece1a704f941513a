"""The files the page and the API hand out (translations, profiles), kept in a temporary folder for the last
``KEPT_FILES`` of them: a server that runs for months keeps a bounded number, and none once it stops."""

from __future__ import annotations

import tempfile
import threading
import uuid
from pathlib import Path

KEPT_FILES = 100


class FileStore:
    """A fresh folder per translated file, named by a token that its download URL carries."""

    def __init__(self) -> None:
        self._root = tempfile.TemporaryDirectory(prefix="intercpt-files-")
        self._kept: list[Path] = []
        self._lock = threading.Lock()

    def new_path(self, name: str) -> Path:
        """A fresh path for a file called ``name``; the oldest files go once more than ``KEPT_FILES`` are kept."""
        folder = Path(self._root.name) / uuid.uuid4().hex
        folder.mkdir()
        with self._lock:
            self._kept.append(folder)
            while len(self._kept) > KEPT_FILES:
                old = self._kept.pop(0)
                for child in old.iterdir():
                    child.unlink()
                old.rmdir()
        return folder / Path(name).name

    def find(self, token: str, name: str) -> Path | None:
        """The stored file of a download URL; None for one that is gone or was never there."""
        path = Path(self._root.name) / token / name
        if not (token.isalnum() and path.parent.parent == Path(self._root.name) and path.is_file()):
            return None
        return path
