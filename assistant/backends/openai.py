"""Any OpenAI-compatible server (vLLM, llama.cpp, Ollama, a hosted API) through langchain-openai."""

from __future__ import annotations

import os

from langchain_openai import ChatOpenAI

from ..errors import BackendError
from .config import GenerationConfig
from .spec import ModelSpec

API_KEY_ENV_VARS = ("INTERCPT_API_KEY", "OPENAI_API_KEY")


def api_key_from_env() -> str:
    """The first API key found in the environment; local servers accept any placeholder."""
    for name in API_KEY_ENV_VARS:
        if os.environ.get(name):
            return os.environ[name]
    return "EMPTY"


def served_models(base_url: str, api_key: str, timeout: float = 10.0) -> list[str]:
    """Ids the server lists under /models; a clear error when it cannot be reached."""
    import openai

    client = openai.OpenAI(base_url=base_url, api_key=api_key, timeout=timeout, max_retries=0)
    try:
        return [m.id for m in client.models.list()]
    except openai.APIConnectionError as err:
        raise BackendError(f"cannot reach the model server at {base_url} ({err.__class__.__name__}); is it running?") from err
    except openai.APIStatusError as err:
        raise BackendError(f"the model server at {base_url} answered HTTP {err.status_code} to /models") from err


def chat_model(base_url: str, model: str, generation: GenerationConfig, api_key: str | None = None) -> ChatOpenAI:
    """A chat model for ``model`` on the server at ``base_url``."""
    return ChatOpenAI(
        base_url=base_url,
        model=model,
        api_key=api_key or api_key_from_env(),
        temperature=generation.temperature,
        max_tokens=generation.max_tokens,
        seed=generation.seed,
        timeout=600,
        max_retries=1,
    )


def load(spec: ModelSpec, generation: GenerationConfig) -> ChatOpenAI:
    """``openai:<base_url>#<model>``; without ``#<model>`` the server's first model is used."""
    api_key = api_key_from_env()
    models = served_models(spec.target, api_key)
    model = spec.model
    if model is None:
        if not models:
            raise BackendError(f"the server at {spec.target} serves no model; name one with {spec.target}#<model>")
        model = models[0]
    elif models and model not in models:
        raise BackendError(f"the server at {spec.target} does not serve {model!r}; it serves: {', '.join(models)}")
    return chat_model(spec.target, model, generation, api_key)
