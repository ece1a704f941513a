"""A stand-in OpenAI-compatible model server, in a thread of the test process, whose behaviour a test
switches: it answers (streamed when asked), hangs, fails with HTTP 500, answers a streamed request with
one plain JSON completion (as some proxies do), or answers garbage; ``errors_left`` makes the next
requests fail with HTTP 500 whatever the mode (a server that recovers). Every reply reports ``USAGE``
(a streamed one in a last chunk, when the request asks for it and ``stream_usage`` is left on). It
counts the chat requests it gets and keeps their sizes and the last ones whole, so a test can see what
the product sent; ``reply`` is a text, or a function of the request body that writes the reply (to
answer each prompt in its own way)."""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable

MODES = ("ok", "whole", "hang", "error", "garbage")
HANG_LIMIT_S = 600.0  # a hung request is let go at the latest then, or when the server stops
KEPT_BODIES = 200  # the last chat request bodies kept whole
USAGE = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}  # the token counts of every reply


class FakeOpenAIServer(ThreadingHTTPServer):
    """Answers every chat request after ``delay`` seconds with ``reply``, as ``mode`` says (one of MODES),
    once the first ``errors_left`` requests got an HTTP 500."""

    daemon_threads = True

    def __init__(self, delay: float = 0.0, reply: str | Callable[[dict], str] = "Pourriez-vous signer ?",
                 mode: str = "ok", errors_left: int = 0, port: int = 0):
        """``port``: 0 for a free one, or the port of a stopped server this one stands in for."""
        self.delay, self.reply, self.mode, self.errors_left = delay, reply, mode, errors_left
        self.stream_usage = True  # a streamed reply ends with its token counts when asked (False: never)
        self.requests = 0
        self.prompt_chars: list[int] = []
        self.bodies: deque[dict] = deque(maxlen=KEPT_BODIES)
        self.released = threading.Event()
        self._thread: threading.Thread | None = None
        super().__init__(("127.0.0.1", port), _Handler)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def __enter__(self) -> "FakeOpenAIServer":
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.released.set()
        self.shutdown()
        self.server_close()


class _Handler(BaseHTTPRequestHandler):
    server: FakeOpenAIServer

    def log_message(self, *args):
        pass

    def _send(self, body: bytes, kind: str, status: int = 200) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up first

    def do_GET(self):
        models = {"object": "list", "data": [{"id": "fake", "object": "model", "created": 0, "owned_by": "me"}]}
        self._send(json.dumps(models).encode(), "application/json")

    def do_POST(self):
        request = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        server = self.server
        server.requests += 1
        server.prompt_chars.append(sum(len(str(m.get("content", ""))) for m in request.get("messages", [])))
        server.bodies.append(request)
        time.sleep(server.delay)
        if server.mode == "hang":
            server.released.wait(HANG_LIMIT_S)
            return
        failing, server.errors_left = server.errors_left > 0, max(0, server.errors_left - 1)
        if server.mode == "error" or failing:
            self._send(b'{"error": {"message": "internal error", "type": "server_error"}}', "application/json", 500)
            return
        if server.mode == "garbage":
            self._send(b"<html>502 Bad Gateway</html>", "text/html")
            return
        answer = {"role": "assistant", "content": server.reply(request) if callable(server.reply) else server.reply}
        if not request.get("stream") or server.mode == "whole":
            self._send(json.dumps({"id": "c", "object": "chat.completion", "created": 0, "model": "fake",
                                   "choices": [{"index": 0, "finish_reason": "stop", "message": answer}],
                                   "usage": USAGE}).encode(), "application/json")
            return
        chunks = [{"choices": [{"index": 0, "delta": answer, "finish_reason": None}]},
                  {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}]
        if server.stream_usage and (request.get("stream_options") or {}).get("include_usage"):
            chunks.append({"choices": [], "usage": USAGE})
        events = [json.dumps({"id": "c", "object": "chat.completion.chunk", "created": 0, "model": "fake", **chunk})
                  for chunk in chunks] + ["[DONE]"]
        self._send("".join(f"data: {event}\n\n" for event in events).encode(), "text/event-stream")
