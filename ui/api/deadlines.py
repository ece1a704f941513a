"""Every API request has a deadline, and a client that leaves takes its work with it.

``RequestDeadlines`` (ASGI middleware) runs each API request under an ``assistant.deadlines.Deadline``:
the request's wait in the model's queue and its model calls check it, so a hung model server
or a long queue answers the client when its time is up, and the work of a client that has
disconnected stops at its next model call (or never starts, if it was still waiting).
``model_failure`` says what a client hears when the model could not finish its request.
"""

from __future__ import annotations

import anyio

from assistant.deadlines import Deadline, within
from assistant.errors import DeadlineExceeded, IntercptError, OutageError, RequestCancelled

from . import ApiError

API_PATHS = ("/v1/", "/v2/", "/translate")  # DeepL's, clarify's and LibreTranslate's (/translate, /translate_file)
RETRY_AFTER_S = 10
CLIENT_CLOSED = 499  # the status servers log for a request whose client went away first (nobody reads it)


def model_failure(err: IntercptError) -> ApiError:
    """503 (try again later) for a model server that is down, timed out or failing, and for a request
    whose deadline passed; 502 for a reply the chain cannot use; 499 for a client that left."""
    if isinstance(err, RequestCancelled):
        return ApiError(CLIENT_CLOSED, str(err))
    if isinstance(err, OutageError | DeadlineExceeded):
        return ApiError(503, str(err), {"Retry-After": str(RETRY_AFTER_S)})
    return ApiError(502, str(err))


class RequestDeadlines:
    """ASGI middleware: each API request runs under a deadline of ``seconds``, cancelled as soon as its
    client disconnects (once the body is read, the next message a server sends is the disconnect)."""

    def __init__(self, app, seconds: float):
        self.app = app
        self.seconds = seconds

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(API_PATHS):
            return await self.app(scope, receive, send)
        deadline = Deadline(self.seconds)
        body_read = anyio.Event()

        async def receive_body():
            message = await receive()
            if message["type"] == "http.disconnect":
                deadline.cancel()
            elif not message.get("more_body", False):
                body_read.set()
            return message

        async def watch_client() -> None:
            await body_read.wait()
            while (await receive())["type"] != "http.disconnect":
                pass
            deadline.cancel()

        failure: Exception | None = None
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(watch_client)
            try:
                with within(deadline):
                    await self.app(scope, receive_body, send)
            except Exception as err:  # noqa: BLE001 - raised below as itself, not wrapped in the task group's group
                failure = err
            tasks.cancel_scope.cancel()
        if failure is not None:
            raise failure
