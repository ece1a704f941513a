"""COMET scoring in its own environment: input checks here, and the real COMET code on a tiny checkpoint.

Tests marked ``comet`` create (or reuse) the COMET virtualenv at ``$INTERCPT_COMET_ENV`` or in the
intercpt cache, and build a random-weight COMET checkpoint locally: no checkpoint can be downloaded.
Its scores prove the code path works; they say nothing about translation quality.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
from pathlib import Path

import pytest

from assistant.errors import InputError, IntercptError, ModelLoadError
from evaluation.metrics.comet import (
    COMET_ENV_VAR,
    CometError,
    comet_environment,
    comet_scores,
    default_environment,
    local_checkpoint,
    read_scores,
    validate_segments,
)

BUILDER = Path(__file__).with_name("comet_tiny_checkpoint.py")
PRETTY = {"src": "Are you sure it is pretty?", "mt": "Êtes-vous sûr qu'il est joli ?",
          "ref": "Es-tu sûr qu'il est joli ?"}
SEGMENTS = [
    PRETTY,
    dict(PRETTY),
    {"src": "Good night.", "mt": "Bonne nuit.", "ref": "Bonne nuit."},
    {"src": "Good night.", "mt": "Le médecin appellera demain à la gare.", "ref": "Bonne nuit."},
]


def fake_checkpoint(folder: Path, content: bytes = b"") -> Path:
    """COMET's layout with an arbitrary checkpoint file."""
    checkpoint = folder / "checkpoints" / "model.ckpt"
    checkpoint.parent.mkdir(parents=True)
    checkpoint.write_bytes(content)
    (folder / "hparams.yaml").write_text("class_identifier: regression_metric\n")
    return checkpoint


# --- without the COMET environment ---------------------------------------------------------------


def test_segments_are_checked_before_anything_runs():
    assert validate_segments([{"src": "a", "mt": "b", "ref": "c", "id": 7}]) == [{"src": "a", "mt": "b", "ref": "c"}]
    assert validate_segments([{"src": "a", "mt": ""}]) == [{"src": "a", "mt": ""}]
    with pytest.raises(InputError, match="segment 1 has none"):
        validate_segments([{"src": "a", "mt": "b", "ref": "c"}, {"src": "a", "mt": "b"}])
    with pytest.raises(InputError, match="segment 0 has no mt"):
        validate_segments([{"src": "a"}])
    with pytest.raises(InputError, match="ref must be text"):
        validate_segments([{"src": "a", "mt": "b", "ref": None}])
    with pytest.raises(InputError, match="must be a dict"):
        validate_segments(["a"])


def test_local_checkpoint_accepts_the_file_or_its_folder_and_leaves_hub_names(tmp_path):
    checkpoint = fake_checkpoint(tmp_path / "model")
    assert local_checkpoint(str(checkpoint)) == checkpoint.resolve()
    assert local_checkpoint(str(tmp_path / "model")) == checkpoint.resolve()
    assert local_checkpoint("Unbabel/wmt22-comet-da") is None
    assert local_checkpoint("wmt20-comet-da") is None
    (tmp_path / "model" / "hparams.yaml").unlink()
    with pytest.raises(ModelLoadError, match="no hparams.yaml"):
        local_checkpoint(str(checkpoint))


def test_missing_checkpoint_fails_in_one_line_before_the_environment_is_made(tmp_path):
    missing = tmp_path / "nowhere" / "checkpoints" / "model.ckpt"
    env = tmp_path / "comet-env"
    with pytest.raises(IntercptError) as raised:
        comet_scores(SEGMENTS, str(missing), env=env)
    message = str(raised.value)
    assert f"COMET checkpoint not found: {missing}" in message
    assert "\n" not in message and "Traceback" not in message
    assert not env.exists()


def test_worker_error_and_crash_become_readable_errors():
    ok = subprocess.CompletedProcess([], 0, "", "")
    assert read_scores({"scores": [0.5, 1]}, ok, 2) == [0.5, 1.0]
    failed = subprocess.CompletedProcess([], 1, "", "")
    with pytest.raises(CometError, match="^cannot load COMET model x: KeyError"):
        read_scores({"error": "cannot load COMET model x: KeyError: 'x'"}, failed, 2)
    stderr = "Traceback (most recent call last):\n" + "  frame\n" * 50 + "RuntimeError: out of memory\n"
    with pytest.raises(CometError) as crashed:
        read_scores(None, subprocess.CompletedProcess([], -9, "", stderr), 2)
    assert str(crashed.value).startswith("the COMET worker failed (exit code -9): ")
    assert str(crashed.value).endswith("frame | RuntimeError: out of memory")
    assert str(crashed.value).count("frame") == 4
    with pytest.raises(CometError, match="exit code 0"):
        read_scores({"scores": [0.5]}, ok, 2)


