"""The real ``intercpt ui`` server as a user starts it: its own process, on a free loopback port, with
the web app and the APIs, on a model behind an OpenAI-compatible URL (the fake one of ``fake_openai``
for the tests of the server itself). A test reads the process's memory from /proc to bound it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import httpx

ROOT = Path(__file__).resolve().parent.parent
START_S = 180.0  # a fresh interpreter importing Gradio on a busy 2-core machine


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class LiveServer:
    url: str
    process: subprocess.Popen
    log: Path

    def memory_kb(self, field: str = "VmRSS") -> int:
        """The server process's resident memory (``VmRSS``) or its peak (``VmHWM``), in kB."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
        raise AssertionError(f"no {field} for process {self.process.pid}")

    def alive(self) -> bool:
        return self.process.poll() is None

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@contextmanager
def intercpt_ui(model: str, *options: str, tmp_path: Path, env: dict[str, str] | None = None) -> Iterator[LiveServer]:
    """``intercpt ui --model MODEL OPTIONS…`` started and ready (its API answers); stopped afterwards."""
    port = free_port()
    log = tmp_path / f"intercpt-ui-{port}.log"
    command = [sys.executable, "-m", "assistant.cli.main", "ui", "--model", model, "--host", "127.0.0.1",
               "--port", str(port), *options]
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "OPENAI_API_KEY": "EMPTY", **(env or {})}
    with log.open("wb") as sink:
        process = subprocess.Popen(command, cwd=ROOT, env=environment, stdout=sink, stderr=subprocess.STDOUT)
    server = LiveServer(f"http://127.0.0.1:{port}", process, log)
    try:
        deadline = time.monotonic() + START_S
        while True:
            assert server.alive(), f"intercpt ui exited with {process.returncode}:\n{server.output()}"
            try:
                if httpx.get(f"{server.url}/languages", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, f"intercpt ui did not answer within {START_S} s:\n{server.output()}"
            time.sleep(0.5)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
