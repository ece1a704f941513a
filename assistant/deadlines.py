"""How long the work for one request may still take, and whether its client still waits.

A server opens a ``Deadline`` around each request (``within``). Every langchain model call made
in that context, on any backend, checks it as it starts and at each streamed token (the
deadline is a callback handler that langchain adds to every call in the context), so work
whose time is up or whose client has gone stops at the next model call instead of running on;
a model server's client also bounds its own wait by the time left (``remaining``). Outside a
request (the CLI, the evaluator) there is no deadline and nothing changes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.tracers.context import register_configure_hook

from .errors import DeadlineExceeded, RequestCancelled


class Deadline(BaseCallbackHandler):
    """Ends ``seconds`` from now, or as soon as ``cancel`` is called (its client went away)."""

    raise_error = True  # langchain lets the handler's error end the call

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic):
        self.seconds = seconds
        self._clock = clock
        self._ends = clock() + seconds
        self._cancelled = threading.Event()

    def cancel(self) -> None:
        self._cancelled.set()

    def remaining(self) -> float:
        return max(0.0, self._ends - self._clock())

    def check(self) -> None:
        """Raise ``RequestCancelled`` once the client has gone, ``DeadlineExceeded`` once the time is up."""
        if self._cancelled.is_set():
            raise RequestCancelled("the client closed the request")
        if self.remaining() <= 0:
            raise DeadlineExceeded(f"the request did not finish within its deadline of {self.seconds:g} s; "
                                   "try again later")

    def on_chat_model_start(self, *args: Any, **kwargs: Any) -> None:
        self.check()

    def on_llm_start(self, *args: Any, **kwargs: Any) -> None:
        self.check()

    def on_llm_new_token(self, *args: Any, **kwargs: Any) -> None:
        self.check()


_current: ContextVar[Deadline | None] = ContextVar("intercpt_deadline", default=None)
register_configure_hook(_current, inheritable=True)


@contextmanager
def within(deadline: Deadline) -> Iterator[Deadline]:
    """Run the block (and the threads it starts with a copy of its context) under ``deadline``."""
    token = _current.set(deadline)
    try:
        yield deadline
    finally:
        _current.reset(token)


def current() -> Deadline | None:
    """The deadline of the request being served in this context, or None outside one."""
    return _current.get()
