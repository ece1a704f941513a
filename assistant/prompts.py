"""Load the prompt files in ``prompts/`` and build langchain chat prompts from them.

Our schema is deliberately small: ``id``, ``version``, ``input_variables``, a ``system``
and a ``human`` f-string template, and an ``examples`` file of few-shot pairs in named
groups (a target language, or an ambiguity type); each pair holds the input variables and
the model's reply under ``reply_key``. Templates are checked at load time: a variable used but not declared, or
declared but unused, is an error. Few-shot pairs become literal messages (never
templates), so braces in them or in user text cannot break formatting.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

import yaml
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.prompts import ChatPromptTemplate, HumanMessagePromptTemplate
from langchain_core.runnables import Runnable

from .inputs import neutralize_control_tokens
from .languages import language_name
from .paths import shipped_dir

# Filled once per target language, in the system and human templates alike.
LANGUAGE_VARIABLES = frozenset({"language"})
PROMPT_TAG = "prompt:{}"
# A tag as the prompt files write one around a block of text: <source>, </fix>, <text lang="en">; not
# a self-closing one (<x1/>, a file's placeholder while a model reads it).
BLOCK_TAG = re.compile(r"</?([A-Za-z_][\w.-]*)(?:\s[^<>/]*)?>")


class MarkedText(str):
    """A value already made inert, then marked with the prompt's own tags (``marked``): the human
    template passes it as it is."""


class PromptFileError(ValueError):
    """A prompt file does not follow the schema."""


# How the translation prompt states each answer: "Q: <question> A: <answer>" (``clarification_line``).
# A line of the model's reply that opens with one of these labels restates the prompt.
CLARIFICATION_LABELS = ("Q:", "A:")


def clarification_line(question: str, answer: str) -> str:
    return f"{CLARIFICATION_LABELS[0]} {question} {CLARIFICATION_LABELS[1]} {answer}"


def prompts_root() -> Path:
    """The installed copy (``assistant/_prompts``) or, in a source checkout, ``prompts/``."""
    return shipped_dir("prompts")


@lru_cache(maxsize=None)
def prompt_table(name: str) -> dict[str, Any]:
    """A data table of ``prompts/`` (``reminders``, ``forbidden_words``), read once: the repair loop
    consults it for every candidate."""
    return yaml.safe_load((prompts_root() / f"{name}.yaml").read_text(encoding="utf-8"))


@dataclass(frozen=True)
class PromptSpec:
    """One validated prompt file."""

    id: str
    version: int
    input_variables: tuple[str, ...]
    system: str
    human: str
    reply_key: str
    examples: dict[str, list[dict[str, str]]]

    @property
    def ref(self) -> str:
        """``id@version``: recorded with results so numbers name the prompt that made them."""
        return f"{self.id}@{self.version}"

    def chat_prompt(self, lang: str, groups: Iterable[str] | None = None) -> ChatPromptTemplate:
        """System + few-shot prefix (constant for ``lang`` and ``groups``), then the variable human turn.

        ``groups`` names the example groups to show; by default the group named by ``lang``.
        """
        fixed = {"language": language_name(lang)}
        messages: list[Any] = [SystemMessage(self.system.format(**fixed))]
        for group in [lang] if groups is None else groups:
            for pair in self.examples.get(group, []):
                messages.append(HumanMessage(self.human.format(**fixed, **{k: pair[k] for k in self.input_variables})))
                messages.append(AIMessage(pair[self.reply_key]))
        messages.append(DataHumanMessagePromptTemplate.from_template(self.human, partial_variables=fixed))
        return ChatPromptTemplate.from_messages(messages)


class DataHumanMessagePromptTemplate(HumanMessagePromptTemplate):
    """The variable human turn: every value is text to work on, never a turn break or one of our tags.

    Neutralising here rather than at the call sites means no caller can forget it (a source, a
    span, a context, a model-written question or option, an answer all pass through)."""

    def format(self, **kwargs: Any) -> BaseMessage:
        return super().format(**_as_data(kwargs))

    async def aformat(self, **kwargs: Any) -> BaseMessage:
        return await super().aformat(**_as_data(kwargs))


def _as_data(values: dict[str, Any]) -> dict[str, Any]:
    tags = prompt_tags()

    def inert(value: Any) -> Any:
        if isinstance(value, MarkedText):
            return value
        if isinstance(value, str):
            return neutralize_control_tokens(value, tags)
        if isinstance(value, (list, tuple)):
            return type(value)(inert(item) for item in value)
        return value

    return {name: inert(value) for name, value in values.items()}


def marked(text: str, marks: Iterable[tuple[int, int, str]]) -> MarkedText:
    """``text`` made inert, with each ``(start, end, tag)`` span of it wrapped in the prompt tag
    ``<tag>…</tag>``; of overlapping spans the first is kept. A tag of the prompts written in
    ``text`` itself stays inert, so only the chain's own marks read as marks."""
    tags = prompt_tags()
    pieces, at, used = [], 0, set()
    for start, end, tag in sorted(marks):
        if start < at:
            continue
        pieces += [neutralize_control_tokens(text[at:start], tags), f"<{tag}>",
                   neutralize_control_tokens(text[start:end], tags), f"</{tag}>"]
        at, used = end, used | {tag}
    pieces.append(neutralize_control_tokens(text[at:], tags))
    # a tag the marks cut in two ("<sou" | "rce>") is whole again once joined: one more pass, sparing the marks
    return MarkedText(neutralize_control_tokens("".join(pieces), tuple(t for t in tags if t not in used)))


