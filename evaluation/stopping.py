"""How a running evaluation stops: on a signal it winds down, on an outage it halts; anything else
an item raises is that item's failure.

The first Ctrl-C or SIGTERM asks the run to stop launching items and to keep what finishes
within a short grace period; a second one exits at once. The handlers are installed only
while items run (and only in the main thread, where Python delivers signals) and the previous
ones come back afterwards, so the command line's own SIGTERM handling applies everywhere else.
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from types import FrameType

from assistant.errors import OutageError

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class StopRequest:
    """A context manager that turns the first stop signal into a request (``requested``) and the
    second into an immediate exit (``KeyboardInterrupt`` for Ctrl-C, ``SystemExit(128+n)`` otherwise)."""

    def __init__(self, notice: str = "stopping: no new items; keeping those that finish within a few seconds "
                                     "(press Ctrl-C again to quit at once)"):
        self.notice = notice
        self.signal: int | None = None
        self._since = 0.0
        self._previous: dict[int, object] = {}

    def __enter__(self) -> "StopRequest":
        if threading.current_thread() is threading.main_thread():
            for number in STOP_SIGNALS:
                self._previous[number] = signal.signal(number, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for number, handler in self._previous.items():
            if handler is not None:
                signal.signal(number, handler)
        self._previous.clear()

    def _handle(self, number: int, frame: FrameType | None) -> None:
        if self.signal is not None:
            raise self.exit(number)
        self.signal, self._since = number, time.monotonic()
        print(f"\nintercpt: {signal.Signals(number).name}: {self.notice}", file=sys.stderr, flush=True)

    @property
    def requested(self) -> bool:
        return self.signal is not None

    @property
    def name(self) -> str:
        return signal.Signals(self.signal).name if self.signal is not None else ""

    def waited(self) -> float:
        """Seconds since the stop was requested."""
        return time.monotonic() - self._since if self.requested else 0.0

    def exit(self, number: int | None = None) -> BaseException:
        """The exception that ends the process the way the signal would have."""
        number = number if number is not None else self.signal
        return KeyboardInterrupt() if number == signal.SIGINT else SystemExit(128 + int(number))


def is_outage(err: BaseException) -> bool:
    """Whether a failure is the model server's (unreachable, or gone mid-request) rather than the item's.

    Only these stop a run, and a restart retries their items; any other error (an empty reply,
    a bad row, a metric that cannot score) is recorded as the item's failure. Checked by type,
    along the chain of causes: ``OutageError``, the OS's ``ConnectionError``, the OpenAI client's
    ``APIConnectionError`` (its timeouts included) and httpx's transport errors. The client
    libraries are looked up only if already imported, so a local backend never imports them.
    """
    kinds: list[type] = [OutageError, ConnectionError]
    for module, name in (("openai", "APIConnectionError"), ("httpx", "TransportError")):
        kind = getattr(sys.modules.get(module), name, None)
        if isinstance(kind, type):
            kinds.append(kind)
    seen = set()
    while err is not None and id(err) not in seen:
        if isinstance(err, tuple(kinds)):
            return True
        seen.add(id(err))
        err = err.__cause__
    return False
