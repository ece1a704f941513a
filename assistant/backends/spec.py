"""Model specs: ``backend:target`` strings that name a model and how to run it."""

from __future__ import annotations

import difflib
import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path

from ..errors import ModelLoadError, ModelSpecError
from .presets import get_preset, is_preset_target

DEFAULT_MODEL = "transformers:Qwen/Qwen2.5-1.5B-Instruct"
# Without a GPU, llama.cpp computes on the quantized GGUF directly, several times faster than transformers.
DEFAULT_CPU_MODEL = "llamacpp:@qwen2.5-1.5b"
MODEL_ENV_VAR = "INTERCPT_MODEL"

SPEC_FORMS = {
    "transformers": "transformers:<hf-id | local dir | file.gguf | @preset>",
    "vllm": "vllm:<hf-id | local dir | file.gguf | @preset>",
    "openai": "openai:<base_url>[#<model>]",
    "llamacpp": "llamacpp:<file.gguf | hf-id of a GGUF repository | @preset>",
}


@dataclass(frozen=True)
class ModelSpec:
    """A parsed model spec.

    ``target`` is a Hugging Face id, a local path, a ``@preset`` name (see ``presets.yaml``)
    or (for ``openai``) a base URL; ``model`` is the served model name after ``#`` for ``openai`` specs.
    A spec without a backend prefix means ``transformers``, except a ``.gguf`` file, which runs
    on llama.cpp where it is installed (see ``embedded_backend_for``).
    """

    backend: str
    target: str
    model: str | None = None

    @classmethod
    def parse(cls, text: str) -> "ModelSpec":
        text = (text or "").strip()
        if not text:
            raise ModelSpecError(f"empty model spec; expected one of: {', '.join(SPEC_FORMS.values())}")
        backend, sep, target = text.partition(":")
        if not sep or backend not in SPEC_FORMS and ("/" in backend or "." in backend or "\\" in backend):
            return cls._validated(embedded_backend_for(text), text, None)
        if backend not in SPEC_FORMS:
            hint = difflib.get_close_matches(backend, SPEC_FORMS, n=1)
            did_you_mean = f" (did you mean {hint[0]!r}?)" if hint else ""
            raise ModelSpecError(
                f"unknown backend {backend!r} in model spec {text!r}{did_you_mean}; "
                f"expected one of: {', '.join(SPEC_FORMS.values())}"
            )
        model = None
        if backend == "openai":
            target, _, model = target.partition("#")
            model = model or None
        return cls._validated(backend, target.strip(), model)

    @classmethod
    def _validated(cls, backend: str, target: str, model: str | None) -> "ModelSpec":
        if not target:
            raise ModelSpecError(f"model spec for {backend!r} names no model; expected {SPEC_FORMS[backend]}")
        if backend == "openai" and not target.startswith(("http://", "https://")):
            raise ModelSpecError(f"openai spec needs an http(s) base URL; expected {SPEC_FORMS['openai']}")
        if is_preset_target(target):
            get_preset(target)  # an unknown name fails here, before anything loads
        return cls(backend, target, model)

    def __str__(self) -> str:
        suffix = f"#{self.model}" if self.model else ""
        return f"{self.backend}:{self.target}{suffix}"


def default_model_spec() -> str:
    """The spec used when ``--model`` is not given: ``$INTERCPT_MODEL`` or the built-in default
    (llama.cpp on a machine without a GPU where it is installed, transformers otherwise)."""
    if os.environ.get(MODEL_ENV_VAR):
        return os.environ[MODEL_ENV_VAR]
    return DEFAULT_CPU_MODEL if llamacpp_installed() and not has_gpu() else DEFAULT_MODEL


def embedded_backend_for(target: str) -> str:
    """The in-process backend of a spec without a prefix: a GGUF file runs best on llama.cpp."""
    return "llamacpp" if target.endswith(".gguf") and llamacpp_installed() else "transformers"


def llamacpp_installed() -> bool:
    return importlib.util.find_spec("llama_cpp") is not None


def has_gpu() -> bool:
    """A cheap check (no torch import: it runs while the CLI builds its help) for an NVIDIA or AMD GPU."""
    return any(os.path.exists(device) for device in ("/dev/nvidiactl", "/dev/kfd"))


def looks_like_path(target: str) -> bool:
    """True when a target is meant as a local path rather than a Hugging Face id."""
    return (
        target.startswith(("/", "./", "../", "~"))
        or target.endswith(".gguf")
        or os.path.exists(os.path.expanduser(target))
    )


def resolve_local_target(target: str) -> tuple[str, str | None]:
    """Map a spec target to (``from_pretrained`` path or id, GGUF file name or None)."""
    if is_preset_target(target):
        return get_preset(target).model, None
    if not looks_like_path(target):
        return target, None
    path = Path(target).expanduser()
    if not path.exists():
        raise ModelLoadError(f"model path not found: {path}")
    if path.is_file():
        if path.suffix != ".gguf":
            raise ModelLoadError(f"{path} is not a .gguf file; give a GGUF file or a Hugging Face model folder")
        return str(path.parent), path.name
    if (path / "config.json").exists():
        return str(path), None
    ggufs = sorted(path.glob("*.gguf"))
    if len(ggufs) == 1:
        return str(path), ggufs[0].name
    raise ModelLoadError(f"{path} holds no config.json and not exactly one .gguf file; name the model file itself")
