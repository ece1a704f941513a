"""The chain's options, shared by every front end (translate, chat, the web app, the evaluator).

Kept apart from the chain itself so that a command can build its options (and ``--help``)
without importing the model stack.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .context.encoders import ENCODERS
from .context.policy import DEFAULT_BUDGET, DEFAULT_STRATEGY, STRATEGIES, ContextPolicy
from .errors import InputError

METHODS = ("intercpt", "with-context", "no-extra")
PROMPT_VARIANTS = ("generalist", "specialist")
USER_KINDS = ("human", "simulated", "oracle", "none")  # who answers the questions (assistant.users)
DEFAULT_MAX_QUESTIONS = 3
MAX_QUESTIONS_LIMIT = 10


@dataclass(frozen=True)
class ChainOptions:
    """How the chain runs, shared by every front end (translate, chat, the web app, the evaluator).

    The field metadata is the single source of each command-line option: help text, metavar,
    choices and bounds; the front ends generate their options from it.
    """

    method: str = field(default="intercpt", metadata={
        "help": "intercpt asks before translating; with-context translates given the context; no-extra translates "
                "the text alone", "choices": METHODS})
    max_questions: int = field(default=DEFAULT_MAX_QUESTIONS, metadata={
        "help": "ask at most J questions per text", "metavar": "J", "min": 0, "max": MAX_QUESTIONS_LIMIT})
    prompts: str = field(default="generalist", metadata={
        "help": "detection (and simulated-user) prompts with examples of every ambiguity type, or of the one found",
        "choices": PROMPT_VARIANTS})
    context_strategy: str = field(default=DEFAULT_STRATEGY, metadata={
        "help": "how much of a long context a model reads: extract (the most relevant sentences within the budget), "
                "extract+abstract (also a model summary of them), truncate-head (the last tokens), truncate-tail "
                "(the first tokens), full (all of it)", "choices": STRATEGIES})
    context_budget: int = field(default=DEFAULT_BUDGET, metadata={
        "help": "most context tokens a model reads, counted as spaCy word tokens", "metavar": "TOKENS"})
    context_encoder: str | None = field(default=None, metadata={
        "help": "a local sentence encoder that adds meaning to the extract's relevance score (needs its package)",
        "choices": tuple(sorted(ENCODERS))})
    inclusive: bool = field(default=False, metadata={
        "help": "ask the gender of anyone of a kind too (\"any user\", \"customers\"), for translations in inclusive "
                "forms; by default their generic form is kept"})

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise InputError(f"unknown method {self.method!r}; choose one of: {', '.join(METHODS)}")
        if self.prompts not in PROMPT_VARIANTS:
            raise InputError(f"unknown prompt variant {self.prompts!r}; choose one of: {', '.join(PROMPT_VARIANTS)}")
        if not 0 <= self.max_questions <= MAX_QUESTIONS_LIMIT:
            raise InputError(f"the number of questions must be between 0 and {MAX_QUESTIONS_LIMIT}, "
                             f"not {self.max_questions}")
        self.context_policy()  # a bad strategy, budget or encoder fails here, before any model loads

    @property
    def specialist(self) -> bool:
        """The prompts show examples of the one ambiguity type in question, not of every type."""
        return self.prompts == "specialist"

    def context_policy(self) -> ContextPolicy:
        return ContextPolicy(strategy=self.context_strategy, budget=self.context_budget, encoder=self.context_encoder)
