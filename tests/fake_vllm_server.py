"""A stand-in for vLLM's OpenAI server, for lifecycle tests: the same flags, /health, /v1/models and
/v1/chat/completions behind ``VLLM_API_KEY``, no model. ``--start-delay S`` answers nothing for S seconds
(a slow start-up); every Authorization header received is appended to ``$FAKE_VLLM_AUTH_LOG``."""

import argparse
import json
import os
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

parser = argparse.ArgumentParser()
for flag in ("--model", "--served-model-name", "--host"):
    parser.add_argument(flag)
parser.add_argument("--port", type=int)
parser.add_argument("--start-delay", type=float, default=0.0)
args, _ = parser.parse_known_args()
KEY = os.environ.get("VLLM_API_KEY")


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *_):
        pass

    def _authorised(self) -> bool:
        header = self.headers.get("Authorization", "")
        if os.environ.get("FAKE_VLLM_AUTH_LOG"):
            with open(os.environ["FAKE_VLLM_AUTH_LOG"], "a") as log:
                log.write(header + "\n")
        if KEY and header != f"Bearer {KEY}":
            self._send(401, {"error": "unauthorised"})
            return False
        return True

    def do_GET(self):
        if self.path == "/health":
            return self._send(200, {})
        if self.path == "/v1/models" and self._authorised():
            return self._send(200, {"object": "list", "data": [{"id": args.served_model_name, "object": "model"}]})

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if self.path == "/v1/chat/completions" and self._authorised():
            message = {"role": "assistant", "content": "Bonjour."}
            self._send(200, {"id": "x", "object": "chat.completion", "created": 0, "model": args.served_model_name,
                             "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
                             "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})

    def _send(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


time.sleep(args.start_delay)
ThreadingHTTPServer((args.host, args.port), Handler).serve_forever()
