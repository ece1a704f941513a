"""COMET scores from a virtual environment of COMET's own, run out of process.

``unbabel-comet`` pins transformers<5, huggingface-hub<1 and numpy<2, which intercpt's
environment (transformers 5, Gradio 6) cannot satisfy. So COMET gets a virtualenv of its own,
created on first use under the intercpt cache (or ``$INTERCPT_COMET_ENV``) and reused after;
``comet_worker.py`` runs there on a JSONL file of segments and writes the scores back.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import subprocess
import tempfile
import time
import venv
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import numpy as np

from assistant.errors import InputError, IntercptError, ModelLoadError
from assistant.paths import cache_dir

from ..records import Output, Record
from .base import SegmentMetric, references

COMET_ENV_VAR = "INTERCPT_COMET_ENV"
# torch is pinned to the version intercpt uses: unpinned, pip takes the newest CUDA build (GBs).
# torchmetrics 0.10 (COMET's pin) imports pkg_resources, which setuptools 81 removed.
COMET_REQUIREMENTS = ("unbabel-comet==2.2.7", "torch==2.13.0", "setuptools<81")
WORKER = Path(__file__).with_name("comet_worker.py")
# A hub name such as "Unbabel/wmt22-comet-da" or a legacy one such as "wmt20-comet-da".
HUB_NAME = re.compile(r"[A-Za-z0-9][\w.-]*(/[\w.-]+)?")
TAIL_LINES = 5
_WORKING: set[Path] = set()  # interpreters seen importing comet in this process


class CometError(IntercptError):
    """The COMET environment could not be created, or the COMET worker failed."""


def default_environment() -> Path:
    """``$INTERCPT_COMET_ENV``, else ``comet-env`` in the intercpt cache."""
    return Path(os.environ.get(COMET_ENV_VAR) or cache_dir() / "comet-env").expanduser()


def comet_environment(path: Path | None = None, *, create: bool = True) -> Path:
    """Python interpreter of the COMET venv at ``path`` (default: ``default_environment()``).

    A venv that imports ``comet`` is reused. Otherwise, with ``create``, the venv is created
    (or repaired) and COMET installed into it, with a status line on stderr; without it, the
    absence is an error.
    """
    env = Path(path).expanduser() if path else default_environment()
    python = env / "bin" / "python"
    if _imports_comet(python):
        return python
    if not create:
        raise CometError(f"no working COMET environment at {env} (set {COMET_ENV_VAR} to a virtualenv "
                         "with unbabel-comet, or let intercpt create one)")
    env.parent.mkdir(parents=True, exist_ok=True)
    with _lock(env.with_name(env.name + ".lock")):
        if not _imports_comet(python):  # another process may have finished it while we waited
            _install(env, python)
    return python


def comet_scores(segments: list[dict], model: str, *, batch_size: int = 8, env: Path | None = None,
                 gpus: int = 0) -> list[float]:
    """One COMET score per ``{"src", "mt", "ref"}`` segment, in order.

    ``ref`` may be left out (by every segment) for reference-free models. ``model`` is a
    checkpoint file (``…/checkpoints/model.ckpt``), its folder, or a hub name (needs network).
    ``env`` is the COMET venv folder, or its interpreter as ``comet_environment`` returns it.
    """
    rows = validate_segments(segments)
    if batch_size < 1:
        raise InputError(f"COMET batch size must be at least 1, got {batch_size}")
    if gpus not in (0, 1):
        raise InputError(f"COMET runs on the CPU (gpus=0) or one GPU (gpus=1), got gpus={gpus}")
    checkpoint = local_checkpoint(model)
    if not rows:
        return []
    python = env if env is not None and Path(env).is_file() else comet_environment(env)
    worker_env = dict(os.environ)
    if checkpoint is not None:
        worker_env.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    with tempfile.TemporaryDirectory(prefix="intercpt-comet-") as tmp:
        source, target = Path(tmp) / "segments.jsonl", Path(tmp) / "scores.json"
        source.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        # -I keeps the worker's own folder off sys.path: this comet.py would shadow the comet package.
        command = [str(python), "-I", str(WORKER), "--model", str(checkpoint or model), "--input", str(source),
                   "--output", str(target), "--batch-size", str(batch_size), "--gpus", str(gpus)]
        done = subprocess.run(command, capture_output=True, text=True, env=worker_env, check=False)
        result = json.loads(target.read_text(encoding="utf-8")) if target.is_file() else None
    return read_scores(result, done, len(rows))


def validate_segments(segments: Any) -> list[dict[str, str]]:
    """The segments as plain ``{"src", "mt"[, "ref"]}`` dicts; every one has a ``ref`` or none has."""
    if not isinstance(segments, list):
        raise InputError(f"COMET segments must be a list of dicts, got {type(segments).__name__}")
    rows = []
    for i, segment in enumerate(segments):
        if not isinstance(segment, dict):
            raise InputError(f"COMET segment {i} must be a dict with src, mt and ref, got {type(segment).__name__}")
        keys = ("src", "mt", "ref") if "ref" in segment else ("src", "mt")
        missing = [k for k in keys[:2] if k not in segment]
        if missing:
            raise InputError(f"COMET segment {i} has no {' or '.join(missing)}")
        wrong = [k for k in keys if not isinstance(segment[k], str)]
        if wrong:
            raise InputError(f"COMET segment {i}: {', '.join(wrong)} must be text")
        rows.append({k: segment[k] for k in keys})
    with_ref = sum("ref" in r for r in rows)
    if 0 < with_ref < len(rows):
        first = next(i for i, r in enumerate(rows) if "ref" not in r)
        raise InputError(f"COMET segments must all have a ref or all lack one; segment {first} has none")
    return rows


def local_checkpoint(model: str) -> Path | None:
    """The checkpoint file a local ``model`` names, or None for a hub name.

    A path that does not hold a checkpoint with ``hparams.yaml`` two folders up (COMET's
    layout) is an error here, before any environment is created.
    """
    path = Path(model).expanduser()
    if path.is_dir():
        path = path / "checkpoints" / "model.ckpt"
    elif not path.exists() and HUB_NAME.fullmatch(model) and not model.endswith(".ckpt"):
        return None
    if not path.is_file():
        raise ModelLoadError(f"COMET checkpoint not found: {path} (give a model.ckpt file, the folder that holds "
                             "checkpoints/model.ckpt, or a hub name such as Unbabel/wmt22-comet-da)")
    if not (path.resolve().parents[1] / "hparams.yaml").is_file():
        raise ModelLoadError(f"COMET checkpoint {path} has no hparams.yaml two folders up "
                             "(COMET's layout: <model>/hparams.yaml and <model>/checkpoints/model.ckpt)")
    return path.resolve()


def read_scores(result: dict | None, done: subprocess.CompletedProcess, expected: int) -> list[float]:
    """The worker's scores, or its own error message, or (when it crashed) the tail of its stderr."""
    if result and "error" in result:
        raise CometError(result["error"])
    if done.returncode != 0 or not result or len(result.get("scores") or []) != expected:
        raise CometError(f"the COMET worker failed (exit code {done.returncode}): {tail(done.stderr)}")
    return [float(s) for s in result["scores"]]


