"""The request queue in front of the model: a bounded number of requests run, a bounded number wait."""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Iterator

from assistant import deadlines
from assistant.errors import IntercptError

from . import ApiError

TURN_CHECK_S = 0.25  # how often a request waiting for the model looks at its deadline and its client


class Gate:
    """At most ``concurrency`` requests use the model at once and ``queue_size`` more wait; the next
    one is told at once that the server is busy (429), instead of waiting without end. A request
    waits no longer than its deadline, and one whose client has left never starts."""

    def __init__(self, concurrency: int, queue_size: int):
        self._running = threading.BoundedSemaphore(concurrency)
        self._admitted = threading.BoundedSemaphore(concurrency + queue_size)

    @contextmanager
    def enter(self) -> Iterator[None]:
        if not self._admitted.acquire(blocking=False):
            raise ApiError(429, "busy, try again in a moment: every place in the queue is taken",
                           {"Retry-After": "5"})
        try:
            self._wait_for_turn()
            try:
                yield
            finally:
                self._running.release()
        finally:
            self._admitted.release()

    def _wait_for_turn(self) -> None:
        """Take a place at the model; raise (holding none) once the request's deadline passes or its client leaves."""
        deadline = deadlines.current()
        if deadline is None:
            self._running.acquire()
            return
        while not self._running.acquire(timeout=TURN_CHECK_S):
            deadline.check()
        try:
            deadline.check()
        except IntercptError:
            self._running.release()
            raise
