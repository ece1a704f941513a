"""Shared fixtures: the real small test model, located once per session."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FETCH_SCRIPT = REPO.parent / "shared" / "models" / "fetch-test-model"
DEFAULT_TEST_MODEL = "qwen2.5-coder-0.5b"


def _locate_test_model() -> str | None:
    if os.environ.get("INTERCPT_TEST_MODEL"):
        return os.environ["INTERCPT_TEST_MODEL"]
    if FETCH_SCRIPT.exists():
        out = subprocess.run([str(FETCH_SCRIPT), DEFAULT_TEST_MODEL], capture_output=True, text=True, check=False)
        if out.returncode == 0 and out.stdout.strip():
            return out.stdout.strip().splitlines()[-1]
    return None


@pytest.fixture(scope="session")
def test_model_path() -> str:
    """Path of a real GGUF chat model; under CI its absence is a failure, never a silent skip."""
    path = _locate_test_model()
    if path and Path(path).is_file():
        return path
    message = "no real test model: set INTERCPT_TEST_MODEL to a GGUF instruct model file"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def hf_model(test_model_path):
    """The real test model on the in-process transformers backend (loaded once)."""
    from assistant.backends import load_chat_model

    return load_chat_model(f"transformers:{test_model_path}")


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
