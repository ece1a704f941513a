"""Who answers the clarifying questions: a person, a simulated user LM, an oracle, or nobody."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Protocol

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.output_parsers import StrOutputParser

from .ambiguity import family_of, get_type
from .backends import GenerationRequest, StructuredOutputs
from .errors import InputError
from .options import USER_KINDS, ChainOptions
from .prompts import load_prompt, tagged
from .transcript import Turn



class User(Protocol):
    """Answers one question about ``source``; None means the question is skipped."""

    name: str

    def answer(self, turn: Turn, source: str) -> str | None: ...


class NoUser:
    """Skips every question (the chain still translates, and offers alternatives)."""

    name = "none"

    def answer(self, turn: Turn, source: str) -> str | None:
        return None


class HumanUser:
    """A person, reached through a callback (the terminal, the browser, scripted answers)."""

    name = "human"

    def __init__(self, ask: Callable[[Turn], str | None]):
        self._ask = ask

    def answer(self, turn: Turn, source: str) -> str | None:
        reply = self._ask(turn)
        if reply is None or not reply.strip():
            return None
        return reply.strip()


class OracleUser:
    """Answers from the gold labels of a data item, the way the ambiguity table says for the
    question's type (e.g. gender "feminine" -> "a woman"); skips what the labels do not settle.
    ``about``: the ambiguity type the labels describe, where known (an evaluation item's): a question
    of another family is skipped, since a GATE item's gender is its person's, not that of what "it"
    stands for."""

    name = "oracle"

    def __init__(self, gold: Mapping[str, str], about: str | None = None):
        self.gold = dict(gold)
        self.family = family_of(about) if about else None

    def answer(self, turn: Turn, source: str) -> str | None:
        if self.family is not None and family_of(turn.ambiguity) != self.family:
            return None
        return get_type(turn.ambiguity).oracle_answer(self.gold)


class SimulatedUser:
    """An LM that reads the context the translator does not see and answers in a sentence.

    The ``options``' specialist prompts show it only the examples of the question's ambiguity
    type. It reads the extract of a long context that the options' context policy keeps
    (default: 256 tokens), never a model's summary of it: the same part the with-context
    translator is given.
    ``structured_output``: when the question's type has fixed options (formal/informal/generic,
    a man/a woman), the server is asked to reply with exactly one of them (vLLM's ``choice``
    structured output), so the answer is always one the checks can read. Options a translator model
    proposed are not forced: the context may name something better.
    """

    name = "simulated"

    def __init__(self, chat_model: BaseChatModel, context: str, target_lang: str,
                 options: ChainOptions = ChainOptions(), structured_output: bool = False):
        self.chat_model = chat_model
        self.context = context
        self.target_lang = target_lang
        self.specialist = options.specialist
        self.context_policy = options.context_policy()
        self.structured_output = structured_output
        self._prompt = load_prompt("user")
        self._extracts: dict[str, str] = {}

    def answer(self, turn: Turn, source: str) -> str | None:
        groups = [turn.ambiguity] if self.specialist else list(self._prompt.examples)
        model = self.chat_model
        if self.structured_output and get_type(turn.ambiguity).options(self.target_lang):
            choice = StructuredOutputs(choice=tuple(turn.options))
            model = GenerationRequest(structured_outputs=choice).bound_to(model)
        chain = tagged(self._prompt.chat_prompt(self.target_lang, groups) | model | StrOutputParser(), "user")
        reply = chain.invoke(
            {
                "context": self.extract(source),
                "source": source,
                "question": turn.question,
                "options": ", ".join(turn.options) or "(none)",
            }
        )
        return reply.strip().splitlines()[0].strip() if reply.strip() else None

    def extract(self, source: str) -> str:
        """The part of the context read for questions about ``source`` (bounded once per source)."""
        if source not in self._extracts:
            self._extracts[source] = self.context_policy.for_source(self.context, source, self.target_lang).text
        return self._extracts[source]


def scripted_then(answers: Iterable[str], fallback: Callable[[Turn], str | None] | None) -> Callable[[Turn], str | None]:
    """Answer from ``answers`` in order; once they run out, ask ``fallback`` (or skip)."""
    queue = list(answers)

    def ask(turn: Turn) -> str | None:
        if queue:
            return queue.pop(0)
        return fallback(turn) if fallback else None

    return ask


def make_user(kind: str, *, target_lang: str, options: ChainOptions = ChainOptions(),
              chat_model: BaseChatModel | None = None, structured_output: bool = False, context: str | None = None,
              gold: Mapping[str, str] | None = None, gold_about: str | None = None,
              ask: Callable[[Turn], str | None] | None = None) -> User:
    """Whoever answers: ``human`` (through ``ask``), ``simulated`` (``chat_model`` reading ``context``
    under ``options``), ``oracle`` (from ``gold``, labels of the ambiguity type ``gold_about`` where
    given) or ``none``. The front ends reach it through ``Assistant.user``, which gives the model."""
    if kind == "human":
        return HumanUser(ask or (lambda turn: None))
    if kind == "simulated":
        if chat_model is None or not (context and context.strip()):
            raise InputError("the simulated user answers from a context: give one to read")
        return SimulatedUser(chat_model, context, target_lang, options, structured_output=structured_output)
    if kind == "oracle":
        if not gold:
            raise InputError("the oracle user answers from gold labels: give them")
        return OracleUser(gold, gold_about)
    if kind == "none":
        return NoUser()
    raise InputError(f"unknown kind of user {kind!r}; choose one of: {', '.join(USER_KINDS)}")
