import pytest

from assistant.backends import DEFAULT_MODEL, ModelSpec, default_model_spec, supports_structured_output
from assistant.backends import spec as spec_module
from assistant.errors import ModelSpecError


@pytest.mark.parametrize(
    ("text", "backend", "target", "model"),
    [
        ("transformers:Qwen/Qwen2.5-1.5B-Instruct", "transformers", "Qwen/Qwen2.5-1.5B-Instruct", None),
        ("transformers:/models/q.gguf", "transformers", "/models/q.gguf", None),
        ("vllm:./local/folder", "vllm", "./local/folder", None),
        ("openai:http://127.0.0.1:8000/v1#qwen", "openai", "http://127.0.0.1:8000/v1", "qwen"),
        ("openai:https://api.example.org/v1", "openai", "https://api.example.org/v1", None),
        ("Qwen/Qwen2.5-1.5B-Instruct", "transformers", "Qwen/Qwen2.5-1.5B-Instruct", None),
    ],
)
def test_parse(text, backend, target, model):
    spec = ModelSpec.parse(text)
    assert (spec.backend, spec.target, spec.model) == (backend, target, model)


def test_round_trip():
    text = "openai:http://127.0.0.1:8000/v1#qwen"
    assert str(ModelSpec.parse(text)) == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty model spec"),
        ("trnsformers:foo", "did you mean 'transformers'"),
        ("lamacpp:foo", "did you mean 'llamacpp'"),
        ("vllm:", "names no model"),
        ("openai:localhost:8000", "http(s) base URL"),
    ],
)
def test_parse_errors(text, message):
    with pytest.raises(ModelSpecError, match=message.replace("(", r"\(").replace(")", r"\)")):
        ModelSpec.parse(text)


def test_default_model_follows_environment(monkeypatch):
    monkeypatch.delenv("INTERCPT_MODEL", raising=False)
    monkeypatch.setattr(spec_module, "llamacpp_installed", lambda: False)
    assert default_model_spec() == DEFAULT_MODEL
    monkeypatch.setenv("INTERCPT_MODEL", "openai:http://127.0.0.1:1/v1")
    assert default_model_spec() == "openai:http://127.0.0.1:1/v1"


@pytest.mark.parametrize(("text", "structured"), [
    ("vllm:org/model", True), ("openai:http://127.0.0.1:8000/v1", True), ("transformers:org/model", False),
])
def test_structured_output_follows_the_parsed_backend(text, structured):
    assert supports_structured_output(ModelSpec.parse(text)) is structured
