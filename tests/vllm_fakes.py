"""The test seam for the vLLM lifecycle: the real launcher, supervisor and registry, with the fake server's command.

Run as ``python -m tests.vllm_fakes [--real] MODEL [FLAGS...]``, it is a user process: it gets a server for
MODEL (the fake one; with ``--real``, vLLM), prints its record as one JSON line, and holds it until killed or
until stdin closes."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path

from assistant.backends import vllm

FAKE_SERVER = str(Path(__file__).with_name("fake_vllm_server.py"))


def fake_command(model: str, served_name: str, host: str, port: int, extra_args: tuple[str, ...]) -> list[str]:
    return [sys.executable, FAKE_SERVER, "--model", model, "--served-model-name", served_name,
            "--host", host, "--port", str(port), *extra_args]


def use_fake_server() -> None:
    vllm.server_command = fake_command


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if arguments[0] == "--real":
        arguments.pop(0)
    else:
        use_fake_server()
    model_dir, *flags = arguments
    record = vllm.ensure_server(model_dir, extra_args=tuple(flags), progress=False)
    print(json.dumps(asdict(record)), flush=True)
    sys.stdin.read()  # hold the server until the test closes stdin (a clean exit) or kills this process