@lru_cache(maxsize=1)
def prompt_tags() -> tuple[str, ...]:
    """The names of the tags our prompt files use (``source`` for ``<source>``), read off every text in
    them (system and human templates, examples and their replies, the tables whose lines reach a
    prompt): a new prompt's tags are neutralised in every variable without anyone listing them."""
    names: set[str] = set()
    for path in sorted(prompts_root().rglob("*.yaml")):
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as err:
            raise PromptFileError(f"{path}: {err}") from err
        names.update(name.lower() for text in _texts(data) for name in BLOCK_TAG.findall(text))
    return tuple(sorted(names))


def _texts(data: Any) -> Iterable[str]:
    """Every string value in a parsed YAML document."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for value in data.values():
            yield from _texts(value)
    elif isinstance(data, list):
        for value in data:
            yield from _texts(value)


def template_variables(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def parse_prompt_file(path: Path) -> PromptSpec:
    """Read and validate one prompt file; ``PromptFileError`` names the file and the problem."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as err:
        raise PromptFileError(f"{path}: {err}") from err
    if not isinstance(data, dict):
        raise PromptFileError(f"{path}: expected a mapping at the top level")
    missing = {"id", "version", "input_variables", "system", "human"} - data.keys()
    if missing:
        raise PromptFileError(f"{path}: missing keys {sorted(missing)}")
    declared = set(data["input_variables"])
    used = template_variables(data["human"]) - LANGUAGE_VARIABLES
    if used != declared:
        raise PromptFileError(f"{path}: human template uses {sorted(used)} but declares {sorted(declared)}")
    extra = template_variables(data["system"]) - LANGUAGE_VARIABLES
    if extra:
        raise PromptFileError(f"{path}: system template may only use {sorted(LANGUAGE_VARIABLES)}, not {sorted(extra)}")
    reply_key = data.get("reply_key", "reply")
    required = [*data["input_variables"], reply_key]
    examples = _load_examples(path.parent / data["examples"], required) if data.get("examples") else {}
    return PromptSpec(
        id=str(data["id"]),
        version=int(data["version"]),
        input_variables=tuple(data["input_variables"]),
        system=data["system"],
        human=data["human"],
        reply_key=reply_key,
        examples=examples,
    )


def _load_examples(path: Path, required: list[str]) -> dict[str, list[dict[str, str]]]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as err:
        raise PromptFileError(f"{path}: {err}") from err
    if not isinstance(data, dict) or not all(isinstance(v, list) for v in data.values()):
        raise PromptFileError(f"{path}: expected a mapping from group name to a list of examples")
    for group, pairs in data.items():
        for i, pair in enumerate(pairs):
            missing = [key for key in required if not isinstance(pair, dict) or key not in pair]
            if missing:
                raise PromptFileError(f"{path}: example {i} of {group!r} lacks {missing}")
    return data


@lru_cache(maxsize=None)
def load_prompt(name: str) -> PromptSpec:
    """The prompt ``prompts/<name>.yaml``, parsed once per process."""
    return parse_prompt_file(prompts_root() / f"{name}.yaml")


def tagged(chain: Runnable, prompt_id: str) -> Runnable:
    """``chain`` with its prompt's id as run name and tag, so traces (and test fakes) can tell
    the steps apart without reading prompt wording."""
    return chain.with_config(run_name=prompt_id, tags=[PROMPT_TAG.format(prompt_id)])
