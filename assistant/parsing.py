"""Turn a model's raw replies into clean values, tolerating the wrappers small models add."""

from __future__ import annotations

import re

from langchain_core.exceptions import OutputParserException
from langchain_core.output_parsers import JsonOutputParser
from pydantic import BaseModel, Field, ValidationError

from .errors import BackendError

_FENCE = re.compile(r"^```[\w-]*\n(.*?)\n?```$", re.DOTALL)
_LABEL = re.compile(r"^(?:translation|traduction|übersetzung|traducción|翻訳)\s*[:：]\s*", re.IGNORECASE)
_TAGS = re.compile(r"</?(?:source|translation)>", re.IGNORECASE)
# A bare tag of letters (<female>, </femme>), not a file's placeholder (<x1/>, <g2>) or one with attributes.
_WORD_TAG = re.compile(r"<(/?)([^\W\d_]+)>")
_QUOTE_PAIRS = {'"': '"', "«": "»", "“": "”", "„": "“", "「": "」"}


def clean_translation(reply: str) -> str:
    """Strip code fences, a leading 'Translation:' label, echoed tags and wrapping quotes."""
    text = reply.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1).strip()
    text = _TAGS.sub("", text).strip()
    text = _LABEL.sub("", text).strip()
    if len(text) >= 2 and _QUOTE_PAIRS.get(text[0]) == text[-1] and text.count(text[0]) == 1 + (text[0] == text[-1]):
        text = text[1:-1].strip()
    if not text:
        raise BackendError(f"the model returned no translation (raw reply: {reply[:80]!r})")
    return text


def without_invented_tags(translation: str, source: str, mark_names: frozenset[str],
                          left: frozenset[str] = frozenset()) -> str:
    """``translation`` without the bare tags its ``source`` does not have: the prompt's marks around a
    person's words, echoed as they are or translated (« <femme>la porteuse</femme> »). A pair of
    tags leaves the words between them; a lone tag standing for a word (« Quand <il> était petit »)
    leaves that word, unless it is a mark's own name (``mark_names``). Tags named in ``left`` stay
    (the prompt's blocks, which the fidelity check cuts and reports)."""
    found = [m for m in _WORD_TAG.finditer(translation)
             if m.group() not in source and m.group(2).lower() not in left]
    if not found:
        return translation
    kept: dict[int, str] = {m.start(): "" for m in found}
    open_at: dict[str, list[re.Match]] = {}
    for m in found:
        closing, name = m.group(1), m.group(2).lower()
        if not closing:
            open_at.setdefault(name, []).append(m)
        elif open_at.get(name):
            open_at[name].pop()
    for name, lone in open_at.items():
        for m in lone:
            kept[m.start()] = "" if name in mark_names else m.group(2)
    text, at = [], 0
    for m in found:
        text += [translation[at:m.start()], kept[m.start()]]
        at = m.end()
    text.append(translation[at:])
    return re.sub(r"[ \t]{2,}", " ", "".join(text)).strip()


class Detection(BaseModel):
    """The translator LM's verdict on one candidate word."""

    ambiguous: bool
    question: str = ""
    options: list[str] = Field(default_factory=list)


_QUESTION = re.compile(r"[^\n{}\"]*\?")
_NEGATIVE = re.compile(r"^\W*(?:no\b|not ambiguous|unambiguous)", re.IGNORECASE)


def parse_detection(reply: str, question_fixed: bool = False) -> Detection | None:
    """Read a detection reply: JSON (fenced or bare) first, then a plain question or a plain "no".
    ``question_fixed``: the type's question is the table's, so a reply needs none of its own.

    Returns None when nothing usable is there, so the caller can retry once.
    """
    try:
        data = JsonOutputParser().parse(reply)
    except OutputParserException:
        data = None
    if isinstance(data, dict):
        try:
            detection = Detection.model_validate(data)
        except ValidationError:
            detection = None
        if detection and (not detection.ambiguous or question_fixed or detection.question.strip()):
            detection.options = [str(o).strip() for o in detection.options if str(o).strip()]
            return detection
    if _NEGATIVE.match(reply):
        return Detection(ambiguous=False)
    question = _QUESTION.search(reply)
    if question and len(question.group(0).strip()) > 3:
        return Detection(ambiguous=True, question=question.group(0).strip())
    return None


_DECISION_LINE = re.compile(r"\b(\d+)\W{1,4}(yes|no)\b", re.IGNORECASE)


def decision_schema(count: int) -> dict:
    """The JSON schema of a decide reply for ``count`` words: each number maps to "yes" or "no"."""
    keys = [str(i) for i in range(1, count + 1)]
    return {"type": "object", "properties": {k: {"type": "string", "enum": ["yes", "no"]} for k in keys},
            "required": keys, "additionalProperties": False}


def parse_decisions(reply: str, count: int) -> list[bool] | None:
    """Read a decide reply (``{"1": "yes", "2": "no"}``, or lines such as ``1: yes``) into one
    verdict per word; None when any word has no readable verdict, so the caller can retry."""
    try:
        data = JsonOutputParser().parse(reply)
    except OutputParserException:
        data = None
    answers = {str(k): str(v).strip().lower() for k, v in data.items()} if isinstance(data, dict) else {
        number: verdict.lower() for number, verdict in _DECISION_LINE.findall(reply)}
    verdicts = [answers.get(str(i)) for i in range(1, count + 1)]
    if any(v not in ("yes", "no") for v in verdicts):
        return None
    return [v == "yes" for v in verdicts]
