"""The small process that owns one model server: ``python -m assistant.backends.server_supervisor``.

Why a separate process: the server must not depend on how its users end. A user killed by
SIGKILL runs no clean-up, and a user killed during start-up has not even learnt the server's
PID. The supervisor runs in its own session, so neither a dying user nor a Ctrl-C in the
user's terminal reaches it. It reads its launch settings (JSON) from stdin, so the API key
never shows on a command line; starts the server in a process group of its own (which the
kernel stops if the supervisor itself dies: ``PR_SET_PDEATHSIG``); writes the record at once;
then, every ``POLL_S``, stops the server as soon as none of its registered users is alive, and
removes the record when the server stops or dies. No longer grace period is needed: users
register and the supervisor counts them under the same lock, so a user that has just found
the record is counted before the supervisor can decide that nobody is left. SIGTERM stops it at once (``intercpt serve``
on Ctrl-C).
"""

from __future__ import annotations

import ctypes
import json
import os
import signal
import subprocess
import sys
import time

from .server_registry import Registry, ServerRecord

POLL_S = 0.5
STOP_GRACE_S = 30.0
_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """In the server's process, before exec: the kernel sends SIGTERM when the supervisor dies."""
    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def _stop(server: subprocess.Popen, grace_s: float = STOP_GRACE_S) -> None:
    """SIGTERM to the server's whole group (its engine processes go with it), SIGKILL after ``grace_s``."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(server.pid, sig)
        except ProcessLookupError:
            break
        deadline = time.monotonic() + grace_s
        while time.monotonic() < deadline:
            server.poll()  # reap the leader; the group lives while its engine processes do
            try:
                os.killpg(server.pid, 0)
            except ProcessLookupError:
                server.wait()
                return
            time.sleep(0.1)
    server.wait()


def supervise(settings: dict) -> int:
    registry = Registry(settings["model"])
    stopping = []
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda *_: stopping.append(True))
    with open(settings["log_path"], "ab") as log:
        server = subprocess.Popen(
            settings["command"], stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            env={**os.environ, **settings["env"]}, start_new_session=True, preexec_fn=_die_with_parent,
        )
    record = ServerRecord(
        pid=server.pid, supervisor_pid=os.getpid(), host=settings["host"], port=settings["port"],
        model=settings["model"], served_name=settings["served_name"], api_key=settings["api_key"],
        owner=settings["owner"], command=settings["command"], log_path=settings["log_path"],
    )
    registry.write(record)  # the launcher waits for this file (and holds the lock until then)
    while server.poll() is None and not stopping:
        with registry.lock():
            if not registry.live_users():
                registry.remove(os.getpid())
                break
        time.sleep(POLL_S)
    with registry.lock():
        registry.remove(os.getpid())
    if server.poll() is None:
        _stop(server)
    return server.returncode if server.returncode and server.returncode > 0 else 0


if __name__ == "__main__":
    raise SystemExit(supervise(json.loads(sys.stdin.read())))
