"""The model steps of the chain: ask about a candidate, translate, verify and repair.

Each step is one prompt sent to the chat model; none of them knows about dialogues or
users, so the dialogue (above) drives them and the steps never call back up.
"""

from __future__ import annotations

from functools import lru_cache

import yaml
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import Runnable, RunnableLambda
from pydantic import BaseModel

from .ambiguity import get_type
from .checks import expectations, length_plausible, read_label
from .context import ContextPolicy, Summarizer
from .detection import Candidate
from .parsing import Detection, clean_translation, parse_detection
from .prompts import load_prompt, prompts_root, tagged
from .transcript import Check, Transcript, Turn

PROMPT_VARIANTS = ("generalist", "specialist")
REPAIR_BUDGET = 3
RETRY_TEMPERATURE = 0.7


def _badness(checks: list[Check]) -> tuple[int, int]:
    """Order candidates: fewer contradictions first, then fewer unverifiable checks."""
    return (sum(c.status == "fail" for c in checks), sum(c.status == "unchecked" for c in checks))


@lru_cache(maxsize=1)
def _reminders() -> dict:
    return yaml.safe_load((prompts_root() / "reminders.yaml").read_text(encoding="utf-8"))


def repair_reminder(check: str, expected: str, lang: str) -> str:
    """The explicit instruction that goes with an answer meaning ``expected`` for ``check``."""
    return _reminders().get(check, {}).get(expected, {}).get(lang) or f"Use the {expected} form."


class ModelSteps:
    """The chain's calls to one chat model.

    prompts: ``generalist`` detection prompts show examples of every ambiguity type;
        ``specialist`` ones only the type the pre-pass found.
    repair_budget: how many sampled re-translations verify-and-repair may try.
    structured_output: the backend constrains replies to a JSON schema, so detection
        replies always parse; otherwise they are parsed tolerantly.
    context_policy: how much of a long context a model reads.
    """

    def __init__(self, chat_model: BaseChatModel, *, prompts: str = "generalist", repair_budget: int = REPAIR_BUDGET,
                 structured_output: bool = False, context_policy: ContextPolicy | None = None):
        self.chat_model = chat_model
        self.prompts = prompts
        self.repair_budget = repair_budget
        self.structured_output = structured_output
        self.context_policy = context_policy or ContextPolicy()
        self._prompt_cache: dict[tuple, ChatPromptTemplate] = {}

    def ask(self, source: str, target_lang: str, candidate: Candidate) -> Turn | None:
        """One detection call (retried once, sampling, if unparsable): a question, or None."""
        kind = get_type(candidate.ambiguity)
        prompt = load_prompt("detect")
        groups = (candidate.ambiguity,) if self.prompts == "specialist" else tuple(prompt.examples)
        inputs = {"source": source, "span": candidate.span, "ambiguity": kind.label}
        detection = None
        for seed in (None, 1):
            schema = Detection if self.structured_output else None
            detection = parse_detection(self._chain("detect", target_lang, groups, seed=seed, schema=schema)
                                        .invoke(inputs))
            if detection is not None:
                break
        if detection is None or not detection.ambiguous:
            return None
        options = list(kind.options(target_lang)) or detection.options[:4]
        return Turn(ambiguity=candidate.ambiguity, span=candidate.span, question=detection.question, options=options)

    def translate(self, transcript: Transcript, turns: list[Turn] | None = None, sample_seed: int | None = None) -> str:
        """Translate by the transcript's method, conditioned on the answered ``turns`` (default: its own).

        Each answer whose meaning the checks can read ("formal, my boss" -> formal) is followed
        by an explicit instruction for the target language, which small models follow far
        more reliably than the answer alone.
        """
        lang = transcript.target_lang
        source = transcript.source
        if transcript.method == "with-context":
            inputs = {"context": self.context_for_translator(transcript), "source": source}
            name = "translate_context"
        else:
            turns = transcript.turns if turns is None else turns
            lines = []
            for turn in (t for t in turns if t.answer):
                lines.append(f"Q: {turn.question} A: {turn.answer}")
                lines += [repair_reminder(check, label, lang) for check, label in expectations([turn])]
            name = "translate_clarified" if lines else "translate"
            inputs = {"source": source, "clarifications": "\n".join(lines)} if lines else {"source": source}
        return self._chain(name, lang, None, clean=True, seed=sample_seed).invoke(inputs)

    def context_for_translator(self, transcript: Transcript) -> str:
        """The context the dialogue bounded, or under ``extract+abstract`` its summary (written once,
        kept in the transcript)."""
        bounded = transcript.bounded_context
        if bounded.strategy == "extract+abstract" and bounded.summary is None:
            bounded.summary = Summarizer(self.chat_model, transcript.target_lang)(bounded.text)
        return bounded.summary or bounded.text

    def verify_and_repair(self, transcript: Transcript, translation: str, turns: list[Turn] | None = None
                          ) -> tuple[str, list[Check]]:
        """Check ``translation`` against the answers in ``turns`` (and its length against the source's,
        which catches a model that answered or obeyed the text instead of translating it); unless
        every check passes, sample re-translations (up to the repair budget) and keep the one that
        agrees best. Returns the kept text and its checks."""
        turns = transcript.turns if turns is None else turns
        wanted = expectations(turns)
        lang = transcript.target_lang

        def evaluate(text: str) -> list[Check]:
            plausible = length_plausible(transcript.source, text, lang)
            checks = [] if plausible is None else [
                Check(name="length", expected="plausible", observed="plausible" if plausible else "implausible",
                      status="pass" if plausible else "fail")]
            for name, expected in wanted:
                observed = read_label(name, text, lang)
                status = "unchecked" if observed is None else ("pass" if observed == expected else "fail")
                checks.append(Check(name=name, expected=expected, observed=observed, status=status))
            return checks

        checks = evaluate(translation)
        attempts = 1
        while _badness(checks) != (0, 0) and attempts <= self.repair_budget:
            candidate = self.translate(transcript, turns, sample_seed=attempts)
            attempts += 1
            candidate_checks = evaluate(candidate)
            if _badness(candidate_checks) < _badness(checks):
                translation, checks = candidate, candidate_checks
        for check in checks:
            check.attempts = attempts
        return translation, checks

    def _chain(self, prompt_name: str, lang: str, groups: tuple[str, ...] | None, clean: bool = False,
               seed: int | None = None, schema: type[BaseModel] | None = None) -> Runnable:
        """Prompt | model | parser; greedy unless ``seed`` is given, then sampled with that seed;
        with ``schema``, the server is asked to constrain the reply to its JSON schema."""
        key = (prompt_name, lang, groups)
        if key not in self._prompt_cache:
            self._prompt_cache[key] = load_prompt(prompt_name).chat_prompt(lang, groups)
        options: dict = {} if seed is None else {"temperature": RETRY_TEMPERATURE, "seed": seed}
        if schema is not None:
            options["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": schema.__name__, "schema": schema.model_json_schema()},
            }
        model = self.chat_model.bind(**options) if options else self.chat_model
        chain = self._prompt_cache[key] | model | StrOutputParser()
        chain = chain | RunnableLambda(clean_translation) if clean else chain
        return tagged(chain, prompt_name)
