"""How an item is tried again after a model server error: a few attempts, waits that grow
exponentially with full jitter (so items that failed together do not come back together), and a
wait that ends at once when the run is halted (a stop signal, or another item that gave up).

Only a server failure (``stopping.is_server_failure``) is retried; an item's own failure is
returned at once, as the item's record.
"""

from __future__ import annotations

import threading
from typing import Callable, TypeVar

from tenacity import Retrying, retry_if_exception, stop_after_attempt, wait_random_exponential

from .stopping import is_server_failure

T = TypeVar("T")
FIRST_WAIT_S = 1.0  # the first wait is up to this long, the n-th up to 2**(n-1) times it, never above the cap


class RetryAbandoned(Exception):
    """The run halted while an item waited to be tried again: it was not run to the end, so it is not recorded."""


def with_retries(work: Callable[[], T], retries: int, max_wait_s: float, halt: threading.Event) -> T:
    """``work()``, tried again up to ``retries`` times while it fails for the server; the last
    failure is raised as it is. A wait is cut short by ``halt`` (``RetryAbandoned``)."""

    def wait(seconds: float) -> None:
        if halt.wait(seconds):
            raise RetryAbandoned("the run halted while the item waited to be tried again")

    retrying = Retrying(retry=retry_if_exception(is_server_failure), stop=stop_after_attempt(retries + 1),
                        wait=wait_random_exponential(multiplier=min(FIRST_WAIT_S, max_wait_s), max=max_wait_s),
                        sleep=wait, reraise=True)
    return retrying(work)
