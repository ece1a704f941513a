"""A hybrid SSM/attention model the size of the dense test model, built with random weights.

Trained hybrid weights cannot be downloaded everywhere, and speed does not depend on the
weights: a model built from a config has the same shapes, so the same cost per token. The
hybrid follows IBM Granite-4.0-H's layout (Mamba-2 layers, one attention layer in six, no
positional embedding) at the width, depth, attention heads and vocabulary of Qwen2.5-0.5B,
with the MLP narrowed so that both have the same number of parameters (630M, of which
136M are the separate output embedding the converted test model also has).
"""

from __future__ import annotations

import math
import shutil
from pathlib import Path

HYBRID_NAME = "granite-4.0-h-layout-0.5b-random"
HYBRID_CONFIG = dict(
    vocab_size=151936, hidden_size=896, num_hidden_layers=24, num_attention_heads=14, num_key_value_heads=2,
    layer_types=(["mamba"] * 5 + ["attention"]) * 4, position_embedding_type="nope",
    num_local_experts=0, shared_intermediate_size=3840, intermediate_size=3840,
    mamba_n_heads=28, mamba_d_head=64, mamba_expand=2, mamba_d_state=128, mamba_n_groups=1, mamba_d_conv=4,
    tie_word_embeddings=False, max_position_embeddings=16384,
)
TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "chat_template.jinja", "special_tokens_map.json")


def build_hybrid(out_root: Path, tokenizer_dir: Path) -> Path:
    """The random-weight hybrid as a Hugging Face folder (bfloat16), with the dense model's tokenizer."""
    target = out_root / HYBRID_NAME
    if (target / "config.json").exists():
        return target
    from assistant._torch_addons import hide_broken_torch_addons

    hide_broken_torch_addons()
    import torch
    from transformers import AutoModelForCausalLM, GraniteMoeHybridConfig

    staging = target.with_name(target.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_config(GraniteMoeHybridConfig(**HYBRID_CONFIG), dtype=torch.bfloat16)
    model.save_pretrained(staging)
    for name in TOKENIZER_FILES:
        if (tokenizer_dir / name).exists():
            shutil.copy(tokenizer_dir / name, staging / name)
    staging.rename(target)
    return target


def parameter_count(folder: Path) -> int:
    """Parameters of a saved model, counted from its safetensors headers (nothing is loaded)."""
    from safetensors import safe_open

    total = 0
    for file in folder.glob("*.safetensors"):
        with safe_open(str(file), framework="pt") as weights:
            total += sum(math.prod(weights.get_slice(key).get_shape()) for key in weights.keys())
    return total


def state_bytes(config: dict, tokens: int) -> int:
    """Bytes of per-request model state after ``tokens`` tokens: bfloat16 keys and values of the
    attention layers (they grow with the context) plus, for Mamba layers, the float32 SSM state
    and bfloat16 convolution state (constant)."""
    layers = config["num_hidden_layers"]
    kinds = config.get("layer_types") or ["attention"] * layers
    attention = sum(kind in ("attention", "full_attention") for kind in kinds)
    head_dim = config.get("head_dim") or config["hidden_size"] // config["num_attention_heads"]
    kv = attention * 2 * config["num_key_value_heads"] * head_dim * 2 * tokens
    mamba = layers - attention
    if not mamba:
        return kv
    inner = config["mamba_n_heads"] * config["mamba_d_head"]
    ssm = config["mamba_n_heads"] * config["mamba_d_head"] * config["mamba_d_state"] * 4
    conv = (config["mamba_d_conv"] - 1) * (inner + 2 * config["mamba_n_groups"] * config["mamba_d_state"]) * 2
    return kv + mamba * (ssm + conv)
