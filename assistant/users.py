"""Who answers the clarifying questions: a person, a simulated user LM, an oracle, or nobody."""

from __future__ import annotations

from typing import Callable, Iterable, Protocol

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.output_parsers import StrOutputParser

from .detection import ambiguity_types
from .inputs import neutralize_control_tokens
from .prompts import load_prompt
from .summarize import ContextPolicy
from .transcript import Turn

USER_KINDS = ("human", "simulated", "oracle", "none")


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
    """Answers from gold labels of a data item: ``formality``, ``gender``, ``sense``, ``referent``."""

    name = "oracle"

    def __init__(self, gold: dict[str, str]):
        self.gold = gold

    def answer(self, turn: Turn, source: str) -> str | None:
        gold = self.gold
        if turn.ambiguity == "formality" and gold.get("formality"):
            return "generic" if gold["formality"] == "neutral" else gold["formality"]
        if turn.ambiguity in ("neutral_names", "neutral_professions") and gold.get("gender"):
            return {"feminine": "a woman", "masculine": "a man"}.get(gold["gender"], gold["gender"])
        if turn.ambiguity == "it_resolution" and (gold.get("referent") or gold.get("gender")):
            return gold.get("referent") or f"something whose word is {gold['gender']} in the translation"
        if turn.ambiguity == "polysemy" and gold.get("sense"):
            return f"the sense translated as '{gold['sense']}'"
        return None


class SimulatedUser:
    """An LM that reads the context the translator does not see and answers in a sentence.

    ``specialist`` shows it only the examples of the question's ambiguity type. It reads the
    extract of a long context that ``context_policy`` keeps (default: 256 tokens), never a
    model's summary of it: the same part the with-context translator is given.
    ``structured_output``: when the question's type has fixed options (formal/informal/generic,
    a man/a woman), the server is asked to reply with exactly one of them (vLLM's ``choice``
    constraint), so the answer is always one the checks can read. Options a translator model
    proposed are not forced: the context may name something better.
    """

    name = "simulated"

    def __init__(self, chat_model: BaseChatModel, context: str, target_lang: str, specialist: bool = False,
                 context_policy: ContextPolicy | None = None, structured_output: bool = False):
        self.chat_model = chat_model
        self.context = context
        self.target_lang = target_lang
        self.specialist = specialist
        self.context_policy = context_policy or ContextPolicy()
        self.structured_output = structured_output
        self._prompt = load_prompt("user")
        self._extracts: dict[str, str] = {}

    def answer(self, turn: Turn, source: str) -> str | None:
        groups = [turn.ambiguity] if self.specialist else list(self._prompt.examples)
        model = self.chat_model
        if self.structured_output and ambiguity_types()[turn.ambiguity].options:
            model = model.bind(extra_body={"structured_outputs": {"choice": list(turn.options)}})
        chain = self._prompt.chat_prompt(self.target_lang, groups) | model | StrOutputParser()
        reply = chain.invoke(
            {
                "context": neutralize_control_tokens(self.extract(source)),
                "source": neutralize_control_tokens(source),
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
