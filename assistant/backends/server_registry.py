"""What every intercpt process on this machine knows about the model servers intercpt runs.

Per model, under ``<cache>/servers/``: a lock file (``fcntl``; held around find-or-start and
around any change), the record of the running server (JSON, mode 0600: it holds the server's
API key) and a folder with one file per process using it (its PID and start time, so a
recycled PID is not mistaken for a live user). A record is trusted only while its
supervisor and server processes are alive and still run the command it names.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Iterator

import psutil

from ..paths import cache_dir

SUPERVISOR_MODULE = "assistant.backends.server_supervisor"


@dataclass
class ServerRecord:
    """A supervised server: written by its supervisor when it launches the server, removed when it stops."""

    pid: int  # the server process, leader of its own process group
    supervisor_pid: int
    host: str
    port: int
    model: str
    served_name: str
    api_key: str
    owner: int  # the process that asked for it first
    command: list[str] = field(default_factory=list)
    log_path: str = ""

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"


def process_stamp(pid: int) -> float | None:
    """The start time of a live process (a zombie counts as dead), None when there is none."""
    try:
        process = psutil.Process(pid)
        if process.status() == psutil.STATUS_ZOMBIE:
            return None
        return process.create_time()
    except (psutil.NoSuchProcess, psutil.AccessDenied, ValueError):
        return None


def command_line(pid: int) -> list[str] | None:
    """``/proc/<pid>/cmdline`` of a live process, None when it is gone or unreadable."""
    try:
        return psutil.Process(pid).cmdline() if process_stamp(pid) is not None else None
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return None


class Registry:
    """The lock, the record and the users of the server for one model."""

    def __init__(self, model: str, root: Path | None = None):
        self.model = model
        digest = hashlib.sha256(model.encode()).hexdigest()[:16]
        self.root = root or cache_dir() / "servers"
        self.record_path = self.root / f"{digest}.json"
        self.lock_path = self.root / f"{digest}.lock"
        self.users_dir = self.root / f"{digest}.users"

    @contextmanager
    def lock(self) -> Iterator[None]:
        self.root.mkdir(parents=True, exist_ok=True, mode=0o700)
        with open(self.lock_path, "a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def read(self) -> ServerRecord | None:
        try:
            return ServerRecord(**json.loads(self.record_path.read_text()))
        except (OSError, ValueError, TypeError):
            return None

    def write(self, record: ServerRecord) -> None:
        """Atomically, readable by this user only (the record holds the server's API key)."""
        self.root.mkdir(parents=True, exist_ok=True, mode=0o700)
        partial = self.record_path.with_suffix(f".{os.getpid()}.tmp")
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as handle:
            json.dump(asdict(record), handle)
        os.replace(partial, self.record_path)

    def remove(self, supervisor_pid: int | None = None) -> None:
        """Forget the server (only the one ``supervisor_pid`` runs, when given) and its users."""
        record = self.read()
        if supervisor_pid is not None and (record is None or record.supervisor_pid != supervisor_pid):
            return
        self.record_path.unlink(missing_ok=True)
        shutil.rmtree(self.users_dir, ignore_errors=True)

    def register(self, pid: int) -> None:
        self.users_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        (self.users_dir / str(pid)).write_text(repr(process_stamp(pid)))

    def unregister(self, pid: int) -> None:
        (self.users_dir / str(pid)).unlink(missing_ok=True)

    def live_users(self) -> list[int]:
        """PIDs of the processes using the server that still run; files of dead ones are removed."""
        live = []
        for entry in self.users_dir.glob("*") if self.users_dir.is_dir() else []:
            try:
                pid, stamp = int(entry.name), float(entry.read_text())
            except (OSError, ValueError):
                stamp = None
            if stamp is not None and process_stamp(pid) == stamp:
                live.append(pid)
            else:
                entry.unlink(missing_ok=True)
        return live


def is_supervisor(record: ServerRecord) -> bool:
    """The record's supervisor still runs (and is ours, not a process that got its PID since)."""
    cmdline = command_line(record.supervisor_pid) or []
    return SUPERVISOR_MODULE in cmdline


def runs_recorded_command(record: ServerRecord) -> bool:
    """The record's server PID still runs the recorded command (not a process that got its PID since)."""
    return bool(record.command) and command_line(record.pid) == record.command
