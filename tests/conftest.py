"""Shared fixtures: the real small test model, located once per session and loaded once per backend."""

from __future__ import annotations

import importlib.util
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FETCH_SCRIPT = REPO.parent / "shared" / "models" / "fetch-test-model"
DEV_DATA = Path(os.environ.get("INTERCPT_AMBIGMT_DIR", REPO.parent / "shared" / "datasets" / "ambigmt-dev"))
MEASUREMENTS: list[str] = []


def _locate_model(env_var: str, name: str) -> str | None:
    if os.environ.get(env_var):
        return os.environ[env_var]
    if FETCH_SCRIPT.exists():
        out = subprocess.run([str(FETCH_SCRIPT), name], capture_output=True, text=True, check=False)
        if out.returncode == 0 and out.stdout.strip():
            return out.stdout.strip().splitlines()[-1]
    return None


def _require_model(env_var: str, name: str) -> str:
    """A real GGUF chat model; under CI its absence is a failure, never a silent skip."""
    path = _locate_model(env_var, name)
    if path and Path(path).is_file():
        return path
    message = f"no real test model: set {env_var} to a GGUF instruct model file ({name})"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def test_model_path() -> str:
    """The small real model (Qwen2.5-Coder 0.5B Instruct) most real-model tests use."""
    return _require_model("INTERCPT_TEST_MODEL", "qwen2.5-coder-0.5b")


@pytest.fixture(scope="session")
def larger_test_model_path() -> str:
    """The 1.5B model, for the tests whose behaviour the 0.5B model is too weak to show."""
    return _require_model("INTERCPT_TEST_MODEL_LARGE", "qwen2.5-coder-1.5b")


@pytest.fixture(scope="session")
def dev_data() -> Path:
    """The AmbigMT dev folder (half of the public rows); required under CI."""
    if DEV_DATA.is_dir():
        return DEV_DATA
    message = f"AmbigMT dev data not found at {DEV_DATA}; set INTERCPT_AMBIGMT_DIR"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture
def measure():
    """Record a measured value; all of them are printed at the end of the test run."""
    return MEASUREMENTS.append


def pytest_terminal_summary(terminalreporter):
    if MEASUREMENTS:
        terminalreporter.section("measurements")
        for line in MEASUREMENTS:
            terminalreporter.write_line(line)


@pytest.fixture(scope="session")
def hf_model(test_model_path):
    """The real test model on the in-process transformers backend (loaded once).

    For the tests whose subject is that backend; every other real-model test uses ``embedded_model``.
    """
    from assistant.backends import ModelSpec, load_chat_model

    return load_chat_model(ModelSpec.parse(f"transformers:{test_model_path}"))


@pytest.fixture(scope="session")
def llama_cpp_available() -> None:
    """llama-cpp-python, which the embedded backend needs; under CI its absence is a failure."""
    if importlib.util.find_spec("llama_cpp") is None:
        message = "llama-cpp-python is not installed: pip install 'intercpt[llamacpp]'"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="session")
def embedded_spec(llama_cpp_available, test_model_path) -> str:
    """The model spec of the real test model on llama.cpp, for tests that run the console script."""
    return f"llamacpp:{test_model_path}"


@pytest.fixture(scope="session")
def embedded_model(embedded_spec):
    """The real test model on the in-process llama.cpp backend, the product's embedded default (loaded once).

    It computes on the quantized GGUF (about 3x the speed of transformers on a CPU), so the real-model tests
    of everything above the backend run on it.
    """
    from assistant.backends import ModelSpec, load_chat_model

    return load_chat_model(ModelSpec.parse(embedded_spec))


@pytest.fixture
def intercpt_cli():
    """Run the installed console script and capture its output."""

    def run(*args: str, stdin: str | bytes | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
        return subprocess.run(
            ["intercpt", *args],
            input=stdin,
            capture_output=True,
            text=not isinstance(stdin, bytes),
            timeout=timeout,
            check=False,
        )

    return run
