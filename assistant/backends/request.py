"""What one call asks of a model beyond its messages, typed: the chain fills a ``GenerationRequest``
and binds it to the chat model (``request.bound_to(model)``); each backend reads it from its
call's keyword arguments (``GenerationRequest.of``), and only the OpenAI-compatible client turns it
into the fields of a request body. Modelled on vLLM's ``SamplingParams`` (``bad_words``) and
``StructuredOutputsParams`` (``choice``, ``json``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import BackendError

if TYPE_CHECKING:
    from langchain_core.runnables import Runnable

# The keyword argument a bound request travels under, from the chain to a backend's ``_generate``.
REQUEST_KWARG = "request"


@dataclass(frozen=True)
class StructuredOutputs:
    """A reply constrained to exactly one of ``choice`` (verbatim) or to the JSON schema ``json``."""

    choice: tuple[str, ...] | None = None
    json: Mapping[str, Any] | None = field(default=None, hash=False)

    def __post_init__(self) -> None:
        if (self.choice is None) == (self.json is None):
            raise BackendError("a structured output is either a list of choices or a JSON schema")
        if self.choice is not None and not self.choice:
            raise BackendError("a choice constraint needs at least one choice")


@dataclass(frozen=True)
class GenerationRequest:
    """Decoding options of one call; what is left None is the model's own (``GenerationConfig``).

    temperature: 0 is greedy; a sampled call gives one with its ``seed``.
    max_tokens: upper bound on the reply's tokens.
    bad_words: words the reply may not contain (vLLM's meaning: each word's token sequence, at the
        start of the reply and after a space; Japanese words as text wherever they appear).
    structured_outputs: the reply's constraint, if any (such a reply comes whole, not streamed).
    """

    temperature: float | None = None
    seed: int | None = None
    max_tokens: int | None = None
    bad_words: tuple[str, ...] = ()
    structured_outputs: StructuredOutputs | None = None

    @classmethod
    def of(cls, kwargs: Mapping[str, Any]) -> "GenerationRequest":
        """The request bound to a call (its keyword arguments); an unbound call asks for nothing."""
        return kwargs.get(REQUEST_KWARG) or cls()

    def bound_to(self, model: Runnable) -> Runnable:
        """``model`` with this request bound to each of its calls."""
        return model.bind(**{REQUEST_KWARG: self})
