"""How a running evaluation stops: on a signal it winds down, when the model server keeps failing
it halts; anything else an item raises is that item's failure.

The first Ctrl-C or SIGTERM asks the run to stop launching items and to keep what finishes
within a short grace period; a second one exits at once. The handlers are installed only
while items run (and only in the main thread, where Python delivers signals) and the previous
ones come back afterwards, so the command line's own SIGTERM handling applies everywhere else.
"""

from __future__ import annotations

import json
import signal
import sys
import threading
import time
from collections.abc import Iterator
from types import FrameType

from assistant.errors import GarbageReplyError, OutageError

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


RETRIED_STATUSES = (408, 409, 429)  # with every 5xx: the statuses the OpenAI client itself retries


def is_server_failure(err: BaseException) -> bool:
    """Whether a failure is the model server's, and likely to pass, rather than the item's.

    These are tried again with backoff, never recorded as the item's result, and a run that
    gives up on them stops and exits non-zero so that its next start runs their items again.
    Checked by type along the chain of causes: ``OutageError``; the OS's ``ConnectionError`` and
    ``TimeoutError``; the OpenAI client's ``APIConnectionError`` (its timeouts included) and its
    HTTP errors with a 5xx status or 408, 409, 429 (``InternalServerError``, ``RateLimitError``…);
    httpx's transport errors. Any other error (an empty reply, a bad row, a 400 for a prompt the
    server will never take, a metric that cannot score) is the item's own failure. The client
    libraries are looked up only if already imported, so a local backend never imports them.
    """
    openai = sys.modules.get("openai")
    status_error = getattr(openai, "APIStatusError", None)
    kinds = tuple(kind for kind in (OutageError, ConnectionError, TimeoutError, getattr(openai, "APIConnectionError", None),
                                    getattr(sys.modules.get("httpx"), "TransportError", None))
                  if isinstance(kind, type))
    for cause in _causes(err):
        if isinstance(cause, kinds):
            return True
        if isinstance(status_error, type) and isinstance(cause, status_error) and (
                cause.status_code >= 500 or cause.status_code in RETRIED_STATUSES):
            return True
    return False


# What the client libraries raise when an HTTP 200 carries something else than a completion (an
# HTML error page from a proxy, JSON without choices, a stream without events): their own words,
# as they have no type for it.
NOT_A_COMPLETION = ("Unexpected response type from OpenAI-compatible endpoint", "No generation chunks were returned",
                    "Received response with null value for 'choices'")


def is_garbage_reply(err: BaseException) -> bool:
    """Whether the server answered a request with a body that is not a completion (a 200 with an HTML
    page, a body that is not JSON, JSON without choices, a stream without events). The chain parses
    the model's text with its own parsers, which never raise ``json.JSONDecodeError``: that one is the
    client's, reading the body.

    That is the server's failure, not the item's: such an item is recorded as failed, so the report
    counts it, and is run again at the next start. A completion whose text is empty or is no
    translation (English, or a length far from the source's) is the model's own answer, not garbage:
    see ``Record.not_a_translation``.
    """
    validation_error = getattr(sys.modules.get("openai"), "APIResponseValidationError", None)
    for cause in _causes(err):
        if isinstance(cause, GarbageReplyError | json.JSONDecodeError) or (
                isinstance(validation_error, type) and isinstance(cause, validation_error)):
            return True
        if type(cause) in (ValueError, TypeError) and str(cause).startswith(NOT_A_COMPLETION):
            return True
    return False


def _causes(err: BaseException | None) -> Iterator[BaseException]:
    """``err`` and the errors it was raised from, each once."""
    seen = set()
    while err is not None and id(err) not in seen:
        seen.add(id(err))
        yield err
        err = err.__cause__
