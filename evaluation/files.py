"""Run-directory files: one process per folder, and whole-file replacements that never collide.

Two evaluations writing one folder would interleave ``items.jsonl`` and race on temporary
files, so a run holds an exclusive ``fcntl`` lock on its folder for as long as it writes there.
"""

from __future__ import annotations

import fcntl
import os
import tempfile
from pathlib import Path

from assistant.errors import InputError

LOCK_FILE = ".lock"


class FolderLock:
    """An exclusive lock on a folder, taken at once or refused with who holds it; released by ``release``
    (or when the process ends, however it ends)."""

    def __init__(self, folder: Path, what: str = "intercpt evaluate"):
        folder.mkdir(parents=True, exist_ok=True)
        self._handle = open(folder / LOCK_FILE, "a+")
        try:
            fcntl.flock(self._handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._handle.seek(0)
            holder = self._handle.read().strip() or "another process"
            self._handle.close()
            raise InputError(f"{folder} is in use by {what} ({holder}); wait for it to finish, "
                             "or give another --out") from None
        self._handle.seek(0)
        self._handle.truncate()
        self._handle.write(f"pid {os.getpid()}\n")
        self._handle.flush()

    def release(self) -> None:
        if not self._handle.closed:
            fcntl.flock(self._handle, fcntl.LOCK_UN)
            self._handle.close()


def replace_file(path: Path, payload: bytes) -> None:
    """Write ``payload`` to ``path`` atomically, through a temporary file of a name no one else uses."""
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(payload)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
