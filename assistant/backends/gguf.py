"""Turn a GGUF file into a Hugging Face model folder, because vLLM serves folders, not GGUF files.

The folder is cached under ``$INTERCPT_CACHE`` (default ``~/.cache/intercpt``), keyed by
the file's path, size and modification time, and written atomically: a half-written
conversion is never picked up.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from pathlib import Path

from ..errors import ModelLoadError
from ..paths import cache_dir


def converted_folder(gguf_path: Path) -> Path:
    """Where the conversion of this exact file lives (whether or not it exists yet)."""
    stat = gguf_path.stat()
    key = hashlib.sha256(f"{gguf_path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}".encode()).hexdigest()[:16]
    return cache_dir() / "hf-from-gguf" / f"{gguf_path.stem}-{key}"


def gguf_to_hf_folder(gguf_path: Path) -> Path:
    """Return a cached Hugging Face folder (bfloat16 safetensors + tokenizer) for ``gguf_path``."""
    target = converted_folder(gguf_path)
    if (target / "config.json").exists():
        return target
    from .._torch_addons import hide_broken_torch_addons

    hide_broken_torch_addons()
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=target.name + ".", dir=target.parent))
    try:
        folder, name = str(gguf_path.parent), gguf_path.name
        quantized = AutoModelForCausalLM.from_pretrained(folder, gguf_file=name)
        config = quantized.config
        if hasattr(config, "quantization_config"):
            del config.quantization_config
        model = AutoModelForCausalLM.from_config(config, dtype=torch.bfloat16)
        model.load_state_dict(quantized.state_dict())
        model.save_pretrained(staging)
        AutoTokenizer.from_pretrained(folder, gguf_file=name).save_pretrained(staging)
        staging.rename(target)
    except (OSError, ValueError, RuntimeError) as err:
        raise ModelLoadError(f"cannot convert {gguf_path} for vLLM: {str(err).splitlines()[0]}") from err
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target