def tail(text: str | None, lines: int = TAIL_LINES) -> str:
    """The last non-empty lines of a process's output, joined on one line."""
    kept = [line.strip() for line in (text or "").splitlines() if line.strip()]
    return " | ".join(kept[-lines:]) or "no output"


def _imports_comet(python: Path) -> bool:
    """Whether ``python`` imports comet (a real import: a broken dependency shows only then)."""
    if python in _WORKING:
        return True
    if python.is_file():
        check = subprocess.run([str(python), "-I", "-c", "import comet"], capture_output=True, check=False)
        if check.returncode == 0:
            _WORKING.add(python)
    return python in _WORKING


def _install(env: Path, python: Path) -> None:
    from rich.console import Console

    console = Console(stderr=True)
    started = time.monotonic()
    # -I (isolated): the caller's PYTHONPATH must not leak into the install or the check.
    command = [str(python), "-I", "-m", "pip", "install", "--quiet", *COMET_REQUIREMENTS]
    with console.status(f"Creating the COMET environment at {env} (a few minutes; about 1.5 GB of disk)"):
        try:
            venv.EnvBuilder(with_pip=True).create(env)
        except (OSError, subprocess.CalledProcessError) as err:
            raise CometError(f"cannot create the COMET virtualenv at {env}: {err}") from None
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise CometError(f"installing COMET into {env} failed ({' '.join(command[3:])}): {tail(done.stderr)}")
    if not _imports_comet(python):
        raise CometError(f"COMET was installed into {env} but does not import; remove the folder and try again")
    console.print(f"COMET environment ready at {env} after {time.monotonic() - started:.0f} s")


@contextmanager
def _lock(path: Path) -> Iterator[None]:
    """One process at a time creates the environment."""
    with open(path, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def add_comet_scores(records: list[Record], model: str, *, env: Path | None = None) -> int:
    """Score every record that has no COMET score yet, in one worker call; returns how many were scored.

    A failed item is scored with an empty translation, as the other metrics count it.
    """
    todo = [r for r in records if "comet" not in r.scores]
    segments = [{"src": r.item.src, "mt": r.translation, "ref": references(r)[0]} for r in todo]
    for record, score in zip(todo, comet_scores(segments, model, env=env)):
        record.scores["comet"] = score
    return len(todo)


class CometMean(SegmentMetric):
    """Mean COMET segment score (x100) of the records that were scored; records without one are not counted.
    Reported only where a run asked for COMET (``ambiguities`` is empty), since scoring needs its own environment."""

    name = "comet"
    ambiguities = ()

    def row(self, output: Output) -> list[float]:
        score = output.scores.get("comet")
        return [0.0, 0.0] if score is None else [1.0, float(score)]

    def counted(self, stats: np.ndarray) -> np.ndarray:
        return stats[:, 0] > 0

    def aggregate(self, totals: np.ndarray) -> float | None:
        return float(100 * totals[1] / totals[0]) if totals[0] else None

    def signature(self) -> str:
        return "comet:unbabel-comet-2.2.7|scale:x100"
