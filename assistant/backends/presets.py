"""Backbone presets and the vLLM flags each server gets, read from ``presets.yaml`` beside this file.

A preset names a model and what it needs (``vllm:@falcon-h1-0.5b``), so choosing a backbone
is one word rather than a model id and a list of flags. The flags of a server are layered:
serving defaults for the device (prefix caching, context length, KV cache), then the settings
of the model's family (hybrids keep SSM state checkpoints for prefix caching), then the
preset's own flags, then the person's; a later layer replaces an earlier option of the same name.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable

import yaml

from ..errors import ModelSpecError

PRESETS_FILE = Path(__file__).with_name("presets.yaml")
PRESET_MARK = "@"


@dataclass(frozen=True)
class GGUFFile:
    """A quantized GGUF file of a preset's model on the Hugging Face hub, for llama.cpp."""

    repo: str
    file: str


@dataclass(frozen=True)
class Preset:
    """One named backbone: its Hugging Face id, architecture, family, hardware, extra vLLM flags
    and, optionally, a GGUF file of it for llama.cpp."""

    name: str
    model: str
    architecture: str
    family: str
    hardware: str
    flags: tuple[str, ...] = ()
    gguf: GGUFFile | None = None


@dataclass(frozen=True)
class ServingSettings:
    """The ``serving`` and ``hybrid`` sections of ``presets.yaml``."""

    common: tuple[str, ...]
    device_flags: dict[str, tuple[str, ...]]
    device_env: dict[str, dict[str, str]]
    hybrid_flags: tuple[str, ...]
    hybrid_kinds: dict[str, str]
    cpu_without_prefix_caching: frozenset[str]


@lru_cache(maxsize=1)
def _data() -> dict:
    return yaml.safe_load(PRESETS_FILE.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def presets() -> dict[str, Preset]:
    """Every preset by name."""
    return {
        name: Preset(name=name, model=entry["model"], architecture=entry["architecture"], family=entry["family"],
                     hardware=entry["hardware"], flags=tuple(entry.get("flags", ())),
                     gguf=GGUFFile(**entry["gguf"]) if "gguf" in entry else None)
        for name, entry in _data()["presets"].items()
    }


@lru_cache(maxsize=1)
def serving_settings() -> ServingSettings:
    serving, hybrid = _data()["serving"], _data()["hybrid"]
    devices = ("cpu", "gpu")
    return ServingSettings(
        common=tuple(serving["common"]),
        device_flags={d: tuple(serving[d]["flags"]) for d in devices},
        device_env={d: {k: str(v) for k, v in serving[d]["env"].items()} for d in devices},
        hybrid_flags=tuple(hybrid["flags"]),
        hybrid_kinds=dict(hybrid["architectures"]),
        cpu_without_prefix_caching=frozenset(hybrid["cpu_without_prefix_caching"]),
    )


def is_preset_target(target: str) -> bool:
    return target.startswith(PRESET_MARK)


def get_preset(target: str) -> Preset:
    """The preset a ``@name`` target names; an unknown name lists the close ones."""
    name = target.removeprefix(PRESET_MARK)
    known = presets()
    if name not in known:
        close = difflib.get_close_matches(name, known, n=3, cutoff=0.5)
        hint = f" (did you mean {', '.join('@' + c for c in close)}?)" if close else ""
        raise ModelSpecError(f"unknown preset @{name}{hint}; presets: {', '.join('@' + n for n in known)}")
    return known[name]


def preset_for_model(model: str) -> Preset | None:
    """The preset of a model id, so its flags apply however the model is named."""
    return next((p for p in presets().values() if p.model == model), None)


def architecture_of(model: str) -> str | None:
    """The architecture in a model folder's config.json, or in the Hugging Face cache's copy of it."""
    config = Path(model) / "config.json"
    if not config.exists():
        from huggingface_hub import try_to_load_from_cache

        try:
            cached = try_to_load_from_cache(model, "config.json")
        except ValueError:  # a path that does not exist, not a hub id
            return None
        if not isinstance(cached, str):
            return None
        config = Path(cached)
    try:
        architectures = json.loads(config.read_text(encoding="utf-8")).get("architectures") or [None]
    except (OSError, ValueError):
        return None
    return architectures[0]


def hybrid_kind(architecture: str | None) -> str | None:
    """The recurrent layer a hybrid architecture mixes with attention (``mamba2``…), or None if dense."""
    return serving_settings().hybrid_kinds.get(architecture or "")


def server_flags(architecture: str | None, device: str, preset: Preset | None = None,
                 overrides: Iterable[str] = ()) -> list[str]:
    """The vLLM arguments for a model of ``architecture`` on ``device`` (``cpu`` or ``gpu``)."""
    settings = serving_settings()
    layers = [settings.common, settings.device_flags[device]]
    kind = hybrid_kind(architecture or (preset.architecture if preset else None))
    if kind is not None:
        without_caching = device == "cpu" and kind in settings.cpu_without_prefix_caching
        layers.append(("--no-enable-prefix-caching",) if without_caching else settings.hybrid_flags)
    if preset is not None:
        layers.append(preset.flags)
    layers.append(tuple(overrides))
    merged: list[str] = []
    for layer in layers:
        merged = merge_flags(merged, layer)
    return merged


def server_env(device: str) -> dict[str, str]:
    """Environment defaults for a server on ``device`` (the CPU build sizes its KV cache this way)."""
    return dict(serving_settings().device_env[device])


def merge_flags(base: Iterable[str], overrides: Iterable[str]) -> list[str]:
    """``base`` with every option that ``overrides`` sets replaced by the override (``--no-x`` replaces ``--x``)."""
    overriding = _options(list(overrides))
    names = {name for name, _ in overriding}
    kept = [(name, values) for name, values in _options(list(base)) if name not in names]
    return [item for _, values in kept + overriding for item in values]


def _options(flags: list[str]) -> list[tuple[str, list[str]]]:
    """Split a flag list into (option name, [flag, values…]); ``--x=1`` and ``--x 1`` name the same option."""
    options: list[tuple[str, list[str]]] = []
    for item in flags:
        if item.startswith("--"):
            name = item[2:].split("=", 1)[0]
            options.append((name.removeprefix("no-"), [item]))
        elif options:
            options[-1][1].append(item)
        else:
            options.append((item, [item]))
    return options
