"""Any OpenAI-compatible server (vLLM, llama.cpp, Ollama, a hosted API) through langchain-openai."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import httpx
import openai
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatGenerationChunk, ChatResult
from langchain_openai import ChatOpenAI
from pydantic import PrivateAttr

from .. import deadlines
from ..errors import BackendError, GarbageReplyError, OutageError
from .bad_words import token_sequences
from .config import GenerationConfig
from .request import REQUEST_KWARG, GenerationRequest
from .results import whole_reply_chunk
from .spec import ModelSpec

API_KEY_ENV_VARS = ("INTERCPT_API_KEY", "OPENAI_API_KEY")
CALL_TIMEOUT_S = 600.0  # one try of a call made outside a request's deadline (the CLI, the evaluator)
CALL_RETRIES = 1
SCHEMA_NAME = "reply"  # the name OpenAI's ``response_format`` wants for a JSON schema


def api_key_from_env() -> str:
    """The first API key found in the environment; local servers accept any placeholder."""
    for name in API_KEY_ENV_VARS:
        if os.environ.get(name):
            return os.environ[name]
    return "EMPTY"


def served_models(base_url: str, api_key: str, timeout: float = 10.0) -> list[str]:
    """Ids the server lists under /models; a clear error when it cannot be reached."""
    client = openai.OpenAI(base_url=base_url, api_key=api_key, timeout=timeout, max_retries=0)
    try:
        return [m.id for m in client.models.list()]
    except openai.APIConnectionError as err:
        raise BackendError(f"cannot reach the model server at {base_url} ({err.__class__.__name__}); is it running?") from err
    except openai.APIStatusError as err:
        raise BackendError(f"the model server at {base_url} answered HTTP {err.status_code} to /models") from err


NOT_A_COMPLETION = "the model server answered something that is not a chat completion"


def request_fields(request: GenerationRequest) -> dict[str, Any]:
    """``request`` as the fields of an OpenAI-compatible request body (ChatOpenAI's keyword arguments):
    sampling as OpenAI's own fields, a JSON schema as ``response_format``, and vLLM's extensions, the
    forbidden words and a list of choices, under ``extra_body``."""
    fields: dict[str, Any] = {name: getattr(request, name) for name in ("temperature", "seed", "max_tokens")
                              if getattr(request, name) is not None}
    extra: dict[str, Any] = {}
    if request.bad_words:
        extra["bad_words"] = list(request.bad_words)
    structured = request.structured_outputs
    if structured is not None and structured.choice is not None:
        extra["structured_outputs"] = {"choice": list(structured.choice)}
    if structured is not None and structured.json is not None:
        fields["response_format"] = {"type": "json_schema",
                                     "json_schema": {"name": SCHEMA_NAME, "schema": dict(structured.json)}}
    return fields | ({"extra_body": extra} if extra else {})


def _unconstrained(request: GenerationRequest) -> GenerationRequest:
    """``request`` without the fields a server may not know (a structured output, forbidden words)."""
    return replace(request, bad_words=(), structured_outputs=None)


class ConstrainableChatOpenAI(ChatOpenAI):
    """ChatOpenAI that sends a call's ``GenerationRequest`` as the fields of its request body; that
    drops output constraints a server rejects, so a chain that asks for them runs anywhere; that
    takes the whole reply from a server that does not stream; that waits for a server no longer
    than the request it serves may take; and whose failures are the chain's own errors (a server
    down, timed out or failing is an ``OutageError``, an unreadable reply a ``BackendError``).

    A server without vLLM's structured outputs and forbidden words either ignores the fields (the
    reply is then parsed tolerantly) or answers HTTP 400; on a 400 the request is sent again
    without them, and once that works the model stops sending them.
    """

    # A vLLM server's /tokenize endpoint, where known: forbidden words are then also sent as token
    # biases (see ``body_fields``).
    tokenize_url: str | None = None
    _constraints_rejected: bool = PrivateAttr(default=False)
    _streaming_unsupported: bool = PrivateAttr(default=False)
    _banned_tokens: dict[str, dict[str, int]] = PrivateAttr(default_factory=dict)

    @property
    def constraints_rejected(self) -> bool:
        return self._constraints_rejected

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        request, others = GenerationRequest.of(kwargs), self._others(kwargs)
        sent, plain = others | self.body_fields(request), others | self.body_fields(_unconstrained(request))
        with self._server_failures(sent):
            if self._constraints_rejected or plain == sent:
                return super()._generate(messages, stop, run_manager, **plain)
            try:
                return super()._generate(messages, stop, run_manager, **sent)
            except openai.BadRequestError:
                result = super()._generate(messages, stop, run_manager, **plain)
                self._constraints_rejected = True
                return result

    def _stream(self, messages: list[BaseMessage], stop: list[str] | None = None,
                run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> Iterator[ChatGenerationChunk]:
        """The reply as the server streams it. A server (or a proxy) may answer a streamed request with
        one plain JSON completion, which the OpenAI client reads as a stream of no events: the reply
        is then asked for whole, and from then on never streamed."""
        if not self._streaming_unsupported:
            sent = self._others(kwargs) | self.body_fields(GenerationRequest.of(kwargs))
            streamed = False
            with self._server_failures(sent):
                for chunk in super()._stream(messages, stop, run_manager, **sent):
                    streamed = True
                    yield chunk
            if streamed:
                return
        whole = self._generate(messages, stop, run_manager, **kwargs)
        self._streaming_unsupported = True
        yield whole_reply_chunk(whole)

    def _create_chat_result(self, response: Any, generation_info: dict | None = None) -> ChatResult:
        if not isinstance(response, dict | openai.BaseModel):  # a body that is not JSON: an HTML error page
            raise GarbageReplyError(NOT_A_COMPLETION)
        return super()._create_chat_result(response, generation_info)

    def _others(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        """A call's keyword arguments besides its ``GenerationRequest``, with the time it may wait: each
        try of a call made for a request waits at most its share of the time the request has left."""
        others = {k: v for k, v in kwargs.items() if k != REQUEST_KWARG}
        deadline = deadlines.current()
        if deadline is None:
            return others
        tries = (self.max_retries or 0) + 1
        longest = self.request_timeout if isinstance(self.request_timeout, int | float) else CALL_TIMEOUT_S
        return others | {"timeout": max(0.1, min(longest, deadline.remaining() / tries))}

    @contextmanager
    def _server_failures(self, kwargs: dict[str, Any]) -> Iterator[None]:
        """The OpenAI client's errors for a server that is down, hangs or fails as ``OutageError`` (the
        caller may try again later), an unreadable reply as ``BackendError``."""
        try:
            yield
        except AttributeError as err:
            if not isinstance(err.obj, str):
                raise
            raise GarbageReplyError(NOT_A_COMPLETION) from err  # the reader of a constrained reply got a non-JSON body
        except openai.APITimeoutError as err:
            waited = kwargs.get("timeout") or self.request_timeout
            raise OutageError(f"the model server did not answer within {waited:.3g} s") from err
        except openai.APIConnectionError as err:
            raise OutageError("the model server cannot be reached") from err
        except openai.InternalServerError as err:
            raise OutageError(f"the model server failed (HTTP {err.status_code})") from err

    def body_fields(self, request: GenerationRequest) -> dict[str, Any]:
        """``request_fields``, and on a vLLM server whose tokenizer is known the one-token forms of the
        forbidden words as a logit bias: vLLM's ``bad_words`` forbids a word's form after a space only
        when it has as many tokens as the word alone ("votre" is two tokens and " votre" one, so
        " votre" stayed allowed)."""
        fields = request_fields(request)
        if not request.bad_words or self.tokenize_url is None:
            return fields
        bias: dict[str, int] = {}
        for word in request.bad_words:
            if word not in self._banned_tokens:
                sequences = token_sequences([word], self._tokenize)
                self._banned_tokens[word] = {str(s[0]): -100 for s in sequences if len(s) == 1}
            bias.update(self._banned_tokens[word])
        return fields | {"logit_bias": bias}

    def _tokenize(self, text: str) -> list[int]:
        reply = httpx.post(self.tokenize_url, json={"model": self.model_name, "prompt": text,
                                                    "add_special_tokens": False},
                           headers={"Authorization": f"Bearer {self.openai_api_key.get_secret_value()}"}, timeout=30)
        reply.raise_for_status()
        return reply.json()["tokens"]


def chat_model(base_url: str, model: str, generation: GenerationConfig, api_key: str | None = None,
               tokenize_url: str | None = None) -> ChatOpenAI:
    """A chat model for ``model`` on the server at ``base_url`` (``tokenize_url``: a vLLM server's own)."""
    return ConstrainableChatOpenAI(
        tokenize_url=tokenize_url,
        base_url=base_url,
        model=model,
        api_key=api_key or api_key_from_env(),
        temperature=generation.temperature,
        max_tokens=generation.max_tokens,
        seed=generation.seed,
        timeout=CALL_TIMEOUT_S,
        max_retries=CALL_RETRIES,
        stream_usage=True,  # a streamed reply ends with its token counts, as a whole one does
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