def test_environment_location_follows_the_variables(monkeypatch, tmp_path):
    monkeypatch.delenv(COMET_ENV_VAR, raising=False)
    monkeypatch.setenv("INTERCPT_CACHE", str(tmp_path / "cache"))
    assert default_environment() == tmp_path / "cache" / "comet-env"
    monkeypatch.setenv(COMET_ENV_VAR, str(tmp_path / "mine"))
    assert default_environment() == tmp_path / "mine"
    with pytest.raises(CometError, match=f"no working COMET environment at {tmp_path / 'mine'}"):
        comet_environment(create=False)


def test_bad_options_are_refused():
    with pytest.raises(InputError, match="batch size"):
        comet_scores(SEGMENTS, "Unbabel/wmt22-comet-da", batch_size=0)
    with pytest.raises(InputError, match="gpus=2"):
        comet_scores(SEGMENTS, "Unbabel/wmt22-comet-da", gpus=2)


# --- the real COMET code in its environment --------------------------------------------------------


@pytest.fixture(scope="session")
def comet_python() -> Path:
    """The COMET environment's interpreter, created on first use (about a minute) and reused after."""
    return comet_environment()


def build_checkpoint(python: Path, folder: Path, *options: str) -> Path:
    done = subprocess.run([str(python), "-I", str(BUILDER), str(folder), *options], capture_output=True, text=True,
                          env={**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"},
                          check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return folder / "checkpoints" / "model.ckpt"


@pytest.fixture(scope="session")
def tiny_comet(comet_python, tmp_path_factory) -> Path:
    return build_checkpoint(comet_python, tmp_path_factory.mktemp("comet") / "tiny-da")


@pytest.mark.comet
def test_real_comet_scores_each_segment_in_order(tiny_comet, comet_python):
    scores = comet_scores(SEGMENTS, str(tiny_comet), batch_size=2)
    assert len(scores) == len(SEGMENTS)
    assert all(isinstance(s, float) and math.isfinite(s) for s in scores)
    assert scores[0] == scores[1]
    assert scores[2] != scores[3]
    # The folder names the same model; COMET sorts by length internally, the order must survive.
    again = comet_scores(SEGMENTS[::-1], str(tiny_comet.parents[1]), env=comet_python)
    assert again == pytest.approx(scores[::-1], abs=1e-5)


@pytest.mark.comet
def test_real_reference_free_model_scores_without_references(comet_python, tmp_path):
    checkpoint = build_checkpoint(comet_python, tmp_path / "tiny-qe", "--referenceless")
    scores = comet_scores([{"src": s["src"], "mt": s["mt"]} for s in SEGMENTS], str(checkpoint))
    assert len(scores) == len(SEGMENTS) and all(math.isfinite(s) for s in scores)
    assert scores[0] == scores[1] and scores[2] != scores[3]


@pytest.mark.comet
def test_real_worker_reports_what_the_user_can_fix(tiny_comet, tmp_path):
    with pytest.raises(CometError, match="needs a reference for every segment; segment 0 has none"):
        comet_scores([{"src": "Good night.", "mt": "Bonne nuit."}], str(tiny_comet))
    broken = fake_checkpoint(tmp_path / "broken", b"not a checkpoint")
    with pytest.raises(CometError) as raised:
        comet_scores(SEGMENTS, str(broken))
    assert str(raised.value).startswith(f"cannot load COMET model {broken}: ")
    assert "\n" not in str(raised.value)


@pytest.mark.comet
def test_real_comet_scores_are_merged_into_an_evaluation_run(tiny_comet, tmp_path):
    from evaluation.config import EvalConfig
    from evaluation.runner import evaluate
    from tests.fakes import StepFake

    fake = StepFake(detect=['{"ambiguous": false}'], translate=["Vous êtes ici."], user=["x"], calls=[])
    sample = Path(__file__).resolve().parent.parent / "datasets" / "fixtures" / "sample.jsonl"
    summary = evaluate(EvalConfig(out=tmp_path / "run", data=str(sample), langs=None, methods=("no-extra",),
                                  translator="transformers:fake", bootstrap=20, comet=str(tiny_comet)),
                       progress=False, load_model=lambda spec: fake)
    records = [json.loads(line) for line in (tmp_path / "run" / "items.jsonl").read_text().splitlines()]
    assert all(math.isfinite(r["scores"]["comet"]) for r in records)
    formality = next(g for g in summary["groups"] if g["type"] == "formality")
    assert formality["scores"]["comet"]["n"] == 2
    header = (tmp_path / "run" / "report.md").read_text().split("## formality")[1].splitlines()[2]
    assert "| comet |" in header
